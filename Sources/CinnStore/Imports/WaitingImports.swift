import CinnCore
import Foundation
import SQLKit

/// How far one of the web app's imports has got, as the page polling for it sees it.
public struct StoredImportProgress: Sendable, Equatable {
    /// "checking" (the dry run of an upload) or "importing".
    public var phase: String
    public var progress: ImportProgress
    public var done: Bool

    public init(phase: String, progress: ImportProgress, done: Bool) {
        self.phase = phase
        self.progress = progress
        self.done = done
    }
}

/// The web app's imports between requests: uploads waiting between their check and their import, and how far an import
/// has got. Kept in the database so that any server on it answers the next request. Writes on SQLite take the store's
/// write gate (`rawTransaction`), as every write that may meet others should.
extension Store {
    // MARK: Waiting uploads

    /// Keeps an upload's form fields under its token, and drops uploads older than `expiringBefore` (their tokens are
    /// returned, so that their files can be removed).
    public func keepWaitingUpload(token: String, user: UserID, fields: [String: String], expiringBefore: Date) async throws -> [String] {
        let json = String(decoding: try JSONEncoder().encode(fields), as: UTF8.self)
        return try await transaction { db in
            let expired = try await db.raw(
                """
                DELETE FROM pending_imports WHERE created_at_ms < \(bind: milliseconds(expiringBefore)) RETURNING token
                """
            ).all().map { try $0.decode(column: "token", as: String.self) }
            try await db.raw(
                """
                INSERT INTO pending_imports (token, user_id, fields, created_at_ms)
                VALUES (\(bind: token), \(bind: user.rawValue), \(bind: json), \(bind: milliseconds(now())))
                """
            ).run()
            return expired
        }
    }

    /// The form fields of the upload waiting under `token`, if it is `user`'s.
    public func waitingUpload(token: String, user: UserID) async throws -> [String: String]? {
        try await withConnection { db in
            guard
                let row = try await db.raw(
                    """
                    SELECT fields FROM pending_imports WHERE token = \(bind: token) AND user_id = \(bind: user.rawValue)
                    """
                ).first()
            else { return nil }
            return try JSONDecoder().decode([String: String].self, from: Data(try row.decode(column: "fields", as: String.self).utf8))
        }
    }

    /// Takes `user`'s upload waiting under `token` for its import: its form fields, and no other request finds it again
    /// (a form sent twice, to two servers, imports once).
    public func claimWaitingUpload(token: String, user: UserID) async throws -> [String: String]? {
        try await transaction { db in
            guard
                let row = try await db.raw(
                    """
                    DELETE FROM pending_imports WHERE token = \(bind: token) AND user_id = \(bind: user.rawValue) RETURNING fields
                    """
                ).first()
            else { return nil }
            return try JSONDecoder().decode([String: String].self, from: Data(try row.decode(column: "fields", as: String.self).utf8))
        }
    }

    /// Replaces the form fields of `user`'s upload waiting under `token`.
    public func setWaitingUploadFields(_ fields: [String: String], token: String, user: UserID) async throws {
        let json = String(decoding: try JSONEncoder().encode(fields), as: UTF8.self)
        try await transaction { db in
            try await db.raw(
                """
                UPDATE pending_imports SET fields = \(bind: json) WHERE token = \(bind: token) AND user_id = \(bind: user.rawValue)
                """
            ).run()
        }
    }

    public func removeWaitingUpload(token: String) async throws {
        try await transaction { db in
            try await db.raw("DELETE FROM pending_imports WHERE token = \(bind: token)").run()
        }
    }

    // MARK: Import progress

    /// Records how far the import polling with `id` has got. An id another user's import already has is left alone.
    /// When one finishes, entries not heard of since `expiringBefore` are dropped.
    ///
    /// On SQLite the entries stay in this process: an import holds SQLite's one write lock while it reads its file, so a
    /// progress row could not be written until the import had ended. Several servers share a PostgreSQL database, never
    /// a SQLite file, so a poll reaches the process of its import.
    public func setImportProgress(id: String, user: UserID, _ entry: StoredImportProgress, expiringBefore: Date) async throws {
        guard !isSQLite else {
            let now = now()
            importProgressInProcess.withLock { entries in
                guard entries[id].map({ $0.user == user }) ?? true else { return }
                entries[id] = ProcessImportProgress(user: user, entry: entry, updated: now)
                if entry.done { entries = entries.filter { $0.value.updated >= expiringBefore } }
            }
            return
        }
        let progress = entry.progress
        try await withConnection { db in
            try await db.raw(
                """
                INSERT INTO import_progress (id, user_id, phase, rows_read, bytes_read, total_bytes, done, updated_at_ms)
                VALUES (\(bind: id), \(bind: user.rawValue), \(bind: entry.phase), \(bind: progress.rowsRead), \(bind: progress.bytesRead),
                    \(bind: progress.totalBytes), \(bind: entry.done ? 1 : 0), \(bind: milliseconds(now())))
                ON CONFLICT (id) DO UPDATE SET phase = excluded.phase, rows_read = excluded.rows_read, bytes_read = excluded.bytes_read,
                    total_bytes = excluded.total_bytes, done = excluded.done, updated_at_ms = excluded.updated_at_ms
                WHERE import_progress.user_id = excluded.user_id
                """
            ).run()
            if entry.done {
                try await db.raw("DELETE FROM import_progress WHERE updated_at_ms < \(bind: milliseconds(expiringBefore))").run()
            }
        }
    }

    /// How far `user`'s import polling with `id` has got.
    public func importProgress(id: String, user: UserID) async throws -> StoredImportProgress? {
        guard !isSQLite else {
            return importProgressInProcess.withLock { $0[id] }.flatMap { $0.user == user ? $0.entry : nil }
        }
        return try await withConnection { db in
            guard
                let row = try await db.raw(
                    """
                    SELECT phase, rows_read, bytes_read, total_bytes, done FROM import_progress
                    WHERE id = \(bind: id) AND user_id = \(bind: user.rawValue)
                    """
                ).first()
            else { return nil }
            return StoredImportProgress(
                phase: try row.decode(column: "phase", as: String.self),
                progress: ImportProgress(
                    bytesRead: try row.decode(column: "bytes_read", as: Int64.self),
                    totalBytes: try row.decode(column: "total_bytes", as: Int64?.self),
                    rowsRead: try row.decode(column: "rows_read", as: Int.self)),
                done: try row.decode(column: "done", as: Int.self) == 1)
        }
    }
}

/// An import's progress as a SQLite store keeps it (`setImportProgress`).
struct ProcessImportProgress: Sendable {
    var user: UserID
    var entry: StoredImportProgress
    var updated: Date
}
