import CinnCore
import CinnStore
import Foundation

/// A lifted set in the API: the weight in the unit asked for and in kilograms.
struct LiftedSetDTO: Encodable {
    let date: String
    let weight: Double
    let weightKg: Double
    let reps: Int
    let kind: String

    init(_ set: LiftedSet, unit: MassUnit) {
        date = set.day.iso
        weight = WorkoutDTO.rounded(set.weight.value(in: unit))
        weightKg = set.weight.kilograms
        reps = set.reps
        kind = set.kind.rawValue
    }

    enum CodingKeys: String, CodingKey {
        case date, weight, reps, kind
        case weightKg = "weight_kg"
    }
}

/// An estimate in the API: as shown (whole, truncated), as computed, and the set it came from.
struct EstimateDTO: Encodable {
    let shown: String
    let value: Double
    let valueKg: Double
    let lowConfidence: Bool
    let set: LiftedSetDTO
    let workoutID: OrNull<String>

    init(_ estimate: EstimatedMax, unit: MassUnit, workout: UUID? = nil) {
        shown = estimate.oneRepMax.formatted(in: unit)
        value = estimate.oneRepMax.estimate.value(in: unit)
        valueKg = estimate.oneRepMax.estimate.kilograms
        lowConfidence = estimate.oneRepMax.lowConfidence
        set = LiftedSetDTO(estimate.set, unit: unit)
        workoutID = OrNull(workout?.lowercasedString)
    }

    enum CodingKeys: String, CodingKey {
        case shown, value, set
        case valueKg = "value_kg"
        case lowConfidence = "low_confidence"
        case workoutID = "workout_id"
    }
}

/// `GET /api/v1/exercises`: an exercise in the list.
package struct ExerciseSummaryDTO: Encodable {
    let id: String
    let name: String
    let aliases: [String]
    let lastDate: OrNull<String>
    let current: OrNull<EstimateDTO>
    let best: OrNull<EstimateDTO>

    package init(_ summary: ExerciseSummary, unit: MassUnit) {
        id = summary.id.lowercasedString
        name = summary.name
        aliases = summary.aliases
        lastDate = OrNull(summary.lastDay?.iso)
        current = OrNull(summary.current.map { EstimateDTO($0, unit: unit) })
        best = OrNull(summary.best.map { EstimateDTO($0, unit: unit) })
    }

    enum CodingKeys: String, CodingKey {
        case id, name, aliases, current, best
        case lastDate = "last_date"
    }
}

/// `GET /api/v1/exercises` (and `cinn lifts --format json`): the list with its unit and formula.
package struct ExerciseListDTO: Encodable {
    let unit: String
    let formula: String
    let exercises: [ExerciseSummaryDTO]

    package init(_ lifts: (exercises: [ExerciseSummary], unit: MassUnit, formula: OneRepMaxFormula)) {
        unit = lifts.unit.rawValue
        formula = lifts.formula.rawValue
        exercises = lifts.exercises.map { ExerciseSummaryDTO($0, unit: lifts.unit) }
    }
}

/// `GET /api/v1/workouts` (and `cinn workouts --format json`, without `total`).
package struct WorkoutListDTO: Encodable {
    let unit: String
    let total: Int?
    let workouts: [WorkoutSummaryDTO]

    package init(_ workouts: [WorkoutSummary], unit: MassUnit, total: Int? = nil) {
        self.unit = unit.rawValue
        self.total = total
        self.workouts = workouts.map { WorkoutSummaryDTO($0, unit: unit) }
    }
}

/// `GET /api/v1/exercises/{id}`: the exercise page's content.
package struct ExercisePageDTO: Encodable {
    struct RepMaxDTO: Encodable {
        let reps: Int
        let set: LiftedSetDTO
    }

    struct WeekDTO: Encodable {
        let weekStart: String
        let volume: Double
        let volumeKg: Double
        let sets: Int

        enum CodingKeys: String, CodingKey {
            case volume, sets
            case weekStart = "week_start"
            case volumeKg = "volume_kg"
        }
    }

    package struct DayDTO: Encodable {
        let date: String
        let estimate: Double
        let set: LiftedSetDTO
    }

    let id: String
    let name: String
    let aliases: [String]
    let unit: String
    let formula: String
    let includeHighReps: Bool
    let current: OrNull<EstimateDTO>
    let best: OrNull<EstimateDTO>
    let heaviest: OrNull<LiftedSetDTO>
    let bestSetVolume: OrNull<LiftedSetDTO>
    let repMaxes: [RepMaxDTO]
    let weeklyVolume: [WeekDTO]
    let history: [DayDTO]
    let totalSets: Int
    let firstDate: OrNull<String>
    let lastDate: OrNull<String>

    package init(_ page: ExercisePage, includeHighReps: Bool) {
        let unit = page.unit, report = page.report
        id = page.exercise.root.id.lowercasedString
        name = page.exercise.root.name
        aliases = page.exercise.aliases.map(\.name)
        self.unit = unit.rawValue
        formula = report.formula.rawValue
        self.includeHighReps = includeHighReps
        current = OrNull(report.current.map { EstimateDTO($0, unit: unit, workout: page.currentWorkout) })
        best = OrNull(report.best.map { EstimateDTO($0, unit: unit, workout: page.bestWorkout) })
        heaviest = OrNull(report.heaviest.map { LiftedSetDTO($0, unit: unit) })
        bestSetVolume = OrNull(report.bestSetVolume.map { LiftedSetDTO($0, unit: unit) })
        repMaxes = report.repMaxes.map { RepMaxDTO(reps: $0.reps, set: LiftedSetDTO($0.set, unit: unit)) }
        weeklyVolume = report.weeklyVolume.map {
            WeekDTO(weekStart: $0.weekStart.iso, volume: WorkoutDTO.rounded($0.volume.value(in: unit)), volumeKg: $0.volume.kilograms, sets: $0.sets)
        }
        history = report.history.map {
            DayDTO(date: $0.day.iso, estimate: WorkoutDTO.rounded($0.oneRepMax.estimate.value(in: unit)), set: LiftedSetDTO($0.set, unit: unit))
        }
        totalSets = report.totalSets
        firstDate = OrNull(report.firstDay?.iso)
        lastDate = OrNull(report.lastDay?.iso)
    }

    enum CodingKeys: String, CodingKey {
        case id, name, aliases, unit, formula, current, best, heaviest, history
        case includeHighReps = "include_high_reps"
        case bestSetVolume = "best_set_volume"
        case repMaxes = "rep_maxes"
        case weeklyVolume = "weekly_volume"
        case totalSets = "total_sets"
        case firstDate = "first_date"
        case lastDate = "last_date"
    }
}

/// `GET /api/v1/workouts`: a workout in the list.
struct WorkoutSummaryDTO: Encodable {
    let id: String
    let startedAt: String
    let date: String
    let name: String
    let source: String
    let durationSeconds: OrNull<Double>
    let sets: Int
    let volume: Double
    let volumeKg: Double
    let exercises: [String]

    init(_ summary: WorkoutSummary, unit: MassUnit) {
        id = summary.id.lowercasedString
        startedAt = WeighIn.isoString(instant: summary.startedAt, utcOffsetSeconds: summary.utcOffsetSeconds)
        date = summary.localDate.iso
        name = summary.name
        source = summary.source
        durationSeconds = OrNull(summary.durationSeconds)
        sets = summary.setCount
        volume = WorkoutDTO.rounded(summary.volume.value(in: unit))
        volumeKg = summary.volume.kilograms
        exercises = summary.exercises
    }

    enum CodingKeys: String, CodingKey {
        case id, date, name, source, sets, volume, exercises
        case startedAt = "started_at"
        case durationSeconds = "duration_s"
        case volumeKg = "volume_kg"
    }
}

/// `GET /api/v1/workouts/{id}`: a workout with its sets.
package struct WorkoutDTO: Encodable {
    struct SetDTO: Encodable {
        let exercise: String
        let reps: OrNull<Int>
        let weight: OrNull<Double>
        let weightKg: OrNull<Double>
        let durationSeconds: OrNull<Double>
        let distanceMetres: OrNull<Double>
        let kind: String
        let rpe: OrNull<Double>
        let rir: OrNull<Int>
        let note: OrNull<String>
        let estimate: OrNull<String>

        enum CodingKeys: String, CodingKey {
            case exercise, reps, weight, kind, rpe, rir, note, estimate
            case weightKg = "weight_kg"
            case durationSeconds = "duration_s"
            case distanceMetres = "distance_m"
        }
    }

    let id: String
    let startedAt: String
    let date: String
    let name: String
    let source: String
    let durationSeconds: OrNull<Double>
    let note: OrNull<String>
    let unit: String
    let sets: [SetDTO]

    package init(_ stored: StoredWorkout, unit: MassUnit, formula: OneRepMaxFormula) {
        let workout = stored.workout
        id = workout.id.lowercasedString
        startedAt = WeighIn.isoString(instant: workout.startedAt, utcOffsetSeconds: workout.utcOffsetSeconds)
        date = workout.localDate.iso
        name = workout.name
        source = workout.source
        durationSeconds = OrNull(stored.durationSeconds)
        note = OrNull(stored.note)
        self.unit = unit.rawValue
        sets = workout.sets.map { set in
            SetDTO(exercise: set.exercise, reps: OrNull(set.reps), weight: OrNull(set.weight.map { Self.rounded($0.value(in: unit)) }),
                   weightKg: OrNull(set.weight?.kilograms), durationSeconds: OrNull(set.durationSeconds),
                   distanceMetres: OrNull(set.distanceMetres), kind: set.kind.rawValue, rpe: OrNull(set.rpe), rir: OrNull(set.rir),
                   note: OrNull(set.note), estimate: OrNull(set.oneRepMax(formula: formula).map { $0.formatted(in: unit) }))
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, date, name, source, note, unit, sets
        case startedAt = "started_at"
        case durationSeconds = "duration_s"
    }

    /// A weight in a display unit to hundredths, so pounds stored as kilograms read back as written.
    static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}

/// The API's JSON for the CLI's `--format json`, so both speak the same.
public enum WorkoutJSON {
    public static func lifts(_ lifts: (exercises: [ExerciseSummary], unit: MassUnit, formula: OneRepMaxFormula)) -> String {
        jsonString(ExerciseListDTO(lifts))
    }

    public static func exercise(_ page: ExercisePage, includeHighReps: Bool) -> String {
        jsonString(ExercisePageDTO(page, includeHighReps: includeHighReps))
    }

    public static func workouts(_ workouts: [WorkoutSummary], unit: MassUnit) -> String {
        jsonString(WorkoutListDTO(workouts, unit: unit))
    }
}
