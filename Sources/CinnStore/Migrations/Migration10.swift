import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 10: sync: foods, presets, workouts and settings; changes read in (version, row) order straight from an index.
    static let v10 = Migration(
        version: 10, name: "sync: foods, presets, workouts and settings; changes read in (version, row) order straight from an index",
        // A pull reads each table from a (version, row_id) position on: PostgreSQL needs row_id in the index
        // to start there (it read and sorted a whole push's rows per page); SQLite's indexes end with the
        // row id already.
        sqlite: Migration.syncedTables10.flatMap { table in
            [
                "ALTER TABLE \(table) ADD COLUMN sync_times TEXT", "ALTER TABLE \(table) ADD COLUMN sync_version INTEGER",
                "CREATE INDEX \(table)_changes ON \(table) (user_id, version)",
            ]
        } + Migration.syncedSettings(uuid: "BLOB", newID: "randomblob(16)", integer: "INTEGER"),
        postgres: Migration.syncedTables10.flatMap { table in
            [
                "ALTER TABLE \(table) ADD COLUMN sync_times TEXT", "ALTER TABLE \(table) ADD COLUMN sync_version BIGINT",
                "CREATE INDEX \(table)_changes ON \(table) (user_id, version, row_id)",
            ]
        }
            + Migration.syncedTables9.flatMap { table in
                ["CREATE INDEX \(table)_changes ON \(table) (user_id, version, row_id)", "DROP INDEX \(table)_version"]
            } + Migration.syncedSettings(uuid: "UUID", newID: "gen_random_uuid()", integer: "BIGINT")
    )

    /// The tables migration 10 made synced (and the settings, below).
    static let syncedTables10 = ["foods", "presets", "workouts"]

    /// Migration 10's statements that make each user's settings a synced record: an id, a change number (each
    /// user's settings row takes the next of theirs), a deletion flag that stays 0, and the field times. The
    /// row's key for sync is its user_id.
    static func syncedSettings(uuid: String, newID: String, integer: String) -> [String] {
        [
            "ALTER TABLE user_settings ADD COLUMN id \(uuid)",
            "ALTER TABLE user_settings ADD COLUMN created_at_ms \(integer) NOT NULL DEFAULT 0",
            "ALTER TABLE user_settings ADD COLUMN version \(integer) NOT NULL DEFAULT 0",
            "ALTER TABLE user_settings ADD COLUMN deleted \(integer) NOT NULL DEFAULT 0 CHECK (deleted = 0)",
            "ALTER TABLE user_settings ADD COLUMN sync_times TEXT",
            "ALTER TABLE user_settings ADD COLUMN sync_version \(integer)",
            "UPDATE user_settings SET id = \(newID), created_at_ms = updated_at_ms",
            "UPDATE users SET last_version = last_version + 1 WHERE row_id IN (SELECT user_id FROM user_settings)",
            "UPDATE user_settings SET version = (SELECT last_version FROM users WHERE users.row_id = user_settings.user_id)",
            "CREATE UNIQUE INDEX user_settings_id ON user_settings (id)",
        ]
    }
}
