import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 11: Apple Health: body fat readings deduplicated by their source's key; workouts' distance and energy.
    static let v11 = Migration(
        version: 11, name: "Apple Health: body fat readings deduplicated by their source's key; workouts' distance and energy",
        dialectNeutral: [
            "ALTER TABLE workouts ADD COLUMN distance_m $REAL CHECK (distance_m >= 0)",
            "ALTER TABLE workouts ADD COLUMN energy_kcal $REAL CHECK (energy_kcal >= 0)",
            """
            CREATE UNIQUE INDEX body_fat_readings_external ON body_fat_readings (user_id, external_id)
                WHERE deleted = 0 AND external_id IS NOT NULL
            """,
        ]
    )
}
