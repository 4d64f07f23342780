import CinnCharts
import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation

/// Renders pages: the page's own template, wrapped in the layout.
struct PageRenderer: Sendable {
    static let shared = PageRenderer()

    /// Every template, and each page's template in its frame, by name (`Templates.all`).
    let templates: [String: PageTemplate]

    init() {
        var templates: [String: PageTemplate] = [:]
        for (name, text) in Templates.all {
            // The templates are part of the program; a syntax error in one is a programming error.
            templates[name] = try! PageTemplate(text)
            // The page in its frame: the request's CSRF token below the page's own model (`Frame`).
            templates[name + Self.framed] = try! PageTemplate("{{#page}}{{> \(name)}}{{/page}}")
        }
        self.templates = templates
    }

    static let framed = "#framed"

    /// What every page template is rendered in: its model, and below it the request's CSRF token, which
    /// `{{> csrf}}` finds from inside any section of the page, and a fresh form key (`FormKeys`) for the page's
    /// forms that create something, which `{{> form-key}}` writes.
    /// Around every page: each name the page's template does not find nearer is looked for here (read by name).
    struct Frame: TemplateParent {
        let csrfToken: String?
        let formKey = FormKeys.fresh()
        let page: Any

        func child(named name: String) -> Any? {
            switch name {
            case "csrfToken": csrfToken
            case "formKey": formKey
            case "page": page
            default: nil
            }
        }
    }

    /// The page's tab; `signedOut` pages (log-in, sign-up) show no tabs.
    enum Tab { case weight, food, energy, lifts, glucose, importing, more, none, signedOut }

    struct Layout: TemplateParent {
        let title: String
        let body: String
        let tabWeight: Bool, tabFood: Bool, tabLifts: Bool, tabGlucose: Bool, tabMore: Bool
        let showTabs: Bool
        /// What the form post that led here did, at the top of the page (`Done`).
        let notice: String?
        let csrfToken: String?
        /// Whose page it is, in hosted mode: the service worker keeps entries sent offline for this account only.
        let account: String?

        func child(named name: String) -> Any? {
            switch name {
            case "title": title
            case "body": body
            case "tabWeight": tabWeight
            case "tabFood": tabFood
            case "tabLifts": tabLifts
            case "tabGlucose": tabGlucose
            case "tabMore": tabMore
            case "showTabs": showTabs
            case "notice": notice
            case "csrfToken": csrfToken
            case "account": account
            default: nil
            }
        }
    }

    func render(_ name: String, _ model: Any, title: String, tab: Tab, notice: String? = nil, formToken: String?) -> String {
        wrap(body(name, model, formToken: formToken), title: title, tab: tab, notice: notice, formToken: formToken)
    }

    /// `model` with its template, the forms that post carrying `formToken`, the request's CSRF token
    /// (`PageRequestContext.formToken`); nil writes no token.
    func body(_ name: String, _ model: Any, formToken: String?) -> String {
        render(Frame(csrfToken: formToken, page: model), withTemplate: name + Self.framed)
    }

    /// `model` rendered with the template `name`; nothing for a template that does not exist.
    func render(_ model: Any, withTemplate name: String) -> String {
        guard let template = templates[name], let value = TemplateValue.wrap(model) else { return "" }
        var out = ""
        template.render(PageTemplate.Context(stack: [value], indentation: nil, partials: templates), into: &out)
        return out
    }

    /// A rendered page body inside the layout, whose own forms carry `formToken` too; `account` is the logged-in
    /// account's name in hosted mode.
    func wrap(_ body: String, title: String, tab: Tab, notice: String? = nil, formToken: String?, account: String? = nil) -> String {
        // Weigh-ins, energy and imports are under More: four tabs and More fit a 320 px screen.
        render(
            Layout(
                title: title, body: body, tabWeight: tab == .weight, tabFood: tab == .food, tabLifts: tab == .lifts,
                tabGlucose: tab == .glucose, tabMore: [.energy, .importing, .more].contains(tab),
                showTabs: tab != .signedOut, notice: notice, csrfToken: formToken, account: account), withTemplate: "layout")
    }
}

/// An error shown as a page.
struct ErrorPage {
    let heading: String
    let message: String
    let back: String
}
