import CinnCore
import CinnJournal
import CinnStore
import Foundation
import HTTPTypes
import Hummingbird

/// Who is asking, in hosted mode: their account and how they proved it.
struct RequestAccount: Sendable {
    var account: Account
    /// The web session's cookie secret and the CSRF token its forms carry; nil for a bearer token.
    var sessionToken: String?
    var csrfToken: String?
}

/// Hosted mode: every request but the public ones (log-in, sign-up, the OpenAPI document, health) is
/// someone's, proved by a bearer token (`Authorization: Bearer cinn_…`, for API clients) or by the
/// session cookie (the web app). A cookie-authenticated request that changes something must also carry
/// the session's CSRF token: the `_csrf` field of a form, the `_csrf` query item of an upload, or the
/// `X-CSRF-Token` header. Without proof the API answers 401 and pages send the browser to log in.
struct AccountsMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let accounts: Accounts
    /// The journal of any user, made alike (clock, Open Food Facts client).
    let journal: @Sendable (UserID) -> Journal

    static var cookieName: String { "cinn_session" }
    static var publicPaths: Set<String> {
        [
            "/login", "/signup", "/login/oidc", "/login/oidc/callback", "/health", "/ready", "/metrics", "/api/openapi.yaml",
            "/api/v1/login",
        ]
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        // The Nightscout API's clients prove themselves as Nightscout's do (`NightscoutAccessMiddleware`).
        if Self.publicPaths.contains(path) || path.hasPrefix("/nightscout/") { return try await next(request, context) }
        var request = request
        guard let identity = try await identify(&request) else {
            if path.hasPrefix("/api/") { throw CinnError(.unauthenticated, "log in first: send Authorization: Bearer <token>") }
            let next = request.method == .get ? path + (request.uri.query.map { "?" + $0 } ?? "") : "/"
            return Response(
                status: .seeOther,
                headers: [
                    .location: "/login?next="
                        + (next.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "/-_.~"))) ?? "/")
                ])
        }
        var context = context
        context.identity = RequestIdentity(journal: journal(identity.account.user), account: identity)
        return try await next(request, context)
    }

    /// The account a bearer token or session cookie proves, checking the CSRF token of a cookie's changes.
    private func identify(_ request: inout Request) async throws -> RequestAccount? {
        if let authorization = request.headers[.authorization] {
            guard authorization.lowercased().hasPrefix("bearer "),
                let found = try await accounts.tokenAccount(secret: String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces))
            else {
                throw CinnError(.unauthenticated, "this API token is unknown or revoked")
            }
            guard found.scope == .all else {
                throw CinnError(.forbidden, "this token is a Nightscout client's: it reaches the Nightscout API (/nightscout) only")
            }
            return RequestAccount(account: found.account)
        }
        guard let token = request.cookies[Self.cookieName]?.value, let session = try await accounts.session(token: token) else {
            return nil
        }
        if ![.get, .head, .options].contains(request.method) {
            try await CSRFToken.check(&request, expected: session.csrfToken)
        }
        return RequestAccount(account: session.account, sessionToken: token, csrfToken: session.csrfToken)
    }
}
