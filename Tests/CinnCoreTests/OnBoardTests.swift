import CinnCore
import Foundation
import Testing

/// Insulin and carbs on board against the published worked examples: LoopKit's own tests and fixtures
/// (github.com/LoopKit/LoopKit @ 2f535b3c, `LoopKitTests/InsulinMathTests.swift`, `CarbMathTests.swift` and their
/// `Fixtures/InsulinKit`, `Fixtures/CarbKit` files), whose numbers their implementation of the same formulas produces.
@Suite struct OnBoardTests {
    /// `yyyy-MM-ddTHH:mm:ss` in UTC, as the fixtures' times are read.
    static func time(_ text: String) -> Date {
        let time = LocalDateTime(iso: text + "Z")!
        return time.resolved(in: .gmt).instant
    }

    @Test("the curve's fraction remaining, LoopKit's unit test (no delay)")
    func fractionRemainingWithoutDelay() throws {
        let adult = try #require(ExponentialInsulinModel(durationMinutes: 360, peakMinutes: 75, delayMinutes: 0))
        #expect(adult.fractionRemaining(afterMinutes: -1) == 1)
        #expect(adult.fractionRemaining(afterMinutes: 0) == 1)
        #expect(abs(adult.fractionRemaining(afterMinutes: 108) - 0.5110493617156) < 1e-12)
        #expect(adult.fractionRemaining(afterMinutes: 360) == 0)
        #expect(adult.fractionRemaining(afterMinutes: 361) == 0)
        let child = try #require(ExponentialInsulinModel(durationMinutes: 360, peakMinutes: 65, delayMinutes: 0))
        #expect(abs(child.fractionRemaining(afterMinutes: 82) - 0.6002510111374046) < 1e-12)
    }

    @Test("1.5 U at 12:02:37 with the adult preset: LoopKit's iob_from_bolus_exponential_output.json")
    func aBolusOnBoard() {
        let dose = InsulinDose(takenAt: Self.time("2015-07-13T12:02:37"), utcOffsetSeconds: 0, units: 1.5, kind: .bolus)
        let expected: [(String, Double)] = [
            ("12:00:00", 0), ("12:05:00", 1.5), ("12:15:00", 1.499160449046046), ("12:30:00", 1.460596157792121),
            ("13:00:00", 1.271290461985078), ("13:30:00", 1.02097281924799), ("14:00:00", 0.7714466891544411),
            ("14:30:00", 0.5522617418524287), ("15:00:00", 0.3743471915062866), ("16:00:00", 0.1404258630645872),
            ("17:00:00", 0.03238595096141428), ("18:00:00", 0.0007411812795057315), ("18:10:00", 3.042077790255115e-05),
            ("18:15:00", 0),
        ]
        for (clock, units) in expected {
            let onBoard = ExponentialInsulinModel.rapidActingAdult.unitsOnBoard([dose], at: Self.time("2015-07-13T" + clock))
            #expect(abs(onBoard - units) < 1e-9, "\(clock): \(onBoard) U, LoopKit \(units) U")
        }
    }

    @Test("activity is what the fraction loses, peaks at the peak after the delay, and adds up to the dose")
    func activity() {
        for model in [ExponentialInsulinModel.rapidActingAdult, .rapidActingChild, .ultraRapid] {
            var total = 0.0
            for tenth in 0..<3800 {
                let minutes = Double(tenth) / 10
                total += model.activityPerMinute(afterMinutes: minutes + 0.05) * 0.1
                let slope = model.fractionRemaining(afterMinutes: minutes) - model.fractionRemaining(afterMinutes: minutes + 0.1)
                #expect(abs(slope / 0.1 - model.activityPerMinute(afterMinutes: minutes + 0.05)) < 1e-6)
            }
            #expect(abs(total - 1) < 1e-6)
            let peak = model.peakMinutes + model.delayMinutes
            #expect(model.activityPerMinute(afterMinutes: peak) > model.activityPerMinute(afterMinutes: peak - 1))
            #expect(model.activityPerMinute(afterMinutes: peak) > model.activityPerMinute(afterMinutes: peak + 1))
        }
    }

    @Test("basal, future, empty and impossible doses add nothing")
    func dosesThatDoNotCount() {
        let now = Self.time("2024-03-01T12:00:00")
        let doses = [
            InsulinDose(takenAt: now.addingTimeInterval(-1800), utcOffsetSeconds: 0, units: 20, kind: .basal),
            InsulinDose(takenAt: now.addingTimeInterval(600), utcOffsetSeconds: 0, units: 4, kind: .bolus),
            InsulinDose(takenAt: now.addingTimeInterval(-600), utcOffsetSeconds: 0, units: .nan, kind: .bolus),
            InsulinDose(takenAt: now.addingTimeInterval(-600), utcOffsetSeconds: 0, units: -3, kind: .bolus),
        ]
        #expect(ExponentialInsulinModel.rapidActingAdult.unitsOnBoard(doses, at: now) == 0)
        #expect(ExponentialInsulinModel.rapidActingAdult.unitsOnBoard([], at: now) == 0)
        #expect(!ExponentialInsulinModel.isValid(durationMinutes: 360, peakMinutes: 180))
        #expect(!ExponentialInsulinModel.isValid(durationMinutes: .infinity, peakMinutes: 75))
        #expect(!ExponentialInsulinModel.isValid(durationMinutes: 60, peakMinutes: 20))
        #expect(ExponentialInsulinModel.isValid(durationMinutes: 300, peakMinutes: 55))
        #expect(ExponentialInsulinModel(durationMinutes: 360, peakMinutes: .nan) == nil)
        #expect(ExponentialInsulinModel(durationMinutes: 360, peakMinutes: 75, delayMinutes: -1) == nil)
        #expect(ExponentialInsulinModel(durationMinutes: 360, peakMinutes: 75, delayMinutes: .infinity) == nil)
    }

    @Test("six meals, Scheiner's curve over 3 h after 10 min: LoopKit's carbs_on_board_output.json")
    func carbsOnBoardFromHistory() {
        let meals = [
            ("18:43:56", 30.0), ("18:52:32", 30), ("18:58:10", 20), ("20:05:10", 30), ("20:55:28", 35), ("21:35:12", 44),
        ].map { CarbEntry(eatenAt: Self.time("2015-10-15T" + $0.0), grams: $0.1) }
        let expected: [(String, Double)] = [
            ("2015-10-15T18:40:00", 0), ("2015-10-15T18:45:00", 30), ("2015-10-15T18:55:00", 59.99789300411523),
            ("2015-10-15T19:00:00", 79.93184362139917), ("2015-10-15T19:30:00", 75.60552126200274),
            ("2015-10-15T20:05:00", 59.4335048010974), ("2015-10-15T20:10:00", 86.13556241426612),
            ("2015-10-15T21:40:00", 95.37554115226338), ("2015-10-15T22:00:00", 82.53725555555555),
            ("2015-10-15T23:00:00", 38.48919931412893), ("2015-10-16T00:00:00", 5.613562688614522),
            ("2015-10-16T00:50:00", 0),
        ]
        for (time, grams) in expected {
            let onBoard = CarbAbsorption.parabolic.gramsOnBoard(meals, at: Self.time(time), absorptionMinutes: 180)
            #expect(abs(onBoard - grams) < 1e-9, "\(time): \(onBoard) g, LoopKit \(grams) g")
        }
    }

    @Test("one 60 g meal over 3 h by each model, from LoopKit's CarbMath formulas")
    func oneMealByEachModel() {
        let eaten = Self.time("2024-03-01T12:00:00")
        let meal = [CarbEntry(eatenAt: eaten, grams: 60)]
        func onBoard(_ model: CarbAbsorption, _ minutes: Double) -> Double {
            model.gramsOnBoard(meal, at: eaten.addingTimeInterval(minutes * 60))
        }
        // Worked by hand: linear at 60 min has absorbed (60 - 10) / 180 of 60 g; the piecewise curve, past its 15 %
        // ramp, 2/1.35 × (50/180 − 0.075) of it.
        #expect(abs(onBoard(.linear, 60) - (60 - 60 * 50.0 / 180)) < 1e-9)
        #expect(abs(onBoard(.piecewiseLinear, 60) - 60 * (1 - 2 / 1.35 * (50.0 / 180 - 0.075))) < 1e-9)
        for model in CarbAbsorption.allCases {
            #expect(onBoard(model, 0) == 60)
            #expect(onBoard(model, 10) == 60)
            // Half the time after the delay, the curves symmetric about it have absorbed half.
            if model != .piecewiseLinear { #expect(abs(onBoard(model, 100) - 30) < 1e-9) }
            #expect(onBoard(model, 190) == 0)
            #expect(onBoard(model, -5) == 0, "a meal not eaten yet is not on board")
        }
        // The piecewise curve's grams at a few times, computed from the formula (LoopKit `PiecewiseLinearAbsorption`).
        let table: [(Double, Double)] = [(20, 59.086), (30, 56.342), (100, 22.222), (120, 13.443), (150, 4.390), (180, 0.274)]
        for (minutes, grams) in table {
            #expect(abs(onBoard(.piecewiseLinear, minutes) - grams) < 0.0005, "\(minutes) min")
        }
    }
}
