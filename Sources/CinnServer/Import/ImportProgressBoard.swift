import CinnCore
import CinnJournal
import CinnStore
import Foundation
import Synchronization

/// How far the web app's imports have got, by the id their page polls with (`GET /import/progress/{id}`): the check
/// (a dry run) of an upload, under an id the page makes, and the import itself, under its token. Kept in the database,
/// so that a poll reaching another server than the import's finds it; written at most every `interval`, and once more
/// when the import ends. A finished import's last progress stays a few minutes, so a poll that comes late still sees
/// it. Each entry is its user's: another user polling the same id finds nothing.
enum ImportProgressBoard {
    /// What the page reads.
    struct Entry: Encodable {
        var phase: String
        var rowsRead: Int
        var bytesRead: Int64
        var totalBytes: Int64?
        var fraction: Double?
        var done: Bool

        init(_ stored: StoredImportProgress) {
            phase = stored.phase
            rowsRead = stored.progress.rowsRead
            bytesRead = stored.progress.bytesRead
            totalBytes = stored.progress.totalBytes
            fraction = stored.progress.fraction
            done = stored.done
        }
    }

    /// The newest progress an import reported, and whether the board has it yet.
    struct Reported: Sendable {
        var progress: ImportProgress
        var written: Bool
    }

    static let lifetime: TimeInterval = 300
    /// How often a running import's progress is written: the page polls every 400 ms.
    static let interval: Duration = .milliseconds(300)

    /// An id a page may poll with: a UUID, as the page and the tokens make them.
    static func validID(_ text: String?) -> String? {
        text.flatMap(UUID.init(text:)).map { $0.lowercasedString }
    }

    /// Runs `body` with a progress sink whose reports reach the board under `id` (when there is one). A progress write
    /// that fails is skipped: it never fails the import.
    static func tracking(
        _ journal: Journal, _ id: String?, phase: String,
        _ body: (@escaping @Sendable (ImportProgress) -> Void) async throws -> ImportReport
    ) async throws -> ImportReport {
        guard let id else { return try await body { _ in } }
        let newest = Mutex(Reported(progress: ImportProgress(bytesRead: 0, totalBytes: nil, rowsRead: 0), written: true))
        @Sendable func write(_ progress: ImportProgress, done: Bool) async {
            try? await journal.setImportProgress(
                id: id, StoredImportProgress(phase: phase, progress: progress, done: done), lifetime: lifetime)
        }
        // Writes what is new every `interval`; once cancelled (the import has ended), hands back the last progress.
        let writer = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                let unwritten = newest.withLock { state in
                    defer { state.written = true }
                    return state.written ? nil : state.progress
                }
                if let unwritten { await write(unwritten, done: false) }
            }
            return newest.withLock { $0.progress }
        }
        let sink: @Sendable (ImportProgress) -> Void = { progress in newest.withLock { $0 = Reported(progress: progress, written: false) } }
        func finish() async {
            writer.cancel()
            await write(await writer.value, done: true)
        }
        do {
            let report = try await body(sink)
            await finish()
            return report
        } catch {
            await finish()
            throw error
        }
    }

    /// How far `journal`'s import polling with `id` has got.
    static func entry(_ id: String, journal: Journal) async throws -> Entry? {
        try await journal.importProgress(id: id).map(Entry.init)
    }
}
