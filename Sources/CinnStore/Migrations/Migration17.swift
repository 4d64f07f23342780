import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 17: a meal event of an everyday meal (one that became a preset) is logged into the food log: its
    /// entries name the event they stand for.
    static let v17 = Migration(
        version: 17, name: "meal events of presets logged into the food log",
        dialectNeutral: [
            // The meal event these entries were logged for; NULL for an entry logged as itself.
            "ALTER TABLE food_entries ADD COLUMN meal_event_id $UUID",
            "CREATE INDEX food_entries_meal_event ON food_entries (meal_event_id) WHERE meal_event_id IS NOT NULL",
        ])
}
