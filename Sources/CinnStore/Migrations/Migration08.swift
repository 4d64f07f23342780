import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 8: glucose readings, insulin doses, meal definitions and meal events; the glucose unit setting.
    static let v8 = Migration(
        version: 8, name: "glucose readings, insulin doses, meal definitions and meal events; the glucose unit setting",
        dialectNeutral: [
            """
            ALTER TABLE user_settings ADD COLUMN glucose_unit TEXT NOT NULL DEFAULT 'mg/dL'
                CHECK (glucose_unit IN ('mg/dL', 'mmol/L'))
            """,
            """
            CREATE TABLE glucose_readings (
                row_id $ROW_ID,
                id $UUID NOT NULL UNIQUE,
                user_id $INT NOT NULL REFERENCES users(row_id),
                measured_at_ms $INT NOT NULL,
                utc_offset_s $INT NOT NULL CHECK (utc_offset_s BETWEEN -64800 AND 64800),
                local_day $INT NOT NULL,
                mg_dl $REAL NOT NULL CHECK (mg_dl > 0),
                timing TEXT CHECK (timing IN ('fasting', 'before_meal', 'after_meal', 'bedtime')),
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
            "CREATE INDEX glucose_readings_time ON glucose_readings (user_id, measured_at_ms) WHERE deleted = 0",
            """
            CREATE UNIQUE INDEX glucose_readings_external ON glucose_readings (user_id, external_id)
                WHERE deleted = 0 AND external_id IS NOT NULL
            """,
            "CREATE INDEX glucose_readings_import ON glucose_readings (import_id) WHERE import_id IS NOT NULL",
            "CREATE INDEX glucose_readings_version ON glucose_readings (user_id, version)",
            """
            CREATE TABLE insulin_doses (
                row_id $ROW_ID,
                id $UUID NOT NULL UNIQUE,
                user_id $INT NOT NULL REFERENCES users(row_id),
                taken_at_ms $INT NOT NULL,
                utc_offset_s $INT NOT NULL CHECK (utc_offset_s BETWEEN -64800 AND 64800),
                local_day $INT NOT NULL,
                units $REAL NOT NULL CHECK (units > 0),
                kind TEXT NOT NULL CHECK (kind IN ('bolus', 'basal')),
                insulin TEXT,
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
            "CREATE INDEX insulin_doses_time ON insulin_doses (user_id, taken_at_ms) WHERE deleted = 0",
            """
            CREATE UNIQUE INDEX insulin_doses_external ON insulin_doses (user_id, external_id)
                WHERE deleted = 0 AND external_id IS NOT NULL
            """,
            "CREATE INDEX insulin_doses_import ON insulin_doses (import_id) WHERE import_id IS NOT NULL",
            "CREATE INDEX insulin_doses_version ON insulin_doses (user_id, version)",
            // A meal's foods are part of it (by position), as the food log's entries keep their foods' names.
            """
            CREATE TABLE meals (
                row_id $ROW_ID,
                id $UUID NOT NULL UNIQUE,
                user_id $INT NOT NULL REFERENCES users(row_id),
                name TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('common', 'test')),
                carbohydrate_g $REAL CHECK (carbohydrate_g >= 0),
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
            "CREATE UNIQUE INDEX meals_name ON meals (user_id, name) WHERE deleted = 0",
            "CREATE INDEX meals_version ON meals (user_id, version)",
            """
            CREATE TABLE meal_foods (
                meal_id $INT NOT NULL REFERENCES meals(row_id),
                position $INT NOT NULL,
                food_id $UUID NOT NULL,
                name TEXT NOT NULL,
                grams $REAL NOT NULL CHECK (grams > 0),
                PRIMARY KEY (meal_id, position)
            ) $WITHOUT_ROWID
            """,
            """
            CREATE TABLE meal_events (
                row_id $ROW_ID,
                id $UUID NOT NULL UNIQUE,
                user_id $INT NOT NULL REFERENCES users(row_id),
                meal_id $INT NOT NULL REFERENCES meals(row_id),
                eaten_at_ms $INT NOT NULL,
                utc_offset_s $INT NOT NULL CHECK (utc_offset_s BETWEEN -64800 AND 64800),
                local_day $INT NOT NULL,
                portion $REAL NOT NULL CHECK (portion > 0),
                carbohydrate_g $REAL CHECK (carbohydrate_g >= 0),
                note TEXT,
                report_reason TEXT,
                reported_at_ms $INT,
                source TEXT NOT NULL,
                external_id TEXT,
                import_id $INT REFERENCES imports(row_id),
                created_at_ms $INT NOT NULL,
                updated_at_ms $INT NOT NULL,
                version $INT NOT NULL,
                deleted $INT NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
            )
            """,
            "CREATE INDEX meal_events_time ON meal_events (user_id, eaten_at_ms) WHERE deleted = 0",
            "CREATE INDEX meal_events_meal ON meal_events (meal_id) WHERE deleted = 0",
            """
            CREATE UNIQUE INDEX meal_events_external ON meal_events (user_id, external_id)
                WHERE deleted = 0 AND external_id IS NOT NULL
            """,
            "CREATE INDEX meal_events_import ON meal_events (import_id) WHERE import_id IS NOT NULL",
            "CREATE INDEX meal_events_version ON meal_events (user_id, version)",
        ]
    )
}
