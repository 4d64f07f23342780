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
        group.get("exercises/{id}/last", use: lastSets)
        group.get("workouts", use: listWorkouts)
        group.post("workouts", use: createWorkout)
        group.get("workouts/{id}", use: showWorkout)
        group.patch("workouts/{id}", use: updateWorkout)
        group.delete("workouts/{id}", use: deleteWorkout)
        group.get("routines", use: listRoutines)
        group.post("routines", use: createRoutine)
        group.get("routines/{id}", use: showRoutine)
        group.put("routines/{id}", use: replaceRoutine)
        group.delete("routines/{id}", use: deleteRoutine)
        group.put("lifts/formula", use: setFormula)
    }

    /// The `{id}` of an exercise route: an id or a name, percent-decoded.
    func exerciseParameter(_ context: Context) -> String {
        let raw = context.parameters.get("id") ?? ""
        return raw.removingPercentEncoding ?? raw
    }

    @Sendable func listExercises(_ request: Request, context: Context) async throws -> APIAnswer {
        .json(ExerciseListDTO(try await context.journal.lifts()))
    }

    /// `GET /api/v1/exercises/{id}?include_high_reps=&weeks=`; the id may also be a name.
    @Sendable func showExercise(_ request: Request, context: Context) async throws -> APIAnswer {
        let exercise = try await context.journal.exercise(named: exerciseParameter(context))
        let includeHighReps = try request.queryBool("include_high_reps")
        let page = try await context.journal.exercisePage(
            exercise, includeHighReps: includeHighReps,
            weeks: try request.queryInt("weeks", default: 12, range: 1...520))
        return .json(ExercisePageDTO(page, includeHighReps: includeHighReps))
    }

    struct AliasRequest: Decodable {
        let exercise: String
    }

    /// `PUT /api/v1/exercises/{id}/alias-of` with `{"exercise": id or name}`: `{id}` becomes another name of that exercise.
    @Sendable func mergeExercise(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(AliasRequest.self)
        try await context.journal.mergeExercise(exerciseParameter(context), into: body.exercise)
        let target = try await context.journal.exercise(named: body.exercise)
        let lifts = try await context.journal.lifts()
        guard let summary = lifts.exercises.first(where: { $0.id == target.root.id }) else {
            throw CinnError.notFound("no exercise \(body.exercise)")
        }
        return .json(ExerciseSummaryDTO(summary, unit: lifts.unit))
    }

    /// `DELETE /api/v1/exercises/{id}/alias-of`: the alias becomes an exercise of its own again.
    @Sendable func separateExercise(_ request: Request, context: Context) async throws -> APIAnswer {
        try await context.journal.separateExercise(exerciseParameter(context))
        return .noContent
    }

    /// `GET /api/v1/workouts?limit=&offset=`, newest first.
    @Sendable func listWorkouts(_ request: Request, context: Context) async throws -> APIAnswer {
        let limit = try request.queryInt("limit", default: 50, range: 1...500)
        let offset = try request.queryInt("offset", default: 0, range: 0...Int(Int32.max))
        let unit = try await context.journal.settings().displayUnit.liftingUnit
        let workouts = try await context.journal.workouts(limit: limit, offset: offset)
        return .json(WorkoutListDTO(workouts, unit: unit, total: try await context.journal.workoutCount()))
    }

    /// `GET /api/v1/workouts/{id}`: the workout with the records each set set.
    @Sendable func showWorkout(_ request: Request, context: Context) async throws -> APIAnswer {
        guard let workout = try await context.journal.workout(id: try idParameter(context, "workout")) else {
            throw CinnError.notFound("no such workout")
        }
        return .json(WorkoutDTO(try await context.journal.workoutWithRecords(workout)))
    }

    /// `POST /api/v1/workouts`: a whole workout, its sets checked one by one (`sets[2].reps`), all saved or nothing.
    @Sendable func createWorkout(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(WorkoutRequest.self)
        let unit = try await context.journal.settings().displayUnit.liftingUnit
        let id = try body.id.map { text in
            guard let id = UUID(text: text) else { throw CinnError.invalid("id", "id must be a UUID") }
            return id
        }
        guard let startedAt = body.startedAt else { throw CinnError.invalid("started_at", "started_at is required") }
        guard let sets = try body.workoutSets(unit: unit) else { throw CinnError.invalid("sets", "sets is required") }
        let stored = try await context.journal.logWorkout(
            id: id, name: body.name, startedAt: startedAt, endedAt: body.endedAt, note: body.note ?? nil,
            sets: sets, inProgress: body.inProgress ?? false)
        return .json(WorkoutDTO(try await context.journal.workoutWithRecords(stored)), status: .created)
    }

    /// `PATCH /api/v1/workouts/{id}`: what is sent replaces what is stored; `sets` replaces every set.
    @Sendable func updateWorkout(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let id = try idParameter(context, "workout")
        let body = try await request.decodeJSON(WorkoutRequest.self)
        let unit = try await context.journal.settings().displayUnit.liftingUnit
        let stored = try await context.journal.editWorkout(
            id: id, name: body.name, startedAt: body.startedAt, endedAt: body.endedAt,
            note: body.note,
            sets: try body.workoutSets(unit: unit), inProgress: body.inProgress)
        return .json(WorkoutDTO(try await context.journal.workoutWithRecords(stored)))
    }

    @Sendable func deleteWorkout(_ request: Request, context: Context) async throws -> APIAnswer {
        try await context.journal.deleteWorkout(id: try idParameter(context, "workout"))
        return .noContent
    }

    /// `GET /api/v1/exercises/{id}/last`: the sets of the last workout that had the exercise (an id or any of its names).
    @Sendable func lastSets(_ request: Request, context: Context) async throws -> APIAnswer {
        let settings = try await context.journal.settings()
        let (exercise, last) = try await context.journal.lastSets(of: exerciseParameter(context))
        return .json(
            LastSetsDTO(
                exercise: exercise, last: last, unit: settings.displayUnit.liftingUnit,
                formula: settings.oneRepMaxFormula))
    }

    @Sendable func listRoutines(_ request: Request, context: Context) async throws -> APIAnswer {
        let unit = try await context.journal.settings().displayUnit.liftingUnit
        return .json(["routines": try await context.journal.routines().map { RoutineDTO($0, unit: unit) }])
    }

    @Sendable func showRoutine(_ request: Request, context: Context) async throws -> APIAnswer {
        let unit = try await context.journal.settings().displayUnit.liftingUnit
        return .json(RoutineDTO(try await context.journal.routine(try idParameter(context, "routine")), unit: unit))
    }

    /// `POST /api/v1/routines`: a routine from its exercises, or from a workout's (`from_workout`).
    @Sendable func createRoutine(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(RoutineRequest.self)
        let unit = try await context.journal.settings().displayUnit.liftingUnit
        let routine: Routine
        if let workout = body.fromWorkout {
            guard let id = UUID(text: workout) else { throw CinnError.invalid("from_workout", "from_workout must be a workout's id") }
            routine = try await context.journal.routine(fromWorkout: id, name: body.name)
        } else {
            let id =
                try body.id.map { text in
                    guard let id = UUID(text: text) else { throw CinnError.invalid("id", "id must be a UUID") }
                    return id
                } ?? .v7()
            routine = try await context.journal.saveRoutine(try body.routine(id: id, unit: unit))
        }
        return .json(RoutineDTO(routine, unit: unit), status: .created)
    }

    /// `PUT /api/v1/routines/{id}`: the routine's name, note and exercises replaced.
    @Sendable func replaceRoutine(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let id = try idParameter(context, "routine")
        _ = try await context.journal.routine(id)
        let body = try await request.decodeJSON(RoutineRequest.self)
        let unit = try await context.journal.settings().displayUnit.liftingUnit
        let routine = try await context.journal.saveRoutine(try body.routine(id: id, unit: unit))
        return .json(RoutineDTO(routine, unit: unit))
    }

    @Sendable func deleteRoutine(_ request: Request, context: Context) async throws -> APIAnswer {
        try await context.journal.deleteRoutine(try idParameter(context, "routine"))
        return .noContent
    }

    struct FormulaRequest: Decodable {
        let formula: String
    }

    /// `PUT /api/v1/lifts/formula` with `{"formula": "epley"}`.
    @Sendable func setFormula(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(FormulaRequest.self)
        let formula = try OneRepMaxFormula.parse(body.formula)
        try await context.journal.setOneRepMaxFormula(formula)
        return .json(["formula": formula.rawValue])
    }
}
