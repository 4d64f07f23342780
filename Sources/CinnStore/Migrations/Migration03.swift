import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 3: profile, day status, body fat, exercise.
    static let v3 = Migration(
        version: 3, name: "profile, day status, body fat, exercise",
        dialectNeutral: [
            "ALTER TABLE user_settings ADD COLUMN sex TEXT CHECK (sex IN ('female', 'male'))",
            "ALTER TABLE user_settings ADD COLUMN birth_day $INT",
            "ALTER TABLE user_settings ADD COLUMN height_cm $REAL CHECK (height_cm BETWEEN 100 AND 250)",
            """
            ALTER TABLE user_settings ADD COLUMN activity_level TEXT
                CHECK (activity_level IN ('sedentary', 'light', 'moderate', 'active', 'very_active'))
            """,
            "ALTER TABLE user_settings ADD COLUMN length_unit TEXT NOT NULL DEFAULT 'cm' CHECK (length_unit IN ('cm', 'ft_in'))",
            """
            ALTER TABLE user_settings ADD COLUMN target_basis TEXT NOT NULL DEFAULT 'formula'
                CHECK (target_basis IN ('formula', 'adaptive'))
            """,
            "ALTER TABLE user_settings ADD COLUMN energy_floor_kcal $REAL CHECK (energy_floor_kcal > 0)",
            "ALTER TABLE user_settings ADD COLUMN onboarded $INT NOT NULL DEFAULT 0 CHECK (onboarded IN (0, 1))",
            """
            CREATE TABLE food_days (
                row_id $ROW_ID,
                id $UUID NOT NULL UNIQUE,
                user_id $INT NOT NULL REFERENCES users(row_id),
                local_day $INT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('complete', 'partial')),
                created_at_ms $INT NOT NULL,
                updated_at_ms $INT NOT NULL,
                version $INT NOT NULL,
                deleted $INT NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
                UNIQUE (user_id, local_day)
            )
            """,
            """
            CREATE TABLE body_fat_readings (
                row_id $ROW_ID,
                id $UUID NOT NULL UNIQUE,
                user_id $INT NOT NULL REFERENCES users(row_id),
                measured_at_ms $INT NOT NULL,
                utc_offset_s $INT NOT NULL CHECK (utc_offset_s BETWEEN -64800 AND 64800),
                local_day $INT NOT NULL,
                fraction $REAL NOT NULL CHECK (fraction BETWEEN 0.02 AND 0.75),
                source TEXT NOT NULL,
                external_id TEXT,
                import_id $INT REFERENCES imports(row_id),
                created_at_ms $INT NOT NULL,
                updated_at_ms $INT NOT NULL,
                version $INT NOT NULL,
                deleted $INT NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
            )
            """,
            "CREATE INDEX body_fat_day ON body_fat_readings (user_id, local_day) WHERE deleted = 0",
            """
            CREATE TABLE exercise_entries (
                row_id $ROW_ID,
                id $UUID NOT NULL UNIQUE,
                user_id $INT NOT NULL REFERENCES users(row_id),
                performed_at_ms $INT NOT NULL,
                utc_offset_s $INT NOT NULL CHECK (utc_offset_s BETWEEN -64800 AND 64800),
                local_day $INT NOT NULL,
                name TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('cardio', 'strength')),
                energy_kcal $REAL CHECK (energy_kcal >= 0),
                minutes $REAL CHECK (minutes >= 0),
                sets $INT CHECK (sets >= 0),
                reps_per_set $INT CHECK (reps_per_set >= 0),
                weight_kg $REAL CHECK (weight_kg >= 0),
                steps $INT CHECK (steps >= 0),
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
            "CREATE INDEX exercise_entries_day ON exercise_entries (user_id, local_day) WHERE deleted = 0",
            """
            CREATE UNIQUE INDEX exercise_entries_external ON exercise_entries (user_id, external_id)
                WHERE deleted = 0 AND external_id IS NOT NULL
            """,
            "CREATE INDEX exercise_entries_import ON exercise_entries (import_id) WHERE import_id IS NOT NULL",
        ]
    )
}
