import Foundation

extension WeightTrend {
    /// One standard deviation of the trend's rate as of `asOf`, per week: the standard error of the
    /// least-squares slope of the weigh-ins themselves over the rate window (the smoothed trend
    /// values are not independent, so their own fit would understate it). Nil with fewer than 3 weigh-ins.
    public func rateStandardError(asOf: LocalDate) -> MassRate? {
        let window = points(from: asOf.adding(days: -(Self.rateWindowDays - 1)), to: asOf)
        guard let start = window.first?.date else { return nil }
        let samples = window.compactMap { point in point.measured.map { (x: Double(start.distance(to: point.date)), y: $0.kilograms) } }
        guard let fit = LinearFit(samples) else { return nil }
        return MassRate(kilogramsPerWeek: fit.slopeStandardError * 7)
    }
}

/// A least-squares line through points.
struct LinearFit {
    var slope: Double
    /// Sum of squared residuals about the line.
    var residualSumOfSquares: Double
    var count: Int
    var sxx: Double

    /// Nil with fewer than 3 points or all at one x.
    init?(_ samples: [(x: Double, y: Double)]) {
        guard samples.count >= 3 else { return nil }
        let n = Double(samples.count)
        let meanX = samples.reduce(0) { $0 + $1.x } / n
        let meanY = samples.reduce(0) { $0 + $1.y } / n
        var sxx = 0.0, sxy = 0.0
        for (x, y) in samples {
            sxx += (x - meanX) * (x - meanX)
            sxy += (x - meanX) * (y - meanY)
        }
        guard sxx > 0 else { return nil }
        let slope = sxy / sxx
        residualSumOfSquares = samples.reduce(0) { sum, sample in
            let error = sample.y - (meanY + slope * (sample.x - meanX))
            return sum + error * error
        }
        self.slope = slope
        self.sxx = sxx
        count = samples.count
    }

    /// The SD of the points about the line (n − 2 degrees of freedom).
    var residualStandardDeviation: Double { (residualSumOfSquares / Double(count - 2)).squareRoot() }
    var slopeStandardError: Double { residualStandardDeviation / sxx.squareRoot() }
}

/// When the trend reaches the goal at some rate, with the range the rate's uncertainty allows.
public struct GoalETA: Sendable, Hashable {
    /// Speed towards the goal (positive = towards).
    public var speedTowards: MassRate
    /// One standard deviation of that speed.
    public var speedUncertainty: MassRate
    /// The day at `speedTowards`; nil when not moving towards the goal or beyond the horizon.
    public var date: LocalDate?
    /// The day at the fastest speed in the range (speed + 1.96 σ).
    public var earliest: LocalDate?
    /// The day at the slowest speed in the range (speed − 1.96 σ); nil when that speed does not
    /// reach the goal within the horizon.
    public var latest: LocalDate?

    /// - Parameters:
    ///   - remaining: distance from the trend to the goal (always positive).
    ///   - speedTowards: positive towards the goal.
    ///   - uncertainty: one standard deviation of the speed.
    public init(remaining: Mass, speedTowards: MassRate, uncertainty: MassRate, asOf: LocalDate) {
        self.speedTowards = speedTowards
        speedUncertainty = uncertainty
        let speed = speedTowards.kilogramsPerWeek
        let spread = AdaptiveExpenditure.rangeZ * uncertainty.kilogramsPerWeek
        date = Self.arrival(remaining: remaining.kilograms, perWeek: speed, asOf: asOf)
        earliest = Self.arrival(remaining: remaining.kilograms, perWeek: speed + spread, asOf: asOf)
        latest = Self.arrival(remaining: remaining.kilograms, perWeek: speed - spread, asOf: asOf)
    }

    static func arrival(remaining: Double, perWeek: Double, asOf: LocalDate) -> LocalDate? {
        if remaining <= 0 { return asOf }
        guard perWeek > 0 else { return nil }
        let days = (remaining / (perWeek / 7)).rounded(.up)
        guard days <= Double(WeightTrend.forecastHorizonDays) else { return nil }
        return asOf.adding(days: Int(days))
    }
}

/// Time to goal at the planned rate and at the current trend rate.
public struct GoalTimeline: Sendable, Hashable {
    public var remaining: Mass
    /// Nil without a planned rate.
    public var atPlannedRate: GoalETA?
    /// Nil without a rate (fewer than 2 days of trend) or its uncertainty (fewer than 3 weigh-ins).
    public var atTrendRate: GoalETA?
    public var reached: Bool

    /// - Parameter expenditureUncertaintyKcal: one SD of the expenditure the target follows. Eating
    ///   exactly the target, the real rate differs from the plan by that error ÷ 7700 kcal/kg, × 7 a week.
    public init?(trend: WeightTrend, goal: Goal, asOf: LocalDate, expenditureUncertaintyKcal: Double?) {
        guard let current = trend.latest(onOrBefore: asOf) else { return nil }
        remaining = Mass(kilograms: abs(goal.weight.kilograms - current.trend.kilograms))
        reached = trend.maintenanceState(goal: goal, asOf: asOf) == .inBand
        if reached {
            atPlannedRate = nil
            atTrendRate = nil
            return
        }
        if let planned = goal.plannedRate {
            let sigma = (expenditureUncertaintyKcal ?? 0) * 7 / Energy.kilocaloriesPerKilogramOfBodyWeight
            atPlannedRate = GoalETA(
                remaining: remaining, speedTowards: MassRate(kilogramsPerWeek: planned.kilograms),
                uncertainty: MassRate(kilogramsPerWeek: sigma), asOf: asOf)
        }
        // A young series: the line through its weigh-ins, when clear (`WeightTrend.settling`); not sure otherwise.
        let settling = trend.settling(asOf: asOf)
        if let rate = settling.map({ $0.rate }) ?? trend.rate(asOf: asOf),
            let error = settling.map({ $0.rateError }) ?? trend.rateStandardError(asOf: asOf)
        {
            let towards = goal.weight.kilograms < current.trend.kilograms ? -1.0 : 1.0
            atTrendRate = GoalETA(
                remaining: remaining, speedTowards: MassRate(kilogramsPerWeek: rate.kilogramsPerWeek * towards),
                uncertainty: error, asOf: asOf)
        }
    }
}

/// "Can I nom nom today?": today's calorie budget and the trend in one answer.
public struct DailyAnswer: Sendable, Hashable {
    public enum Answer: String, Sendable, Codable {
        case yes, careful, no, unknown
    }

    public var answer: Answer
    /// "Yes — 640 kcal left and your trend is on plan".
    public var message: String
    /// Target minus eaten, whole kcal; nil without a target.
    public var remainingKcal: Int?

    /// Below this many kcal left, the answer is at best "careful".
    public static let carefulBelowKcal = 200

    /// The rule, on the remaining kcal rounded to a whole number (r):
    /// 1. without a target: the trend alone (yes when on plan or in the band, no when behind, flat
    ///    or moving away, unknown otherwise);
    /// 2. r < 0: no ("300 kcal over");
    /// 3. r < 200: careful ("120 kcal left");
    /// 4. the trend behind plan, flat or moving away from the goal: careful;
    /// 5. too few weigh-ins for a trend: not sure;
    /// 6. otherwise yes.
    /// `withoutTarget`: what would give a calorie target (a profile; with one, a weigh-in).
    public init(
        remainingKcal: Double?, standing: TrendStanding, energyUnit: EnergyUnit,
        withoutTarget: String = "set up your profile for a daily calorie budget"
    ) {
        let trendClause: String? =
            switch standing {
            case .inBand: "your trend is at your goal"
            case .onPlan: "your trend is on plan"
            case .behindPlan: "the trend is behind plan"
            case .flat: "the trend is flat"
            case .away(let rate): rate.kilogramsPerWeek > 0 ? "the trend is rising" : "the trend is falling"
            case .noGoal, .tooFewWeighIns, .settling: nil
            }
        let trendIsBad = !standing.isGood && trendClause != nil
        guard let remainingKcal else {
            self.remainingKcal = nil
            let clause = trendClause ?? "no calorie target yet"
            let answer: Answer = standing.isGood ? .yes : (trendIsBad ? .no : .unknown)
            let title =
                switch answer {
                case .yes: "Yes"
                case .no: "No"
                case .careful, .unknown: "Not sure"
                }
            message = "\(title) — \(clause); \(withoutTarget)"
            self.answer = answer
            return
        }
        let r = remainingKcal.roundedInt ?? 0
        self.remainingKcal = r
        let left = energyUnit.format(kilocalories: Double(abs(r)))
        if r < 0 {
            answer = .no
            let tail = trendClause.map { trendIsBad ? " and \($0)" : ", though \($0)" } ?? ""
            message = "No — \(left) over\(tail)"
        } else if r < Self.carefulBelowKcal {
            answer = .careful
            message = "Careful — \(left) left" + (trendIsBad ? " and \(trendClause!)" : "")
        } else if trendIsBad {
            answer = .careful
            message = "Careful — \(left) left, but \(trendClause!)"
        } else if case .tooFewWeighIns = standing {
            // The trend line under the answer says it does not know yet; the answer does not say yes over it.
            answer = .unknown
            message = "Not sure — \(left) left, but the trend needs a few more weigh-ins"
        } else if case .settling = standing {
            answer = .unknown
            message = "Not sure — \(left) left, but the trend is too young to say where it goes"
        } else {
            answer = .yes
            message = "Yes — \(left) left" + (trendClause.map { " and \($0)" } ?? "")
        }
    }
}

/// A week's summary: what was eaten, what the trend did, and how close the days came to the target.
public struct WeeklyCheckIn: Sendable, Hashable {
    public var start: LocalDate
    public var end: LocalDate
    /// Days with at least one food entry.
    public var daysLogged: Int
    public var completeDays: Int
    /// Mean intake of the complete days; nil without any.
    public var meanIntakeKcal: Double?
    /// Trend on the last day minus the trend on the day before the week; nil without a trend then.
    public var trendChange: Mass?
    public var expenditureKcal: Double?
    public var targetKcal: Double?
    /// Complete days within ±10 % of the target.
    public var daysOnTarget: Int?

    public static let onTargetTolerance = 0.10

    /// - Parameters:
    ///   - loggedDays: every day with a food entry (complete or not) and its kcal.
    ///   - completeDays: the days marked complete.
    public init(
        start: LocalDate, loggedDays: [LocalDate: Double], completeDays: Set<LocalDate>, trend: WeightTrend,
        expenditureKcal: Double?, targetKcal: Double?
    ) {
        self.start = start
        end = start.adding(days: 6)
        let days = (0..<7).map { start.adding(days: $0) }
        daysLogged = days.filter { loggedDays[$0] != nil }.count
        let complete = days.filter { completeDays.contains($0) }.map { loggedDays[$0] ?? 0 }
        self.completeDays = complete.count
        meanIntakeKcal = complete.isEmpty ? nil : complete.reduce(0, +) / Double(complete.count)
        let before = trend.points(from: start.adding(days: -1), to: start.adding(days: -1)).first
        let last = trend.points(from: start, to: end).last
        // Not across a gap the trend does not bridge: the trend started again after it.
        let sameSeries =
            last.flatMap { trend.seriesStart(onOrBefore: $0.date) }.map { start in before.map { start <= $0.date } ?? false } ?? false
        trendChange =
            sameSeries ? before.flatMap { before in last.map { Mass(kilograms: $0.trend.kilograms - before.trend.kilograms) } } : nil
        self.expenditureKcal = expenditureKcal
        self.targetKcal = targetKcal
        daysOnTarget = targetKcal.map { target in
            complete.filter { abs($0 - target) <= target * Self.onTargetTolerance }.count
        }
    }
}
