import Foundation

/// The weigh-ins as The Hacker's Diet's log shows them: each with the trend of its day, the change from the weigh-in
/// before it, and how far the trend moved in the week to its day.
public struct WeightLogRow: Sendable, Hashable {
    public var weighIn: WeighIn
    /// The trend of the weigh-in's day.
    public var trend: Mass?
    /// This weigh-in minus the one before it; nil for the first.
    public var change: Mass?
    /// The trend of its day minus the trend seven days earlier; nil within the first week.
    public var weekTrendChange: Mass?

    /// Rows for `weighIns` (newest first, as the list shows them); `before` is the weigh-in just older than the last of
    /// them, when there is one (the previous page's boundary).
    public static func rows(_ weighIns: [WeighIn], before: WeighIn?, trend: WeightTrend) -> [WeightLogRow] {
        weighIns.enumerated().map { index, weighIn in
            let older = index + 1 < weighIns.count ? weighIns[index + 1] : before
            let day = weighIn.localDate
            let today = trend.points(from: day, to: day).first?.trend
            let weekAgo = trend.points(from: day.adding(days: -7), to: day.adding(days: -7)).first?.trend
            return WeightLogRow(
                weighIn: weighIn, trend: today,
                change: older.map { Mass(kilograms: weighIn.weight.kilograms - $0.weight.kilograms) },
                weekTrendChange: today.flatMap { now in weekAgo.map { Mass(kilograms: now.kilograms - $0.kilograms) } })
        }
    }
}

/// One calendar month of the trend, as the Hacker's Diet's monthly log sheet: every day with the weight (or the
/// interpolated value), the trend, and the day's variance from it; and how far the trend moved over the month.
public struct WeightLogMonth: Sendable, Hashable {
    public struct Day: Sendable, Hashable {
        public var point: TrendPoint
        /// The day's weight minus its trend (the noise the trend strips away); nil on a day without a weigh-in.
        public var variance: Mass?
    }

    public var year: Int
    public var month: Int
    /// The month's days that lie between the first and last weigh-in, in order.
    public var days: [Day]
    /// The trend on the last day of the previous month (or the first day with one, or the first day of a series that
    /// started in the month: a change is never read across a gap the trend does not bridge), and on the month's last day.
    public var trendStart: Mass?
    public var trendEnd: Mass?

    /// The trend's change over the month: end minus start; nil without both.
    public var trendChange: Mass? {
        trendStart.flatMap { start in trendEnd.map { Mass(kilograms: $0.kilograms - start.kilograms) } }
    }

    /// The change per week over the month's days.
    public var weeklyRate: Mass? {
        guard let change = trendChange, let first = days.last(where: \.point.startsSeries)?.point.date ?? days.first?.point.date,
            let last = days.last?.point.date
        else { return nil }
        let span = first.distance(to: last) + (trendStartIsPreviousMonth ? 1 : 0)
        return span > 0 ? Mass(kilograms: change.kilograms / Double(span) * 7) : nil
    }

    /// Whether `trendStart` is the previous month's last day (rather than this month's first).
    var trendStartIsPreviousMonth: Bool

    public init(trend: WeightTrend, year: Int, month: Int) {
        self.year = year
        self.month = month
        let first = LocalDate(year: year, month: month, day: 1) ?? LocalDate(dayNumber: 0)
        let next = month == 12 ? LocalDate(year: year + 1, month: 1, day: 1) : LocalDate(year: year, month: month + 1, day: 1)
        let last = (next ?? first).adding(days: -1)
        days = trend.points(from: first, to: last).map { point in
            Day(point: point, variance: point.measured.map { Mass(kilograms: $0.kilograms - point.trend.kilograms) })
        }
        let seriesStart = days.last(where: \.point.startsSeries)?.point
        let before = seriesStart == nil ? trend.points(from: first.adding(days: -1), to: first.adding(days: -1)).first : nil
        trendStartIsPreviousMonth = before != nil
        trendStart = before?.trend ?? seriesStart?.trend ?? days.first?.point.trend
        trendEnd = days.last?.point.trend
    }
}
