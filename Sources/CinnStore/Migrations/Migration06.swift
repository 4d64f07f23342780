import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 6: exercise days; sets found through their workouts' days.
    static let v6 = Migration(
        version: 6, name: "exercise days; sets found through their workouts' days",
        dialectNeutral: [
            // Exercise pages read exercise_days, and what still looks sets up by exercise (keeping those
            // days, the workout of a record) goes through the workouts of a day: the sets' exercise index
            // cost an import of a million sets more than its rows, and the sets' copy of their workout's
            // day a column for each (BENCHMARKS.md).
            "DROP INDEX workout_sets_exercise",
            "ALTER TABLE workout_sets DROP COLUMN local_day",
            "CREATE INDEX workouts_day ON workouts (user_id, local_day) WHERE deleted = 0",
            // Each exercise's days as `ExerciseDay`s, derived from workout_sets (ExerciseDays.swift):
            // `lifts` holds the day's unbeaten lifts, 11 bytes each (Store.liftBytes).
            """
            CREATE TABLE exercise_days (
                exercise_id $INT NOT NULL REFERENCES exercises(row_id),
                local_day $INT NOT NULL,
                sets $INT NOT NULL CHECK (sets > 0),
                work_sets $INT NOT NULL CHECK (work_sets >= 0),
                volume_kg $REAL NOT NULL,
                lifts $BYTES NOT NULL,
                PRIMARY KEY (exercise_id, local_day)
            ) $WITHOUT_ROWID
            """,
        ],
        data: { store, connection in try await store.refreshExerciseDays(connection, user: nil, exercises: nil, loadMultipliers: false) }
    )
}
