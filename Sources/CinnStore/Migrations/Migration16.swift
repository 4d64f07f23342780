import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 16: one meal log. Each everyday meal definition becomes a preset, logged into the food log like any
    /// other; the definition stays, linked to it, for its past events and for sync clients. Test meals stay meals.
    static let v16 = Migration(
        version: 16, name: "everyday meals become presets",
        dialectNeutral: [
            // The preset an everyday meal became; NULL for a test meal, or one made since.
            "ALTER TABLE meals ADD COLUMN preset_id $UUID"
        ],
        data: { store, connection in try await store.moveMealsToPresets(connection.sql) })
}
