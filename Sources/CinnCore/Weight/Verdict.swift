import Foundation

/// The answer to "Can I nom nom?".
public struct Verdict: Sendable, Hashable {
    public enum Answer: String, Sendable, Codable {
        case yes, no, unknown
    }

    public var answer: Answer
    /// One line that says why, in the person's display unit.
    public var reason: String

    public init(_ answer: Answer, _ reason: String) {
        self.answer = answer
        self.reason = reason
    }
}

/// Whether the trend has arrived at the goal.
public enum MaintenanceState: Sendable, Hashable {
    /// The trend crossed the goal since it was set and has stayed within the band since.
    case inBand
    /// Still heading for the goal, or left the band after reaching it.
    case outside
}

extension WeightTrend {
    /// Half-width of the maintenance band around the goal.
    public static let maintenanceBand = Mass(kilograms: 1)
    /// Days with a weigh-in needed among the last 7 for any verdict.
    public static let verdictMinimumWeighInDays = 4

    /// The maintenance band with hysteresis: starting on the day the goal was set (or the first
    /// weigh-in, if later), you enter the band by crossing the goal (or landing on it) and stay in
    /// it while the trend is within ±1 kg of the goal; once outside you must cross the goal again.
    public func maintenanceState(goal: Goal, asOf: LocalDate) -> MaintenanceState {
        guard let first = firstDate, let last = lastDate else { return .outside }
        let days = points(from: min(max(goal.setOn, first), last), to: min(asOf, last))
        guard let start = days.first else { return .outside }
        let goalKilograms = goal.weight.kilograms
        let band = Self.maintenanceBand.kilograms
        var side = (start.trend.kilograms - goalKilograms).sign
        var inBand = start.trend.kilograms == goalKilograms
        for point in days {
            let difference = point.trend.kilograms - goalKilograms
            if !inBand && (difference == 0 || difference.sign != side) { inBand = true }
            if inBand && abs(difference) > band { inBand = false }
            if difference != 0 { side = difference.sign }
        }
        return inBand ? .inBand : .outside
    }

    /// Where the trend stands against the goal as of `asOf`.
    ///
    /// The rule, in order:
    /// 1. `noGoal`; `tooFewWeighIns` with fewer than 4 days with a weigh-in among the 7 days
    ///    ending on `asOf`; `settling` in a young series whose weigh-ins show no clear direction yet (`settling`; a
    ///    clear one is read from the line through its weigh-ins, not from the trend).
    /// 2. `inBand` when the trend is in the maintenance band around the goal (see `maintenanceState`).
    /// 3. `onPlan` when the current rate moves the trend towards the goal at least as fast as the
    ///    planned rate, less `planTolerance` of it; without a planned rate, when it moves towards the goal at all.
    /// 4. `flat` at zero rate, `away` when moving away from the goal, `behindPlan` when too slow.
    public func standing(goal: Goal?, asOf: LocalDate) -> TrendStanding {
        guard let goal else { return .noGoal }
        let weighedDays = weighInDays(endingOn: asOf, days: 7)
        guard weighedDays >= Self.verdictMinimumWeighInDays, let current = latest(onOrBefore: asOf) else {
            return .tooFewWeighIns(weighedDays)
        }
        let rate: MassRate
        if let settling = settling(asOf: asOf) {
            guard let fitted = settling.rate else { return .settling(settling.days) }
            rate = fitted
        } else {
            guard let trendRate = self.rate(asOf: asOf) else { return .tooFewWeighIns(weighedDays) }
            rate = trendRate
        }
        if maintenanceState(goal: goal, asOf: asOf) == .inBand { return .inBand }
        let towards = (goal.weight.kilograms - current.trend.kilograms).sign == .minus ? -1.0 : 1.0
        let speedTowards = rate.kilogramsPerWeek * towards
        if speedTowards == 0 { return .flat }
        if speedTowards < 0 { return .away(rate) }
        if speedTowards >= (goal.plannedRate?.kilograms ?? 0) * (1 - Self.planTolerance) { return .onPlan(rate) }
        return .behindPlan(rate)
    }

    /// How far short of the planned rate still counts as on plan: a fifth of it (0.40 kg a week of a 0.50 plan). A
    /// week's rate of the trend moves by about that much with the day-to-day swings of water and food alone, so a
    /// shortfall within it says nothing about the plan.
    public static let planTolerance = 0.2

    /// "Can I nom nom?" as of `asOf`: `yes` in the band or on plan, `unknown` without a goal or
    /// enough weigh-ins, `no` otherwise (see `standing`).
    public func verdict(goal: Goal?, asOf: LocalDate, unit: MassUnit) -> Verdict {
        Self.verdict(for: standing(goal: goal, asOf: asOf), goal: goal, unit: unit)
    }

    /// The verdict and its reason for a standing already worked out for `goal`.
    public static func verdict(for standing: TrendStanding, goal: Goal?, unit: MassUnit) -> Verdict {
        guard let goal else { return Verdict(.unknown, "Set a goal weight to get an answer.") }
        let goalText = goal.weight.formatted(in: unit)
        func rateText(_ rate: MassRate) -> String {
            let direction = rate.kilogramsPerWeek < 0 ? "losing" : "gaining"
            return "\(direction) \(Mass(kilograms: abs(rate.kilogramsPerWeek)).formatted(in: unit, decimals: unit.displayDecimals + 1))"
        }
        let planText = goal.plannedRate.map { $0.formatted(in: unit, decimals: unit.displayDecimals + 1) } ?? ""
        switch standing {
        case .noGoal:
            return Verdict(.unknown, "Set a goal weight to get an answer.")
        case .tooFewWeighIns(let days):
            return Verdict(.unknown, "Weigh in on at least 4 of the last 7 days to get an answer (\(days) so far).")
        case .settling(let days):
            return Verdict(
                .unknown,
                "Not sure yet: your trend is \(days) day\(days == 1 ? "" : "s") old, and your weigh-ins do not show "
                    + "a clear direction yet. Keep weighing in; in \(Self.rateWindowDays - days) more day\(Self.rateWindowDays - days == 1 ? "" : "s") it settles."
            )
        case .inBand:
            return Verdict(.yes, "Your trend is within \(Self.maintenanceBand.formatted(in: unit)) of your \(goalText) goal: enjoy it.")
        case .onPlan(let rate):
            guard let planned = goal.plannedRate else {
                return Verdict(.yes, "You are \(rateText(rate)) a week, towards your \(goalText) goal.")
            }
            return abs(rate.kilogramsPerWeek) < planned.kilograms
                ? Verdict(.yes, "You are \(rateText(rate)) a week, close to your \(planText) plan.")
                : Verdict(.yes, "You are \(rateText(rate)) a week, on or ahead of your \(planText) plan.")
        case .flat:
            return Verdict(.no, "Your trend is flat; your goal is \(goalText).")
        case .away(let rate):
            return Verdict(.no, "You are \(rateText(rate)) a week, away from your \(goalText) goal.")
        case .behindPlan(let rate):
            return Verdict(.no, "You are \(rateText(rate)) a week, behind your \(planText) plan.")
        }
    }
}

/// Where the trend stands against the goal.
public enum TrendStanding: Sendable, Hashable {
    case noGoal
    /// Days with a weigh-in among the last 7, fewer than 4.
    case tooFewWeighIns(Int)
    /// A young series (its days so far) whose weigh-ins show no clear direction: not sure yet.
    case settling(Int)
    case inBand
    case onPlan(MassRate)
    case behindPlan(MassRate)
    case flat
    case away(MassRate)

    /// True when the trend is where the person wants it.
    public var isGood: Bool {
        switch self {
        case .inBand, .onPlan: true
        default: false
        }
    }
}
