import Foundation
import Testing

@testable import CinnCore

@Suite struct AmbulatoryGlucoseProfileTests {
    /// Worked examples of linear interpolation between the closest ranks: Wikipedia's "Percentile" (the 40th of 15, 20,
    /// 35, 40, 50 is 29) and NumPy's `percentile` documentation (the median of 10, 7, 4, 3, 2, 1 is 3.5).
    @Test func percentilesInterpolateBetweenTheClosestRanks() {
        #expect(AmbulatoryGlucoseProfile.percentile([15, 20, 35, 40, 50], 40) == 29)
        #expect(AmbulatoryGlucoseProfile.percentile([15, 20, 35, 40, 50], 0) == 15)
        #expect(AmbulatoryGlucoseProfile.percentile([15, 20, 35, 40, 50], 100) == 50)
        #expect(AmbulatoryGlucoseProfile.percentile([1, 2, 3, 4, 7, 10], 50) == 3.5)
        #expect(AmbulatoryGlucoseProfile.percentile([42], 95) == 42)
    }

    /// Fourteen days of a CGM, each day at one level (100, 110 … 230 mg/dL): at every time of day the median is 165,
    /// the 5th percentile the lowest day's and the 95th the highest's.
    @Test func fourteenDaysLaidOverOneDay() throws {
        let start = Date(timeIntervalSince1970: 1_709_251_200)  // 2024-03-01T00:00:00Z
        var readings: [(at: Date, utcOffsetSeconds: Int, glucose: Glucose)] = []
        for day in 0..<14 {
            for slot in 0..<288 {
                readings.append(
                    (
                        start.addingTimeInterval(Double(day * 86_400 + slot * 300)), 0,
                        Glucose(milligramsPerDeciliter: 100 + Double(day) * 10)
                    ))
            }
        }
        let profile = AmbulatoryGlucoseProfile(readings: readings, days: 14)
        #expect(profile.slots.count == 96 && profile.slots[0].minute == 7.5 && profile.slots[95].minute == 1432.5)
        #expect(profile.activeShare == 1 && profile.daysWithReadings == 14)
        for slot in profile.slots {
            let percentiles = try #require(slot.percentiles).map(\.milligramsPerDeciliter)
            #expect(percentiles[2] == 165 && percentiles[0] == 100 && percentiles[4] == 230, "\(slot.minute): \(percentiles)")
            #expect(percentiles == percentiles.sorted())
            #expect(slot.readings == 14 * 12 || slot.readings == 14 * 13, "an hour of readings around the slot")
        }
        #expect(profile.statistics.count == 14 * 288 && profile.statistics.mean?.milligramsPerDeciliter == 165)
    }

    /// A reading's time of day is its own offset's: 07:00 at +02:00 is 05:00 UTC, and lands at 07:00.
    @Test func timeOfDayIsTheReadingsOwnOffsets() throws {
        let sevenLocal = Date(timeIntervalSince1970: 1_709_276_400)  // 2024-03-01T07:00:00Z
        let readings = (0..<6).map { index in
            (
                at: sevenLocal.addingTimeInterval(-2 * 3600 + Double(index) * 60), utcOffsetSeconds: 7200,
                glucose: Glucose(milligramsPerDeciliter: 140)
            )
        }
        let profile = AmbulatoryGlucoseProfile(readings: readings, days: 1)
        let filled = profile.slots.filter { $0.percentiles != nil }.map(\.minute)
        #expect(filled.contains(7 * 60 + 7.5) && !filled.contains(5 * 60 + 7.5))
        #expect(profile.slots.first { $0.minute == 3 * 60 + 7.5 }?.percentiles == nil, "too few readings: no percentiles")
        #expect(abs(profile.activeShare - 6 / 288) < 1e-12)
    }
}
