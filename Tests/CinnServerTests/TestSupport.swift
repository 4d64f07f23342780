import CinnCore
import CinnJournal
import CinnServer
import Foundation
import Hummingbird
import HummingbirdTesting
import SQLKit
import Testing

@testable import CinnStore

/// The fixed "now" of every server test: 2024-03-15T12:00:00Z.
let fixedNow = Date(timeIntervalSince1970: 1_710_504_000)

/// A fresh SQLite store in its own temporary folder, migrated, closed and removed after `body`; `now` is the clock it
/// stamps rows with (the system's unless a test fixes it).
func withStore<T>(now: @escaping @Sendable () -> Date = { Date() }, _ body: (Store) async throws -> T) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-server-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try Store(.sqlite(path: folder.appendingPathComponent("cinn.sqlite").path), now: now)
    do {
        try await store.migrate()
        let result = try await body(store)
        try await store.close()
        return result
    } catch {
        try? await store.close()
        throw error
    }
}

/// The databases of the tests that go through every layer: SQLite always, PostgreSQL when `CINN_TEST_POSTGRES_URL` is set
/// (set but unreachable is a failure, never a skip).
enum Database: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    static var enabled: [Database] {
        ProcessInfo.processInfo.environment["CINN_TEST_POSTGRES_URL", default: ""].isEmpty ? [.sqlite] : [.sqlite, .postgres]
    }

    var testDescription: String { rawValue }
}

/// A fresh store on `database` (a PostgreSQL schema of its own), migrated, closed and removed after `body`.
func withStore<T>(_ database: Database, _ body: (Store) async throws -> T) async throws -> T {
    try await withStores(database, count: 1) { try await body($0[0]) }
}

/// `count` stores on one fresh database, as that many servers sharing it have: the first migrates it (unless not
/// `migrating`). All are closed and the database removed after `body`.
func withStores<T>(_ database: Database, count: Int, migrating: Bool = true, _ body: ([Store]) async throws -> T) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-server-\(UUID().uuidString)")
    var admin: Store?
    var schema = ""
    func open() throws -> Store {
        switch database {
        case .sqlite:
            return try Store(.sqlite(path: folder.appendingPathComponent("cinn.sqlite").path))
        case .postgres:
            let url = try #require(ProcessInfo.processInfo.environment["CINN_TEST_POSTGRES_URL"])
            return try Store(.postgres(url: url), schema: schema)
        }
    }
    switch database {
    case .sqlite:
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    case .postgres:
        let url = try #require(ProcessInfo.processInfo.environment["CINN_TEST_POSTGRES_URL"])
        schema = "test_" + String(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16))
        let store = try Store(.postgres(url: url))
        admin = store
        try await store.withConnection { db in try await db.raw("CREATE SCHEMA \(unsafeRaw: schema)").run() }
    }
    var stores: [Store] = []
    func cleanup() async throws {
        for store in stores { try await store.close() }
        if let admin {
            try await admin.withConnection { db in try await db.raw("DROP SCHEMA \(unsafeRaw: schema) CASCADE").run() }
            try await admin.close()
        }
        try? FileManager.default.removeItem(at: folder)
    }
    do {
        for _ in 0..<count { stores.append(try open()) }
        if migrating { try await stores[0].migrate() }
        let result = try await body(stores)
        try await cleanup()
        return result
    } catch {
        try? await cleanup()
        throw error
    }
}

/// As `withApp(_:)`, on `database`.
func withApp(on database: Database, _ body: @Sendable (any TestClientProtocol, Journal) async throws -> Void) async throws {
    try await withStore(database) { store in
        let journal = try await utcJournal(store)
        try await Application(router: buildRouter(journal: journal)).test(.router) { client in
            try await body(client, journal)
        }
    }
}

/// A journal on `store` with the fixed clock and its time zone set to UTC.
func utcJournal(_ store: Store, user name: String? = nil) async throws -> Journal {
    let journal =
        if let name {
            Journal(store: store, user: try await store.user(named: name), now: { fixedNow })
        } else {
            try await Journal.local(store: store, now: { fixedNow })
        }
    try await store.saveSettings(UserSettings(timeZoneIdentifier: "UTC", onboarded: true), user: journal.user)
    return journal
}

/// A fresh journal (fixed clock, UTC) behind the app's router, tested without sockets.
func withApp(_ body: @Sendable (any TestClientProtocol, Journal) async throws -> Void) async throws {
    try await withApp(returning: Void.self, body)
}

/// As `withApp(_:)`, returning what `body` returns.
func withApp<T: Sendable>(returning: T.Type, _ body: @Sendable (any TestClientProtocol, Journal) async throws -> T)
    async throws -> T
{
    try await withStore { store in
        let journal = try await utcJournal(store)
        return try await Application(router: buildRouter(journal: journal)).test(.router) { client in
            try await body(client, journal)
        }
    }
}

extension Journal {
    /// How many weigh-ins this journal holds.
    func count() async throws -> Int { try await store.weighInCount(user: user) }
}

extension TestClientProtocol {
    /// Sends a request with an optional text body.
    @discardableResult
    func send(_ method: HTTPRequest.Method, _ uri: String, body: String? = nil, contentType: String? = nil) async throws
        -> TestResponse
    {
        var headers: HTTPFields = [:]
        if let contentType { headers[.contentType] = contentType }
        return try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    /// Sends a JSON body.
    @discardableResult
    func send(_ method: HTTPRequest.Method, _ uri: String, json: String) async throws -> TestResponse {
        try await send(method, uri, body: json, contentType: "application/json")
    }

    /// Posts an HTML form.
    @discardableResult
    func post(_ uri: String, form: String) async throws -> TestResponse {
        try await send(.post, uri, body: form, contentType: "application/x-www-form-urlencoded")
    }

    /// Adds a weigh-in through the API and returns its JSON.
    @discardableResult
    func addWeighIn(_ weight: Double, unit: String = "kg", date: String, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> JSON
    {
        let response = try await send(.post, "/api/v1/weigh-ins", json: #"{"weight":\#(weight),"unit":"\#(unit)","date":"\#(date)"}"#)
        #expect(response.status == .created, sourceLocation: sourceLocation)
        return try response.json()
    }

    /// Posts a file to `/api/v1/imports` as the request body.
    @discardableResult
    func importFile(_ text: String, query: String = "") async throws -> TestResponse {
        try await send(.post, "/api/v1/imports" + (query.isEmpty ? "" : "?" + query), body: text, contentType: "text/csv")
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    func json() throws -> JSON { try JSONDecoder().decode(JSON.self, from: Data(text.utf8)) }
}

/// Checks an API error: the status, `error.code` and `error.field` (never the message text).
func expectError(
    _ response: TestResponse, _ status: HTTPResponse.Status, code: String, field: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    #expect(response.status == status, sourceLocation: sourceLocation)
    let error = try response.json()["error"]
    #expect(error?["code"]?.string == code, sourceLocation: sourceLocation)
    #expect(error?["field"]?.string == field, sourceLocation: sourceLocation)
    #expect(error?["message"]?.string?.isEmpty == false, sourceLocation: sourceLocation)
}

/// Any JSON value, decoded so that tests can check exact shapes, explicit nulls included.
enum JSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    subscript(key: String) -> JSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    subscript(index: Int) -> JSON? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    var keys: Set<String> {
        if case .object(let object) = self { return Set(object.keys) }
        return []
    }

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var double: Double? { if case .number(let value) = self { value } else { nil } }
    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    var array: [JSON]? { if case .array(let value) = self { value } else { nil } }
    var isNull: Bool { self == .null }
}

/// True when two numbers agree to within `tolerance`.
func close(_ value: Double?, _ expected: Double, tolerance: Double = 1e-9) -> Bool {
    guard let value else { return false }
    return abs(value - expected) <= tolerance
}

/// A generic weight CSV with one row per `(day, kg)`.
func weightCSV(_ rows: [(String, Double)]) -> String {
    "date,weight_kg\n" + rows.map { "\($0.0),\($0.1)\n" }.joined()
}
