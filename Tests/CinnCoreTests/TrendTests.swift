import CinnCore
import Foundation
import PropertyBased
import Testing

@Suite struct TrendTests {
    @Test func gapsAreFilledByLinearInterpolationAndFlagged() {
        let trend = WeightTrend(days: days("2024-03-01", [80, nil, nil, 83]))
        #expect(trend.points.map(\.value.kilograms) == [80, 81, 82, 83])
        #expect(trend.points.map(\.interpolated) == [false, true, true, false])
        #expect(trend.points[1].measured == nil)
        #expect(trend.points.map(\.date.iso) == ["2024-03-01", "2024-03-02", "2024-03-03", "2024-03-04"])
    }

    @Test func exactTrendIsTheTenPercentMovingAverage() {
        let trend = WeightTrend(days: days("2024-03-01", [80, nil, 81]))
        let values = trend.points.map(\.trend.kilograms)
        #expect(values[0] == 80)
        #expect(values[1].isClose(to: 80.05))
        #expect(values[2].isClose(to: 80.145))
    }

    /// fourmilab's pencil-and-paper worked example (docs/FORMATS.md §10.1), in pounds: a trend of 173.6,
    /// then weights 172.5, 171.5, 172.0, 171.5 give 173.5, 173.3, 173.2, 173.0.
    @Test func pencilMethodReproducesTheHackersDietWorkedExample() {
        let trend = WeightTrend(
            days: days("1990-11-01", [173.6, 172.5, 171.5, 172.0, 171.5], unit: .pounds),
            method: .pencil, displayUnit: .pounds)
        let pounds = trend.points.map { $0.trend.value(in: .pounds) }
        for (value, expected) in zip(pounds, [173.6, 173.5, 173.3, 173.2, 173.0]) {
            #expect(value.isClose(to: expected, within: 1e-9))
        }
    }

    /// Exact halves must round away from zero: +0.05 → +0.1 and −0.05 → −0.1 (binary floating point
    /// would give 0.0 for some of these).
    @Test(arguments: [
        (70.0, 70.5, 70.1), (70.0, 69.5, 69.9), (100.0, 101.5, 100.2), (100.0, 98.5, 99.8),
        (70.3, 70.8, 70.4), (70.3, 69.8, 70.2),
    ])
    func pencilMethodRoundsExactHalvesAwayFromZero(_ first: Double, _ second: Double, _ expected: Double) {
        let trend = WeightTrend(days: days("2024-01-01", [first, second]), method: .pencil, displayUnit: .kilograms)
        #expect(trend.points[1].trend.kilograms.isClose(to: expected, within: 1e-9))
    }

    /// The pencil method computes in integer millionths; a plain `Decimal` implementation of the
    /// fourmilab rule is the oracle, over long noisy series in every unit.
    @Test(arguments: MassUnit.allCases)
    func pencilMethodMatchesADecimalImplementation(_ unit: MassUnit) {
        var random = SplitMix64(seed: 7)
        var values: [Double?] = []
        var level = 80.0
        for _ in 0..<2000 {
            level += (random.nextDouble() - 0.5) * 0.2
            let reading = ((level + (random.nextDouble() - 0.5) * 2) / unit.kilogramsPerUnit * 10).rounded() / 10
            values.append(random.nextDouble() < 0.1 ? nil : reading)
        }
        let trend = WeightTrend(days: days("2020-01-01", values, unit: unit), method: .pencil, displayUnit: unit)
        let inputs = trend.points.map { Decimal(string: String(format: "%.6f", $0.value.value(in: unit)))! }
        var expected = inputs[0]
        for (index, point) in trend.points.enumerated() {
            if index > 0 {
                var step = (inputs[index] - expected) / 10
                var rounded = Decimal()
                NSDecimalRound(&rounded, &step, 1, .plain)
                expected += rounded
            }
            let oracle = NSDecimalNumber(decimal: expected).doubleValue
            #expect(point.trend.value(in: unit).isClose(to: oracle, within: 1e-9))
        }
    }

    @Test func pencilMethodRoundsInTheDisplayUnit() {
        // 0.17 kg is 0.37 lb: in kilograms the step rounds to 0.2, in pounds to 0.0 (0.037 → 0.0).
        let inKilograms = WeightTrend(days: days("2024-01-01", [80, 81.7]), method: .pencil, displayUnit: .kilograms)
        #expect(inKilograms.points[1].trend.kilograms.isClose(to: 80.2, within: 1e-9))
        let poundDays = days("2024-01-01", [176.4, 176.77], unit: .pounds)
        let inPounds = WeightTrend(days: poundDays, method: .pencil, displayUnit: .pounds)
        #expect(inPounds.points[1].trend.value(in: .pounds).isClose(to: 176.4, within: 1e-9))
    }

    @Test func emptyAndSingleDay() {
        #expect(WeightTrend(days: []).points.isEmpty)
        let one = WeightTrend(days: days("2024-01-01", [80]))
        #expect(one.points.count == 1)
        #expect(one.rate(asOf: day("2024-01-01")) == nil)
    }

    @Test func rateIsTheLeastSquaresSlopeTimesSeven() throws {
        let trend = WeightTrend(days: days("2024-03-01", [80, nil, 81]))
        // trends 80, 80.05, 80.145 at x = 0, 1, 2: slope = 0.145 / 2 per day.
        let rate = try #require(trend.rate(asOf: day("2024-03-03")))
        #expect(rate.kilogramsPerWeek.isClose(to: 0.0725 * 7))
        #expect(rate.energyBalancePerDay.kilocalories.isClose(to: 0.0725 * 7700))
    }

    @Test func rateUsesOnlyTheFourteenDaysEndingOnTheAsOfDay() throws {
        // 30 days flat, then 14 days of a straight 0.1 kg/day loss of the trend input.
        let values: [Double?] = Array(repeating: 90, count: 30) + (1...14).map { 90 - 0.1 * Double($0) }
        let trend = WeightTrend(days: days("2024-01-01", values))
        let asOf = day("2024-01-01").adding(days: 43)
        let window = trend.points.suffix(14).map(\.trend.kilograms)
        let n = Double(window.count)
        let meanX = (n - 1) / 2, meanY = window.reduce(0, +) / n
        var cov = 0.0, variance = 0.0
        for (x, y) in window.enumerated() {
            cov += (Double(x) - meanX) * (y - meanY)
            variance += (Double(x) - meanX) * (Double(x) - meanX)
        }
        let rate = try #require(trend.rate(asOf: asOf))
        #expect(rate.kilogramsPerWeek.isClose(to: cov / variance * 7))
        // As of the flat part, the rate is zero.
        #expect(trend.rate(asOf: day("2024-01-20"))!.kilogramsPerWeek.isClose(to: 0))
    }

    @Test func rateIsNilWithoutTwoDaysInTheWindow() {
        let trend = WeightTrend(days: days("2024-01-01", [80, 79]))
        #expect(trend.rate(asOf: day("2024-01-20")) == nil)
        #expect(trend.rate(asOf: day("2023-12-31")) == nil)
        #expect(trend.rate(asOf: day("2024-01-14")) != nil)
    }

    @Test func reportListsOnlyDaysBetweenFirstAndLastWeighIn() {
        let trend = WeightTrend(days: days("2024-03-10", [80, 80, 80]))
        let report = TrendReport(trend: trend, goal: nil, from: day("2024-03-01"), to: day("2024-03-20"), displayUnit: .kilograms)
        #expect(report.days.map(\.date.iso) == ["2024-03-10", "2024-03-11", "2024-03-12"])
        let week = TrendReport(trend: trend, goal: nil, from: nil, to: day("2024-03-11"), range: .week, displayUnit: .kilograms)
        #expect(week.from?.iso == "2024-03-05")
        #expect(week.days.map(\.date.iso) == ["2024-03-10", "2024-03-11"])
        #expect(TrendRange.allCases.map(\.days) == [7, 30, 91, 365, nil])
    }
}

/// A gap the trend does not bridge, and a trend too young to say where it goes (docs/FORMATS.md §10.1).
@Suite struct TrendSeriesTests {
    /// A week falling from 85.9 to 84.6 kg, with one reading of 84.4 the day before: the trend starts low and climbs to
    /// meet the others, but a young trend reads its direction from the weigh-ins, which fall.
    @Test func aYoungTrendDoesNotFlipOnOneEarlyReading() throws {
        let week = (0..<7).map { 85.9 - 1.3 / 6 * Double($0) }
        let goal = Goal(weight: Mass(kilograms: 75), setOn: day("2024-03-01"))
        let plain = WeightTrend(days: days("2024-03-02", week))
        let withEarly = WeightTrend(days: days("2024-03-01", [84.4] + week))
        let asOf = day("2024-03-08")
        #expect(try #require(withEarly.rate(asOf: asOf)).kilogramsPerWeek > 0, "the smoothed trend itself still climbs")
        // The week alone falls clearly: a young trend says so.
        let rate = try #require(plain.settling(asOf: asOf)?.rate, "the weigh-ins fall clearly")
        #expect(rate.kilogramsPerWeek < 0 && plain.standing(goal: goal, asOf: asOf).isGood)
        // With the early low reading, the weigh-ins' line is not clear of it: not sure yet, never "rising".
        #expect(withEarly.standing(goal: goal, asOf: asOf) == .settling(8))
        #expect(withEarly.verdict(goal: goal, asOf: asOf, unit: .kilograms).answer == .unknown)
        for trend in [plain, withEarly] {
            #expect(trend.forecast(goal: goal, asOf: asOf) == nil, "no goal date while settling")
            let report = TrendReport(trend: trend, goal: goal, from: nil, to: asOf, displayUnit: .kilograms)
            #expect(report.settlingDays != nil && (report.rate.map { $0.kilogramsPerWeek < 0 } ?? true))
        }
        // The line through the weigh-ins: 85.9 falling 1.3 kg in 6 days is about −1.5 kg a week.
        #expect(try #require(plain.settling(asOf: asOf)?.rate).kilogramsPerWeek.isClose(to: -1.3 / 6 * 7, within: 1e-9))
    }

    /// Noise without a direction: not sure yet, whatever the smoothed trend does.
    @Test func aYoungTrendWithoutAClearDirectionIsNotSureYet() {
        let trend = WeightTrend(days: days("2024-03-01", [80.0, 80.6, 79.7, 80.4, 79.8, 80.5, 80.0]))
        let goal = Goal(weight: Mass(kilograms: 70), setOn: day("2024-03-01"))
        let asOf = day("2024-03-07")
        #expect(trend.settling(asOf: asOf)?.rate == nil)
        #expect(trend.standing(goal: goal, asOf: asOf) == .settling(7))
        let verdict = trend.verdict(goal: goal, asOf: asOf, unit: .kilograms)
        #expect(verdict.answer == .unknown && verdict.reason.hasPrefix("Not sure yet"))
        #expect(TrendReport(trend: trend, goal: goal, from: nil, to: asOf, displayUnit: .kilograms).rate == nil)
    }

    /// From the 14th day on, the trend is settled: its own rate, exactly as before.
    @Test func aSettledTrendKeepsItsRate() {
        let values = (0..<14).map { 90 - 0.1 * Double($0) }
        let trend = WeightTrend(days: days("2024-03-01", values))
        let asOf = day("2024-03-14")
        #expect(trend.settling(asOf: asOf) == nil && trend.settling(asOf: day("2024-03-13")) != nil)
        #expect(trend.answerRate(asOf: asOf) == trend.rate(asOf: asOf))
    }

    /// One row from a year before a week of weigh-ins is a series of its own: nothing is drawn between them, and the
    /// week's answers are the week's alone.
    /// Property: over weigh-in days with gaps of every length around the longest bridged one, the series start found
    /// by binary search is the last point that starts a series on or before each day (the definition, walked).
    @Test func theSeriesStartIsTheLastStartOnOrBefore() async {
        let gap = Gen<Int>.int(in: 1...(WeightTrend.longestGapDays + 4))
        await propertyCheck(count: 200, input: gap.array(of: 0...40), Gen<Int>.int(in: -3...400)) { gaps, offset in
            var date = day("2024-01-01")
            var weights = [DailyWeight(date: date, weight: Mass(kilograms: 80))]
            for gap in gaps {
                date = date.adding(days: gap)
                weights.append(DailyWeight(date: date, weight: Mass(kilograms: 80 + Double(gap) / 10)))
            }
            let trend = WeightTrend(days: weights), asked = day("2024-01-01").adding(days: offset)
            let walked = trend.points.last { $0.date <= asked && $0.startsSeries }?.date
            #expect(trend.seriesStart(onOrBefore: asked) == walked, "\(gaps) on day \(offset)")
        }
    }

    @Test func aLongGapEndsASeries() throws {
        let week = (0..<14).map { 85.9 - 0.07 * Double($0) }
        let recent = days("2025-03-01", week)
        let alone = WeightTrend(days: recent)
        let withOld = WeightTrend(days: days("2024-03-10", [92]) + recent)
        #expect(withOld.points.count == 1 + 14, "no interpolated days across the gap")
        #expect(withOld.points.map(\.startsSeries).filter { $0 }.count == 2)
        #expect(withOld.points[1].date.iso == "2025-03-01" && withOld.points[1].trend.kilograms == 85.9, "the trend starts again")
        let asOf = day("2025-03-14")
        #expect(withOld.rate(asOf: asOf) == alone.rate(asOf: asOf))
        let goal = Goal(weight: Mass(kilograms: 80), setOn: day("2024-03-10"))
        #expect(withOld.forecast(goal: goal, asOf: asOf) == alone.forecast(goal: goal, asOf: asOf))
        #expect(
            withOld.seriesStart(onOrBefore: asOf)?.iso == "2025-03-01"
                && withOld.seriesStart(onOrBefore: day("2024-12-01"))?.iso == "2024-03-10")
        #expect(withOld.latest(onOrBefore: day("2024-12-01"))?.date.iso == "2024-03-10")
        #expect(withOld.points(from: day("2024-03-11"), to: day("2025-02-28")).isEmpty)
    }

    /// Up to 14 days without a weigh-in are bridged by a straight line; 15 are not.
    @Test func fourteenDaysAreBridgedFifteenAreNot() {
        let bridged = WeightTrend(days: days("2024-03-01", [80] + Array(repeating: nil, count: 14) + [81]))
        #expect(bridged.points.count == 16 && bridged.points.filter(\.startsSeries).count == 1)
        let broken = WeightTrend(days: days("2024-03-01", [80] + Array(repeating: nil, count: 15) + [81]))
        #expect(broken.points.count == 2 && broken.points.map(\.startsSeries) == [true, true])
        #expect(broken.points.last?.trend.kilograms == 81)
    }

    /// A week's and a month's change are not read across a break: the week's is none, the month's starts with the
    /// new series.
    @Test func changesAreNotReadAcrossABreak() {
        let trend = WeightTrend(days: days("2024-02-01", [90, 90]) + days("2024-03-10", [80, 80, 79.5]))
        let checkIn = WeeklyCheckIn(
            start: day("2024-03-10"), loggedDays: [:], completeDays: [], trend: trend,
            expenditureKcal: nil, targetKcal: nil)
        #expect(checkIn.trendChange == nil, "the day before the week is in another series")
        let month = WeightLogMonth(trend: trend, year: 2024, month: 3)
        #expect(month.trendStart?.kilograms == 80 && month.trendChange.map { $0.kilograms < 0 } == true)
    }
}

@Suite struct ForecastTests {
    /// A straight 0.5 kg/week loss of the trend, long enough for the trend to follow it.
    func losing(from start: Double, days count: Int) -> WeightTrend {
        WeightTrend(days: days("2024-01-01", (0..<count).map { start - 0.5 / 7 * Double($0) }))
    }

    @Test func forecastIsWhenTheTrendReachesTheGoalAtTheCurrentRate() throws {
        let trend = losing(from: 90, days: 120)
        let asOf = trend.lastDate!
        let current = trend.points.last!.trend.kilograms
        let rate = try #require(trend.rate(asOf: asOf)).kilogramsPerWeek
        let goal = Goal(weight: Mass(kilograms: 70), setOn: day("2024-01-01"))
        let expected = asOf.adding(days: Int(((70 - current) / (rate / 7)).rounded(.up)))
        #expect(trend.forecast(goal: goal, asOf: asOf) == expected)
    }

    @Test func noForecastWithoutMovementTowardsTheGoalOrBeyondThreeYears() {
        let trend = losing(from: 90, days: 120)
        let asOf = trend.lastDate!
        #expect(trend.forecast(goal: Goal(weight: Mass(kilograms: 95), setOn: asOf), asOf: asOf) == nil)
        #expect(trend.forecast(goal: Goal(weight: Mass(kilograms: 1), setOn: asOf), asOf: asOf) == nil)
        let flat = WeightTrend(days: days("2024-01-01", Array(repeating: 80, count: 20)))
        #expect(flat.forecast(goal: Goal(weight: Mass(kilograms: 70), setOn: day("2024-01-01")), asOf: flat.lastDate!) == nil)
    }

    @Test func forecastIsTheAsOfDayWhenTheGoalIsReached() {
        let trend = losing(from: 90, days: 120)
        let asOf = trend.lastDate!
        let goal = Goal(weight: Mass(kilograms: trend.points.last!.trend.kilograms + 0.3), setOn: day("2024-01-01"))
        #expect(trend.forecast(goal: goal, asOf: asOf) == asOf)
    }
}

@Suite struct VerdictTests {
    let asOf = day("2024-03-20")

    func trend(_ values: [Double?], start: String = "2024-03-01") -> WeightTrend {
        WeightTrend(days: days(start, values))
    }

    @Test func unknownWithoutAGoal() {
        let verdict = trend(Array(repeating: 80, count: 20)).verdict(goal: nil, asOf: asOf, unit: .kilograms)
        #expect(verdict.answer == .unknown)
    }

    @Test func unknownWithFewerThanFourWeighInDaysInTheLastSeven() {
        let goal = Goal(weight: Mass(kilograms: 70), setOn: day("2024-03-01"))
        let values: [Double?] = Array(repeating: 80, count: 13) + [nil, 79, nil, 79, nil, nil, 78]
        #expect(trend(values).weighInDays(endingOn: asOf, days: 7) == 3)
        #expect(trend(values).verdict(goal: goal, asOf: asOf, unit: .kilograms).answer == .unknown)
        let four: [Double?] = Array(repeating: 80, count: 13) + [nil, 79, nil, 79, 79, nil, 78]
        #expect(trend(four).verdict(goal: goal, asOf: asOf, unit: .kilograms).answer == .yes)
    }

    @Test func flatTrendIsNoAndOneLowerWeighInFlipsItToYes() {
        let goal = Goal(weight: Mass(kilograms: 70), setOn: day("2024-03-01"))
        let flat = trend(Array(repeating: 80, count: 13))
        let before = flat.verdict(goal: goal, asOf: day("2024-03-13"), unit: .kilograms)
        #expect(before.answer == .no)
        let after = trend(Array(repeating: 80, count: 13) + [79]).verdict(goal: goal, asOf: day("2024-03-14"), unit: .kilograms)
        #expect(after.answer == .yes)
    }

    @Test func yesWhenMovingTowardsTheGoalAtLeastAsFastAsPlanned() throws {
        let values = (0..<20).map { 90 - 0.1 * Double($0) }
        let weights = trend(values)
        let rate = try #require(weights.rate(asOf: asOf)).kilogramsPerWeek
        let slowPlan = Goal(weight: Mass(kilograms: 70), plannedRate: Mass(kilograms: -rate - 0.01), setOn: day("2024-03-01"))
        #expect(weights.verdict(goal: slowPlan, asOf: asOf, unit: .kilograms).answer == .yes)
        let exactPlan = Goal(weight: Mass(kilograms: 70), plannedRate: Mass(kilograms: -rate), setOn: day("2024-03-01"))
        #expect(weights.verdict(goal: exactPlan, asOf: asOf, unit: .kilograms).answer == .yes)
        // A little slower than planned is close to the plan, said kindly; a fifth slower or more is behind it.
        let closePlan = Goal(weight: Mass(kilograms: 70), plannedRate: Mass(kilograms: -rate / 0.81), setOn: day("2024-03-01"))
        let close = weights.verdict(goal: closePlan, asOf: asOf, unit: .kilograms)
        #expect(close.answer == .yes && close.reason.contains("close to your"), "\(close.reason)")
        let fastPlan = Goal(weight: Mass(kilograms: 70), plannedRate: Mass(kilograms: -rate / 0.79), setOn: day("2024-03-01"))
        let behind = weights.verdict(goal: fastPlan, asOf: asOf, unit: .kilograms)
        #expect(behind.answer == .no)
        #expect(behind.reason.contains("behind"))
    }

    /// The review's case: losing 0.44 kg a week against a plan of 0.50 is on plan, not behind it.
    @Test func fortyFourHundredthsAgainstAPlanOfHalfAKiloIsClose() {
        let goal = Goal(weight: Mass(kilograms: 70), plannedRate: Mass(kilograms: 0.5), setOn: day("2024-01-01"))
        let weights = trend((0..<60).map { 90 - 0.44 / 7 * Double($0) }, start: "2024-01-01")
        let standing = weights.standing(goal: goal, asOf: day("2024-02-29"))
        guard case .onPlan(let rate) = standing else {
            Issue.record("\(standing)")
            return
        }
        #expect(abs(rate.kilogramsPerWeek + 0.44) < 0.01)
        let verdict = WeightTrend.verdict(for: .onPlan(MassRate(kilogramsPerWeek: -0.44)), goal: goal, unit: .kilograms)
        #expect(
            verdict.answer == .yes && verdict.reason == "You are losing 0.44 kg a week, close to your 0.50 kg plan.", "\(verdict.reason)")
    }

    @Test func noWhenMovingAwayFromTheGoal() {
        let gaining = trend((0..<20).map { 80 + 0.1 * Double($0) })
        let goal = Goal(weight: Mass(kilograms: 70), setOn: day("2024-03-01"))
        let verdict = gaining.verdict(goal: goal, asOf: asOf, unit: .pounds)
        #expect(verdict.answer == .no)
        #expect(verdict.reason.contains("lb"))
        // A goal above the trend makes the same gain a yes.
        #expect(
            gaining.verdict(
                goal: Goal(weight: Mass(kilograms: 90), setOn: day("2024-03-01")), asOf: asOf,
                unit: .kilograms
            ).answer == .yes)
    }

    @Test func maintenanceBandIsEnteredByCrossingTheGoal() {
        // Losing from 72 down past the 70 goal, then drifting back up to 70.8 and flat: in the band.
        var values: [Double?] = (0..<30).map { 72 - 0.1 * Double($0) }
        values += Array(repeating: 70.8, count: 60)
        let weights = trend(values, start: "2024-01-01")
        let asOf = weights.lastDate!
        let goal = Goal(weight: Mass(kilograms: 70), setOn: day("2024-01-01"))
        #expect(weights.maintenanceState(goal: goal, asOf: asOf) == .inBand)
        #expect(weights.verdict(goal: goal, asOf: asOf, unit: .kilograms).answer == .yes)
        // The same flat 70.8 without ever crossing the goal is not maintenance: flat is a no.
        let never = trend(Array(repeating: 70.8, count: 60), start: "2024-01-01")
        #expect(never.maintenanceState(goal: goal, asOf: never.lastDate!) == .outside)
        #expect(never.verdict(goal: goal, asOf: never.lastDate!, unit: .kilograms).answer == .no)
    }

    @Test func leavingTheBandNeedsAnotherCrossing() {
        // Crossed the goal, then climbed more than 1 kg above it, then back to 0.8 above and flat.
        var values: [Double?] = (0..<30).map { 72 - 0.1 * Double($0) }
        values += Array(repeating: 73, count: 60)
        values += Array(repeating: 70.8, count: 60)
        let weights = trend(values, start: "2024-01-01")
        let goal = Goal(weight: Mass(kilograms: 70), setOn: day("2024-01-01"))
        #expect(weights.maintenanceState(goal: goal, asOf: weights.lastDate!) == .outside)
    }

    @Test func bandIsTrackedFromWhenTheGoalWasSet() {
        // The trend crossed 70 in January; a goal of 70 set in March, with the trend at 70.8, is not reached yet.
        var values: [Double?] = (0..<30).map { 72 - 0.1 * Double($0) }
        values += Array(repeating: 70.8, count: 60)
        let weights = trend(values, start: "2024-01-01")
        let lateGoal = Goal(weight: Mass(kilograms: 70), setOn: day("2024-03-15"))
        #expect(weights.maintenanceState(goal: lateGoal, asOf: weights.lastDate!) == .outside)
    }
}
