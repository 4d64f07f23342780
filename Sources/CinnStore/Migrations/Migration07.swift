import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 7: accounts: passwords, roles, web sessions, API tokens, invites.
    static let v7 = Migration(
        version: 7, name: "accounts: passwords, roles, web sessions, API tokens, invites",
        dialectNeutral: [
            // A bcrypt hash; NULL for a user who cannot log in (the local user of single-user mode).
            "ALTER TABLE users ADD COLUMN password_hash TEXT",
            "ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'member'))",
            // Secrets are kept as SHA-256 digests: the database never holds a usable session or token.
            """
            CREATE TABLE sessions (
                token_sha256 $BYTES PRIMARY KEY,
                user_id $INT NOT NULL REFERENCES users(row_id),
                csrf_token TEXT NOT NULL,
                created_at_ms $INT NOT NULL,
                expires_at_ms $INT NOT NULL
            ) $WITHOUT_ROWID
            """,
            "CREATE INDEX sessions_user ON sessions (user_id)",
            """
            CREATE TABLE api_tokens (
                row_id $ROW_ID,
                id $UUID NOT NULL UNIQUE,
                user_id $INT NOT NULL REFERENCES users(row_id),
                name TEXT NOT NULL,
                token_sha256 $BYTES NOT NULL UNIQUE,
                created_at_ms $INT NOT NULL,
                last_used_at_ms $INT,
                revoked_at_ms $INT
            )
            """,
            "CREATE INDEX api_tokens_user ON api_tokens (user_id)",
            """
            CREATE TABLE invites (
                code_sha256 $BYTES PRIMARY KEY,
                created_by $INT NOT NULL REFERENCES users(row_id),
                created_at_ms $INT NOT NULL,
                expires_at_ms $INT NOT NULL,
                used_by $INT REFERENCES users(row_id)
            ) $WITHOUT_ROWID
            """,
        ]
    )
}
