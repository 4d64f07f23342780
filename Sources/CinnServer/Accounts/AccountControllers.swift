import CinnCore
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

extension Accounts {
    /// The client address that log-in throttling counts failures for: the socket's peer, or behind a trusted
    /// proxy the last address of `X-Forwarded-For` that is not itself a trusted proxy.
    func client<Context: RequestContext>(of request: Request, _ context: Context) -> String {
        let trusted = configuration.trustedProxies
        let peer = (context as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress ?? "unknown"
        guard trusted.contains(peer) else { return peer }
        let hops = request.headers[values: .xForwardedFor].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return hops.last { !trusted.contains($0) } ?? hops.first ?? peer
    }
}

/// Hosted mode's pages: log-in, sign-up, log-out and the account page (password, API tokens, invites).
struct AccountWebController {
    typealias PublicContext = AppRequestContext
    typealias Context = AccountRequestContext
    let accounts: Accounts
    let security: WebSecurity

    /// Log-in and sign-up, for anyone.
    func addPublicRoutes(to router: Router<PublicContext>) {
        router.get(Site.logIn, use: loginForm)
        router.post(Site.logIn, use: logIn)
        router.get(Site.signUp, use: signupForm)
        router.post(Site.signUp, use: signUp)
    }

    /// Every route: the public ones, the account's, and the identity provider's.
    func addRoutes(public router: Router<PublicContext>, account group: RouterGroup<Context>) {
        addPublicRoutes(to: router)
        addRoutes(to: group)
        addOpenIDRoutes(public: router, account: group)
    }

    /// The logged-in account's routes.
    func addRoutes(to router: RouterGroup<Context>) {
        router.post(Site.logOut, use: logOut)
        router.get(Site.account, use: accountPage)
        router.post(Site.password, use: changePassword)
        router.post(Site.tokens, use: createToken)
        router.post(Site.revokeToken, use: revokeToken)
        router.post(Site.invites, use: createInvite)
    }

    struct LoginPage {
        let name: String
        let next: String
        let error: String?
        let canSignUp: Bool
        /// The identity provider's name, when people may sign in through it; whether passwords log in too.
        let openID: String?
        let passwords: Bool
        /// The provider's sign-in, coming back to `next`.
        let openIDLink: String
    }
    struct SignupPage {
        let name: String
        let invite: String
        let error: String?
        let needsInvite: Bool
        let closed: Bool
        let openID: String?
        let passwords: Bool
    }

    func loginPage(name: String, next: String, error: String?) -> LoginPage {
        LoginPage(
            name: name, next: next, error: error, canSignUp: accounts.configuration.signUp != .closed,
            openID: accounts.openID?.configuration.displayName, passwords: accounts.configuration.passwords,
            openIDLink: Site.logInWithProvider.path + "?next="
                + (next.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "/-_.~"))) ?? "/"))
    }

    /// Where to go after logging in: a path of this site only. Browsers drop tabs and line breaks from a
    /// `Location` and read `\` as `/`, so `/\t/evil.example` would leave the site: only printable ASCII without
    /// a backslash passes, and nothing that starts with `//`.
    static func safeNext(_ text: String?) -> String {
        guard let text, text.hasPrefix("/"), !text.hasPrefix("//"),
            text.unicodeScalars.allSatisfy({ (0x21..<0x7f).contains($0.value) && $0 != "\\" })
        else { return "/" }
        return text
    }

    @Sendable func loginForm(_ request: Request, context: PublicContext) async throws -> WebAnswer {
        .page("login", loginPage(name: "", next: Self.safeNext(request.query("next")), error: nil), title: "Log in", tab: .signedOut)
    }

    @Sendable func logIn(_ request: Request, context: PublicContext) async throws -> WebAnswer {
        struct LogInForm: Decodable {
            @Field var name: String?
            @PasswordField var password: String
            @Field var next: String?
        }
        let form = try await request.decodeForm(LogInForm.self)
        let next = Self.safeNext(form.next)
        do {
            let session = try await accounts.logIn(
                name: form.name ?? "", password: form.password, client: accounts.client(of: request, context))
            return WebAnswer.redirect(next).setting(sessionCookie(session.token, expiresAt: session.expiresAt))
        } catch let error as CinnError where [.unauthenticated, .tooManyRequests, .forbidden].contains(error.code) {
            let page = loginPage(name: form.name ?? "", next: next, error: error.message)
            return .page("login", page, title: "Log in", tab: .signedOut, status: error.code.httpStatus)
        }
    }

    @Sendable func signupForm(_ request: Request, context: PublicContext) async throws -> WebAnswer {
        .page("signup", signupPage(name: "", invite: request.query("invite") ?? "", error: nil), title: "Sign up", tab: .signedOut)
    }

    func signupPage(name: String, invite: String, error: String?) -> SignupPage {
        SignupPage(
            name: name, invite: invite, error: error, needsInvite: accounts.configuration.signUp == .invite,
            closed: accounts.configuration.signUp == .closed, openID: accounts.openID?.configuration.displayName,
            passwords: accounts.configuration.passwords)
    }

    @Sendable func signUp(_ request: Request, context: PublicContext) async throws -> WebAnswer {
        struct SignUpForm: Decodable {
            @Field var name: String?
            @PasswordField var password: String
            @Field var invite: String?
        }
        let form = try await request.decodeForm(SignUpForm.self)
        let password = form.password
        do {
            let account = try await accounts.signUp(name: form.name ?? "", password: password, invite: form.invite)
            let session = try await accounts.logIn(name: account.name, password: password, client: accounts.client(of: request, context))
            return WebAnswer.redirect(Site.dashboard.path).setting(sessionCookie(session.token, expiresAt: session.expiresAt))
        } catch let error as CinnError where [.invalidInput, .conflict, .forbidden].contains(error.code) {
            let page = signupPage(name: form.name ?? "", invite: form.invite ?? "", error: error.message)
            return .page("signup", page, title: "Sign up", tab: .signedOut, status: error.code.httpStatus)
        }
    }

    @Sendable func logOut(_ request: Request, context: Context) async throws -> WebAnswer {
        if let token = context.account.sessionToken { try await accounts.logOut(token: token) }
        return WebAnswer.redirect(Site.logIn.path).setting(sessionCookie("", expiresAt: Date(timeIntervalSince1970: 0)))
    }

    func sessionCookie(_ value: String, expiresAt: Date) -> Cookie {
        Cookie(
            name: AccountsMiddleware.cookieName, value: value, expires: expiresAt, path: "/",
            secure: accounts.configuration.secureCookies, httpOnly: true, sameSite: .lax)
    }

    struct AccountPage {
        struct Secret {
            let label: String
            let value: String
        }
        struct TokenRow {
            let id: String
            let name: String
            let scope: String?
            let created: String
            let lastUsed: String
            let revoked: Bool
        }
        struct UserRow {
            let name: String
            let role: String
        }
        let name: String
        let isAdmin: Bool
        let message: String?
        let newSecret: Secret?
        let passwordError: String?
        let tokenError: String?
        /// Where Nightscout clients send, when the server knows its public address.
        let nightscoutURL: String?
        let tokens: [TokenRow]
        let hasTokens: Bool
        /// The tokens a password change would revoke, named: the form says which before it does.
        let hasActiveTokens: Bool
        let activeTokenNames: String
        let users: [UserRow]
        /// Whether the password section is shown: the account has one, and passwords log in on this server.
        let canChangePassword: Bool
        struct OpenID {
            let name: String
            let linked: Bool
        }
        let openID: OpenID?
    }

    func renderAccount(
        _ context: Context, message: String? = nil, secret: AccountPage.Secret? = nil, passwordError: String? = nil,
        tokenError: String? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> WebAnswer {
        let me = context.account.account
        let zone = try await context.journal.settings().timeZone
        let tokens = try await accounts.store.apiTokens(user: me.user).map { token in
            let created = LocalDate(instant: token.createdAt, utcOffsetSeconds: zone.secondsFromGMT(for: token.createdAt))
            let scope: String? =
                switch token.scope {
                case .all: nil
                case .nightscoutUpload: "Nightscout uploader: sends only"
                case .nightscoutFollow: "Nightscout follower: reads only"
                }
            return AccountPage.TokenRow(
                id: token.id.lowercasedString, name: token.name, scope: scope, created: created.dayMonthYear,
                lastUsed: token.lastUsedAt.map { DashboardPage.moment($0, in: zone) } ?? "never",
                revoked: token.revokedAt != nil)
        }
        let nightscoutURL = security.publicURL.map {
            ($0.absoluteString.hasSuffix("/") ? String($0.absoluteString.dropLast()) : $0.absoluteString) + "/nightscout"
        }
        let users =
            me.role == .admin
            ? try await accounts.store.accounts().filter { $0.name != Store.localUserName }
                .map { AccountPage.UserRow(name: $0.name, role: $0.role.rawValue) } : []
        var openID: AccountPage.OpenID?
        if let provider = accounts.openID {
            openID = AccountPage.OpenID(
                name: provider.configuration.displayName,
                linked: try await accounts.store.openIDIdentityCount(user: me.user) > 0)
        }
        let active = tokens.filter { !$0.revoked }.map { "“\($0.name)”" }
        let page = AccountPage(
            name: me.name, isAdmin: me.role == .admin, message: message, newSecret: secret, passwordError: passwordError,
            tokenError: tokenError, nightscoutURL: nightscoutURL, tokens: tokens, hasTokens: !tokens.isEmpty,
            hasActiveTokens: !active.isEmpty,
            activeTokenNames: active.count > 1
                ? active.dropLast().joined(separator: ", ") + " and " + active[active.count - 1]
                : active.joined(), users: users,
            canChangePassword: me.hasPassword && accounts.configuration.passwords, openID: openID)
        return .page("account", page, title: "Account", tab: .more, status: status)
    }

    @Sendable func accountPage(_ request: Request, context: Context) async throws -> WebAnswer {
        guard let sealed = request.cookies[ShownOnce.cookieName]?.value else { return try await renderAccount(context) }
        let secret = context.account.sessionToken.flatMap { ShownOnce.open(sealed, session: $0) }
        return try await renderAccount(context, secret: secret.map { AccountPage.Secret(label: $0.label, value: $0.value) })
            .setting(ShownOnce.cookie("", secure: accounts.configuration.secureCookies))
    }

    /// Sends the browser to the account page, which shows `secret` once: reloading it makes nothing again.
    func redirectShowing(_ secret: ShownOnce.Secret, context: Context) throws -> WebAnswer {
        guard let session = context.account.sessionToken else { throw CinnError(.unauthenticated, "log in first") }
        return WebAnswer.redirect(Site.account.path + "#new-secret")
            .setting(ShownOnce.cookie(try ShownOnce.seal(secret, session: session), secure: accounts.configuration.secureCookies))
    }

    @Sendable func changePassword(_ request: Request, context: Context) async throws -> WebAnswer {
        struct PasswordForm: Decodable {
            @PasswordField var currentPassword: String
            @PasswordField var newPassword: String
            @Field var revokeTokens: String?

            enum CodingKeys: String, CodingKey {
                case currentPassword = "current_password"
                case newPassword = "new_password"
                case revokeTokens = "revoke_tokens"
            }
        }
        let form = try await request.decodeForm(PasswordForm.self)
        let me = context.account
        do {
            let revokingTokens = form.$revokeTokens.isTrue
            try await accounts.changePassword(
                user: me.account.user, current: form.currentPassword, new: form.newPassword, keepingSession: me.sessionToken,
                revokingTokens: revokingTokens)
            return try await renderAccount(
                context,
                message: "Your password is changed; your other browsers are logged out"
                    + (revokingTokens ? " and your API tokens are revoked." : "."))
        } catch let error as CinnError where error.code == .invalidInput {
            return try await renderAccount(context, passwordError: error.message, status: .unprocessableContent)
        }
    }

    @Sendable func createToken(_ request: Request, context: Context) async throws -> WebAnswer {
        struct TokenForm: Decodable {
            @Field var name: String?
            @Field var scope: String?
        }
        let form = try await request.decodeForm(TokenForm.self)
        do {
            let made = try await accounts.createToken(
                name: form.name ?? "", scope: try AccountAPIController.scope(form.scope), user: context.account.account.user)
            return try redirectShowing(.init(label: "Your new token “\(made.token.name)”", value: made.secret), context: context)
        } catch let error as CinnError where error.code == .invalidInput {
            return try await renderAccount(context, tokenError: error.message, status: .unprocessableContent)
        }
    }

    @Sendable func revokeToken(_ request: Request, context: Context) async throws -> WebAnswer {
        try await accounts.store.revokeAPIToken(id: try idParameter(context, "token"), user: context.account.account.user)
        return .redirect(Site.account.path)
    }

    @Sendable func createInvite(_ request: Request, context: Context) async throws -> WebAnswer {
        let code = try await accounts.createInvite(by: context.account.account)
        let path = Site.signUp.path + "?invite=" + code
        guard let publicURL = security.publicURL else {
            return try redirectShowing(
                .init(
                    label: "An invite for one person, for 7 days: send them this server's address followed by",
                    value: path), context: context)
        }
        let base = publicURL.absoluteString.hasSuffix("/") ? String(publicURL.absoluteString.dropLast()) : publicURL.absoluteString
        return try redirectShowing(
            .init(label: "An invite for one person, for 7 days: send them this link", value: base + path), context: context)
    }
}

/// Hosted mode in the JSON API: log-in for apps (a bearer token for a name and password), the account,
/// and the user's tokens.
struct AccountAPIController {
    typealias PublicContext = AppRequestContext
    typealias Context = AccountRequestContext
    let accounts: Accounts

    /// Log-in, for anyone.
    func addPublicRoutes(to group: RouterGroup<PublicContext>) {
        group.post("login", use: logIn)
    }

    /// The logged-in account's routes.
    func addRoutes(to group: RouterGroup<Context>) {
        group.get("account", use: account)
        group.get("tokens", use: listTokens)
        group.post("tokens", use: createToken)
        group.delete("tokens/{id}", use: revokeToken)
    }

    struct LogInRequest: Decodable {
        let name: String
        let password: String
        let tokenName: String?
        enum CodingKeys: String, CodingKey {
            case name, password
            case tokenName = "token_name"
        }
    }

    struct NewTokenDTO: Encodable {
        let id: String
        let name: String
        let token: String
        let scope: String
        let createdAt: String

        enum CodingKeys: String, CodingKey {
            case id, name, token, scope
            case createdAt = "created_at"
        }
    }

    struct TokenDTO: Encodable {
        let id: String
        let name: String
        let scope: String
        let createdAt: String
        let lastUsedAt: String?
        let revokedAt: String?

        enum CodingKeys: String, CodingKey {
            case id, name, scope
            case createdAt = "created_at"
            case lastUsedAt = "last_used_at"
            case revokedAt = "revoked_at"
        }

        init(_ token: APIToken) {
            id = token.id.lowercasedString
            name = token.name
            scope = token.scope.rawValue
            createdAt = token.createdAt.ISO8601Format()
            lastUsedAt = token.lastUsedAt?.ISO8601Format()
            revokedAt = token.revokedAt?.ISO8601Format()
        }
    }

    func newToken(_ name: String, scope: APITokenScope = .all, user: UserID) async throws -> APIAnswer {
        let made = try await accounts.createToken(name: name, scope: scope, user: user)
        return .json(
            NewTokenDTO(
                id: made.token.id.lowercasedString, name: made.token.name, token: made.secret,
                scope: made.token.scope.rawValue, createdAt: made.token.createdAt.ISO8601Format()), status: .created)
    }

    /// A token's scope as a form or a request names it; everything when it names none.
    static func scope(_ text: String?) throws -> APITokenScope {
        guard let text, !text.isEmpty else { return .all }
        guard let scope = APITokenScope(rawValue: text) else {
            throw CinnError.invalid("scope", "a token is for all, nightscout-upload or nightscout-follow, not \"\(text)\"")
        }
        return scope
    }

    /// `POST /api/v1/login` `{"name", "password", "token_name"}` → a new bearer token (201).
    @Sendable func logIn(_ request: Request, context: PublicContext) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(LogInRequest.self)
        let account = try await accounts.authenticate(
            name: body.name, password: body.password, client: accounts.client(of: request, context))
        return try await newToken(body.tokenName ?? "API log-in", user: account.user)
    }

    @Sendable func account(_ request: Request, context: Context) async throws -> APIAnswer {
        let me = context.account.account
        return .json(["name": me.name, "role": me.role.rawValue])
    }

    @Sendable func listTokens(_ request: Request, context: Context) async throws -> APIAnswer {
        .json(["tokens": try await accounts.store.apiTokens(user: context.account.account.user).map(TokenDTO.init)])
    }

    struct CreateTokenRequest: Decodable {
        let name: String
        let scope: String?
    }

    @Sendable func createToken(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(CreateTokenRequest.self)
        return try await newToken(body.name, scope: try Self.scope(body.scope), user: context.account.account.user)
    }

    @Sendable func revokeToken(_ request: Request, context: Context) async throws -> APIAnswer {
        try await accounts.store.revokeAPIToken(id: try idParameter(context, "token"), user: context.account.account.user)
        return .noContent
    }
}
