import Foundation

extension WeightFileReader {
    /// The format the start of a file looks like, or nil when it looks like none of them.
    public static func detectFormat(prefix: [UInt8]) -> WeightFileFormat? {
        let line = FileStart.firstLine(prefix)
        if line.hasPrefix("[") || line.hasPrefix("{") { return isFitbit(prefix: prefix) ? .fitbit : nil }
        let lowered = line.lowercased()
        if ["#version", "#units", "#date"].contains(where: lowered.hasPrefix) { return .libra }
        if ["epoch,", "date,weight,rung"].contains(where: lowered.hasPrefix) { return .hackersDiet }
        if lowered.hasPrefix("timestamp,weight grams") { return .googleHealth }
        if csvColumns(prefix: prefix) != nil { return .csv }
        return nil
    }

    /// Whether JSON looks like Fitbit's weight log: its records name `logId` or `weight` (a list of them, or an object
    /// whose `weight` is that list). Other JSON is not taken for it (it would only ask for a unit it cannot use).
    static func isFitbit(prefix: [UInt8]) -> Bool {
        let text = String(decoding: prefix, as: UTF8.self)
        return text.contains("\"logId\"") || text.contains("\"weight\"")
    }

    /// What Cinn reads of JSON files, for the refusal of one it cannot place.
    static let jsonFormats =
        "Cinn reads JSON files that are a Fitbit weight log (records with logId and weight), a Nightscout "
        + "export or mongoexport backup (entries with sgv and date, or treatments with created_at), or a Health Auto Export "
        + "export (an object whose data holds metrics and workouts)"

    /// The delimiter of a generic CSV file, sniffed from its first non-blank line.
    static func csvDelimiter(prefix: [UInt8]) -> UInt8 {
        CSVColumns.sniffDelimiter(FileStart.firstLine(prefix).utf8)
    }

    /// The columns the header of a generic CSV file names, or nil when it has no date or no weight column.
    private static func csvColumns(prefix: [UInt8]) -> CSVColumns? {
        let scanner = CSVScanner(bytes: prefix, delimiter: csvDelimiter(prefix: prefix))
        var header: [String] = []
        _ = try? scanner.next { row in header = (0..<row.count).map(row.text) }
        return CSVColumns(header: header)
    }
}
