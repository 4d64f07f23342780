import CinnCore
import CinnJournal
import Foundation
import Hummingbird
import Testing

@testable import CinnServer

/// `Site` is the one list of the web app's addresses: the routes are registered from it, and no link a template
/// writes or a page shows leads nowhere.
@Suite struct SiteTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every route of the router, as "METHOD pattern", with hosted mode's account routes.
    static func routes() async throws -> [(method: String, pattern: String)] {
        try await withStore { store in
            let router = buildRouter(journal: try await utcJournal(store), accounts: Accounts(store: store))
            return router.routes.map { ($0.method.rawValue, $0.path.description) }
        }
    }

    /// Every route's pattern, and the addresses of signing in with an identity provider, which are routed when one is
    /// configured.
    static func patterns() async throws -> [String] {
        try await routes().map(\.pattern) + [Site.logInWithProvider, Site.providerCallback, Site.linkProvider].map(\.pattern)
    }

    /// Whether `path` (no query, no fragment) is an address one of `patterns` answers. A segment `*` (a template's
    /// value) matches any; a parameter (`{id}`) matches a value (an id, a day, a number), not a word: "/food/stats"
    /// is no day of `/food/{date}`.
    static func matches(_ path: String, _ patterns: [String]) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return patterns.contains { pattern in
            let parts = pattern.split(separator: "/", omittingEmptySubsequences: false)
            return parts.count == segments.count
                && zip(parts, segments).allSatisfy { part, segment in
                    segment == "*" || (part.hasPrefix("{") ? isValue(segment) : part == segment)
                }
        }
    }

    static func isValue(_ segment: Substring) -> Bool {
        // The snapshots write ids as "id-1" (`PageSnapshotTests.masked`).
        UUID(uuidString: String(segment)) != nil || LocalDate(iso: String(segment)) != nil || Int(segment) != nil
            || segment.wholeMatch(of: /id-[0-9]+/) != nil
    }

    @Test func everyAddressIsARouteAndEveryPageRouteIsAnAddress() async throws {
        let addresses = Self.sitePatterns()
        let routed = Set(try await Self.patterns())
        #expect(addresses.subtracting(routed).isEmpty, "in Site but answered by no route: \(addresses.subtracting(routed).sorted())")
        let web = routed.filter {
            !$0.hasPrefix("/api/") && !$0.hasPrefix("/nightscout/") && !$0.hasPrefix("/static/")
                && !["/health", "/ready", "/metrics", "/sw.js"].contains($0)
        }
        #expect(web.subtracting(addresses).isEmpty, "routes registered outside Site: \(web.subtracting(addresses).sorted())")
    }

    /// `Site`'s patterns, read from its source: a `static let` per address.
    static func sitePatterns() -> Set<String> {
        let source = (try? String(contentsOf: root.appendingPathComponent("Sources/CinnServer/App/Site.swift"), encoding: .utf8)) ?? ""
        return Set(source.matches(of: /static let \w+ = SitePath<[^=]*>\("([^"]+)"\)/).map { String($0.1) })
    }

    @Test func addressesFillTheirParameters() {
        let id = UUID(uuidString: "0193A2B4-0000-7000-8000-000000000001")!
        #expect(Site.editWeighIn.path(id) == "/weigh-ins/0193a2b4-0000-7000-8000-000000000001/edit")
        #expect(Site.foodDay.path(LocalDate(year: 2024, month: 3, day: 1)!) == "/food/2024-03-01")
        #expect(Site.exercise.path("Bench Press (Barbell)") == "/lifts/Bench%20Press%20%28Barbell%29")
        #expect(Site.deleteWorkoutSet.path(id, 3) == "/workouts/0193a2b4-0000-7000-8000-000000000001/sets/3/delete")
        #expect(Site.undoImport.path(12) == "/imports/12/undo")
        #expect(Site.dashboard.path == "/")
    }

    @Test func noTemplateLinksToAnAddressNoRouteAnswers() async throws {
        let patterns = try await Self.patterns()
        var links = 0
        var dead: [String] = []
        for (name, text) in Templates.all {
            for match in text.matches(of: /(?:href|action|formaction)="(\/[^"]*)"/) {
                // Sections write no text of their own; a value stands for a segment ("/food/{{date}}").
                var path = String(match.1).replacing(/\{\{[#^\/][^}]*\}\}/, with: "").replacing(/\{\{[^}]*\}\}/, with: "*")
                if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<end]) }
                if path.hasPrefix("/static/") { continue }
                links += 1
                if !Self.matches(path, patterns) { dead.append("\(name): \(match.1)") }
            }
        }
        #expect(links > 100)
        #expect(dead.isEmpty, "links no route answers: \(dead)")
    }

    @Test func noPageLinksToAnAddressNoRouteAnswers() async throws {
        let patterns = try await Self.patterns()
        var dead: [String] = []
        let folder = Self.root.appendingPathComponent("Tests/CinnServerTests/__Snapshots__/PageSnapshotTests")
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix("theAPIsReads") }
        #expect(pages.count > 100)
        for page in pages {
            let text = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
            for match in text.matches(of: /(?:href|action|formaction)="(\/[^"]*)"/) {
                var path = String(match.1).replacing("&amp;", with: "&")
                if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<end]) }
                if path.hasPrefix("/static/") || path.hasPrefix("/api/") { continue }
                if !Self.matches(path, patterns) { dead.append("\(page): \(match.1)") }
            }
        }
        #expect(dead.isEmpty, "links no route answers: \(dead)")
    }
}
