import CinnCore
import CinnJournal
import CinnStore
import Foundation
import Synchronization

/// How far the web app's imports have got, by the id their page polls with (`GET /import/progress/{id}`):
/// the check (a dry run) of an upload, under an id the page makes, and the import itself, under its token.
/// A finished import's last progress stays a few minutes, so a poll that comes late still sees it. Each
/// entry is its user's: another user polling the same id finds nothing.
final class ImportProgressBoard: Sendable {
    struct Entry: Sendable, Encodable {
        /// "checking" or "importing".
        var phase: String
        var rowsRead: Int
        var bytesRead: Int64
        var totalBytes: Int64?
        var fraction: Double?
        var done: Bool
        /// When the board last heard of it (for expiry) and whose import it is; not sent to the page.
        fileprivate var updated: Date
        fileprivate var user: UserID

        enum CodingKeys: String, CodingKey {
            case phase, rowsRead, bytesRead, totalBytes, fraction, done
        }
    }

    private let entries = Mutex<[String: Entry]>([:])
    static let lifetime: TimeInterval = 300

    /// An id a page may poll with: a UUID, as the page and the tokens make them.
    static func validID(_ text: String?) -> String? {
        text.flatMap(UUID.init(text:)).map { $0.lowercasedString }
    }

    func update(_ id: String, user: UserID, phase: String, _ progress: ImportProgress) {
        let entry = Entry(phase: phase, rowsRead: progress.rowsRead, bytesRead: progress.bytesRead, totalBytes: progress.totalBytes,
                          fraction: progress.fraction, done: false, updated: Date(), user: user)
        entries.withLock { entries in
            guard entries[id].map({ $0.user == user }) ?? true else { return }
            entries[id] = entry
        }
    }

    func finish(_ id: String) {
        let now = Date()
        entries.withLock { entries in
            entries[id]?.done = true
            entries[id]?.updated = now
            entries = entries.filter { now.timeIntervalSince($0.value.updated) < Self.lifetime }
        }
    }

    func entry(_ id: String, user: UserID) -> Entry? {
        entries.withLock { $0[id] }.flatMap { $0.user == user ? $0 : nil }
    }
}
