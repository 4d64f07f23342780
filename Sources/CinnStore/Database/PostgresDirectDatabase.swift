import Foundation
import Logging
import NIOCore
import PostgresKit
import PostgresNIO
import SQLKit

/// The `SQLDatabase` the store's queries go through on PostgreSQL: PostgresKit's, with rows that read the store's
/// column types straight from PostgresNIO.
///
/// PostgresKit decodes every column through a general translation (a coding path made for the column, a dynamic
/// cast to find how the type decodes, workarounds for other libraries' types): a tenth of a hosted server's CPU went
/// there. `PostgresDirectRow` reads the types the store reads (text, integers, floating point, booleans, UUIDs,
/// times, bytes, and optionals of them) from the cell itself, and hands anything else, or a cell those cannot read,
/// to PostgresKit's row. Values are bound as PostgresKit binds them when PostgresNIO can encode them (every value
/// the store binds); a query with any other value goes through PostgresKit whole.
struct PostgresDirectDatabase: SQLDatabase {
    let connection: PostgresConnection
    private let stock: any SQLDatabase

    init(_ connection: PostgresConnection) {
        self.connection = connection
        stock = connection.sql()
    }

    var logger: Logger { connection.logger }
    var eventLoop: any EventLoop { connection.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { stock.version }
    var dialect: any SQLDialect { stock.dialect }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        stock.execute(sql: query, onRow)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (sql, binds) = serialize(query)
        var bindings = PostgresBindings(capacity: binds.count)
        for bind in binds {
            if let optional = bind as? any NullableBind, optional.isNull {
                bindings.appendNull()
            } else if let value = bind as? any PostgresThrowingDynamicTypeEncodable {
                try bindings.append(value)
            } else {
                try await stock.execute(sql: query, onRow)
                return
            }
        }
        let rows = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
        for try await row in rows { onRow(PostgresDirectRow(row)) }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }
}

/// One row of `PostgresDirectDatabase`.
struct PostgresDirectRow: SQLRow {
    let row: PostgresRow
    let cells: PostgresRandomAccessRow

    init(_ row: PostgresRow) {
        self.row = row
        cells = row.makeRandomAccess()
    }

    var allColumns: [String] { cells.map(\.columnName) }

    func contains(column: String) -> Bool { cells.contains(column) }

    func decodeNil(column: String) throws -> Bool { !cells.contains(column) || cells[column].bytes == nil }

    func decode<T: Decodable>(column: String, as type: T.Type) throws -> T {
        if cells.contains(column), let value = try? Self.read(T.self, cells[column]) { return value }
        return try row.sql().decode(column: column, as: T.self)
    }

    /// `cell` as `T`, for the types the store reads; nil for any other type.
    private static func read<T>(_ type: T.Type, _ cell: PostgresCell) throws -> T? {
        if T.self == String.self { return try cell.decode(String.self) as? T }
        if T.self == String?.self { return try cell.decode(String?.self) as? T }
        if T.self == Int.self { return try cell.decode(Int.self) as? T }
        if T.self == Int?.self { return try cell.decode(Int?.self) as? T }
        if T.self == Int64.self { return try cell.decode(Int64.self) as? T }
        if T.self == Int64?.self { return try cell.decode(Int64?.self) as? T }
        if T.self == Double.self { return try cell.decode(Double.self) as? T }
        if T.self == Double?.self { return try cell.decode(Double?.self) as? T }
        if T.self == Bool.self { return try cell.decode(Bool.self) as? T }
        if T.self == Bool?.self { return try cell.decode(Bool?.self) as? T }
        if T.self == UUID.self { return try cell.decode(UUID.self) as? T }
        if T.self == UUID?.self { return try cell.decode(UUID?.self) as? T }
        if T.self == Date.self { return try cell.decode(Date.self) as? T }
        if T.self == Date?.self { return try cell.decode(Date?.self) as? T }
        if T.self == Data.self { return try cell.decode(Data.self) as? T }
        if T.self == Data?.self { return try cell.decode(Data?.self) as? T }
        return nil
    }
}

/// An optional bound value, to bind NULL for nil (a cast to an existential does not say whether an optional is nil).
private protocol NullableBind {
    var isNull: Bool { get }
}

extension Optional: NullableBind {
    fileprivate var isNull: Bool { self == nil }
}
