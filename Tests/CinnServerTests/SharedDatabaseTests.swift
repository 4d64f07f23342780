import CinnCore
import CinnJournal
import CinnServer
import CinnStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Several servers on one database, as behind a load balancer: a person's next request may reach any of them, so what
/// outlives a request is in the database (or, for uploads, in a directory they share).
@Suite("Several servers on one database")
struct SharedDatabaseTests {
    /// Two apps, each on a store of its own over one fresh database, sharing an upload directory.
    func withTwoServers(
        _ database: Database, accounts configuration: AccountsConfiguration? = nil,
        _ body: @Sendable (any TestClientProtocol, any TestClientProtocol, [Journal]) async throws -> Void
    ) async throws {
        let uploads = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-uploads-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: uploads) }
        try await withStores(database, count: 2) { stores in
            let journals = [try await utcJournal(stores[0]), try await utcJournal(stores[1])]
            let accounts = stores.map { store in configuration.map { Accounts(store: store, configuration: $0) } }
            try await Application(router: buildRouter(journal: journals[0], accounts: accounts[0], uploadDirectory: uploads)).test(.router)
            { first in
                try await Application(router: buildRouter(journal: journals[1], accounts: accounts[1], uploadDirectory: uploads)).test(
                    .router
                ) { second in
                    try await body(first, second, journals)
                }
            }
        }
    }

    /// Several servers share PostgreSQL (a SQLite file has one).
    @Test(
        "servers starting at once apply each migration once; the others wait and find it applied",
        .enabled(if: Database.enabled.contains(.postgres)))
    func concurrentMigrations() async throws {
        try await withStores(.postgres, count: 4, migrating: false) { stores in
            let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
                for store in stores { group.addTask { try await store.migrate() } }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let all = Array(1...(try #require(try await stores[0].appliedMigrations().last)))
            #expect(applied.sorted() == all && all.count >= 23)
            #expect(try await stores[3].appliedMigrations() == all)
        }
    }

    /// Import progress is polled across servers on PostgreSQL; on SQLite (one server) the same flow runs.
    @Test(
        "an upload checked on one server is imported on another, its progress polled on either, and undone on the first",
        arguments: Database.enabled)
    func importCrossesServers(_ database: Database) async throws {
        try await withTwoServers(database) { first, second, journals in
            let id = UUID().uuidString.lowercased()
            let check = try await first.upload(threeDays, fileName: "weights.csv", fields: ["progress": id])
            #expect(check.text.contains("Import 3 weigh-ins"))
            let token = try #require(check.text.firstMatch(of: /action="\/import\/([0-9a-f-]{36})"/)?.1)
            let poller = database == .postgres ? second : first
            let checked = try await poller.send(.get, "/import/progress/\(id)").json()
            #expect(checked["phase"] == .string("checking") && checked["rowsRead"] == .number(3) && checked["done"] == .bool(true))

            let imported = try await second.post("/import/\(token)", form: "")
            #expect(imported.status == .ok)
            let progress = try await (database == .postgres ? first : second).send(.get, "/import/progress/\(token)").json()
            #expect(progress["phase"] == .string("importing") && progress["rowsRead"] == .number(3) && progress["done"] == .bool(true))
            #expect(try await first.post("/import/\(token)", form: "").status == .notFound, "a form sent again imports once")
            #expect(try await journals[0].count() == 3)

            let list = try await first.send(.get, "/import").text
            let batch = try #require(list.firstMatch(of: /href="\/imports\/(\d+)\/undo">Undo…</)?.1)
            #expect(try await first.post("/imports/\(batch)/undo", form: "").status == .seeOther)
            #expect(try await journals[1].count() == 0)
        }
    }

    @Test("a file's unit asked by one server is answered on another", arguments: Database.enabled)
    func unitQuestionCrossesServers(_ database: Database) async throws {
        try await withTwoServers(database) { first, second, journals in
            let asked = try await first.upload("date,weight\n2024-03-01,80.1\n2024-03-02,80.3\n", fileName: "scale.csv")
            #expect(asked.status == .unprocessableContent)
            let token = try #require(asked.text.firstMatch(of: /action="\/import\/([0-9a-f-]{36})\/unit"/)?.1)
            let checked = try await second.post("/import/\(token)/unit", form: "unit=lb")
            #expect(checked.status == .ok && checked.text.contains("Import 2 weigh-ins"))
            #expect(try await first.post("/import/\(token)", form: "").status == .ok)
            #expect(
                try await journals[0].store.weighIns(user: journals[0].user).map { ($0.weight.value(in: .pounds) * 10).rounded() / 10 }
                    == [80.3, 80.1])
        }
    }

    @Test(
        "failed log-ins are counted across servers, and a right password on one forgets the name's failures on all",
        arguments: Database.enabled)
    func throttleCountsAcrossServers(_ database: Database) async throws {
        try await withStores(database, count: 2) { stores in
            let servers = stores.map { Accounts(store: $0, configuration: AccountTests.fastHashing) }
            _ = try await servers[0].addUser(name: "alice", password: "alice-password-1", role: .member)
            for attempt in 0..<4 {
                await #expect(throws: CinnError(.unauthenticated, "wrong name or password")) {
                    try await servers[attempt % 2].authenticate(name: "alice", password: "guess-guess-1", client: "203.0.113.7")
                }
            }
            // The right password from the same client on the other server: the name's failures are forgotten everywhere.
            _ = try await servers[1].authenticate(name: "alice", password: "alice-password-1", client: "203.0.113.7")
            #expect(try await servers[0].throttledKeyCount == 1, "only the client's own failures remain")
            await #expect(throws: CinnError(.unauthenticated, "wrong name or password")) {
                try await servers[0].authenticate(name: "alice", password: "guess-guess-1", client: "203.0.113.7")
            }
            // The client's fifth failure, counted on the first server, shuts it out of the second.
            await #expect(throws: CinnError(.tooManyRequests, "too many failed log-ins: try again in 15 minutes")) {
                try await servers[1].authenticate(name: "alice", password: "alice-password-1", client: "203.0.113.7")
            }
            _ = try await servers[1].authenticate(name: "alice", password: "alice-password-1", client: "198.51.100.20")
        }
    }

    @Test(
        "a session opened on one server, its CSRF token and an invite work on another; logging out on one ends it on both",
        arguments: Database.enabled)
    func sessionsCrossServers(_ database: Database) async throws {
        let configuration = AccountsConfiguration(signUp: .invite, bcryptCost: 4)
        try await withTwoServers(database, accounts: configuration) { first, second, journals in
            let accounts = Accounts(store: journals[0].store, configuration: configuration)
            let admin = try await accounts.addUser(name: "alice", password: "alice-password-1", role: .admin)
            let code = try await accounts.createInvite(by: admin)
            let form = "application/x-www-form-urlencoded"
            let made = try await Visitor(client: second).send(
                .post, "/signup", body: "name=bob&password=bob-password-1&invite=\(code)",
                contentType: form)
            #expect(made.status == .seeOther, "an invite made on one server signs up on another")

            let login = try await Visitor(client: first).send(
                .post, "/login", body: "name=alice&password=alice-password-1", contentType: form)
            let cookie = try #require(sessionCookie(login))
            var onFirst = Visitor(client: first, headers: [.cookie: cookie])
            var onSecond = Visitor(client: second, headers: [.cookie: cookie])
            onSecond.csrf = csrfToken(try await onSecond.send(.get, "/account").text)
            onFirst.csrf = onSecond.csrf
            #expect(
                try await onFirst.post("/weigh-ins", form: "weight=80.4&date=2024-03-14").status == .seeOther,
                "a form from one server's page is accepted by the other")
            #expect(try await onSecond.send(.get, "/api/v1/weigh-ins").text.contains("80.4"))
            #expect(try await onSecond.post("/logout").status == .seeOther)
            #expect(try await onFirst.send(.get, "/account").status == .seeOther, "logged out on both")
        }
    }
}
