import CinnCore
import CinnStore
import Foundation

/// One ingredient as a person gives it: servings of one of a food's servings.
public struct RecipeIngredientRequest: Sendable, Hashable {
    public var foodID: UUID?
    public var servings: Double
    /// A serving label of the food; nil is its default serving.
    public var serving: String?
    /// An ingredient of the recipe as it is stored, kept as it is: an edit leaves alone an ingredient whose food is gone.
    public var kept: RecipeIngredient?

    /// - Parameter foodID: nil only for an ingredient of the recipe being replaced whose food is gone (kept as it is).
    public init(foodID: UUID?, servings: Double, serving: String? = nil) {
        self.foodID = foodID
        self.servings = servings
        self.serving = serving
    }

    public init(kept: RecipeIngredient) {
        foodID = kept.foodID
        servings = kept.servings
        self.kept = kept
    }
}

extension Journal {
    /// Makes a recipe, or replaces the one with `id`, from foods of the user's or the shared database; its nutrients
    /// follow from the ingredients. Errors name the ingredient (`ingredients[1].food_id`).
    public func saveRecipe(
        id: UUID? = nil, name: String, ingredients: [RecipeIngredientRequest], servings: Double,
        cookedGrams: Double?
    ) async throws -> Recipe {
        guard ingredients.count <= Recipe.maximumIngredients else {
            throw CinnError.invalid("ingredients", "a recipe can have at most \(Recipe.maximumIngredients) ingredients")
        }
        var stored: Recipe?
        if let id { stored = try? await store.recipe(id: id, user: user) }
        var items: [RecipeIngredient] = []
        for (index, request) in ingredients.enumerated() {
            let field = "ingredients[\(index)]"
            if let kept = request.kept {
                items.append(kept)
                continue
            }
            // Replacing a recipe, an ingredient whose food is gone, sent at its position with the food id it is stored with
            // (or none), stays as it is.
            let storedItem = stored.flatMap { $0.ingredients.indices.contains(index) ? $0.ingredients[index] : nil }
            guard let foodID = request.foodID else {
                if let storedItem, storedItem.foodID == nil {
                    items.append(storedItem)
                    continue
                }
                throw CinnError.invalid(field + ".food_id", "give the ingredient's food_id")
            }
            guard foodID != id else { throw CinnError.invalid(field + ".food_id", "a recipe cannot be its own ingredient") }
            let food: Food
            do { food = try await store.food(id: foodID, user: user) } catch let error as CinnError where error.code == .notFound {
                if let storedItem, storedItem.foodID == foodID {
                    items.append(storedItem)
                    continue
                }
                throw CinnError.invalid(field + ".food_id", "no food with id \(foodID)")
            }
            let serving = try servingChoice(request.serving, of: food, field: field + ".serving")
            items.append(try RecipeIngredient.of(food, servings: request.servings, of: serving, field: field))
        }
        let recipe = try Recipe.make(
            id: id ?? .v7(at: now()), name: name, ingredients: items, servings: servings,
            cookedGrams: cookedGrams)
        return try await store.saveRecipe(recipe, user: user)
    }
}
