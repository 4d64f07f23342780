import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 13: logging workouts: one in progress with its plan, rest times, routines, bar and plates.
    static let v13: Migration = {
        let shared = Migration(
            version: 13, name: "logging workouts: one in progress with its plan, rest times, routines, bar and plates",
            dialectNeutral: [
                // A workout being logged: 1 while in progress (the newest such is the one shown); 0 or NULL once finished.
                "ALTER TABLE workouts ADD COLUMN in_progress $INT CHECK (in_progress IN (0, 1))",
                // Its exercises still to do, as WorkoutPlan's storage text; NULL for none.
                "ALTER TABLE workouts ADD COLUMN plan TEXT",
                "CREATE INDEX workouts_in_progress ON workouts (user_id, started_at_ms) WHERE in_progress = 1 AND deleted = 0",
                // The rest after a set of this exercise, when the user chose one.
                "ALTER TABLE exercises ADD COLUMN rest_s $INT CHECK (rest_s BETWEEN 0 AND 3600)",
                // The bar and the plates the user owns (PlateSet's storage text), in plate_unit.
                "ALTER TABLE user_settings ADD COLUMN plate_unit TEXT CHECK (plate_unit IN ('kg', 'lb'))",
                "ALTER TABLE user_settings ADD COLUMN bar_weight $REAL CHECK (bar_weight >= 0 AND bar_weight <= 100)",
                "ALTER TABLE user_settings ADD COLUMN plates TEXT",
                """
                CREATE TABLE routines (
                    row_id $ROW_ID,
                    id $UUID NOT NULL UNIQUE,
                    user_id $INT NOT NULL REFERENCES users(row_id),
                    name TEXT NOT NULL,
                    note TEXT,
                    created_at_ms $INT NOT NULL,
                    updated_at_ms $INT NOT NULL,
                    version $INT NOT NULL,
                    deleted $INT NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
                    sync_times TEXT,
                    sync_version $INT
                )
                """,
                // A routine's exercises in order, each with its target sets × reps at a weight.
                """
                CREATE TABLE routine_exercises (
                    routine_id $INT NOT NULL REFERENCES routines(row_id),
                    position $INT NOT NULL,
                    exercise_id $INT NOT NULL REFERENCES exercises(row_id),
                    sets $INT NOT NULL CHECK (sets BETWEEN 1 AND 50),
                    reps $INT CHECK (reps BETWEEN 1 AND 100),
                    weight_kg $REAL CHECK (weight_kg > 0),
                    rest_s $INT CHECK (rest_s BETWEEN 0 AND 3600),
                    note TEXT,
                    PRIMARY KEY (routine_id, position)
                ) $WITHOUT_ROWID
                """,
            ])
        // A pull reads routines from a (version, row) position on, as Migration 10's tables.
        return Migration(
            version: shared.version, name: shared.name,
            sqlite: shared.sqlite + ["CREATE INDEX routines_changes ON routines (user_id, version)"],
            postgres: shared.postgres + ["CREATE INDEX routines_changes ON routines (user_id, version, row_id)"])
    }()
}
