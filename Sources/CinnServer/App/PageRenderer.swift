import CinnCharts
import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation
import Mustache

/// Renders pages: the page's own template, wrapped in the layout.
struct PageRenderer: Sendable {
    static let shared = PageRenderer()

    let library: MustacheLibrary

    init() {
        var library = MustacheLibrary()
        for (name, text) in Templates.all {
            // The templates are part of the program; a syntax error in one is a programming error.
            try! library.register(text, named: name)
        }
        self.library = library
    }

    /// The page's tab; `signedOut` pages (log-in, sign-up) show no tabs.
    enum Tab { case weight, food, energy, lifts, glucose, importing, more, none, signedOut }

    struct Layout {
        let title: String
        let body: String
        let tabWeight: Bool, tabFood: Bool, tabLifts: Bool, tabGlucose: Bool, tabMore: Bool
        let showTabs: Bool
        /// What the form post that led here did, at the top of the page (`Done`).
        let notice: String?
    }

    func render(_ name: String, _ model: Any, title: String, tab: Tab, notice: String? = nil, formToken: String?) -> String {
        wrap(library.render(model, withTemplate: name) ?? "", title: title, tab: tab, notice: notice, formToken: formToken)
    }

    /// A rendered page body inside the layout. Every form that posts carries `formToken`, the request's CSRF token
    /// (`PageRequestContext.formToken`), so no template can forget it.
    func wrap(_ body: String, title: String, tab: Tab, notice: String? = nil, formToken: String?) -> String {
        // Weigh-ins, energy and imports are under More: four tabs and More fit a 320 px screen.
        let html =
            library.render(
                Layout(
                    title: title, body: body, tabWeight: tab == .weight, tabFood: tab == .food, tabLifts: tab == .lifts,
                    tabGlucose: tab == .glucose, tabMore: [.energy, .importing, .more].contains(tab),
                    showTabs: tab != .signedOut, notice: notice), withTemplate: "layout") ?? ""
        guard let formToken else { return html }
        return Self.addingCSRFToken(formToken, to: html)
    }

    /// `html` with `token` in every `<form method="post">`: a hidden `_csrf` field, and for uploads
    /// (multipart, whose body the server does not read before the handler) also in the action's query.
    static func addingCSRFToken(_ token: String, to html: String) -> String {
        var result = ""
        result.reserveCapacity(html.utf8.count + 512)
        var rest = html[...]
        while let start = rest.range(of: "<form"), let end = rest[start.upperBound...].firstIndex(of: ">") {
            var tag = String(rest[start.lowerBound...end])
            result += rest[..<start.lowerBound]
            rest = rest[rest.index(after: end)...]
            let lower = tag.lowercased()
            guard lower.contains("method=\"post\"") else {
                result += tag
                continue
            }
            if lower.contains("multipart/form-data"), let action = tag.range(of: "action=\""),
                let close = tag[action.upperBound...].firstIndex(of: "\"")
            {
                // In the query, before a fragment ("/import#import-form").
                let end = tag[action.upperBound..<close].firstIndex(of: "#") ?? close
                let separator = tag[action.upperBound..<end].contains("?") ? "&amp;" : "?"
                tag.insert(contentsOf: separator + "_csrf=" + token, at: end)
            }
            result += tag + "<input type=\"hidden\" name=\"_csrf\" value=\"" + token + "\">"
        }
        return result + rest
    }
}

/// An error shown as a page.
struct ErrorPage {
    let heading: String
    let message: String
    let back: String
}
