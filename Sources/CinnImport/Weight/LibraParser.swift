import CinnCore
import Foundation

/// The Libra app's CSV export (docs/FORMATS.md §6.2): `#` metadata, then `;`-separated rows with UTC times.
// Trailing fields may be left out; the log text, the last column, may itself contain `;`. Older Libra
// databases hold most readings twice, once as a placeholder at local midnight: a midnight reading whose
// local day has another reading of the same weight is dropped.
struct LibraParser: RowParser {
    private let options: WeightImportOptions
    private var unit: MassUnit?
    /// The column where the log text starts: 7 in version 6, 5 in version 5.
    private var logColumn = 7
    private(set) var hasReadHeader = false
    /// The local day of the readings held back in `dayReadings`.
    private var day: LocalDate?
    private var dayReadings: [(reading: ImportedWeighIn, atMidnight: Bool)] = []

    init(options: WeightImportOptions) {
        self.options = options
    }

    mutating func parse(_ row: CSVRow, into output: inout ReadingOutput) throws(CinnError) {
        let first = row.text(0)
        if first.hasPrefix("#") {
            try parseMetadata(first, row: row)
            return
        }
        try checkUnitIsKnown()
        guard let time = LocalDateTime(iso: first) else {
            return output.reject(line: row.line, field: "date", reason: "\"\(first)\" is not a date; Libra writes 2024-03-01T06:12:40.000Z")
        }
        let weightText = row.field(1)
        guard !weightText.isEmpty else {
            return output.reject(line: row.line, field: "weight", reason: "the weight is missing")
        }
        guard let value = DecimalNumber.parse(weightText, decimalComma: true) else {
            return output.reject(line: row.line, field: "weight", reason: "\"\(TextDecoding.string(weightText))\" is not a number")
        }
        guard let unit = unit ?? options.unit else {
            return output.reject(line: row.line, field: "unit", reason: "the unit is missing")
        }
        let weight: Mass
        do {
            weight = try Mass.bodyWeight(value, unit)
        } catch {
            return output.reject(line: row.line, error)
        }
        let (instant, offset) = ReadingTime.resolve(time, in: options.timeZone, assumingUTC: true)
        let reading = ImportedWeighIn(
            measuredAt: instant, utcOffsetSeconds: offset, weight: weight, note: row.remainder(from: logColumn),
            externalID: "libra:\(ReadingTime.epochMilliseconds(instant))", line: row.line)
        let localSeconds = instant.timeIntervalSince1970 + Double(offset)
        let readingDay = LocalDate(instant: instant, utcOffsetSeconds: offset)
        if readingDay != day {
            finish(into: &output)
            day = readingDay
        }
        dayReadings.append((reading, localSeconds.truncatingRemainder(dividingBy: 86_400) == 0))
    }

    /// Hands out the held-back day, without midnight placeholders that have a real reading of the same weight.
    mutating func finish(into output: inout ReadingOutput) {
        for (reading, atMidnight) in dayReadings {
            let isPlaceholder = atMidnight && dayReadings.contains { !$0.atMidnight && $0.reading.weight == reading.weight }
            if !isPlaceholder { output.add(reading) }
        }
        dayReadings.removeAll(keepingCapacity: true)
    }

    private mutating func parseMetadata(_ first: String, row: CSVRow) throws(CinnError) {
        let parts = first.dropFirst().split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        switch parts.first?.lowercased() {
        case "version":
            if parts.count == 2, parts[1] == "5" { logColumn = 5 }
        case "units":
            let name = parts.count == 2 ? parts[1] : ""
            guard let named = MassUnit(spelling: name) else {
                throw .invalid("unit", "line \(row.line): the #Units line names an unknown unit \"\(name)\"; Libra writes kg or lbs")
            }
            unit = named
        case "date":
            let names = (0..<row.count).map { row.text($0).lowercased() }
            if let log = names.firstIndex(where: { $0 == "log" || $0 == "comment" }) { logColumn = log }
            try checkUnitIsKnown()
        default:
            return
        }
    }

    /// Throws at the header or the first reading when neither the file nor the person says the unit.
    private mutating func checkUnitIsKnown() throws(CinnError) {
        guard !hasReadHeader else { return }
        hasReadHeader = true
        guard unit ?? options.unit != nil else {
            throw .invalid("unit", "the file has no #Units line: choose its unit, kg or lb")
        }
    }
}
