import CinnCore
import CinnJournal
import CinnServer
import CinnStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SnapshotTesting
import Testing

/// Every page of the web app, rendered in an empty journal, a demo journal and a hosted one, and the JSON of the API's
/// reads, compared with the files under `__Snapshots__/PageSnapshotTests/`: the safety net for changes to the HTTP edge
/// that must not change what a person sees. What differs from run to run is masked: ids (numbered by first
/// appearance), CSRF tokens and other secrets, and the versions of static files. The clock is the tests' fixed one.
///
/// A page changed on purpose: run `SNAPSHOT_TESTING_RECORD=failed swift test --filter PageSnapshotTests`, read the
/// diff of the files, and commit them with the change.
@Suite(.serialized) struct PageSnapshotTests {
    /// The single-user app on a fixed-clock store.
    static func withFixedApp(_ body: @Sendable (any TestClientProtocol, Journal) async throws -> Void) async throws {
        try await withStore(now: { fixedNow }) { store in
            let journal = try await utcJournal(store)
            try await Application(router: buildRouter(journal: journal)).test(.router) { client in try await body(client, journal) }
        }
    }

    /// The page templates of `e2e/pages.txt`, in its order.
    static let templates: [String] = {
        let text = (try? String(contentsOf: PageListTests.pageList, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix("- ") }
    }()

    /// Whether `path` is an address of `template` ("/food/{date}" takes "/food/2024-03-15").
    static func matches(_ path: Substring, _ template: String) -> Bool {
        let parts = template.split(separator: "/", omittingEmptySubsequences: false)
        let given = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == given.count
            && zip(parts, given).allSatisfy { part, value in
                part.hasPrefix("{") ? !value.isEmpty : part == value
            }
    }

    /// Follows the site's links from `/` and every page without a parameter, breadth first in the order they appear,
    /// and gives for each template the first address of it that answered, with its status and text.
    static func crawl(_ get: (String) async throws -> (status: Int, text: String)) async throws
        -> [String: (path: String, status: Int, text: String)]
    {
        var found: [String: (path: String, status: Int, text: String)] = [:]
        var queue = ["/"] + templates.filter { !$0.contains("{") }
        var seen = Set(queue)
        var index = 0
        while index < queue.count, found.count < templates.count {
            let path = queue[index]
            index += 1
            // The template with the fewest parameters wins: "/food/search" is not a "/food/{date}".
            let template = templates.filter { matches(path[...], $0) }.min { $0.count(of: "{") < $1.count(of: "{") }
            guard let template, found[template] == nil else { continue }
            let (status, text) = try await get(path)
            found[template] = (path, status, text)
            for match in text.matches(of: #/href="(/[^"#?]*)/#) {
                let link = String(match.1)
                guard !link.hasPrefix("/static/"), !link.hasPrefix("/api/"), seen.insert(link).inserted else { continue }
                queue.append(link)
            }
        }
        return found
    }

    /// `text` with what differs between runs masked.
    static func masked(_ text: String) -> String {
        var text = text
        var ids: [String: Int] = [:]
        text = text.replacing(#/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/#) { match in
            let id = match.output.lowercased()
            if ids[id] == nil { ids[id] = ids.count + 1 }
            return "id-\(ids[id]!)"
        }
        text = text.replacing(#/\?v=[0-9a-f]{16}/#) { _ in "?v=VERSION" }
        text = text.replacing(#/cinn_[A-Za-z0-9_-]{20,}/#) { _ in "cinn_SECRET" }
        text = text.replacing(#/[A-Za-z0-9_-]{43}/#) { _ in "TOKEN" }
        return text
    }

    /// The snapshot's name of a template: "/food/{date}" → "food-date".
    static func name(_ prefix: String, _ template: String) -> String {
        let words = template.split(whereSeparator: { "/{}".contains($0) }).joined(separator: "-")
        return prefix + "." + (words.isEmpty ? "home" : words)
    }

    func snapshotEveryPage(
        _ prefix: String, fileID: StaticString = #fileID, file: StaticString = #filePath, testName: String = #function,
        get: (String) async throws -> (status: Int, text: String)
    ) async throws {
        let pages = try await Self.crawl(get)
        let missing = Self.templates.filter { pages[$0] == nil }
        for template in Self.templates {
            let page = pages[template]
            let body = page.map { Self.masked("GET \($0.path) → \($0.status)\n\n" + $0.text) } ?? "not reached from any link\n"
            assertSnapshot(of: body, as: .lines, named: Self.name(prefix, template), fileID: fileID, file: file, testName: testName)
        }
        #expect(missing.count < Self.templates.count / 2, "\(prefix): \(missing)")
    }

    @Test func theEmptyJournalsPages() async throws {
        try await Self.withFixedApp { client, _ in
            try await snapshotEveryPage("empty") { path in
                let response = try await client.send(.get, path)
                return (Int(response.status.code), response.text)
            }
        }
    }

    @Test func theDemoJournalsPages() async throws {
        try await Self.withFixedApp { client, journal in
            #expect(try await journal.fillWithDemoData())
            try await snapshotEveryPage("demo") { path in
                let response = try await client.send(.get, path)
                return (Int(response.status.code), response.text)
            }
        }
    }

    @Test func theHostedJournalsPages() async throws {
        try await withStore(now: { fixedNow }) { store in
            let journal = try await utcJournal(store)
            let accounts = Accounts(store: store, configuration: AccountTests.fastHashing)
            try await Application(router: buildRouter(journal: journal, accounts: accounts)).test(.router) { client in
                try await hostedPages(client, accounts)
            }
        }
    }

    /// An administrator's demo journal, seen through a logged-in browser.
    func hostedPages(_ client: any TestClientProtocol, _ accounts: Accounts) async throws {
        let account = try await accounts.addUser(name: "ana", password: "ana-password-1", role: .admin)
        try await accounts.store.saveSettings(UserSettings(timeZoneIdentifier: "UTC", onboarded: true), user: account.user)
        #expect(try await Journal(store: accounts.store, user: account.user, now: { fixedNow }).fillWithDemoData())
        let ana = try await AccountTests().browserVisitor(client, name: "ana", password: "ana-password-1")
        try await snapshotEveryPage("hosted", testName: "theHostedJournalsPages()") { path in
            let response = try await ana.send(.get, path)
            return (Int(response.status.code), response.text)
        }
    }

    /// The JSON of every API read without a parameter, in the demo journal.
    @Test func theAPIsReads() async throws {
        try await withStore(now: { fixedNow }) { store in
            let journal = try await utcJournal(store)
            #expect(try await journal.fillWithDemoData())
            let router = buildRouter(journal: journal)
            let reads = router.routes.filter { $0.method == .get && $0.path.description.hasPrefix("/api/v1/") }
                .map(\.path.description).filter { !$0.contains("{") }.sorted()
            #expect(reads.count >= 20)
            try await Application(router: router).test(.router) { client in
                for path in reads {
                    let response = try await client.send(.get, path)
                    let body = Self.masked("GET \(path) → \(response.status.code)\n\n" + response.text)
                    assertSnapshot(of: body, as: .lines, named: Self.name("api", path))
                }
            }
        }
    }
}

extension String {
    func count(of character: Character) -> Int { reduce(0) { $0 + ($1 == character ? 1 : 0) } }
}
