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
        let start = min(max(goal.setOn, first), last)
        let end = min(asOf, last)
        guard start <= end else { return .outside }
        let goalKilograms = goal.weight.kilograms
        let band = Self.maintenanceBand.kilograms
        var side = (points[first.distance(to: start)].trend.kilograms - goalKilograms).sign
        var inBand = points[first.distance(to: start)].trend.kilograms == goalKilograms
        for point in points[first.distance(to: start)...first.distance(to: end)] {
            let difference = point.trend.kilograms - goalKilograms
            if !inBand && (difference == 0 || difference.sign != side) { inBand = true }
            if inBand && abs(difference) > band { inBand = false }
            if difference != 0 { side = difference.sign }
        }
        return inBand ? .inBand : .outside
    }

    /// "Can I nom nom?" as of `asOf`.
    ///
    /// The rule, in order:
    /// 1. `unknown` without a goal, or with fewer than 4 days with a weigh-in among the 7 days
    ///    ending on `asOf`.
    /// 2. `yes` when the trend is in the maintenance band around the goal (see `maintenanceState`).
    /// 3. `yes` when the current rate moves the trend towards the goal at least as fast as the
    ///    planned rate; without a planned rate, when it moves towards the goal at all.
    /// 4. `no` otherwise: too slow, flat, or moving away.
    public func verdict(goal: Goal?, asOf: LocalDate, unit: MassUnit) -> Verdict {
        guard let goal else { return Verdict(.unknown, "Set a goal weight to get an answer.") }
        let weighedDays = weighInDays(endingOn: asOf, days: 7)
        guard weighedDays >= Self.verdictMinimumWeighInDays,
              let current = latest(onOrBefore: asOf), let rate = rate(asOf: asOf) else {
            return Verdict(.unknown, "Weigh in on at least 4 of the last 7 days to get an answer (\(weighedDays) so far).")
        }
        let goalText = goal.weight.formatted(in: unit)
        if maintenanceState(goal: goal, asOf: asOf) == .inBand {
            return Verdict(.yes, "Your trend is within \(Self.maintenanceBand.formatted(in: unit)) of your \(goalText) goal: enjoy it.")
        }
        let towards = (goal.weight.kilograms - current.trend.kilograms).sign == .minus ? -1.0 : 1.0
        let speedTowards = rate.kilogramsPerWeek * towards
        let rateText = Mass(kilograms: abs(rate.kilogramsPerWeek)).formatted(in: unit, decimals: unit.displayDecimals + 1)
        let direction = rate.kilogramsPerWeek < 0 ? "losing" : "gaining"
        if let planned = goal.plannedRate {
            let planText = planned.formatted(in: unit, decimals: unit.displayDecimals + 1)
            if speedTowards >= planned.kilograms {
                return Verdict(.yes, "You are \(direction) \(rateText) a week, on or ahead of your \(planText) plan.")
            }
        } else if speedTowards > 0 {
            return Verdict(.yes, "You are \(direction) \(rateText) a week, towards your \(goalText) goal.")
        }
        if speedTowards == 0 {
            return Verdict(.no, "Your trend is flat; your goal is \(goalText).")
        }
        if speedTowards < 0 {
            return Verdict(.no, "You are \(direction) \(rateText) a week, away from your \(goalText) goal.")
        }
        let planText = goal.plannedRate.map { $0.formatted(in: unit, decimals: unit.displayDecimals + 1) } ?? ""
        return Verdict(.no, "You are \(direction) \(rateText) a week, behind your \(planText) plan.")
    }
}
