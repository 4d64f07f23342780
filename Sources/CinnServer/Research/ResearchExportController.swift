import CinnCore
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// `GET /api/v1/research-export`: the user's data (or, for an administrator with `scope=study`, every
/// participant's) as JSON or one CSV table, optionally de-identified.
struct ResearchExportController {
    typealias Context = JournalRequestContext

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("research-export", use: export)
    }

    @Sendable func export(_ request: Request, context: Context) async throws -> Response {
        let deidentify = try request.queryBool("deidentify")
        let participants: [(name: String, journal: Journal)]
        switch request.query("scope") ?? "me" {
        case "me":
            participants = [(try await context.journal.account()?.name ?? "participant", context.journal)]
        case "study":
            guard let me = context.account?.account, me.role == .admin else {
                throw CinnError(.forbidden, "only an administrator of a hosted server exports a study")
            }
            participants = try await context.journal.accounts().filter(\.hasPassword).map { ($0.name, context.journal.forUser($0.user)) }
        case let other:
            throw CinnError.invalid("scope", "scope is me or study, not \(other)")
        }
        let table = request.query("table") ?? "glucose"
        let tables = ResearchExport.tableNames + ["dictionary"]
        guard tables.contains(table) else {
            throw CinnError.invalid("table", "no table \(table); the tables are \(tables.joined(separator: ", "))")
        }
        let export = try await ResearchExport.make(participants, deidentify: deidentify)
        switch request.query("format") ?? "json" {
        case "json":
            return JSONResponse.body(export.json())
        case "csv":
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/csv; charset=utf-8",
                    .contentDisposition: "attachment; filename=\"cinn-research-\(table).csv\"",
                ],
                body: ResponseBody(byteBuffer: ByteBuffer(string: try export.csv(table))))
        case let other:
            throw CinnError.invalid("format", "format is json or csv, not \(other)")
        }
    }
}
