import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 24: a Nightscout treatment is one event whichever way it arrives. A file import keeps its treatments as
    /// an uploader's are kept (undone with the import), and the carbohydrate earlier imports made meal events of becomes
    /// what an uploader's carbohydrate is: a food-log entry (`Store.moveNightscoutCarbsToFoodLog`).
    static let v24 = Migration(
        version: 24, name: "Nightscout treatments: one mapping for files and uploaders",
        dialectNeutral: [
            "ALTER TABLE nightscout_documents ADD COLUMN import_id $INT REFERENCES imports(row_id)",
            "CREATE INDEX nightscout_documents_import ON nightscout_documents (import_id) WHERE import_id IS NOT NULL",
            // Carbohydrate from Nightscout at an instant (a file's and an uploader's are one): the few entries it made.
            """
            CREATE INDEX food_entries_nightscout ON food_entries (user_id, eaten_at_ms)
                WHERE deleted = 0 AND external_id LIKE 'nightscout:%'
            """,
        ],
        data: { store, connection in try await store.moveNightscoutCarbsToFoodLog(connection.sql) })
}
