import Foundation

/// One calendar day of the trend line.
public struct TrendPoint: Sendable, Hashable {
    public var date: LocalDate
    /// The mean of the day's weigh-ins; nil on a day without one.
    public var measured: Mass?
    /// The weight the trend used: the measured mean, or the interpolated value on a day without one.
    public var value: Mass
    /// The smoothed trend on this day.
    public var trend: Mass
    /// The first day of a series: the first weigh-in, or the first after a gap the trend does not bridge
    /// (`WeightTrend.longestGapDays`); the trend starts again from its weight, and a chart breaks its line before it.
    public var startsSeries: Bool

    public init(date: LocalDate, measured: Mass?, value: Mass, trend: Mass, startsSeries: Bool = false) {
        self.date = date
        self.measured = measured
        self.value = value
        self.trend = trend
        self.startsSeries = startsSeries
    }

    /// True on a day without a weigh-in; its value was filled in, never stored.
    public var interpolated: Bool { measured == nil }
}

/// The Hacker's Diet trend over the days from the first weigh-in to the last, in series (docs/FORMATS.md §10.1).
///
/// - A gap of more than `longestGapDays` days without a weigh-in ends a series: the days of the gap have no points,
///   and the trend starts again from the next weigh-in. Within a series, days without a weigh-in get a value by
///   linear interpolation between the neighbouring weigh-in days (the origin document's interpolator) and are
///   flagged `interpolated`.
/// - The trend is an exponentially smoothed moving average with smoothing 0.1: a series' first day's
///   trend is its weight; then `T = T' + (W − T') / 10`.
/// - `.pencil` rounds each increment to one decimal in the display unit, half away from zero, in exact
///   decimal arithmetic (fourmilab's pencil-and-paper rule: −0.17 → −0.2).
///
/// Trends are computed on read and never stored.
public struct WeightTrend: Sendable {
    public let points: [TrendPoint]
    /// The indices of the points that start a series, ascending: `seriesStart` finds one by binary search.
    private let seriesStarts: [Int]

    /// - Parameters:
    ///   - days: daily means, in any order, one per date.
    ///   - method: exact or pencil-and-paper.
    ///   - displayUnit: the unit the pencil method rounds in.
    public init(days: [DailyWeight], method: TrendMethod = .exact, displayUnit: MassUnit = .kilograms) {
        let sorted = days.sorted { $0.date < $1.date }
        var series: [[DailyWeight]] = []
        for day in sorted {
            if let last = series.last?.last, last.date.distance(to: day.date) - 1 <= Self.longestGapDays {
                series[series.count - 1].append(day)
            } else {
                series.append([day])
            }
        }
        var points = [TrendPoint]()
        var starts = [Int]()
        for days in series {
            starts.append(points.count)
            points += Self.series(days, method: method, displayUnit: displayUnit)
        }
        self.points = points
        seriesStarts = starts
    }

    /// One series' points: every day from its first weigh-in to its last, gaps filled, the trend from its first weight.
    private static func series(_ sorted: [DailyWeight], method: TrendMethod, displayUnit: MassUnit) -> [TrendPoint] {
        guard let first = sorted.first, let last = sorted.last else { return [] }
        let count = first.date.distance(to: last.date) + 1
        var values = [Double](repeating: 0, count: count)
        var measured = [Bool](repeating: false, count: count)
        var previous: (index: Int, kilograms: Double)?
        for day in sorted {
            let index = first.date.distance(to: day.date)
            let kilograms = day.weight.kilograms
            if let previous, index - previous.index > 1 {
                let step = (kilograms - previous.kilograms) / Double(index - previous.index)
                for gap in (previous.index + 1)..<index {
                    values[gap] = previous.kilograms + step * Double(gap - previous.index)
                }
            }
            values[index] = kilograms
            measured[index] = true
            previous = (index, kilograms)
        }
        let trends: [Double]
        switch method {
        case .exact: trends = Self.exactTrend(values)
        case .pencil: trends = Self.pencilTrend(values, unit: displayUnit)
        }
        var points = [TrendPoint]()
        points.reserveCapacity(count)
        for index in 0..<count {
            let value = Mass(kilograms: values[index])
            points.append(
                TrendPoint(
                    date: first.date.adding(days: index), measured: measured[index] ? value : nil,
                    value: value, trend: Mass(kilograms: trends[index]), startsSeries: index == 0))
        }
        return points
    }

    static func exactTrend(_ values: [Double]) -> [Double] {
        var trends = [Double](repeating: 0, count: values.count)
        var trend = values[0]
        for index in values.indices {
            if index > 0 { trend += (values[index] - trend) / 10 }
            trends[index] = trend
        }
        return trends
    }

    /// The pencil-and-paper rule in exact decimal arithmetic: values are integers of millionths of the
    /// display unit (what `Decimal` with six places would do, without its cost), so exact halves
    /// round away from zero as they must; binary floating point would round some of them wrongly.
    static func pencilTrend(_ values: [Double], unit: MassUnit) -> [Double] {
        var trends = [Double](repeating: 0, count: values.count)
        var trend = millionths(values[0] / unit.kilogramsPerUnit)
        for index in values.indices {
            if index > 0 {
                // (weight − trend) / 10, rounded to 0.1 of the unit: |difference| / 1.0 rounded, in tenths.
                let difference = millionths(values[index] / unit.kilogramsPerUnit) - trend
                let tenths = (abs(difference) + 500_000) / 1_000_000
                trend += (difference < 0 ? -tenths : tenths) * 100_000
            }
            trends[index] = Double(trend) / 1_000_000 * unit.kilogramsPerUnit
        }
        return trends
    }

    /// A weight in the display unit as whole millionths, so that 171.5 lb stored as kilograms comes back
    /// as exactly 171.500000.
    static func millionths(_ value: Double) -> Int64 { Int64((value * 1_000_000).rounded()) }

    public var firstDate: LocalDate? { points.first?.date }
    public var lastDate: LocalDate? { points.last?.date }

    /// The index of the first point on or after `date` (`points.count` when there is none).
    private func firstIndex(onOrAfter date: LocalDate) -> Int {
        var low = 0, high = points.count
        while low < high {
            let middle = (low + high) / 2
            if points[middle].date < date { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The latest point on or before `date` (in a gap between series, the last day of the series before it).
    public func latest(onOrBefore date: LocalDate) -> TrendPoint? {
        let index = firstIndex(onOrAfter: date.adding(days: 1)) - 1
        return index >= 0 ? points[index] : nil
    }

    /// The points of the days in `from...to` that have one: between the first and last weigh-in, outside the gaps
    /// between series.
    public func points(from: LocalDate, to: LocalDate) -> ArraySlice<TrendPoint> {
        guard from <= to else { return [] }
        let lower = firstIndex(onOrAfter: from), upper = firstIndex(onOrAfter: to.adding(days: 1))
        return lower < upper ? points[lower..<upper] : []
    }

    /// The first day of the series that `date` is in (or that ended last before it).
    public func seriesStart(onOrBefore date: LocalDate) -> LocalDate? {
        let end = firstIndex(onOrAfter: date.adding(days: 1))
        var low = 0, high = seriesStarts.count
        while low < high {
            let middle = (low + high) / 2
            if seriesStarts[middle] < end { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? points[seriesStarts[low - 1]].date : nil
    }

    /// Days with at least one weigh-in among the `days` days ending on `asOf`.
    public func weighInDays(endingOn asOf: LocalDate, days: Int) -> Int {
        points(from: asOf.adding(days: -(days - 1)), to: asOf).reduce(0) { $0 + ($1.interpolated ? 0 : 1) }
    }
}

extension WeightTrend {
    /// Days the rate is fitted over.
    public static let rateWindowDays = 14

    /// The longest run of days without a weigh-in that the trend bridges with a straight line; a longer one ends the
    /// series. Two weeks: the rate is read from the trend of the last 14 days, so a longer bridge would make the rate
    /// the slope of a line Cinn drew, not of anything weighed (docs/FORMATS.md §10.1).
    public static let longestGapDays = 14

    /// The trend's rate of change as of `asOf`: the least-squares slope of the daily trend values
    /// of the 14 days ending on `asOf` (interpolated days included; days after the last weigh-in
    /// have no trend and are left out), × 7 per week. Nil with fewer than 2 days.
    public func rate(asOf: LocalDate) -> MassRate? {
        let window = points(from: asOf.adding(days: -(Self.rateWindowDays - 1)), to: asOf)
        guard window.count >= 2, let start = window.first?.date else { return nil }
        var sumX = 0.0, sumY = 0.0
        for point in window {
            sumX += Double(start.distance(to: point.date))
            sumY += point.trend.kilograms
        }
        let n = Double(window.count)
        let meanX = sumX / n, meanY = sumY / n
        var covariance = 0.0, variance = 0.0
        for point in window {
            let dx = Double(start.distance(to: point.date)) - meanX
            covariance += dx * (point.trend.kilograms - meanY)
            variance += dx * dx
        }
        return MassRate(kilogramsPerWeek: covariance / variance * 7)
    }

    /// The longest forecast Cinn makes.
    public static let forecastHorizonDays = 1096

    /// The day the trend reaches `goal` at the current rate, as of `asOf`.
    ///
    /// - Returns: `asOf` when the goal is already reached (the trend has crossed it since the goal
    ///   was set and stays in the maintenance band); nil without data, at zero rate, when moving
    ///   away from the goal, or when it is more than three years (1096 days) out.
    /// A young series (`settling`) has none: not sure yet.
    public func forecast(goal: Goal, asOf: LocalDate) -> LocalDate? {
        guard let current = latest(onOrBefore: asOf) else { return nil }
        if maintenanceState(goal: goal, asOf: asOf) == .inBand { return asOf }
        guard settling(asOf: asOf) == nil, let rate = rate(asOf: asOf), rate.kilogramsPerWeek != 0 else { return nil }
        let remaining = goal.weight.kilograms - current.trend.kilograms
        let perDay = rate.kilogramsPerWeek / 7
        guard remaining * perDay > 0 else { return remaining == 0 ? asOf : nil }
        let days = (remaining / perDay).rounded(.up)
        guard days <= Double(Self.forecastHorizonDays) else { return nil }
        return asOf.adding(days: Int(days))
    }
}

/// A series younger than the rate's window (`WeightTrend.rateWindowDays`): its trend still leans on its first weigh-in
/// (a start that is 1 kg off still weighs 0.9¹³ ≈ 25 % on day 14), so its direction is read from the weigh-ins
/// themselves, a least-squares line through them, and only when that line is clear of their noise.
public struct SettlingTrend: Sendable, Hashable {
    /// Days of the series up to the as-of day.
    public var days: Int
    /// The line's slope, a week's change, when it is clear (3 weigh-ins or more, its slope at least twice its standard
    /// error); nil: not sure yet.
    public var rate: MassRate?
    /// One standard error of that slope.
    public var rateError: MassRate?
}

extension WeightTrend {
    /// The series `asOf` is in when it is younger than the rate's window; nil for a settled one.
    public func settling(asOf: LocalDate) -> SettlingTrend? {
        guard let start = seriesStart(onOrBefore: asOf) else { return nil }
        let days = start.distance(to: asOf) + 1
        guard days < Self.rateWindowDays else { return nil }
        let samples = points(from: start, to: asOf).compactMap { point in
            point.measured.map { (x: Double(start.distance(to: point.date)), y: $0.kilograms) }
        }
        guard let fit = LinearFit(samples), abs(fit.slope) >= 2 * fit.slopeStandardError else {
            return SettlingTrend(days: days, rate: nil, rateError: nil)
        }
        return SettlingTrend(
            days: days, rate: MassRate(kilogramsPerWeek: fit.slope * 7),
            rateError: MassRate(kilogramsPerWeek: fit.slopeStandardError * 7))
    }

    /// The rate the answers read as of `asOf`: a settled series' trend rate (`rate`), a young one's line through its
    /// weigh-ins when that is clear (`settling`); nil when the data cannot say.
    public func answerRate(asOf: LocalDate) -> MassRate? {
        guard let settling = settling(asOf: asOf) else { return rate(asOf: asOf) }
        return settling.rate
    }
}
