import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 22: what several servers on one database must share, which one process used to keep in memory: failed
    /// log-ins (the throttle), the web app's uploads waiting between their check and their import, and how far an
    /// import has got (the page polls whichever server its request reaches).
    static let v22 = Migration(
        version: 22, name: "Log-in attempts, waiting uploads and import progress in the database",
        dialectNeutral: [
            // One row per key an attempt counts for (the client; the name from the client): an attempt that succeeds or
            // was never checked deletes its rows. Rows older than the throttle's window are deleted as attempts come.
            """
            CREATE TABLE login_attempts (
                row_id $ROW_ID,
                throttle_key TEXT NOT NULL,
                attempted_at_ms $INT NOT NULL
            )
            """,
            "CREATE INDEX login_attempts_key ON login_attempts (throttle_key, attempted_at_ms)",
            "CREATE INDEX login_attempts_time ON login_attempts (attempted_at_ms)",
            // An upload checked and waiting for "import": its form fields as a JSON object; the file itself is in the
            // upload directory, named by the token.
            """
            CREATE TABLE pending_imports (
                token TEXT PRIMARY KEY,
                user_id $INT NOT NULL REFERENCES users(row_id),
                fields TEXT NOT NULL,
                created_at_ms $INT NOT NULL
            )
            """,
            "CREATE INDEX pending_imports_created ON pending_imports (created_at_ms)",
            """
            CREATE TABLE import_progress (
                id TEXT PRIMARY KEY,
                user_id $INT NOT NULL REFERENCES users(row_id),
                phase TEXT NOT NULL CHECK (phase IN ('checking', 'importing')),
                rows_read $INT NOT NULL,
                bytes_read $INT NOT NULL,
                total_bytes $INT,
                done $INT NOT NULL CHECK (done IN (0, 1)),
                updated_at_ms $INT NOT NULL
            )
            """,
            "CREATE INDEX import_progress_updated ON import_progress (updated_at_ms)",
        ]
    )
}
