import CinnCore
import Foundation

/// Any CSV whose header names a date and a weight column; one reading per row.
struct GenericCSVParser: RowParser {
    private let options: WeightImportOptions
    private let decimalComma: Bool
    private var columns: CSVColumns?
    private var unitSpellings = UnitSpellings()

    /// Reads fields split by `delimiter`; with `;` or TAB a decimal comma ("72,4") is accepted.
    init(options: WeightImportOptions, delimiter: UInt8) {
        self.options = options
        decimalComma = delimiter != .comma
    }

    var hasReadHeader: Bool { columns != nil }

    mutating func parse(_ row: CSVRow, into output: inout ReadingOutput) throws(CinnError) {
        guard let columns else {
            columns = try Self.columns(header: row, options: options)
            return
        }
        let weightText = row.field(columns.weight)
        // A row without a weight (another measurement, an empty day) has nothing to import.
        guard !weightText.isEmpty else { return }
        let dateText = row.text(columns.date)
        guard var time = LocalDateTime(iso: dateText) else {
            let reason =
                dateText.isEmpty
                ? "the date is missing"
                : "\"\(dateText)\" is not a date; use ISO 8601 such as 2024-03-09 or 2024-03-09T07:41"
            return output.reject(line: row.line, field: "date", reason: reason)
        }
        if dateText.utf8.count == 10 {
            time.secondsOfDay = 12 * 3600
            if let timeColumn = columns.time, let timeText = row.nonEmptyText(timeColumn) {
                guard let seconds = ReadingTime.secondsOfDay(timeText) else {
                    return output.reject(
                        line: row.line, field: "time", reason: "\"\(timeText)\" is not a time of day; use HH:MM or HH:MM:SS")
                }
                time.secondsOfDay = Double(seconds)
            }
        }
        guard let value = DecimalNumber.parse(weightText, decimalComma: decimalComma) else {
            return output.reject(line: row.line, field: "weight", reason: "\"\(TextDecoding.string(weightText))\" is not a number")
        }
        let unit: MassUnit
        if let unitColumn = columns.unit, case let unitText = row.field(unitColumn), !unitText.isEmpty {
            guard let named = unitSpellings.unit(unitText) else {
                return output.reject(
                    line: row.line, field: "unit", reason: "unknown unit \"\(TextDecoding.string(unitText))\"; use kg, lb or st")
            }
            unit = named
        } else if let known = columns.weightUnit ?? options.unit {
            unit = known
        } else {
            return output.reject(line: row.line, field: "unit", reason: "the unit is missing")
        }
        let weight: Mass
        do {
            weight = try Mass.bodyWeight(value, unit)
        } catch {
            return output.reject(line: row.line, error)
        }
        let (instant, offset) = ReadingTime.resolve(time, in: options.timeZone)
        let milligrams = Int64((weight.kilograms * 1_000_000).rounded())
        output.add(
            ImportedWeighIn(
                measuredAt: instant, utcOffsetSeconds: offset, weight: weight,
                note: columns.note.flatMap(row.nonEmptyText),
                externalID: "csv:\(ReadingTime.epochMilliseconds(instant)):\(milligrams)", line: row.line))
    }

    /// The units of a unit column's cells, remembered by spelling since a file spells them the same way throughout.
    private struct UnitSpellings {
        private var known: [(spelling: [UInt8], unit: MassUnit)] = []

        mutating func unit(_ spelling: UnsafeBufferPointer<UInt8>) -> MassUnit? {
            if let entry = known.first(where: { $0.spelling.elementsEqual(spelling) }) { return entry.unit }
            guard let unit = MassUnit(spelling: TextDecoding.string(spelling)) else { return nil }
            if known.count < 16 { known.append((Array(spelling), unit)) }
            return unit
        }
    }

    /// The columns the header row names; throws when the date, the weight or any unit is missing.
    private static func columns(header row: CSVRow, options: WeightImportOptions) throws(CinnError) -> CSVColumns {
        let names = (0..<row.count).map(row.text)
        guard let columns = CSVColumns(header: names) else {
            let listed = names.map { "\"\($0)\"" }.joined(separator: ", ")
            throw .invalid(
                "file",
                "the header on line \(row.line) (\(listed)) needs a date column (date, day, time, timestamp or datetime) and a weight column (weight, weight_kg, \"weight (lb)\", body weight or mass)"
            )
        }
        guard columns.unit != nil || columns.weightUnit != nil || options.unit != nil else {
            throw .invalid(
                "unit",
                "the file does not say which unit its weights are in (no unit column, none in the weight column's name): choose its unit, kg, lb or st"
            )
        }
        return columns
    }
}
