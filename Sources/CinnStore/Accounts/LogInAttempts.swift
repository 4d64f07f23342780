import CinnCore
import Foundation
import SQLKit

/// What the log-in throttle's count made of an attempt.
public enum LogInAttemptCount: Sendable, Equatable {
    /// Counted for every key: the rows to delete if it is taken back.
    case counted(rows: [Int64])
    /// A key is at the limit: not counted, and refused until this time.
    case refused(until: Date)
}

extension Store {
    /// Counts a log-in attempt for every key (a client address; a name from a client), or refuses it, without counting,
    /// when a key already has `limit` attempts within `window`. One attempt at a time across every server on the
    /// database (an advisory lock on PostgreSQL, SQLite's single writer), so parallel guesses cannot pass the limit.
    /// Attempts older than the window are deleted on the way.
    public func countLogInAttempt(keys: [String], limit: Int, window: TimeInterval) async throws -> LogInAttemptCount {
        let now = milliseconds(now())
        let since = now - Int64((window * 1000).rounded())
        return try await rawTransaction { connection in
            let db = connection.sql
            if !isSQLite { try await db.raw("SELECT pg_advisory_xact_lock(7415002)").run() }
            try await db.raw("DELETE FROM login_attempts WHERE attempted_at_ms <= \(bind: since)").run()
            for key in keys {
                let rows = try await db.raw(
                    """
                    SELECT attempted_at_ms FROM login_attempts WHERE throttle_key = \(bind: key) AND attempted_at_ms > \(bind: since)
                    ORDER BY attempted_at_ms LIMIT \(bind: limit)
                    """
                ).all()
                if rows.count >= limit, let oldest = try rows.first?.decode(column: "attempted_at_ms", as: Int64.self) {
                    return .refused(until: date(milliseconds: oldest).addingTimeInterval(window))
                }
            }
            var inserted: [Int64] = []
            for key in keys {
                let row = try await db.raw(
                    """
                    INSERT INTO login_attempts (throttle_key, attempted_at_ms) VALUES (\(bind: key), \(bind: now)) RETURNING row_id
                    """
                ).first()
                inserted.append(try row?.decode(column: "row_id", as: Int64.self) ?? 0)
            }
            return .counted(rows: inserted)
        }
    }

    /// Takes back the rows of a counted attempt (the password was right, or was never checked).
    public func withdrawLogInAttempt(rows: [Int64]) async throws {
        guard !rows.isEmpty else { return }
        try await transaction { db in
            try await db.raw("DELETE FROM login_attempts WHERE row_id IN (\(binds: rows))").run()
        }
    }

    /// Forgets every attempt counted for `key`.
    public func clearLogInAttempts(key: String) async throws {
        try await transaction { db in
            try await db.raw("DELETE FROM login_attempts WHERE throttle_key = \(bind: key)").run()
        }
    }

    /// How many keys have attempts within `window`.
    public func logInAttemptKeyCount(window: TimeInterval) async throws -> Int {
        let since = milliseconds(now()) - Int64((window * 1000).rounded())
        return try await withConnection { db in
            try await db.raw("SELECT COUNT(DISTINCT throttle_key) AS keys FROM login_attempts WHERE attempted_at_ms > \(bind: since)")
                .first()?.decode(column: "keys", as: Int.self) ?? 0
        }
    }
}
