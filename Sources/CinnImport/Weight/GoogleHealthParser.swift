import CinnCore
import Foundation

/// Google Health's Takeout CSV (docs/FORMATS.md §5.2): `timestamp,weight grams,data source` with UTC times.
// The same reading mirrored under two data sources gets the same dedup key (time and grams), so it is stored once.
struct GoogleHealthParser: RowParser {
    private let options: WeightImportOptions
    private var columns: (timestamp: Int, grams: Int)?

    init(options: WeightImportOptions) {
        self.options = options
    }

    var hasReadHeader: Bool { columns != nil }

    mutating func parse(_ row: CSVRow, into output: inout ReadingOutput) throws(CinnError) {
        guard let columns else {
            let names = (0..<row.count).map { CSVColumns.normalized(row.text($0)) }
            guard let timestamp = names.firstIndex(of: "timestamp"), let grams = names.firstIndex(of: "weight grams") else {
                throw .invalid(
                    "file", "line \(row.line): a Google Health weight file starts with the header \"timestamp,weight grams,data source\"")
            }
            self.columns = (timestamp, grams)
            return
        }
        let timestampText = row.text(columns.timestamp)
        guard let time = LocalDateTime(iso: timestampText) else {
            return output.reject(
                line: row.line, field: "date", reason: "\"\(timestampText)\" is not a date; Google writes 2024-03-01T06:58:12Z")
        }
        let gramsText = row.field(columns.grams)
        guard !gramsText.isEmpty else {
            return output.reject(line: row.line, field: "weight", reason: "the weight is missing")
        }
        guard let grams = DecimalNumber.parse(gramsText, decimalComma: false) else {
            return output.reject(line: row.line, field: "weight", reason: "\"\(TextDecoding.string(gramsText))\" is not a number")
        }
        let weight: Mass
        do {
            weight = try Mass.bodyWeight(grams / 1000, .kilograms)
        } catch {
            return output.reject(line: row.line, error)
        }
        let (instant, offset) = ReadingTime.resolve(time, in: options.timeZone, assumingUTC: true)
        output.add(
            ImportedWeighIn(
                measuredAt: instant, utcOffsetSeconds: offset, weight: weight,
                externalID: "google-health:\(ReadingTime.epochMilliseconds(instant)):\(Int64(grams.rounded()))", line: row.line))
    }
}
