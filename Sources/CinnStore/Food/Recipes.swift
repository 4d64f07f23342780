import CinnCore
import Foundation
import SQLKit

extension Store {
    /// Stores a recipe as one of the user's foods with its ingredients, new or replacing the recipe of the same id (the
    /// user's own; another's, or a food that is not a recipe, is "not found"). Entries logged from it keep their snapshot.
    @discardableResult
    public func saveRecipe(_ recipe: Recipe, user: UserID) async throws -> Recipe {
        try await transaction { db in
            let food = recipe.food
            let existing = try await db.raw(
                """
                SELECT row_id, recipe FROM foods WHERE id = \(bind: bind(food.id)) AND user_id = \(bind: user.rawValue) AND deleted = 0
                """
            ).first()
            if let existing {
                guard try existing.decode(column: "recipe", as: Int.self) == 1 else {
                    throw CinnError(.conflict, "\(food.name) is a food, not a recipe: edit it as a food")
                }
                let version = try await reserveVersions(db, user: user)
                try await db.raw(
                    """
                    UPDATE foods SET name = \(bind: food.name), nutrients = \(bind: food.nutrients.storageText),
                        energy_kcal = \(bind: food.nutrients.energy), servings = \(bind: ServingSize.storageText(food.servings)),
                        name_key = \(bind: FoodSearchQuery.searchKey(food.name)), recipe_servings = \(bind: recipe.servingsCount),
                        cooked_grams = \(bind: recipe.cookedGrams), updated_at_ms = \(bind: milliseconds(now())), version = \(bind: version)
                    WHERE id = \(bind: bind(food.id))
                    """
                ).run()
                let row = try existing.decode(column: "row_id", as: Int64.self)
                try await db.raw("DELETE FROM recipe_ingredients WHERE recipe_id = \(bind: row)").run()
                try await insertIngredients(db, recipe.ingredients, recipeRow: row)
            } else {
                guard try await db.raw("SELECT 1 AS one FROM foods WHERE id = \(bind: bind(food.id))").first() == nil else {
                    throw CinnError.notFound("no recipe of yours with id \(food.id)")
                }
                try await insertOwnFood(db, food, user: user, externalID: nil, importID: nil)
                guard
                    let row = try await db.raw(
                        """
                        UPDATE foods SET recipe = 1, recipe_servings = \(bind: recipe.servingsCount), cooked_grams = \(bind: recipe.cookedGrams)
                        WHERE id = \(bind: bind(food.id)) RETURNING row_id
                        """
                    ).first()
                else { throw CinnError(.internal, "the recipe was not stored") }
                try await insertIngredients(db, recipe.ingredients, recipeRow: try row.decode(column: "row_id", as: Int64.self))
            }
            return recipe
        }
    }

    func insertIngredients(_ db: any SQLDatabase, _ ingredients: [RecipeIngredient], recipeRow: Int64) async throws {
        try await insertRows(
            db, into: "recipe_ingredients",
            columns: [
                "recipe_id", "position", "food_id", "name", "brand", "servings", "serving_label", "grams", "nutrients",
            ],
            ingredients.enumerated().map { position, item in
                [
                    recipeRow, position, bind(item.foodID), item.name, item.brand, item.servings, item.servingLabel, item.grams,
                    item.nutrients.storageText,
                ]
            })
    }

    /// One of the user's recipes; a food that is not a recipe, or another user's, is "not found".
    public func recipe(id: UUID, user: UserID) async throws -> Recipe {
        try await withConnection { db in
            guard
                let row = try await db.raw(
                    """
                    SELECT \(unsafeRaw: Self.foodColumns), row_id, recipe_servings, cooked_grams FROM foods
                    WHERE id = \(bind: bind(id)) AND user_id = \(bind: user.rawValue) AND deleted = 0 AND recipe = 1
                    """
                ).first(), let recipe = try await decodeRecipes(db, [row]).first
            else {
                throw CinnError.notFound("no recipe with id \(id)")
            }
            return recipe
        }
    }

    /// The user's recipes, by name: one query for the recipes and one for all their ingredients.
    public func recipes(user: UserID) async throws -> [Recipe] {
        try await withConnection { db in
            try await decodeRecipes(
                db,
                try await db.raw(
                    """
                    SELECT \(unsafeRaw: Self.foodColumns), row_id, recipe_servings, cooked_grams FROM foods
                    WHERE user_id = \(bind: user.rawValue) AND deleted = 0 AND recipe = 1 ORDER BY name_key, row_id
                    """
                ).all())
        }
    }

    /// Recipes from their food rows (with `row_id`, `recipe_servings` and `cooked_grams`), their ingredients read at once.
    private func decodeRecipes(_ db: any SQLDatabase, _ rows: [any SQLRow]) async throws -> [Recipe] {
        guard !rows.isEmpty else { return [] }
        let rowIDs = try rows.map { try $0.decode(column: "row_id", as: Int64.self) }
        var ingredients: [Int64: [RecipeIngredient]] = [:]
        for chunk in rowIDs.chunks(of: Self.insertChunkRows) {
            for item in try await db.raw(
                """
                SELECT recipe_id, food_id, name, brand, servings, serving_label, grams, nutrients FROM recipe_ingredients
                WHERE recipe_id IN (\(binds: Array(chunk))) ORDER BY recipe_id, position
                """
            ).all() {
                guard let nutrients = Nutrients(storageText: try item.decode(column: "nutrients", as: String.self)) else {
                    throw CinnError(.internal, "a stored recipe is damaged")
                }
                ingredients[try item.decode(column: "recipe_id", as: Int64.self), default: []].append(
                    RecipeIngredient(
                        foodID: try item.decodeNil(column: "food_id") ? nil : try decodeUUID(item, "food_id"),
                        name: try item.decode(column: "name", as: String.self), brand: try item.decode(column: "brand", as: String?.self),
                        servings: try item.decode(column: "servings", as: Double.self),
                        servingLabel: try item.decode(column: "serving_label", as: String.self),
                        grams: try item.decode(column: "grams", as: Double.self), nutrients: nutrients))
            }
        }
        return try zip(rows, rowIDs).map { row, rowID in
            Recipe(
                food: try decodeFood(row), ingredients: ingredients[rowID] ?? [],
                servingsCount: try row.decode(column: "recipe_servings", as: Double?.self) ?? 1,
                cookedGrams: try row.decode(column: "cooked_grams", as: Double?.self))
        }
    }
}
