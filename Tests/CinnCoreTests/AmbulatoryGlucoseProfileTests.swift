import Foundation
import PropertyBased
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

    /// Property: readings at any second of the day (on the windows' edges too, and across midnight), at any offset,
    /// give each slot the readings of its window by the definition — every reading within 30 minutes of the slot's
    /// middle, walked one by one — and their percentiles.
    @Test func eachSlotHoldsTheReadingsOfItsWindow() async {
        let start = Date(timeIntervalSince1970: 1_709_251_200)
        let onEdge = Gen<Int>.int(in: 0...191).map { $0 * 450 }  // every 7.5 minutes: slots' middles and windows' edges
        let second = zip(Gen<Bool>.bool(), onEdge, Gen<Int>.int(in: 0...(14 * 86_400))).map { edge, onEdge, any in
            edge ? onEdge : any
        }
        let reading = zip(second, Gen<Int>.int(in: -12...14), Gen<Double>.double(in: 40...400))
        await propertyCheck(count: 100, input: reading.array(of: 0...600)) { rows in
            let readings = rows.map { row in
                (
                    at: start.addingTimeInterval(Double(row.0)), utcOffsetSeconds: row.1 * 3600,
                    glucose: Glucose(milligramsPerDeciliter: row.2)
                )
            }
            let profile = AmbulatoryGlucoseProfile(readings: readings, days: 14)
            for slot in profile.slots {
                let values = readings.filter { reading in
                    let local = reading.at.timeIntervalSince1970 + Double(reading.utcOffsetSeconds)
                    let seconds = local.truncatingRemainder(dividingBy: 86_400)
                    let distance = abs((seconds < 0 ? seconds + 86_400 : seconds) / 60 - slot.minute)
                    return min(distance, 1440 - distance) <= AmbulatoryGlucoseProfile.windowMinutes
                }.map(\.glucose.milligramsPerDeciliter).sorted()
                #expect(slot.readings == values.count, "\(slot.minute)")
                let expected =
                    values.count >= AmbulatoryGlucoseProfile.minimumReadings
                    ? AmbulatoryGlucoseProfile.percentileRanks.map { AmbulatoryGlucoseProfile.percentile(values, $0) } : nil
                #expect(slot.percentiles?.map(\.milligramsPerDeciliter) == expected, "\(slot.minute)")
            }
        }
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
