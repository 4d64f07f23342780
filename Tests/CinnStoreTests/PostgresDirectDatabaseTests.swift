import Foundation
import PostgresKit
import SQLKit
import Testing

@testable import CinnStore

/// The store's PostgreSQL rows read every type as PostgresKit's own rows do (values, NULLs, and the types they hand
/// on), and its binds write NULL for nil.
@Suite struct PostgresDirectDatabaseTests {
    static let columns = ["s", "i", "f", "b", "u", "d", "by", "n"]

    /// Decoding `column` as `T` from both rows gives the same value, or fails on both.
    func expectSame<T: Decodable & Equatable>(
        _ type: T.Type, _ column: String, direct: any SQLRow, stock: any SQLRow, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let mine = Result { try direct.decode(column: column, as: T.self) }
        let theirs = Result { try stock.decode(column: column, as: T.self) }
        switch (mine, theirs) {
        case (.success(let a), .success(let b)): #expect(a == b, "\(column) as \(T.self)", sourceLocation: sourceLocation)
        case (.failure, .failure): break
        default: Issue.record("\(column) as \(T.self): \(mine) but PostgresKit \(theirs)", sourceLocation: sourceLocation)
        }
    }

    @Test(.enabled(if: Backend.enabled.contains(.postgres)))
    func rowsReadAsPostgresKitReadsThem() async throws {
        try await TestDatabase.with(.postgres) { store in
            try await store.withRawConnection { connection in
                let db = connection.sql
                #expect(db is PostgresDirectDatabase)
                try await db.raw(
                    """
                    CREATE TABLE direct (k INTEGER, s TEXT, i BIGINT, f DOUBLE PRECISION, b BOOLEAN, u UUID, d TIMESTAMPTZ,
                    by BYTEA, n NUMERIC)
                    """
                ).run()
                let id = UUID(), when = Date(timeIntervalSince1970: 1_710_504_000.25)
                try await db.raw(
                    """
                    INSERT INTO direct VALUES (1, \(bind: "Übung"), \(bind: Int(-42)), \(bind: 80.25), \(bind: true), \(bind: id),
                    \(bind: when), \(bind: Data([0, 1, 255])), 1.5)
                    """
                ).run()
                let nothing: String? = nil, noNumber: Int? = nil
                try await db.raw(
                    "INSERT INTO direct (k, s, i) VALUES (2, \(bind: nothing), \(bind: noNumber))"
                ).run()
                let direct = try await db.raw("SELECT * FROM direct ORDER BY k").all()
                let stock = try await connection.postgres!.sql().raw("SELECT * FROM direct ORDER BY k").all()
                #expect(direct.count == 2 && stock.count == 2)
                #expect(try direct[0].decode(column: "s", as: String.self) == "Übung")
                #expect(try direct[1].decodeNil(column: "s") && direct[1].contains(column: "n") && !direct[1].contains(column: "x"))
                #expect(direct[0].allColumns == stock[0].allColumns)
                for (mine, theirs) in zip(direct, stock) {
                    for column in Self.columns + ["missing"] {
                        expectSame(String.self, column, direct: mine, stock: theirs)
                        expectSame(String?.self, column, direct: mine, stock: theirs)
                        expectSame(Int.self, column, direct: mine, stock: theirs)
                        expectSame(Int?.self, column, direct: mine, stock: theirs)
                        expectSame(Int64.self, column, direct: mine, stock: theirs)
                        expectSame(Double.self, column, direct: mine, stock: theirs)
                        expectSame(Double?.self, column, direct: mine, stock: theirs)
                        expectSame(Bool.self, column, direct: mine, stock: theirs)
                        expectSame(Bool?.self, column, direct: mine, stock: theirs)
                        expectSame(UUID.self, column, direct: mine, stock: theirs)
                        expectSame(UUID?.self, column, direct: mine, stock: theirs)
                        expectSame(Date.self, column, direct: mine, stock: theirs)
                        expectSame(Date?.self, column, direct: mine, stock: theirs)
                        expectSame(Data.self, column, direct: mine, stock: theirs)
                        expectSame(Data?.self, column, direct: mine, stock: theirs)
                        expectSame(Decimal.self, column, direct: mine, stock: theirs)
                    }
                }
            }
        }
    }
}
