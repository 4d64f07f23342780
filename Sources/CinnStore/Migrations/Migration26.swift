import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 26: the person's rapid-acting insulin, as the insulin-on-board curve needs it: when its activity peaks
    /// and how long it acts, in minutes (`ExponentialInsulinModel`). NULL is the adult rapid-acting curve.
    static let v26 = Migration(
        version: 26, name: "the insulin curve's peak and duration",
        dialectNeutral: [
            "ALTER TABLE user_settings ADD COLUMN insulin_peak_minutes $REAL CHECK (insulin_peak_minutes >= 10 AND insulin_peak_minutes <= 270)",
            "ALTER TABLE user_settings ADD COLUMN insulin_duration_minutes $REAL CHECK (insulin_duration_minutes >= 120 AND insulin_duration_minutes <= 600)",
        ]
    )
}
