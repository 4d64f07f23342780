import Foundation

/// The views of the trend: the 7, 30, 91 or 365 days ending on a day, or everything.
public enum TrendRange: String, Sendable, CaseIterable, Codable {
    case week, month, quarter, year, all

    public var days: Int? {
        switch self {
        case .week: 7
        case .month: 30
        case .quarter: 91
        case .year: 365
        case .all: nil
        }
    }

    public static func parse(_ text: String, field: String = "range") throws -> TrendRange {
        guard let range = TrendRange(rawValue: text.lowercased()) else {
            throw CinnError.invalid(field, "unknown range \"\(text)\"; use week, month, quarter, year or all")
        }
        return range
    }
}

/// Everything the dashboard, `cinn trend` and `GET /api/v1/trend` show: the days of a period and
/// the summary as of its last day.
public struct TrendReport: Sendable {
    public var from: LocalDate?
    public var to: LocalDate
    /// Every day of `from...to` that lies between the first and last weigh-in.
    public var days: ArraySlice<TrendPoint>
    /// The trend's rate, or a young series' (`WeightTrend.answerRate`); nil when not sure yet.
    public var rate: MassRate?
    /// Days of a series younger than the rate's window (`WeightTrend.settling`); nil once settled.
    public var settlingDays: Int?
    public var forecast: LocalDate?
    public var verdict: Verdict
    public var goal: Goal?

    public var energyBalancePerDay: Energy? { rate?.energyBalancePerDay }

    /// - Parameters:
    ///   - trend: the whole trend.
    ///   - from: first day shown; nil means from `range` (or from the first weigh-in for `.all`).
    ///   - to: the as-of day (today unless asked otherwise).
    public init(
        trend: WeightTrend, goal: Goal?, from: LocalDate?, to: LocalDate, range: TrendRange = .all,
        displayUnit: MassUnit
    ) {
        let start = from ?? range.days.map { to.adding(days: -($0 - 1)) }
        self.from = start
        self.to = to
        self.goal = goal
        self.days = trend.points(from: start ?? trend.firstDate ?? to, to: to)
        self.rate = trend.answerRate(asOf: to)
        settlingDays = trend.settling(asOf: to)?.days
        self.forecast = goal.flatMap { trend.forecast(goal: $0, asOf: to) }
        self.verdict = trend.verdict(goal: goal, asOf: to, unit: displayUnit)
    }

    /// The latest trend point on or before the as-of day, within the shown days.
    public var latest: TrendPoint? { days.last }
}
