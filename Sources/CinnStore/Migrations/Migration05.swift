import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 5: workouts, sets, exercises and aliases.
    static let v5 = Migration(
        version: 5, name: "workouts, sets, exercises and aliases",
        dialectNeutral: [
            """
            ALTER TABLE user_settings ADD COLUMN one_rep_max_formula TEXT NOT NULL DEFAULT 'brzycki'
                CHECK (one_rep_max_formula IN ('brzycki', 'epley', 'lombardi', 'mayhew', 'oconner', 'wathan', 'lander'))
            """,
            // An exercise per normalised name (ExerciseKey); `alias_of` merges one into another.
            """
            CREATE TABLE exercises (
                row_id $ROW_ID,
                id $UUID NOT NULL UNIQUE,
                user_id $INT NOT NULL REFERENCES users(row_id),
                name TEXT NOT NULL,
                name_key TEXT NOT NULL,
                alias_of $INT REFERENCES exercises(row_id),
                created_at_ms $INT NOT NULL,
                updated_at_ms $INT NOT NULL,
                version $INT NOT NULL,
                deleted $INT NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
                UNIQUE (user_id, name_key)
            )
            """,
            """
            CREATE TABLE workouts (
                row_id $ROW_ID,
                id $UUID NOT NULL UNIQUE,
                user_id $INT NOT NULL REFERENCES users(row_id),
                started_at_ms $INT NOT NULL,
                utc_offset_s $INT NOT NULL CHECK (utc_offset_s BETWEEN -64800 AND 64800),
                local_day $INT NOT NULL,
                name TEXT NOT NULL,
                duration_s $REAL CHECK (duration_s >= 0),
                note TEXT,
                source TEXT NOT NULL,
                external_id TEXT,
                import_id $INT REFERENCES imports(row_id),
                created_at_ms $INT NOT NULL,
                updated_at_ms $INT NOT NULL,
                version $INT NOT NULL,
                deleted $INT NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
            )
            """,
            "CREATE INDEX workouts_started ON workouts (user_id, started_at_ms) WHERE deleted = 0",
            """
            CREATE UNIQUE INDEX workouts_external ON workouts (user_id, external_id)
                WHERE deleted = 0 AND external_id IS NOT NULL
            """,
            "CREATE INDEX workouts_import ON workouts (import_id) WHERE import_id IS NOT NULL",
            // A set belongs to its workout (identified by workout and position, docs/DESIGN.md) and goes with it;
            // its local day is copied so an exercise's history reads one index. kind: 0 normal,
            // 1 warm-up, 2 drop, 3 failure.
            """
            CREATE TABLE workout_sets (
                workout_id $INT NOT NULL REFERENCES workouts(row_id),
                position $INT NOT NULL,
                exercise_id $INT NOT NULL REFERENCES exercises(row_id),
                local_day $INT NOT NULL,
                reps $INT CHECK (reps > 0),
                weight_kg $REAL CHECK (weight_kg > 0),
                duration_s $REAL CHECK (duration_s > 0),
                distance_m $REAL CHECK (distance_m > 0),
                kind $INT NOT NULL CHECK (kind BETWEEN 0 AND 3),
                rpe $REAL CHECK (rpe BETWEEN 0 AND 10),
                rir $INT CHECK (rir >= 0),
                note TEXT,
                PRIMARY KEY (workout_id, position)
            ) $WITHOUT_ROWID
            """,
            "CREATE INDEX workout_sets_exercise ON workout_sets (exercise_id, local_day, reps, kind, weight_kg)",
        ]
    )
}
