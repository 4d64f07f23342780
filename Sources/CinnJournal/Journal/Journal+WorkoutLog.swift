import CinnCore
import CinnStore
import Foundation

/// How a workout starts: empty, from a routine, or repeating a past workout's exercises.
public enum WorkoutStart: Sendable, Hashable {
    case empty
    case routine(UUID)
    case repeating(UUID)
}

/// A workout and the records its sets set (by set index), as the workout page and the finish summary show them.
public struct WorkoutWithRecords: Sendable {
    public var stored: StoredWorkout
    public var records: [Int: [WorkoutRecord]]
    public var unit: MassUnit
    public var formula: OneRepMaxFormula
}

/// What the logging page shows, read with one look at the settings and the exercises.
public struct LoggingPage: Sendable {
    public var workout: WorkoutWithRecords
    public var exercises: [LoggingExercise]
    public var clusters: [ExerciseCluster]
    public var settings: UserSettings
}

/// One exercise of a workout as the logging page shows it: its sets done, last time's, what is still planned.
public struct LoggingExercise: Sendable {
    public var name: String
    /// The catalogue's entry, when the exercise is one of it.
    public var catalogue: CatalogueExercise?
    /// Indices into the workout's sets.
    public var done: [Int]
    public var last: LastSets?
    public var planned: PlannedExercise?
    public var restSeconds: Int
}

extension Journal {
    /// The rest after a set when neither the exercise nor the routine sets one.
    public static let defaultRestSeconds = 120

    /// Records a whole workout (the API's `POST /workouts`, `cinn workout log`): each set checked (errors name
    /// `sets[2].reps`) and its exercise named as the journal or the catalogue knows it, all saved or nothing.
    public func logWorkout(
        id: UUID? = nil, name: String?, startedAt: String?, endedAt: String?, note: String?, sets: [WorkoutSet],
        inProgress: Bool = false
    ) async throws -> StoredWorkout {
        let settings = try await settings()
        let start = try readingTime(startedAt, settings: settings, field: "started_at")
        var stored = StoredWorkout(
            workout: Workout(
                id: id ?? .v7(at: now()), startedAt: start.instant, utcOffsetSeconds: start.utcOffsetSeconds,
                name: "", sets: try await checkedSets(sets)),
            note: try Note.validated(note, maximumLength: 2000), inProgress: inProgress)
        stored.workout.name = try Self.workoutName(name, startedAt: start)
        if let endedAt {
            let end = try readingTime(endedAt, settings: settings, field: "ended_at")
            stored.durationSeconds = try Self.duration(from: start.instant, to: end.instant)
        }
        guard !stored.workout.sets.isEmpty || inProgress else { throw CinnError.invalid("sets", "a workout needs at least one set") }
        try await store.saveWorkout(stored, user: user)
        return stored
    }

    /// Changes a workout, logged or imported (`PATCH /workouts/{id}`): what is nil stays; `sets` replaces them all.
    public func editWorkout(
        id: UUID, name: String?, startedAt: String?, endedAt: String?, note: String??, sets: [WorkoutSet]?,
        inProgress: Bool?
    ) async throws -> StoredWorkout {
        let settings = try await settings()
        let start = try startedAt.map { try readingTime($0, settings: settings, field: "started_at") }
        let end = try endedAt.map { try readingTime($0, settings: settings, field: "ended_at") }
        var checked: [WorkoutSet]?
        if let sets { checked = try await checkedSets(sets) }
        let newSets = checked
        let cleanNote = try note.map { try Note.validated($0, maximumLength: 2000) }
        return try await store.updateWorkout(id: id, user: user) { stored in
            if let start {
                stored.workout.startedAt = start.instant
                stored.workout.utcOffsetSeconds = start.utcOffsetSeconds
            }
            if let end { stored.durationSeconds = try Self.duration(from: stored.workout.startedAt, to: end.instant) }
            if let name {
                stored.workout.name = try Self.workoutName(name, startedAt: (stored.workout.startedAt, stored.workout.utcOffsetSeconds))
            }
            if let cleanNote { stored.note = cleanNote }
            if let newSets { stored.workout.sets = newSets }
            if let inProgress {
                stored.inProgress = inProgress
                if !inProgress { stored.plan = [] }
            }
            guard !stored.workout.sets.isEmpty || stored.inProgress else {
                throw CinnError.invalid("sets", "a workout needs at least one set")
            }
        }
    }

    /// Deletes a workout; its exercises' days and records are computed again.
    public func deleteWorkout(id: UUID) async throws {
        try await store.deleteWorkout(id: id, user: user)
    }

    /// Starts a workout being logged, or returns the one already in progress (one at a time).
    public func startWorkout(_ start: WorkoutStart) async throws -> StoredWorkout {
        if let current = try await store.workoutInProgress(user: user) { return current }
        let settings = try await settings()
        let instant = now()
        let offset = settings.timeZone.secondsFromGMT(for: instant)
        var name = Self.timeOfDayName(LocalDateTime(instant: instant, utcOffsetSeconds: offset))
        var plan: [PlannedExercise] = []
        switch start {
        case .empty:
            break
        case .routine(let id):
            guard let routine = try await store.routine(id: id, user: user) else {
                throw CinnError.notFound("no routine \(id.lowercasedString)")
            }
            name = routine.name
            plan = routine.exercises
        case .repeating(let id):
            guard let past = try await store.workout(id: id, user: user) else {
                throw CinnError.notFound("no workout \(id.lowercasedString)")
            }
            name = past.workout.name
            plan = Self.plan(of: past.workout.sets)
        }
        let stored = StoredWorkout(
            workout: Workout(id: .v7(at: instant), startedAt: instant, utcOffsetSeconds: offset, name: name, sets: []),
            inProgress: true, plan: plan)
        try await store.saveWorkout(stored, user: user)
        return stored
    }

    /// The workout being logged, if any.
    public func workoutInProgress() async throws -> StoredWorkout? {
        try await store.workoutInProgress(user: user)
    }

    /// Adds an exercise to a workout's plan (found in the journal or the catalogue, or new): as many sets as its
    /// last workout's working sets, or 3.
    public func addExercise(_ name: String, to id: UUID) async throws -> StoredWorkout {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !ExerciseKey.normalised(trimmed).isEmpty, trimmed.count <= LoggedSet.maximumExerciseName else {
            throw CinnError.invalid("exercise", "exercise must name an exercise (at most 200 characters)")
        }
        let clusters = try await exerciseClusters()
        let stored = ExerciseCatalogue.builtIn.storedName(for: trimmed, among: clusters)
        var last: LastSets?
        if let cluster = try? ExerciseCluster.named(stored, among: clusters) {
            last = try await store.lastSets(user: user, exerciseRows: cluster.rows, before: now(), excluding: id)
        }
        let sets = min(PlannedExercise.setsRange.upperBound, last.map { $0.sets.filter { $0.kind != SetKind.warmUp }.count } ?? 3)
        return try await store.updateWorkout(id: id, user: user) { workout in
            let key = ExerciseKey.normalised(stored)
            guard !workout.plan.contains(where: { ExerciseKey.normalised($0.exercise) == key }) else { return }
            workout.plan.append(PlannedExercise(exercise: stored, sets: max(1, sets)))
        }
    }

    /// Logs a set as done: appended, or replacing set `position` (an edit); checked as the API checks one.
    public func logSet(_ set: WorkoutSet, in id: UUID, replacing position: Int? = nil) async throws -> StoredWorkout {
        var valid = try LoggedSet.validated(set, at: "set")
        valid.exercise = ExerciseCatalogue.builtIn.storedName(for: valid.exercise, among: try await exerciseClusters())
        let checked = valid
        return try await store.updateWorkout(id: id, user: user) { workout in
            if let position {
                guard workout.workout.sets.indices.contains(position) else { throw CinnError.notFound("no such set in this workout") }
                workout.workout.sets[position] = checked
            } else {
                workout.workout.sets.append(checked)
            }
        }
    }

    /// Removes set `position` of a workout.
    public func removeSet(_ position: Int, from id: UUID) async throws -> StoredWorkout {
        try await store.updateWorkout(id: id, user: user) { workout in
            guard workout.workout.sets.indices.contains(position) else { throw CinnError.notFound("no such set in this workout") }
            workout.workout.sets.remove(at: position)
        }
    }

    /// Moves the planned exercise named `name` one place up or down, or takes it out of the plan.
    public func changePlan(of id: UUID, exercise name: String, move: Int?, remove: Bool) async throws -> StoredWorkout {
        try await store.updateWorkout(id: id, user: user) { workout in
            let key = ExerciseKey.normalised(name)
            guard let index = workout.plan.firstIndex(where: { ExerciseKey.normalised($0.exercise) == key }) else { return }
            if remove {
                workout.plan.remove(at: index)
            } else if let move, workout.plan.indices.contains(index + move) {
                workout.plan.swapAt(index, index + move)
            }
        }
    }

    /// Finishes the workout being logged: its duration is the time since it started; a workout with no set is
    /// discarded instead. Returns the workout with its records, or nil when discarded.
    public func finishWorkout(_ id: UUID) async throws -> WorkoutWithRecords? {
        guard let current = try await store.workout(id: id, user: user) else {
            throw CinnError.notFound("no workout \(id.lowercasedString)")
        }
        guard current.inProgress else { return try await workoutWithRecords(current) }
        if current.workout.sets.isEmpty {
            try await store.deleteWorkout(id: id, user: user)
            return nil
        }
        let finished = try await store.updateWorkout(id: id, user: user) { workout in
            workout.inProgress = false
            workout.plan = []
            workout.durationSeconds = max(0, min(Self.maximumDuration, now().timeIntervalSince(workout.workout.startedAt)))
        }
        return try await workoutWithRecords(finished)
    }

    /// The records a workout's sets set against the days before it (the user's formula; estimates from 1 to 10 reps).
    public func workoutWithRecords(_ stored: StoredWorkout) async throws -> WorkoutWithRecords {
        try await workoutWithRecords(stored, settings: try await settings(), clusterOf: ExerciseCluster.byKey(try await exerciseClusters()))
    }

    /// The logging page's content: the workout with its records and its exercises with last time's sets.
    public func loggingPage(_ stored: StoredWorkout) async throws -> LoggingPage {
        let settings = try await settings(), clusters = try await exerciseClusters()
        let clusterOf = ExerciseCluster.byKey(clusters)
        return LoggingPage(
            workout: try await workoutWithRecords(stored, settings: settings, clusterOf: clusterOf),
            exercises: try await loggingExercises(stored, clusterOf: clusterOf), clusters: clusters, settings: settings)
    }

    private func workoutWithRecords(
        _ stored: StoredWorkout, settings: UserSettings,
        clusterOf: [String: ExerciseCluster]
    ) async throws -> WorkoutWithRecords {
        func key(_ set: WorkoutSet) -> String {
            let name = ExerciseKey.normalised(set.exercise)
            return clusterOf[name].map { $0.root.id.lowercasedString } ?? name
        }
        let day = stored.workout.localDate
        var before: [String: ExerciseReport] = [:]
        let used = Set(stored.workout.sets.map { ExerciseKey.normalised($0.exercise) }).compactMap { clusterOf[$0] }
        let days = try await store.exerciseDays(exerciseRows: used.flatMap(\.rows))
        for cluster in used {
            let earlier = cluster.rows.flatMap { days[$0] ?? [] }.filter { $0.day < day }
            before[cluster.root.id.lowercasedString] = ExerciseReport.compute(
                days: earlier, formula: settings.oneRepMaxFormula,
                today: day.adding(days: -1), weeks: 1)
        }
        let records = WorkoutRecords.find(sets: stored.workout.sets, exercise: key, before: before, formula: settings.oneRepMaxFormula)
        return WorkoutWithRecords(
            stored: stored, records: records, unit: settings.displayUnit.liftingUnit, formula: settings.oneRepMaxFormula)
    }

    /// The exercises of a workout being logged, in order: those with sets done, then those planned and not yet begun.
    private func loggingExercises(_ stored: StoredWorkout, clusterOf clusters: [String: ExerciseCluster]) async throws -> [LoggingExercise]
    {
        var names: [String] = []
        var done: [String: [Int]] = [:]
        for (index, set) in stored.workout.sets.enumerated() {
            let key = ExerciseKey.normalised(set.exercise)
            if done[key] == nil { names.append(set.exercise) }
            done[key, default: []].append(index)
        }
        for planned in stored.plan
        where done[ExerciseKey.normalised(planned.exercise)] == nil
            && !names.contains(where: { ExerciseKey.normalised($0) == ExerciseKey.normalised(planned.exercise) })
        {
            names.append(planned.exercise)
        }
        var result: [LoggingExercise] = []
        for name in names {
            let key = ExerciseKey.normalised(name)
            let cluster = clusters[key]
            let planned = stored.plan.first { ExerciseKey.normalised($0.exercise) == key }
            var last: LastSets?, rest: Int?
            if let cluster {
                last = try await store.lastSets(
                    user: user, exerciseRows: cluster.rows, before: stored.workout.startedAt, excluding: stored.workout.id)
                rest = try await store.exerciseRest(user: user, exerciseRows: cluster.rows)
            }
            result.append(
                LoggingExercise(
                    name: name, catalogue: ExerciseCatalogue.builtIn.exercise(named: name), done: done[key] ?? [],
                    last: last, planned: planned,
                    restSeconds: planned?.restSeconds ?? rest ?? Self.defaultRestSeconds))
        }
        return result
    }

    /// The last sets of the exercise named `name` (any of its names) or with that id, before now.
    public func lastSets(of name: String) async throws -> (exercise: ExerciseCluster, last: LastSets?) {
        let cluster = try await exercise(named: name)
        return (
            cluster, try await store.lastSets(user: user, exerciseRows: cluster.rows, before: now().addingTimeInterval(1), excluding: nil)
        )
    }

    /// Sets the rest after a set of the exercise named `name` (nil: the default).
    public func setRest(_ seconds: Int?, exercise name: String) async throws {
        if let seconds, !PlannedExercise.restRange.contains(seconds) {
            throw CinnError.invalid("rest_s", "rest_s must be between 0 and 3600 seconds")
        }
        try await store.setExerciseRest(seconds, exercise: try await exercise(named: name).root.id, user: user)
    }

    // MARK: Routines

    public func routines() async throws -> [Routine] { try await store.routines(user: user) }

    public func routine(_ id: UUID) async throws -> Routine {
        guard let routine = try await store.routine(id: id, user: user) else {
            throw CinnError.notFound("no routine \(id.lowercasedString)")
        }
        return routine
    }

    /// Saves a routine after checking it; its exercises are named as the journal or the catalogue knows them.
    @discardableResult
    public func saveRoutine(_ routine: Routine) async throws -> Routine {
        var checked = try routine.validated()
        let clusters = try await exerciseClusters()
        for index in checked.exercises.indices {
            checked.exercises[index].exercise = ExerciseCatalogue.builtIn.storedName(
                for: checked.exercises[index].exercise, among: clusters)
        }
        try await store.saveRoutine(checked, user: user)
        return checked
    }

    /// A new routine of a workout's exercises: each with its number of working sets and its heaviest working set's reps and weight.
    public func routine(fromWorkout id: UUID, name: String?) async throws -> Routine {
        guard let workout = try await store.workout(id: id, user: user) else {
            throw CinnError.notFound("no workout \(id.lowercasedString)")
        }
        return try await saveRoutine(Routine(name: name ?? workout.workout.name, exercises: Self.plan(of: workout.workout.sets)))
    }

    public func deleteRoutine(_ id: UUID) async throws { try await store.deleteRoutine(id: id, user: user) }

    /// Finds a routine by id or name (ignoring case).
    public func routine(named text: String) async throws -> Routine {
        if let id = UUID(text: text) { return try await routine(id) }
        let routines = try await routines()
        guard let routine = routines.first(where: { $0.name.compare(text, options: .caseInsensitive) == .orderedSame }) else {
            throw CinnError.notFound("no routine named \"\(text)\"")
        }
        return routine
    }

    /// Sets the bar and plates the plate calculator uses (nil: a gym's).
    public func setPlates(_ plates: PlateSet?) async throws {
        var settings = try await settings()
        settings.plateSet = plates
        try await store.saveSettings(settings, user: user)
    }

    // MARK: Helpers

    /// A workout lasts at most two days (sync's limit).
    static let maximumDuration: TimeInterval = 172_800

    static func duration(from start: Date, to end: Date) throws -> Double {
        let seconds = end.timeIntervalSince(start)
        guard seconds >= 0 else { throw CinnError.invalid("ended_at", "ended_at is before started_at") }
        guard seconds <= maximumDuration else { throw CinnError.invalid("ended_at", "a workout lasts at most 48 hours") }
        return seconds
    }

    /// The name given, or one from the time of day ("Morning workout").
    static func workoutName(_ name: String?, startedAt: (instant: Date, utcOffsetSeconds: Int)) throws -> String {
        let trimmed = name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard trimmed.count <= 200 else { throw CinnError.invalid("name", "name is longer than 200 characters") }
        try ValidValues.plainText(trimmed, field: "name", allowingLineBreaks: false)
        if !trimmed.isEmpty { return trimmed }
        return timeOfDayName(LocalDateTime(instant: startedAt.instant, utcOffsetSeconds: startedAt.utcOffsetSeconds))
    }

    static func timeOfDayName(_ time: LocalDateTime) -> String {
        switch Int(time.secondsOfDay) / 3600 {
        case 5..<12: "Morning workout"
        case 12..<17: "Afternoon workout"
        case 17..<22: "Evening workout"
        default: "Night workout"
        }
    }

    /// A workout's exercises as a plan: each with its working sets' count, and the reps and weight of its heaviest.
    static func plan(of sets: [WorkoutSet]) -> [PlannedExercise] {
        var plan: [PlannedExercise] = []
        for set in sets {
            let key = ExerciseKey.normalised(set.exercise)
            let index =
                plan.firstIndex { ExerciseKey.normalised($0.exercise) == key }
                ?? {
                    plan.append(PlannedExercise(exercise: set.exercise, sets: 0))
                    return plan.count - 1
                }()
            guard set.kind != .warmUp else { continue }
            plan[index].sets += 1
            if (set.weight?.kilograms ?? 0) >= (plan[index].weight?.kilograms ?? 0) {
                plan[index].weight = set.weight
                plan[index].reps = set.reps
            }
        }
        return plan.filter { $0.sets > 0 }.map { planned in
            var planned = planned
            planned.sets = min(planned.sets, PlannedExercise.setsRange.upperBound)
            return planned
        }
    }

    /// Each set checked (`sets[2].reps`) and its exercise named as the journal or the catalogue knows it.
    private func checkedSets(_ sets: [WorkoutSet]) async throws -> [WorkoutSet] {
        guard sets.count <= 1000 else { throw CinnError.invalid("sets", "a workout has at most 1000 sets") }
        let checked = try sets.enumerated().map { try LoggedSet.validated($0.element, at: "sets[\($0.offset)]") }
        guard !checked.isEmpty else { return [] }
        let clusters = try await exerciseClusters()
        var names: [String: String] = [:]
        return checked.map { set in
            var set = set
            if let known = names[set.exercise] {
                set.exercise = known
            } else {
                let stored = ExerciseCatalogue.builtIn.storedName(for: set.exercise, among: clusters)
                names[set.exercise] = stored
                set.exercise = stored
            }
            return set
        }
    }
}
