import CinnCore
import CinnImport
import CinnStore
import Foundation

extension Journal {
    /// Imports an Apple Health export (`export.zip` or its `export.xml`), streamed: weigh-ins, body fat,
    /// blood glucose, insulin, food (Food correlations and other dietary records) and workouts, as one batch
    /// that can be undone; every other quantity and category type summed up per local day. Records of other
    /// kinds are counted as skipped. A cut-off or malformed file imports
    /// nothing and says where it breaks; records that cannot be read are listed and, unless
    /// `mode.skipInvalid`, import nothing either.
    public func importAppleHealth(
        at url: URL, fileName: String?, mode: ImportMode,
        progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }
    ) async throws -> ImportReport {
        try await store.importHealthRecords(user: user, format: "apple-health", fileName: fileName ?? url.lastPathComponent, mode: mode) {
            write in
            let summary = try await AppleHealthReader.read(url: url, progress: progress) { batch in try await write(batch) }
            let report = ImportReport(
                format: "apple-health", rowsRead: summary.records, skipped: summary.skippedTypes.values.reduce(0, +),
                rejected: summary.rejected, rejectedCount: summary.rejectedCount)
            return (report, summary.days, summary.exportedAt)
        }
    }

    /// The last height an Apple Health export held (the mean of its last day), offered to a profile that has none;
    /// nil when no export held a height in Cinn's range.
    public func importedHeight() async throws -> (height: Height, day: LocalDate)? {
        let type = HealthDataType.height.identifier
        guard
            let kept = try await store.healthDayTypes(user: user).first(where: { $0.type == type && $0.category.isEmpty && $0.unit == "cm" }
            ),
            let last = try await store.healthDays(user: user, type: type, category: "", unit: "cm", days: kept.last...kept.last).last,
            Height.humanRange.contains(last.mean)
        else { return nil }
        return (Height(centimetres: last.mean), last.key.day)
    }
}
