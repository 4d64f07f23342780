import CinnCore
import Foundation
import SQLKit

/// Routines: a name, a note and exercises in order with their targets (`routine_exercises`). A synced record
/// type (`routine`), so every save takes a change number and a deletion leaves a tombstone.
extension Store {
    /// The user's routines, by name.
    public func routines(user: UserID) async throws -> [Routine] {
        try await withConnection { db in
            let rows = try await db.raw(
                """
                SELECT row_id, id, name, note FROM routines WHERE user_id = \(bind: user.rawValue) AND deleted = 0 ORDER BY name, row_id
                """
            ).all()
            guard !rows.isEmpty else { return [] }
            var routines: [Int64: Routine] = [:]
            var order: [Int64] = []
            for row in rows {
                let rowID = try row.decode(column: "row_id", as: Int64.self)
                order.append(rowID)
                routines[rowID] = Routine(
                    id: try decodeUUID(row, "id"), name: try row.decode(column: "name", as: String.self),
                    note: try row.decode(column: "note", as: String?.self), exercises: [])
            }
            for (rowID, planned) in try await routineExercises(db, routineRows: order) { routines[rowID]?.exercises.append(planned) }
            return order.compactMap { routines[$0] }
        }
    }

    /// One routine, or nil.
    public func routine(id: UUID, user: UserID) async throws -> Routine? {
        try await withConnection { db in
            guard
                let row = try await db.raw(
                    """
                    SELECT row_id, id, name, note FROM routines
                    WHERE id = \(bind: bind(id)) AND user_id = \(bind: user.rawValue) AND deleted = 0
                    """
                ).first()
            else { return nil }
            return Routine(
                id: try decodeUUID(row, "id"), name: try row.decode(column: "name", as: String.self),
                note: try row.decode(column: "note", as: String?.self),
                exercises: try await routineExercises(db, routineRows: [try row.decode(column: "row_id", as: Int64.self)]).map(\.1))
        }
    }

    private func routineExercises(_ db: any SQLDatabase, routineRows rows: [Int64]) async throws -> [(Int64, PlannedExercise)] {
        try await db.raw(
            """
            SELECT r.routine_id, e.name, r.sets, r.reps, r.weight_kg, r.rest_s, r.note
            FROM routine_exercises r JOIN exercises e ON e.row_id = r.exercise_id
            WHERE r.routine_id IN (\(unsafeRaw: rows.map(String.init).joined(separator: ","))) ORDER BY r.routine_id, r.position
            """
        ).all().map { row in
            (
                try row.decode(column: "routine_id", as: Int64.self),
                PlannedExercise(
                    exercise: try row.decode(column: "name", as: String.self), sets: try row.decode(column: "sets", as: Int.self),
                    reps: try row.decode(column: "reps", as: Int?.self),
                    weight: try row.decode(column: "weight_kg", as: Double?.self).map(Mass.init(kilograms:)),
                    restSeconds: try row.decode(column: "rest_s", as: Int?.self), note: try row.decode(column: "note", as: String?.self))
            )
        }
    }

    /// Saves a routine: made when its id is new, else its name, note and exercises replaced.
    public func saveRoutine(_ routine: Routine, user: UserID) async throws {
        try await transaction { db in
            let time = milliseconds(now()), version = try await reserveVersions(db, user: user)
            let rowID: Int64
            if let row = try await db.raw(
                """
                UPDATE routines SET name = \(bind: routine.name), note = \(bind: routine.note), updated_at_ms = \(bind: time),
                    version = \(bind: version)
                WHERE id = \(bind: bind(routine.id)) AND user_id = \(bind: user.rawValue) AND deleted = 0 RETURNING row_id
                """
            ).first() {
                rowID = try row.decode(column: "row_id", as: Int64.self)
                try await db.raw("DELETE FROM routine_exercises WHERE routine_id = \(bind: rowID)").run()
            } else if let row = try await db.raw(
                """
                INSERT INTO routines (id, user_id, name, note, created_at_ms, updated_at_ms, version)
                VALUES (\(bind: bind(routine.id)), \(bind: user.rawValue), \(bind: routine.name), \(bind: routine.note), \(bind: time),
                    \(bind: time), \(bind: version))
                ON CONFLICT (id) DO NOTHING RETURNING row_id
                """
            ).first() {
                rowID = try row.decode(column: "row_id", as: Int64.self)
            } else {
                throw CinnError(.conflict, "a record with id \(routine.id.lowercasedString) exists already", field: "id")
            }
            var rows: [[any Encodable & Sendable]] = []
            for (position, planned) in routine.exercises.enumerated() {
                let exercise = try await exerciseRow(db, user: user, name: planned.exercise, createdAt: time)
                rows.append([
                    rowID, position, exercise, planned.sets, planned.reps, planned.weight?.kilograms, planned.restSeconds, planned.note,
                ])
            }
            try await insertRows(
                db, into: "routine_exercises",
                columns: ["routine_id", "position", "exercise_id", "sets", "reps", "weight_kg", "rest_s", "note"], rows)
        }
    }

    /// Deletes a routine (a tombstone stays for sync; workouts started from it keep their sets).
    public func deleteRoutine(id: UUID, user: UserID) async throws {
        try await transaction { db in
            let version = try await reserveVersions(db, user: user)
            guard
                let row = try await db.raw(
                    """
                    UPDATE routines SET deleted = 1, version = \(bind: version), updated_at_ms = \(bind: milliseconds(now()))
                    WHERE id = \(bind: bind(id)) AND user_id = \(bind: user.rawValue) AND deleted = 0 RETURNING row_id
                    """
                ).first()
            else { throw CinnError.notFound("no routine \(id.lowercasedString)") }
            try await db.raw("DELETE FROM routine_exercises WHERE routine_id = \(bind: try row.decode(column: "row_id", as: Int64.self))")
                .run()
        }
    }
}
