import CinnCore
import Foundation

/// The workout exports Cinn reads (docs/FORMATS.md §2 and §3).
public enum WorkoutFileFormat: String, Sendable, CaseIterable {
    case fitbod
    case strong
    case fitnotes

    /// What each format looks like, for messages about files that are none of them.
    static let descriptions = [
        "Fitbod (Date, Exercise, Reps, Weight(kg), …, isWarmup)",
        "Strong (Date, Workout Name, Exercise Name, Set Order, Weight, Reps, …)",
        "FitNotes (Date, Exercise, Category, Weight, Weight Unit, Reps, …)",
    ]
}

/// What the person tells a workout import that the file may not say itself.
public struct WorkoutImportOptions: Sendable {
    /// The unit of weights in files that carry none (Strong's classic export).
    public var unit: MassUnit?
    /// The time zone of times written without an offset.
    public var timeZone: TimeZone

    public init(unit: MassUnit? = nil, timeZone: TimeZone) {
        self.unit = unit
        self.timeZone = timeZone
    }
}

/// What reading a workout file found, besides the sets themselves.
public struct WorkoutFileSummary: Sendable {
    public var format: WorkoutFileFormat
    /// Rows read: sets handed out, pseudo-rows skipped and rows rejected.
    public var rowsRead: Int
    /// Rows with nothing to import (Strong's rest timers and notes).
    public var skipped: Int
    public var rejected: [RejectedRow]
    public var rejectedCount: Int
}

/// Reads a Fitbod, Strong or FitNotes CSV as a stream of sets, in 64 KiB chunks: memory stays flat.
public struct WorkoutFileReader: Sendable {
    public let format: WorkoutFileFormat
    private let url: URL
    private let options: WorkoutImportOptions
    private let delimiter: UInt8
    private let fileSize: Int64

    /// Opens the file, checks its encoding, tells its format from the header and checks the columns.
    public init(url: URL, format: WorkoutFileFormat? = nil, options: WorkoutImportOptions) throws(CinnError) {
        let (prefix, fileSize) = try FileStart.read(url, count: 64 * 1024)
        try TextCheck.check(prefix: prefix, contents: "workout file")
        delimiter = CSVColumns.sniffDelimiter(FileStart.firstLine(prefix).utf8)
        let header = Self.header(prefix: prefix, delimiter: delimiter)
        guard let format = format ?? Self.detectFormat(header: header) else {
            throw Self.unknownLayout(header: header, fileName: url.lastPathComponent)
        }
        self.format = format
        self.url = url
        self.options = options
        self.fileSize = fileSize
        _ = try makeParser(header: header)
    }

    /// The workout format the file's header names, or nil (also when the file cannot be read).
    public static func detectFormat(url: URL) -> WorkoutFileFormat? {
        guard let (prefix, _) = try? FileStart.read(url, count: 64 * 1024) else { return nil }
        return detectFormat(prefix: prefix)
    }

    static func detectFormat(prefix: [UInt8]) -> WorkoutFileFormat? {
        let delimiter = CSVColumns.sniffDelimiter(FileStart.firstLine(prefix).utf8)
        return detectFormat(header: header(prefix: prefix, delimiter: delimiter))
    }

    static func detectFormat(header: [String]) -> WorkoutFileFormat? {
        let names = Set(header.map(CSVColumns.normalized))
        if names.contains("exercise name"), names.contains("set order") { return .strong }
        if names.contains("exercise") || names.contains("exercise name"), names.contains("iswarmup") { return .fitbod }
        if names.contains("exercise"), names.contains("category") { return .fitnotes }
        return nil
    }

    /// The error for a CSV that is no format Cinn knows: the columns found and the formats supported.
    static func unknownLayout(header: [String], fileName: String, alsoSupported: [String] = []) -> CinnError {
        let found = header.isEmpty ? "no columns" : "the columns " + header.map { "\"\($0)\"" }.joined(separator: ", ")
        let formats = (WorkoutFileFormat.descriptions + alsoSupported).joined(separator: "; ")
        return .invalid("file", "\(fileName) has \(found), which is no layout Cinn knows; supported: \(formats)")
    }

    /// The header row's cells, trimmed.
    static func header(prefix: [UInt8], delimiter: UInt8) -> [String] {
        let scanner = CSVScanner(bytes: prefix, delimiter: delimiter)
        var header: [String] = []
        _ = try? scanner.next { row in header = (0..<row.count).map(row.text) }
        return header
    }

    /// Reads the whole file, handing `onBatch` up to `batchSize` sets at a time; bad rows are listed, not thrown.
    public func read(
        batchSize: Int = 5000,
        progress: @Sendable (ImportProgress) -> Void = { _ in },
        isolation: isolated (any Actor)? = #isolation,
        onBatch: ([ImportedSet]) async throws -> Void
    ) async throws -> WorkoutFileSummary {
        var output = ImportOutput<ImportedSet>(
            batchSize: max(1, batchSize), totalBytes: fileSize, maximumRows: ImportLimits.sets, rowName: "sets")
        let scanner = try CSVScanner(url: url, delimiter: delimiter)
        var parser: (any WorkoutRowParser)?
        while try scanner.next({ row throws(CinnError) in
            if var current = parser {
                parser = nil
                current.parse(row, into: &output)
                parser = current
            } else {
                parser = try makeParser(header: (0..<row.count).map(row.text))
            }
        }) {
            if output.hasFullBatch {
                try await output.deliver(bytesRead: scanner.position, progress, isolation, onBatch)
            }
        }
        try await output.deliver(bytesRead: fileSize, progress, isolation, onBatch)
        return WorkoutFileSummary(
            format: format, rowsRead: output.rowsRead, skipped: output.skipped,
            rejected: output.rejected, rejectedCount: output.rejectedCount)
    }

    private func makeParser(header: [String]) throws(CinnError) -> any WorkoutRowParser {
        let columns = HeaderColumns(header)
        switch format {
        case .fitbod: return try FitbodParser(columns: columns, options: options)
        case .strong: return try StrongParser(columns: columns, options: options, decimalComma: delimiter != .comma)
        case .fitnotes: return try FitNotesParser(columns: columns, options: options)
        }
    }
}

/// A parser for one workout format, fed one record after the header at a time.
protocol WorkoutRowParser {
    /// Adds the record's set, skip or rejection to `output`.
    mutating func parse(_ row: CSVRow, into output: inout ImportOutput<ImportedSet>)
}

/// A header's columns by normalised name ("Weight(kg)" → "weight kg").
struct HeaderColumns {
    let names: [String]
    let original: [String]

    init(_ header: [String]) {
        original = header
        names = header.map(CSVColumns.normalized)
    }

    /// The first column with one of `candidates` as its name.
    func index(_ candidates: String...) -> Int? {
        for candidate in candidates {
            if let index = names.firstIndex(of: candidate) { return index }
        }
        return nil
    }

    /// The column named by one of `candidates`, or an error naming the format, the column and the columns found.
    func required(_ format: String, _ display: String, _ candidates: String...) throws(CinnError) -> Int {
        for candidate in candidates {
            if let index = names.firstIndex(of: candidate) { return index }
        }
        throw missing(format, display)
    }

    /// The error for a header without a column the format needs: the columns it has.
    func missing(_ format: String, _ display: String) -> CinnError {
        let found = original.map { "\"\($0)\"" }.joined(separator: ", ")
        return .invalid("file", "the \(format) header has no \(display) column; found \(found)")
    }
}

/// Numbers workouts in file order and their sets within each workout.
struct WorkoutNumbering<Key: Hashable> {
    private var workouts: [Key: (number: Int, nextPosition: Int)] = [:]
    private var lastKey: Key?
    private var last: (number: Int, nextPosition: Int) = (0, 0)

    /// The workout number and set position of the next set of workout `key`; `header` makes the workout when it is new.
    mutating func place(_ key: Key, header: () -> ImportedWorkout) -> (workout: Int, position: Int, newWorkout: ImportedWorkout?) {
        if key == lastKey {
            defer { last.nextPosition += 1 }
            return (last.number, last.nextPosition, nil)
        }
        if let lastKey { workouts[lastKey] = last }
        lastKey = key
        if let known = workouts[key] {
            last = (known.number, known.nextPosition + 1)
            return (known.number, known.nextPosition, nil)
        }
        let number = workouts.count
        workouts[key] = (number, 0)
        last = (number, 1)
        return (number, 0, header())
    }
}

/// Checks of the values every workout format has.
enum SetFields {
    /// A whole number of reps ≥ 0 (blank → nil; "5.0" accepted); nil with a reason otherwise.
    static func reps(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Int?, CinnError> {
        guard !bytes.isEmpty else { return .success(nil) }
        guard let value = DecimalNumber.parse(bytes, decimalComma: false), value == value.rounded(), value >= 0, value < 10_000 else {
            return .failure(.invalid("reps", "\"\(TextDecoding.string(bytes))\" is not a whole number of reps"))
        }
        return .success(Int(value))
    }

    /// A number ≥ 0 in `field` (blank → nil).
    static func nonNegative(_ bytes: UnsafeBufferPointer<UInt8>, field: String, decimalComma: Bool = false) -> Result<Double?, CinnError> {
        guard !bytes.isEmpty else { return .success(nil) }
        guard let value = DecimalNumber.parse(bytes, decimalComma: decimalComma), value.isFinite else {
            return .failure(.invalid(field, "\"\(TextDecoding.string(bytes))\" is not a number"))
        }
        guard value >= 0 else { return .failure(.invalid(field, "\(field) \(TextDecoding.string(bytes)) is negative")) }
        return .success(value)
    }

    /// A set's weight: a number ≥ 0 (blank or 0 → nil) in the unit the row names (`kg`, `kgs`, `lb`, `lbs`), else
    /// in `defaultUnit` (the header's or the person's); errors name the `Weight` or `Weight Unit` column.
    static func weight(
        _ bytes: UnsafeBufferPointer<UInt8>, unit spelled: String?, defaultUnit: MassUnit?,
        decimalComma: Bool = false
    ) -> Result<Mass?, CinnError> {
        switch nonNegative(bytes, field: "Weight", decimalComma: decimalComma) {
        case .success(let value?) where value > 0:
            var unit = defaultUnit
            if let spelled {
                guard let named = MassUnit(spelling: spelled), named != .stones else {
                    return .failure(.invalid("Weight Unit", "unknown unit \"\(spelled)\"; use kg or lbs"))
                }
                unit = named
            }
            guard let unit else {
                return .failure(.invalid("Weight Unit", "the weight unit is missing: choose the unit, kg or lb"))
            }
            return .success(Mass(kilograms: value * unit.kilogramsPerUnit))
        case .success: return .success(nil)
        case .failure(let error): return .failure(error)
        }
    }

    /// `H:MM:SS`, `MM:SS` or plain seconds → seconds.
    static func clockDuration(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var seconds = 0.0
        for part in parts {
            guard let value = Double(part), value >= 0 else { return nil }
            seconds = seconds * 60 + value
        }
        return seconds
    }

    /// Kilometres, miles, metres … → metres.
    static func metres(_ value: Double, unit: String) -> Double? {
        switch unit.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ". ")) {
        case "m", "meter", "meters", "metre", "metres": value
        case "km", "kms", "kilometer", "kilometers", "kilometre", "kilometres": value * 1000
        case "mi", "mile", "miles": value * 1609.344
        case "ft", "feet": value * 0.3048
        case "yd", "yard", "yards": value * 0.9144
        default: nil
        }
    }
}
