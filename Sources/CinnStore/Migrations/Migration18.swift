import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 18: glucose readings say whether a CGM took them, which device sent them and where it said glucose
    /// was heading (what Nightscout's uploaders send and its followers read).
    static let v18 = Migration(
        version: 18, name: "glucose readings: sensor, device and direction",
        dialectNeutral: [
            // 1 for a continuous glucose monitor's sample (Nightscout's sgv), 0 for a meter's or a lab's (mbg).
            "ALTER TABLE glucose_readings ADD COLUMN sensor $INT NOT NULL DEFAULT 0 CHECK (sensor IN (0, 1))",
            "ALTER TABLE glucose_readings ADD COLUMN device TEXT",
            // Nightscout's direction names (DoubleUp … DoubleDown, NONE, NOT COMPUTABLE, RATE OUT OF RANGE).
            "ALTER TABLE glucose_readings ADD COLUMN direction TEXT",
            // Readings a Nightscout import made of CGM entries were a sensor's.
            "UPDATE glucose_readings SET sensor = 1 WHERE external_id LIKE 'nightscout:%:sgv'",
        ])
}
