import CinnCharts
import CinnCore
import CinnJournal
import Foundation
import Hummingbird

/// The lifts list, the exercise page, and the workouts list and detail.
struct WorkoutWebController {
    typealias Context = JournalRequestContext

    static var pageSize: Int { 30 }

    func addRoutes(to router: RouterGroup<Context>) {
        router.get(Site.lifts, use: lifts)
        router.post(Site.oneRepMaxFormula, use: setFormula)
        router.get(Site.exercise, use: exercise)
        router.post(Site.mergeExercise, use: merge)
        router.post(Site.separateExercise, use: separate)
        router.get(Site.workouts, use: workouts)
        router.get(Site.workoutsCSV, use: exportWorkouts)
        router.get(Site.workout, use: workout)
        router.get(Site.deleteWorkout, use: confirmDeleteWorkout)
        router.post(Site.deleteWorkout, use: deleteWorkout)
    }

    @Sendable func lifts(_ request: Request, context: Context) async throws -> WebAnswer {
        let journal = context.journal
        let load = try request.query("load").map { text in
            guard let value = Double(text.replacingOccurrences(of: ",", with: ".")), value > 0, value <= 2500 else {
                throw CinnError.invalid("load", "the weight to load must be a number more than 0")
            }
            return value
        }
        let page = LiftsPage(
            lifts: try await journal.lifts(), workoutCount: try await journal.workoutCount(),
            start: WorkoutStartCard(current: try await journal.workoutInProgress(), routines: try await journal.routines()),
            plates: PlatesForm(try await journal.settings().plates, load: load))
        return .page("lifts", page, title: "Lifts", tab: .lifts, notice: Done.notice(request))
    }

    @Sendable func setFormula(_ request: Request, context: Context) async throws -> WebAnswer {
        struct FormulaForm: Decodable { @Field var formula: String? }
        let form = try await request.decodeForm(FormulaForm.self)
        try await context.journal.setOneRepMaxFormula(try OneRepMaxFormula.parse(form.formula ?? ""))
        return Done.formulaSaved.redirect(to: Site.lifts.path)
    }

    @Sendable func exercise(_ request: Request, context: Context) async throws -> WebAnswer {
        let clusters = try await context.journal.exerciseClusters()
        let exercise = try ExerciseCluster.named(context.parameters.get("id") ?? "", among: clusters)
        let includeHighReps = try request.queryBool("include_high_reps")
        let page = try await context.journal.exercisePage(exercise, includeHighReps: includeHighReps)
        let rest = try await context.journal.exerciseRest(exerciseRows: exercise.rows) ?? Journal.defaultRestSeconds
        let model = ExercisePageModel(page: page, includeHighReps: includeHighReps, others: clusters, rest: rest)
        return .page("exercise", model, title: exercise.root.name, tab: .lifts, notice: Done.notice(request))
    }

    @Sendable func merge(_ request: Request, context: Context) async throws -> WebAnswer {
        struct MergeForm: Decodable { @Field var exercise: String? }
        let form = try await request.decodeForm(MergeForm.self)
        let target = form.exercise ?? ""
        try await context.journal.mergeExercise(context.parameters.get("id") ?? "", into: target)
        return Done.exerciseMerged.redirect(to: Site.exercise.path(target))
    }

    @Sendable func separate(_ request: Request, context: Context) async throws -> WebAnswer {
        try await context.journal.separateExercise(context.parameters.get("id") ?? "")
        return Done.exerciseSeparated.redirect(to: Site.lifts.path)
    }

    @Sendable func workouts(_ request: Request, context: Context) async throws -> WebAnswer {
        let offset = try request.queryInt("offset", default: 0, range: 0...Int(Int32.max))
        let unit = try await context.journal.settings().displayUnit.liftingUnit
        let list = try await context.journal.workouts(limit: Self.pageSize, offset: offset)
        let page = WorkoutsPage(
            workouts: list, unit: unit, offset: offset, limit: Self.pageSize,
            total: try await context.journal.workoutCount())
        return .page("workouts", page, title: "Workouts", tab: .lifts, notice: Done.notice(request))
    }

    /// Every workout as CSV in the layout of Strong's export (it imports back).
    @Sendable func exportWorkouts(_ request: Request, context: Context) async throws -> WebAnswer {
        let journal = context.journal
        let body = ResponseBody { writer in
            try await journal.exportWorkouts { text in try await writer.write(ByteBuffer(string: text)) }
            try await writer.finish(nil)
        }
        return .response(
            Response(
                status: .ok,
                headers: [
                    .contentType: ExportFormat.csv.contentType,
                    .contentDisposition: "attachment; filename=\"cinn-workouts.csv\"",
                ], body: body))
    }

    @Sendable func workout(_ request: Request, context: Context) async throws -> WebAnswer {
        guard let id = context.parameters.get("id").flatMap(UUID.init(text:)),
            let workout = try await context.journal.workout(id: id)
        else {
            throw CinnError.notFound("no such workout")
        }
        let model = WorkoutPageModel(try await context.journal.workoutWithRecords(workout), finished: try request.queryBool("finished"))
        return .page("workout", model, title: workout.workout.name, tab: .lifts)
    }

    /// Asks before a workout is deleted (or, one being logged, discarded), as weigh-ins and food entries do.
    @Sendable func confirmDeleteWorkout(_ request: Request, context: Context) async throws -> WebAnswer {
        guard let id = context.parameters.get("id").flatMap(UUID.init(text:)),
            let stored = try await context.journal.workout(id: id)
        else {
            throw CinnError.notFound("no such workout")
        }
        let workout = stored.workout
        let day = LocalDate(instant: workout.startedAt, utcOffsetSeconds: workout.utcOffsetSeconds)
        let model = ConfirmDeleteWorkoutPage(
            id: id.lowercasedString, verb: stored.inProgress ? "Discard" : "Delete", name: workout.name, day: day.dayMonthYear,
            sets: "\(workout.sets.count) set\(workout.sets.count == 1 ? "" : "s")",
            back: stored.inProgress ? Site.workoutLog.path(id) : Site.workout.path(id))
        return .page("confirm-delete-workout", model, title: "\(model.verb) workout", tab: .lifts)
    }

    @Sendable func deleteWorkout(_ request: Request, context: Context) async throws -> WebAnswer {
        guard let id = context.parameters.get("id").flatMap(UUID.init(text:)) else { throw CinnError.notFound("no such workout") }
        try await context.journal.deleteWorkout(id: id)
        return Done.workoutDeleted.redirect(to: Site.workouts.path)
    }
}

/// "Delete this workout?" (or "Discard", for one being logged): what goes, and the way back.
struct ConfirmDeleteWorkoutPage {
    let id: String
    let verb: String
    let name: String
    let day: String
    let sets: String
    let back: String
}
