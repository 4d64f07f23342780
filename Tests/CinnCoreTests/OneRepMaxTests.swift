import CinnCore
import Foundation
import Testing

@Suite struct OneRepMaxTests {
    // docs/FORMATS.md §10.2: every formula at 100 × 5, to two decimals.
    @Test(arguments: [
        (OneRepMaxFormula.epley, 116.67), (.brzycki, 112.50), (.lander, 113.71), (.lombardi, 117.46),
        (.mayhew, 119.01), (.oConner, 112.50), (.wathan, 116.58),
    ])
    func theTableAtOneHundredTimesFive(_ formula: OneRepMaxFormula, _ expected: Double) throws {
        let estimate = try #require(OneRepMax.estimate(weight: Mass(kilograms: 100), reps: 5, formula: formula))
        #expect((estimate.estimate.kilograms * 100).rounded() / 100 == expected)
        #expect(!estimate.lowConfidence)
    }

    @Test func brzyckiIsExactAndAgreesWithEpleyAtTen() throws {
        #expect(OneRepMaxFormula.brzycki.value(weight: 100, reps: 5) == 112.5)
        let brzycki = OneRepMaxFormula.brzycki.value(weight: 100, reps: 10)
        let epley = OneRepMaxFormula.epley.value(weight: 100, reps: 10)
        #expect(abs(brzycki - 400.0 / 3) < 1e-9 && abs(epley - 400.0 / 3) < 1e-9)
    }

    @Test func singlesWarmUpsAndTheEdges() throws {
        for formula in OneRepMaxFormula.allCases {
            #expect(OneRepMax.estimate(weight: Mass(kilograms: 140), reps: 1, formula: formula)?.estimate.kilograms == 140)
        }
        #expect(OneRepMax.estimate(weight: Mass(kilograms: 60), reps: 5, isWarmUp: true) == nil)
        #expect(OneRepMax.estimate(weight: Mass(kilograms: 60), reps: 0) == nil)
        #expect(OneRepMax.estimate(weight: Mass(kilograms: 0), reps: 5) == nil)
        #expect(OneRepMax.estimate(weight: Mass(kilograms: 60), reps: 37) == nil)
        #expect(OneRepMax.estimate(weight: Mass(kilograms: 60), reps: 36)?.estimate.kilograms == 2160)
        #expect(OneRepMax.estimate(weight: Mass(kilograms: 60), reps: 10)?.lowConfidence == false)
        #expect(OneRepMax.estimate(weight: Mass(kilograms: 60), reps: 11)?.lowConfidence == true)
    }

    @Test func shownWholeAndTruncatedInTheUsersUnit() throws {
        #expect(try #require(OneRepMax.estimate(weight: Mass(kilograms: 100), reps: 5)).formatted(in: .kilograms) == "112 kg")
        // 200 lb × 36 / 32 = 225 lb exactly, stored in kilograms.
        #expect(try #require(OneRepMax.estimate(weight: Mass(200, .pounds), reps: 5)).formatted(in: .pounds) == "225 lb")
        #expect(try OneRepMaxFormula.parse("Wathen") == .wathan)
        #expect(try OneRepMaxFormula.parse("O'Conner") == .oConner)
        expectInvalid("formula") { _ = try OneRepMaxFormula.parse("guess") }
    }
}
