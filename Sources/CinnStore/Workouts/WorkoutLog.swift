import CinnCore
import Foundation
import SQLKit

/// The sets of an exercise in the last workout that had it.
public struct LastSets: Sendable, Hashable {
    public var workoutID: UUID
    public var startedAt: Date
    public var utcOffsetSeconds: Int
    public var sets: [WorkoutSet]

    public var localDate: LocalDate { LocalDate(instant: startedAt, utcOffsetSeconds: utcOffsetSeconds) }
}

/// Workouts logged by hand and edited: written whole (the workout and all its sets) in one transaction, the
/// exercise days of the sets they had and have computed again, as an import's are.
extension Store {
    /// Saves `stored`: made when its id is new (as `manual`), else its fields and sets replace the stored ones
    /// (its source, import and external id stay).
    public func saveWorkout(_ stored: StoredWorkout, user: UserID) async throws {
        try await rawTransaction { connection in
            let existing = try await workout(connection.sql, id: stored.workout.id, user: user, forUpdate: true)
            try await writeWorkout(connection, stored, previousDay: existing?.workout.localDate.dayNumber, user: user)
        }
    }

    /// Reads the workout, lets `change` edit it and saves it, in one transaction: two taps that each add a set
    /// both land. Returns the workout as saved.
    public func updateWorkout(
        id: UUID, user: UserID,
        _ change: @Sendable (inout StoredWorkout) throws -> Void
    ) async throws -> StoredWorkout {
        try await rawTransaction { connection in
            guard var stored = try await workout(connection.sql, id: id, user: user, forUpdate: true) else {
                throw CinnError.notFound("no workout \(id.lowercasedString)")
            }
            let previousDay = stored.workout.localDate.dayNumber
            try change(&stored)
            stored.workout.id = id
            try await writeWorkout(connection, stored, previousDay: previousDay, user: user)
            return stored
        }
    }

    /// The workout being logged: the newest of those in progress.
    public func workoutInProgress(user: UserID) async throws -> StoredWorkout? {
        try await withConnection { db in
            guard
                let row = try await db.raw(
                    """
                    SELECT id FROM workouts WHERE user_id = \(bind: user.rawValue) AND in_progress = 1 AND deleted = 0
                    ORDER BY started_at_ms DESC LIMIT 1
                    """
                ).first()
            else { return nil }
            return try await workout(db, id: try decodeUUID(row, "id"), user: user)
        }
    }

    /// The sets of exercise `rows` (one exercise and its aliases) in the last workout before `before` that had
    /// them, other than `excluding`: found through the exercise's days, newest first.
    public func lastSets(user: UserID, exerciseRows rows: [Int64], before: Date, excluding: UUID?) async throws -> LastSets? {
        guard !rows.isEmpty else { return nil }
        return try await withConnection { db in
            let list = rows.map(String.init).joined(separator: ",")
            let beforeMs = milliseconds(before)
            let latestDay = LocalDate(instant: before, utcOffsetSeconds: 14 * 3600).dayNumber
            let days = try await db.raw(
                """
                SELECT local_day FROM exercise_days WHERE exercise_id IN (\(unsafeRaw: list)) AND local_day <= \(bind: latestDay)
                GROUP BY local_day ORDER BY local_day DESC LIMIT 4
                """
            ).all().map { try $0.decode(column: "local_day", as: Int.self) }
            for day in days {
                var query = SQLQueryString(
                    """
                    SELECT w.row_id, w.id, w.started_at_ms, w.utc_offset_s FROM workouts w
                    WHERE w.user_id = \(bind: user.rawValue) AND w.local_day = \(bind: day) AND w.deleted = 0
                        AND w.started_at_ms < \(bind: beforeMs)
                        AND EXISTS (SELECT 1 FROM workout_sets s WHERE s.workout_id = w.row_id AND s.exercise_id IN (\(unsafeRaw: list)))
                    """)
                if let excluding { query += " AND w.id <> \(bind: bind(excluding))" }
                query += " ORDER BY w.started_at_ms DESC LIMIT 1"
                guard let row = try await db.raw(query).first() else { continue }
                let rowID = try row.decode(column: "row_id", as: Int64.self)
                let sets = try await workoutSets(db, workoutRow: rowID, exerciseRows: rows)
                return LastSets(
                    workoutID: try decodeUUID(row, "id"),
                    startedAt: date(milliseconds: try row.decode(column: "started_at_ms", as: Int64.self)),
                    utcOffsetSeconds: try row.decode(column: "utc_offset_s", as: Int.self), sets: sets)
            }
            return nil
        }
    }

    /// The rest the user chose for exercises `rows` (the first one set, in the order given).
    public func exerciseRest(user: UserID, exerciseRows rows: [Int64]) async throws -> Int? {
        guard !rows.isEmpty else { return nil }
        return try await withConnection { db in
            let stored = try await db.raw(
                """
                SELECT row_id, rest_s FROM exercises WHERE user_id = \(bind: user.rawValue)
                    AND row_id IN (\(unsafeRaw: rows.map(String.init).joined(separator: ","))) AND rest_s IS NOT NULL
                """
            ).all().map { (try $0.decode(column: "row_id", as: Int64.self), try $0.decode(column: "rest_s", as: Int.self)) }
            return rows.lazy.compactMap { row in stored.first { $0.0 == row }?.1 }.first
        }
    }

    /// Sets the rest after a set of exercise `id` (nil: the default).
    public func setExerciseRest(_ seconds: Int?, exercise id: UUID, user: UserID) async throws {
        try await transaction { db in
            let updated = try await db.raw(
                """
                UPDATE exercises SET rest_s = \(bind: seconds), updated_at_ms = \(bind: milliseconds(now()))
                WHERE user_id = \(bind: user.rawValue) AND id = \(bind: bind(id)) AND deleted = 0 RETURNING row_id
                """
            ).all()
            guard !updated.isEmpty else { throw CinnError.notFound("no exercise \(id.lowercasedString)") }
        }
    }

    private static let workoutColumns = [
        "id", "user_id", "started_at_ms", "utc_offset_s", "local_day", "name", "duration_s", "note",
        "distance_m", "energy_kcal", "in_progress", "plan", "source", "created_at_ms",
        "updated_at_ms", "version",
    ]

    /// Writes a whole workout: its row (made or updated), its sets replaced, and the exercise days of the sets it
    /// had and has computed again on the days it was (`previousDay`, nil for a new one) and is on.
    private func writeWorkout(_ connection: Connection, _ stored: StoredWorkout, previousDay: Int?, user: UserID) async throws {
        let db = connection.sql, workout = stored.workout
        let time = milliseconds(now()), version = try await reserveVersions(db, user: user)
        let day = workout.localDate.dayNumber, startedAt = milliseconds(workout.startedAt)
        let plan = stored.plan.isEmpty ? nil : WorkoutPlan.storageText(stored.plan)
        var before: (row: Int64, day: Int, exercises: [Int64])?
        if previousDay == nil {
            let inserted = try await db.raw(
                """
                INSERT INTO workouts (\(unsafeRaw: Self.workoutColumns.joined(separator: ", ")))
                VALUES (\(bind: bind(workout.id)), \(bind: user.rawValue), \(bind: startedAt), \(bind: workout.utcOffsetSeconds), \(bind: day),
                    \(bind: workout.name), \(bind: stored.durationSeconds), \(bind: stored.note), \(bind: stored.distanceMeters),
                    \(bind: stored.energyKcal), \(bind: stored.inProgress ? 1 : 0), \(bind: plan), \(bind: workout.source), \(bind: time),
                    \(bind: time), \(bind: version))
                ON CONFLICT (id) DO NOTHING RETURNING row_id
                """
            ).first()
            guard let inserted else {
                throw CinnError(.conflict, "a record with id \(workout.id.lowercasedString) exists already", field: "id")
            }
            before = (try inserted.decode(column: "row_id", as: Int64.self), day, [])
        } else {
            guard
                let row = try await db.raw(
                    """
                    UPDATE workouts SET started_at_ms = \(bind: startedAt), utc_offset_s = \(bind: workout.utcOffsetSeconds), local_day = \(bind: day),
                        name = \(bind: workout.name), duration_s = \(bind: stored.durationSeconds), note = \(bind: stored.note),
                        distance_m = \(bind: stored.distanceMeters), energy_kcal = \(bind: stored.energyKcal),
                        in_progress = \(bind: stored.inProgress ? 1 : 0), plan = \(bind: plan), updated_at_ms = \(bind: time), version = \(bind: version)
                    WHERE id = \(bind: bind(workout.id)) AND user_id = \(bind: user.rawValue) AND deleted = 0
                    RETURNING row_id
                    """
                ).first()
            else { throw CinnError.notFound("no workout \(workout.id.lowercasedString)") }
            let rowID = try row.decode(column: "row_id", as: Int64.self)
            let exercises = try await db.raw("DELETE FROM workout_sets WHERE workout_id = \(bind: rowID) RETURNING exercise_id").all()
                .map { try $0.decode(column: "exercise_id", as: Int64.self) }
            before = (rowID, previousDay ?? day, exercises)
        }
        guard let before else { return }
        var exercises: [String: Int64] = [:]
        var rows: [[any Encodable & Sendable]] = []
        for (position, set) in workout.sets.enumerated() {
            let exercise: Int64
            if let known = exercises[set.exercise] {
                exercise = known
            } else {
                exercise = try await exerciseRow(db, user: user, name: set.exercise, createdAt: time)
                exercises[set.exercise] = exercise
            }
            rows.append([
                before.row, position, exercise, set.reps, set.weight?.kilograms, set.kind.storageCode, set.durationSeconds,
                set.distanceMetres, set.rpe, set.rir, set.note, set.loadMultiplier,
            ])
        }
        try await insertRows(
            db, into: "workout_sets",
            columns: [
                "workout_id", "position", "exercise_id", "reps", "weight_kg", "kind",
                "duration_s", "distance_m", "rpe", "rir", "note", "load_multiplier",
            ], rows)
        let touched = Array(Set(before.exercises).union(exercises.values))
        for changedDay in Set([before.day, day]) {
            try await refreshExerciseDays(connection, user: user, exercises: touched, days: changedDay...changedDay)
        }
    }
}

extension Store {
    /// Every workout of the user with its sets, oldest first, `batchSize` at a time (for an export).
    public func forEachWorkout(user: UserID, batchSize: Int = 200, _ body: ([StoredWorkout]) async throws -> Void) async throws {
        var after: (Int64, Int64) = (Int64.min, Int64.min)
        while true {
            let batch: [(StoredWorkout, Int64, Int64)] = try await withConnection { db in
                var batch: [(StoredWorkout, Int64, Int64)] = []
                for row in try await db.raw(
                    """
                    SELECT row_id, id, started_at_ms FROM workouts WHERE user_id = \(bind: user.rawValue) AND deleted = 0
                      AND (started_at_ms > \(bind: after.0) OR (started_at_ms = \(bind: after.0) AND row_id > \(bind: after.1)))
                    ORDER BY started_at_ms, row_id LIMIT \(bind: batchSize)
                    """
                ).all() {
                    guard let stored = try await workout(db, id: try decodeUUID(row, "id"), user: user) else { continue }
                    batch.append(
                        (stored, try row.decode(column: "started_at_ms", as: Int64.self), try row.decode(column: "row_id", as: Int64.self)))
                }
                return batch
            }
            guard let last = batch.last else { return }
            try await body(batch.map(\.0))
            after = (last.1, last.2)
            if batch.count < batchSize { return }
        }
    }
}
