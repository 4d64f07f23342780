import Foundation

extension WeightFileReader {
    /// The format the start of a file looks like, or nil when it looks like none of them.
    public static func detectFormat(prefix: [UInt8]) -> WeightFileFormat? {
        let line = FileStart.firstLine(prefix)
        if line.hasPrefix("[") || line.hasPrefix("{") { return .fitbit }
        let lowered = line.lowercased()
        if ["#version", "#units", "#date"].contains(where: lowered.hasPrefix) { return .libra }
        if ["epoch,", "date,weight,rung"].contains(where: lowered.hasPrefix) { return .hackersDiet }
        if lowered.hasPrefix("timestamp,weight grams") { return .googleHealth }
        if csvColumns(prefix: prefix) != nil { return .csv }
        return nil
    }

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
