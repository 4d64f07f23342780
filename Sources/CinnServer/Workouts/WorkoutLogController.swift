import CinnCore
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// Logging a workout in the web app: start one, add exercises, mark sets done (each saved as it is marked), rest,
/// finish; edit a past one; routines; the rest after an exercise's sets and the plates owned. Every page works as
/// plain forms; `workout-log.js` adds the running clocks.
struct WorkoutLogController {
    typealias Context = JournalRequestContext

    func addRoutes(to router: RouterGroup<Context>) {
        router.post(Site.startWorkout, use: start)
        router.get(Site.workoutLog, use: log)
        router.post(Site.workoutSets, use: saveSet)
        router.post(Site.deleteWorkoutSet, use: deleteSet)
        router.post(Site.workoutExercises, use: addExercise)
        router.post(Site.workoutPlan, use: changePlan)
        router.post(Site.workoutDetails, use: details)
        router.post(Site.finishWorkout, use: finish)
        router.post(Site.workoutAsRoutine, use: saveAsRoutine)
        router.get(Site.routines, use: routines)
        router.get(Site.newRoutine, use: newRoutine)
        router.post(Site.routines, use: createRoutine)
        router.get(Site.routine, use: routine)
        router.post(Site.routine, use: updateRoutine)
        router.post(Site.deleteRoutine, use: deleteRoutine)
        router.post(Site.exerciseRest, use: setRest)
        router.post(Site.plates, use: setPlates)
    }

    static func logPath(_ id: UUID) -> String { Site.workoutLog.path(id) }

    /// Starts a workout: empty, from `routine`, or repeating `repeat`; one in progress is continued instead.
    @Sendable func start(_ request: Request, context: Context) async throws -> WebAnswer {
        struct StartForm: Decodable {
            @Field var routine: String?
            @Field var `repeat`: String?
            @Field var key: String?
        }
        let form = try await request.decodeForm(StartForm.self)
        let start: WorkoutStart
        if let routine = form.routine {
            guard let id = UUID(text: routine) else { throw CinnError.invalid("routine", "no such routine") }
            start = .routine(id)
        } else if let past = form.repeat {
            guard let id = UUID(text: past) else { throw CinnError.invalid("repeat", "no such workout") }
            start = .repeating(id)
        } else {
            start = .empty
        }
        // Sent again, the post starts nothing: it goes to the workout in progress, or to Lifts when that one is done.
        return try await FormKeys.once(try form.$key.uuid(), in: context.journal) {
            .redirect(Self.logPath(try await context.journal.startWorkout(start).workout.id))
        } answer: {
            guard let current = try await context.journal.workoutInProgress() else { return .redirect(Site.lifts.path) }
            return .redirect(Self.logPath(current.workout.id))
        }
    }

    @Sendable func log(_ request: Request, context: Context) async throws -> WebAnswer {
        let journal = context.journal
        guard let stored = try await journal.workout(id: try idParameter(context, "workout")) else {
            throw CinnError.notFound("no such workout")
        }
        let content = try await journal.loggingPage(stored)
        var rest: WorkoutLogPage.Rest?
        // The rest after the set just marked done (`?rest=SECONDS&at=MS`): shown until 30 s after it ends. `at` is
        // compared before any arithmetic, so no number in the address can overflow it.
        let nowMs = journal.now().millisecondsSince1970
        if let seconds = request.query("rest").flatMap(Int.init), PlannedExercise.restRange.contains(seconds), seconds > 0,
            let at = request.query("at").flatMap(Int64.init), at > nowMs - 7_200_000, at <= nowMs
        {
            let endsAt = at + Int64(seconds) * 1000
            if nowMs < endsAt + 30_000 {
                rest = WorkoutLogPage.Rest(seconds: seconds, endsAtMs: endsAt, exercise: request.query("after") ?? "")
            }
        }
        let page = WorkoutLogPage(
            stored, exercises: content.exercises, clusters: content.clusters, unit: content.workout.unit,
            plates: content.settings.plates, records: content.workout.records, rest: rest)
        let title = stored.inProgress ? "Logging \(stored.workout.name)" : "Editing \(stored.workout.name)"
        return .page("workout-log", page, title: title, tab: .lifts, notice: Done.notice(request))
    }

    /// Marks a set done (or, with `position`, saves an edit of one); the page comes back at the exercise, with the
    /// rest timer running after a new set.
    @Sendable func saveSet(_ request: Request, context: Context) async throws -> WebAnswer {
        let id = try idParameter(context, "workout")
        let form = try await request.decodeForm(SetForm.self)
        let unit = try await context.journal.settings().displayUnit.liftingUnit
        guard let exercise = form.exercise else { throw CinnError.invalid("exercise", "name the exercise") }
        let set = WorkoutSet(
            exercise: exercise, reps: try form.$reps.integer(), weight: try form.$weight.number().map { Mass($0, unit) },
            kind: try form.kind.map { try SetKind.parse($0, field: "kind") } ?? .normal,
            rpe: try form.$rpe.number(), rir: try form.$rir.integer(), note: form.note)
        let position = try form.$position.integer()
        func anchor(_ exercise: String) -> String {
            "#" + (WorkoutLogPage.anchor(exercise).addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed) ?? "")
        }
        // A new set carries its form's key: sent again, it adds nothing and comes back to the exercise.
        let key = position == nil ? try form.$key.uuid() : nil
        return try await FormKeys.once(key, in: context.journal) {
            let stored = try await context.journal.logSet(set, in: id, replacing: position)
            let done = anchor(stored.workout.sets[position ?? stored.workout.sets.count - 1].exercise)
            guard position == nil, stored.inProgress, let rest = try form.$rest.integer(), rest > 0 else {
                return .redirect(Self.logPath(id) + done)
            }
            let at = context.journal.now().millisecondsSince1970
            let after = exercise.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            return .redirect(Self.logPath(id) + "?rest=\(min(rest, PlannedExercise.restRange.upperBound))&at=\(at)&after=\(after)" + done)
        } answer: {
            let stored = ExerciseCatalogue.builtIn.storedName(for: exercise, among: try await context.journal.exerciseClusters())
            return .redirect(Self.logPath(id) + anchor(stored))
        }
    }

    @Sendable func deleteSet(_ request: Request, context: Context) async throws -> WebAnswer {
        let id = try idParameter(context, "workout")
        guard let position = context.parameters.get("position").flatMap(Int.init) else { throw CinnError.notFound("no such set") }
        _ = try await context.journal.removeSet(position, from: id)
        return .redirect(Self.logPath(id))
    }

    @Sendable func addExercise(_ request: Request, context: Context) async throws -> WebAnswer {
        let id = try idParameter(context, "workout")
        let form = try await request.decodeForm(ExerciseForm.self)
        let stored = try await context.journal.addExercise(form.exercise ?? "", to: id)
        let added = stored.plan.last.map { WorkoutLogPage.anchor($0.exercise) } ?? ""
        return .redirect(Self.logPath(id) + "#" + (added.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed) ?? ""))
    }

    /// Moves a planned exercise up or down, or takes it out (`action`: up, down, remove).
    @Sendable func changePlan(_ request: Request, context: Context) async throws -> WebAnswer {
        let id = try idParameter(context, "workout")
        let form = try await request.decodeForm(ExerciseForm.self)
        let action = form.action ?? ""
        guard ["up", "down", "remove"].contains(action) else { throw CinnError.invalid("action", "choose up, down or remove") }
        _ = try await context.journal.changePlan(
            of: id, exercise: form.exercise ?? "", move: action == "up" ? -1 : action == "down" ? 1 : nil,
            remove: action == "remove")
        return .redirect(Self.logPath(id))
    }

    /// The workout's name, start time and note.
    @Sendable func details(_ request: Request, context: Context) async throws -> WebAnswer {
        let id = try idParameter(context, "workout")
        struct DetailsForm: Decodable {
            @Field var name: String?
            @Field var startedAt: String?
            @Field var note: String?

            enum CodingKeys: String, CodingKey {
                case name, note
                case startedAt = "started_at"
            }
        }
        let form = try await request.decodeForm(DetailsForm.self)
        _ = try await context.journal.editWorkout(
            id: id, name: form.name, startedAt: form.startedAt, endedAt: nil, note: .some(form.note), sets: nil, inProgress: nil)
        return .redirect(Self.logPath(id))
    }

    /// Finishes the workout: its summary with the records it set (a workout without sets is discarded).
    @Sendable func finish(_ request: Request, context: Context) async throws -> WebAnswer {
        let id = try idParameter(context, "workout")
        guard try await context.journal.finishWorkout(id) != nil else { return Done.workoutDiscarded.redirect(to: Site.lifts.path) }
        return .redirect(Site.workout.path(id) + "?finished=1")
    }

    @Sendable func saveAsRoutine(_ request: Request, context: Context) async throws -> WebAnswer {
        struct KeyForm: Decodable { @Field var key: String? }
        let key = try await request.decodeForm(KeyForm.self).$key.uuid()
        return try await FormKeys.once(key, in: context.journal) {
            let routine = try await context.journal.routine(fromWorkout: try idParameter(context, "workout"), name: nil)
            return Done.routineSaved.redirect(to: Site.routine.path(routine.id))
        } answer: {
            Done.routineSaved.redirect(to: Site.routines.path)
        }
    }

    // MARK: Routines

    func suggestions(_ journal: Journal) async throws -> [String] {
        ExerciseCatalogue.builtIn.suggestions(adding: try await journal.exerciseClusters().map(\.root.name))
    }

    @Sendable func routines(_ request: Request, context: Context) async throws -> WebAnswer {
        let card = WorkoutStartCard(current: nil, routines: try await context.journal.routines())
        return .page(
            "routines", RoutinesPage(routines: card.routines, hasRoutines: card.hasRoutines), title: "Routines", tab: .lifts,
            notice: Done.notice(request))
    }

    @Sendable func newRoutine(_ request: Request, context: Context) async throws -> WebAnswer {
        let unit = try await context.journal.settings().displayUnit.liftingUnit
        let page = RoutineEditorPage(nil, unit: unit, suggestions: try await suggestions(context.journal))
        return .page("routine", page, title: "New routine", tab: .lifts)
    }

    @Sendable func routine(_ request: Request, context: Context) async throws -> WebAnswer {
        let routine = try await context.journal.routine(try idParameter(context, "routine"))
        let unit = try await context.journal.settings().displayUnit.liftingUnit
        let page = RoutineEditorPage(routine, unit: unit, suggestions: try await suggestions(context.journal))
        return .page("routine", page, title: routine.name, tab: .lifts, notice: Done.notice(request))
    }

    @Sendable func createRoutine(_ request: Request, context: Context) async throws -> WebAnswer {
        let form = try await request.decodeForm(RoutineForm.self)
        let id = try form.$key.uuid() ?? .v7()
        // Sent again, the routine is not made twice: its id is the form's key.
        return try await FormKeys.once(id, in: context.journal) {
            try await context.journal.saveRoutine(try await routine(from: form, id: id, context: context))
            return Done.routineSaved.redirect(to: Site.routine.path(id))
        } answer: {
            Done.routineSaved.redirect(to: Site.routine.path(id))
        }
    }

    /// Saves the editor's rows; `action` (up:N, down:N, remove:N) moves or removes row N first.
    @Sendable func updateRoutine(_ request: Request, context: Context) async throws -> WebAnswer {
        let id = try idParameter(context, "routine")
        _ = try await context.journal.routine(id)
        let form = try await request.decodeForm(RoutineForm.self)
        try await context.journal.saveRoutine(try await routine(from: form, id: id, context: context))
        return Done.routineSaved.redirect(to: Site.routine.path(id))
    }

    /// The routine the editor's fields describe: rows `exercise_N`, `sets_N`, `reps_N`, `weight_N`, `rest_N`; a row
    /// without an exercise is left out; errors name the row as `exercises[N]` counts the rows kept.
    func routine(from form: RoutineForm, id: UUID, context: Context) async throws -> Routine {
        let unit = try await context.journal.settings().displayUnit.liftingUnit
        var exercises: [PlannedExercise] = []
        for row in form.rows {
            guard let name = row.exercise.wrappedValue else { continue }
            func integer(_ field: Field, _ what: String) throws -> Int? {
                guard let text = field.wrappedValue else { return nil }
                guard let value = Int(text) else {
                    throw CinnError.invalid("exercises[\(exercises.count)].\(what)", "\(name): \"\(text)\" is not a whole number")
                }
                return value
            }
            exercises.append(
                PlannedExercise(
                    exercise: name, sets: try integer(row.sets, "sets") ?? 3, reps: try integer(row.reps, "reps"),
                    weight: try row.weight.number().map { Mass($0, unit) }, restSeconds: try integer(row.rest, "rest")))
        }
        if let action = form.action, let colon = action.firstIndex(of: ":"), let row = Int(action[action.index(after: colon)...]),
            exercises.indices.contains(row)
        {
            switch action[..<colon] {
            case "up" where row > 0: exercises.swapAt(row, row - 1)
            case "down" where row < exercises.count - 1: exercises.swapAt(row, row + 1)
            case "remove" where exercises.count > 1: exercises.remove(at: row)
            default: break
            }
        }
        return Routine(id: id, name: form.name ?? "", note: form.note, exercises: exercises)
    }

    @Sendable func deleteRoutine(_ request: Request, context: Context) async throws -> WebAnswer {
        try await context.journal.deleteRoutine(try idParameter(context, "routine"))
        return Done.routineDeleted.redirect(to: Site.routines.path)
    }

    // MARK: Settings of lifting

    /// The rest after a set of the exercise (`rest` seconds; empty for the default), from its page or a workout's.
    @Sendable func setRest(_ request: Request, context: Context) async throws -> WebAnswer {
        struct RestForm: Decodable {
            @Field var rest: String?
            @Field var back: String?
        }
        let form = try await request.decodeForm(RestForm.self)
        let seconds: Int?
        if let text = form.rest {
            guard let value = Int(text) else { throw CinnError.invalid("rest", "\"\(text)\" is not a number of seconds") }
            seconds = value
        } else {
            seconds = nil
        }
        let exercise = context.parameters.get("id") ?? ""
        try await context.journal.setRest(seconds, exercise: exercise)
        if let back = form.back.flatMap(UUID.init(text:)) { return .redirect(Self.logPath(back)) }
        return Done.restSaved.redirect(to: Site.exercise.path(segment: exercise))
    }

    /// The bar and plates the plate calculator loads: `unit`, `bar` and `plates` ("25x6 20x4"); `reset` for a gym's.
    @Sendable func setPlates(_ request: Request, context: Context) async throws -> WebAnswer {
        struct PlatesForm: Decodable {
            @Field var reset: String?
            @Field var unit: String?
            @Field var bar: String?
            @Field var plates: String?
        }
        let form = try await request.decodeForm(PlatesForm.self)
        if form.reset != nil {
            try await context.journal.setPlates(nil)
        } else {
            let unit: MassUnit = form.unit == MassUnit.pounds.rawValue ? .pounds : .kilograms
            guard let bar = try form.$bar.number(), bar >= 0, bar <= 100 else { throw CinnError.invalid("bar", "the bar weighs 0 to 100") }
            try await context.journal.setPlates(PlateSet(unit: unit, bar: bar, plates: try PlateSet.plates(form.plates ?? "")))
        }
        return Done.platesSaved.redirect(to: Site.lifts.path + "#plates")
    }
}

extension WorkoutLogController {
    /// A set marked done, or (with `position`) an edit of one.
    struct SetForm: Decodable {
        @Field var exercise: String?
        @Field var reps: String?
        @Field var weight: String?
        @Field var kind: String?
        @Field var rpe: String?
        @Field var rir: String?
        @Field var note: String?
        @Field var position: String?
        @Field var rest: String?
        /// A new set's form key (`FormKeys`).
        @Field var key: String?
    }

    /// An exercise added to a workout's plan, or moved or taken out of it (`action`: up, down, remove).
    struct ExerciseForm: Decodable {
        @Field var exercise: String?
        @Field var action: String?
    }

    /// The routine editor: its name and note, rows `exercise_N`, `sets_N`, `reps_N`, `weight_N`, `rest_N`, and `action`
    /// (up:N, down:N, remove:N).
    struct RoutineForm: Decodable {
        struct Row {
            let exercise: Field
            let sets: Field
            let reps: Field
            let weight: Field
            let rest: Field
        }

        @Field var name: String?
        @Field var note: String?
        @Field var action: String?
        /// A new routine's form key (`FormKeys`): its id.
        @Field var key: String?
        let rows: [Row]

        init(from decoder: any Decoder) throws {
            let form = try decoder.container(keyedBy: FormKey.self)
            _name = try form.field("name")
            _note = try form.field("note")
            _action = try form.field("action")
            _key = try form.field("key")
            rows = try (0..<Routine.maximumExercises + 5).map { index in
                Row(
                    exercise: try form.field("exercise_\(index)"), sets: try form.field("sets_\(index)"),
                    reps: try form.field("reps_\(index)"), weight: try form.field("weight_\(index)"), rest: try form.field("rest_\(index)"))
            }
        }
    }
}
