import Foundation

/// Whether a day's food log is finished. Only complete days count towards the adaptive estimate.
public enum DayStatus: String, Sendable, Codable, CaseIterable {
    case complete, partial

    public static func parse(_ text: String, field: String = "status") throws -> DayStatus {
        guard let status = DayStatus(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) else {
            throw CinnError.invalid(field, "unknown day status \"\(text)\"; use complete or partial")
        }
        return status
    }

    /// The intake of the days marked complete, from the kcal of every logged day; a complete day
    /// without entries ate nothing.
    public static func completeDayIntake(_ intakeKcal: [LocalDate: Double], statuses: [LocalDate: DayStatus]) -> [LocalDate: Double] {
        var result: [LocalDate: Double] = [:]
        for (day, status) in statuses where status == .complete { result[day] = intakeKcal[day] ?? 0 }
        return result
    }
}

/// Real expenditure measured from what was eaten and what the trend did over a trailing window:
/// expenditure ≈ mean intake of the complete days − trend change × 7700 kcal/kg ÷ days.
public struct AdaptiveExpenditure: Sendable, Hashable {
    /// The last day of the window.
    public var asOf: LocalDate
    public var windowDays: Int
    public var completeDays: Int
    public var meanIntakeKcal: Double
    /// Trend on the last day of the window minus the trend on the day before it began.
    public var trendChange: Mass
    public var estimateKcal: Double
    /// One standard deviation of the estimate, from the spread of intake and the noise of the weigh-ins.
    public var uncertaintyKcal: Double

    public static let defaultWindowDays = 21
    public static let windowRange = 14...56
    /// Complete days needed in each 7-day block of the window.
    public static let minimumCompleteDaysPerWeek = 4
    /// How far back a held estimate is looked for.
    public static let holdLookbackDays = 365
    /// z for the shown range: about 95 % of outcomes.
    public static let rangeZ = 1.96

    /// The estimate's ~95 % range.
    public var range: ClosedRange<Double> {
        (estimateKcal - Self.rangeZ * uncertaintyKcal)...(estimateKcal + Self.rangeZ * uncertaintyKcal)
    }

    /// Checks a window length.
    public static func validWindow(_ days: Int, field: String = "window") throws -> Int {
        guard windowRange.contains(days) else { throw CinnError.invalid(field, "the window must be 14 to 56 days") }
        return days
    }

    /// The estimate for the window of `windowDays` ending on `asOf`, or why there is none.
    ///
    /// The window is cut into 7-day blocks counted back from `asOf` (days left over join the
    /// earliest block); each block needs 4 complete days in 7 and a weigh-in. The trend must exist on the day
    /// before the window.
    ///
    /// Uncertainty: the standard error of the mean intake (sample SD ÷ √n) combined with the error
    /// of the trend change. The trend is an exponential moving average with α = 0.1, whose noise
    /// variance is α ÷ (2 − α) of the weigh-ins' noise; a change is the difference of two such values,
    /// so its SD is √(2α ÷ (2 − α)) ≈ 0.324 × the SD of the weigh-ins about their least-squares line
    /// over the window (about the line, not the trend, whose lag is not noise).
    public static func estimate(
        trend: WeightTrend, completeDayIntakeKcal intake: [LocalDate: Double],
        asOf: LocalDate, windowDays: Int = defaultWindowDays
    ) -> Result<AdaptiveExpenditure, Shortfall> {
        let start = asOf.adding(days: -(windowDays - 1))
        // The window and the day before it in one series: a trend that started again after a gap has no change across it.
        guard let first = trend.seriesStart(onOrBefore: asOf), first < start else {
            return .failure(.trendTooShort(needed: windowDays + 1))
        }
        guard let last = trend.lastDate, last >= start else { return .failure(.noWeighIn(from: start, to: asOf)) }
        let blockCount = max(1, windowDays / 7)
        for block in 0..<blockCount {
            let blockEnd = asOf.adding(days: -7 * block)
            let blockStart = block == blockCount - 1 ? start : blockEnd.adding(days: -6)
            let days = blockStart.distance(to: blockEnd) + 1
            let complete = (0..<days).reduce(0) { $0 + (intake[blockStart.adding(days: $1)] != nil ? 1 : 0) }
            let needed = (minimumCompleteDaysPerWeek * days + 6) / 7
            if complete < needed {
                return .failure(.tooFewCompleteDays(from: blockStart, to: blockEnd, complete: complete, needed: needed))
            }
            if trend.weighInDays(endingOn: blockEnd, days: days) == 0 { return .failure(.noWeighIn(from: blockStart, to: blockEnd)) }
        }
        guard let before = trend.latest(onOrBefore: start.adding(days: -1)), let end = trend.latest(onOrBefore: asOf) else {
            return .failure(.trendTooShort(needed: windowDays + 1))
        }
        let span = Double(before.date.distance(to: end.date))
        let intakes = (0..<windowDays).compactMap { intake[start.adding(days: $0)] }
        let n = Double(intakes.count)
        let mean = intakes.reduce(0, +) / n
        let change = end.trend.kilograms - before.trend.kilograms
        let estimate = mean - change * Energy.kilocaloriesPerKilogramOfBodyWeight / span
        let intakeVariance = n > 1 ? intakes.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1) : 0
        let weighIns = trend.points(from: start, to: asOf).compactMap { point in
            point.measured.map { (x: Double(start.distance(to: point.date)), y: $0.kilograms) }
        }
        let weightSD = LinearFit(weighIns)?.residualStandardDeviation ?? 0
        let changeSD = (2 * 0.1 / (2 - 0.1)).squareRoot() * weightSD
        let changeEnergySD = changeSD * Energy.kilocaloriesPerKilogramOfBodyWeight / span
        let uncertainty = (intakeVariance / n + changeEnergySD * changeEnergySD).squareRoot()
        return .success(
            AdaptiveExpenditure(
                asOf: asOf, windowDays: windowDays, completeDays: intakes.count,
                meanIntakeKcal: mean, trendChange: Mass(kilograms: change),
                estimateKcal: estimate, uncertaintyKcal: uncertainty))
    }

    /// Why a window has no estimate.
    public enum Shortfall: Error, Sendable, Hashable {
        case trendTooShort(needed: Int)
        case tooFewCompleteDays(from: LocalDate, to: LocalDate, complete: Int, needed: Int)
        case noWeighIn(from: LocalDate, to: LocalDate)

        public var message: String {
            switch self {
            case .trendTooShort(let needed):
                "The trend needs \(needed) days of weigh-ins before the adaptive estimate starts."
            case .tooFewCompleteDays(let from, let to, let complete, let needed):
                "\(complete) complete \(complete == 1 ? "day" : "days") from \(from) to \(to); mark at least \(needed) days complete in each week."
            case .noWeighIn(let from, let to):
                "No weigh-in from \(from) to \(to); weigh in at least once a week."
            }
        }
    }
}

/// Both expenditure estimates side by side, and the blend of them Cinn trusts.
public struct ExpenditureEstimate: Sendable, Hashable {
    public var formula: FormulaExpenditure?
    /// The latest adaptive estimate: the current window's, or the last one held.
    public var adaptive: AdaptiveExpenditure?
    /// Why the current window has no estimate (nil when `adaptive` is current).
    public var shortfall: AdaptiveExpenditure.Shortfall?
    /// Inverse-variance blend of the two; the adaptive estimate's share grows as its data firms up.
    public var blendedKcal: Double?
    public var blendedUncertaintyKcal: Double?
    /// The adaptive estimate's weight in the blend, 0 to 1.
    public var adaptiveWeight: Double

    /// True when the adaptive estimate comes from an earlier window than the one asked for.
    public var isHeld: Bool { shortfall != nil && adaptive != nil }

    /// Finds the adaptive estimate as of `asOf` (or the latest valid one within a year before it)
    /// and blends it with `formula` by inverse variance: w = σf² ÷ (σf² + σa²).
    public init(
        formula: FormulaExpenditure?, trend: WeightTrend, completeDayIntakeKcal intake: [LocalDate: Double],
        asOf: LocalDate, windowDays: Int = AdaptiveExpenditure.defaultWindowDays
    ) {
        self.formula = formula
        var adaptive: AdaptiveExpenditure?
        var shortfall: AdaptiveExpenditure.Shortfall?
        switch AdaptiveExpenditure.estimate(trend: trend, completeDayIntakeKcal: intake, asOf: asOf, windowDays: windowDays) {
        case .success(let value):
            adaptive = value
        case .failure(let reason):
            shortfall = reason
            let earliest = max(
                asOf.adding(days: -AdaptiveExpenditure.holdLookbackDays),
                (trend.firstDate ?? asOf).adding(days: windowDays))
            var day = asOf.adding(days: -1)
            while adaptive == nil, day >= earliest {
                adaptive = try? AdaptiveExpenditure.estimate(
                    trend: trend, completeDayIntakeKcal: intake, asOf: day,
                    windowDays: windowDays
                ).get()
                day = day.adding(days: -1)
            }
        }
        self.adaptive = adaptive
        self.shortfall = shortfall
        switch (formula, adaptive) {
        case let (formula?, adaptive?):
            let formulaVariance = formula.uncertaintyKcal * formula.uncertaintyKcal
            let adaptiveVariance = max(adaptive.uncertaintyKcal * adaptive.uncertaintyKcal, 1)
            adaptiveWeight = formulaVariance / (formulaVariance + adaptiveVariance)
            blendedKcal = adaptiveWeight * adaptive.estimateKcal + (1 - adaptiveWeight) * formula.expenditureKcal
            blendedUncertaintyKcal = (1 / (1 / formulaVariance + 1 / adaptiveVariance)).squareRoot()
        case let (formula?, nil):
            adaptiveWeight = 0
            blendedKcal = formula.expenditureKcal
            blendedUncertaintyKcal = formula.uncertaintyKcal
        case let (nil, adaptive?):
            adaptiveWeight = 1
            blendedKcal = adaptive.estimateKcal
            blendedUncertaintyKcal = adaptive.uncertaintyKcal
        case (nil, nil):
            adaptiveWeight = 0
        }
    }

    /// The expenditure the target follows: the formula's, or the blend.
    public func expenditureKcal(basis: TargetBasis) -> Double? {
        basis == .formula ? formula?.expenditureKcal : blendedKcal
    }

    /// One standard deviation of the expenditure `basis` uses.
    public func uncertaintyKcal(basis: TargetBasis) -> Double? {
        basis == .formula ? formula?.uncertaintyKcal : blendedUncertaintyKcal
    }
}
