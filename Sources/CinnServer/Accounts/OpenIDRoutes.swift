import CinnCore
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// Sign-in through the identity provider (`--oidc-issuer`): the log-in and sign-up pages' button leads to
/// `GET /login/oidc`, which sends the browser to the provider; the provider sends it back to `/login/oidc/callback`,
/// which opens a session for the account linked to the identity (or makes one, within the sign-up policy). The state
/// travels in a short-lived cookie of its own, so that an answer the provider sent for another browser is refused.
extension AccountWebController {
    static let stateCookie = "cinn_oidc"

    func addOpenIDRoutes(public router: Router<PublicContext>, account group: RouterGroup<Context>) {
        guard accounts.openID != nil else { return }
        router.get(Site.logInWithProvider, use: startOpenIDLogin)
        router.get(Site.providerCallback, use: finishOpenIDLogin)
        group.post(Site.linkProvider, use: linkOpenID)
    }

    /// Sends the browser to the provider; when the provider cannot be reached, the log-in page says so.
    @Sendable func startOpenIDLogin(_ request: Request, context: PublicContext) async throws -> WebAnswer {
        guard let openID = accounts.openID else { throw CinnError.notFound("no identity provider here") }
        let invite = request.query("invite").map { String($0.prefix(100)) }
        let next = Self.safeNext(request.query("next"))
        do {
            return try await redirectToProvider(openID, next: next, invite: invite, linking: nil)
        } catch let error as CinnError where error.code == .upstreamFailed {
            context.logger.warning("identity provider unavailable", metadata: ["reason": "\(error.message.prefix(200))"])
            return .page(
                "login", loginPage(name: "", next: next, error: error.message), title: "Log in", tab: .signedOut,
                status: error.code.httpStatus)
        }
    }

    /// The Account page's "Link": the logged-in person signs in at the provider, and the identity becomes theirs.
    @Sendable func linkOpenID(_ request: Request, context: Context) async throws -> WebAnswer {
        guard let openID = accounts.openID else { throw CinnError.notFound("no identity provider here") }
        return try await redirectToProvider(openID, next: Site.account.path, invite: nil, linking: context.account.account.user)
    }

    private func redirectToProvider(_ openID: OpenIDConnect, next: String, invite: String?, linking user: UserID?) async throws
        -> WebAnswer
    {
        let started = try await openID.start(next: next, invite: invite, linking: user)
        return WebAnswer.redirect(started.url).setting(
            Cookie(
                name: Self.stateCookie, value: started.state, maxAge: 600, path: Site.logInWithProvider.path,
                secure: accounts.configuration.secureCookies, httpOnly: true, sameSite: .lax))
    }

    @Sendable func finishOpenIDLogin(_ request: Request, context: PublicContext) async throws -> WebAnswer {
        guard let openID = accounts.openID else { throw CinnError.notFound("no identity provider here") }
        do {
            if let error = request.query("error") {
                let description = request.query("error_description").map { ": " + $0.prefix(200) } ?? ""
                throw CinnError(
                    .unauthenticated, "\(openID.configuration.displayName) did not sign you in (\(error.prefix(60))\(description))")
            }
            guard let code = request.query("code"), let state = request.query("state") else {
                throw CinnError.invalid("code", "the identity provider's answer has no code or state")
            }
            let (identity, login) = try await openID.finish(
                code: code, state: state,
                browserState: request.cookies[Self.stateCookie]?.value)
            let account = try await accounts.signIn(identity, login: login)
            let session = try await accounts.openSession(for: account)
            return WebAnswer.redirect(Self.safeNext(login.next))
                .setting(sessionCookie(session.token, expiresAt: session.expiresAt))
                .setting(
                    Cookie(
                        name: Self.stateCookie, value: "", expires: Date(timeIntervalSince1970: 0), path: Site.logInWithProvider.path,
                        secure: accounts.configuration.secureCookies, httpOnly: true, sameSite: .lax))
        } catch let error as CinnError where [.unauthenticated, .forbidden, .conflict, .invalidInput, .upstreamFailed].contains(error.code)
        {
            context.logger.notice("identity provider sign-in refused", metadata: ["reason": "\(error.message.prefix(200))"])
            let page = loginPage(name: "", next: Site.dashboard.path, error: error.message)
            return .page("login", page, title: "Log in", tab: .signedOut, status: error.code.httpStatus)
        }
    }
}
