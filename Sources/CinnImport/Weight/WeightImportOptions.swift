import CinnCore
import Foundation

/// What the person tells an import that the file may not say itself.
public struct WeightImportOptions: Sendable {
    /// The unit of weights in files that carry none (Fitbit, CSV without a unit column).
    public var unit: MassUnit?
    /// The time zone of times written without an offset, and of the local days of UTC times.
    public var timeZone: TimeZone

    public init(unit: MassUnit? = nil, timeZone: TimeZone) {
        self.unit = unit
        self.timeZone = timeZone
    }
}

/// What reading a weight file found, besides the readings themselves.
public struct WeightFileSummary: Sendable {
    public var format: WeightFileFormat
    /// Rows that held a reading: every reading handed out plus every rejected row.
    public var rowsRead: Int
    /// The rejected rows, at most `ImportReport.maximumListedRejections` of them.
    public var rejected: [RejectedRow]
    /// How many rows were rejected in all.
    public var rejectedCount: Int

    public init(format: WeightFileFormat, rowsRead: Int, rejected: [RejectedRow], rejectedCount: Int) {
        self.format = format
        self.rowsRead = rowsRead
        self.rejected = rejected
        self.rejectedCount = rejectedCount
    }
}
