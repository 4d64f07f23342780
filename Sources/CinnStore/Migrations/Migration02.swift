import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 2: foods, food search, food log, presets, recents, energy settings.
    static let v2 = Migration(
        version: 2, name: "foods, food search, food log, presets, recents, energy settings",
        sqlite: [
            "ALTER TABLE user_settings ADD COLUMN energy_target_kcal REAL CHECK (energy_target_kcal > 0)",
            "ALTER TABLE user_settings ADD COLUMN energy_unit TEXT NOT NULL DEFAULT 'kcal' CHECK (energy_unit IN ('kcal', 'kJ'))",
            """
            CREATE TABLE foods (
                row_id INTEGER PRIMARY KEY,
                id BLOB NOT NULL UNIQUE,
                user_id INTEGER REFERENCES users(row_id),
                name TEXT NOT NULL,
                brand TEXT,
                barcode TEXT,
                source TEXT NOT NULL CHECK (source IN ('mine', 'usda', 'off')),
                basis TEXT NOT NULL CHECK (basis IN ('g', 'ml')),
                generic INTEGER NOT NULL DEFAULT 0 CHECK (generic IN (0, 1)),
                category TEXT,
                nutrients TEXT NOT NULL,
                energy_kcal REAL,
                servings TEXT NOT NULL,
                name_key TEXT NOT NULL,
                brand_key TEXT,
                external_id TEXT,
                import_id INTEGER REFERENCES imports(row_id),
                created_at_ms INTEGER NOT NULL,
                updated_at_ms INTEGER NOT NULL,
                version INTEGER NOT NULL,
                deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
            )
            """,
            "CREATE UNIQUE INDEX foods_shared_external ON foods (external_id) WHERE user_id IS NULL AND deleted = 0 AND external_id IS NOT NULL",
            "CREATE UNIQUE INDEX foods_user_external ON foods (user_id, external_id) WHERE user_id IS NOT NULL AND deleted = 0 AND external_id IS NOT NULL",
            "CREATE INDEX foods_barcode ON foods (barcode) WHERE barcode IS NOT NULL AND deleted = 0",
            "CREATE INDEX foods_user ON foods (user_id, name_key) WHERE user_id IS NOT NULL AND deleted = 0",
            "CREATE INDEX foods_import ON foods (import_id) WHERE import_id IS NOT NULL",
            """
            CREATE VIRTUAL TABLE foods_search_common USING fts5(name_key, brand_key, content='foods', content_rowid='row_id',
                tokenize='unicode61', prefix='1 2 3')
            """,
            """
            CREATE VIRTUAL TABLE foods_search_branded USING fts5(name_key, brand_key, content='foods', content_rowid='row_id',
                tokenize='unicode61', prefix='1 2 3')
            """,
            """
            CREATE VIRTUAL TABLE foods_search_own USING fts5(name_key, brand_key, content='foods', content_rowid='row_id',
                tokenize='unicode61', prefix='1 2 3')
            """,
            """
            CREATE TRIGGER foods_search_insert AFTER INSERT ON foods WHEN new.deleted = 0 BEGIN
                INSERT INTO foods_search_own (rowid, name_key, brand_key) SELECT new.row_id, new.name_key, new.brand_key
                    WHERE new.user_id IS NOT NULL;
                INSERT INTO foods_search_common (rowid, name_key, brand_key) SELECT new.row_id, new.name_key, new.brand_key
                    WHERE new.user_id IS NULL AND new.generic = 1;
                INSERT INTO foods_search_branded (rowid, name_key, brand_key) SELECT new.row_id, new.name_key, new.brand_key
                    WHERE new.user_id IS NULL AND new.generic = 0;
            END
            """,
            """
            CREATE TRIGGER foods_search_update AFTER UPDATE OF name_key, brand_key, deleted ON foods BEGIN
                INSERT INTO foods_search_own (foods_search_own, rowid, name_key, brand_key)
                    SELECT 'delete', old.row_id, old.name_key, old.brand_key WHERE old.deleted = 0 AND old.user_id IS NOT NULL;
                INSERT INTO foods_search_common (foods_search_common, rowid, name_key, brand_key)
                    SELECT 'delete', old.row_id, old.name_key, old.brand_key
                    WHERE old.deleted = 0 AND old.user_id IS NULL AND old.generic = 1;
                INSERT INTO foods_search_branded (foods_search_branded, rowid, name_key, brand_key)
                    SELECT 'delete', old.row_id, old.name_key, old.brand_key
                    WHERE old.deleted = 0 AND old.user_id IS NULL AND old.generic = 0;
                INSERT INTO foods_search_own (rowid, name_key, brand_key) SELECT new.row_id, new.name_key, new.brand_key
                    WHERE new.deleted = 0 AND new.user_id IS NOT NULL;
                INSERT INTO foods_search_common (rowid, name_key, brand_key) SELECT new.row_id, new.name_key, new.brand_key
                    WHERE new.deleted = 0 AND new.user_id IS NULL AND new.generic = 1;
                INSERT INTO foods_search_branded (rowid, name_key, brand_key) SELECT new.row_id, new.name_key, new.brand_key
                    WHERE new.deleted = 0 AND new.user_id IS NULL AND new.generic = 0;
            END
            """,
            """
            CREATE TABLE food_entries (
                row_id INTEGER PRIMARY KEY,
                id BLOB NOT NULL UNIQUE,
                user_id INTEGER NOT NULL REFERENCES users(row_id),
                food_id BLOB,
                name TEXT NOT NULL,
                brand TEXT,
                search_key TEXT NOT NULL,
                meal TEXT NOT NULL,
                eaten_at_ms INTEGER NOT NULL,
                utc_offset_s INTEGER NOT NULL CHECK (utc_offset_s BETWEEN -64800 AND 64800),
                local_day INTEGER NOT NULL,
                servings REAL NOT NULL CHECK (servings > 0),
                serving_label TEXT NOT NULL,
                serving_amount REAL CHECK (serving_amount > 0),
                nutrients TEXT NOT NULL,
                energy_kcal REAL NOT NULL CHECK (energy_kcal >= 0),
                note TEXT,
                source TEXT NOT NULL,
                external_id TEXT,
                import_id INTEGER REFERENCES imports(row_id),
                created_at_ms INTEGER NOT NULL,
                updated_at_ms INTEGER NOT NULL,
                version INTEGER NOT NULL,
                deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
            )
            """,
            "CREATE INDEX food_entries_day ON food_entries (user_id, local_day, eaten_at_ms) WHERE deleted = 0",
            "CREATE INDEX food_entries_food ON food_entries (user_id, food_id, eaten_at_ms) WHERE deleted = 0",
            """
            CREATE UNIQUE INDEX food_entries_external ON food_entries (user_id, external_id)
                WHERE deleted = 0 AND external_id IS NOT NULL
            """,
            "CREATE INDEX food_entries_import ON food_entries (import_id) WHERE import_id IS NOT NULL",
            """
            CREATE TABLE recent_foods (
                user_id INTEGER NOT NULL REFERENCES users(row_id),
                food_id BLOB NOT NULL,
                last_used_ms INTEGER NOT NULL,
                PRIMARY KEY (user_id, food_id)
            )
            """,
            "CREATE INDEX recent_foods_last ON recent_foods (user_id, last_used_ms)",
            """
            CREATE TABLE presets (
                row_id INTEGER PRIMARY KEY,
                id BLOB NOT NULL UNIQUE,
                user_id INTEGER NOT NULL REFERENCES users(row_id),
                name TEXT NOT NULL,
                meal TEXT,
                import_id INTEGER REFERENCES imports(row_id),
                created_at_ms INTEGER NOT NULL,
                updated_at_ms INTEGER NOT NULL,
                version INTEGER NOT NULL,
                deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
            )
            """,
            "CREATE INDEX presets_user ON presets (user_id, name) WHERE deleted = 0",
            """
            CREATE TABLE preset_items (
                preset_id INTEGER NOT NULL REFERENCES presets(row_id),
                position INTEGER NOT NULL,
                food_id BLOB,
                name TEXT NOT NULL,
                brand TEXT,
                servings REAL NOT NULL CHECK (servings > 0),
                serving_label TEXT NOT NULL,
                serving_amount REAL CHECK (serving_amount > 0),
                nutrients TEXT NOT NULL,
                PRIMARY KEY (preset_id, position)
            )
            """,
        ],
        postgres: [
            "ALTER TABLE user_settings ADD COLUMN energy_target_kcal DOUBLE PRECISION CHECK (energy_target_kcal > 0)",
            "ALTER TABLE user_settings ADD COLUMN energy_unit TEXT NOT NULL DEFAULT 'kcal' CHECK (energy_unit IN ('kcal', 'kJ'))",
            """
            CREATE TABLE foods (
                row_id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                id UUID NOT NULL UNIQUE,
                user_id BIGINT REFERENCES users(row_id),
                name TEXT NOT NULL,
                brand TEXT,
                barcode TEXT,
                source TEXT NOT NULL CHECK (source IN ('mine', 'usda', 'off')),
                basis TEXT NOT NULL CHECK (basis IN ('g', 'ml')),
                generic BIGINT NOT NULL DEFAULT 0 CHECK (generic IN (0, 1)),
                category TEXT,
                nutrients TEXT NOT NULL,
                energy_kcal DOUBLE PRECISION,
                servings TEXT NOT NULL,
                name_key TEXT NOT NULL,
                brand_key TEXT,
                external_id TEXT,
                import_id BIGINT REFERENCES imports(row_id),
                created_at_ms BIGINT NOT NULL,
                updated_at_ms BIGINT NOT NULL,
                version BIGINT NOT NULL,
                deleted BIGINT NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
                search tsvector GENERATED ALWAYS AS (to_tsvector('simple', name_key || ' ' || coalesce(brand_key, ''))) STORED
            )
            """,
            "CREATE UNIQUE INDEX foods_shared_external ON foods (external_id) WHERE user_id IS NULL AND deleted = 0 AND external_id IS NOT NULL",
            "CREATE UNIQUE INDEX foods_user_external ON foods (user_id, external_id) WHERE user_id IS NOT NULL AND deleted = 0 AND external_id IS NOT NULL",
            "CREATE INDEX foods_barcode ON foods (barcode) WHERE barcode IS NOT NULL AND deleted = 0",
            "CREATE INDEX foods_user ON foods (user_id, name_key) WHERE user_id IS NOT NULL AND deleted = 0",
            "CREATE INDEX foods_import ON foods (import_id) WHERE import_id IS NOT NULL",
            "CREATE INDEX foods_search_own ON foods USING GIN (search) WHERE deleted = 0 AND user_id IS NOT NULL",
            "CREATE INDEX foods_search_common ON foods USING GIN (search) WHERE deleted = 0 AND generic = 1 AND user_id IS NULL",
            "CREATE INDEX foods_search_branded ON foods USING GIN (search) WHERE deleted = 0 AND generic = 0 AND user_id IS NULL",
            "CREATE INDEX foods_branded_name ON foods (name_key text_pattern_ops) WHERE deleted = 0 AND generic = 0 AND user_id IS NULL",
            """
            CREATE TABLE food_entries (
                row_id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                id UUID NOT NULL UNIQUE,
                user_id BIGINT NOT NULL REFERENCES users(row_id),
                food_id UUID,
                name TEXT NOT NULL,
                brand TEXT,
                search_key TEXT NOT NULL,
                meal TEXT NOT NULL,
                eaten_at_ms BIGINT NOT NULL,
                utc_offset_s BIGINT NOT NULL CHECK (utc_offset_s BETWEEN -64800 AND 64800),
                local_day BIGINT NOT NULL,
                servings DOUBLE PRECISION NOT NULL CHECK (servings > 0),
                serving_label TEXT NOT NULL,
                serving_amount DOUBLE PRECISION CHECK (serving_amount > 0),
                nutrients TEXT NOT NULL,
                energy_kcal DOUBLE PRECISION NOT NULL CHECK (energy_kcal >= 0),
                note TEXT,
                source TEXT NOT NULL,
                external_id TEXT,
                import_id BIGINT REFERENCES imports(row_id),
                created_at_ms BIGINT NOT NULL,
                updated_at_ms BIGINT NOT NULL,
                version BIGINT NOT NULL,
                deleted BIGINT NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
            )
            """,
            "CREATE INDEX food_entries_day ON food_entries (user_id, local_day, eaten_at_ms) WHERE deleted = 0",
            "CREATE INDEX food_entries_food ON food_entries (user_id, food_id, eaten_at_ms) WHERE deleted = 0",
            """
            CREATE UNIQUE INDEX food_entries_external ON food_entries (user_id, external_id)
                WHERE deleted = 0 AND external_id IS NOT NULL
            """,
            "CREATE INDEX food_entries_import ON food_entries (import_id) WHERE import_id IS NOT NULL",
            """
            CREATE TABLE recent_foods (
                user_id BIGINT NOT NULL REFERENCES users(row_id),
                food_id UUID NOT NULL,
                last_used_ms BIGINT NOT NULL,
                PRIMARY KEY (user_id, food_id)
            )
            """,
            "CREATE INDEX recent_foods_last ON recent_foods (user_id, last_used_ms)",
            """
            CREATE TABLE presets (
                row_id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                id UUID NOT NULL UNIQUE,
                user_id BIGINT NOT NULL REFERENCES users(row_id),
                name TEXT NOT NULL,
                meal TEXT,
                import_id BIGINT REFERENCES imports(row_id),
                created_at_ms BIGINT NOT NULL,
                updated_at_ms BIGINT NOT NULL,
                version BIGINT NOT NULL,
                deleted BIGINT NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
            )
            """,
            "CREATE INDEX presets_user ON presets (user_id, name) WHERE deleted = 0",
            """
            CREATE TABLE preset_items (
                preset_id BIGINT NOT NULL REFERENCES presets(row_id),
                position BIGINT NOT NULL,
                food_id UUID,
                name TEXT NOT NULL,
                brand TEXT,
                servings DOUBLE PRECISION NOT NULL CHECK (servings > 0),
                serving_label TEXT NOT NULL,
                serving_amount DOUBLE PRECISION CHECK (serving_amount > 0),
                nutrients TEXT NOT NULL,
                PRIMARY KEY (preset_id, position)
            )
            """,
        ]
    )
}
