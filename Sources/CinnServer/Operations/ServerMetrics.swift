import CinnCore
import CinnJournal
import Metrics

/// The counters of what the server did besides answering requests: imports (files, uploads, deliveries) and sync.
/// Labels hold only names Cinn knows (formats, outcomes), never what a client sent.
enum ServerMetrics {
    /// `cinn_imports_total{format, result}` (result: imported, nothing, dry_run, failed) and
    /// `cinn_import_records_total{format}`, the records added.
    static func imported(_ report: ImportReport) {
        let format = knownFormat(report.format)
        let result = report.dryRun ? "dry_run" : report.addsAnything && report.importID != nil ? "imported" : "nothing"
        Counter(label: "cinn_imports_total", dimensions: [("format", format), ("result", result)]).increment()
        if !report.dryRun, report.importID != nil {
            Counter(label: "cinn_import_records_total", dimensions: [("format", format)]).increment(by: report.imported)
        }
    }

    static func importFailed() {
        Counter(label: "cinn_imports_total", dimensions: [("format", "unknown"), ("result", "failed")]).increment()
    }

    /// Runs an import, counting what it did or that it failed.
    static func counting(_ body: () async throws -> ImportReport) async throws -> ImportReport {
        do {
            let report = try await body()
            imported(report)
            return report
        } catch {
            importFailed()
            throw error
        }
    }

    /// `cinn_sync_requests_total{kind}` (push, pull) and `cinn_sync_changes_total{direction}`.
    static func synced(_ kind: String, changes: Int) {
        Counter(label: "cinn_sync_requests_total", dimensions: [("kind", kind)]).increment()
        Counter(label: "cinn_sync_changes_total", dimensions: [("direction", kind)]).increment(by: changes)
    }

    static func knownFormat(_ format: String) -> String {
        Journal.importFormats.contains(format) || format == "health-auto-export" ? format : "other"
    }
}
