import CinnCore
import Foundation
import Testing

@testable import CinnStore

/// The prepared bulk INSERTs on SQLiteNIO's own connection handle (SQLite only: PostgreSQL imports use COPY).
@Suite struct SQLiteBulkInsertTests {
    static let columns = ["n", "amount", "label", "id", "bytes"]

    /// A table of every kind of value the bulk path binds, and `count` rows of them read back in order.
    func makeTable(_ store: Store) async throws {
        try await store.withConnection { db in
            try await db.raw(
                """
                CREATE TABLE bulk (n INTEGER NOT NULL CHECK (n >= 0), amount REAL, label TEXT, id BLOB NOT NULL, bytes BLOB NOT NULL)
                """
            ).run()
        }
    }

    func rows(_ store: Store) async throws -> [[String]] {
        try await store.withConnection { db in
            try await db.raw("SELECT n, amount, label, hex(id) AS id, typeof(bytes) AS type, hex(bytes) AS bytes FROM bulk ORDER BY rowid")
                .all().map { row in
                    [
                        String(try row.decode(column: "n", as: Int.self)),
                        try row.decode(column: "amount", as: Double?.self).map { "\($0)" } ?? "NULL",
                        try row.decode(column: "label", as: String?.self) ?? "NULL", try row.decode(column: "id", as: String.self),
                        try row.decode(column: "type", as: String.self), try row.decode(column: "bytes", as: String.self),
                    ]
                }
        }
    }

    static func id(_ n: Int) -> UUID {
        UUID(uuid: (UInt8(n & 0xff), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, UInt8(n >> 8)))
    }

    @Test func writesEveryRowWhateverTheStatementItFallsIn() async throws {
        try await TestDatabase.with(.sqlite) { store in
            try await makeTable(store)
            // 123 rows at 50 a statement: two full statements and 23 rows one by one.
            try await store.rawTransaction { connection in
                let insert = try SQLiteBulkInsert(
                    try #require(connection.sqlite), table: "bulk", columns: Self.columns, rowsPerStatement: 50)
                defer { insert.finish() }
                try insert.insert(count: 123) { n, binder in
                    binder.bind(n)
                    binder.bind(n % 3 == 0 ? nil : Double(n) / 4)
                    binder.bind(n % 5 == 0 ? nil : "Übung \(n) — 卧推")
                    binder.bind(Self.id(n))
                    binder.bind(bytes: n % 2 == 0 ? [] : [UInt8(n), 0, 255])
                }
            }
            let rows = try await rows(store)
            #expect(rows.count == 123)
            for (n, row) in rows.enumerated() {
                let expected = [
                    String(n), n % 3 == 0 ? "NULL" : "\(Double(n) / 4)", n % 5 == 0 ? "NULL" : "Übung \(n) — 卧推",
                    Self.id(n).uuidString.replacingOccurrences(of: "-", with: ""), "blob",
                    n % 2 == 0 ? "" : String(format: "%02X00FF", n),
                ]
                #expect(row == expected, "row \(n)")
            }
        }
    }

    @Test func aRowBreakingAConstraintRollsBackTheWholeTransaction() async throws {
        try await TestDatabase.with(.sqlite) { store in
            try await makeTable(store)
            await #expect(throws: CinnError.self) {
                try await store.rawTransaction { connection in
                    let insert = try SQLiteBulkInsert(
                        try #require(connection.sqlite), table: "bulk", columns: Self.columns, rowsPerStatement: 50)
                    defer { insert.finish() }
                    try insert.insert(count: 60) { n, binder in
                        binder.bind(n)
                        binder.bind(1.5)
                        binder.bind("ok")
                        binder.bind(Self.id(n))
                        binder.bind(bytes: [1])
                    }
                    try insert.insert(count: 80) { n, binder in
                        binder.bind(n == 75 ? -1 : n)  // in the second 50-row statement
                        binder.bind(nil as Double?)
                        binder.bind(nil as String?)
                        binder.bind(Self.id(n))
                        binder.bind(bytes: [])
                    }
                }
            }
            #expect(try await rows(store).isEmpty, "nothing of the transaction stays")
            // The connection is still good for the next transaction.
            try await store.rawTransaction { connection in
                let insert = try SQLiteBulkInsert(
                    try #require(connection.sqlite), table: "bulk", columns: Self.columns, rowsPerStatement: 50)
                defer { insert.finish() }
                #expect(
                    try insert.insertRow { binder in
                        binder.bind(7)
                        binder.bind(2.0)
                        binder.bind("again")
                        binder.bind(Self.id(7))
                        binder.bind(bytes: [7])
                    } != nil)
            }
            #expect(try await rows(store).map(\.[2]) == ["again"])
        }
    }

    @Test func theErrorNamesWhatSQLiteSaid() async throws {
        try await TestDatabase.with(.sqlite) { store in
            try await makeTable(store)
            do {
                try await store.rawTransaction { connection in
                    let insert = try SQLiteBulkInsert(
                        try #require(connection.sqlite), table: "bulk", columns: Self.columns, rowsPerStatement: 1)
                    defer { insert.finish() }
                    try insert.insert(count: 1) { _, binder in
                        binder.bind(-5)
                        binder.bind(nil as Double?)
                        binder.bind(nil as String?)
                        binder.bind(Self.id(1))
                        binder.bind(bytes: [])
                    }
                }
                Issue.record("the insert should have failed")
            } catch let error as CinnError {
                #expect(error.message.contains("CHECK constraint failed"), "\(error.message)")
            }
            await #expect(throws: CinnError.self, "a table that is not there") {
                try await store.rawTransaction { connection in
                    _ = try SQLiteBulkInsert(try #require(connection.sqlite), table: "no_such_table", columns: ["a"], rowsPerStatement: 1)
                }
            }
        }
    }

    @Test func upsertSkipsAreReportedAsNoRow() async throws {
        try await TestDatabase.with(.sqlite) { store in
            try await store.withConnection { db in try await db.raw("CREATE TABLE keyed (k TEXT PRIMARY KEY, v INTEGER)").run() }
            try await store.rawTransaction { connection in
                let insert = try SQLiteBulkInsert(
                    try #require(connection.sqlite), table: "keyed", columns: ["k", "v"], rowsPerStatement: 1,
                    suffix: " ON CONFLICT (k) DO NOTHING")
                defer { insert.finish() }
                let first = try insert.insertRow {
                    $0.bind("a")
                    $0.bind(1)
                }
                let second = try insert.insertRow {
                    $0.bind("b")
                    $0.bind(2)
                }
                let again = try insert.insertRow {
                    $0.bind("a")
                    $0.bind(3)
                }
                #expect(first != nil && second != nil && first != second)
                #expect(again == nil, "a row the upsert clause skips has no rowid")
            }
        }
    }
}
