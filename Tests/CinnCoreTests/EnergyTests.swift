import CinnCore
import Foundation
import Testing

@Suite struct ProfileTests {
    @Test func fiveFeetElevenRoundTrips() throws {
        let height = Height(feet: 5, inches: 11)
        #expect(height.centimetres.isClose(to: 180.34))
        #expect(height.feetAndInches() == (5, 11))
        #expect(height.formatted(in: .feetAndInches) == "5 ft 11 in")
        #expect(height.formatted(in: .centimetres) == "180.3 cm")
        for text in ["5 ft 11 in", "5'11\"", "5ft11", "5′11″", "71 in", "180.34 cm", "1.8034 m"] {
            #expect(try Height.parse(text).centimetres.isClose(to: 180.34, within: 1e-9), "\(text)")
        }
        #expect(try Height.parse(height.formatted(in: .feetAndInches)) == height)
        #expect(try Height.parse("71", unit: .feetAndInches).centimetres.isClose(to: 180.34))
        #expect(try Height.parse("180").centimetres == 180)
        #expect(Height(centimetres: 180).formatted(in: .feetAndInches) == "5 ft 10.9 in")
    }

    @Test func heightsOutsideHumanRangeNameTheField() {
        for text in ["99", "251 cm", "9 ft", "abc", "5 ft 13 in", ""] {
            expectInvalid("height") { _ = try Height.parse(text) }
        }
    }

    @Test func ageCountsWholeYearsAndLeapBirthdays() throws {
        let profile = Profile(sex: .female, birthDate: day("2000-02-29"), height: Height(centimetres: 165), activity: .light)
        #expect(profile.age(on: day("2026-02-28")) == 25)
        #expect(profile.age(on: day("2026-03-01")) == 26)
        #expect(profile.age(on: day("2028-02-29")) == 28)
        #expect(try Profile.validatedBirthDate(day("2013-11-21"), today: day("2026-11-21")) == day("2013-11-21"))
        expectInvalid("birth_date") { _ = try Profile.validatedBirthDate(day("2013-11-22"), today: day("2026-11-21")) }
        expectInvalid("birth_date") { _ = try Profile.validatedBirthDate(day("1905-01-01"), today: day("2026-11-21")) }
        expectInvalid("birth_date") { _ = try Profile.validatedBirthDate(day("2027-01-01"), today: day("2026-11-21")) }
    }

    @Test func parsesActivitySexAndUnits() throws {
        #expect(try ActivityLevel.parse("very_active") == .veryActive)
        #expect(try ActivityLevel.parse("Moderately active") == .moderate)
        expectInvalid("activity") { _ = try ActivityLevel.parse("couch") }
        #expect(try Sex.parse("F") == .female)
        #expect(try LengthUnit.parse("ft-in") == .feetAndInches)
        expectInvalid("body_fat_percent") { _ = try BodyFatReading.validatedFraction(percent: 80) }
        #expect(try BodyFatReading.validatedFraction(percent: 22) == 0.22)
    }
}

@Suite struct EnergyEquationTests {
    // calculatorlib.com, "Mifflin-St Jeor BMR Calculator", worked example: a 30-year-old man,
    // 70 kg, 175 cm: 700 + 1093.75 − 150 + 5 = 1648.75 kcal/day; TDEE table 1.2 … 1.9.
    @Test func mifflinStJeorMan() {
        let bmr = RestingEnergy.mifflinStJeorKcal(weight: Mass(kilograms: 70), height: Height(centimetres: 175), ageYears: 30, sex: .male)
        #expect(bmr == 1648.75)
        let profile = Profile(sex: .male, birthDate: day("1996-01-01"), height: Height(centimetres: 175), activity: .moderate)
        let formula = FormulaExpenditure(profile: profile, weight: Mass(kilograms: 70), bodyFat: nil, on: day("2026-06-01"))
        #expect(formula.equation == .mifflinStJeor)
        #expect(formula.restingKcal == 1648.75)
        #expect(formula.expenditureKcal.isClose(to: 2555.5625))
        #expect(ActivityLevel.allCases.map { Int((1648.75 * $0.factor).rounded()) } == [1979, 2267, 2556, 2844, 3133])
    }

    // qaicalculator.com, "Calorie Calculator", example 1: a 28-year-old woman, 65 kg, 165 cm:
    // 650 + 1031.25 − 140 − 161 = 1380.25 kcal/day.
    @Test func mifflinStJeorWoman() {
        #expect(
            RestingEnergy.mifflinStJeorKcal(weight: Mass(kilograms: 65), height: Height(centimetres: 165), ageYears: 28, sex: .female)
                == 1380.25)
    }

    // math.andyou.com §10.1 ex. 27: 160 lb at 25 % body fat → 120 lb lean → 1546 kcal/day.
    // weight-loss-i.com: lean mass 47.7 kg → 370 + 21.6 × 47.7 = 1400 kcal; moderately active × 1.55 = 2170.
    @Test func katchMcArdleWorkedExamples() {
        #expect(Int(RestingEnergy.katchMcArdleKcal(leanMass: Mass(120, .pounds)).rounded()) == 1546)
        let bmr = RestingEnergy.katchMcArdleKcal(leanMass: Mass(kilograms: 47.7))
        #expect(bmr.isClose(to: 1400.32))
        #expect(Int(bmr * ActivityLevel.moderate.factor) == 2170)
    }

    @Test func katchMcArdleOnlyWithARecentBodyFatValue() {
        let profile = Profile(sex: .male, birthDate: day("1996-01-01"), height: Height(centimetres: 175), activity: .sedentary)
        let reading = BodyFatReading(measuredAt: Date(timeIntervalSince1970: 1_780_000_000), utcOffsetSeconds: 0, fraction: 0.25)
        let measured = reading.localDate
        let recent = FormulaExpenditure(profile: profile, weight: Mass(160, .pounds), bodyFat: reading, on: measured.adding(days: 30))
        #expect(recent.equation == .katchMcArdle)
        #expect(Int(recent.restingKcal.rounded()) == 1546)
        let stale = FormulaExpenditure(profile: profile, weight: Mass(160, .pounds), bodyFat: reading, on: measured.adding(days: 31))
        #expect(stale.equation == .mifflinStJeor)
        let future = FormulaExpenditure(profile: profile, weight: Mass(160, .pounds), bodyFat: reading, on: measured.adding(days: -1))
        #expect(future.equation == .mifflinStJeor)
    }
}

@Suite struct EnergyTargetTests {
    let goalBelow = Goal(weight: Mass(kilograms: 70), plannedRate: Mass(kilograms: 0.5), setOn: day("2026-01-01"))

    @Test func deficitFromThePlannedRate() throws {
        let target = try #require(
            EnergyTarget.compute(
                manualKcal: nil, expenditureKcal: 2500, sex: .male, goal: goalBelow,
                trend: Mass(kilograms: 80), inMaintenanceBand: false, floorKcal: nil))
        #expect(target.kcal == 1950)
        #expect(target.adjustmentKcal == -550)
        #expect(target.maintenanceKcal == 2500)
        #expect(!target.floored)
    }

    @Test func surplusWhenTheGoalIsAbove() throws {
        let target = try #require(
            EnergyTarget.compute(
                manualKcal: nil, expenditureKcal: 2500, sex: .male, goal: goalBelow,
                trend: Mass(kilograms: 65), inMaintenanceBand: false, floorKcal: nil))
        #expect(target.kcal == 3050)
    }

    @Test func maintenanceInTheBandWithoutAPlanOrTrend() throws {
        for (goal, trend, band) in [
            (goalBelow, Mass(kilograms: 70.5), true),
            (Goal(weight: Mass(kilograms: 70), setOn: day("2026-01-01")), Mass(kilograms: 80), false),
            (goalBelow, nil, false), (nil, Mass(kilograms: 80), false),
        ] {
            let target = try #require(
                EnergyTarget.compute(
                    manualKcal: nil, expenditureKcal: 2300, sex: .female, goal: goal, trend: trend,
                    inMaintenanceBand: band, floorKcal: nil))
            #expect(target.kcal == 2300)
        }
    }

    @Test func floorsForWomenAndMenAndTheUsersOwn() throws {
        let fast = Goal(weight: Mass(kilograms: 60), plannedRate: Mass(kilograms: 1), setOn: day("2026-01-01"))
        func target(_ sex: Sex, floor: Double?) throws -> EnergyTarget {
            try #require(
                EnergyTarget.compute(
                    manualKcal: nil, expenditureKcal: 1800, sex: sex, goal: fast, trend: Mass(kilograms: 70),
                    inMaintenanceBand: false, floorKcal: floor))
        }
        #expect(try target(.female, floor: nil).kcal == 1200)
        #expect(try target(.female, floor: nil).floored)
        #expect(try target(.male, floor: nil).kcal == 1500)
        #expect(try target(.female, floor: 800).kcal == 800)
        #expect(try target(.female, floor: 800).floored)
        expectInvalid("energy_floor_kcal") { _ = try EnergyTarget.validFloor(700) }
    }

    @Test func manualAlwaysOverrides() throws {
        let target = try #require(
            EnergyTarget.compute(
                manualKcal: 1000, expenditureKcal: 2500, sex: .male, goal: goalBelow,
                trend: Mass(kilograms: 80), inMaintenanceBand: false, floorKcal: nil))
        #expect(target.kcal == 1000)
        #expect(target.source == .manual)
        #expect(
            EnergyTarget.compute(
                manualKcal: nil, expenditureKcal: nil, sex: .male, goal: nil, trend: nil,
                inMaintenanceBand: false, floorKcal: nil) == nil)
    }
}

@Suite struct AdaptiveExpenditureTests {
    let end = day("2026-03-31")

    /// 70 days of daily weigh-ins losing `perWeek` kg a week in a straight line, plus `noise`.
    func trend(perWeek: Double = -0.5, noise: [Double] = [0], skip: Set<Int> = []) -> WeightTrend {
        let start = end.adding(days: -69)
        let weights = (0..<70).compactMap { index -> DailyWeight? in
            if skip.contains(index) { return nil }
            return DailyWeight(
                date: start.adding(days: index),
                weight: Mass(kilograms: 90 + perWeek / 7 * Double(index) + noise[index % noise.count]))
        }
        return WeightTrend(days: weights)
    }

    func intake(_ kcal: (Int) -> Double?, days: Int = 70) -> [LocalDate: Double] {
        var result: [LocalDate: Double] = [:]
        for offset in 0..<days { if let value = kcal(offset) { result[end.adding(days: -offset)] = value } }
        return result
    }

    @Test func steadyLossGivesIntakePlusTheDeficit() throws {
        // Eating 2000 kcal and losing 0.5 kg a week: expenditure = 2000 + 0.5 × 7700 / 7 = 2550.
        let estimate = try AdaptiveExpenditure.estimate(trend: trend(), completeDayIntakeKcal: intake { _ in 2000 }, asOf: end).get()
        #expect(estimate.meanIntakeKcal == 2000)
        #expect(estimate.completeDays == 21)
        // The trend still carries 0.9^49 of its start-up lag: 0.004 kg, 1.4 kcal.
        #expect(estimate.estimateKcal.isClose(to: 2550, within: 2))
        #expect(estimate.trendChange.kilograms.isClose(to: -1.5, within: 0.01))
        #expect(estimate.uncertaintyKcal.isClose(to: 0, within: 1e-6))
    }

    @Test func partialAndUnmarkedDaysAreLeftOut() throws {
        // Complete days alternate 1800 and 2200; the rest are not in the map.
        let days = intake { $0 % 7 < 4 ? ($0 % 2 == 0 ? 1800 : 2200) : nil }
        let estimate = try AdaptiveExpenditure.estimate(trend: trend(perWeek: 0), completeDayIntakeKcal: days, asOf: end).get()
        #expect(estimate.completeDays == 12)
        #expect(estimate.meanIntakeKcal.isClose(to: 2000))
        #expect(estimate.uncertaintyKcal > 50)
        #expect(estimate.range.lowerBound < 2000 && estimate.range.upperBound > 2000)
    }

    @Test func needsFourCompleteDaysInEveryWeek() {
        let days = intake { $0 < 7 ? ($0 < 3 ? 2000 : nil) : 2000 }
        let result = AdaptiveExpenditure.estimate(trend: trend(), completeDayIntakeKcal: days, asOf: end)
        #expect(result == .failure(.tooFewCompleteDays(from: end.adding(days: -6), to: end, complete: 3, needed: 4)))
    }

    @Test func needsAWeighInEveryWeek() {
        let gap = Set(56...62)
        let result = AdaptiveExpenditure.estimate(trend: trend(skip: gap), completeDayIntakeKcal: intake { _ in 2000 }, asOf: end)
        #expect(result == .failure(.noWeighIn(from: end.adding(days: -13), to: end.adding(days: -7))))
        let short = AdaptiveExpenditure.estimate(trend: trend(), completeDayIntakeKcal: intake { _ in 2000 }, asOf: end.adding(days: -50))
        #expect(short == .failure(.trendTooShort(needed: 22)))
    }

    @Test func holdsTheLastEstimateAndSaysWhy() throws {
        // The last week has only 2 complete days: the latest window that qualifies ends 4 days earlier, and is held.
        let days = intake { $0 < 7 ? ($0 < 2 ? 2000 : nil) : 2000 }
        let profile = Profile(sex: .male, birthDate: day("1990-01-01"), height: Height(centimetres: 180), activity: .light)
        let shape = trend()
        let formula = FormulaExpenditure(profile: profile, weight: shape.points.last!.trend, bodyFat: nil, on: end)
        let estimate = ExpenditureEstimate(formula: formula, trend: shape, completeDayIntakeKcal: days, asOf: end)
        #expect(estimate.isHeld)
        let held = try #require(estimate.adaptive)
        #expect(held.asOf == end.adding(days: -4))
        #expect(estimate.shortfall?.message.contains("mark at least 4 days complete") == true)
    }

    @Test func blendsByInverseVariance() throws {
        let noise = [0.4, -0.3, 0.1, -0.5, 0.6, 0.0, -0.2, 0.3, -0.4]
        let days = intake { $0 % 3 == 0 ? 2300 : 1900 }
        let shape = trend(noise: noise)
        let profile = Profile(sex: .male, birthDate: day("1990-01-01"), height: Height(centimetres: 180), activity: .light)
        let formula = FormulaExpenditure(profile: profile, weight: shape.points.last!.trend, bodyFat: nil, on: end)
        let estimate = ExpenditureEstimate(formula: formula, trend: shape, completeDayIntakeKcal: days, asOf: end)
        let adaptive = try #require(estimate.adaptive)
        let blended = try #require(estimate.blendedKcal)
        let sf = formula.uncertaintyKcal, sa = adaptive.uncertaintyKcal
        #expect(estimate.adaptiveWeight.isClose(to: sf * sf / (sf * sf + sa * sa)))
        #expect(
            blended.isClose(to: estimate.adaptiveWeight * adaptive.estimateKcal + (1 - estimate.adaptiveWeight) * formula.expenditureKcal))
        #expect(try #require(estimate.blendedUncertaintyKcal) < min(sf, sa))
        #expect(estimate.expenditureKcal(basis: .formula) == formula.expenditureKcal)
        #expect(estimate.expenditureKcal(basis: .adaptive) == blended)
    }
}

@Suite struct GoalTimelineTests {
    @Test func arrivalAtARateWithItsRange() throws {
        let eta = GoalETA(
            remaining: Mass(kilograms: 5), speedTowards: MassRate(kilogramsPerWeek: 0.5), uncertainty: MassRate(kilogramsPerWeek: 0.1),
            asOf: day("2026-01-01"))
        #expect(eta.date == day("2026-01-01").adding(days: 70))
        #expect(eta.earliest == day("2026-01-01").adding(days: Int((5 / ((0.5 + 0.196) / 7)).rounded(.up))))
        #expect(eta.latest == day("2026-01-01").adding(days: Int((5 / ((0.5 - 0.196) / 7)).rounded(.up))))
        let unsure = GoalETA(
            remaining: Mass(kilograms: 5), speedTowards: MassRate(kilogramsPerWeek: 0.1), uncertainty: MassRate(kilogramsPerWeek: 0.2),
            asOf: day("2026-01-01"))
        #expect(unsure.latest == nil)
        #expect(unsure.date == day("2026-01-01").adding(days: 350))
    }

    @Test func plannedAndTrendRates() throws {
        let weights = (0..<28).map {
            DailyWeight(
                date: day("2026-01-01").adding(days: $0),
                weight: Mass(kilograms: 80 - 0.1 * Double($0) + ($0 % 2 == 0 ? 0.2 : -0.2)))
        }
        let trend = WeightTrend(days: weights)
        let goal = Goal(weight: Mass(kilograms: 70), plannedRate: Mass(kilograms: 0.5), setOn: day("2026-01-01"))
        let timeline = try #require(GoalTimeline(trend: trend, goal: goal, asOf: day("2026-01-28"), expenditureUncertaintyKcal: 250))
        let planned = try #require(timeline.atPlannedRate)
        #expect(planned.speedUncertainty.kilogramsPerWeek.isClose(to: 250 * 7 / 7700))
        let current = try #require(timeline.atTrendRate)
        #expect(current.speedTowards.kilogramsPerWeek > 0.5)
        #expect(current.speedUncertainty.kilogramsPerWeek > 0)
        #expect(current.earliest! <= current.date! && current.date! <= current.latest!)
        #expect(!timeline.reached)
    }
}

@Suite struct DailyAnswerTests {
    let rising = TrendStanding.away(MassRate(kilogramsPerWeek: 0.3))

    func answer(_ remaining: Double?, _ standing: TrendStanding, _ unit: EnergyUnit = .kilocalories) -> DailyAnswer {
        DailyAnswer(remainingKcal: remaining, standing: standing, energyUnit: unit)
    }

    @Test func theIssuesExamples() {
        #expect(answer(640, .onPlan(MassRate(kilogramsPerWeek: -0.5))).message == "Yes — 640 kcal left and your trend is on plan")
        #expect(answer(120, .onPlan(MassRate(kilogramsPerWeek: -0.5))).message == "Careful — 120 kcal left")
        #expect(answer(-300, rising).message == "No — 300 kcal over and the trend is rising")
    }

    @Test func edgesAreOnTheRoundedNumber() {
        let onPlan = TrendStanding.onPlan(MassRate(kilogramsPerWeek: -0.5))
        #expect(answer(200, onPlan).answer == .yes)
        #expect(answer(199.5, onPlan).answer == .yes)
        #expect(answer(199.4, onPlan).answer == .careful)
        #expect(answer(0, onPlan).message == "Careful — 0 kcal left")
        #expect(answer(-0.4, onPlan).answer == .careful)
        #expect(answer(-0.5, onPlan).message == "No — 1 kcal over, though your trend is on plan")
        #expect(answer(-0.5, onPlan).remainingKcal == -1)
    }

    @Test func aBadTrendMakesPlentyCareful() {
        #expect(
            answer(800, .behindPlan(MassRate(kilogramsPerWeek: -0.1))).message == "Careful — 800 kcal left, but the trend is behind plan")
        #expect(answer(800, .flat).answer == .careful)
        #expect(answer(100, rising).message == "Careful — 100 kcal left and the trend is rising")
        #expect(answer(500, .inBand).message == "Yes — 500 kcal left and your trend is at your goal")
        #expect(answer(500, .tooFewWeighIns(2)).message == "Not sure — 500 kcal left, but the trend needs a few more weigh-ins")
        #expect(answer(500, .tooFewWeighIns(2)).answer == .unknown, "a new journal's answer is not yes while its trend does not know")
        #expect(answer(100, .tooFewWeighIns(2)).answer == .careful)
        #expect(answer(500, .noGoal).answer == .yes)
    }

    @Test func withoutATargetTheTrendDecides() {
        #expect(answer(nil, .inBand).answer == .yes)
        #expect(answer(nil, rising).answer == .no)
        #expect(answer(nil, .noGoal).answer == .unknown)
        #expect(answer(nil, .noGoal).message.contains("set up your profile"))
        #expect(
            DailyAnswer(
                remainingKcal: nil, standing: .noGoal, energyUnit: .kilocalories,
                withoutTarget: "add your weight for a daily calorie budget"
            )
            .message == "Not sure — no calorie target yet; add your weight for a daily calorie budget")
    }

    @Test func whatIsLeftIsTheDifferenceOfTheShownNumbers() {
        #expect(EnergyUnit.kilocalories.remaining(targetKcal: 1815, eatenKcal: 378.5) == 1436)
        #expect(EnergyUnit.kilocalories.remaining(targetKcal: 1815.4, eatenKcal: 1815.6) == -1)
        // 1815 kcal = 7594.0 kJ, 378.5 kcal = 1583.6 kJ: 7594 − 1584.
        #expect(EnergyUnit.kilojoules.remaining(targetKcal: 1815, eatenKcal: 378.5) == 6010)
    }

    @Test func kilojoules() {
        #expect(answer(640, .inBand, .kilojoules).message == "Yes — 2678 kJ left and your trend is at your goal")
    }
}

@Suite struct WeeklyCheckInTests {
    @Test func summarisesAWeek() throws {
        let monday = day("2026-03-02")
        let weights = (0..<21).map { DailyWeight(date: monday.adding(days: $0 - 14), weight: Mass(kilograms: 80 - 0.05 * Double($0))) }
        let trend = WeightTrend(days: weights)
        var logged: [LocalDate: Double] = [:]
        for (offset, kcal) in [(0, 1900.0), (1, 2100), (2, 2500), (3, 1700), (5, 800)] { logged[monday.adding(days: offset)] = kcal }
        let complete: Set<LocalDate> = [monday, monday.adding(days: 1), monday.adding(days: 2), monday.adding(days: 3)]
        let week = WeeklyCheckIn(
            start: monday, loggedDays: logged, completeDays: complete, trend: trend, expenditureKcal: 2400, targetKcal: 2000)
        #expect(week.daysLogged == 5)
        #expect(week.completeDays == 4)
        #expect(week.meanIntakeKcal == 2050)
        #expect(week.daysOnTarget == 2)
        let before = trend.points.first { $0.date == monday.adding(days: -1) }!.trend.kilograms
        #expect(try #require(week.trendChange).kilograms.isClose(to: trend.points.last!.trend.kilograms - before))
    }
}
