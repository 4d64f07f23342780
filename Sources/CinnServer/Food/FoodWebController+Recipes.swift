import CinnCore
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

// MARK: - Recipes

extension FoodWebController {
    @Sendable func recipes(_ request: Request, context: Context) async throws -> Response {
        let settings = try await context.journal.settings()
        let recipes = try await context.journal.store.recipes(user: context.journal.user)
        return page(context, "food-recipes", RecipeListPage(recipes, settings: settings), title: "Recipes", section: .recipes,
                    notice: Done.notice(request))
    }

    @Sendable func newRecipe(_ request: Request, context: Context) async throws -> Response {
        try await renderRecipe(context, RecipeDraft([:]))
    }

    @Sendable func editRecipe(_ request: Request, context: Context) async throws -> Response {
        let recipe = try await context.journal.store.recipe(id: try id(context, "recipe"), user: context.journal.user)
        return try await renderRecipe(context, RecipeDraft(recipe))
    }

    /// The editor again with the form's draft: an ingredient added or removed, a search, the totals worked out.
    @Sendable func recipeDraft(_ request: Request, context: Context) async throws -> Response {
        try await renderRecipe(context, RecipeDraft(try await FormFields(request: request).values))
    }

    @Sendable func saveRecipe(_ request: Request, context: Context) async throws -> Response {
        let draft = RecipeDraft(try await FormFields(request: request).values)
        let id = context.parameters.get("id").flatMap(UUID.init(text:))
        if let id { _ = try await context.journal.store.recipe(id: id, user: context.journal.user) }
        return try await handlingFormErrors {
            let ingredients = try draft.ingredients.enumerated().map { index, item in
                RecipeIngredientRequest(foodID: item.foodID,
                                        servings: try FormFields.number(item.servings, field: "ingredients[\(index)].servings"),
                                        serving: item.serving)
            }
            let recipe = try await context.journal.saveRecipe(
                id: id, name: draft.name, ingredients: ingredients, servings: try FormFields.number(draft.servings, field: "servings"),
                cookedGrams: draft.cookedGrams.isEmpty ? nil : try FormFields.number(draft.cookedGrams, field: "cooked_grams"))
            return Done.recipeSaved.redirect(to: "/food/foods/\(recipe.food.id.lowercasedString)")
        } failed: { error in
            try await renderRecipe(context, draft, problem: FormProblem(error), status: .unprocessableContent)
        }
    }

    func renderRecipe(_ context: Context, _ draft: RecipeDraft, problem: FormProblem? = nil,
                      status: HTTPResponse.Status = .ok) async throws -> Response {
        let settings = try await context.journal.settings()
        var foods: [UUID: Food] = [:]
        for item in draft.ingredients where foods[item.foodID] == nil {
            foods[item.foodID] = try? await context.journal.store.food(id: item.foodID, user: context.journal.user)
        }
        let results = draft.query.isEmpty ? [] : try await context.journal.searchFoods(draft.query, limit: 10)
            .filter { $0.food.id != draft.id }
        let model = RecipeEditorPage(draft, foods: foods, results: results, settings: settings, problem: problem)
        return page(context, "food-recipe", model, title: model.title, section: .recipes, status: status)
    }
}
