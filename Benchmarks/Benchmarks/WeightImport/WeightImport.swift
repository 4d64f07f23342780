// Importing a 100,000-row weight CSV into a fresh SQLite journal.
//
// Input: a generic CSV, `date,weight`, ISO 8601 local times without an offset
// (`2019-03-09T07:41:03,82.4`), kilograms to one decimal, 1–3 readings a day with ~10% of days
// missing — a smart scale's export. Generated once (deterministically) into the temp directory.
// The journal's time zone is Europe/Berlin, so every row's local time is resolved through the
// time-zone rules, as for most people (UTC would be a cheaper special case).
//
// Each iteration opens a NEW database file (migrated, with the local user) before the measurement
// starts, and closes and deletes it after it stops; only the import itself is measured.
//
// Target (the weight journal's speed targets): under 1 s for the whole import (`Journal.importFile`:
// parse + store in one transaction). docs/DESIGN.md: Python's csv + sqlite3 does 272k rows/s here;
// slower is a defect.
import Benchmark
import BenchmarkData
import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation

enum ImportFixture {
    static let rows = 100_000
    static let timeZone = "Europe/Berlin"
    static let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-benchmarks")

    /// The CSV, written on first use and reused afterwards (same bytes every time).
    static let csv: URL = {
        let url = directory.appendingPathComponent("weights-\(rows)-frequent-seed42.csv")
        if !FileManager.default.fileExists(atPath: url.path) {
            try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let text = WeightCSV.make(rows: rows, endDay: CivilCalendar.days(fromCivil: 2026, 6, 30),
                                      readingsPerDay: .frequent, seed: 42)
            try! text.write(to: url, atomically: true, encoding: .utf8)
        }
        return url
    }()

    /// A new, empty, migrated journal in a file of its own.
    static func freshJournal() async throws -> (Journal, URL) {
        let folder = directory.appendingPathComponent("db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try Store(.sqlite(path: folder.appendingPathComponent("cinn.sqlite").path))
        try await store.migrate()
        let journal = try await Journal.local(store: store)
        try await store.saveSettings(UserSettings(timeZoneIdentifier: timeZone), user: journal.user)
        return (journal, folder)
    }

    static func dispose(_ journal: Journal, _ folder: URL) async throws {
        try await journal.store.close()
        try FileManager.default.removeItem(at: folder)
    }

    static var options: WeightImportOptions {
        WeightImportOptions(unit: .kilograms, timeZone: TimeZone(identifier: timeZone)!)
    }
}

/// The file parsed once, for the store-only benchmark.
nonisolated(unsafe) var parsedReadings: [ImportedWeighIn] = []

let rowsPerSecond = BenchmarkMetric.custom("rows/s", polarity: .prefersLarger, useScalingFactor: false)

/// Records rows/s for one measured run.
func recordRate(_ benchmark: Benchmark, rows: Int, since start: ContinuousClock.Instant) {
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    benchmark.measurement(rowsPerSecond, Int((Double(rows) / seconds).rounded()))
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .mallocBytesCount,
                                      .peakMemoryResident, rowsPerSecond]
    let configuration = Benchmark.Configuration(metrics: metrics, timeUnits: .milliseconds, warmupIterations: 1,
                                                maxDuration: .seconds(30), maxIterations: 20)

    // The real path: what `cinn import FILE --unit kg` and `POST /api/v1/imports` run.
    Benchmark("Journal.importFile, 100k-row CSV, fresh SQLite", configuration: configuration) { benchmark in
        let (journal, folder) = try await ImportFixture.freshJournal()
        let start = ContinuousClock.now
        benchmark.startMeasurement()
        let report = try await journal.importFile(at: ImportFixture.csv, fileName: "weights.csv", format: nil,
                                                  unit: .kilograms, mode: ImportMode())
        benchmark.stopMeasurement()
        recordRate(benchmark, rows: report.imported, since: start)
        if report.imported != ImportFixture.rows || report.rejectedCount != 0 {
            benchmark.error("imported \(report.imported) of \(ImportFixture.rows), rejected \(report.rejectedCount)")
        }
        try await ImportFixture.dispose(journal, folder)
    } setup: {
        _ = ImportFixture.csv
    }

    // The store alone: the same readings, already parsed, through `Store.importWeighIns` in batches
    // of 1,000 (as the reader hands them over), into a fresh database each iteration.
    Benchmark("Store.importWeighIns, 100k parsed readings, fresh SQLite", configuration: configuration) { benchmark in
        let (journal, folder) = try await ImportFixture.freshJournal()
        let readings = parsedReadings
        let start = ContinuousClock.now
        benchmark.startMeasurement()
        let report = try await journal.store.importWeighIns(user: journal.user, format: "csv", fileName: "weights.csv",
                                                            mode: ImportMode()) { insert in
            for offset in stride(from: 0, to: readings.count, by: 1000) {
                try await insert(Array(readings[offset..<min(offset + 1000, readings.count)]))
            }
            return ImportReport(format: "csv", rowsRead: readings.count)
        }
        benchmark.stopMeasurement()
        recordRate(benchmark, rows: report.imported, since: start)
        if report.imported != ImportFixture.rows {
            benchmark.error("imported \(report.imported) of \(ImportFixture.rows)")
        }
        try await ImportFixture.dispose(journal, folder)
    } setup: {
        let reader = try WeightFileReader(url: ImportFixture.csv, options: ImportFixture.options)
        var all = [ImportedWeighIn]()
        _ = try await reader.read { all += $0 }
        parsedReadings = all
    }

    // Reference (not Cinn's code, see DirectSQLite.swift): the same parsed readings into the same
    // schema through SQLiteNIO with `[SQLiteData]` binds, the bulk path docs/DESIGN.md prescribes.
    Benchmark("Reference: same readings via SQLiteNIO [SQLiteData] binds, fresh SQLite", configuration: configuration) { benchmark in
        let (journal, folder) = try await ImportFixture.freshJournal()
        try await journal.store.close()
        let readings = parsedReadings
        let start = ContinuousClock.now
        benchmark.startMeasurement()
        let imported = try await DirectSQLite.importReadings(readings, user: journal.user,
                                                             path: folder.appendingPathComponent("cinn.sqlite").path)
        benchmark.stopMeasurement()
        recordRate(benchmark, rows: imported, since: start)
        if imported != ImportFixture.rows {
            benchmark.error("imported \(imported) of \(ImportFixture.rows)")
        }
        try FileManager.default.removeItem(at: folder)
    } setup: {
        let reader = try WeightFileReader(url: ImportFixture.csv, options: ImportFixture.options)
        var all = [ImportedWeighIn]()
        _ = try await reader.read { all += $0 }
        parsedReadings = all
    }

    // The parser alone: format detection, header, and every row checked and converted; nothing stored.
    Benchmark("WeightFileReader.read, 100k-row CSV, parse only", configuration: configuration) { benchmark in
        let start = ContinuousClock.now
        let reader = try WeightFileReader(url: ImportFixture.csv, options: ImportFixture.options)
        var count = 0
        let summary = try await reader.read { count += $0.count }
        benchmark.stopMeasurement()
        recordRate(benchmark, rows: count, since: start)
        if count != ImportFixture.rows || summary.rejectedCount != 0 {
            benchmark.error("read \(count) of \(ImportFixture.rows), rejected \(summary.rejectedCount)")
        }
    } setup: {
        _ = ImportFixture.csv
    }
}
