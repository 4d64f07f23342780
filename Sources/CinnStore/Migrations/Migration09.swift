import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 9: sync: field times, changes by version, the client's outbox, base copies and cursor.
    static let v9 = Migration(
        version: 9, name: "sync: field times, changes by version, the client's outbox, base copies and cursor",
        dialectNeutral: Migration.syncedTables9.flatMap { table in
            // When each field was last set by a sync change (JSON, field → milliseconds), valid while the
            // record's version is `sync_version` (Sync.swift).
            ["ALTER TABLE \(table) ADD COLUMN sync_times TEXT", "ALTER TABLE \(table) ADD COLUMN sync_version $INT"]
        } + [
            "CREATE INDEX weigh_ins_version ON weigh_ins (user_id, version)",
            "CREATE INDEX body_fat_readings_version ON body_fat_readings (user_id, version)",
            "CREATE INDEX goals_version ON goals (user_id, version)",
            "CREATE INDEX food_days_version ON food_days (user_id, version)",
            "CREATE INDEX food_entries_version ON food_entries (user_id, version)",
            "CREATE INDEX exercise_entries_version ON exercise_entries (user_id, version)",
            // A sync client's side (CinnSync): records changed here and not yet accepted by the server (a
            // rejection's reason kept until the record changes again), the server's copy of each record as
            // last seen (what a change is computed against), and where pulling stands.
            """
            CREATE TABLE sync_outbox (
                type TEXT NOT NULL,
                id $UUID NOT NULL,
                rejected_reason TEXT,
                rejected_field TEXT,
                PRIMARY KEY (type, id)
            ) $WITHOUT_ROWID
            """,
            """
            CREATE TABLE sync_base (
                type TEXT NOT NULL,
                id $UUID NOT NULL,
                fields TEXT NOT NULL,
                PRIMARY KEY (type, id)
            ) $WITHOUT_ROWID
            """,
            """
            CREATE TABLE sync_client (
                one $INT PRIMARY KEY CHECK (one = 1),
                server TEXT NOT NULL,
                cursor TEXT NOT NULL,
                applying $INT NOT NULL DEFAULT 0 CHECK (applying IN (0, 1))
            )
            """,
        ]
    )

    /// The tables synced when migration 9 ran (SyncType.all then); later types add their columns in their own migration.
    static let syncedTables9 = [
        "weigh_ins", "body_fat_readings", "goals", "food_days", "food_entries", "exercise_entries",
        "glucose_readings", "insulin_doses", "meals", "meal_events",
    ]
}
