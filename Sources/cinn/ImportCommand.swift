import ArgumentParser
import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation
import Synchronization

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Import weigh-ins, an Apple Health export, a MyFitnessPal export or workouts (Fitbod, Strong, FitNotes) from a file, list imports, or undo one.",
        subcommands: [ImportFile.self, List.self, Undo.self], defaultSubcommand: ImportFile.self)

    struct ImportFile: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "file",
            abstract:
                "Import an Apple Health export (export.zip or export.xml), a weight file (generic CSV, Hacker's Diet Online, Libra, Fitbit JSON, Google Health CSV), a MyFitnessPal export (zip, folder or CSV), a workout CSV (Fitbod, Strong, FitNotes) or a Nightscout export.",
            discussion:
                "A file with invalid rows is rejected whole, listing them, unless --skip-invalid. Importing the same file again adds nothing."
        )

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The file to import.")
        var file: String

        @Option(
            help:
                "apple-health, health-auto-export, csv, hackdiet, libra, fitbit, google-health, myfitnesspal, fitbod, strong, fitnotes, fitnotes-body or nightscout (default: detected from the content)."
        )
        var format: String?

        @Option(
            help:
                "kg, lb or st, for files that do not say (Fitbit JSON and Strong's classic export need it; forces a MyFitnessPal export's weight unit)."
        )
        var unit: MassUnit?

        @Option(help: "day-first or month-first, for a MyFitnessPal export a spreadsheet saved again whose dates do not say (1/2/2023).")
        var dateOrder: MyFitnessPalExport.DateOrder?

        @Flag(help: "Show what would be imported; write nothing.")
        var dryRun = false

        @Flag(help: "Import the good rows of a file that has invalid ones.")
        var skipInvalid = false

        @Flag(help: "Show the progress bar even when standard error is not a terminal (a log file).")
        var progress = false

        func run() async throws {
            let url = URL(fileURLWithPath: file)
            guard FileManager.default.fileExists(atPath: url.path) else {
                printError("error: cannot read \(file)")
                throw ExitCode.validationFailure
            }
            let bar = ProgressBar(enabled: progress || isatty(STDERR_FILENO) == 1)
            let report = try await options.withJournal(installingAlongside: true) { journal in
                do {
                    return try await journal.importAnyFile(
                        at: url, fileName: url.lastPathComponent, format: format, unit: unit,
                        dateOrder: dateOrder, mode: ImportMode(dryRun: dryRun, skipInvalid: skipInvalid)
                    ) {
                        bar.update($0)
                    }
                } catch let error as CinnError where error.field == "unit" || error.field == "date_order" {
                    // A file that does not say its unit or its dates' order: the message names the choices; here they are
                    // given with --unit and --date-order.
                    throw CinnError(
                        error.code, error.message + (error.field == "unit" ? " (--unit)" : " (--date-order)"), field: error.field)
                }
            }
            bar.finish()
            printImportReport(report, skipInvalid: skipInvalid)
            if report.rejectedCount > 0 && !skipInvalid && !dryRun { throw ExitCode.validationFailure }
        }

    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List imports, newest first.")

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            try await options.withJournal { journal in
                let batches = try await journal.imports()
                if batches.isEmpty { print("No imports yet.") }
                for batch in batches {
                    let when = WeighIn.isoString(instant: batch.createdAt, utcOffsetSeconds: 0).prefix(16)
                    let state = batch.undoneAt == nil ? "" : "  (undone)"
                    print(
                        "#\(batch.id)  \(when)Z  \(batch.format)  \(batch.fileName ?? "-")  imported \(batch.imported), duplicates \(batch.duplicates)\(state)"
                    )
                }
            }
        }
    }

    struct Undo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Undo an import: remove what it added (weigh-ins, food entries, workouts…).")

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The import's number, from `cinn import list`.")
        var id: Int64

        func run() async throws {
            try await options.withJournal { journal in
                let removed = try await journal.undoImport(id: id)
                print("Undid import #\(id): removed \(removed) record\(removed == 1 ? "" : "s").")
            }
        }
    }
}

/// A progress bar on standard error: bytes, rows, rows per second and time left, redrawn at most ten times a second.
final class ProgressBar: Sendable {
    private struct State {
        var started = Date()
        var lastDrawn = Date.distantPast
        var drawn = false
    }

    private let enabled: Bool
    private let state = Mutex(State())

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ progress: ImportProgress) {
        guard enabled else { return }
        let now = Date()
        let line: String? = state.withLock { state in
            guard now.timeIntervalSince(state.lastDrawn) >= 0.1 else { return nil }
            state.lastDrawn = now
            state.drawn = true
            let elapsed = max(now.timeIntervalSince(state.started), 0.001)
            let rate = Double(progress.rowsRead) / elapsed
            let fraction = progress.fraction ?? 0
            let filled = Int(fraction * 30)
            let eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0
            let megabytes = { (bytes: Int64) in String(format: "%.1f", Double(bytes) / 1_048_576) }
            let bytes =
                progress.totalBytes.map { "\(megabytes(progress.bytesRead)) of \(megabytes($0)) MB" }
                ?? "\(megabytes(progress.bytesRead)) MB"
            return "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled)
                + "] \((fraction * 100).rounded(.towardZero).wholeText)%  \(bytes)  \(progress.rowsRead) rows  \(rate.rounded(.towardZero).wholeText) rows/s  ETA \(eta.wholeText)s "
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    func finish() {
        if enabled, state.withLock({ $0.drawn }) { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}

/// Prints what an import did, its rejected rows, and how to undo it.
func printImportReport(_ report: ImportReport, skipInvalid: Bool) {
    print("Format: \(report.format)")
    print("Rows read: \(report.rowsRead)")
    print("\(report.dryRun ? "Would import" : "Imported"): \(report.imported)")
    print("Already in the journal: \(report.duplicates)")
    if report.repeatedInFile > 0 { print("Repeated in the file (counted once): \(report.repeatedInFile)") }
    if report.keptAsSent > 0 { print("Treatments kept as sent, for Nightscout's followers: \(report.keptAsSent)") }
    if report.skipped > 0 {
        print("Skipped (nothing to import: \(report.skippedKinds)): \(report.skipped)")
    }
    if !report.healthDays.isEmpty {
        let written = report.healthDays.reduce(0) { $0 + $1.written }
        print(
            "Other health data, summed up per day: \(report.healthDays.count) types, \(written) days \(report.dryRun ? "to write" : "written")"
        )
        for type in report.healthDays {
            print(
                "  \(type.name) (\(type.unit)): \(type.days) day\(type.days == 1 ? "" : "s"), \(type.samples) sample\(type.samples == 1 ? "" : "s"), "
                    + "\(type.written) new or newer")
        }
    }
    if report.rejectedCount > 0 {
        print("Invalid rows: \(report.rejectedCount)")
        for row in report.rejected {
            print("  line \(row.line)\(row.field.map { " (\($0))" } ?? ""): \(row.reason)")
        }
        if report.rejectedCount > report.rejected.count {
            print("  … and \(report.rejectedCount - report.rejected.count) more")
        }
        if !skipInvalid && !report.dryRun {
            printError("error: the file has invalid rows, so nothing was imported; fix them or use --skip-invalid")
        }
    }
    if let id = report.importID { print("Import #\(id). Undo it with: cinn import undo \(id)") }
}

extension MyFitnessPalExport.DateOrder: ExpressibleByArgument {}
