import CinnCore
import Foundation
import Testing

@Suite struct NutrientTargetTests {
    @Test func macroTargetsBecomeGramsFromTheCalorieTargetAndTheWeight() throws {
        // 2000 kcal: carbohydrate 40 % is 800 kcal, 200 g at 4 kcal/g; fat 30 % is 600 kcal, 66.7 g at 9 kcal/g.
        // Protein 1.8 g/kg at an 80 kg trend: 144 g.
        let targets = try NutrientTargets(protein: .gramsPerKilogram(1.8), carbohydrate: .percentOfEnergy(40), fat: .percentOfEnergy(30))
            .validated()
        let goals = targets.goals(energyTargetKcal: 2000, bodyWeight: Mass(kilograms: 80))
        let byKey = Dictionary(uniqueKeysWithValues: goals.map { ($0.nutrient.key, $0) })
        #expect(abs((byKey["protein"]?.target ?? 0) - 144) < 1e-9)
        #expect(byKey["carbohydrate"]?.target == 200)
        #expect(abs((byKey["fat"]?.target ?? 0) - 600.0 / 9) < 1e-9)
        #expect(byKey["protein"]?.standing(130) == .met && byKey["protein"]?.standing(129) == .under, "within 10 %: 129.6 to 158.4 g")
        #expect(byKey["protein"]?.standing(159) == .over)
        // Without a calorie target or a weight, those targets have no grams.
        #expect(targets.goals(energyTargetKcal: nil, bodyWeight: nil).filter { Nutrient.macros.contains($0.nutrient) }.isEmpty)
    }

    @Test func theDailyValuesAreTheDefaultsAndTheUsersBoundsReplaceThem() throws {
        let defaults = NutrientTargets().goals(energyTargetKcal: nil, bodyWeight: nil)
        let sodium = try #require(defaults.first { $0.nutrient.key == "sodium" })
        #expect(sodium.minimum == nil && sodium.maximum == 2300 && sodium.source == .dailyValue, "sodium is to limit (21 CFR 101.9)")
        let fiber = try #require(defaults.first { $0.nutrient.key == "fiber" })
        #expect(fiber.minimum == 28 && fiber.maximum == nil && fiber.standing(20) == .under && fiber.standing(30) == .met)
        #expect(defaults.allSatisfy { !Nutrient.macros.contains($0.nutrient) }, "no macro goal without the user's")
        let mine = NutrientTargets(limits: ["sodium": NutrientLimit(maximum: 2000), "fiber": NutrientLimit(minimum: 30, maximum: 60)])
        let goals = mine.goals(energyTargetKcal: nil, bodyWeight: nil)
        #expect(goals.first { $0.nutrient.key == "sodium" }?.maximum == 2000)
        #expect(goals.first { $0.nutrient.key == "sodium" }?.standing(2100) == .over)
        #expect(
            goals.first { $0.nutrient.key == "fiber" }.map { ($0.minimum, $0.maximum, $0.source) } ?? (nil, nil, .dailyValue) == (
                30, 60, .mine
            ))
    }

    @Test func recordsCountTheLoggedDaysThatMetEachGoal() throws {
        let goals = NutrientTargets(protein: .grams(100)).goals(energyTargetKcal: nil, bodyWeight: nil)
        let days: [(date: LocalDate, totals: Nutrients)] = [95, 80, 110, 120].enumerated().map { offset, grams in
            (LocalDate(year: 2024, month: 3, day: 1 + offset)!, try! Nutrients(keyed: ["protein": grams, "sodium": 2500]))
        }
        let records = GoalRecord.records(goals, days: days)
        #expect(
            records.first { $0.goal.nutrient == .protein }.map { ($0.daysMet, $0.daysLogged) } ?? (0, 0) == (2, 4),
            "95 and 110 g are within 10 %")
        #expect(records.first { $0.goal.nutrient.key == "sodium" }?.daysMet == 0, "2500 mg is over the 2300 mg Daily Value")
    }

    @Test func storageTextRoundTripsAndBadTargetsNameTheirField() throws {
        let targets = NutrientTargets(
            protein: .grams(150), carbohydrate: .percentOfEnergy(40), fat: nil,
            limits: ["sodium": NutrientLimit(maximum: 2000)])
        #expect(targets.storageText == #"{"protein":{"grams":150},"carbohydrate":{"percent":40},"nutrients":{"sodium":{"max":2000}}}"#)
        #expect(NutrientTargets(storageText: targets.storageText) == targets)
        for (target, field) in [
            (NutrientTargets(protein: .grams(-1)), "protein"),
            (NutrientTargets(fat: .gramsPerKilogram(1)), "fat"),
            (NutrientTargets(protein: .percentOfEnergy(50), carbohydrate: .percentOfEnergy(40), fat: .percentOfEnergy(30)), "fat"),
            (NutrientTargets(limits: ["sodium": NutrientLimit(minimum: 3000, maximum: 2000)]), "nutrients.sodium.max"),
            (NutrientTargets(limits: ["unobtainium": NutrientLimit(minimum: 1)]), "nutrients.unobtainium"),
            (NutrientTargets(limits: ["protein": NutrientLimit(minimum: 1)]), "nutrients.protein"),
        ] {
            #expect(throws: CinnError.self) { try target.validated() }
            do { _ = try target.validated() } catch { #expect(error.field == field, "\(error)") }
        }
        #expect(throws: CinnError.invalid("protein", "unknown kind \"pounds\"; use grams, percent or per_kg")) {
            try NutrientTargets(json: .object(["protein": .object(["pounds": .number(1)])]))
        }
    }
}
