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

    enum CodingKeys: String, CodingKey {
        case date, weight, reps, kind
        case weightKg = "weight_kg"
    }

    init(_ set: LiftedSet, unit: MassUnit) {
        date = set.day.iso
        weight = WorkoutDTO.rounded(set.weight.value(in: unit))
        weightKg = set.weight.kilograms
        reps = set.reps
        kind = set.kind.apiName
    }
}

/// An estimate in the API: as shown (whole, truncated), as computed, and the set it came from.
struct EstimateDTO: Encodable {
    let shown: String
    let value: Double
    let valueKg: Double
    let lowConfidence: Bool
    let set: LiftedSetDTO
    @Nullable var workoutID: String?

    enum CodingKeys: String, CodingKey {
        case shown, value, set
        case valueKg = "value_kg"
        case lowConfidence = "low_confidence"
        case workoutID = "workout_id"
    }

    init(_ estimate: EstimatedMax, unit: MassUnit, workout: UUID? = nil) {
        shown = estimate.oneRepMax.formatted(in: unit)
        value = estimate.oneRepMax.estimate.value(in: unit)
        valueKg = estimate.oneRepMax.estimate.kilograms
        lowConfidence = estimate.oneRepMax.lowConfidence
        set = LiftedSetDTO(estimate.set, unit: unit)
        workoutID = workout?.lowercasedString
    }
}

/// `GET /api/v1/exercises`: an exercise in the list.
package struct ExerciseSummaryDTO: Encodable {
    let id: String
    let name: String
    let aliases: [String]
    @Nullable var lastDate: String?
    @Nullable var current: EstimateDTO?
    @Nullable var best: EstimateDTO?

    enum CodingKeys: String, CodingKey {
        case id, name, aliases, current, best
        case lastDate = "last_date"
    }

    package init(_ summary: ExerciseSummary, unit: MassUnit) {
        id = summary.id.lowercasedString
        name = summary.name
        aliases = summary.aliases
        lastDate = summary.lastDay?.iso
        current = summary.current.map { EstimateDTO($0, unit: unit) }
        best = summary.best.map { EstimateDTO($0, unit: unit) }
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
    @Nullable var current: EstimateDTO?
    @Nullable var best: EstimateDTO?
    @Nullable var heaviest: LiftedSetDTO?
    @Nullable var bestSetVolume: LiftedSetDTO?
    let repMaxes: [RepMaxDTO]
    let weeklyVolume: [WeekDTO]
    let history: [DayDTO]
    let totalSets: Int
    @Nullable var firstDate: String?
    @Nullable var lastDate: String?

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

    package init(_ page: ExercisePage, includeHighReps: Bool) {
        let unit = page.unit, report = page.report
        id = page.exercise.root.id.lowercasedString
        name = page.exercise.root.name
        aliases = page.exercise.aliases.map(\.name)
        self.unit = unit.rawValue
        formula = report.formula.rawValue
        self.includeHighReps = includeHighReps
        current = report.current.map { EstimateDTO($0, unit: unit, workout: page.currentWorkout) }
        best = report.best.map { EstimateDTO($0, unit: unit, workout: page.bestWorkout) }
        heaviest = report.heaviest.map { LiftedSetDTO($0, unit: unit) }
        bestSetVolume = report.bestSetVolume.map { LiftedSetDTO($0, unit: unit) }
        repMaxes = report.repMaxes.map { RepMaxDTO(reps: $0.reps, set: LiftedSetDTO($0.set, unit: unit)) }
        weeklyVolume = report.weeklyVolume.map {
            WeekDTO(
                weekStart: $0.weekStart.iso, volume: WorkoutDTO.rounded($0.volume.value(in: unit)), volumeKg: $0.volume.kilograms,
                sets: $0.sets)
        }
        history = report.history.map {
            DayDTO(
                date: $0.day.iso, estimate: WorkoutDTO.rounded($0.oneRepMax.estimate.value(in: unit)), set: LiftedSetDTO($0.set, unit: unit)
            )
        }
        totalSets = report.totalSets
        firstDate = report.firstDay?.iso
        lastDate = report.lastDay?.iso
    }
}

/// `GET /api/v1/workouts`: a workout in the list.
struct WorkoutSummaryDTO: Encodable {
    let id: String
    let startedAt: String
    let date: String
    let name: String
    let source: String
    @Nullable var durationSeconds: Double?
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
        durationSeconds = summary.durationSeconds
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

/// `GET /api/v1/workouts/{id}`: a workout with its sets, each with the records it set.
package struct WorkoutDTO: Encodable {
    struct SetDTO: Encodable {
        let exercise: String
        @Nullable var reps: Int?
        @Nullable var weight: Double?
        @Nullable var weightKg: Double?
        @Nullable var durationSeconds: Double?
        @Nullable var distanceMetres: Double?
        let kind: String
        @Nullable var rpe: Double?
        @Nullable var rir: Int?
        @Nullable var note: String?
        @Nullable var loadMultiplier: Double?
        @Nullable var estimate: String?
        let records: [RecordDTO]?

        init(_ set: WorkoutSet, unit: MassUnit, formula: OneRepMaxFormula, records: [WorkoutRecord]?) {
            exercise = set.exercise
            reps = set.reps
            weight = set.weight.map { WorkoutDTO.rounded($0.value(in: unit)) }
            weightKg = set.weight?.kilograms
            durationSeconds = set.durationSeconds
            distanceMetres = set.distanceMetres
            kind = set.kind.apiName
            rpe = set.rpe
            rir = set.rir
            note = set.note
            loadMultiplier = set.loadMultiplier
            estimate = set.oneRepMax(formula: formula).map { $0.formatted(in: unit) }
            self.records = records.map { $0.map(RecordDTO.init) }
        }

        enum CodingKeys: String, CodingKey {
            case exercise, reps, weight, kind, rpe, rir, note, estimate, records
            case loadMultiplier = "load_multiplier"
            case weightKg = "weight_kg"
            case durationSeconds = "duration_s"
            case distanceMetres = "distance_m"
        }
    }

    struct RecordDTO: Encodable {
        let kind: String
        let reps: Int?
        let title: String

        init(_ record: WorkoutRecord) {
            kind = record.apiName
            if case .repMax(let count) = record { reps = count } else { reps = nil }
            title = record.title
        }
    }

    struct PlannedDTO: Encodable {
        let exercise: String
        let sets: Int
        @Nullable var reps: Int?
        @Nullable var weight: Double?
        @Nullable var restSeconds: Int?

        enum CodingKeys: String, CodingKey {
            case exercise, sets, reps, weight
            case restSeconds = "rest_s"
        }
    }

    let id: String
    let startedAt: String
    @Nullable var endedAt: String?
    let date: String
    let name: String
    let source: String
    @Nullable var durationSeconds: Double?
    let inProgress: Bool
    @Nullable var note: String?
    let unit: String
    let sets: [SetDTO]
    let plan: [PlannedDTO]

    /// `records`: each set's records by index, when they were worked out (every set then has a list, maybe empty).
    package init(_ stored: StoredWorkout, unit: MassUnit, formula: OneRepMaxFormula, records: [Int: [WorkoutRecord]]? = nil) {
        let workout = stored.workout
        id = workout.id.lowercasedString
        startedAt = WeighIn.isoString(instant: workout.startedAt, utcOffsetSeconds: workout.utcOffsetSeconds)
        endedAt =
            stored.durationSeconds.map {
                WeighIn.isoString(instant: workout.startedAt.addingTimeInterval($0.rounded()), utcOffsetSeconds: workout.utcOffsetSeconds)
            }
        date = workout.localDate.iso
        name = workout.name
        source = workout.source
        durationSeconds = stored.durationSeconds
        inProgress = stored.inProgress
        note = stored.note
        self.unit = unit.rawValue
        sets = workout.sets.enumerated().map { index, set in
            SetDTO(set, unit: unit, formula: formula, records: records.map { $0[index] ?? [] })
        }
        plan = stored.plan.map {
            PlannedDTO(
                exercise: $0.exercise, sets: $0.sets, reps: $0.reps,
                weight: $0.weight.map { Self.rounded($0.value(in: unit)) },
                restSeconds: $0.restSeconds)
        }
    }

    package init(_ workout: WorkoutWithRecords) {
        self.init(workout.stored, unit: workout.unit, formula: workout.formula, records: workout.records)
    }

    enum CodingKeys: String, CodingKey {
        case id, date, name, source, note, unit, sets, plan
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case durationSeconds = "duration_s"
        case inProgress = "in_progress"
    }

    /// A weight in a display unit to hundredths, so pounds stored as kilograms read back as written.
    static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}

/// A set in `POST` and `PATCH /api/v1/workouts`: the weight in `unit` (the lifting unit when absent).
package struct SetRequest: Decodable {
    let exercise: String
    let weight: Double?
    let unit: String?
    let reps: Int?
    let kind: String?
    let rpe: Double?
    let rir: Int?
    let note: String?
    let durationSeconds: Double?
    let distanceMetres: Double?
    let loadMultiplier: Double?

    enum CodingKeys: String, CodingKey {
        case exercise, weight, unit, reps, kind, rpe, rir, note
        case durationSeconds = "duration_s"
        case distanceMetres = "distance_m"
        case loadMultiplier = "load_multiplier"
    }

    /// The set, its unit and kind read; errors name `prefix.unit` and `prefix.kind` (the rest is checked by `LoggedSet`).
    package func set(at prefix: String, unit defaultUnit: MassUnit) throws -> WorkoutSet {
        let unit = try self.unit.map { text in try MassUnit.parse(text, field: "\(prefix).unit") } ?? defaultUnit
        return WorkoutSet(
            exercise: exercise, reps: reps, weight: weight.map { Mass($0, unit) }, durationSeconds: durationSeconds,
            distanceMetres: distanceMetres, kind: try kind.map { try SetKind.parse($0, field: "\(prefix).kind") } ?? .normal,
            rpe: rpe, rir: rir, note: note, loadMultiplier: loadMultiplier)
    }
}

/// `POST /api/v1/workouts` and `PATCH /api/v1/workouts/{id}` (where every member may be left out, and a `note` of
/// null clears it).
package struct WorkoutRequest: Decodable {
    package let id: String?
    package let startedAt: String?
    package let endedAt: String?
    package let name: String?
    /// Absent: leave it; null: clear it.
    package let note: String??
    package let inProgress: Bool?
    package let sets: [SetRequest]?

    enum CodingKeys: String, CodingKey {
        case id, name, note, sets
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case inProgress = "in_progress"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(String.self, forKey: .id)
        startedAt = try container.decodeIfPresent(String.self, forKey: .startedAt)
        endedAt = try container.decodeIfPresent(String.self, forKey: .endedAt)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        note = container.contains(.note) ? .some(try container.decodeIfPresent(String.self, forKey: .note)) : nil
        inProgress = try container.decodeIfPresent(Bool.self, forKey: .inProgress)
        sets = try container.decodeIfPresent([SetRequest].self, forKey: .sets)
    }

    package func workoutSets(unit: MassUnit) throws -> [WorkoutSet]? {
        try sets.map { sets in try sets.enumerated().map { try $0.element.set(at: "sets[\($0.offset)]", unit: unit) } }
    }
}

/// `POST /api/v1/routines` and `PUT /api/v1/routines/{id}`: a routine's name, note and exercises (weights in
/// `unit`, the lifting unit when absent), or, for a new one, `from_workout` to copy a workout's exercises.
package struct RoutineRequest: Decodable {
    package struct Exercise: Decodable {
        let exercise: String
        let sets: Int
        let reps: Int?
        let weight: Double?
        let restSeconds: Int?
        let note: String?

        enum CodingKeys: String, CodingKey {
            case exercise, sets, reps, weight, note
            case restSeconds = "rest_s"
        }
    }

    package let id: String?
    package let name: String?
    package let note: String?
    package let unit: String?
    package let exercises: [Exercise]?
    package let fromWorkout: String?

    enum CodingKeys: String, CodingKey {
        case id, name, note, unit, exercises
        case fromWorkout = "from_workout"
    }

    package func routine(id: UUID, unit defaultUnit: MassUnit) throws -> Routine {
        let unit = try self.unit.map { text in try MassUnit.parse(text, field: "unit") } ?? defaultUnit
        guard let name else { throw CinnError.invalid("name", "name is required") }
        guard let exercises else { throw CinnError.invalid("exercises", "exercises is required") }
        return Routine(
            id: id, name: name, note: note,
            exercises: exercises.map {
                PlannedExercise(
                    exercise: $0.exercise, sets: $0.sets, reps: $0.reps, weight: $0.weight.map { Mass($0, unit) },
                    restSeconds: $0.restSeconds, note: $0.note)
            })
    }
}

/// A routine in the API.
package struct RoutineDTO: Encodable {
    let id: String
    let name: String
    @Nullable var note: String?
    let unit: String
    let exercises: [WorkoutDTO.PlannedDTO]

    package init(_ routine: Routine, unit: MassUnit) {
        id = routine.id.lowercasedString
        name = routine.name
        note = routine.note
        self.unit = unit.rawValue
        exercises = routine.exercises.map {
            WorkoutDTO.PlannedDTO(
                exercise: $0.exercise, sets: $0.sets, reps: $0.reps,
                weight: $0.weight.map { WorkoutDTO.rounded($0.value(in: unit)) }, restSeconds: $0.restSeconds)
        }
    }
}

/// `GET /api/v1/exercises/{id}/last`: the exercise's sets in the last workout that had it.
package struct LastSetsDTO: Encodable {
    let exercise: String
    let exerciseID: String
    @Nullable var workoutID: String?
    @Nullable var startedAt: String?
    @Nullable var date: String?
    let unit: String
    let sets: [WorkoutDTO.SetDTO]

    enum CodingKeys: String, CodingKey {
        case exercise, date, unit, sets
        case exerciseID = "exercise_id"
        case workoutID = "workout_id"
        case startedAt = "started_at"
    }

    package init(exercise: ExerciseCluster, last: LastSets?, unit: MassUnit, formula: OneRepMaxFormula) {
        self.exercise = exercise.root.name
        exerciseID = exercise.root.id.lowercasedString
        workoutID = last?.workoutID.lowercasedString
        startedAt = last.map { WeighIn.isoString(instant: $0.startedAt, utcOffsetSeconds: $0.utcOffsetSeconds) }
        date = last?.localDate.iso
        self.unit = unit.rawValue
        sets = last?.sets.map { WorkoutDTO.SetDTO($0, unit: unit, formula: formula, records: nil) } ?? []
    }
}

/// The API's JSON for the CLI's `--format json`, so both speak the same.
public enum WorkoutJSON {
    public static func lifts(_ lifts: (exercises: [ExerciseSummary], unit: MassUnit, formula: OneRepMaxFormula)) throws(CinnError) -> String
    {
        try jsonString(ExerciseListDTO(lifts))
    }

    public static func exercise(_ page: ExercisePage, includeHighReps: Bool) throws(CinnError) -> String {
        try jsonString(ExercisePageDTO(page, includeHighReps: includeHighReps))
    }

    public static func workouts(_ workouts: [WorkoutSummary], unit: MassUnit) throws(CinnError) -> String {
        try jsonString(WorkoutListDTO(workouts, unit: unit))
    }

    public static func workout(_ workout: WorkoutWithRecords) throws(CinnError) -> String {
        try jsonString(WorkoutDTO(workout))
    }
}
