import Foundation
import Hummingbird

/// What a web handler answers: a page, the redirect after a form post, or a response made otherwise (a chart, a
/// fragment a script fetches, a redirect that sets a cookie). Hummingbird turns it into the response.
enum WebAnswer: ResponseGenerator {
    case page(Page)
    /// "See other": after a form is posted, the browser loads this address.
    case redirect(String)
    /// A template rendered alone, without the layout: a page of its own (the glance) or a piece a script fetches.
    case fragment(String, Any)
    case response(Response)
    /// The answer, setting a cookie (a session's, a secret shown once).
    indirect case settingCookie(Cookie, WebAnswer)

    func setting(_ cookie: Cookie) -> WebAnswer { .settingCookie(cookie, self) }

    /// A page: `template` with `model` in the layout.
    static func page(
        _ template: String, _ model: Any, title: String, tab: PageRenderer.Tab, notice: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> WebAnswer {
        .page(Page(template, model, title: title, tab: tab, notice: notice, status: status))
    }

    /// `page` answered with `status` (a form sent back with its error is 422).
    static func page(_ page: Page, status: HTTPResponse.Status) -> WebAnswer {
        var page = page
        page.status = status
        return .page(page)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        switch self {
        case .page(let page):
            let context = context as? any PageRequestContext
            return page.response(formToken: context?.formToken, account: context?.accountName)
        case .fragment(let template, let model):
            let formToken = (context as? any PageRequestContext)?.formToken
            return WebResponse.html(PageRenderer.shared.body(template, model, formToken: formToken))
        case .redirect(let location):
            return WebResponse.redirect(location)
        case .response(let response):
            return response
        case .settingCookie(let cookie, let answer):
            var response = try answer.response(from: request, context: context)
            response.setCookie(cookie)
            return response
        }
    }
}

/// A page as a handler answers it: its templates and their models (a food page's links first, then the page), in the
/// layout with its title and tab. `response(formToken:account:)` is the one place a page is rendered, with the request's
/// CSRF token in every form that posts.
struct Page {
    var parts: [(template: String, model: Any)]
    var title: String
    var tab: PageRenderer.Tab
    /// What the form post that led here did (`Done`).
    var notice: String?
    var status: HTTPResponse.Status

    init(
        _ template: String, _ model: Any, title: String, tab: PageRenderer.Tab, notice: String? = nil,
        status: HTTPResponse.Status = .ok
    ) {
        parts = [(template, model)]
        self.title = title
        self.tab = tab
        self.notice = notice
        self.status = status
    }

    func response(formToken: String?, account: String?) -> Response {
        let pages = PageRenderer.shared
        let body = parts.map { pages.body($0.template, $0.model, formToken: formToken) }.joined()
        return WebResponse.html(
            pages.wrap(body, title: title, tab: tab, notice: notice, formToken: formToken, account: account), status: status)
    }
}

/// The responses the answers are made of, and of the routes outside the pages (middleware, log-in by OpenID Connect).
enum WebResponse {
    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// "See other": after a form is posted, the browser loads `location`.
    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }
}
