import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation
import HTTPTypes
import Hummingbird

/// Imports in the JSON API under `/api/v1`: list them, import a file (or check it), undo one.
struct ImportAPIController {
    typealias Context = JournalRequestContext

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("imports", use: listImports)
        group.post("imports", use: importFile)
        group.post("imports/{id}/undo", use: undoImport)
        group.post("ingest/health-auto-export", use: ingestHealthAutoExport)
    }

    @Sendable func listImports(_ request: Request, context: Context) async throws -> APIAnswer {
        .json(["imports": try await context.journal.imports().map(ImportBatchDTO.init)])
    }

    /// `POST /api/v1/imports?format=&unit=&date_order=&dry_run=&skip_invalid=&file_name=` with the file as the body.
    @Sendable func importFile(_ request: Request, context: Context) async throws -> APIAnswer {
        let format = request.query("format")
        try FoodDatabaseFormat.checkImport(format, account: context.account)
        let unit = try request.query("unit").map { text in try MassUnit.parse(text) }
        let dateOrder = try request.query("date_order").map { text in try MyFitnessPalExport.DateOrder.parse(text) }
        let mode = ImportMode(dryRun: try request.queryBool("dry_run"), skipInvalid: try request.queryBool("skip_invalid"))
        let file = try await spoolToTemporaryFile(request.body, maximumBytes: maximumImportBytes)
        defer { try? FileManager.default.removeItem(at: file) }
        let report = try await ServerMetrics.counting {
            try await namingUpload(file, as: request.query("file_name")) {
                try await context.journal.importAnyFile(
                    at: file, fileName: request.query("file_name"), format: format, unit: unit,
                    dateOrder: dateOrder, mode: mode)
            }
        }
        if report.rejectedCount > 0 && !mode.skipInvalid && !mode.dryRun {
            let error = CinnError.invalid(
                "file", "\(report.rejectedCount) rows are invalid; nothing was imported (use skip_invalid=true to import the others)")
            return .response(JSONResponse.error(error, report: ImportReportDTO(report: report)))
        }
        return .json(ImportReportDTO(report: report), status: report.importID == nil ? .ok : .created)
    }

    /// `POST /api/v1/ingest/health-auto-export`: one delivery of the iPhone app Health Auto Export's REST API automation.
    @Sendable func ingestHealthAutoExport(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.body(upTo: Journal.maximumHealthDeliveryBytes)
        let automation = request.headers[HTTPField.Name("automation-name")!].map { String($0.prefix(100)) }
        let report = try await ServerMetrics.counting {
            try await context.journal.ingestHealthAutoExport(Array(body.readableBytesView), fileName: automation ?? "Health Auto Export")
        }
        return .json(ImportReportDTO(report: report), status: report.importID == nil ? .ok : .created)
    }

    @Sendable func undoImport(_ request: Request, context: Context) async throws -> APIAnswer {
        guard let id = context.parameters.get("id").flatMap(Int64.init) else { throw CinnError.notFound("no such import") }
        let removed = try await context.journal.undoImport(id: id)
        return .json(["removed": removed])
    }
}
