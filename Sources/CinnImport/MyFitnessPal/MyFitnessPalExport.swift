import CinnCore
import Foundation

/// What a MyFitnessPal data export holds (docs/FORMATS.md §4): meal totals as food log entries, weigh-ins
/// and exercises, read from the export's zip, a folder of its CSV files, or one of them alone. The values
/// are handed on in batches as they are read; what is returned counts them.
///
/// ```swift
/// let export = try await MyFitnessPalExport.read(url: zipURL, options: .init(timeZone: .current)) { batch in
///     print(batch.entries.count, batch.weighIns.count, batch.exercises.count)
/// }
/// print(export.rowsRead, export.rejectedCount)
/// ```
public struct MyFitnessPalExport: Sendable {
    /// `source` of every entry and exercise read.
    public static let source = "import:myfitnesspal"

    /// What the person tells the import that the export does not say itself.
    public struct Options: Sendable {
        /// The time zone the diary was kept in: MyFitnessPal writes dates and times without one.
        public var timeZone: TimeZone
        /// The unit of Measurement-Summary weights; nil takes it from the Exercise-Summary header.
        public var unit: MassUnit?
        /// Whether the day or the month comes first in dates a spreadsheet wrote; nil decides from the file.
        public var dateOrder: DateOrder?

        public init(timeZone: TimeZone, unit: MassUnit? = nil, dateOrder: DateOrder? = nil) {
            self.timeZone = timeZone
            self.unit = unit
            self.dateOrder = dateOrder
        }
    }

    /// How a spreadsheet wrote the dates of a file it saved again (`1/2/2023`): MyFitnessPal writes `2023-01-02`, and
    /// Excel rewrites it in the computer's own order.
    public enum DateOrder: String, Sendable, CaseIterable {
        case dayFirst = "day-first"
        case monthFirst = "month-first"

        /// `day-first` or `month-first`; anything else is refused naming `field`.
        public static func parse(_ text: String, field: String = "date_order") throws(CinnError) -> DateOrder {
            guard let order = DateOrder(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) else {
                throw .invalid(field, "\(field) is day-first or month-first, not \"\(text)\"")
            }
            return order
        }
    }

    /// The question a file whose dates do not say their order asks: the field is `date_order`.
    static func dateOrderQuestion(example: String) -> CinnError {
        .invalid(
            "date_order",
            "the dates were saved by a spreadsheet (such as \"\(example)\") and none says whether the day or the month "
                + "comes first: choose day-first (1/2/2023 is 1 February) or month-first (1/2/2023 is 2 January)")
    }

    /// The order of the dates of `tables` written day and month (a spreadsheet's), from a date that can only be read one
    /// way (a day over 12); nil when every date is MyFitnessPal's own (or reads the same either way). Throws the question
    /// when no date settles it, and names the file and line when two dates settle it both ways.
    static func dateOrder(_ tables: [MyFitnessPalTable]) throws(CinnError) -> DateOrder? {
        var found: (order: DateOrder, file: String, line: Int, text: String)?
        var unsettled: String?
        for table in tables {
            try table.forEachDate { text, line throws(CinnError) in
                guard LocalDate(iso: text) == nil, let parts = MyFitnessPalField.spreadsheetDate(text), !parts.yearFirst,
                    parts.first != parts.second
                else { return true }
                let order: DateOrder? =
                    parts.first > 12 && parts.second <= 12 ? .dayFirst : parts.second > 12 && parts.first <= 12 ? .monthFirst : nil
                guard let order else {
                    if unsettled == nil { unsettled = text }
                    return true
                }
                if let found, found.order != order {
                    throw .invalid(
                        "Date",
                        "\(table.fileName), line \(line): \"\(text)\" is \(order == .dayFirst ? "day" : "month") first, but "
                            + "\"\(found.text)\" (\(found.file), line \(found.line)) is \(found.order == .dayFirst ? "day" : "month") first"
                    )
                }
                found = (order, table.fileName, line, text)
                return true
            }
        }
        if let found { return found.order }
        if let unsettled { throw dateOrderQuestion(example: unsettled) }
        return nil
    }

    /// The three files of an export, told apart by how their names start.
    public enum FileKind: String, Sendable, CaseIterable {
        case nutrition = "Nutrition-Summary"
        case measurement = "Measurement-Summary"
        case exercise = "Exercise-Summary"

        /// The kind a file name says, such as `Nutrition-Summary-2024-03-01-to-2024-03-07.csv`; nil for any other name.
        public init?(fileName: String) {
            let lowered = fileName.lowercased()
            guard lowered.hasSuffix(".csv"),
                let kind = Self.allCases.first(where: { lowered.hasPrefix($0.rawValue.lowercased()) })
            else { return nil }
            self = kind
        }
    }

    /// A file of the export that was read.
    public struct File: Sendable, Hashable {
        public var kind: FileKind
        /// Its path inside the zip or folder, or its name.
        public var name: String
        /// Rows below the header that held anything.
        public var rowsRead: Int
        public var rejectedCount: Int
    }

    /// Values of the export as `read` hands them on, at most a few thousand at a time.
    public struct Batch: Sendable {
        /// One entry per Nutrition-Summary row: a meal's (or a logged item's) nutrient totals.
        public var entries: [FoodLogEntry] = []
        /// One per Measurement-Summary row with a weight, at local noon.
        public var weighIns: [ImportedWeighIn] = []
        /// One per Exercise-Summary row, at local noon.
        public var exercises: [ExerciseEntry] = []
    }

    /// The unit the weigh-ins were read in: the one asked for, or the one the Exercise-Summary names
    /// when the export has a Measurement-Summary.
    public var weightUnit: MassUnit?
    /// The files found, in the order read.
    public var files: [File] = []
    /// Rows that held anything, in all files.
    public var rowsRead = 0
    /// Measurement rows without a weight (they hold other measurements only).
    public var skipped = 0
    /// The rejected rows, at most `ImportReport.maximumListedRejections`; each reason starts with the file's name.
    public var rejected: [RejectedRow] = []
    public var rejectedCount = 0

    /// Whether `url` looks like a MyFitnessPal export, for `cinn import` and uploads without a format:
    /// a folder or zip holding an export file by name (for a zip, any zip: MyFitnessPal's is the only
    /// zip Cinn reads so far), a file named like one (`fileName` when `url` is a temporary copy), or a
    /// CSV whose header starts with `Date,Meal` or `Date,Exercise,Type`.
    public static func recognises(url: URL, fileName: String? = nil) -> Bool {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return false }
        if isFolder.boolValue {
            let files = (try? MyFitnessPalFileSource.listing(url)) ?? []
            return files.contains { FileKind(fileName: $0.url.lastPathComponent) != nil }
        }
        if FileKind(fileName: fileName ?? url.lastPathComponent) != nil { return true }
        guard let (prefix, _) = try? FileStart.read(url, count: 64) else { return false }
        if prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return true }
        let header = FileStart.firstLine(prefix)
        return header.hasPrefix("Date,Meal") || header.hasPrefix("Date,Exercise,Type")
    }

    /// Reads the export at `url`: the `.zip` MyFitnessPal mails, a folder holding its CSV files (or
    /// the unpacked `File-Export-…` folder inside one), or one CSV file. Its values go to `emit` in batches,
    /// so that memory holds the files' text and a batch, not every value at once.
    ///
    /// Bad rows are listed in `rejected`; throws (a `CinnError`, or what `emit` throws) only when the export as a
    /// whole cannot be read: no export file in it, a header that is no MyFitnessPal layout, text that is not UTF-8,
    /// or weights whose unit neither `options.unit` nor the Exercise-Summary says.
    public static func read(url: URL, options: Options, emit: (Batch) async throws -> Void) async throws -> MyFitnessPalExport {
        var export = MyFitnessPalExport()
        var tables: [MyFitnessPalTable] = []
        for source in try MyFitnessPalFileSource.load(url) {
            if let table = try MyFitnessPalTable(source) {
                tables.append(table)
            } else if let kind = source.kind {
                export.files.append(File(kind: kind, name: source.name, rowsRead: 0, rejectedCount: 0))
            }
        }
        export.weightUnit = try weightUnit(tables, options: options)
        let dateOrder = try options.dateOrder ?? Self.dateOrder(tables)
        for table in tables {
            switch table.columns {
            case .nutrition(let columns):
                let output = try await table.read(
                    MyFitnessPalNutritionParser(
                        columns: columns, fileName: table.fileName, dateOrder: dateOrder,
                        timeZone: options.timeZone)
                ) { try await emit(Batch(entries: $0)) }
                export.count(output, from: table)
            case .measurement(let columns):
                // `weightUnit` has thrown unless there is a unit whenever a Measurement-Summary is read.
                guard let unit = export.weightUnit else { continue }
                let output = try await table.read(
                    MyFitnessPalMeasurementParser(
                        columns: columns, fileName: table.fileName, dateOrder: dateOrder,
                        unit: unit, timeZone: options.timeZone)
                ) {
                    try await emit(Batch(weighIns: $0))
                }
                export.count(output, from: table)
            case .exercise(let columns):
                let output = try await table.read(
                    MyFitnessPalExerciseParser(
                        columns: columns, fileName: table.fileName, dateOrder: dateOrder,
                        timeZone: options.timeZone)
                ) { try await emit(Batch(exercises: $0)) }
                export.count(output, from: table)
            }
        }
        return export
    }

    /// The unit of the weigh-ins: the one asked for, else the one the Exercise-Summary headers name.
    private static func weightUnit(_ tables: [MyFitnessPalTable], options: Options) throws(CinnError) -> MassUnit? {
        guard options.unit == nil, tables.contains(where: { $0.columns.kind == .measurement }) else { return options.unit }
        let named = Set(
            tables.compactMap { table -> MassUnit? in
                if case .exercise(let columns) = table.columns { return columns.weightUnit }
                return nil
            })
        guard named.count == 1, let unit = named.first else {
            let reason =
                named.isEmpty
                ? "MyFitnessPal's Measurement-Summary does not say which unit its weights are in, and no Exercise-Summary with a Pounds or Kilograms column came with it"
                : "the Exercise-Summary files name both pounds and kilograms, so the unit of the Measurement-Summary weights is unclear"
            throw .invalid("unit", "\(reason): choose the unit, kg or lb")
        }
        return unit
    }

    private mutating func count<Item>(_ output: ImportOutput<Item>, from table: MyFitnessPalTable) {
        files.append(
            File(
                kind: table.columns.kind, name: table.fileName, rowsRead: output.rowsRead,
                rejectedCount: output.rejectedCount))
        rowsRead += output.rowsRead
        skipped += output.skipped
        rejectedCount += output.rejectedCount
        rejected += output.rejected.prefix(ImportReport.maximumListedRejections - rejected.count)
    }
}
