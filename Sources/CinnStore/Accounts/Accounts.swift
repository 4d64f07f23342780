import CinnCore
import Foundation
import SQLKit

/// What a user may do beyond their own journal: an administrator manages users and invites.
public enum AccountRole: String, Sendable, Codable, CaseIterable {
    case admin, member
}

/// A user as the accounts of hosted mode see them. Secrets (password hashes, session and token
/// digests) never leave the store in this value.
public struct Account: Sendable, Equatable {
    public var user: UserID
    public var id: UUID
    public var name: String
    public var role: AccountRole
    /// Whether the user can log in (the local user of single-user mode has no password).
    public var hasPassword: Bool
    public var createdAt: Date
}

/// A web session: whose, the CSRF token its forms carry, and when it ends.
public struct StoredSession: Sendable, Equatable {
    public var account: Account
    public var csrfToken: String
    public var expiresAt: Date

    public var user: UserID { account.user }
}

/// What an API token lets its holder do.
public enum APITokenScope: String, Sendable, CaseIterable {
    /// The whole API, and the Nightscout API.
    case all
    /// A Nightscout uploader's: it sends to the Nightscout API (and reads its status), nothing else.
    case nightscoutUpload = "nightscout-upload"
    /// A Nightscout follower's: it reads the Nightscout API, nothing else.
    case nightscoutFollow = "nightscout-follow"
}

/// A bearer token for API clients, as listed (the secret itself is shown once, when made).
public struct APIToken: Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var scope: APITokenScope
    public var createdAt: Date
    public var lastUsedAt: Date?
    public var revokedAt: Date?
}

extension Store {
    private static let accountColumns = accountColumns(of: "users")

    /// The columns `account(_:)` reads, of the users table named `table` in a query.
    static func accountColumns(of table: String) -> String {
        ["row_id", "id", "name", "role", "password_hash IS NOT NULL AS has_password", "created_at_ms"].map { "\(table).\($0)" }
            .joined(separator: ", ")
    }

    func account(_ row: any SQLRow) throws -> Account {
        let role = try row.decode(column: "role", as: String.self)
        return Account(
            user: UserID(try row.decode(column: "row_id", as: Int64.self)), id: try decodeUUID(row, "id"),
            name: try row.decode(column: "name", as: String.self), role: AccountRole(rawValue: role) ?? .member,
            hasPassword: try row.decode(column: "has_password", as: Bool.self),
            createdAt: date(milliseconds: try row.decode(column: "created_at_ms", as: Int64.self)))
    }

    /// Makes an account; with `inviteSHA256`, that invite is used up in the same transaction (an
    /// unknown, used or expired invite makes nothing). A taken name is a conflict. Without a password hash the account
    /// signs in only through its identity provider (`identity`, linked in the same transaction).
    public func createAccount(
        name: String, passwordHash: String?, role: AccountRole, inviteSHA256: [UInt8]? = nil,
        identity: (issuer: String, subject: String)? = nil
    ) async throws -> Account {
        try await transaction { db in
            let createdAt = milliseconds(now())
            guard
                let row = try await db.raw(
                    """
                    INSERT INTO users (id, name, created_at_ms, password_hash, role)
                    VALUES (\(bind: bind(UUID.v7(at: now()))), \(bind: name), \(bind: createdAt), \(bind: passwordHash), \(bind: role.rawValue))
                    ON CONFLICT (name) DO NOTHING
                    RETURNING \(unsafeRaw: Self.accountColumns)
                    """
                ).first()
            else {
                throw CinnError(.conflict, "the name \(name) is taken", field: "name")
            }
            let account = try account(row)
            if let inviteSHA256 {
                let used = try await db.raw(
                    """
                    UPDATE invites SET used_by = \(bind: account.user.rawValue)
                    WHERE code_sha256 = \(bind: Data(inviteSHA256)) AND used_by IS NULL AND expires_at_ms > \(bind: createdAt)
                    RETURNING created_by
                    """
                ).first()
                guard used != nil else { throw CinnError.invalid("invite", "this invite is unknown, used or expired") }
            }
            if let identity {
                try await db.raw(
                    """
                    INSERT INTO oidc_identities (issuer, subject, user_id, created_at_ms)
                    VALUES (\(bind: identity.issuer), \(bind: identity.subject), \(bind: account.user.rawValue), \(bind: createdAt))
                    """
                ).run()
            }
            return account
        }
    }

    /// The account named `name`, with its password hash (nil when it cannot log in).
    public func accountForLogIn(named name: String) async throws -> (account: Account, passwordHash: String?)? {
        try await withConnection { db in
            guard
                let row = try await db.raw(
                    """
                    SELECT \(unsafeRaw: Self.accountColumns), password_hash FROM users WHERE name = \(bind: name)
                    """
                ).first()
            else { return nil }
            return (try account(row), try row.decode(column: "password_hash", as: String?.self))
        }
    }

    public func account(user: UserID) async throws -> Account? {
        try await withConnection { db in
            try await db.raw("SELECT \(unsafeRaw: Self.accountColumns) FROM users WHERE row_id = \(bind: user.rawValue)").first().map(
                account)
        }
    }

    /// Every account, by name (the local user of single-user mode included).
    public func accounts() async throws -> [Account] {
        try await withConnection { db in
            try await db.raw("SELECT \(unsafeRaw: Self.accountColumns) FROM users ORDER BY name").all().map(account)
        }
    }

    /// How many users can log in (with a password or through an identity provider).
    public func loginAccountCount() async throws -> Int {
        try await withConnection { db in
            try await db.raw(
                """
                SELECT count(*) AS n FROM users WHERE password_hash IS NOT NULL OR row_id IN (SELECT user_id FROM oidc_identities)
                """
            ).first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }

    /// Sets the user's password hash and ends their web sessions, but for `keeping` (the one that changed it);
    /// with `revokingTokens`, their API tokens are revoked too.
    public func setPasswordHash(_ hash: String, user: UserID, keeping session: [UInt8]? = nil, revokingTokens: Bool = false) async throws {
        try await transaction { db in
            guard
                try await db.raw(
                    """
                    UPDATE users SET password_hash = \(bind: hash) WHERE row_id = \(bind: user.rawValue) RETURNING row_id
                    """
                ).first() != nil
            else { throw CinnError.notFound("no such user") }
            var delete = SQLQueryString("DELETE FROM sessions WHERE user_id = \(bind: user.rawValue)")
            if let session { delete += SQLQueryString(" AND token_sha256 <> \(bind: Data(session))") }
            try await db.raw(delete).run()
            if revokingTokens {
                try await db.raw(
                    """
                    UPDATE api_tokens SET revoked_at_ms = \(bind: milliseconds(now()))
                    WHERE user_id = \(bind: user.rawValue) AND revoked_at_ms IS NULL
                    """
                ).run()
            }
        }
    }

    public func setRole(_ role: AccountRole, user: UserID) async throws {
        try await withConnection { db in
            guard
                try await db.raw(
                    """
                    UPDATE users SET role = \(bind: role.rawValue) WHERE row_id = \(bind: user.rawValue) RETURNING row_id
                    """
                ).first() != nil
            else { throw CinnError.notFound("no such user") }
        }
    }

    // MARK: Web sessions

    public func createSession(tokenSHA256: [UInt8], user: UserID, csrfToken: String, expiresAt: Date) async throws {
        try await withConnection { db in
            try await db.raw(
                """
                INSERT INTO sessions (token_sha256, user_id, csrf_token, created_at_ms, expires_at_ms)
                VALUES (\(bind: Data(tokenSHA256)), \(bind: user.rawValue), \(bind: csrfToken), \(bind: milliseconds(now())),
                    \(bind: milliseconds(expiresAt)))
                """
            ).run()
        }
    }

    /// The session whose token has this digest, unless it has ended.
    public func session(tokenSHA256: [UInt8]) async throws -> StoredSession? {
        try await withConnection { db in
            guard
                let row = try await db.raw(
                    """
                    SELECT \(unsafeRaw: Self.accountColumns(of: "u")), s.csrf_token, s.expires_at_ms FROM sessions s JOIN users u ON u.row_id = s.user_id
                    WHERE s.token_sha256 = \(bind: Data(tokenSHA256)) AND s.expires_at_ms > \(bind: milliseconds(now()))
                    """
                ).first()
            else { return nil }
            return StoredSession(
                account: try account(row), csrfToken: try row.decode(column: "csrf_token", as: String.self),
                expiresAt: date(milliseconds: try row.decode(column: "expires_at_ms", as: Int64.self)))
        }
    }

    /// Ends one session (log-out), and drops every session that has ended on its own.
    public func deleteSession(tokenSHA256: [UInt8]) async throws {
        try await withConnection { db in
            try await db.raw(
                """
                DELETE FROM sessions WHERE token_sha256 = \(bind: Data(tokenSHA256)) OR expires_at_ms <= \(bind: milliseconds(now()))
                """
            ).run()
        }
    }

    // MARK: API tokens

    /// - Parameter secretSHA1: the SHA-1 hex of the token, which Nightscout clients send in the `api-secret` header.
    public func createAPIToken(name: String, scope: APITokenScope = .all, tokenSHA256: [UInt8], secretSHA1: String, user: UserID)
        async throws
        -> APIToken
    {
        try await withConnection { db in
            let token = APIToken(id: UUID.v7(at: now()), name: name, scope: scope, createdAt: date(milliseconds: milliseconds(now())))
            try await db.raw(
                """
                INSERT INTO api_tokens (id, user_id, name, token_sha256, created_at_ms, scope, secret_sha1)
                VALUES (\(bind: bind(token.id)), \(bind: user.rawValue), \(bind: name), \(bind: Data(tokenSHA256)),
                    \(bind: milliseconds(token.createdAt)), \(bind: scope.rawValue), \(bind: secretSHA1))
                """
            ).run()
            return token
        }
    }

    /// The user's tokens, newest first, revoked ones included.
    public func apiTokens(user: UserID) async throws -> [APIToken] {
        try await withConnection { db in
            try await db.raw(
                """
                SELECT id, name, scope, created_at_ms, last_used_at_ms, revoked_at_ms FROM api_tokens
                WHERE user_id = \(bind: user.rawValue) ORDER BY row_id DESC
                """
            ).all().map { row in
                APIToken(
                    id: try decodeUUID(row, "id"), name: try row.decode(column: "name", as: String.self),
                    scope: APITokenScope(rawValue: try row.decode(column: "scope", as: String.self)) ?? .all,
                    createdAt: date(milliseconds: try row.decode(column: "created_at_ms", as: Int64.self)),
                    lastUsedAt: try row.decode(column: "last_used_at_ms", as: Int64?.self).map { date(milliseconds: $0) },
                    revokedAt: try row.decode(column: "revoked_at_ms", as: Int64?.self).map { date(milliseconds: $0) })
            }
        }
    }

    /// Revokes one of the user's tokens (another user's is not found).
    public func revokeAPIToken(id: UUID, user: UserID) async throws {
        try await withConnection { db in
            guard
                try await db.raw(
                    """
                    UPDATE api_tokens SET revoked_at_ms = coalesce(revoked_at_ms, \(bind: milliseconds(now())))
                    WHERE id = \(bind: bind(id)) AND user_id = \(bind: user.rawValue) RETURNING row_id
                    """
                ).first() != nil
            else { throw CinnError.notFound("no such token") }
        }
    }

    /// The user of the unrevoked token with this digest.
    public func apiTokenUser(tokenSHA256: [UInt8]) async throws -> UserID? {
        try await apiTokenAccount(tokenSHA256: tokenSHA256)?.account.user
    }

    /// The account of the unrevoked token with this digest, and the token's scope, in one query with the token; notes
    /// when the token was used (at most once a minute).
    public func apiTokenAccount(tokenSHA256: [UInt8]) async throws -> (account: Account, scope: APITokenScope)? {
        try await apiTokenAccount(where: "t.token_sha256 = \(bind: Data(tokenSHA256))")
    }

    /// The same for the token whose SHA-1 hex a Nightscout client sent (`api-secret`).
    public func apiTokenAccount(secretSHA1: String) async throws -> (account: Account, scope: APITokenScope)? {
        try await apiTokenAccount(where: "t.secret_sha1 = \(bind: secretSHA1.lowercased())")
    }

    private func apiTokenAccount(where condition: SQLQueryString) async throws -> (account: Account, scope: APITokenScope)? {
        try await withConnection { db in
            let now = milliseconds(now())
            guard
                let row = try await db.raw(
                    """
                    SELECT \(unsafeRaw: Self.accountColumns(of: "u")), t.row_id AS token_row, t.last_used_at_ms, t.scope
                    FROM api_tokens t JOIN users u ON u.row_id = t.user_id
                    WHERE \(condition) AND t.revoked_at_ms IS NULL
                    """
                ).first()
            else { return nil }
            if (try row.decode(column: "last_used_at_ms", as: Int64?.self) ?? 0) < now - 60_000 {
                try await db.raw(
                    """
                    UPDATE api_tokens SET last_used_at_ms = \(bind: now) WHERE row_id = \(bind: try row.decode(column: "token_row", as: Int64.self))
                    """
                ).run()
            }
            return (try account(row), APITokenScope(rawValue: try row.decode(column: "scope", as: String.self)) ?? .all)
        }
    }

    // MARK: Invites

    public func createInvite(codeSHA256: [UInt8], by user: UserID, expiresAt: Date) async throws {
        try await withConnection { db in
            try await db.raw(
                """
                INSERT INTO invites (code_sha256, created_by, created_at_ms, expires_at_ms)
                VALUES (\(bind: Data(codeSHA256)), \(bind: user.rawValue), \(bind: milliseconds(now())), \(bind: milliseconds(expiresAt)))
                """
            ).run()
        }
    }
}
