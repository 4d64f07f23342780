import CinnCore

/// Values and rejected rows gathered while a file is read, handed out in batches.
struct ImportOutput<Item: Sendable> {
    let batchSize: Int
    let totalBytes: Int64
    /// The most rows the file may hold, and what they are (`ImportLimits`).
    let maximumRows: Int
    let rowName: String
    private(set) var items: [Item] = []
    private(set) var rejected: [RejectedRow] = []
    private(set) var rejectedCount = 0
    /// Rows that hold nothing to import, counted but not rejected.
    private(set) var skipped = 0
    private(set) var rowsRead = 0

    init(batchSize: Int, totalBytes: Int64, maximumRows: Int, rowName: String) {
        self.batchSize = batchSize
        self.totalBytes = totalBytes
        self.maximumRows = maximumRows
        self.rowName = rowName
        items.reserveCapacity(batchSize)
    }

    /// Throws once more rows have been read than the file may hold.
    func checkRowLimit() throws(CinnError) {
        guard rowsRead <= maximumRows else { throw ImportLimits.exceeded(maximumRows, rowName) }
    }

    var hasFullBatch: Bool { items.count >= batchSize }

    mutating func add(_ item: Item) {
        items.append(item)
        rowsRead += 1
    }

    /// Forgets the items gathered (once they are handed on), keeping the counts.
    mutating func removeItems() {
        items.removeAll(keepingCapacity: true)
    }

    mutating func skip() {
        rowsRead += 1
        skipped += 1
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

    /// Hands every item gathered so far to `onBatch`, `batchSize` at a time, then reports progress.
    mutating func deliver(
        bytesRead: Int64, _ progress: @Sendable (ImportProgress) -> Void, _ isolation: isolated (any Actor)?,
        _ onBatch: ([Item]) async throws -> Void
    ) async throws {
        try checkRowLimit()
        var start = 0
        while start < items.count {
            let end = min(start + batchSize, items.count)
            try await onBatch(Array(items[start..<end]))
            start = end
        }
        items.removeAll(keepingCapacity: true)
        progress(ImportProgress(bytesRead: min(bytesRead, totalBytes), totalBytes: totalBytes, rowsRead: rowsRead))
    }
}
