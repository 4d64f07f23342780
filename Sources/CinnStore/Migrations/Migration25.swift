import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 25: a set's load multiplier, how many times its weight was lifted at once (two dumbbells, each of the
    /// weight written), as Fitbod writes it; volume counts each. NULL is once.
    static let v25 = Migration(
        version: 25, name: "a set's load multiplier",
        dialectNeutral: [
            "ALTER TABLE workout_sets ADD COLUMN load_multiplier $REAL CHECK (load_multiplier >= 1 AND load_multiplier <= 10)"
        ]
    )
}
