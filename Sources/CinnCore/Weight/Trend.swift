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

    public init(date: LocalDate, measured: Mass?, value: Mass, trend: Mass) {
        self.date = date
        self.measured = measured
        self.value = value
        self.trend = trend
    }

    /// True on a day without a weigh-in; its value was filled in, never stored.
    public var interpolated: Bool { measured == nil }
}

/// The Hacker's Diet trend over every day from the first weigh-in to the last.
///
/// - Days without a weigh-in get a value by linear interpolation between the neighbouring
///   weigh-in days (the origin document's interpolator) and are flagged `interpolated`.
/// - The trend is an exponentially smoothed moving average with smoothing 0.1: the first day's
///   trend is its weight; then `T = T' + (W − T') / 10`.
/// - `.pencil` rounds each increment to one decimal in the display unit, half away from zero, in exact
///   decimal arithmetic (fourmilab's pencil-and-paper rule: −0.17 → −0.2).
///
/// Trends are computed on read and never stored.
public struct WeightTrend: Sendable {
    public let points: [TrendPoint]

    /// - Parameters:
    ///   - days: daily means, in any order, one per date.
    ///   - method: exact or pencil-and-paper.
    ///   - displayUnit: the unit the pencil method rounds in.
    public init(days: [DailyWeight], method: TrendMethod = .exact, displayUnit: MassUnit = .kilograms) {
        let sorted = days.sorted { $0.date < $1.date }
        guard let first = sorted.first, let last = sorted.last else {
            points = []
            return
        }
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
            points.append(TrendPoint(date: first.date.adding(days: index), measured: measured[index] ? value : nil,
                                     value: value, trend: Mass(kilograms: trends[index])))
        }
        self.points = points
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

    /// The latest point on or before `date`.
    public func latest(onOrBefore date: LocalDate) -> TrendPoint? {
        guard let first = firstDate, date >= first else { return nil }
        return points[min(first.distance(to: date), points.count - 1)]
    }

    /// The points of the days in `from...to` that lie between the first and last weigh-in.
    public func points(from: LocalDate, to: LocalDate) -> ArraySlice<TrendPoint> {
        guard let first = firstDate, from <= to else { return [] }
        let lower = max(0, first.distance(to: from))
        let upper = min(points.count - 1, first.distance(to: to))
        guard lower <= upper else { return [] }
        return points[lower...upper]
    }

    /// Days with at least one weigh-in among the `days` days ending on `asOf`.
    public func weighInDays(endingOn asOf: LocalDate, days: Int) -> Int {
        points(from: asOf.adding(days: -(days - 1)), to: asOf).reduce(0) { $0 + ($1.interpolated ? 0 : 1) }
    }
}

extension WeightTrend {
    /// Days the rate is fitted over.
    public static let rateWindowDays = 14

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
    public func forecast(goal: Goal, asOf: LocalDate) -> LocalDate? {
        guard let current = latest(onOrBefore: asOf) else { return nil }
        if maintenanceState(goal: goal, asOf: asOf) == .inBand { return asOf }
        guard let rate = rate(asOf: asOf), rate.kilogramsPerWeek != 0 else { return nil }
        let remaining = goal.weight.kilograms - current.trend.kilograms
        let perDay = rate.kilogramsPerWeek / 7
        guard remaining * perDay > 0 else { return remaining == 0 ? asOf : nil }
        let days = (remaining / perDay).rounded(.up)
        guard days <= Double(Self.forecastHorizonDays) else { return nil }
        return asOf.adding(days: Int(days))
    }
}
