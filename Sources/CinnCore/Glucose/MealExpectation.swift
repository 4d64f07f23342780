import Foundation

/// What the expectation of a meal compares: the meal itself and what surrounds it when it is eaten.
public struct MealCircumstances: Sendable, Hashable {
    public var carbohydrateGrams: Double
    /// Fibre, fat and protein, where the meal's foods logged them.
    public var fiberGrams: Double?
    public var fatGrams: Double?
    public var proteinGrams: Double?
    /// The meal's foods by name, lowercased.
    public var foods: Set<String>
    /// The local time of day it is eaten, in minutes since midnight.
    public var minuteOfDay: Double
    /// Glucose when it is eaten (mg/dL) and how it is moving (mg/dL a minute), when a sensor says.
    public var glucoseBefore: Double?
    public var glucosePerMinute: Double?
    /// The bolus for the meal (units from 30 minutes before to an hour after), when known: a past meal's is what the
    /// person took, a planned meal's what they say they will take.
    public var bolusUnits: Double?
    /// Rapid-acting insulin and carbohydrate still on board when it is eaten (`ExponentialInsulinModel`, `CarbAbsorption`).
    public var insulinOnBoard: Double?
    public var carbsOnBoard: Double?

    public init(
        carbohydrateGrams: Double, fiberGrams: Double? = nil, fatGrams: Double? = nil, proteinGrams: Double? = nil,
        foods: Set<String> = [], minuteOfDay: Double, glucoseBefore: Double? = nil, glucosePerMinute: Double? = nil,
        bolusUnits: Double? = nil, insulinOnBoard: Double? = nil, carbsOnBoard: Double? = nil
    ) {
        self.carbohydrateGrams = carbohydrateGrams
        self.fiberGrams = fiberGrams
        self.fatGrams = fatGrams
        self.proteinGrams = proteinGrams
        self.foods = foods
        self.minuteOfDay = minuteOfDay
        self.glucoseBefore = glucoseBefore
        self.glucosePerMinute = glucosePerMinute
        self.bolusUnits = bolusUnits
        self.insulinOnBoard = insulinOnBoard
        self.carbsOnBoard = carbsOnBoard
    }
}

extension MealCircumstances {
    /// Glucose at `instant` (the newest reading of the 15 minutes before it) and how it moves (mg/dL a minute, from the
    /// reading 10 to 25 minutes before that one), from `points` in time order.
    public static func glucose(before instant: Date, points: [GlucosePoint]) -> (value: Double?, perMinute: Double?) {
        let end = MealResponse.firstIndex(in: points, notBefore: instant.addingTimeInterval(0.001))
        guard end > 0, instant.timeIntervalSince(points[end - 1].at) <= 15 * 60 else { return (nil, nil) }
        let latest = points[end - 1]
        let earlier = points[..<(end - 1)].last { point in
            let minutes = latest.at.timeIntervalSince(point.at) / 60
            return minutes >= 10 && minutes <= 25
        }
        let perMinute = earlier.map { point in
            (latest.glucose.milligramsPerDeciliter - point.glucose.milligramsPerDeciliter) / (latest.at.timeIntervalSince(point.at) / 60)
        }
        return (latest.glucose.milligramsPerDeciliter, perMinute)
    }

}

/// A meal eaten before, with how glucose answered it.
public struct PastMeal: Sendable, Hashable {
    public var eatenAt: Date
    public var name: String
    public var circumstances: MealCircumstances
    /// Its response: the rise from the baseline to the peak (mg/dL) and when the peak came.
    public var riseMgPerDl: Double
    public var minutesToPeak: Double

    public init(eatenAt: Date, name: String, circumstances: MealCircumstances, riseMgPerDl: Double, minutesToPeak: Double) {
        self.eatenAt = eatenAt
        self.name = name
        self.circumstances = circumstances
        self.riseMgPerDl = riseMgPerDl
        self.minutesToPeak = minutesToPeak
    }
}

/// What a meal is expected to do to glucose, from the person's own similar meals.
public struct MealExpectation: Sendable, Equatable {
    public var riseMgPerDl: Double
    /// The range the rise falls in with `MealPredictor.rangeProbability`.
    public var lowMgPerDl: Double
    public var highMgPerDl: Double
    public var minutesToPeak: Double
    /// How many past meals were similar enough to count.
    public var similarMeals: Int
    /// The most similar of them, most similar first.
    public var basedOn: [PastMeal]
}

/// The expectation, or why there is none.
public enum MealForecast: Sendable, Equatable {
    case expected(MealExpectation)
    /// Too few similar meals: how many there are, and how many are needed.
    case tooFewSimilarMeals(found: Int, needed: Int)
}

/// Expects a meal's glucose rise and time to peak from the person's own past meals that resemble it (docs/glucose.md):
///
/// 1. Each past meal's distance from the meal: per feature, the difference over what counts as a clear difference
///    (carbohydrate 40 % or 15 g, the bolus 40 % or 1 U, time of day 5 hours, the foods by their overlap, glucose
///    before 80 mg/dL, its direction 2 mg/dL a minute, insulin and carbs on board, fibre, fat and protein), weighted,
///    combined as a Euclidean distance over the features both meals know. A past meal within 1 is similar.
/// 2. With at least `neededMeals` similar meals, each of the nearest `maximumNeighbours` counts with the weight
///    (1 − d²)², after moving its rise by how the person's rises change with carbohydrate, bolus, glucose before and
///    insulin on board (a ridge regression over all their past meals), for the difference between the two meals.
/// 3. The expectation is the weighted mean of those rises, and its range the Student-t prediction interval of their
///    spread for `rangeProbability`, on the effective number of meals; the time to peak is their weighted median.
public enum MealPredictor {
    public static let neededMeals = 5
    public static let maximumNeighbours = 30
    public static let rangeProbability = 0.8

    /// How far apart two meals are (0 the same; 1 the edge of similar). A bolus counts only when `meal` says one.
    public static func distance(_ meal: MealCircumstances, _ past: MealCircumstances) -> Double {
        var sum = 0.0
        func add(_ difference: Double, weight: Double) { sum += (difference * weight) * (difference * weight) }
        // The difference of two values over what counts as a clear one: `atLeast`, or `share` of the larger.
        func scaled(_ a: Double, _ b: Double, atLeast: Double, share: Double) -> Double {
            abs(a - b) / max(atLeast, share * max(abs(a), abs(b)))
        }
        func addBoth(_ a: Double?, _ b: Double?, atLeast: Double, share: Double, weight: Double) {
            if let a, let b { add(scaled(a, b, atLeast: atLeast, share: share), weight: weight) }
        }
        add(scaled(meal.carbohydrateGrams, past.carbohydrateGrams, atLeast: 15, share: 0.4), weight: 1)
        if let bolus = meal.bolusUnits { add(scaled(bolus, past.bolusUnits ?? 0, atLeast: 1, share: 0.4), weight: 1) }
        let hours = abs(meal.minuteOfDay - past.minuteOfDay) / 60
        add(min(hours, 24 - hours) / 5, weight: 0.7)
        if !meal.foods.isEmpty, !past.foods.isEmpty {
            let overlap = Double(meal.foods.intersection(past.foods).count) / Double(meal.foods.union(past.foods).count)
            add(1 - overlap, weight: 0.6)
        }
        addBoth(meal.glucoseBefore, past.glucoseBefore, atLeast: 80, share: 0, weight: 0.5)
        addBoth(meal.glucosePerMinute, past.glucosePerMinute, atLeast: 2, share: 0, weight: 0.5)
        addBoth(meal.insulinOnBoard, past.insulinOnBoard, atLeast: 1.5, share: 0.5, weight: 0.4)
        addBoth(meal.carbsOnBoard, past.carbsOnBoard, atLeast: 15, share: 0.5, weight: 0.4)
        addBoth(meal.fatGrams, past.fatGrams, atLeast: 10, share: 0.5, weight: 0.4)
        addBoth(meal.proteinGrams, past.proteinGrams, atLeast: 10, share: 0.5, weight: 0.4)
        addBoth(meal.fiberGrams, past.fiberGrams, atLeast: 5, share: 0.5, weight: 0.4)
        return sum.squareRoot()
    }

    /// The expectation of `meal` from `history` (past meals with complete responses, in any order).
    public static func expect(_ meal: MealCircumstances, history: [PastMeal]) -> MealForecast {
        let measured = history.filter { $0.riseMgPerDl.isFinite && $0.minutesToPeak.isFinite }
        var near: [(past: PastMeal, distance: Double)] = []
        for past in measured {
            let d = distance(meal, past.circumstances)
            if d <= 1 { near.append((past, d)) }
        }
        near.sort { $0.distance < $1.distance || ($0.distance == $1.distance && $0.past.eatenAt > $1.past.eatenAt) }
        guard near.count >= neededMeals else { return .tooFewSimilarMeals(found: near.count, needed: neededMeals) }
        let neighbours = Array(near.prefix(maximumNeighbours))
        let slopes = RiseSlopes(history: measured, bolusKnown: meal.bolusUnits != nil)
        var weights: [Double] = [], rises: [Double] = []
        for neighbour in neighbours {
            let closeness = 1 - neighbour.distance * neighbour.distance
            // A weight that never reaches 0 for a meal inside the edge, so the nearest few always count.
            weights.append(max(1e-3, closeness * closeness))
            rises.append(neighbour.past.riseMgPerDl + slopes.adjustment(from: neighbour.past.circumstances, to: meal))
        }
        var total = 0.0, squares = 0.0, sum = 0.0
        for (weight, rise) in zip(weights, rises) {
            total += weight
            squares += weight * weight
            sum += weight * rise
        }
        let mean = sum / total
        let effective = total * total / squares
        var spread = 0.0
        for (weight, rise) in zip(weights, rises) { spread += weight * (rise - mean) * (rise - mean) }
        let variance: Double = spread / total * effective / max(1, effective - 1)
        let t = StudentT.quantile(0.5 + rangeProbability / 2, degreesOfFreedom: max(2, effective - 1))
        let half: Double = t * (variance * (1 + 1 / effective)).squareRoot()
        let peaks = zip(neighbours, weights).map { (value: $0.past.minutesToPeak, weight: $1) }
        return .expected(
            MealExpectation(
                riseMgPerDl: mean, lowMgPerDl: mean - half, highMgPerDl: mean + half, minutesToPeak: weightedMedian(peaks),
                similarMeals: near.count, basedOn: neighbours.prefix(6).map(\.past)))
    }

    /// The value at half the total weight of `values`.
    static func weightedMedian(_ values: [(value: Double, weight: Double)]) -> Double {
        let sorted = values.sorted { $0.value < $1.value }
        let half = sorted.reduce(0) { $0 + $1.weight } / 2
        var running = 0.0
        for item in sorted {
            running += item.weight
            if running >= half { return item.value }
        }
        return sorted.last?.value ?? 0
    }
}

/// How a person's rises change with carbohydrate, bolus, glucose before and insulin on board: a ridge regression over
/// their past meals on standardised features (missing values at the mean), so a neighbour's rise is moved for the
/// difference between it and the meal expected; a feature the history does not vary has no slope.
struct RiseSlopes {
    /// Per feature: its slope (mg/dL per unit of the feature).
    private(set) var slopes: [Double]
    private let features: [(MealCircumstances) -> Double?]
    /// The ridge penalty, in standardised units: a slope needs the data of several meals to count.
    static let penalty = 5.0

    init(history: [PastMeal], bolusKnown: Bool) {
        var features: [(MealCircumstances) -> Double?] = [{ $0.carbohydrateGrams }, { $0.glucoseBefore }, { $0.insulinOnBoard }]
        if bolusKnown { features.append { $0.bolusUnits ?? 0 } }
        self.features = features
        let n = history.count, k = features.count
        guard n >= 3 else {
            slopes = Array(repeating: 0, count: k)
            return
        }
        var columns: [[Double]] = []
        var scales: [Double] = []
        for feature in features {
            let values = history.map { feature($0.circumstances) }
            let known = values.compactMap { $0 }
            let mean = known.isEmpty ? 0 : known.reduce(0, +) / Double(known.count)
            let column = values.map { ($0 ?? mean) - mean }
            let sd = (column.reduce(0) { $0 + $1 * $1 } / Double(n)).squareRoot()
            scales.append(sd)
            columns.append(sd > 1e-9 ? column.map { $0 / sd } : Array(repeating: 0, count: n))
        }
        let rises = history.map(\.riseMgPerDl)
        let meanRise = rises.reduce(0, +) / Double(n)
        var matrix = [[Double]](repeating: [Double](repeating: 0, count: k), count: k)
        var vector = [Double](repeating: 0, count: k)
        for i in 0..<k {
            for j in 0..<k { matrix[i][j] = zip(columns[i], columns[j]).reduce(0) { $0 + $1.0 * $1.1 } }
            matrix[i][i] += Self.penalty
            vector[i] = zip(columns[i], rises).reduce(0) { $0 + $1.0 * ($1.1 - meanRise) }
        }
        let standardised = Self.solve(matrix, vector) ?? Array(repeating: 0, count: k)
        slopes = zip(standardised, scales).map { $1 > 1e-9 ? $0 / $1 : 0 }
    }

    /// How much to move a rise of `past` to stand for `meal`: the slopes times the differences both know.
    func adjustment(from past: MealCircumstances, to meal: MealCircumstances) -> Double {
        zip(features, slopes).reduce(0) { total, pair in
            guard let a = pair.0(meal), let b = pair.0(past) else { return total }
            return total + pair.1 * (a - b)
        }
    }

    /// Solves `matrix · x = vector` by Gaussian elimination with partial pivoting; nil when singular.
    static func solve(_ matrix: [[Double]], _ vector: [Double]) -> [Double]? {
        var a = matrix, b = vector
        let n = b.count
        for column in 0..<n {
            guard let pivot = (column..<n).max(by: { abs(a[$0][column]) < abs(a[$1][column]) }), abs(a[pivot][column]) > 1e-12 else {
                return nil
            }
            a.swapAt(column, pivot)
            b.swapAt(column, pivot)
            for row in (column + 1)..<n {
                let factor = a[row][column] / a[column][column]
                for j in column..<n { a[row][j] -= factor * a[column][j] }
                b[row] -= factor * b[column]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            let sum = ((row + 1)..<n).reduce(0) { $0 + a[row][$1] * x[$1] }
            x[row] = (b[row] - sum) / a[row][row]
        }
        return x
    }
}

/// Student's t distribution.
public enum StudentT {
    /// The quantile for probability `p` (0.5 to 1) with `degreesOfFreedom` (≥ 1, any real): the normal quantile with
    /// the Cornish–Fisher expansion of Abramowitz & Stegun 26.7.5 (within 0.01 of the tables from 2 degrees of freedom).
    public static func quantile(_ p: Double, degreesOfFreedom nu: Double) -> Double {
        let x = normalQuantile(p)
        let x3 = x * x * x, x5 = x3 * x * x, x7 = x5 * x * x, x9 = x7 * x * x
        let g1 = (x3 + x) / 4
        let g2 = (5 * x5 + 16 * x3 + 3 * x) / 96
        let g3 = (3 * x7 + 19 * x5 + 17 * x3 - 15 * x) / 384
        let g4 = (79 * x9 + 776 * x7 + 1482 * x5 - 1920 * x3 - 945 * x) / 92160
        return x + g1 / nu + g2 / (nu * nu) + g3 / (nu * nu * nu) + g4 / (nu * nu * nu * nu)
    }

    /// The standard normal quantile for `p` in (0, 1), by Acklam's rational approximation (relative error under 1.2e-9).
    public static func normalQuantile(_ p: Double) -> Double {
        let a = [
            -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01,
            2.506628277459239e+00,
        ]
        let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01]
        let c = [
            -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00,
            2.938163982698783e+00,
        ]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        if p < low {
            let q = (-2 * log(p)).squareRoot()
            return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        if p > 1 - low {
            let q = (-2 * log(1 - p)).squareRoot()
            return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        let q = p - 0.5, r = q * q
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    }
}
