import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 23: sign-in through an OpenID Connect provider: the sign-ins under way (between the redirect to the
    /// provider and its answer, which may reach another server) and the provider identities linked to accounts.
    static let v23 = Migration(
        version: 23, name: "OpenID Connect sign-in",
        dialectNeutral: [
            // One row a sign-in started: the state's digest (the state itself is in the browser's cookie and the
            // provider's redirect), the nonce and PKCE verifier, where to go after, an invite for a sign-up, and the
            // account to link when a logged-in person links their provider.
            """
            CREATE TABLE oidc_logins (
                state_sha256 $BYTES PRIMARY KEY,
                nonce TEXT NOT NULL,
                code_verifier TEXT NOT NULL,
                next_path TEXT,
                invite TEXT,
                link_user_id $INT REFERENCES users(row_id),
                created_at_ms $INT NOT NULL
            )
            """,
            "CREATE INDEX oidc_logins_created ON oidc_logins (created_at_ms)",
            """
            CREATE TABLE oidc_identities (
                issuer TEXT NOT NULL,
                subject TEXT NOT NULL,
                user_id $INT NOT NULL REFERENCES users(row_id),
                created_at_ms $INT NOT NULL,
                PRIMARY KEY (issuer, subject)
            )
            """,
            "CREATE INDEX oidc_identities_user ON oidc_identities (user_id)",
        ]
    )
}
