import CinnJournal
import CinnServer
import CinnStore
import Foundation
import Hummingbird
import Testing

/// The browser layout test (e2e/test_layout.py) visits every page of the web app at phone widths. It finds pages by
/// following links, and fails when a page of `e2e/pages.txt` was never reached; this test keeps that list equal to the
/// router's pages, so a new page cannot escape it.
@Suite struct PageListTests {
    static let pageList = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("e2e/pages.txt")

    /// A route that answers GET with a page a person looks at: not the API (Cinn's or the Nightscout one), a file to
    /// download or an image, nor what operations read (`/health`, `/ready`, `/metrics`).
    static func isPage(_ template: String) -> Bool {
        !template.hasPrefix("/api/") && !template.hasPrefix("/nightscout/") && !template.hasPrefix("/static/")
            && !["/health", "/ready", "/metrics"].contains(template)
            && ![".svg", ".csv", ".json", ".yaml"].contains { template.hasSuffix($0) }
    }

    @Test func theLayoutTestsListOfPagesIsTheRoutersPages() async throws {
        try await withStore { store in
            let router = buildRouter(journal: try await utcJournal(store), accounts: Accounts(store: store))
            let routed = Set(router.routes.filter { $0.method == .get }.map(\.path.description).filter(Self.isPage))
            let listed = Set(
                try String(contentsOf: Self.pageList, encoding: .utf8).split(separator: "\n")
                    .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
                    .map { $0.hasPrefix("- ") ? String($0.dropFirst(2)) : $0 })
            #expect(routed.count >= 30)
            #expect(routed.subtracting(listed).isEmpty, "pages missing from e2e/pages.txt: \(routed.subtracting(listed).sorted())")
            #expect(listed.subtracting(routed).isEmpty, "e2e/pages.txt lists what is not a page: \(listed.subtracting(routed).sorted())")
        }
    }
}
