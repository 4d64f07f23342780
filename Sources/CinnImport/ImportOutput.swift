import CinnCore

/// Values and rejected rows gathered while a file is read, handed out in batches.
struct ImportOutput<Item: Sendable> {
    let batchSize: Int
    let totalBytes: Int64
    private(set) var items: [Item] = []
    private(set) var rejected: [RejectedRow] = []
    private(set) var rejectedCount = 0
    /// Rows that hold nothing to import, counted but not rejected.
    private(set) var skipped = 0
    private(set) var rowsRead = 0

    init(batchSize: Int, totalBytes: Int64) {
        self.batchSize = batchSize
        self.totalBytes = totalBytes
        items.reserveCapacity(batchSize)
    }

    var hasFullBatch: Bool { items.count >= batchSize }

    mutating func add(_ item: Item) {
        items.append(item)
        rowsRead += 1
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
