import CinnCore
import CinnStore
import Crypto
import Foundation
import HummingbirdBcrypt
import NIOCore
import NIOPosix
import Synchronization

/// How hosted mode (`cinn serve --accounts`) lets people in.
public struct AccountsConfiguration: Sendable {
    /// Who may make an account on the sign-up page.
    public enum SignUp: String, Sendable, CaseIterable {
        /// Anyone; the first account is an administrator.
        case open
        /// Whoever has an unused invite from an administrator.
        case invite
        /// Nobody: an administrator adds users with `cinn user add`.
        case closed
    }

    public var signUp: SignUp
    /// How long a web session lasts from log-in.
    public var sessionLifetime: TimeInterval
    /// bcrypt's cost (2^cost rounds); tests lower it, never production.
    public var bcryptCost: UInt8
    /// Cookies only over HTTPS (behind a TLS proxy).
    public var secureCookies: Bool
    /// Failed log-ins allowed per client address, and per account name from a client, within `throttleWindow`.
    public var maximumFailedLogIns: Int
    public var throttleWindow: TimeInterval
    /// Password checks (bcrypt) running or waiting at once; one more is refused at once with 503, so that a
    /// burst of log-ins cannot queue without bound.
    public var maximumPasswordChecks: Int
    /// Addresses of reverse proxies whose `X-Forwarded-For` names the client (log-in throttling counts per
    /// client). Loopback by default: a proxy on the same machine.
    public var trustedProxies: Set<String>
    /// A proxy on the same machine: the default `trustedProxies`.
    public static let loopbackProxies: Set<String> = ["127.0.0.1", "::1"]
    /// Sign-in through an OpenID Connect provider, besides or instead of passwords.
    public var openID: OpenIDConfiguration?
    /// Whether people log in and sign up with a name and password (off: only through the provider).
    public var passwords: Bool

    public init(
        signUp: SignUp = .invite, sessionLifetime: TimeInterval = 30 * 86_400, bcryptCost: UInt8 = 12,
        secureCookies: Bool = false, maximumFailedLogIns: Int = 5, throttleWindow: TimeInterval = 15 * 60,
        maximumPasswordChecks: Int = 8, trustedProxies: Set<String> = loopbackProxies, openID: OpenIDConfiguration? = nil,
        passwords: Bool = true
    ) {
        self.signUp = signUp
        self.sessionLifetime = sessionLifetime
        self.bcryptCost = bcryptCost
        self.secureCookies = secureCookies
        self.maximumFailedLogIns = maximumFailedLogIns
        self.throttleWindow = throttleWindow
        self.maximumPasswordChecks = maximumPasswordChecks
        self.trustedProxies = trustedProxies
        self.openID = openID
        self.passwords = passwords
    }
}

/// A session just made at log-in: the cookie's secret, shown to the browser once.
public struct NewSession: Sendable {
    public var account: Account
    public var token: String
    public var csrfToken: String
    public var expiresAt: Date
}

/// Accounts of hosted mode: sign-up, log-in and log-out, web sessions, API tokens, invites and passwords.
/// Secrets are random 256-bit values; the store keeps only their SHA-256 digests, and passwords only as
/// bcrypt hashes.
public struct Accounts: Sendable {
    public let store: Store
    public let configuration: AccountsConfiguration
    let throttle: LogInThrottle
    let passwordChecks: PasswordChecks
    /// Sign-in through the identity provider, when there is one.
    public let openID: OpenIDConnect?
    /// The hash of a password nobody has, at the configured cost: log-in checks unknown names against it,
    /// so that they take as long as a wrong password.
    let unknownUserHash: String

    /// Times (session and invite expiry, log-in throttling) come from the store's clock.
    /// The accounts of the database `journal` is kept in.
    public init(of journal: Journal, configuration: AccountsConfiguration = AccountsConfiguration()) {
        self.init(store: journal.store, configuration: configuration)
    }

    public init(store: Store, configuration: AccountsConfiguration = AccountsConfiguration()) {
        self.store = store
        self.configuration = configuration
        throttle = LogInThrottle(store: store, limit: configuration.maximumFailedLogIns, window: configuration.throttleWindow)
        passwordChecks = PasswordChecks(limit: configuration.maximumPasswordChecks)
        openID = configuration.openID.map { OpenIDConnect(configuration: $0, store: store) }
        unknownUserHash = Bcrypt.hash(Self.secret(), cost: configuration.bcryptCost)
    }

    // MARK: Names and passwords

    /// An account name as stored: trimmed and lowercased; 3–32 letters, digits, `.`, `_` or `-`.
    public static func validName(_ text: String) throws -> String {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard (3...32).contains(name.count) else { throw CinnError.invalid("name", "a name has 3 to 32 characters") }
        guard name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || ".-_".unicodeScalars.contains($0) })
        else {
            throw CinnError.invalid("name", "a name has only letters a–z, digits, dots, dashes and underscores")
        }
        guard name != Store.localUserName else { throw CinnError.invalid("name", "the name \(name) is reserved") }
        return name
    }

    /// A password of 10 or more characters and at most 72 bytes (all that bcrypt reads).
    public static func checkPassword(_ password: String, field: String = "password") throws {
        guard password.count >= 10 else { throw CinnError.invalid(field, "a password has at least 10 characters") }
        guard password.utf8.count <= 72 else { throw CinnError.invalid(field, "a password has at most 72 bytes") }
    }

    func hash(_ password: String) async throws -> String {
        let cost = configuration.bcryptCost
        return try await passwordChecks.run { Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, hash: String) async throws -> Bool {
        try await passwordChecks.run { Bcrypt.verify(password, hash: hash) }
    }

    // MARK: Accounts

    /// The sign-up page: within the configured policy, with an invite code when invites are required. The
    /// first account of an open server is its administrator.
    public func signUp(name: String, password: String, invite: String?) async throws -> Account {
        try checkPasswordsAllowed()
        let name = try Self.validName(name)
        try Self.checkPassword(password)
        switch configuration.signUp {
        case .closed:
            throw CinnError(.forbidden, "sign-up is closed on this server: ask its administrator for an account")
        case .invite:
            guard let invite = invite?.trimmingCharacters(in: .whitespaces), !invite.isEmpty else {
                throw CinnError.invalid("invite", "sign-up needs an invite on this server")
            }
            return try await store.createAccount(
                name: name, passwordHash: try await hash(password), role: .member,
                inviteSHA256: Self.digest(invite))
        case .open:
            let role: AccountRole = try await store.loginAccountCount() == 0 ? .admin : .member
            return try await store.createAccount(name: name, passwordHash: try await hash(password), role: role)
        }
    }

    /// Passwords turned off: this server signs people in through its identity provider only.
    func checkPasswordsAllowed() throws {
        guard configuration.passwords else {
            throw CinnError(
                .forbidden,
                "this server signs in with \(configuration.openID?.displayName ?? "its identity provider") only, not with passwords")
        }
    }

    /// `cinn user add`: an account whatever the sign-up policy.
    public func addUser(name: String, password: String, role: AccountRole) async throws -> Account {
        let name = try Self.validName(name)
        try Self.checkPassword(password)
        return try await store.createAccount(name: name, passwordHash: try await hash(password), role: role)
    }

    /// `cinn user reset-password`: a new password; every web session of the user ends and, unless `revokingTokens` is
    /// false, so do their API tokens (a reset is often for an account someone else got into).
    public func resetPassword(name: String, password: String, revokingTokens: Bool = true) async throws {
        try Self.checkPassword(password)
        guard let (account, _) = try await store.accountForLogIn(named: name.lowercased()) else {
            throw CinnError.notFound("no user named \(name)")
        }
        try await store.setPasswordHash(try await hash(password), user: account.user, revokingTokens: revokingTokens)
    }

    /// The account page: the current password, then a new one; the user's other sessions end, and with
    /// `revokingTokens` their API tokens are revoked.
    public func changePassword(
        user: UserID, current: String, new: String, keepingSession token: String?,
        revokingTokens: Bool
    ) async throws {
        try Self.checkPassword(new, field: "new_password")
        guard let account = try await store.account(user: user),
            let (_, hash) = try await store.accountForLogIn(named: account.name), let hash,
            try await verify(current, hash: hash)
        else {
            throw CinnError.invalid("current_password", "that is not your current password")
        }
        try await store.setPasswordHash(
            try await self.hash(new), user: user, keeping: token.map(Self.digest), revokingTokens: revokingTokens)
    }

    // MARK: Log-in and sessions

    /// How many keys (clients, names from a client) the log-in throttle holds now.
    public var throttledKeyCount: Int {
        get async throws { try await store.logInAttemptKeyCount(window: configuration.throttleWindow) }
    }

    /// The account whose name and password these are. Wrong names and wrong passwords answer alike (and
    /// take as long); after `maximumFailedLogIns` failures from the client, or for the name from that client,
    /// within the window, log-in is refused until the window has passed: a person logging in from elsewhere is
    /// not locked out by someone else's guesses. Each attempt counts as a failure before the password is
    /// checked (and is taken back when it was right), so parallel guesses cannot pass the limit; a name that
    /// breaks the naming rules is a failure of the client's without becoming a key of its own.
    public func authenticate(name: String, password: String, client: String) async throws -> Account {
        try checkPasswordsAllowed()
        let wrong = CinnError(.unauthenticated, "wrong name or password")
        let clientKey = "client:" + client
        guard let name = try? Self.validName(name) else {
            _ = try await throttle.attempt([clientKey])
            throw wrong
        }
        let keys = [clientKey, "name:" + name + "@" + client]
        let counted = try await throttle.attempt(keys)
        let found: (account: Account, passwordHash: String?)?
        let verified: Bool
        do {
            found = try await store.accountForLogIn(named: name)
            verified = try await verify(password, hash: found?.passwordHash ?? unknownUserHash)
        } catch let error as CinnError where error.code == .unavailable {
            try await throttle.withdraw(counted)
            throw error
        }
        guard verified, let account = found?.account, found?.passwordHash != nil else { throw wrong }
        try await throttle.succeed(keys, rows: counted)
        return account
    }

    /// Checks the name and password (`authenticate`) and opens a web session.
    public func logIn(name: String, password: String, client: String) async throws -> NewSession {
        try await openSession(for: try await authenticate(name: name, password: password, client: client))
    }

    /// A web session for an account that has proved itself (a password, an identity provider).
    public func openSession(for account: Account) async throws -> NewSession {
        let session = NewSession(
            account: account, token: Self.secret(), csrfToken: Self.secret(),
            expiresAt: store.now().addingTimeInterval(configuration.sessionLifetime))
        try await store.createSession(
            tokenSHA256: Self.digest(session.token), user: account.user, csrfToken: session.csrfToken,
            expiresAt: session.expiresAt)
        return session
    }

    /// The account an identity provider's sign-in is: the one linked to the identity; else, when `login` was started by a
    /// logged-in person, theirs, now linked; else a new one within the sign-up policy (an invite from the sign-up page on
    /// an invite-only server; none on a closed one), named after the identity's username or email, without a password.
    public func signIn(_ identity: OpenIDIdentity, login: PendingOpenIDLogin) async throws -> Account {
        if let account = try await store.openIDAccount(issuer: identity.issuer, subject: identity.subject) {
            guard login.linkUser == nil || login.linkUser == account.user else {
                throw CinnError(.conflict, "this sign-in is already linked to another account")
            }
            return account
        }
        if let user = login.linkUser {
            try await store.linkOpenIDIdentity(issuer: identity.issuer, subject: identity.subject, user: user)
            guard let account = try await store.account(user: user) else { throw CinnError.notFound("no such account") }
            return account
        }
        let link = (issuer: identity.issuer, subject: identity.subject)
        switch configuration.signUp {
        case .closed:
            throw CinnError(
                .forbidden,
                "no account here is linked to this sign-in, and sign-up is closed: ask the administrator"
                    + (configuration.passwords ? ", or log in with your password and link it on the Account page" : ""))
        case .invite:
            guard let invite = login.invite?.trimmingCharacters(in: .whitespaces), !invite.isEmpty else {
                throw CinnError(
                    .forbidden,
                    "no account here is linked to this sign-in: sign up with an invite"
                        + (configuration.passwords ? ", or log in with your password and link it on the Account page" : ""))
            }
            return try await createWithFreeName(identity) { name in
                try await store.createAccount(
                    name: name, passwordHash: nil, role: .member, inviteSHA256: Self.digest(invite), identity: link)
            }
        case .open:
            let role: AccountRole = try await store.loginAccountCount() == 0 ? .admin : .member
            return try await createWithFreeName(identity) { name in
                try await store.createAccount(name: name, passwordHash: nil, role: role, identity: link)
            }
        }
    }

    /// Makes the account under the identity's name, or that name with a number when it is taken.
    private func createWithFreeName(_ identity: OpenIDIdentity, _ create: (String) async throws -> Account) async throws -> Account {
        let base = Self.accountName(for: identity)
        for attempt in 0..<20 {
            let suffix = attempt == 0 ? "" : "-\(attempt + 1)"
            let name = String(base.prefix(32 - suffix.count)) + suffix
            do {
                return try await create(name)
            } catch let error as CinnError where error.code == .conflict && error.field == "name" {
                continue
            }
        }
        throw CinnError(.conflict, "no free account name was found for this sign-in")
    }

    /// An account name from the identity: its username, else its email's local part, else "user"; lowercased, only the
    /// characters names may have, 3 to 32 of them.
    static func accountName(for identity: OpenIDIdentity) -> String {
        let source = identity.preferredUsername ?? identity.email.map { String($0.prefix { $0 != "@" }) } ?? "user"
        var name = String(
            source.lowercased().unicodeScalars.map { scalar in
                ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar)
                    ? Character(scalar) : "-"
            }.prefix(32))
        if name.count < 3 || name == Store.localUserName { name = "user-" + name }
        return String(name.prefix(32))
    }

    /// The session a cookie names, unless it has ended.
    public func session(token: String) async throws -> StoredSession? {
        try await store.session(tokenSHA256: Self.digest(token))
    }

    public func logOut(token: String) async throws {
        try await store.deleteSession(tokenSHA256: Self.digest(token))
    }

    // MARK: API tokens and invites

    /// A new bearer token: its secret is in the answer and nowhere else.
    /// - Parameter scope: everything, or only a Nightscout uploader's sending or a follower's reading.
    public func createToken(name: String, scope: APITokenScope = .all, user: UserID) async throws -> (token: APIToken, secret: String) {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...60).contains(name.count) else { throw CinnError.invalid("name", "a token's name has 1 to 60 characters") }
        let secret = "cinn_" + Self.secret()
        return (
            try await store.createAPIToken(
                name: name, scope: scope, tokenSHA256: Self.digest(secret), secretSHA1: Self.sha1Hex(secret),
                user: user), secret
        )
    }

    /// The account a bearer token belongs to, and what the token may do, unless it is unknown or revoked.
    public func tokenAccount(secret: String) async throws -> (account: Account, scope: APITokenScope)? {
        try await store.apiTokenAccount(tokenSHA256: Self.digest(secret))
    }

    /// The same for the SHA-1 hex of a token, as Nightscout clients send their secret (`api-secret`).
    public func tokenAccount(secretSHA1: String) async throws -> (account: Account, scope: APITokenScope)? {
        guard secretSHA1.count == 40, secretSHA1.allSatisfy(\.isHexDigit) else { return nil }
        return try await store.apiTokenAccount(secretSHA1: secretSHA1)
    }

    /// The SHA-1 hex of a secret, as Nightscout clients send it.
    package static func sha1Hex(_ text: String) -> String {
        Insecure.SHA1.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// An invite code for one sign-up within `lifetime` (administrators only).
    public func createInvite(by account: Account, lifetime: TimeInterval = 7 * 86_400) async throws -> String {
        guard account.role == .admin else { throw CinnError(.forbidden, "only an administrator can invite") }
        let code = Self.secret()
        try await store.createInvite(codeSHA256: Self.digest(code), by: account.user, expiresAt: store.now().addingTimeInterval(lifetime))
        return code
    }

    // MARK: Secrets

    /// 256 random bits from the system's generator, base64url without padding (43 characters).
    package static func secret() -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Base64url without padding (RFC 4648 §5), as secrets and PKCE challenges are written.
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func digest(_ secret: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(secret.utf8)))
    }
}

/// Counts failed log-ins per key (a client address; a name from a client) within a sliding window, in the database,
/// so that every server on it counts the same attempts. An attempt counts before its password is checked and is
/// taken back when it succeeds.
struct LogInThrottle: Sendable {
    let store: Store
    let limit: Int
    let window: TimeInterval

    /// Counts an attempt for every key, or refuses (429) without counting when a key is at the limit; the rows
    /// counted, for `withdraw` and `succeed`.
    func attempt(_ keys: [String]) async throws -> [Int64] {
        switch try await store.countLogInAttempt(keys: keys, limit: limit, window: window) {
        case .counted(let rows):
            return rows
        case .refused(let until):
            let minutes = Int(until.timeIntervalSince(store.now()) / 60) + 1
            throw CinnError(.tooManyRequests, "too many failed log-ins: try again in \(minutes) minute\(minutes == 1 ? "" : "s")")
        }
    }

    /// The attempt was not a guess (the server was too busy to check it): it does not count.
    func withdraw(_ rows: [Int64]) async throws {
        try await store.withdrawLogInAttempt(rows: rows)
    }

    /// The password was right: this attempt does not count for the client, and the name's failures from this client
    /// are forgotten.
    func succeed(_ keys: [String], rows: [Int64]) async throws {
        try await store.withdrawLogInAttempt(rows: Array(rows.prefix(1)))
        for key in keys.dropFirst() { try await store.clearLogInAttempts(key: key) }
    }
}

/// Runs password hashing (bcrypt) on threads of its own, away from the pool the database driver uses, so a
/// burst of log-ins cannot starve everyone's queries; beyond `limit` checks running or waiting, the next is
/// refused at once (503).
final class PasswordChecks: Sendable {
    /// One pool for the process: half the cores, at least one.
    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(1, System.coreCount / 2))
        pool.start()
        return pool
    }()

    let limit: Int
    private let inFlight = Mutex(0)

    init(limit: Int) {
        self.limit = limit
    }

    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws -> T {
        let admitted = inFlight.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard admitted else {
            throw CinnError(.unavailable, "the server is busy checking other log-ins: try again in a few seconds")
        }
        defer { inFlight.withLock { $0 -= 1 } }
        return try await Self.pool.runIfActive(body)
    }
}
