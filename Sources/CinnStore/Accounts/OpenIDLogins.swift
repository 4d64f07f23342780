import CinnCore
import Foundation
import SQLKit

/// A sign-in through the identity provider, between the redirect there and the provider's answer.
public struct PendingOpenIDLogin: Sendable, Equatable {
    public var nonce: String
    public var codeVerifier: String
    /// Where to go after signing in (a path of this site).
    public var next: String?
    /// The invite of a sign-up on an invite-only server.
    public var invite: String?
    /// The logged-in account that asked to link its provider identity.
    public var linkUser: UserID?

    public init(nonce: String, codeVerifier: String, next: String?, invite: String?, linkUser: UserID?) {
        self.nonce = nonce
        self.codeVerifier = codeVerifier
        self.next = next
        self.invite = invite
        self.linkUser = linkUser
    }
}

extension Store {
    /// Records a sign-in started under a state whose digest is `stateSHA256`; sign-ins older than `expiringBefore` are
    /// dropped on the way.
    public func startOpenIDLogin(stateSHA256: [UInt8], _ login: PendingOpenIDLogin, expiringBefore: Date) async throws {
        try await transaction { db in
            try await db.raw("DELETE FROM oidc_logins WHERE created_at_ms < \(bind: milliseconds(expiringBefore))").run()
            try await db.raw(
                """
                INSERT INTO oidc_logins (state_sha256, nonce, code_verifier, next_path, invite, link_user_id, created_at_ms)
                VALUES (\(bind: Data(stateSHA256)), \(bind: login.nonce), \(bind: login.codeVerifier), \(bind: login.next),
                    \(bind: login.invite), \(bind: login.linkUser?.rawValue), \(bind: milliseconds(now())))
                """
            ).run()
        }
    }

    /// Takes the sign-in started under this state, if it began after `startedAfter`: once only (a provider's answer
    /// replayed finds nothing).
    public func finishOpenIDLogin(stateSHA256: [UInt8], startedAfter: Date) async throws -> PendingOpenIDLogin? {
        try await transaction { db in
            guard
                let row = try await db.raw(
                    """
                    DELETE FROM oidc_logins WHERE state_sha256 = \(bind: Data(stateSHA256))
                    RETURNING nonce, code_verifier, next_path, invite, link_user_id, created_at_ms
                    """
                ).first(), try row.decode(column: "created_at_ms", as: Int64.self) > milliseconds(startedAfter)
            else { return nil }
            return PendingOpenIDLogin(
                nonce: try row.decode(column: "nonce", as: String.self),
                codeVerifier: try row.decode(column: "code_verifier", as: String.self),
                next: try row.decode(column: "next_path", as: String?.self),
                invite: try row.decode(column: "invite", as: String?.self),
                linkUser: try row.decode(column: "link_user_id", as: Int64?.self).map(UserID.init))
        }
    }

    /// The account linked to the provider identity `subject` of `issuer`.
    public func openIDAccount(issuer: String, subject: String) async throws -> Account? {
        try await withConnection { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: Self.accountColumns(of: "u")) FROM oidc_identities i JOIN users u ON u.row_id = i.user_id
                WHERE i.issuer = \(bind: issuer) AND i.subject = \(bind: subject)
                """
            ).first().map(account)
        }
    }

    /// Links a provider identity to `user`; an identity already linked (to anyone) is a conflict.
    public func linkOpenIDIdentity(issuer: String, subject: String, user: UserID) async throws {
        try await transaction { db in
            let linked = try await db.raw(
                """
                INSERT INTO oidc_identities (issuer, subject, user_id, created_at_ms)
                VALUES (\(bind: issuer), \(bind: subject), \(bind: user.rawValue), \(bind: milliseconds(now())))
                ON CONFLICT (issuer, subject) DO NOTHING RETURNING user_id
                """
            ).first()
            guard linked != nil else { throw CinnError(.conflict, "this sign-in is already linked to an account") }
        }
    }

    /// How many provider identities `user` has linked.
    public func openIDIdentityCount(user: UserID) async throws -> Int {
        try await withConnection { db in
            try await db.raw("SELECT COUNT(*) AS n FROM oidc_identities WHERE user_id = \(bind: user.rawValue)").first()?
                .decode(column: "n", as: Int.self) ?? 0
        }
    }
}
