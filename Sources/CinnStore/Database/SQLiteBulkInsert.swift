import CinnCore
import CinnSQLite
import Foundation
import SQLiteNIO

/// An INSERT prepared once and stepped for every row of a bulk write, on the handle of the SQLiteNIO
/// connection that holds the caller's transaction (SQLiteNIO prepares and finalises every query; see
/// CinnSQLite.h). Rows go `rowsPerStatement` to a statement, the rest one by one.
///
/// The statements are `INSERT OR ROLLBACK`: a row that breaks a constraint rolls the whole transaction
/// back (and the write throws), so SQLite keeps no statement journal to undo half a statement, which
/// cost a multi-row INSERT about a fifth of its time. Every caller writes all or nothing anyway.
///
/// Use it only inside a transaction on `connection`, from one task at a time, and call `finish()` before
/// the connection goes back to its pool. SQLiteNIO opens its connections in serialized mode, so a call
/// here and one through SQLiteNIO never interleave inside SQLite.
final class SQLiteBulkInsert: @unchecked Sendable {
    private let connection: OpaquePointer
    private let columns: Int
    private let rowsPerStatement: Int
    private var many: OpaquePointer?
    private var one: OpaquePointer?

    /// `suffix` follows the VALUES (an upsert clause, say).
    init(_ sqlite: SQLiteConnection, table: String, columns names: [String], rowsPerStatement: Int, suffix: String = "") throws {
        connection = try Self.handle(of: sqlite)
        columns = names.count
        self.rowsPerStatement = max(1, rowsPerStatement)
        let row = "(" + Array(repeating: "?", count: names.count).joined(separator: ",") + ")"
        let insert = "INSERT OR ROLLBACK INTO \(table) (\(names.joined(separator: ", "))) VALUES "
        do {
            one = try prepare(insert + row + suffix)
            if self.rowsPerStatement > 1 {
                many = try prepare(insert + Array(repeating: row, count: self.rowsPerStatement).joined(separator: ",") + suffix)
            }
        } catch {
            finish()
            throw error
        }
    }

    deinit { finish() }

    /// Inserts `count` rows; `bind` binds row `n`'s columns, in order, to the binder it is given.
    func insert(count: Int, _ bind: (_ n: Int, _ binder: inout Binder) -> Void) throws {
        var n = 0
        if let many {
            while count - n >= rowsPerStatement {
                var binder = Binder(statement: many)
                for _ in 0..<rowsPerStatement {
                    bind(n, &binder)
                    n += 1
                }
                try step(many, binder)
            }
        }
        guard let one else { throw CinnError(.internal, "a bulk insert was used after it finished") }
        while n < count {
            var binder = Binder(statement: one)
            bind(n, &binder)
            n += 1
            try step(one, binder)
        }
    }

    /// Inserts one row and answers its rowid, or nil when the statement's upsert clause skipped it.
    func insertRow(_ bind: (_ binder: inout Binder) -> Void) throws -> Int64? {
        guard let one else { throw CinnError(.internal, "a bulk insert was used after it finished") }
        var binder = Binder(statement: one)
        bind(&binder)
        try step(one, binder)
        return sqlite_nio_sqlite3_changes(connection) == 0 ? nil : sqlite_nio_sqlite3_last_insert_rowid(connection)
    }

    /// Finalises the statements; the connection stays open (it belongs to SQLiteNIO).
    func finish() {
        for statement in [many, one] { if let statement { sqlite_nio_sqlite3_finalize(statement) } }
        many = nil
        one = nil
    }

    /// Binds values to one statement's parameters in order, remembering the first failure.
    struct Binder {
        fileprivate let statement: OpaquePointer
        fileprivate var index: Int32 = 0
        fileprivate var failure: Int32 = CINN_SQLITE_OK

        fileprivate init(statement: OpaquePointer) {
            self.statement = statement
        }

        mutating func bind(_ value: Int) {
            index += 1
            record(sqlite_nio_sqlite3_bind_int64(statement, index, Int64(value)))
        }

        mutating func bind(_ value: Int?) {
            guard let value else { return bindNull() }
            bind(value)
        }

        mutating func bind(_ value: Double?) {
            index += 1
            record(value.map { sqlite_nio_sqlite3_bind_double(statement, index, $0) } ?? sqlite_nio_sqlite3_bind_null(statement, index))
        }

        mutating func bind(_ value: String?) {
            guard var value else { return bindNull() }
            index += 1
            let result = value.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { cinn_sqlite_bind_text(statement, index, $0.baseAddress, Int32(bytes.count)) }
            }
            record(result)
        }

        /// A UUID as its 16 bytes, as the store keeps ids in SQLite.
        mutating func bind(_ id: UUID) {
            index += 1
            record(withUnsafeBytes(of: id.uuid) { cinn_sqlite_bind_blob(statement, index, $0.baseAddress, 16) })
        }

        mutating func bind(_ id: UUID?) {
            guard let id else { return bindNull() }
            bind(id)
        }

        mutating func bind(bytes: [UInt8]) {
            index += 1
            record(bytes.withUnsafeBytes { cinn_sqlite_bind_blob(statement, index, $0.baseAddress, Int32($0.count)) })
        }

        private mutating func bindNull() {
            index += 1
            record(sqlite_nio_sqlite3_bind_null(statement, index))
        }

        private mutating func record(_ result: Int32) {
            if failure == CINN_SQLITE_OK { failure = result }
        }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard cinn_sqlite_prepare(connection, sql, &statement) == CINN_SQLITE_OK, let statement else {
            throw failure("could not be prepared")
        }
        return statement
    }

    private func step(_ statement: OpaquePointer, _ binder: Binder) throws {
        guard binder.failure == CINN_SQLITE_OK, binder.index == Int32(columns * (statement == many ? rowsPerStatement : 1)) else {
            sqlite_nio_sqlite3_reset(statement)
            throw failure("had a value it could not bind")
        }
        let result = sqlite_nio_sqlite3_step(statement)
        sqlite_nio_sqlite3_reset(statement)
        guard result == CINN_SQLITE_DONE else { throw failure("failed") }
    }

    private func failure(_ what: String) -> CinnError {
        let message = sqlite_nio_sqlite3_errmsg(connection).map { String(cString: $0) } ?? "unknown error"
        return CinnError(.internal, "a bulk insert \(what) (SQLite: \(message))")
    }

    /// The `sqlite3*` of a SQLiteNIO connection, which keeps it in `handle.raw` and does not publish it.
    /// Read by reflection: if a SQLiteNIO release renames it, every bulk write fails with this error
    /// (CinnStoreTests import workouts), never writes through a wrong pointer.
    static func handle(of connection: SQLiteConnection) throws -> OpaquePointer {
        guard let raw = Mirror(reflecting: connection).descendant("handle", "raw") as? OpaquePointer else {
            throw CinnError(.internal, "the SQLite connection's handle is not where this SQLiteNIO version was expected to keep it")
        }
        return raw
    }
}
