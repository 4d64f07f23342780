import CinnCore
import Foundation
import Testing

@Suite struct RecipeTests {
    static let oats = Food(
        name: "Oats", nutrients: try! Nutrients(keyed: ["energy": 400, "protein": 10]),
        servings: [ServingSize(label: "1 cup", amount: 80)])
    static let milk = Food(name: "Milk", basis: .milliliters, nutrients: try! Nutrients(keyed: ["energy": 50, "protein": 3.4]))

    static func ingredients() throws -> [RecipeIngredient] {
        [
            try RecipeIngredient.of(oats, servings: 50, of: ServingSize(label: "1 g", amount: 1), field: "ingredients[0]"),
            try RecipeIngredient.of(milk, servings: 2, of: .hundred(.milliliters), field: "ingredients[1]"),
        ]
    }

    @Test func nutrientsFollowTheIngredientsOverTheRecipesWeight() throws {
        // 50 g of oats (200 kcal, 5 g protein) and 200 ml of milk (100 kcal, 6.8 g): 250 g, 300 kcal, 11.8 g.
        let recipe = try Recipe.make(name: "Porridge", ingredients: try Self.ingredients(), servings: 2, cookedGrams: nil)
        #expect(recipe.totalGrams == 250)
        #expect(recipe.food.nutrients.energy == 120)
        #expect(abs((recipe.food.nutrients[.protein] ?? 0) - 4.72) < 1e-9)
        #expect(recipe.food.servings == [ServingSize(label: "1 serving", amount: 125), ServingSize(label: "whole recipe", amount: 250)])
        #expect(recipe.food.nutrients(servings: 1, of: recipe.food.servings[0]).energy == 150)
        #expect(recipe.ingredients[1].servingLabel == "100 ml" && recipe.ingredients[1].grams == 200)

        // Cooked down to 200 g: denser per 100 g, the same per serving.
        let cooked = try Recipe.make(name: "Porridge", ingredients: try Self.ingredients(), servings: 2, cookedGrams: 200)
        #expect(cooked.food.nutrients.energy == 150)
        #expect(cooked.food.nutrients(servings: 1, of: cooked.food.servings[0]).energy == 150)
    }

    @Test func aBadRecipeNamesItsField() throws {
        let items = try Self.ingredients()
        #expect(throws: CinnError.invalid("ingredients", "a recipe needs at least one ingredient")) {
            try Recipe.make(name: "Air", ingredients: [], servings: 1, cookedGrams: nil)
        }
        #expect(throws: CinnError.invalid("name", "a food needs a name")) {
            try Recipe.make(name: " ", ingredients: items, servings: 1, cookedGrams: nil)
        }
        #expect(throws: CinnError.invalid("servings", "a recipe makes more than 0 servings")) {
            try Recipe.make(name: "P", ingredients: items, servings: 0, cookedGrams: nil)
        }
        #expect(throws: CinnError.invalid("cooked_grams", "the cooked weight must be more than 0 g")) {
            try Recipe.make(name: "P", ingredients: items, servings: 1, cookedGrams: -4)
        }
        // 300 kcal in 20 g is 1500 kcal per 100 g: no food is that dense, so the cooked weight is wrong.
        do {
            _ = try Recipe.make(name: "P", ingredients: items, servings: 1, cookedGrams: 20)
            Issue.record("a cooked weight of 20 g was accepted")
        } catch {
            #expect(error.field == "cooked_grams" && error.message.contains("The ingredients weigh 250 g"), "\(error)")
        }
        #expect(throws: CinnError.invalid("ingredients[0].servings", "servings must be at least 0.001")) {
            try RecipeIngredient.of(Self.oats, servings: 0, of: Self.oats.defaultServing, field: "ingredients[0]")
        }
    }
}
