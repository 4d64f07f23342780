import CinnCore
import Foundation
import PropertyBased
import Testing

/// The meal expectation on worked examples: each number below is worked by hand from the rule in `MealPredictor`.
@Suite struct MealExpectationTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)

    /// Past meals at 12:30 on consecutive days with `carbs` and `rise`, the same in everything else.
    static func history(
        _ meals: [(carbs: Double, rise: Double)], minuteOfDay: Double = 750, foods: Set<String> = ["pizza"], bolus: [Double]? = nil
    )
        -> [PastMeal]
    {
        meals.enumerated().map { index, meal in
            PastMeal(
                eatenAt: start.addingTimeInterval(Double(index) * 86400), name: foods.sorted().joined(separator: ", "),
                circumstances: MealCircumstances(
                    carbohydrateGrams: meal.carbs, foods: foods, minuteOfDay: minuteOfDay, bolusUnits: bolus?[index]),
                riseMgPerDl: meal.rise, minutesToPeak: 45 + Double(index) * 10)
        }
    }

    @Test("too few similar meals: how many there are and how many are needed, never a number")
    func tooFew() {
        let history = Self.history([(60, 40), (60, 50), (60, 60), (60, 55)])
        let meal = MealCircumstances(carbohydrateGrams: 60, foods: ["pizza"], minuteOfDay: 750)
        #expect(MealPredictor.expect(meal, history: history) == .tooFewSimilarMeals(found: 4, needed: 5))
        // A breakfast 10 hours earlier is not like these lunches (10 h / 5 h × 0.7 = 1.4 > 1), whatever the history.
        let many = Self.history(Array(repeating: (60, 50), count: 20))
        let breakfast = MealCircumstances(carbohydrateGrams: 60, foods: ["pizza"], minuteOfDay: 150)
        #expect(MealPredictor.expect(breakfast, history: many) == .tooFewSimilarMeals(found: 0, needed: 5))
        #expect(MealPredictor.expect(meal, history: []) == .tooFewSimilarMeals(found: 0, needed: 5))
    }

    @Test("six meals like it: their mean, and the Student-t 80 % interval of their spread")
    func sixTheSame() throws {
        // Rises 40, 50, 60, 50, 45, 55: mean 50; squares of deviations 250, variance 250 / 5 = 50; effective n 6;
        // t(0.9, 5) = 1.476; half-width 1.476 × √(50 × 7/6) = 11.27. Times to peak 45…95 min: weighted median 65.
        let history = Self.history([(60, 40), (60, 50), (60, 60), (60, 50), (60, 45), (60, 55)])
        let meal = MealCircumstances(carbohydrateGrams: 60, foods: ["pizza"], minuteOfDay: 750)
        guard case .expected(let expectation) = MealPredictor.expect(meal, history: history) else {
            Issue.record("expected an expectation")
            return
        }
        #expect(abs(expectation.riseMgPerDl - 50) < 1e-9)
        #expect(abs(expectation.lowMgPerDl - 38.73) < 0.02)
        #expect(abs(expectation.highMgPerDl - 61.27) < 0.02)
        #expect(expectation.minutesToPeak == 65)
        #expect(expectation.similarMeals == 6)
        #expect(expectation.basedOn.count == 6)
        // The same distance: the newest first.
        #expect(expectation.basedOn.first?.eatenAt == history.last?.eatenAt)
    }

    @Test("neighbours' rises are moved for their carbohydrate: 2 mg/dL a gram")
    func carbohydrateSlope() {
        // 41 meals from 30 to 70 g, rise = 2 × carbohydrate exactly. The ridge slope is 2 × 41 / (41 + 5) (standardised
        // with the penalty 5); a 65 g meal's neighbours (45–70 g) are moved by that slope, and the weighted mean lands
        // near 130: the ridge pulls each neighbour's adjustment 11 % short of the truth.
        let history = Self.history((0...40).map { (30 + Double($0), 60 + 2 * Double($0)) })
        let meal = MealCircumstances(carbohydrateGrams: 65, foods: ["pizza"], minuteOfDay: 750)
        guard case .expected(let expectation) = MealPredictor.expect(meal, history: history) else {
            Issue.record("expected an expectation")
            return
        }
        #expect(abs(expectation.riseMgPerDl - 130) < 1.5)
        #expect(expectation.lowMgPerDl < 130 && expectation.highMgPerDl > 130)
        #expect(expectation.highMgPerDl - expectation.lowMgPerDl < 10)
    }

    @Test("a bolus said changes the expectation where the history supports it")
    func bolus() {
        // rise = 110 − 15 × bolus, boluses 2 to 6 U in turn over 40 meals of the same carbohydrate.
        let boluses = (0..<40).map { 2 + Double($0 % 5) }
        let history = Self.history(boluses.map { (60, 110 - 15 * $0) }, bolus: boluses)
        func expected(_ bolus: Double?) -> Double? {
            let meal = MealCircumstances(carbohydrateGrams: 60, foods: ["pizza"], minuteOfDay: 750, bolusUnits: bolus)
            guard case .expected(let expectation) = MealPredictor.expect(meal, history: history) else { return nil }
            return expectation.riseMgPerDl
        }
        // With 3 U: the neighbours 2–4 U, moved along the slope, give about 110 − 45 = 65.
        #expect(abs((expected(3) ?? 0) - 65) < 3)
        #expect(abs((expected(6) ?? 0) - 20) < 3)
        // Without a bolus said: the mean of all of them, 110 − 15 × 4 = 50.
        #expect(abs((expected(nil) ?? 0) - 50) < 1e-9)
        // A bolus the history never saw (20 U against 2–6 U) has no similar meals.
        #expect(expected(20) == nil)
    }

    @Test("distance: the same meal is 0; one feature at its clear difference is its weight")
    func distance() {
        let meal = MealCircumstances(carbohydrateGrams: 50, foods: ["pasta"], minuteOfDay: 1140, glucoseBefore: 120)
        #expect(MealPredictor.distance(meal, meal) == 0)
        var more = meal
        more.carbohydrateGrams = 50 / 0.6  // 40 % of the larger apart: 1 × weight 1
        #expect(abs(MealPredictor.distance(meal, more) - 1) < 1e-12)
        var later = meal
        later.minuteOfDay = 840  // 5 hours earlier: 0.7
        #expect(abs(MealPredictor.distance(meal, later) - 0.7) < 1e-12)
        var midnight = meal
        midnight.minuteOfDay = 0  // the clock wraps: 00:00 is 5 hours after 19:00
        #expect(abs(MealPredictor.distance(meal, midnight) - 0.7) < 1e-12)
        var higher = meal
        higher.glucoseBefore = 200  // 80 mg/dL: 0.5
        #expect(abs(MealPredictor.distance(meal, higher) - 0.5) < 1e-12)
        var unknown = meal
        unknown.glucoseBefore = nil  // not known on one side: not compared
        #expect(MealPredictor.distance(meal, unknown) == 0)
        var other = meal
        other.foods = ["rice"]
        #expect(abs(MealPredictor.distance(meal, other) - 0.6) < 1e-12)
    }

    @Test("Student t and normal quantiles against the tables")
    func quantiles() {
        #expect(abs(StudentT.normalQuantile(0.9) - 1.2815515655446004) < 1e-8)
        #expect(abs(StudentT.normalQuantile(0.975) - 1.959963984540054) < 1e-8)
        #expect(abs(StudentT.normalQuantile(0.01) + 2.3263478740408408) < 1e-8)
        for (df, t) in [(2.0, 1.886), (4, 1.533), (5, 1.476), (10, 1.372), (30, 1.310), (1000, 1.282)] {
            #expect(abs(StudentT.quantile(0.9, degreesOfFreedom: df) - t) < 0.01, "df \(df)")
        }
    }

    /// Edges a stored meal can hold: every range's ends, zeros, and values no meal has but a bug could pass.
    static let edges: [Double] = [0, -0.0, 1e-300, 0.001, 1, 15, 60, 400, 1000, 2000, 1e6, 1e300, -1e300, .greatestFiniteMagnitude]

    /// Property: over histories of any size with values at every edge (and past them), the expectation never traps, its
    /// numbers are finite, its range holds it, it rests on at least five meals and its time to peak is one of theirs.
    @Test func anyHistoryGivesAFiniteOrderedExpectationOrNone() async {
        let value = zip(Gen<Int>.int(in: 0...(Self.edges.count + 2)), Gen<Double>.double(in: 0...300)).map { choice, any in
            choice < Self.edges.count ? Self.edges[choice] : any
        }
        let meal = zip(value, value, value, value, value, Gen<Double>.double(in: 0...1440)).map { row in
            (carbs: row.0, rise: row.1, peak: row.2, glucose: row.3, bolus: row.4, minute: row.5)
        }
        await propertyCheck(count: 300, input: meal.array(of: 0...60), meal) { rows, asked in
            let history = rows.enumerated().map { index, row in
                PastMeal(
                    eatenAt: Self.start.addingTimeInterval(Double(index) * 3600), name: "meal \(index)",
                    circumstances: MealCircumstances(
                        carbohydrateGrams: row.carbs, foods: ["food \(index % 3)"], minuteOfDay: row.minute, glucoseBefore: row.glucose,
                        bolusUnits: row.bolus),
                    riseMgPerDl: row.rise, minutesToPeak: row.peak)
            }
            let candidate = MealCircumstances(
                carbohydrateGrams: asked.carbs, foods: ["food 1"], minuteOfDay: asked.minute, glucoseBefore: asked.glucose,
                bolusUnits: asked.bolus)
            #expect(MealPredictor.distance(candidate, candidate) == 0)
            if case .tooFewSimilarMeals(let found, let needed) = MealPredictor.expect(candidate, history: history) {
                #expect(found < needed && needed == MealPredictor.neededMeals)
            }
            // Five meals just like it among the others: always an expectation.
            let twins = (0..<5).map { index in
                PastMeal(
                    eatenAt: Self.start.addingTimeInterval(-Double(index + 1) * 86400), name: "twin", circumstances: candidate,
                    riseMgPerDl: asked.rise, minutesToPeak: asked.peak)
            }
            switch MealPredictor.expect(candidate, history: history + twins) {
            case .tooFewSimilarMeals:
                Issue.record("five meals at distance 0 are similar")
            case .expected(let expectation):
                #expect(expectation.similarMeals >= MealPredictor.neededMeals && !expectation.basedOn.isEmpty)
                if [expectation.riseMgPerDl, expectation.lowMgPerDl, expectation.highMgPerDl].allSatisfy(\.isFinite) {
                    #expect(expectation.lowMgPerDl <= expectation.riseMgPerDl && expectation.riseMgPerDl <= expectation.highMgPerDl)
                } else {
                    #expect((history + twins).contains { abs($0.riseMgPerDl) > 1e200 || abs($0.circumstances.carbohydrateGrams) > 1e200 })
                }
                #expect((history + twins).contains { $0.minutesToPeak == expectation.minutesToPeak })
            }
        }
    }
}
