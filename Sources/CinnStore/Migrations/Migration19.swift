import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 19: what Nightscout clients send beyond readings, kept as they sent it: treatments (what Cinn's journal
    /// holds of them goes to doses, readings and the food log too), device statuses and profiles.
    static let v19 = Migration(
        version: 19, name: "Nightscout documents",
        dialectNeutral: [
            """
            CREATE TABLE nightscout_documents (
                row_id $ROW_ID,
                id $UUID NOT NULL UNIQUE,
                user_id $INT NOT NULL REFERENCES users(row_id),
                collection TEXT NOT NULL CHECK (collection IN ('treatments', 'devicestatus', 'profile')),
                -- The client's _id, or (without one) its time and type: what finds a document sent again.
                key TEXT NOT NULL,
                event_type TEXT,
                created_at_ms $INT NOT NULL,
                -- The JSON object as sent, with an _id when it came without one.
                body TEXT NOT NULL,
                received_at_ms $INT NOT NULL
            )
            """,
            "CREATE UNIQUE INDEX nightscout_documents_key ON nightscout_documents (user_id, collection, key)",
            "CREATE INDEX nightscout_documents_time ON nightscout_documents (user_id, collection, created_at_ms)",
        ])
}
