@preconcurrency import AsyncKit
import CinnCore
import Foundation
import Logging
import Metrics
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit
import Synchronization

/// Which database a `Store` talks to.
public enum DatabaseLocation: Sendable, Hashable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)

    /// `postgres://…` or `postgresql://…` is PostgreSQL; anything else is a SQLite file path.
    public init(_ text: String) {
        let lower = text.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else {
            self = .sqlite(path: text)
        }
    }

    public var isPostgres: Bool {
        if case .postgres = self { return true }
        return false
    }

    /// Names the database without the password.
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "postgres" }
            if components.password != nil { components.password = "***" }
            return components.string ?? "postgres"
        }
    }
}

/// The journal's storage: one implementation over SQLite and PostgreSQL through SQLKit.
/// All SQL of Cinn lives in this module.
public final class Store: Sendable {
    enum Backend: Sendable {
        case sqlite(DirectConnectionPool<SQLiteSource>)
        case postgres(DirectConnectionPool<PostgresConnectionSource>)
    }

    let backend: Backend
    let logger: Logger
    /// The store's clock: what it stamps records with and checks expiry against.
    public let now: @Sendable () -> Date
    public let location: DatabaseLocation
    private let closed = Mutex(false)
    /// One SQLite write transaction at a time per store. SQLite allows one writer anyway, and a writer waiting
    /// in SQLite's busy handler holds a thread of the driver's small pool: two waiters could starve the
    /// writer they wait for until the busy timeout (seen with three sync clients pushing at once).
    private let writeGate = WriteGate()
    /// Connections taken from the pool and not yet given back, and how long taking one waited (`/metrics`).
    private let connectionsInUse: Meter
    private let connectionWait: Metrics.Timer
    /// Import progress on SQLite (`setImportProgress`).
    let importProgressInProcess = Mutex<[String: ProcessImportProgress]>([:])
    /// What pages compute from a journal, kept while it is unchanged (`computed`).
    let computedParts = ComputedParts(capacity: 256)
    /// Each pooled SQLite connection's prepared read-only queries (`SQLiteStatements`), by connection.
    private let sqliteStatements = Mutex<[ObjectIdentifier: SQLiteStatements]>([:])

    /// Opens (and for SQLite creates) the database. Call `migrate()` before use and `close()` after.
    ///
    /// - Parameter schema: the PostgreSQL schema to use instead of `public` (tests use one each).
    public init(
        _ location: DatabaseLocation, schema: String? = nil, logger: Logger = Logger(label: "cinn.store"),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        self.location = location
        // The database drivers log each statement with its bound values at debug and trace: those values hold health
        // data and the digests of API tokens (a working Nightscout secret). The store and its drivers never log below
        // info, whatever `cinn serve --log-level` says (docs/SECURITY.md).
        var logger = logger
        logger.logLevel = max(logger.logLevel, .info)
        self.logger = logger
        self.now = now
        let kind = location.isPostgres ? "postgres" : "sqlite"
        connectionsInUse = Meter(label: "cinn_db_connections_in_use", dimensions: [("database", kind)])
        connectionWait = Metrics.Timer(label: "cinn_db_connection_wait_seconds", dimensions: [("database", kind)])
        let perEventLoop = location.isPostgres ? 4 : 2
        Gauge(label: "cinn_db_connections_max", dimensions: [("database", kind)])
            .record(perEventLoop * NIOSingletons.groupLoopCountSuggestion)
        switch location {
        case .sqlite(let path):
            backend = .sqlite(
                DirectConnectionPool(
                    source: SQLiteSource(path: path), maximum: perEventLoop * NIOSingletons.groupLoopCountSuggestion,
                    group: MultiThreadedEventLoopGroup.singleton, logger: logger))
        case .postgres(let url):
            var configuration: SQLPostgresConfiguration
            do {
                configuration = try SQLPostgresConfiguration(url: url)
                if let schema { configuration.searchPath = [schema] }
            } catch {
                throw CinnError.invalid("database", "\"\(location)\" is not a PostgreSQL URL; use postgres://USER@HOST:PORT/DB")
            }
            backend = .postgres(
                DirectConnectionPool(
                    source: PostgresConnectionSource(sqlConfiguration: configuration),
                    maximum: perEventLoop * NIOSingletons.groupLoopCountSuggestion, group: MultiThreadedEventLoopGroup.singleton,
                    logger: logger))
        }
    }

    public func close() async throws {
        guard
            !closed.withLock({ closed in
                defer { closed = true }
                return closed
            })
        else { return }
        switch backend {
        case .sqlite(let pool):
            closeSQLiteStatements()
            try await pool.close()
        case .postgres(let pool): try await pool.close()
        }
    }

    /// Finalises every connection's prepared queries, which SQLite requires before a connection closes.
    private func closeSQLiteStatements() {
        for statements in sqliteStatements.withLock({ Array($0.values) }) { statements.close() }
    }

    /// The prepared queries of `connection`, made on its first use.
    private func statements(of connection: SQLiteConnection) throws -> SQLiteStatements {
        try sqliteStatements.withLock { all in
            if let known = all[ObjectIdentifier(connection)] { return known }
            let fresh = try SQLiteStatements(connection)
            all[ObjectIdentifier(connection)] = fresh
            return fresh
        }
    }

    /// A store dropped without `close()` (say, after an error) still shuts its connections down.
    deinit {
        guard !closed.withLock({ $0 }) else { return }
        switch backend {
        case .sqlite(let pool):
            closeSQLiteStatements()
            Task { try? await pool.close() }
        case .postgres(let pool): Task { try? await pool.close() }
        }
    }

    var isSQLite: Bool {
        if case .sqlite = backend { return true }
        return false
    }

    /// One pooled connection: SQLKit for every query, and the driver's own connection for the bulk
    /// paths (docs/DESIGN.md): `SQLiteData` bound directly on SQLite, `COPY` on PostgreSQL.
    struct Connection: Sendable {
        let sql: any SQLDatabase
        let sqlite: SQLiteConnection?
        let postgres: PostgresConnection?
    }

    /// Runs `body` on one pooled connection.
    func withConnection<T: Sendable>(_ body: (any SQLDatabase) async throws -> T) async throws -> T {
        try await withRawConnection { try await body($0.sql) }
    }

    func withRawConnection<T: Sendable>(_ body: (Connection) async throws -> T) async throws -> T {
        do {
            switch backend {
            case .sqlite(let pool):
                return try await lending(pool, body) { connection in
                    Connection(sql: SQLiteDirectDatabase(try statements(of: connection)), sqlite: connection, postgres: nil)
                }
            case .postgres(let pool):
                return try await lending(pool, body) { connection in
                    Connection(sql: PostgresDirectDatabase(connection), sqlite: nil, postgres: connection)
                }
            }
        } catch {
            throw Self.isDatabaseError(error) ? translate(error) : error
        }
    }

    /// `body` on a connection of `pool` (made a `Connection` by `wrap`), given back after; counted for `/metrics`.
    private func lending<Source, T: Sendable>(
        _ pool: DirectConnectionPool<Source>, _ body: (Connection) async throws -> T,
        wrap: (Source.Connection) throws -> Connection
    ) async throws -> T {
        let start = ContinuousClock.now
        let connection = try await pool.take()
        connectionWait.record(duration: ContinuousClock.now - start)
        connectionsInUse.increment()
        defer {
            pool.release(connection)
            connectionsInUse.decrement()
        }
        return try await body(try wrap(connection))
    }

    /// A query's rows on SQLite, collected on its thread (SQLiteNIO's array-returning `query` hops to the event loop per row).
    func rows(_ sqlite: SQLiteConnection, _ sql: String, _ binds: [SQLiteData]) async throws -> [SQLiteRow] {
        let rows = Mutex<[SQLiteRow]>([])
        try await sqlite.query(sql, binds) { row in rows.withLock { $0.append(row) } }
        return rows.withLock { $0 }
    }

    /// Runs `body` in one transaction on one connection: all of it is written, or none.
    func transaction<T: Sendable>(_ body: (any SQLDatabase) async throws -> T) async throws -> T {
        try await rawTransaction { try await body($0.sql) }
    }

    /// `bulk`: a bulk write on SQLite. The foreign keys are not checked in this transaction (for writes whose every
    /// reference the writer made or looked up itself in the same transaction; a checked one makes SQLite keep a
    /// statement journal in a temporary file for every INSERT), and the connection's page cache holds
    /// `bulkCacheKiB` rather than SQLite's default 2 MB (an import of millions of rows touches more index pages
    /// than that, and every page spilled is written out and read back).
    /// `attaching`: a SQLite database file attached to the connection as `staging` for the transaction (an import's
    /// staged rows, `ImportStaging`).
    func rawTransaction<T: Sendable>(
        bulk: Bool = false, attaching staging: URL? = nil,
        _ body: (Connection) async throws -> T
    ) async throws -> T {
        guard isSQLite else { return try await transactionOnConnection(bulk: false, attaching: nil, body) }
        await writeGate.enter()
        do {
            let result = try await transactionOnConnection(bulk: bulk, attaching: staging, body)
            await writeGate.leave()
            return result
        } catch {
            await writeGate.leave()
            throw error
        }
    }

    /// The page cache of a bulk write on SQLite (see `rawTransaction`): 12 MB made an import of 4,000,000 Apple
    /// Health records about a tenth faster than the default 2 MB and kept it under 150 MB (BENCHMARKS.md).
    static let bulkCacheKiB = 12_000

    private func transactionOnConnection<T: Sendable>(
        bulk: Bool, attaching staging: URL?,
        _ body: (Connection) async throws -> T
    ) async throws -> T {
        try await withRawConnection { connection in
            let bulk = bulk && isSQLite
            func settings(bulk: Bool) async throws {
                try await connection.sql.raw(SQLQueryString("PRAGMA foreign_keys = " + (bulk ? "OFF" : "ON"))).run()
                // SQLite's default cache size is -2000: 2,000 KiB.
                try await connection.sql.raw(SQLQueryString("PRAGMA cache_size = -" + String(bulk ? Self.bulkCacheKiB : 2000))).run()
            }
            // Outside the transaction, where SQLite allows ATTACH and DETACH; the connection goes back to the pool without it
            // (detached even when the settings could not be put back).
            func restore() async throws {
                var failure: (any Error)?
                if bulk {
                    do { try await settings(bulk: false) } catch { failure = error }
                }
                if staging != nil { try await connection.sql.raw("DETACH DATABASE staging").run() }
                if let failure { throw failure }
            }
            if let staging { try await connection.sql.raw("ATTACH DATABASE \(bind: staging.path) AS staging").run() }
            do {
                if bulk { try await settings(bulk: true) }
                let result = try await inTransaction(connection, body)
                try await restore()
                return result
            } catch {
                await Task { try? await restore() }.value
                throw error
            }
        }
    }

    private func inTransaction<T: Sendable>(_ connection: Connection, _ body: (Connection) async throws -> T) async throws -> T {
        try await connection.sql.raw(isSQLite ? "BEGIN IMMEDIATE" : "BEGIN").run()
        var claim: FormKeyClaim?
        do {
            claim = try await claimFormKey(connection.sql)
            let result = try await body(connection)
            try await connection.sql.raw("COMMIT").run()
            return result
        } catch {
            // Also when the request was cancelled (its client went away, the server is stopping): the driver
            // gives up on a cancelled task, and a connection must never go back to the pool inside a transaction.
            await Task { try? await connection.sql.raw("ROLLBACK").run() }.value
            // The key went with the rolled-back change: the post's next write transaction claims it.
            claim?.release()
            throw error
        }
    }

    /// Errors of the database drivers and the connection pool; everything else passes through unchanged.
    static func isDatabaseError(_ error: any Error) -> Bool {
        error is SQLiteError || error is PSQLError || error is ConnectionPoolError || error is ConnectionPoolTimeoutError
            || error is NIOConnectionError || error is IOError || error is ChannelError
    }

    /// A record refused because one with its identity exists: an answer, not a failure (a form or an upload sent again).
    static let sameIdentity = CinnError(.conflict, "a record with the same identity already exists")

    /// Maps database failures to `CinnError` without leaking values into messages; logged at error, but a record
    /// refused for its identity at info.
    func translate(_ error: any Error) -> CinnError {
        let text = String(describing: error)
        let translated = translate(error, text: text), metadata: Logger.Metadata = ["error": "\(text.prefix(300))"]
        if translated == Self.sameIdentity {
            logger.info("database refused a record with the same identity", metadata: metadata)
        } else {
            logger.error("database error", metadata: metadata)
        }
        return translated
    }

    private func translate(_ error: any Error, text: String) -> CinnError {
        if let error = error as? PSQLError {
            if error.code == .connectionError || error.code == .unsupportedAuthMechanism || error.code == .authMechanismRequiresPassword {
                return CinnError(.internal, "cannot connect to the database at \(location)")
            }
            if error.serverInfo?[.sqlState] == "23505" { return Self.sameIdentity }
            return CinnError(.internal, "the database failed")
        }
        if error is NIOConnectionError || error is ConnectionPoolTimeoutError || error is ChannelError {
            return CinnError(.internal, "cannot connect to the database at \(location)")
        }
        if text.contains("unable to open database") {
            return CinnError(.invalidInput, "cannot open the database file \(location)", field: "database")
        }
        if text.contains("file is not a database") {
            return CinnError(.invalidInput, "\(location) is not a SQLite database", field: "database")
        }
        if text.contains("UNIQUE constraint") { return Self.sameIdentity }
        if text.contains("database is locked") {
            return CinnError(.conflict, "the database is busy; try again")
        }
        return CinnError(.internal, "the database failed")
    }

    /// A UUID as the database stores it: 16 bytes in SQLite, `uuid` in PostgreSQL.
    func bind(_ id: UUID) -> any Encodable & Sendable {
        guard isSQLite else { return id }
        return withUnsafeBytes(of: id.uuid) { Data($0) }
    }

    /// A UUID for SQLite's bulk paths, which bind `SQLiteData` directly: its 16 bytes.
    static func sqliteData(_ id: UUID) -> SQLiteData {
        .blob(withUnsafeBytes(of: id.uuid) { ByteBuffer(bytes: $0) })
    }

    /// An optional UUID; NULL typed for the column.
    func bind(_ id: UUID?) -> any Encodable & Sendable {
        if let id { return bind(id) }
        return isSQLite ? Data?.none : UUID?.none
    }

    func decodeUUID(_ row: any SQLRow, _ column: String) throws -> UUID {
        guard isSQLite else { return try row.decode(column: column, as: UUID.self) }
        let data = try row.decode(column: column, as: Data.self)
        guard data.count == 16 else { throw CinnError(.internal, "a stored id is damaged") }
        return data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }

    /// Rows per multi-row INSERT of `insertRows`: 400 rows of up to 22 columns stay under both databases' bind limits.
    static let insertChunkRows = 400

    /// Inserts `rows` (values in the order of `columns`) with one multi-row INSERT per 400 rows.
    func insertRows(
        _ db: any SQLDatabase, into table: String, columns: [String],
        _ rows: [[any Encodable & Sendable]]
    ) async throws {
        for start in stride(from: 0, to: rows.count, by: Self.insertChunkRows) {
            let insert = db.insert(into: SQLIdentifier(table)).columns(columns)
            for row in rows[start..<min(start + Self.insertChunkRows, rows.count)] { insert.values(row) }
            try await insert.run()
        }
    }

    func milliseconds(_ date: Date) -> Int64 { date.millisecondsSince1970 }

    func date(milliseconds: Int64) -> Date { Date(millisecondsSince1970: milliseconds) }
}

/// SQLite connections with the settings Cinn needs: WAL so the CLI and a running server can share
/// one file, a busy timeout, foreign keys; and the file memory-mapped (up to `mmapBytes`), so that reading a page
/// of it is a memory read rather than a copy from the kernel into the connection's own small cache (a page
/// reading a year of readings or a food database spent a tenth of its time copying pages).
struct SQLiteSource: ConnectionPoolSource, Sendable {
    static let mmapBytes = 256 << 20

    let base: SQLiteConnectionSource

    init(path: String) {
        base = SQLiteConnectionSource(configuration: SQLiteConfiguration(storage: .file(path: path)))
    }

    func makeConnection(logger: Logger, on eventLoop: any EventLoop) -> EventLoopFuture<SQLiteConnection> {
        base.makeConnection(logger: logger, on: eventLoop).flatMap { connection in
            connection.query("PRAGMA busy_timeout = 10000").flatMap { _ in
                connection.query("PRAGMA journal_mode = WAL")
            }.flatMap { _ in
                connection.query("PRAGMA synchronous = NORMAL")
            }.flatMap { _ in
                connection.query("PRAGMA mmap_size = \(Self.mmapBytes)")
            }.map { _ in connection }
                // A file that is not a database fails here: the connection is closed before the error goes on.
                .flatMapError { error in connection.close().flatMapThrowing { throw error } }
        }
    }
}

extension Array {
    /// The array in consecutive slices of at most `size` elements (bind lists and multi-row statements).
    func chunks(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}

/// A first-come, first-served lock for async code: waiting suspends the task, never a thread.
actor WriteGate {
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func enter() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func leave() {
        if waiting.isEmpty { held = false } else { waiting.removeFirst().resume() }
    }
}
