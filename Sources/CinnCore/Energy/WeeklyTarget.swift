import Foundation

/// The expenditure a calorie target starts from ("calories to maintain"), by the rule its basis sets.
///
/// - Following the formula, it is today's formula: it moves with the trend and the profile, day by day.
/// - Following the data (the adaptive basis), once an adaptive estimate has qualified by the end of last week, it is the
///   best estimate (the inverse-variance blend of that estimate and the formula) as of the Sunday before this week. So
///   it moves on Mondays only, at most once a week. Until an estimate qualifies it is today's formula.
public struct TargetExpenditure: Sendable, Hashable {
    public enum Source: String, Sendable, Hashable {
        /// Today's formula.
        case formula
        /// The best estimate as of `asOf`, the end of last week.
        case bestEstimate = "best_estimate"
    }

    public var kcal: Double
    public var source: Source
    /// The day the expenditure is as of: today for the formula, the Sunday before this week for the best estimate.
    public var asOf: LocalDate

    public init(kcal: Double, source: Source, asOf: LocalDate) {
        self.kcal = kcal
        self.source = source
        self.asOf = asOf
    }

    /// - Parameters:
    ///   - today: the estimate as of the day asked for.
    ///   - endOfLastWeek: the estimate as of the Sunday before that day's week.
    public static func choose(
        basis: TargetBasis, today: ExpenditureEstimate, endOfLastWeek: ExpenditureEstimate,
        asOf: LocalDate, weekEnd: LocalDate
    ) -> TargetExpenditure? {
        if basis == .adaptive, endOfLastWeek.adaptive != nil, let blended = endOfLastWeek.blendedKcal {
            return TargetExpenditure(kcal: blended, source: .bestEstimate, asOf: weekEnd)
        }
        return today.formula.map { TargetExpenditure(kcal: $0.expenditureKcal, source: .formula, asOf: asOf) }
    }
}

/// A calorie target following the data moved this week, and why: "Your target moved from 1815 to 1760 kcal: your last 3
/// weeks say you burn less than the formula."
public struct TargetChange: Sendable, Hashable {
    public var fromKcal: Double
    public var toKcal: Double
    /// The Monday it moved on.
    public var since: LocalDate
    public var reason: String

    /// Smaller moves are the trend's lag and rounding, not news: the target takes them without a word.
    public static let minimumKcal = 10.0

    public init(fromKcal: Double, toKcal: Double, since: LocalDate, reason: String) {
        self.fromKcal = fromKcal
        self.toKcal = toKcal
        self.since = since
        self.reason = reason
    }

    /// The change between last week's expenditure and this week's, as targets (both with today's goal and floor, so the
    /// move is the data's alone). Nil unless this week's is a best estimate (the formula moves with the weight every
    /// day, and says so), or when it moved less than `minimumKcal`.
    /// - Parameters:
    ///   - formulaKcal: the formula as of the end of last week, what a first best estimate is compared with.
    ///   - target: turns an expenditure into a target.
    public static func between(
        lastWeek: TargetExpenditure?, thisWeek: TargetExpenditure?, formulaKcal: Double?, since: LocalDate,
        windowDays: Int, target: (Double) -> Double?
    ) -> TargetChange? {
        guard let lastWeek, let thisWeek, thisWeek.source == .bestEstimate,
            let from = target(lastWeek.kcal), let to = target(thisWeek.kcal), abs(to - from) >= minimumKcal
        else { return nil }
        let weeks = windowDays % 7 == 0 ? "\(windowDays / 7) weeks" : "\(windowDays) days"
        let reason =
            switch lastWeek.source {
            case .formula:
                "your last \(weeks) say you burn \(thisWeek.kcal < (formulaKcal ?? lastWeek.kcal) ? "less" : "more") than the formula"
            case .bestEstimate: "the estimate from your last \(weeks) went \(to < from ? "down" : "up") with last week's data"
            }
        return TargetChange(fromKcal: from, toKcal: to, since: since, reason: reason)
    }

    /// "Your target moved from 1815 to 1760 kcal: your last 3 weeks say you burn less than the formula."
    public func message(in unit: EnergyUnit) -> String {
        "Your target moved from \((unit.value(kilocalories: fromKcal)).wholeText) to \(unit.format(kilocalories: toKcal)): \(reason)."
    }
}
