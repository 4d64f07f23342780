import Foundation

/// A period's glucose at a glance, as the international consensus on CGM metrics reports it (Battelino et
/// al., Diabetes Care 2019;42:1593–1603): time in range 70–180 mg/dL, below (under 70, of which under 54)
/// and above (over 180, of which over 250), the mean, the glucose management indicator and the
/// coefficient of variation. Times are shares of readings: for a CGM's evenly spaced samples that is the
/// share of time; for finger sticks, of the readings taken.
public struct GlucoseStatistics: Sendable, Equatable {
    public var count: Int
    public var mean: Glucose?
    /// Sample standard deviation, mg/dL.
    public var standardDeviation: Double?
    /// Standard deviation ÷ mean, as a percentage; 36 % or less is stable glucose.
    public var coefficientOfVariation: Double?
    /// Shares (0–1) of readings: under 54, 54–69, 70–180, 181–250, over 250 mg/dL.
    public var veryLow: Double, low: Double, inRange: Double, high: Double, veryHigh: Double

    public var below: Double { veryLow + low }
    public var above: Double { high + veryHigh }

    /// Glucose management indicator, % (Bergenstal et al., Diabetes Care 2018;41:2275–2280): 3.31 + 0.02392 × mean mg/dL.
    public var gmiPercent: Double? { mean.map { 3.31 + 0.02392 * $0.milligramsPerDeciliter } }
    /// The same in mmol/mol: 12.71 + 4.70587 × mean mmol/L.
    public var gmiMillimolesPerMole: Double? { mean.map { 12.71 + 4.70587 * $0.value(in: .millimolesPerLiter) } }

    /// The consensus' ranges, mg/dL: level 2 low under 54, level 1 low 54–69, in range 70–180, level 1 high 181–250, level 2 high over 250.
    public static let rangeLow = 70.0, rangeHigh = 180.0, veryLowBelow = 54.0, veryHighAbove = 250.0

    public static func compute(_ values: [Glucose]) -> GlucoseStatistics {
        let mg = values.map(\.milligramsPerDeciliter)
        guard !mg.isEmpty else { return GlucoseStatistics(count: 0, veryLow: 0, low: 0, inRange: 0, high: 0, veryHigh: 0) }
        let n = Double(mg.count)
        let mean = mg.reduce(0, +) / n
        let sd = mg.count > 1 ? (mg.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)).squareRoot() : nil
        func share(_ test: (Double) -> Bool) -> Double { Double(mg.count(where: test)) / n }
        return GlucoseStatistics(
            count: mg.count, mean: Glucose(milligramsPerDeciliter: mean), standardDeviation: sd,
            coefficientOfVariation: sd.map { $0 / mean * 100 },
            veryLow: share { $0 < veryLowBelow }, low: share { $0 >= veryLowBelow && $0 < rangeLow },
            inRange: share { $0 >= rangeLow && $0 <= rangeHigh }, high: share { $0 > rangeHigh && $0 <= veryHighAbove },
            veryHigh: share { $0 > veryHighAbove })
    }
}

/// Whether a period's readings support the consensus metrics (GMI, CV and the time-in-range targets): the consensus
/// (Battelino et al., 2019) asks for 14 days of CGM data with at least 70 % of the possible readings. A CGM reads every
/// five minutes, 288 a day.
public struct GlucoseCoverage: Sendable, Equatable {
    public static let recommendedDays = 14
    public static let recommendedActiveShare = 0.70
    public static let sensorReadingsPerDay = 288.0

    /// Days in the period.
    public var days: Int
    /// Local days with at least one reading.
    public var daysWithReadings: Int
    /// Readings over what a CGM reading every five minutes would give in `days`, at most 1: how much of the period
    /// a sensor was active.
    public var activeShare: Double
    /// Readings over what a CGM would give in the days with readings (14 at least), at most 1: how fully the sensor
    /// was worn on the days the consensus counts. Fourteen days fully worn in a month of data are enough.
    public var wornShare: Double

    public init(days: Int, daysWithReadings: Int, readings: Int) {
        self.days = days
        self.daysWithReadings = daysWithReadings
        activeShare = days > 0 ? min(1, Double(readings) / (Double(days) * Self.sensorReadingsPerDay)) : 0
        wornShare = min(1, Double(readings) / (Double(max(daysWithReadings, Self.recommendedDays)) * Self.sensorReadingsPerDay))
    }

    public var isEnough: Bool { daysWithReadings >= Self.recommendedDays && wornShare >= Self.recommendedActiveShare }

    /// What is missing, said as a person reads it; nil when enough.
    public var missing: String? {
        guard !isEnough else { return nil }
        let percent = (wornShare * 100).rounded(.down).roundedInt ?? 0
        return "needs \(Self.recommendedDays) days of CGM readings, 70 % of the time: "
            + "\(daysWithReadings) day\(daysWithReadings == 1 ? "" : "s") and \(percent) % so far"
    }
}

/// A glucose value at an instant.
public struct GlucosePoint: Sendable, Hashable {
    public var at: Date
    public var glucose: Glucose

    public init(at: Date, glucose: Glucose) {
        self.at = at
        self.glucose = glucose
    }
}

/// How glucose answered one meal: the baseline before it, the peak within three hours, and the
/// incremental area under the curve over two hours.
public struct MealResponse: Sendable, Equatable {
    public var baseline: GlucosePoint
    public var peak: GlucosePoint
    public var minutesToPeak: Double
    /// Incremental area under the curve above the baseline over the first 120 minutes, mg/dL × min, by the
    /// trapezoid rule with area below the baseline left out (FAO/WHO 1998, as in Brouns et al., Nutrition
    /// Research Reviews 2005;18:145–171).
    public var incrementalArea: Double
    /// Whether readings cover the two hours (the last within 15 minutes of the end); areas of incomplete
    /// responses are smaller than the meal's and are left out of averages.
    public var isComplete: Bool
    /// Bolus insulin from 30 minutes before to 60 minutes after the meal.
    public var bolusUnits: Double

    public var rise: Double { peak.glucose.milligramsPerDeciliter - baseline.glucose.milligramsPerDeciliter }

    public init(
        baseline: GlucosePoint, peak: GlucosePoint, minutesToPeak: Double, incrementalArea: Double, isComplete: Bool, bolusUnits: Double
    ) {
        self.baseline = baseline
        self.peak = peak
        self.minutesToPeak = minutesToPeak
        self.incrementalArea = incrementalArea
        self.isComplete = isComplete
        self.bolusUnits = bolusUnits
    }

    /// The baseline is the last reading in the 30 minutes before the meal (or, failing that, the first in
    /// the 10 minutes after); without a baseline or a reading after the meal there is no response.
    public static let baselineBefore: TimeInterval = 30 * 60, baselineAfter: TimeInterval = 10 * 60
    public static let areaWindow: TimeInterval = 120 * 60, peakWindow: TimeInterval = 180 * 60
    public static let bolusBefore: TimeInterval = 30 * 60, bolusAfter: TimeInterval = 60 * 60

    /// `readings` in time order.
    public static func compute(eatenAt: Date, readings: [GlucosePoint], doses: [InsulinDose] = []) -> MealResponse? {
        let before = readings.last { $0.at <= eatenAt && eatenAt.timeIntervalSince($0.at) <= baselineBefore }
        let start = before?.at ?? eatenAt
        guard let baseline = before ?? readings.first(where: { $0.at > eatenAt && $0.at.timeIntervalSince(eatenAt) <= baselineAfter })
        else {
            return nil
        }
        let after = readings.filter { $0.at > baseline.at && $0.at.timeIntervalSince(eatenAt) <= peakWindow }
        guard let peak = after.max(by: { $0.glucose < $1.glucose }) else { return nil }
        let base = baseline.glucose.milligramsPerDeciliter
        // The curve from the meal (at the baseline's value) to 120 minutes, interpolated at the end when a later reading straddles it.
        let end = eatenAt.addingTimeInterval(areaWindow)
        var curve = [(minutes: 0.0, delta: 0.0)]
        var previous = GlucosePoint(at: max(start, eatenAt), glucose: baseline.glucose)
        for point in readings where point.at > previous.at {
            if point.at > end {
                let fraction = end.timeIntervalSince(previous.at) / point.at.timeIntervalSince(previous.at)
                let value =
                    previous.glucose.milligramsPerDeciliter
                    + fraction * (point.glucose.milligramsPerDeciliter - previous.glucose.milligramsPerDeciliter)
                if fraction > 0 { curve.append((areaWindow / 60, value - base)) }
                break
            }
            curve.append((point.at.timeIntervalSince(eatenAt) / 60, point.glucose.milligramsPerDeciliter - base))
            previous = point
        }
        let bolus = doses.filter { dose in
            dose.kind == .bolus && dose.takenAt.timeIntervalSince(eatenAt) >= -bolusBefore
                && dose.takenAt.timeIntervalSince(eatenAt) <= bolusAfter
        }.reduce(0) { $0 + $1.units }
        return MealResponse(
            baseline: baseline, peak: peak, minutesToPeak: max(0, peak.at.timeIntervalSince(eatenAt) / 60),
            incrementalArea: incrementalArea(curve), isComplete: (curve.last?.minutes ?? 0) >= areaWindow / 60 - 15,
            bolusUnits: bolus)
    }

    /// The incremental area of a curve given as (minutes, value − baseline), starting at (0, 0): per
    /// interval, a trapezoid when both ends are above the baseline, the triangle above it when the curve
    /// crosses it, nothing when both are below.
    public static func incrementalArea(_ curve: [(minutes: Double, delta: Double)]) -> Double {
        zip(curve, curve.dropFirst()).reduce(0) { area, pair in
            let (a, b) = pair, t = b.minutes - a.minutes
            switch (a.delta >= 0, b.delta >= 0) {
            case (true, true): return area + t * (a.delta + b.delta) / 2
            case (false, true): return area + t * b.delta * b.delta / (b.delta - a.delta) / 2
            case (true, false): return area + t * a.delta * a.delta / (a.delta - b.delta) / 2
            case (false, false): return area
            }
        }
    }
}

/// "Which meals spike me": meals (or foods) by their average response, highest area first.
public struct ResponseRanking: Sendable, Equatable {
    public var name: String
    /// The meal's or the food's id.
    public var id: UUID
    /// Complete, unreported responses that count; `events` counts every response found.
    public var counted: Int
    public var events: Int
    public var meanArea: Double?
    public var meanRise: Double?
    public var meanMinutesToPeak: Double?
    public var meanBolusUnits: Double?

    /// Ranks `responses` of meal events by meal; reported events and incomplete responses do not count.
    public static func byMeal(_ responses: [(meal: MealDefinition, event: MealEvent, response: MealResponse)]) -> [ResponseRanking] {
        rank(responses.map { ($0.meal.id, $0.meal.name, $0.event, $0.response) })
    }

    /// Ranks by food: each response counts for every food of its meal.
    public static func byFood(_ responses: [(meal: MealDefinition, event: MealEvent, response: MealResponse)]) -> [ResponseRanking] {
        rank(responses.flatMap { item in item.meal.foods.map { ($0.foodID, $0.name, item.event, item.response) } })
    }

    private static func rank(_ items: [(id: UUID, name: String, event: MealEvent, response: MealResponse)]) -> [ResponseRanking] {
        var groups: [UUID: [(name: String, event: MealEvent, response: MealResponse)]] = [:]
        for item in items { groups[item.id, default: []].append((item.name, item.event, item.response)) }
        let rankings = groups.map { id, group in
            let counting = group.filter { !$0.event.isReported && $0.response.isComplete }.map(\.response)
            func mean(_ value: (MealResponse) -> Double) -> Double? {
                counting.isEmpty ? nil : counting.reduce(0) { $0 + value($1) } / Double(counting.count)
            }
            return ResponseRanking(
                name: group[0].name, id: id, counted: counting.count, events: group.count,
                meanArea: mean(\.incrementalArea), meanRise: mean(\.rise), meanMinutesToPeak: mean(\.minutesToPeak),
                meanBolusUnits: mean(\.bolusUnits))
        }
        return rankings.sorted { a, b in
            switch (a.meanArea, b.meanArea) {
            case let (x?, y?) where x != y: x > y
            case (.some, nil): true
            case (nil, .some): false
            default: a.name.localizedStandardCompare(b.name) == .orderedAscending
            }
        }
    }
}
