import CinnCore
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

// MARK: - Recipes

extension FoodWebController {
    @Sendable func recipes(_ request: Request, context: Context) async throws -> WebAnswer {
        let settings = try await context.journal.settings()
        let recipes = try await context.journal.recipes()
        return page(
            "food-recipes", RecipeListPage(recipes, settings: settings), title: "Recipes", section: .recipes,
            notice: Done.notice(request))
    }

    @Sendable func newRecipe(_ request: Request, context: Context) async throws -> WebAnswer {
        try await renderRecipe(context, RecipeDraft())
    }

    @Sendable func editRecipe(_ request: Request, context: Context) async throws -> WebAnswer {
        let recipe = try await context.journal.recipe(id: try idParameter(context, "recipe"))
        return try await renderRecipe(context, RecipeDraft(recipe))
    }

    /// The editor again with the form's draft: an ingredient added or removed, a search, the totals worked out.
    @Sendable func recipeDraft(_ request: Request, context: Context) async throws -> WebAnswer {
        try await renderRecipe(context, try await request.decodeForm(RecipeDraft.self))
    }

    @Sendable func saveRecipe(_ request: Request, context: Context) async throws -> WebAnswer {
        let draft = try await request.decodeForm(RecipeDraft.self)
        let id = context.parameters.get("id").flatMap(UUID.init(text:))
        var stored: Recipe?
        if let id { stored = try await context.journal.recipe(id: id) }
        let foods = try await ingredientFoods(context, draft)
        return try await handlingFormErrors {
            let ingredients = try draft.ingredients.enumerated().map { index, item in
                if item.foodID.flatMap({ foods[$0] }) == nil, let kept = RecipeEditorPage.kept(item, in: stored) {
                    return RecipeIngredientRequest(kept: kept)
                }
                guard let foodID = item.foodID else {
                    throw CinnError.invalid("ingredients[\(index)].food_id", "this ingredient is not in the recipe any more: remove it")
                }
                return RecipeIngredientRequest(
                    foodID: foodID,
                    servings: try Field.number(item.servings, field: "ingredients[\(index)].servings"),
                    serving: item.serving)
            }
            let cookedGrams = draft.cookedGrams.isEmpty ? nil : try Field.number(draft.cookedGrams, field: "cooked_grams")
            let servings = try Field.number(draft.servings, field: "servings")
            // A new recipe sent again is not made twice: the answer is the list of recipes.
            return try await FormKeys.once(id == nil ? try draft.key.uuid() : nil, in: context.journal) {
                let recipe = try await context.journal.saveRecipe(
                    id: id, name: draft.name, ingredients: ingredients, servings: servings, cookedGrams: cookedGrams)
                return Done.recipeSaved.redirect(to: Site.food.path(recipe.food.id))
            } answer: {
                Done.recipeSaved.redirect(to: Site.recipes.path)
            }
        } failed: { error in
            try await renderRecipe(context, draft, problem: FormProblem(error), status: .unprocessableContent)
        }
    }

    /// The foods of a draft's rows that still exist, by id.
    func ingredientFoods(_ context: Context, _ draft: RecipeDraft) async throws -> [UUID: Food] {
        var foods: [UUID: Food] = [:]
        for id in draft.ingredients.compactMap(\.foodID) where foods[id] == nil {
            foods[id] = try? await context.journal.food(id: id)
        }
        return foods
    }

    func renderRecipe(
        _ context: Context, _ draft: RecipeDraft, problem: FormProblem? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> WebAnswer {
        let settings = try await context.journal.settings()
        let foods = try await ingredientFoods(context, draft)
        var stored: Recipe?
        if let id = draft.id { stored = try? await context.journal.recipe(id: id) }
        let results =
            draft.query.isEmpty
            ? []
            : try await context.journal.searchFoods(draft.query, limit: 10)
                .filter { $0.food.id != draft.id }
        let model = try RecipeEditorPage(draft, foods: foods, stored: stored, results: results, settings: settings, problem: problem)
        return page("food-recipe", model, title: model.title, section: .recipes, status: status)
    }
}
