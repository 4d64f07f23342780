import ArgumentParser
import CinnCore
import CinnJournal
import Foundation

struct RecipeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recipe", abstract: "Recipes: foods made of foods, logged by the serving like any food.",
        subcommands: [List.self, Show.self, Add.self, Delete.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every recipe, with one serving's energy.")

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            try await options.withJournal { journal in
                let recipes = try await journal.recipes()
                guard !recipes.isEmpty else {
                    return print(
                        "No recipes yet. Make one with: cinn recipe add \"Overnight oats\" --servings 2 -i \"80 g=oats\" -i \"250 g=milk\"")
                }
                for recipe in recipes {
                    let serving = recipe.servingNutrients.energy ?? 0
                    print(
                        "\(recipe.food.id.lowercasedString)  \(recipe.food.name)  \(serving.wholeText) kcal a serving, "
                            + "makes \(formatServings(recipe.servingsCount))")
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One recipe: its ingredients and what a serving holds.")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The recipe's id.") var id: String

        func run() async throws {
            let recipe = try await options.withJournal { journal in
                guard let id = UUID(text: id) else { throw CinnError.invalid("id", "\(id) is not a recipe id") }
                return try await journal.recipe(id: id)
            }
            print(recipe.food.name)
            print(
                "Makes \(formatServings(recipe.servingsCount)) servings from \(recipe.totalGrams.wholeText) g"
                    + (recipe.cookedGrams == nil ? "" : " cooked") + ".")
            for item in recipe.ingredients {
                print(
                    "  \(formatServings(item.servings)) × \(item.servingLabel)  \(item.name)  \((item.nutrients.energy ?? 0).wholeText) kcal"
                )
            }
            let serving = recipe.servingNutrients
            print(
                "One serving (\((recipe.totalGrams / recipe.servingsCount).wholeText) g): \((serving.energy ?? 0).wholeText) kcal, "
                    + "protein \(String(format: "%.1f", serving[.protein] ?? 0)) g, carbohydrate \(String(format: "%.1f", serving[.carbohydrate] ?? 0)) g, "
                    + "fat \(String(format: "%.1f", serving[.fat] ?? 0)) g")
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a recipe from ingredients and print its id.",
            discussion: """
                Each ingredient is AMOUNT=FOOD, FOOD an id, a barcode or words to search for (the best match):
                  -i "80 g=rolled oats"    80 grams
                  -i "250 ml=soy milk"     250 millilitres of a food measured per 100 ml
                  -i "2=Bananas, raw"      2 of the food's first serving
                  -i "1.5 x 1 cup=rice"    1.5 of the serving named "1 cup"
                Log it like any food: cinn food log ID --serving "1 serving".
                """)

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The recipe's name.") var name: String
        @Option(name: [.customShort("i"), .customLong("ingredient")], help: "AMOUNT=FOOD (repeat).") var ingredients: [String] = []
        @Option(help: "How many servings it makes.") var servings = 1.0
        @Option(name: .customLong("cooked-grams"), help: "Its weight once cooked, in grams.") var cookedGrams: Double?

        func run() async throws {
            let recipe = try await options.withJournal { journal in
                var requests: [RecipeIngredientRequest] = []
                for (index, text) in ingredients.enumerated() {
                    let field = "ingredients[\(index)]"
                    guard let equals = text.firstIndex(of: "=") else {
                        throw CinnError.invalid(field, "\"\(text)\" is not AMOUNT=FOOD, like \"80 g=rolled oats\"")
                    }
                    let (servings, serving) = try Self.amount(String(text[..<equals]), field: field)
                    let food = try await journal.food(reference: String(text[text.index(after: equals)...]), searching: true)
                    requests.append(RecipeIngredientRequest(foodID: food.id, servings: servings, serving: serving))
                }
                return try await journal.saveRecipe(name: name, ingredients: requests, servings: servings, cookedGrams: cookedGrams)
            }
            print(recipe.food.id.lowercasedString)
        }

        /// "80 g" → 80 of "1 g"; "2" → 2 of the default serving; "1.5 x 1 cup" → 1.5 of "1 cup".
        static func amount(_ text: String, field: String) throws(CinnError) -> (Double, String?) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            for separator in [" x ", " × "] {
                if let range = trimmed.range(of: separator), let count = Double(trimmed[..<range.lowerBound]) {
                    return (count, String(trimmed[range.upperBound...]).trimmingCharacters(in: .whitespaces))
                }
            }
            let parts = trimmed.split(separator: " ")
            if parts.count == 2, let count = Double(parts[0]), ["g", "ml"].contains(parts[1].lowercased()) {
                return (count, "1 \(parts[1].lowercased())")
            }
            if parts.count == 1, let count = Double(parts[0]) { return (count, nil) }
            throw .invalid(field, "\"\(text)\" is not an amount like \"80 g\", \"250 ml\", \"2\" or \"1.5 x 1 cup\"")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a recipe; entries already logged keep their numbers.")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The recipe's id.") var id: String

        func run() async throws {
            try await options.withJournal { journal in
                guard let id = UUID(text: id) else { throw CinnError.invalid("id", "\(id) is not a recipe id") }
                _ = try await journal.recipe(id: id)
                try await journal.deleteFood(id: id)
            }
            print("Deleted.")
        }
    }
}
