import CinnSQLite
import Foundation
import Logging
import NIOCore
import SQLKit
import SQLiteKit
import SQLiteNIO
import Synchronization

/// The read-only queries of one pooled SQLite connection, kept prepared and stepped on the thread of the task that
/// asks, in place of SQLiteNIO's way: every query prepared and finalised again, run on the driver's thread pool, and
/// each row handed to the event loop as a task of its own before the asking task resumes. A page makes ten to twenty
/// small queries; that round trip was a third of its time (docs/DESIGN.md, "SQLite reads").
///
/// A query runs here when it is a SELECT (or WITH) that SQLite calls read-only; every other statement, and any query
/// that fails here, goes through SQLiteNIO as before, so a failure is reported as SQLiteNIO reports it and a write
/// never waits for SQLite's lock on a thread the server's tasks need. A read never waits for that lock (the journal
/// is in WAL mode). At most `capacity` statements are kept per connection; `close()` finalises them before the
/// connection closes (SQLite does not close a connection with statements left).
final class SQLiteStatements: Sendable {
    /// A prepared statement and the names of its result columns; `statement` nil for SQL that goes through SQLiteNIO.
    private struct Prepared {
        let statement: OpaquePointer?
        let columns: SQLiteColumnNames
    }

    private struct State {
        /// Nil once closed: every query then goes through SQLiteNIO.
        var handle: OpaquePointer?
        var prepared: [String: Prepared] = [:]
    }

    static let capacity = 256

    let connection: SQLiteConnection
    private let state: Mutex<State>

    init(_ connection: SQLiteConnection) throws {
        self.connection = connection
        let handle = try SQLiteBulkInsert.handle(of: connection)
        // Without it SQLite prepares a kept statement again whenever a value bound in its WHERE changes (a time range
        // moves with the clock), in case that value allows another plan: a tenth of the Glucose page's time.
        cinn_sqlite_stable_plans(handle)
        state = Mutex(State(handle: handle))
    }

    /// The rows of `sql` with `binds`, stepped here; nil when it is not a read-only query, or failed (the caller then
    /// runs it through SQLiteNIO).
    func select(_ sql: String, _ binds: [SQLiteData], decoder: SQLiteDataDecoder) -> [SQLiteDirectRow]? {
        state.withLock { state -> [SQLiteDirectRow]? in
            guard let handle = state.handle else { return nil }
            var kept = true
            let prepared: Prepared
            if let known = state.prepared[sql] {
                prepared = known
            } else {
                guard let fresh = Self.prepare(sql, on: handle) else { return nil }
                prepared = fresh
                if state.prepared.count < Self.capacity {
                    state.prepared[sql] = fresh
                } else {
                    kept = false
                }
            }
            guard let statement = prepared.statement else { return nil }
            defer {
                if kept {
                    sqlite_nio_sqlite3_reset(statement)
                    sqlite_nio_sqlite3_clear_bindings(statement)
                } else {
                    sqlite_nio_sqlite3_finalize(statement)
                }
            }
            guard Self.bind(binds, to: statement) else { return nil }
            var rows: [SQLiteDirectRow] = []
            let count = Int32(prepared.columns.names.count)
            while true {
                switch sqlite_nio_sqlite3_step(statement) {
                case CINN_SQLITE_ROW:
                    // SQLite prepares a statement again after the schema changed, and `SELECT *` may then have
                    // other columns: forgotten here, prepared afresh next time.
                    guard sqlite_nio_sqlite3_column_count(statement) == count else {
                        if kept { state.prepared[sql] = nil }
                        kept = false
                        return nil
                    }
                    rows.append(
                        SQLiteDirectRow(
                            columns: prepared.columns, data: (0..<count).map { Self.value(statement, $0) }, decoder: decoder))
                case CINN_SQLITE_DONE:
                    return rows
                default:
                    return nil
                }
            }
        }
    }

    /// Finalises the kept statements; later queries go through SQLiteNIO.
    func close() {
        state.withLock { state in
            for prepared in state.prepared.values {
                if let statement = prepared.statement { sqlite_nio_sqlite3_finalize(statement) }
            }
            state.prepared = [:]
            state.handle = nil
        }
    }

    /// `sql` prepared, or with no statement when it is not read-only; nil when SQLite cannot prepare it.
    private static func prepare(_ sql: String, on handle: OpaquePointer) -> Prepared? {
        var statement: OpaquePointer?
        guard cinn_sqlite_prepare(handle, sql, &statement) == CINN_SQLITE_OK, let statement else { return nil }
        guard sqlite_nio_sqlite3_stmt_readonly(statement) != 0 else {
            sqlite_nio_sqlite3_finalize(statement)
            return Prepared(statement: nil, columns: SQLiteColumnNames([]))
        }
        let names = (0..<sqlite_nio_sqlite3_column_count(statement)).map { column in
            sqlite_nio_sqlite3_column_name(statement, column).map { String(cString: $0) } ?? ""
        }
        return Prepared(statement: statement, columns: SQLiteColumnNames(names))
    }

    private static func bind(_ binds: [SQLiteData], to statement: OpaquePointer) -> Bool {
        for (offset, value) in binds.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            switch value {
            case .integer(let number): result = sqlite_nio_sqlite3_bind_int64(statement, index, Int64(number))
            case .float(let number): result = sqlite_nio_sqlite3_bind_double(statement, index, number)
            case .null: result = sqlite_nio_sqlite3_bind_null(statement, index)
            case .text(var text):
                result = text.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { cinn_sqlite_bind_text(statement, index, $0.baseAddress, Int32(bytes.count)) }
                }
            case .blob(let buffer):
                result = buffer.withUnsafeReadableBytes { cinn_sqlite_bind_blob(statement, index, $0.baseAddress, Int32($0.count)) }
            }
            guard result == CINN_SQLITE_OK else { return false }
        }
        return true
    }

    /// A column's value as SQLiteNIO gives it.
    private static func value(_ statement: OpaquePointer, _ column: Int32) -> SQLiteData {
        switch sqlite_nio_sqlite3_column_type(statement, column) {
        case CINN_SQLITE_INTEGER: return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, column)))
        case CINN_SQLITE_FLOAT: return .float(sqlite_nio_sqlite3_column_double(statement, column))
        case CINN_SQLITE_TEXT:
            let text = sqlite_nio_sqlite3_column_text(statement, column)
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: text == nil ? 0 : count), as: UTF8.self))
        case CINN_SQLITE_BLOB:
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            if let bytes = sqlite_nio_sqlite3_column_blob(statement, column) {
                buffer.writeBytes(UnsafeRawBufferPointer(start: bytes, count: count))
            }
            return .blob(buffer)
        default: return .null
        }
    }
}

/// A query's result column names, shared by its rows.
final class SQLiteColumnNames: Sendable {
    let names: [String]
    let offsets: [String: Int]

    init(_ names: [String]) {
        self.names = names
        offsets = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// A row read by `SQLiteStatements`, decoded as SQLiteKit decodes SQLiteNIO's rows.
struct SQLiteDirectRow: SQLRow {
    let columns: SQLiteColumnNames
    let data: [SQLiteData]
    let decoder: SQLiteDataDecoder

    var allColumns: [String] { columns.names }

    func contains(column: String) -> Bool { columns.offsets[column] != nil }

    func decodeNil(column: String) throws -> Bool {
        guard let offset = columns.offsets[column] else { return true }
        return data[offset] == .null
    }

    func decode<D: Decodable>(column: String, as: D.Type) throws -> D {
        guard let offset = columns.offsets[column] else {
            throw DecodingError.keyNotFound(
                SQLiteColumnKey(column), .init(codingPath: [], debugDescription: "the row has no column \(column)"))
        }
        return try decoder.decode(D.self, from: data[offset])
    }
}

private struct SQLiteColumnKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// SQLKit on a pooled SQLite connection: read-only queries through its `SQLiteStatements`, everything else (and a
/// query that fails there) through SQLiteNIO, as SQLiteKit runs them.
struct SQLiteDirectDatabase: SQLDatabase {
    let statements: SQLiteStatements
    private let encoder = SQLiteDataEncoder()
    private let decoder = SQLiteDataDecoder()

    init(_ statements: SQLiteStatements) { self.statements = statements }

    var logger: Logger { statements.connection.logger }
    var eventLoop: any EventLoop { statements.connection.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { statements.connection.sql().version }
    var dialect: any SQLDialect { SQLiteDialect() }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        statements.connection.sql(encoder: encoder, decoder: decoder).execute(sql: query, onRow)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (sql, rawBinds) = serialize(query)
        let binds = try rawBinds.map { try encoder.encode($0) }
        if Self.mayRead(sql), let rows = statements.select(sql, binds, decoder: decoder) {
            for row in rows { onRow(row) }
            return
        }
        try await statements.connection.query(sql, binds) { [decoder] row in onRow(row.sql(decoder: decoder)) }
    }

    /// Whether `sql` starts as a query does (SELECT or WITH); SQLite then says whether it only reads.
    static func mayRead(_ sql: String) -> Bool {
        let start = sql.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\t") }
        func starts(_ word: String) -> Bool {
            start.count >= word.utf8.count && zip(start, word.utf8).allSatisfy { $0 | 0x20 == $1 }
        }
        return starts("select") || starts("with")
    }
}
