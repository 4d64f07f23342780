import CinnCore

/// Readings and rejected rows gathered while a file is read, handed out in batches.
struct ReadingOutput {
    let batchSize: Int
    let totalBytes: Int64
    private(set) var readings: [ImportedWeighIn] = []
    private(set) var rejected: [RejectedRow] = []
    private(set) var rejectedCount = 0
    private(set) var rowsRead = 0

    init(batchSize: Int, totalBytes: Int64) {
        self.batchSize = batchSize
        self.totalBytes = totalBytes
        readings.reserveCapacity(batchSize)
    }

    var hasFullBatch: Bool { readings.count >= batchSize }

    mutating func add(_ reading: ImportedWeighIn) {
        readings.append(reading)
        rowsRead += 1
    }

    mutating func reject(line: Int, field: String, reason: String) {
        rowsRead += 1
        rejectedCount += 1
        if rejected.count < ImportReport.maximumListedRejections {
            rejected.append(RejectedRow(line: line, field: field, reason: reason))
        }
    }

    mutating func reject(line: Int, _ error: CinnError) {
        reject(line: line, field: error.field ?? "file", reason: error.message)
    }

    /// Hands every reading gathered so far to `onBatch`, `batchSize` at a time, then reports progress.
    mutating func deliver(
        bytesRead: Int64, _ progress: @Sendable (ImportProgress) -> Void, _ isolation: isolated (any Actor)?,
        _ onBatch: ([ImportedWeighIn]) async throws -> Void
    ) async throws {
        var start = 0
        while start < readings.count {
            let end = min(start + batchSize, readings.count)
            try await onBatch(Array(readings[start..<end]))
            start = end
        }
        readings.removeAll(keepingCapacity: true)
        progress(ImportProgress(bytesRead: min(bytesRead, totalBytes), totalBytes: totalBytes, rowsRead: rowsRead))
    }
}

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
