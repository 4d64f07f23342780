import Foundation

/// The sets of one exercise on one day with the same reps and kind, as the store groups them to make
/// an `ExerciseDay`.
public struct SetGroup: Sendable, Hashable {
    public var day: LocalDate
    public var reps: Int?
    public var kind: SetKind
    /// The heaviest weight among the sets.
    public var heaviest: Mass?
    public var sets: Int
    /// Σ weight × reps (× load multiplier) of the sets.
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

/// One exercise on one day, reduced to what its reports need: how many sets and how much volume, and
/// the day's lifts that no other lift of the day matches or beats in both weight and reps. Every
/// formula's estimate, every rep max, the heaviest set and the best set volume grow with weight and
/// with reps, so a beaten lift can never be a record; lifts of the three estimate ranges (up to 10
/// reps, 11 to 36, 37 and more) are kept apart, as an estimate may leave out the higher ones.
public struct ExerciseDay: Sendable, Hashable {
    public var day: LocalDate
    /// Every set, warm-ups included.
    public var sets: Int
    /// The sets that are not warm-ups, and their Σ weight × reps (drop sets included).
    public var workSets: Int
    public var volume: Mass
    /// The unbeaten lifts (warm-ups and drop sets are never lifts), in the order they were found.
    public private(set) var lifts: [LiftedSet]

    public init(day: LocalDate) {
        self.init(day: day, sets: 0, workSets: 0, volume: Mass(kilograms: 0), lifts: [])
    }

    /// A stored day: `lifts` are reduced to the unbeaten ones.
    public init(day: LocalDate, sets: Int, workSets: Int, volume: Mass, lifts: [LiftedSet]) {
        self.day = day
        self.sets = sets
        self.workSets = workSets
        self.volume = volume
        self.lifts = []
        for lift in lifts { add(lift) }
    }

    /// One set of the day.
    public mutating func add(_ set: WorkoutSet) {
        add(
            reps: set.reps, heaviest: set.weight, kind: set.kind, sets: 1,
            volume: Mass(kilograms: (set.weight?.kilograms ?? 0) * Double(set.reps ?? 0) * (set.loadMultiplier ?? 1)))
    }

    /// A group of the day's sets.
    public mutating func add(_ group: SetGroup) {
        add(reps: group.reps, heaviest: group.heaviest, kind: group.kind, sets: group.sets, volume: group.volume)
    }

    /// Another record of the same exercise on the same day (an alias's sets, or a second import).
    public mutating func merge(_ other: ExerciseDay) {
        sets += other.sets
        workSets += other.workSets
        volume = Mass(kilograms: volume.kilograms + other.volume.kilograms)
        for lift in other.lifts { add(lift) }
    }

    /// The days of `groups`, oldest first.
    public static func days(from groups: some Sequence<SetGroup>) -> [ExerciseDay] {
        var days: [LocalDate: ExerciseDay] = [:]
        for group in groups { days[group.day, default: ExerciseDay(day: group.day)].add(group) }
        return days.values.sorted { $0.day < $1.day }
    }

    private mutating func add(reps: Int?, heaviest: Mass?, kind: SetKind, sets: Int, volume: Mass) {
        self.sets += sets
        guard kind != .warmUp else { return }
        workSets += sets
        self.volume = Mass(kilograms: self.volume.kilograms + volume.kilograms)
        guard kind != .drop, let reps, reps > 0, let heaviest, heaviest.kilograms > 0 else { return }
        add(LiftedSet(day: day, weight: heaviest, reps: reps, kind: kind))
    }

    private mutating func add(_ lift: LiftedSet) {
        let range = Self.estimateRange(lift.reps)
        var beatsAny = false
        for other in lifts where Self.estimateRange(other.reps) == range {
            if other.reps >= lift.reps && other.weight.kilograms >= lift.weight.kilograms { return }
            beatsAny = beatsAny || (lift.reps >= other.reps && lift.weight.kilograms >= other.weight.kilograms)
        }
        if beatsAny {
            lifts.removeAll { Self.estimateRange($0.reps) == range && lift.reps >= $0.reps && lift.weight.kilograms >= $0.weight.kilograms }
        }
        lifts.append(LiftedSet(day: day, weight: lift.weight, reps: lift.reps, kind: lift.kind))
    }

    /// 0 for estimates trusted, 1 for low-confidence ones, 2 for none (`OneRepMax.estimate`).
    private static func estimateRange(_ reps: Int) -> Int {
        reps <= OneRepMax.confidentReps ? 0 : reps < OneRepMax.noEstimateReps ? 1 : 2
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

    public static func compute(
        days: [ExerciseDay], formula: OneRepMaxFormula = .default, today: LocalDate,
        includeHighReps: Bool = false, weeks: Int = 12
    ) -> ExerciseReport {
        var report = ExerciseReport(formula: formula, history: [], repMaxes: [], weeklyVolume: [], totalSets: 0)
        // Days in order (an alias's day may repeat one): the best estimate of each is appended as the day ends.
        var dayBest: EstimatedMax?
        var repMaxes = [LiftedSet?](repeating: nil, count: repMaxRange.upperBound + 1)
        let currentStart = today.adding(days: -(currentWindowDays - 1))
        let lastDay = days.map(\.day).max().map { min($0, today) } ?? today
        let firstWeek = weekStart(lastDay).adding(days: -7 * (weeks - 1))
        var volumes: [LocalDate: (volume: Double, sets: Int)] = [:]
        for day in days.sorted(by: { $0.day < $1.day }) {
            if let best = dayBest, best.day != day.day {
                report.history.append(best)
                dayBest = nil
            }
            report.totalSets += day.sets
            report.firstDay = min(report.firstDay ?? day.day, day.day)
            report.lastDay = max(report.lastDay ?? day.day, day.day)
            let week = weekStart(day.day)
            if week >= firstWeek, day.workSets > 0 {
                volumes[week, default: (0, 0)].volume += day.volume.kilograms
                volumes[week, default: (0, 0)].sets += day.workSets
            }
            for lifted in day.lifts {
                let weight = lifted.weight, reps = lifted.reps
                if report.heaviest.map({ isHeavier(lifted, than: $0) }) ?? true { report.heaviest = lifted }
                if report.bestSetVolume.map({ weight.kilograms * Double(reps) > $0.weight.kilograms * Double($0.reps) }) ?? true {
                    report.bestSetVolume = lifted
                }
                for target in repMaxRange where reps >= target {
                    if repMaxes[target].map({ weight.kilograms > $0.weight.kilograms }) ?? true { repMaxes[target] = lifted }
                }
                guard let estimate = OneRepMax.estimate(weight: weight, reps: reps, formula: formula),
                    includeHighReps || !estimate.lowConfidence
                else { continue }
                let candidate = EstimatedMax(oneRepMax: estimate, set: lifted)
                if dayBest.map({ isBetter(candidate, than: $0) }) ?? true { dayBest = candidate }
            }
        }
        if let best = dayBest { report.history.append(best) }
        for estimate in report.history {
            if report.best.map({ estimate.oneRepMax.estimate.kilograms > $0.oneRepMax.estimate.kilograms }) ?? true {
                report.best = estimate
            }
            if estimate.day >= currentStart, estimate.day <= today,
                report.current.map({ estimate.oneRepMax.estimate.kilograms > $0.oneRepMax.estimate.kilograms }) ?? true
            {
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
    /// The best estimate ever, given for an exercise not done in the last 30 days.
    public var best: EstimatedMax?

    public init(
        id: UUID, name: String, aliases: [String] = [], lastDay: LocalDate?, current: EstimatedMax? = nil,
        best: EstimatedMax? = nil
    ) {
        self.id = id
        self.name = name
        self.aliases = aliases
        self.lastDay = lastDay
        self.current = current
        self.best = best
    }
}

/// The weight unit lifts are shown in: stones are for body weight, so lifters who weigh in stones see kilograms.
public extension MassUnit {
    var liftingUnit: MassUnit { self == .stones ? .kilograms : self }
}
