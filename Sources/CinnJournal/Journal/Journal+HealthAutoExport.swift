import CinnCore
import CinnImport
import CinnStore
import Foundation

extension Journal {
    /// The largest delivery taken: a day with heart rate by the minute is about 150 KB; a month of everything at the
    /// minute is larger, and the app's "Batch Requests" splits it.
    public static let maximumHealthDeliveryBytes = 32 << 20

    /// Takes one Health Auto Export delivery (its REST API JSON) as an import batch: weigh-ins, body fat, glucose,
    /// insulin, food, workouts and the other metrics' day summaries (`Store.importHealthDelivery`). A body that is not
    /// JSON is a malformed request; one whose shape is wrong is refused naming the JSON path; a point that cannot be read
    /// is rejected alone, and the delivery is refused naming the first when nothing else in it could be read.
    public func ingestHealthAutoExport(_ body: [UInt8], fileName: String?) async throws -> ImportReport {
        try await importHealthAutoExport(
            try HealthAutoExportParser.parse(body: body), fileName: fileName, mode: ImportMode(skipInvalid: true))
    }

    /// Imports a file of the app's own "Export" as JSON (the schema of its deliveries), through the same code as a
    /// delivery, as one batch: a dry run, or refused whole when a point is invalid unless `mode.skipInvalid`, as other
    /// files are.
    public func importHealthAutoExport(at url: URL, fileName: String?, mode: ImportMode) async throws -> ImportReport {
        try await importHealthAutoExport(try HealthAutoExportParser.read(url: url), fileName: fileName ?? url.lastPathComponent, mode: mode)
    }

    private func importHealthAutoExport(_ delivery: HealthAutoExportDelivery, fileName: String?, mode: ImportMode) async throws
        -> ImportReport
    {
        var report = ImportReport(
            format: HealthAutoExportParser.format, rowsRead: delivery.rowsRead, rejected: delivery.rejected,
            rejectedCount: delivery.rejectedCount)
        report.unknown = delivery.unknownMetrics
        if delivery.records.count == 0, delivery.samples.isEmpty, let first = delivery.rejected.first {
            throw CinnError.invalid(first.field ?? "data", first.reason)
        }
        return try await store.importHealthDelivery(
            user: user, format: HealthAutoExportParser.format, fileName: fileName,
            records: delivery.records, samples: delivery.samples, report: report, mode: mode)
    }
}
