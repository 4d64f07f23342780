import CinnCore
import Foundation
import Testing

/// Directions from the change between two CGM samples, with Dexcom's bands (mg/dL a minute: steady under 1, slowly
/// from 1, rising or falling from 2, fast from 3), as xDrip+ and Nightscout draw them.
@Suite struct GlucoseDirectionTests {
    func point(_ minutes: Double, _ mg: Double) -> GlucosePoint {
        GlucosePoint(at: Date(timeIntervalSince1970: 1_710_403_200 + minutes * 60), glucose: Glucose(milligramsPerDeciliter: mg))
    }

    @Test(arguments: [
        // 5 minutes apart, the usual CGM interval.
        (120.0, 120.0, GlucoseDirection.flat), (120, 124, .flat), (120, 125, .fortyFiveUp), (120, 128, .fortyFiveUp),
        (120, 130, .singleUp), (120, 135, .doubleUp), (120, 116, .flat), (120, 115, .fortyFiveDown), (120, 110, .singleDown),
        (150, 135, .doubleDown),
    ])
    func fiveMinutesApart(_ before: Double, _ after: Double, _ expected: GlucoseDirection) {
        #expect(GlucoseDirection.between(point(0, before), point(5, after)) == expected)
    }

    @Test func samplesTooFarApartOrOutOfOrderHaveNoDirection() {
        #expect(GlucoseDirection.between(point(0, 100), point(15, 100)) == .flat, "15 minutes is still close enough")
        #expect(GlucoseDirection.between(point(0, 100), point(16, 100)) == nil)
        #expect(GlucoseDirection.between(point(5, 100), point(0, 120)) == nil)
    }

    @Test func nightscoutsNamesAndTrendNumbers() {
        #expect(GlucoseDirection(rawValue: "FortyFiveUp")?.trend == 3 && GlucoseDirection(rawValue: "NOT COMPUTABLE")?.trend == 8)
        #expect(GlucoseDirection.allCases.map(\.trend).sorted() == Array(0...9))
        #expect(GlucoseDirection.doubleDown.arrow == "⇊" && GlucoseDirection.flat.words == "steady")
    }
}
