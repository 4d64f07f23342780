import CinnCore
import CinnJournal
import Foundation

/// The recipes page: each recipe with what one serving holds.
struct RecipeListPage {
    struct Item {
        let id: String
        let name: String
        let perServing: String
        let makes: String
        let ingredients: String
    }

    let recipes: [Item]
    let hasRecipes: Bool

    init(_ recipes: [Recipe], settings: UserSettings) {
        self.recipes = recipes.map { recipe in
            Item(id: recipe.food.id.lowercasedString, name: recipe.food.name,
                        perServing: settings.energyUnit.format(kilocalories: recipe.servingNutrients.energy ?? 0) + " a serving",
                        makes: "makes \(NutritionText.decimal(recipe.servingsCount, places: 2)) serving\(recipe.servingsCount == 1 ? "" : "s")",
                        ingredients: recipe.ingredients.map(\.name).joined(separator: " · "))
        }
        hasRecipes = !self.recipes.isEmpty
    }
}

/// A recipe being made or changed. The draft travels in the form itself (`food.N`, `servings.N`, `serving.N`), so
/// adding, removing and searching work without a script: each is a GET of the editor with the whole form.
struct RecipeDraft {
    struct Ingredient {
        let foodID: UUID
        var servings: String
        /// The serving's label, as the form's choice gives it.
        var serving: String?
        /// The serving as a stored recipe wrote it ("1 cup (80 g)"), when the label is not known.
        var servingDescription: String? = nil
    }

    var id: UUID?
    var name: String
    var servings: String
    var cookedGrams: String
    var ingredients: [Ingredient]
    var query: String

    /// The most ingredient rows a form is read for.
    static let maximumRows = Recipe.maximumIngredients

    /// The draft a form (or a query string) holds, with `add` appended and `remove` taken out.
    init(_ fields: [String: String]) {
        func value(_ name: String) -> String? {
            guard let text = fields[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
            return text
        }
        id = value("id").flatMap(UUID.init(text:))
        name = value("name") ?? ""
        servings = value("servings") ?? "1"
        cookedGrams = value("cooked_grams") ?? ""
        query = value("q") ?? ""
        ingredients = (0..<Self.maximumRows).compactMap { index in
            value("food.\(index)").flatMap(UUID.init(text:)).map {
                Ingredient(foodID: $0, servings: value("servings.\(index)") ?? "1", serving: value("serving.\(index)"))
            }
        }
        if let remove = value("remove").flatMap(Int.init), ingredients.indices.contains(remove) { ingredients.remove(at: remove) }
        if let add = value("add").flatMap(UUID.init(text:)), ingredients.count < Self.maximumRows {
            ingredients.append(Ingredient(foodID: add, servings: "1", serving: nil))
        }
    }

    init(_ recipe: Recipe) {
        id = recipe.food.id
        name = recipe.food.name
        servings = NutritionText.decimal(recipe.servingsCount, places: 2)
        cookedGrams = recipe.cookedGrams.map { NutritionText.decimal($0, places: 1) } ?? ""
        query = ""
        ingredients = recipe.ingredients.compactMap { item in
            item.foodID.map { Ingredient(foodID: $0, servings: NutritionText.decimal(item.servings, places: 3), serving: nil,
                                         servingDescription: item.servingLabel) }
        }
    }
}

/// The recipe editor: name, servings, cooked weight, the ingredient rows with their energy, the totals, a food search.
struct RecipeEditorPage {
    struct Row {
        let index: Int
        let foodID: String
        let name: String
        let servings: String
        let choices: [Choice]
        let energy: String
        let servingsError: String?
        let foodError: String?
    }

    let id: String?
    let title: String
    let action: String
    let name: String
    let servings: String
    let cookedGrams: String
    let query: String
    let rows: [Row]
    let hasRows: Bool
    let totals: String?
    let perServing: String?
    let results: [FoodResult]
    let hasResults: Bool
    let noResults: Bool
    let error: String?
    let nameError: String?
    let servingsError: String?
    let cookedGramsError: String?

    /// `foods` are the rows' foods by id (a row whose food is gone says so); `results` the search's.
    init(_ draft: RecipeDraft, foods: [UUID: Food], results: [FoodSearchResult], settings: UserSettings, problem: FormProblem?) {
        let unit = settings.energyUnit
        id = draft.id?.lowercasedString
        title = draft.id == nil ? "New recipe" : "Edit recipe"
        action = draft.id.map { "/food/recipes/\($0.lowercasedString)" } ?? "/food/recipes"
        name = draft.name
        servings = draft.servings
        cookedGrams = draft.cookedGrams
        query = draft.query
        var total = Nutrients()
        var counted = true
        rows = draft.ingredients.enumerated().map { index, item in
            let food = foods[item.foodID]
            let serving = food.flatMap { food in
                item.serving.flatMap { label in food.servingChoices.first { $0.label == label } }
                    ?? item.servingDescription.flatMap { text in food.servingChoices.first { $0.description(basis: food.basis) == text } }
                    ?? food.defaultServing
            }
            var energy = "—"
            if let food, let serving, let count = Double(item.servings.replacingOccurrences(of: ",", with: ".")), count > 0 {
                let nutrients = food.nutrients(servings: count, of: serving)
                total += nutrients
                energy = unit.format(kilocalories: nutrients.energy ?? 0)
            } else {
                counted = false
            }
            let field = "ingredients[\(index)]"
            return Row(index: index, foodID: item.foodID.lowercasedString, name: food?.name ?? "A food no longer there",
                       servings: item.servings,
                       choices: (food?.servingChoices ?? []).map { Choice(value: $0.label, label: $0.description(basis: food?.basis ?? .grams),
                                                                         selected: $0 == serving) },
                       energy: energy, servingsError: problem?.message(for: field + ".servings"),
                       foodError: problem?.message(for: field + ".food_id") ?? problem?.message(for: field + ".serving"))
        }
        hasRows = !rows.isEmpty
        let count = Double(draft.servings.replacingOccurrences(of: ",", with: ".")).flatMap { $0 > 0 ? $0 : nil }
        totals = hasRows && counted ? "Whole recipe: " + unit.format(kilocalories: total.energy ?? 0) : nil
        perServing = hasRows && counted ? count.map { count in
            let one = total.scaled(by: 1 / count)
            return "One serving: \(unit.format(kilocalories: one.energy ?? 0)) · protein \(NutritionText.number(one[.protein] ?? 0)) g"
                + " · carbs \(NutritionText.number(one[.carbohydrate] ?? 0)) g · fat \(NutritionText.number(one[.fat] ?? 0)) g"
        } : nil
        self.results = results.map { FoodResult($0.food, otherVersions: $0.otherVersions, use: .badge, unit: unit, context: []) }
        hasResults = !self.results.isEmpty
        noResults = !draft.query.isEmpty && results.isEmpty
        let fields = ["name", "servings", "cooked_grams"] + draft.ingredients.indices.flatMap {
            ["ingredients[\($0)].servings", "ingredients[\($0)].food_id", "ingredients[\($0)].serving"]
        }
        error = problem?.general(besides: fields)
        nameError = problem?.message(for: "name")
        servingsError = problem?.message(for: "servings")
        cookedGramsError = problem?.message(for: "cooked_grams")
    }
}
