// The weight engine over a century of data: what `GET /api/v1/trend`, `cinn trend` and the
// dashboard compute on every read (trends are never stored).
//
// Input: 36,500 days with a weigh-in (~10% of calendar days have none, so the trend line spans
// about 40,500 days — 111 years — and ~4,000 days are interpolated), in date order as
// `Store.dailyWeights` returns them; a goal set on the first day (so the maintenance band's
// hysteresis scans the whole century, the worst case) with a planned rate.
//
// Target (the weight journal's speed targets): trend + rate + forecast + verdict under 2 ms;
// fourmilab's published Hacker's Diet implementation takes 180 ms for this.
import Benchmark
import BenchmarkData
import CinnCore

/// The benchmark's input, built once per process.
struct Century: Sendable {
    static let weighInDays = 36_500
    /// 2026-06-30, fixed so runs are comparable.
    static let endDay = CivilCalendar.days(fromCivil: 2026, 6, 30)

    let days: [DailyWeight]
    let goal: Goal
    let asOf: LocalDate
    let calendarDays: Int

    init() {
        let series = WeightSeries(weighInDays: Self.weighInDays, endDay: Self.endDay, seed: 42)
        var random = SeriesRandom(seed: 7)
        days = series.days.map {
            DailyWeight(date: LocalDate(dayNumber: $0.dayNumber),
                        weight: Mass(kilograms: scaleReading($0.bodyKilograms, hourOfDay: 7, random: &random)))
        }
        asOf = LocalDate(dayNumber: Self.endDay)
        calendarDays = days[0].date.distance(to: asOf) + 1
        goal = Goal(weight: Mass(kilograms: (series.finalKilograms - 6).rounded()), plannedRate: Mass(kilograms: 0.25),
                    setOn: days[0].date)
    }

    /// Everything a trend read computes.
    func report(method: TrendMethod, unit: MassUnit = .kilograms) -> TrendReport {
        let trend = WeightTrend(days: days, method: method, displayUnit: unit)
        return TrendReport(trend: trend, goal: goal, from: nil, to: asOf, range: .all, displayUnit: unit)
    }
}

let benchmarks: @Sendable () -> Void = {
    let century = Century()
    // (No CPU time: the OS reports it in 10 ms ticks, too coarse for a sub-millisecond benchmark.)
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .mallocBytesCount, .throughput, .peakMemoryResident]
    let fast = Benchmark.Configuration(metrics: metrics, timeUnits: .microseconds, warmupIterations: 10,
                                       maxDuration: .seconds(5), maxIterations: 2_000)
    let slow = Benchmark.Configuration(metrics: metrics, timeUnits: .milliseconds, warmupIterations: 3,
                                       maxDuration: .seconds(10), maxIterations: 200)

    // Sanity check, once: the full verdict path runs and the numbers are what the data says.
    let check = century.report(method: .exact)
    precondition(century.days.count == Century.weighInDays)
    precondition(check.verdict.answer != .unknown && check.forecast != nil && check.rate != nil,
                 "the benchmark data should give a verdict and a forecast: \(check.verdict)")
    precondition(check.days.count == century.calendarDays)

    // The target: trend (interpolation + smoothing) + rate + forecast + verdict, exact method.
    Benchmark("Trend report, 36,500 weigh-ins, exact", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(century.report(method: .exact))
        }
    }

    // The pencil-and-paper method: every increment rounded in `Decimal` arithmetic.
    Benchmark("Trend report, 36,500 weigh-ins, pencil (kg)", configuration: slow) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(century.report(method: .pencil, unit: .kilograms))
        }
    }

    Benchmark("Trend report, 36,500 weigh-ins, pencil (lb)", configuration: slow) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(century.report(method: .pencil, unit: .pounds))
        }
    }

    // Where the time goes: the trend line alone, then rate + forecast + verdict alone.
    Benchmark("WeightTrend(days:) alone, exact", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(WeightTrend(days: century.days, method: .exact))
        }
    }

    let trend = WeightTrend(days: century.days, method: .exact)
    Benchmark("Rate + forecast + verdict alone (TrendReport over a built trend)", configuration: fast) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(TrendReport(trend: trend, goal: century.goal, from: nil, to: century.asOf, range: .all,
                                  displayUnit: .kilograms))
        }
    }
}
