import CinnCore
import Foundation

/// The Hacker's Diet Online CSV backup (docs/FORMATS.md §6.1): a preamble, then monthly blocks of one line per day.
// Weights are in the Preferences log unit (else the StartTrend line's unit digit); days without a weight are skipped.
struct HackersDietParser: RowParser {
    private let options: WeightImportOptions
    /// The log unit of the `Preferences` line.
    private var preferencesUnit: MassUnit?
    /// The log unit digit of the month's `StartTrend` line, used when there is no Preferences line.
    private var monthUnit: MassUnit?
    private var decimalComma = false
    private(set) var hasReadHeader = false

    init(options: WeightImportOptions) {
        self.options = options
    }

    mutating func parse(_ row: CSVRow, into output: inout ReadingOutput) throws(CinnError) {
        let first = row.text(0)
        switch first {
        case "Epoch", "User", "Diet-Plan", "Date":
            return
        case "Preferences":
            let unitName = row.text(2)
            guard let unit = MassUnit(spelling: unitName) else {
                throw .invalid("unit", "line \(row.line): the Preferences line names an unknown log unit \"\(unitName)\"")
            }
            preferencesUnit = unit
            decimalComma = row.text(6) == ","
        case "StartTrend":
            monthUnit =
                switch row.text(2) {
                case "0": .kilograms
                case "1": .pounds
                case "2": .stones
                default: nil
                }
            try checkUnitIsKnown()
        default:
            try checkUnitIsKnown()
            parseDay(row, into: &output)
        }
    }

    /// Throws at the first month or day when neither the file nor the person says the unit.
    private mutating func checkUnitIsKnown() throws(CinnError) {
        guard !hasReadHeader else { return }
        hasReadHeader = true
        guard preferencesUnit ?? monthUnit ?? options.unit != nil else {
            throw .invalid("unit", "the file has no Preferences line naming its unit: choose its unit, kg, lb or st")
        }
    }

    private func parseDay(_ row: CSVRow, into output: inout ReadingOutput) {
        let weightText = row.field(1)
        guard !weightText.isEmpty else { return }
        let dateText = row.text(0)
        guard let date = LocalDate(iso: dateText) else {
            return output.reject(line: row.line, field: "date", reason: "\"\(dateText)\" is not a date; Hacker's Diet days are YYYY-MM-DD")
        }
        guard let value = DecimalNumber.parse(weightText, decimalComma: decimalComma) else {
            return output.reject(line: row.line, field: "weight", reason: "\"\(TextDecoding.string(weightText))\" is not a number")
        }
        guard let unit = preferencesUnit ?? monthUnit ?? options.unit else {
            return output.reject(line: row.line, field: "unit", reason: "the unit is missing")
        }
        let weight: Mass
        do {
            weight = try Mass.bodyWeight(value, unit)
        } catch {
            return output.reject(line: row.line, error)
        }
        let (instant, offset) = date.noon(in: options.timeZone)
        output.add(
            ImportedWeighIn(
                measuredAt: instant, utcOffsetSeconds: offset, weight: weight, note: row.nonEmptyText(4),
                externalID: "hackdiet:\(date.iso)", line: row.line))
    }
}
