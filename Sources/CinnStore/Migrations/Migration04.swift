import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 4: daily intake index.
    static let v4 = Migration(
        version: 4, name: "daily intake index",
        dialectNeutral: [
            // Energy reports sum each day's kcal: with the energy in the index, SQLite reads no table rows.
            "CREATE INDEX food_entries_day_energy ON food_entries (user_id, local_day, energy_kcal) WHERE deleted = 0"
        ]
    )
}
