import CinnCore
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// Lifts and workouts in the JSON API under `/api/v1`.
struct WorkoutAPIController {
    typealias Context = JournalRequestContext

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("exercises", use: listExercises)
        group.get("exercises/{id}", use: showExercise)
        group.put("exercises/{id}/alias-of", use: mergeExercise)
        group.delete("exercises/{id}/alias-of", use: separateExercise)
        group.get("workouts", use: listWorkouts)
        group.get("workouts/{id}", use: showWorkout)
        group.delete("workouts/{id}", use: deleteWorkout)
        group.put("lifts/formula", use: setFormula)
    }

    /// The `{id}` of an exercise route: an id or a name, percent-decoded.
    func exerciseParameter(_ context: Context) -> String {
        let raw = context.parameters.get("id") ?? ""
        return raw.removingPercentEncoding ?? raw
    }

    @Sendable func listExercises(_ request: Request, context: Context) async throws -> Response {
        JSONResponse.make(ExerciseListDTO(try await context.journal.lifts()))
    }

    /// `GET /api/v1/exercises/{id}?include_high_reps=&weeks=`; the id may also be a name.
    @Sendable func showExercise(_ request: Request, context: Context) async throws -> Response {
        let exercise = try await context.journal.exercise(named: exerciseParameter(context))
        let includeHighReps = try request.queryBool("include_high_reps")
        let page = try await context.journal.exercisePage(exercise, includeHighReps: includeHighReps,
                                                  weeks: try request.queryInt("weeks", default: 12, range: 1...520))
        return JSONResponse.make(ExercisePageDTO(page, includeHighReps: includeHighReps))
    }

    struct AliasRequest: Decodable {
        let exercise: String
    }

    /// `PUT /api/v1/exercises/{id}/alias-of` with `{"exercise": id or name}`: `{id}` becomes another name of that exercise.
    @Sendable func mergeExercise(_ request: Request, context: Context) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(AliasRequest.self)
        try await context.journal.mergeExercise(exerciseParameter(context), into: body.exercise)
        let target = try await context.journal.exercise(named: body.exercise)
        let lifts = try await context.journal.lifts()
        guard let summary = lifts.exercises.first(where: { $0.id == target.root.id }) else {
            throw CinnError.notFound("no exercise \(body.exercise)")
        }
        return JSONResponse.make(ExerciseSummaryDTO(summary, unit: lifts.unit))
    }

    /// `DELETE /api/v1/exercises/{id}/alias-of`: the alias becomes an exercise of its own again.
    @Sendable func separateExercise(_ request: Request, context: Context) async throws -> Response {
        try await context.journal.separateExercise(exerciseParameter(context))
        return Response(status: .noContent)
    }

    /// `GET /api/v1/workouts?limit=&offset=`, newest first.
    @Sendable func listWorkouts(_ request: Request, context: Context) async throws -> Response {
        let limit = try request.queryInt("limit", default: 50, range: 1...500)
        let offset = try request.queryInt("offset", default: 0, range: 0...Int(Int32.max))
        let unit = try await context.journal.settings().displayUnit.liftingUnit
        let workouts = try await context.journal.store.workouts(user: context.journal.user, limit: limit, offset: offset)
        return JSONResponse.make(WorkoutListDTO(workouts, unit: unit, total: try await context.journal.store.workoutCount(user: context.journal.user)))
    }

    @Sendable func showWorkout(_ request: Request, context: Context) async throws -> Response {
        let settings = try await context.journal.settings()
        guard let id = context.parameters.get("id").flatMap(UUID.init(text:)),
              let workout = try await context.journal.store.workout(id: id, user: context.journal.user) else {
            throw CinnError.notFound("no such workout")
        }
        return JSONResponse.make(WorkoutDTO(workout, unit: settings.displayUnit.liftingUnit, formula: settings.oneRepMaxFormula))
    }

    @Sendable func deleteWorkout(_ request: Request, context: Context) async throws -> Response {
        guard let id = context.parameters.get("id").flatMap(UUID.init(text:)) else { throw CinnError.notFound("no such workout") }
        try await context.journal.store.deleteWorkout(id: id, user: context.journal.user)
        return Response(status: .noContent)
    }

    struct FormulaRequest: Decodable {
        let formula: String
    }

    /// `PUT /api/v1/lifts/formula` with `{"formula": "epley"}`.
    @Sendable func setFormula(_ request: Request, context: Context) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(FormulaRequest.self)
        let formula = try OneRepMaxFormula.parse(body.formula)
        try await context.journal.setOneRepMaxFormula(formula)
        return JSONResponse.make(["formula": formula.rawValue])
    }
}
