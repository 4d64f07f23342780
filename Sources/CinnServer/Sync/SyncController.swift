import CinnCore
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// The sync protocol for offline-first clients (docs/sync.md): `POST /api/v1/sync/push` applies a batch of
/// changes and answers for each; `GET /api/v1/sync/changes` pages through every change after a cursor.
struct SyncController {
    typealias Context = JournalRequestContext
    /// Changes accepted in one push.
    static var maximumChanges: Int { 10_000 }
    /// The largest push body read (10,000 food entries with every nutrient are about 15 MB).
    static var maximumBodyBytes: Int { 32 << 20 }

    func addRoutes(to group: RouterGroup<Context>) {
        group.post("sync/push", use: push)
        group.get("sync/changes", use: changes)
    }

    @Sendable func push(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let changes = try SyncChange.batch(
            jsonText: try await request.body(upTo: Self.maximumBodyBytes).readableBytesView,
            maximumChanges: Self.maximumChanges)
        let results = try await context.journal.push(changes)
        ServerMetrics.synced("push", changes: changes.count)
        return .jsonText(SyncResult.jsonText(results))
    }

    @Sendable func changes(_ request: Request, context: Context) async throws -> APIAnswer {
        var cursor = SyncCursor.start
        if let text = request.query("after") {
            guard let parsed = SyncCursor(text) else {
                throw CinnError.invalid("after", "after must be a cursor a previous page gave as next")
            }
            cursor = parsed
        }
        let limit = try request.queryInt("limit", default: 1000, range: 1...10_000)
        let page = try await context.journal.pull(after: cursor, limit: limit)
        ServerMetrics.synced("pull", changes: page.changes.count)
        return .jsonText(page.jsonText)
    }
}
