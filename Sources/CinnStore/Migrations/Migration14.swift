import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 14: the built-in generic foods, recipes, and nutrition targets.
    static let v14 = Migration(
        version: 14, name: "built-in foods, recipes and nutrition targets",
        dialectNeutral: [
            // 1 for a food of the set built into Cinn (shared, generic, with a stable id).
            "ALTER TABLE foods ADD COLUMN builtin $INT NOT NULL DEFAULT 0 CHECK (builtin IN (0, 1))",
            // Which built-in set the database holds: one row, the hash of the set's file.
            """
            CREATE TABLE builtin_foods (
                id $INT PRIMARY KEY CHECK (id = 1),
                version TEXT NOT NULL,
                food_count $INT NOT NULL,
                installed_at_ms $INT NOT NULL
            )
            """,
            // A recipe is one of the user's foods made of ingredients: 1 here, its nutrients per 100 g those of its
            // ingredients over its weight (the cooked weight when given, else theirs), its servings count the portions it makes.
            "ALTER TABLE foods ADD COLUMN recipe $INT NOT NULL DEFAULT 0 CHECK (recipe IN (0, 1))",
            "ALTER TABLE foods ADD COLUMN recipe_servings $REAL CHECK (recipe_servings > 0)",
            "ALTER TABLE foods ADD COLUMN cooked_grams $REAL CHECK (cooked_grams > 0)",
            // A recipe's ingredients in order, each a snapshot of a food (by id while it exists) and its amount.
            """
            CREATE TABLE recipe_ingredients (
                recipe_id $INT NOT NULL REFERENCES foods(row_id),
                position $INT NOT NULL,
                food_id $UUID,
                name TEXT NOT NULL,
                brand TEXT,
                servings $REAL NOT NULL CHECK (servings > 0),
                serving_label TEXT NOT NULL,
                grams $REAL NOT NULL CHECK (grams > 0),
                nutrients TEXT NOT NULL,
                PRIMARY KEY (recipe_id, position)
            ) $WITHOUT_ROWID
            """,
            // The macro targets and per-nutrient bounds (NutrientTargets' storage text); NULL for none of one's own.
            "ALTER TABLE user_settings ADD COLUMN nutrient_targets TEXT",
        ])
}
