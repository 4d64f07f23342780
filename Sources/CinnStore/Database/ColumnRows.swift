import CinnCore
import Foundation
import NIOCore
import PostgresKit
import SQLKit
import SQLiteKit

/// One row's values by column position, as either database's driver hands them over. Reading many rows
/// this way skips SQLKit's decoding by column name, which was most of a sync pull's time (BENCHMARKS.md).
protocol ColumnReader {
    func integer(_ index: Int) throws -> Int64?
    func real(_ index: Int) throws -> Double?
    func text(_ index: Int) throws -> String?
    func uuid(_ index: Int) throws -> UUID?
}

struct SQLiteColumns: ColumnReader {
    let columns: [SQLiteColumn]

    func integer(_ index: Int) throws -> Int64? {
        switch columns[index].data {
        case .integer(let value): Int64(value)
        case .null: nil
        default: throw CinnError(.internal, "stored column \(columns[index].name) is not a whole number")
        }
    }

    func real(_ index: Int) throws -> Double? {
        switch columns[index].data {
        case .float(let value): value
        case .integer(let value): Double(value)
        case .null: nil
        default: throw CinnError(.internal, "stored column \(columns[index].name) is not a number")
        }
    }

    func text(_ index: Int) throws -> String? {
        switch columns[index].data {
        case .text(let value): value
        case .null: nil
        default: throw CinnError(.internal, "stored column \(columns[index].name) is not text")
        }
    }

    func uuid(_ index: Int) throws -> UUID? {
        switch columns[index].data {
        case .blob(let buffer) where buffer.readableBytes == 16:
            buffer.withUnsafeReadableBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        case .null: nil
        default: throw CinnError(.internal, "stored id \(columns[index].name) is damaged")
        }
    }
}

struct PostgresColumns: ColumnReader {
    let row: PostgresRandomAccessRow

    func integer(_ index: Int) throws -> Int64? { try row[index].decode(Int64?.self) }
    func real(_ index: Int) throws -> Double? { try row[index].decode(Double?.self) }
    func text(_ index: Int) throws -> String? { try row[index].decode(String?.self) }
    func uuid(_ index: Int) throws -> UUID? { try row[index].decode(UUID?.self) }
}

extension Store {
    /// `query`'s rows, each read by `decode` by column position.
    func columnRows<T>(_ connection: Connection, _ query: SQLQueryString, _ decode: (any ColumnReader) throws -> T) async throws -> [T] {
        let (sql, binds) = connection.sql.serialize(query)
        if let sqlite = connection.sqlite {
            let encoder = SQLiteDataEncoder()
            return try await rows(sqlite, sql, try binds.map { try encoder.encode($0) }).map {
                try decode(SQLiteColumns(columns: $0.columns))
            }
        }
        guard let postgres = connection.postgres else { throw CinnError(.internal, "no database connection") }
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds {
            switch value {
            case let value as Int64: bindings.append(value)
            case let value as Int: bindings.append(value)
            case let value as Double: bindings.append(value)
            case let value as String: bindings.append(value)
            case let value as UUID: bindings.append(value)
            default: throw CinnError(.internal, "a query bound a value of type \(type(of: value))")
            }
        }
        let rows = try await postgres.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).collect()
        return try rows.map { try decode(PostgresColumns(row: $0.makeRandomAccess())) }
    }
}
