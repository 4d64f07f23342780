import Foundation

/// The sets of one exercise on one day with the same reps and kind: what an exercise's history is
/// computed from (the store groups them, so a history of 25,000 sets arrives as a few thousand groups).
public struct SetGroup: Sendable, Hashable {
    public var day: LocalDate
    public var reps: Int?
    public var kind: SetKind
    /// The heaviest weight among the sets.
    public var heaviest: Mass?
    public var sets: Int
    /// Σ weight × reps of the sets.
    public var volume: Mass

    public init(day: LocalDate, reps: Int?, kind: SetKind, heaviest: Mass?, sets: Int, volume: Mass) {
        self.day = day
        self.reps = reps
        self.kind = kind
        self.heaviest = heaviest
        self.sets = sets
        self.volume = volume
    }
}

/// A lift: a weight for a number of reps on a day; every estimate and record names the set it came from.
public struct LiftedSet: Sendable, Hashable {
    public var day: LocalDate
    public var weight: Mass
    public var reps: Int
    public var kind: SetKind

    public init(day: LocalDate, weight: Mass, reps: Int, kind: SetKind = .normal) {
        self.day = day
        self.weight = weight
        self.reps = reps
        self.kind = kind
    }
}

/// An estimated one-rep max and the set it came from.
public struct EstimatedMax: Sendable, Hashable {
    public var oneRepMax: OneRepMax
    public var set: LiftedSet

    public var day: LocalDate { self.set.day }
}

/// Weight × reps of the sets of one week (Monday to Sunday), warm-ups left out.
public struct WeeklyVolume: Sendable, Hashable {
    public var weekStart: LocalDate
    public var volume: Mass
    public var sets: Int
}

/// The heaviest weight lifted for at least `reps` reps.
public struct RepMax: Sendable, Hashable {
    public var reps: Int
    public var set: LiftedSet
}

/// Everything the exercise page shows: current and best estimated one-rep max, the best estimate of
/// each day, records and weekly volume. Warm-ups never count; drop sets count towards volume only;
/// sets above 10 reps give estimates only when `includeHighReps`.
public struct ExerciseReport: Sendable, Hashable {
    public var formula: OneRepMaxFormula
    /// The best estimate of the last 30 days (today included).
    public var current: EstimatedMax?
    public var best: EstimatedMax?
    /// The best estimate of each day with one, oldest first.
    public var history: [EstimatedMax]
    /// The heaviest weight lifted in one set (the most reps at it on the earliest day).
    public var heaviest: LiftedSet?
    /// The set with the largest weight × reps.
    public var bestSetVolume: LiftedSet?
    /// For 1 to 10 reps, the heaviest weight lifted for at least that many.
    public var repMaxes: [RepMax]
    /// The last `weeks` weeks up to the one with the last set (or today, if sooner), oldest first, empty weeks included.
    public var weeklyVolume: [WeeklyVolume]
    public var totalSets: Int
    public var firstDay: LocalDate?
    public var lastDay: LocalDate?

    /// Days an estimate stays "current".
    public static let currentWindowDays = 30
    public static let repMaxRange = 1...10

    public static func compute(groups: [SetGroup], formula: OneRepMaxFormula = .default, today: LocalDate,
                               includeHighReps: Bool = false, weeks: Int = 12) -> ExerciseReport {
        var report = ExerciseReport(formula: formula, history: [], repMaxes: [], weeklyVolume: [], totalSets: 0)
        var bestByDay: [LocalDate: EstimatedMax] = [:]
        var repMaxes: [Int: LiftedSet] = [:]
        let currentStart = today.adding(days: -(currentWindowDays - 1))
        let lastDay = groups.map(\.day).max().map { min($0, today) } ?? today
        let firstWeek = weekStart(lastDay).adding(days: -7 * (weeks - 1))
        var volumes: [LocalDate: (volume: Double, sets: Int)] = [:]
        for group in groups {
            report.totalSets += group.sets
            report.firstDay = min(report.firstDay ?? group.day, group.day)
            report.lastDay = max(report.lastDay ?? group.day, group.day)
            guard group.kind != .warmUp else { continue }
            let week = weekStart(group.day)
            if week >= firstWeek {
                volumes[week, default: (0, 0)].volume += group.volume.kilograms
                volumes[week, default: (0, 0)].sets += group.sets
            }
            guard group.kind != .drop, let reps = group.reps, let weight = group.heaviest, weight.kilograms > 0 else { continue }
            let lifted = LiftedSet(day: group.day, weight: weight, reps: reps, kind: group.kind)
            if report.heaviest.map({ isHeavier(lifted, than: $0) }) ?? true { report.heaviest = lifted }
            if report.bestSetVolume.map({ weight.kilograms * Double(reps) > $0.weight.kilograms * Double($0.reps) }) ?? true {
                report.bestSetVolume = lifted
            }
            for target in repMaxRange where reps >= target {
                if repMaxes[target].map({ weight.kilograms > $0.weight.kilograms }) ?? true { repMaxes[target] = lifted }
            }
            guard let estimate = OneRepMax.estimate(weight: weight, reps: reps, formula: formula),
                  includeHighReps || !estimate.lowConfidence else { continue }
            let candidate = EstimatedMax(oneRepMax: estimate, set: lifted)
            if bestByDay[group.day].map({ isBetter(candidate, than: $0) }) ?? true { bestByDay[group.day] = candidate }
        }
        report.history = bestByDay.values.sorted { $0.day < $1.day }
        for estimate in report.history {
            if report.best.map({ estimate.oneRepMax.estimate.kilograms > $0.oneRepMax.estimate.kilograms }) ?? true {
                report.best = estimate
            }
            if estimate.day >= currentStart, estimate.day <= today,
               report.current.map({ estimate.oneRepMax.estimate.kilograms > $0.oneRepMax.estimate.kilograms }) ?? true {
                report.current = estimate
            }
        }
        report.repMaxes = repMaxRange.compactMap { reps in repMaxes[reps].map { RepMax(reps: reps, set: $0) } }
        report.weeklyVolume = (0..<weeks).map { index in
            let start = firstWeek.adding(days: 7 * index)
            let week = volumes[start] ?? (0, 0)
            return WeeklyVolume(weekStart: start, volume: Mass(kilograms: week.volume), sets: week.sets)
        }
        return report
    }

    /// The Monday of `day`'s week.
    public static func weekStart(_ day: LocalDate) -> LocalDate { day.adding(days: -(day.weekday - 1)) }

    /// Heavier wins; at the same weight more reps, then the earlier day.
    private static func isHeavier(_ set: LiftedSet, than other: LiftedSet) -> Bool {
        if set.weight.kilograms != other.weight.kilograms { return set.weight.kilograms > other.weight.kilograms }
        if set.reps != other.reps { return set.reps > other.reps }
        return set.day < other.day
    }

    /// A higher estimate wins; at the same estimate the heavier set (fewer reps).
    private static func isBetter(_ estimate: EstimatedMax, than other: EstimatedMax) -> Bool {
        let a = estimate.oneRepMax.estimate.kilograms, b = other.oneRepMax.estimate.kilograms
        return a != b ? a > b : estimate.set.weight.kilograms > other.set.weight.kilograms
    }
}

/// One exercise in the list: its name, the names merged into it, when it was last done and its current estimate.
public struct ExerciseSummary: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var name: String
    public var aliases: [String]
    public var lastDay: LocalDate?
    /// The best estimate of the last 30 days.
    public var current: EstimatedMax?

    public init(id: UUID, name: String, aliases: [String] = [], lastDay: LocalDate?, current: EstimatedMax? = nil) {
        self.id = id
        self.name = name
        self.aliases = aliases
        self.lastDay = lastDay
        self.current = current
    }
}

/// The weight unit lifts are shown in: stones are for body weight, so lifters who weigh in stones see kilograms.
public extension MassUnit {
    var liftingUnit: MassUnit { self == .stones ? .kilograms : self }
}
