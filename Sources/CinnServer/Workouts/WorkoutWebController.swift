import CinnCore
import CinnJournal
import Foundation
import Hummingbird

/// The lifts list, the exercise page, and the workouts list and detail.
struct WorkoutWebController<Context: RequestContext> {
    var journal: Journal { get throws { try RequestJournal.required() } }
    let pages: PageRenderer

    static var pageSize: Int { 30 }

    func addRoutes(to router: Router<Context>) {
        router.get("/lifts", use: lifts)
        router.post("/lifts/formula", use: setFormula)
        router.get("/lifts/{id}", use: exercise)
        router.post("/lifts/{id}/alias-of", use: merge)
        router.post("/lifts/{id}/separate", use: separate)
        router.get("/workouts", use: workouts)
        router.get("/workouts/{id}", use: workout)
        router.post("/workouts/{id}/delete", use: deleteWorkout)
    }

    @Sendable func lifts(_ request: Request, context: Context) async throws -> Response {
        let page = LiftsPage(lifts: try await journal.lifts(), workoutCount: try await journal.store.workoutCount(user: journal.user))
        return WebResponse.html(pages.render("lifts", page, title: "Lifts", tab: .lifts, notice: Done.notice(request)))
    }

    @Sendable func setFormula(_ request: Request, context: Context) async throws -> Response {
        let form = try await FormFields(request: request)
        try await journal.setOneRepMaxFormula(try OneRepMaxFormula.parse(form["formula"] ?? ""))
        return Done.formulaSaved.redirect(to: "/lifts")
    }

    @Sendable func exercise(_ request: Request, context: Context) async throws -> Response {
        let clusters = try await journal.exerciseClusters()
        let exercise = try ExerciseCluster.named(context.parameters.get("id") ?? "", among: clusters)
        let includeHighReps = try request.queryBool("include_high_reps")
        let page = try await journal.exercisePage(exercise, includeHighReps: includeHighReps)
        let model = ExercisePageModel(page: page, includeHighReps: includeHighReps, others: clusters)
        return WebResponse.html(pages.render("exercise", model, title: exercise.root.name, tab: .lifts, notice: Done.notice(request)))
    }

    @Sendable func merge(_ request: Request, context: Context) async throws -> Response {
        let form = try await FormFields(request: request)
        let target = form["exercise"] ?? ""
        try await journal.mergeExercise(context.parameters.get("id") ?? "", into: target)
        let path = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-_.~"))) ?? ""
        return Done.exerciseMerged.redirect(to: "/lifts/\(path)")
    }

    @Sendable func separate(_ request: Request, context: Context) async throws -> Response {
        try await journal.separateExercise(context.parameters.get("id") ?? "")
        return Done.exerciseSeparated.redirect(to: "/lifts")
    }

    @Sendable func workouts(_ request: Request, context: Context) async throws -> Response {
        let offset = try request.queryInt("offset", default: 0, range: 0...Int(Int32.max))
        let unit = try await journal.settings().displayUnit.liftingUnit
        let list = try await journal.store.workouts(user: journal.user, limit: Self.pageSize, offset: offset)
        let page = WorkoutsPage(workouts: list, unit: unit, offset: offset, limit: Self.pageSize,
                                total: try await journal.store.workoutCount(user: journal.user))
        return WebResponse.html(pages.render("workouts", page, title: "Workouts", tab: .lifts, notice: Done.notice(request)))
    }

    @Sendable func workout(_ request: Request, context: Context) async throws -> Response {
        let settings = try await journal.settings()
        guard let id = context.parameters.get("id").flatMap(UUID.init(text:)),
              let workout = try await journal.store.workout(id: id, user: journal.user) else {
            throw CinnError.notFound("no such workout")
        }
        let model = WorkoutPageModel(workout, unit: settings.displayUnit.liftingUnit, formula: settings.oneRepMaxFormula)
        return WebResponse.html(pages.render("workout", model, title: workout.workout.name, tab: .lifts))
    }

    @Sendable func deleteWorkout(_ request: Request, context: Context) async throws -> Response {
        guard let id = context.parameters.get("id").flatMap(UUID.init(text:)) else { throw CinnError.notFound("no such workout") }
        try await journal.store.deleteWorkout(id: id, user: journal.user)
        return Done.workoutDeleted.redirect(to: "/workouts")
    }
}
