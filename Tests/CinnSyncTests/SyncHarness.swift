import CinnCore
import CinnJournal
import CinnServer
import CinnSync
import Foundation
import Hummingbird
import Logging
import SQLKit
import ServiceLifecycle
import Synchronization
import Testing

@testable import CinnStore

/// A real Cinn server in hosted mode on a loopback port, over a SQLite file (or a PostgreSQL schema when
/// `CINN_TEST_POSTGRES_URL` is set and asked for), with one account and its API token. It can be restarted.
final class LiveServer: Sendable {
    let store: Store
    let journal: Journal
    let accounts: Accounts
    let user: UserID
    let token: String
    private let running = Mutex<(group: ServiceGroup, task: Task<Void, any Error>, url: URL)?>(nil)
    private let cleanup: @Sendable () async throws -> Void

    var url: URL { running.withLock { $0!.url } }

    private init(store: Store, cleanup: @escaping @Sendable () async throws -> Void) async throws {
        self.store = store
        self.cleanup = cleanup
        journal = Journal(store: store, user: try await store.localUser())
        accounts = Accounts(store: store, configuration: AccountsConfiguration(signUp: .closed, bcryptCost: 4))
        let account = try await accounts.addUser(name: "alice", password: "correct horse battery", role: .member)
        user = account.user
        token = try await accounts.createToken(name: "tests", user: account.user).secret
    }

    static func start(postgres: Bool = false) async throws -> LiveServer {
        let server: LiveServer
        if postgres, let url = ProcessInfo.processInfo.environment["CINN_TEST_POSTGRES_URL"], !url.isEmpty {
            let schema = "sync_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
            let admin = try Store(.postgres(url: url))
            try await admin.withConnection { db in try await db.raw("CREATE SCHEMA \(unsafeRaw: String(schema))").run() }
            let store = try Store(.postgres(url: url), schema: String(schema))
            try await store.migrate()
            server = try await LiveServer(store: store) {
                try await store.close()
                try await admin.withConnection { db in try await db.raw("DROP SCHEMA \(unsafeRaw: String(schema)) CASCADE").run() }
                try await admin.close()
            }
        } else {
            let directory = temporaryDirectory()
            let store = try Store(.sqlite(path: directory.appendingPathComponent("server.sqlite").path))
            try await store.migrate()
            server = try await LiveServer(store: store) {
                try await store.close()
                try? FileManager.default.removeItem(at: directory)
            }
        }
        try await server.listen()
        return server
    }

    private func listen() async throws {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "cinn.test-server")
        logger.logLevel = .critical
        let app = buildApplication(
            journal: journal, accounts: accounts,
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0) { _, port in continuation.yield(port) },
            logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CinnError(.internal, "the test server did not start") }
        running.withLock { $0 = (group, task, URL(string: "http://127.0.0.1:\(port)")!) }
    }

    /// Stops the server as `cinn serve` stops on SIGTERM (requests under way finish, connections close) and
    /// starts it again on a new port.
    func restart() async throws {
        await shutDown()
        try await listen()
    }

    func stop() async throws {
        await shutDown()
        try await cleanup()
    }

    private func shutDown() async {
        guard let (group, task) = running.withLock({ $0.map { ($0.group, $0.task) } }) else { return }
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}

/// A client journal: a SQLite file of its own, syncing with the server through `transport`.
struct ClientJournal {
    let journal: Journal
    let directory: URL
    var client: SyncClient

    static func make(server: LiveServer, transport: (any SyncTransport)? = nil) async throws -> ClientJournal {
        let directory = temporaryDirectory()
        let store = try Store(
            .sqlite(path: directory.appendingPathComponent("client.sqlite").path), logger: Logger(label: "cinn.client-store"))
        try await store.migrate()
        let journal = Journal(store: store, user: try await store.localUser())
        try await store.enableSyncClient(server: "test-server")
        var client = SyncClient(
            store: store, user: journal.user,
            transport: transport ?? ServerTransport(server: server))
        client.initialDelay = .milliseconds(5)
        client.maximumDelay = .milliseconds(100)
        return ClientJournal(journal: journal, directory: directory, client: client)
    }

    var store: Store { journal.store }

    func close() async throws {
        try await store.close()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// HTTP to the server wherever it listens now (it moves when restarted).
struct ServerTransport: SyncTransport {
    let server: LiveServer

    var http: HTTPSyncTransport { HTTPSyncTransport(server: server.url, token: server.token, timeoutSeconds: 30) }

    func push(_ changes: [SyncChange]) async throws -> [SyncResult] { try await http.push(changes) }

    func changes(after cursor: String, limit: Int) async throws -> SyncPage { try await http.changes(after: cursor, limit: limit) }
}

/// Every live record of a journal's user, by type and id, as the protocol shows them.
func liveRecords(_ store: Store, _ user: UserID) async throws -> [String: SyncFields] {
    var cursor = SyncCursor.start, records: [String: SyncFields] = [:]
    while true {
        let page = try await store.pull(user: user, after: cursor, limit: 5000)
        for record in page.changes {
            let key = "\(record.type)/\(record.id.uuidString.lowercased())"
            if record.deleted { records[key] = nil } else { records[key] = record.fields }
        }
        cursor = SyncCursor(page.next)!
        if !page.more { return records }
    }
}

func temporaryDirectory() -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-sync-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}
