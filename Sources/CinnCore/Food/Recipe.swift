import Foundation

/// An amount of a food in a recipe, with a snapshot of what it was when added: the recipe keeps its numbers if the
/// food is later edited or deleted.
public struct RecipeIngredient: Sendable, Hashable {
    /// The food it came from, while it exists.
    public var foodID: UUID?
    public var name: String
    public var brand: String?
    /// How many of the serving.
    public var servings: Double
    /// The serving as it was: "1 cup (80 g)".
    public var servingLabel: String
    /// Its weight in the recipe, in grams (millilitres count as grams).
    public var grams: Double
    /// The nutrients of the whole amount.
    public var nutrients: Nutrients

    public init(
        foodID: UUID?, name: String, brand: String? = nil, servings: Double, servingLabel: String, grams: Double,
        nutrients: Nutrients
    ) {
        self.foodID = foodID
        self.name = name
        self.brand = brand
        self.servings = servings
        self.servingLabel = servingLabel
        self.grams = grams
        self.nutrients = nutrients
    }

    /// `count` of `serving` of `food`.
    public static func of(_ food: Food, servings count: Double, of serving: ServingSize, field: String) throws(CinnError)
        -> RecipeIngredient
    {
        let count = try FoodLogEntry.validatedServings(count, field: field + ".servings")
        return RecipeIngredient(
            foodID: food.id, name: food.name, brand: food.brand, servings: count,
            servingLabel: serving.description(basis: food.basis), grams: serving.amount * count,
            nutrients: food.nutrients(servings: count, of: serving))
    }
}

/// A food made of ingredients: its nutrients per 100 g are the ingredients' over the recipe's weight (the cooked
/// weight when given, else the ingredients' own), and one serving is that weight over the number of servings it makes.
/// Logging it snapshots its nutrients as any food.
public struct Recipe: Sendable, Hashable {
    public static let maximumIngredients = 100
    public static let servingLabel = "1 serving"
    public static let wholeLabel = "whole recipe"

    /// The recipe as a food (one of the user's own, per 100 g, with "1 serving" and "whole recipe").
    public var food: Food
    public var ingredients: [RecipeIngredient]
    /// How many servings it makes.
    public var servingsCount: Double
    /// Its weight once cooked, when weighed; nil is the ingredients' weight.
    public var cookedGrams: Double?

    /// A recipe as stored; `make` checks one and works out its nutrients.
    public init(food: Food, ingredients: [RecipeIngredient], servingsCount: Double, cookedGrams: Double?) {
        self.food = food
        self.ingredients = ingredients
        self.servingsCount = servingsCount
        self.cookedGrams = cookedGrams
    }

    /// What the recipe weighs: the cooked weight, else its ingredients'.
    public var totalGrams: Double { cookedGrams ?? ingredients.reduce(0) { $0 + $1.grams } }

    /// The nutrients of the whole recipe.
    public var totalNutrients: Nutrients { ingredients.reduce(Nutrients()) { $0 + $1.nutrients } }

    /// The nutrients of one of the servings it makes.
    public var servingNutrients: Nutrients { totalNutrients.scaled(by: 1 / servingsCount) }

    /// A checked recipe with its nutrients worked out; errors name the field (`ingredients[2].servings`, `cooked_grams`).
    public static func make(
        id: UUID = .v7(), name: String, ingredients: [RecipeIngredient], servings: Double,
        cookedGrams: Double?
    ) throws(CinnError) -> Recipe {
        guard !ingredients.isEmpty else { throw .invalid("ingredients", "a recipe needs at least one ingredient") }
        guard ingredients.count <= maximumIngredients else {
            throw .invalid("ingredients", "a recipe can have at most \(maximumIngredients) ingredients")
        }
        guard servings.isFinite, servings > 0 else { throw .invalid("servings", "a recipe makes more than 0 servings") }
        guard servings <= 1000 else { throw .invalid("servings", "a recipe makes at most 1000 servings") }
        if let cookedGrams {
            guard cookedGrams.isFinite, cookedGrams > 0 else { throw .invalid("cooked_grams", "the cooked weight must be more than 0 g") }
            guard cookedGrams <= 100_000 else { throw .invalid("cooked_grams", "the cooked weight must be at most 100 kg") }
        }
        var recipe = Recipe(
            food: Food(id: id, name: name, nutrients: Nutrients()), ingredients: ingredients,
            servingsCount: servings, cookedGrams: cookedGrams)
        let total = recipe.totalGrams
        let rawGrams = ingredients.reduce(0) { $0 + $1.grams }
        recipe.food.nutrients = recipe.totalNutrients.scaled(by: 100 / total)
        recipe.food.servings = [ServingSize(label: servingLabel, amount: total / servings), ServingSize(label: wholeLabel, amount: total)]
        do {
            recipe.food = try recipe.food.validated()
        } catch  where error.field?.hasPrefix("nutrients.") == true {
            // Only a cooked weight far below the ingredients' can make a recipe denser than any food.
            throw .invalid(
                cookedGrams == nil ? "ingredients" : "cooked_grams",
                "\(error.message): is the cooked weight right? The ingredients weigh \(JSONText.compactNumber(rawGrams.rounded())) g")
        }
        return recipe
    }
}
