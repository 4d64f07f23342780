import CinnCore
import Foundation
import SQLKit

/// Identifies a person's journal; every row of every table belongs to one.
public struct UserID: Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: Int64
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
}

extension Store {
    /// The name of the one user of single-user mode.
    public static let localUserName = "local"

    /// The user with this name, created on first use.
    public func user(named name: String) async throws -> UserID {
        try await transaction { db in
            try await db.raw(
                """
                INSERT INTO users (id, name, created_at_ms) VALUES (\(bind: bind(UUID.v7(at: now()))), \(bind: name),
                \(bind: milliseconds(now()))) ON CONFLICT (name) DO NOTHING
                """
            ).run()
            guard let row = try await db.raw("SELECT row_id FROM users WHERE name = \(bind: name)").first() else {
                throw CinnError(.internal, "the user could not be created")
            }
            return UserID(try row.decode(column: "row_id", as: Int64.self))
        }
    }

    /// The local user of single-user mode.
    public func localUser() async throws -> UserID { try await user(named: Self.localUserName) }

    /// Reserves `count` change numbers for the user's records and returns the first.
    func reserveVersions(_ db: any SQLDatabase, user: UserID, count: Int = 1) async throws -> Int64 {
        guard
            let row = try await db.raw(
                """
                UPDATE users SET last_version = last_version + \(bind: count) WHERE row_id = \(bind: user.rawValue)
                RETURNING last_version
                """
            ).first()
        else {
            throw CinnError.notFound("no such user")
        }
        return try row.decode(column: "last_version", as: Int64.self) - Int64(count) + 1
    }

    /// Deletes the user's rows of `table` that meet `condition`, leaving tombstones for sync, and
    /// returns how many there were.
    func tombstone(_ table: String, user: UserID, condition: SQLQueryString) async throws -> Int {
        try await transaction { db in try await tombstone(db, table, user: user, condition: condition) }
    }

    func tombstone(_ db: any SQLDatabase, _ table: String, user: UserID, condition: SQLQueryString) async throws -> Int {
        let version = try await reserveVersions(db, user: user)
        return try await db.raw(
            """
            UPDATE \(unsafeRaw: table) SET deleted = 1, version = \(bind: version), updated_at_ms = \(bind: milliseconds(now()))
            WHERE user_id = \(bind: user.rawValue) AND deleted = 0 AND \(condition) RETURNING row_id
            """
        ).all().count
    }
}
