import CinnCore

/// Readings and rejected rows gathered while a weight file is read.
typealias ReadingOutput = ImportOutput<ImportedWeighIn>

/// A parser for one delimited weight format, fed one record at a time.
protocol RowParser {
    /// True once the lines before the readings (header, preamble) have been read.
    var hasReadHeader: Bool { get }
    /// Adds the record's reading or rejection to `output`; throws only when the file as a whole is unusable.
    mutating func parse(_ row: CSVRow, into output: inout ReadingOutput) throws(CinnError)
    /// Adds readings held back until the end of the file.
    mutating func finish(into output: inout ReadingOutput)
}

extension RowParser {
    mutating func finish(into output: inout ReadingOutput) {}
}
