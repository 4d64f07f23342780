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
            Item(
                id: recipe.food.id.lowercasedString, name: recipe.food.name,
                perServing: settings.energyUnit.format(kilocalories: recipe.servingNutrients.energy ?? 0) + " a serving",
                makes: "makes \(NutritionText.decimal(recipe.servingsCount, places: 2)) serving\(recipe.servingsCount == 1 ? "" : "s")",
                ingredients: recipe.ingredients.map(\.name).joined(separator: " · "))
        }
        hasRecipes = !self.recipes.isEmpty
    }
}

/// A recipe being made or changed. The draft travels in the form itself (`food.N`, `servings.N`, `serving.N`, and
/// `keep.N`: the row's position in the stored recipe), so adding, removing and searching work without a script: each is
/// a GET of the editor with the whole form.
struct RecipeDraft: Decodable {
    struct Ingredient {
        let foodID: UUID?
        /// The ingredient's position in the stored recipe, for a row that came from it: when its food is gone, the row
        /// is that stored ingredient, kept as it is.
        var kept: Int? = nil
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
    /// A new recipe's form key (`FormKeys`).
    var key = Field()

    /// The most ingredient rows a form is read for.
    static let maximumRows = Recipe.maximumIngredients

    /// An empty draft: a new recipe.
    init() {
        name = ""
        servings = "1"
        cookedGrams = ""
        query = ""
        ingredients = []
    }

    /// The draft a form holds, with `add` appended and `remove` taken out.
    init(from decoder: any Decoder) throws {
        let form = try decoder.container(keyedBy: FormKey.self)
        func value(_ name: String) throws -> String? { try form.field(name).wrappedValue }
        id = try value("id").flatMap(UUID.init(text:))
        name = try value("name") ?? ""
        servings = try value("servings") ?? "1"
        cookedGrams = try value("cooked_grams") ?? ""
        query = try value("q") ?? ""
        key = try form.field("key")
        ingredients = try (0..<Self.maximumRows).compactMap { index in
            let food = try value("food.\(index)").flatMap(UUID.init(text:)), kept = try value("keep.\(index)").flatMap(Int.init)
            guard food != nil || kept != nil else { return nil }
            return Ingredient(
                foodID: food, kept: kept, servings: try value("servings.\(index)") ?? "1", serving: try value("serving.\(index)"))
        }
        if let remove = try value("remove").flatMap(Int.init), ingredients.indices.contains(remove) { ingredients.remove(at: remove) }
        if let add = try value("add").flatMap(UUID.init(text:)), ingredients.count < Self.maximumRows {
            ingredients.append(Ingredient(foodID: add, servings: "1", serving: nil))
        }
    }

    init(_ recipe: Recipe) {
        id = recipe.food.id
        name = recipe.food.name
        servings = NutritionText.decimal(recipe.servingsCount, places: 2)
        cookedGrams = recipe.cookedGrams.map { NutritionText.decimal($0, places: 1) } ?? ""
        query = ""
        ingredients = recipe.ingredients.enumerated().map { index, item in
            Ingredient(
                foodID: item.foodID, kept: index, servings: NutritionText.decimal(item.servings, places: 3), serving: nil,
                servingDescription: item.servingLabel)
        }
    }
}

/// The recipe editor: name, servings, cooked weight, the ingredient rows with their energy, the totals, a food search.
struct RecipeEditorPage {
    struct Row {
        let index: Int
        let foodID: String
        let kept: String?
        /// For an ingredient whose food is gone: what it was ("80 g"), kept as it is.
        let keptAmount: String?
        let name: String
        let servings: String
        let choices: [Choice]
        let energy: String
        let servingsError: String?
        let foodError: String?
        /// For recipe-totals.js: the food's macros per 100 g (ml), or a kept row's own totals.
        let per100: String?
        let fixed: String?
    }

    let id: String?
    let energyUnit: String
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

    /// `foods` are the rows' foods by id; `stored` the recipe as saved, whose ingredients a row whose food is gone keeps
    /// (any other such row says so); `results` the search's.
    init(
        _ draft: RecipeDraft, foods: [UUID: Food], stored: Recipe?, results: [FoodSearchResult], settings: UserSettings,
        problem: FormProblem?
    ) throws {
        let unit = settings.energyUnit
        energyUnit = unit.rawValue
        id = draft.id?.lowercasedString
        title = draft.id == nil ? "New recipe" : "Edit recipe"
        action = draft.id.map { Site.recipe.path($0) } ?? Site.recipes.path
        name = draft.name
        servings = draft.servings
        cookedGrams = draft.cookedGrams
        query = draft.query
        var total = Nutrients()
        var counted = true
        rows = try draft.ingredients.enumerated().map { index, item in
            let field = "ingredients[\(index)]"
            let food = item.foodID.flatMap { foods[$0] }
            if food == nil, let kept = RecipeEditorPage.kept(item, in: stored) {
                total += kept.nutrients
                return Row(
                    index: index, foodID: item.foodID?.lowercasedString ?? "", kept: String(item.kept ?? 0),
                    keptAmount:
                        "\(NutritionText.decimal(kept.servings, places: 3)) × \(kept.servingLabel) · its food is gone: kept as it is",
                    name: kept.name, servings: item.servings, choices: [],
                    energy: unit.format(kilocalories: kept.nutrients.energy ?? 0), servingsError: nil,
                    foodError: problem?.message(for: field + ".food_id"), per100: nil, fixed: try NutritionText.macrosJSON(kept.nutrients))
            }
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
            return Row(
                index: index, foodID: item.foodID?.lowercasedString ?? "", kept: item.kept.map(String.init), keptAmount: nil,
                name: food?.name ?? "A food no longer there", servings: item.servings,
                choices: (food?.servingChoices ?? []).map {
                    Choice(
                        value: $0.label, label: $0.description(basis: food?.basis ?? .grams),
                        selected: $0 == serving, grams: NutritionText.decimal($0.amount, places: 3))
                },
                energy: energy, servingsError: problem?.message(for: field + ".servings"),
                foodError: problem?.message(for: field + ".food_id") ?? problem?.message(for: field + ".serving"),
                per100: try food.map { try NutritionText.macrosJSON($0.nutrients) }, fixed: nil)
        }
        hasRows = !rows.isEmpty
        let count = Double(draft.servings.replacingOccurrences(of: ",", with: ".")).flatMap { $0 > 0 ? $0 : nil }
        totals = hasRows && counted ? "Whole recipe: " + unit.format(kilocalories: total.energy ?? 0) : nil
        perServing =
            hasRows && counted
            ? count.map { count in
                let one = total.scaled(by: 1 / count)
                return "One serving: \(unit.format(kilocalories: one.energy ?? 0)) · protein \(NutritionText.number(one[.protein] ?? 0)) g"
                    + " · carbs \(NutritionText.number(one[.carbohydrate] ?? 0)) g · fat \(NutritionText.number(one[.fat] ?? 0)) g"
            } : nil
        self.results = results.map { FoodResult($0.food, otherVersions: $0.otherVersions, use: .badge, unit: unit, context: []) }
        hasResults = !self.results.isEmpty
        noResults = !draft.query.isEmpty && results.isEmpty
        let fields =
            ["name", "servings", "cooked_grams"]
            + draft.ingredients.indices.flatMap {
                ["ingredients[\($0)].servings", "ingredients[\($0)].food_id", "ingredients[\($0)].serving"]
            }
        error = problem?.general(besides: fields)
        nameError = problem?.message(for: "name")
        servingsError = problem?.message(for: "servings")
        cookedGramsError = problem?.message(for: "cooked_grams")
    }

    /// The stored ingredient a row keeps: the one at its position, from the same food (or none).
    static func kept(_ item: RecipeDraft.Ingredient, in stored: Recipe?) -> RecipeIngredient? {
        guard let index = item.kept, let stored, stored.ingredients.indices.contains(index),
            stored.ingredients[index].foodID == item.foodID
        else { return nil }
        return stored.ingredients[index]
    }
}
