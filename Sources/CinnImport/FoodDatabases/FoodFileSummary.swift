import CinnCore

/// What reading a food database file found, besides the foods themselves.
public struct FoodFileSummary: Sendable, Hashable {
    /// Every row (or JSON line) after the header: the foods handed out, the skipped and the rejected rows.
    public var rowsRead: Int
    /// Rows with nothing to import, such as USDA sub-sample rows without energy; counted, not rejected.
    public var skipped: Int
    /// The rejected rows, at most `ImportReport.maximumListedRejections` of them.
    public var rejected: [RejectedRow]
    /// How many rows were rejected in all.
    public var rejectedCount: Int

    public init(rowsRead: Int, skipped: Int, rejected: [RejectedRow], rejectedCount: Int) {
        self.rowsRead = rowsRead
        self.skipped = skipped
        self.rejected = rejected
        self.rejectedCount = rejectedCount
    }

    /// How many foods were handed out.
    public var foodsRead: Int { rowsRead - skipped - rejectedCount }
}

extension ImportOutput<ImportedFood> {
    var foodSummary: FoodFileSummary {
        FoodFileSummary(rowsRead: rowsRead, skipped: skipped, rejected: rejected, rejectedCount: rejectedCount)
    }
}
