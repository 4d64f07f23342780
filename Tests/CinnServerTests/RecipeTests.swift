import CinnCore
import CinnJournal
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Recipes in the API and the web app, on both databases.
@Suite struct RecipeAPITests {
    /// Makes a food through the API and returns its id.
    static func food(_ client: any TestClientProtocol, _ name: String, kcal: Double, protein: Double) async throws -> String {
        let response = try await client.send(
            .post, "/api/v1/foods",
            json: """
                {"name":"\(name)","serving":{"label":"100 g","grams":100},"nutrients":{"energy":\(kcal),"protein":\(protein)}}
                """)
        #expect(response.status == .created, "\(response.text)")
        return try #require(try response.json()["id"]?.string)
    }

    @Test(arguments: Database.enabled)
    func aRecipeIsMadeLoggedChangedAndDeleted(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let oats = try await Self.food(client, "Oats", kcal: 400, protein: 10)
            let milk = try await Self.food(client, "Milk", kcal: 50, protein: 3.4)
            let made = try await client.send(
                .post, "/api/v1/recipes",
                json: """
                    {"name":"Porridge","servings":2,"ingredients":[{"food_id":"\(oats)","servings":50,"serving":"1 g"},
                     {"food_id":"\(milk)","servings":2}]}
                    """)
            #expect(made.status == .created, "\(made.text)")
            let recipe = try made.json()
            let id = try #require(recipe["id"]?.string)
            #expect(recipe["total_grams"]?.double == 250 && recipe["serving_grams"]?.double == 125)
            #expect(recipe["nutrients_per_serving"]?["energy"]?.double == 150)
            #expect(recipe["nutrients_per_100"]?["energy"]?.double == 120)
            #expect(recipe["ingredients"]?.array?.map { $0["name"]?.string } == ["Oats", "Milk"])

            // Logged like any food: a serving's nutrients are snapshot.
            let entries = try await client.log(
                #"{"food_id":"\#(id)","serving":"1 serving","meal":"breakfast","time":"2024-03-14T08:00:00Z"}"#)
            #expect(entries[0]["nutrients"]?["energy"]?.double == 150)
            #expect(
                try await client.send(.get, "/api/v1/foods/search?q=porr").json()["results"]?.array?.first?["name"]?.string == "Porridge")

            // Cooked down, with more oats: the recipe changes, the logged entry does not.
            let changed = try await client.send(
                .put, "/api/v1/recipes/\(id)",
                json: """
                    {"name":"Porridge","servings":2,"cooked_grams":300,"ingredients":[{"food_id":"\(oats)","servings":100,"serving":"1 g"},
                     {"food_id":"\(milk)","servings":2}]}
                    """)
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(try changed.json()["nutrients_per_serving"]?["energy"]?.double == 250)
            #expect(try await client.send(.get, "/api/v1/days/2024-03-14").json()["energy_kcal"]?.double == 150)
            #expect(try await client.send(.get, "/api/v1/recipes").json()["recipes"]?.array?.count == 1)

            // The milk is deleted: the recipe is PUT back (renamed) with the milk as a GET gives it, which keeps it as stored;
            // another food id at its place is refused by name.
            #expect(try await client.send(.delete, "/api/v1/foods/\(milk)").status == .noContent)
            let before = try await client.send(.get, "/api/v1/recipes/\(id)").json()
            let gone = try #require(before["ingredients"]?.array?.last)
            #expect(gone["name"]?.string == "Milk")
            let renamed = try await client.send(
                .put, "/api/v1/recipes/\(id)",
                json: """
                    {"name":"Oat porridge","servings":2,"cooked_grams":300,"ingredients":[{"food_id":"\(oats)","servings":100,"serving":"1 g"},
                     {"food_id":\(gone["food_id"]?.string.map { "\"\($0)\"" } ?? "null"),"servings":\(gone["servings"]?.double ?? 0)}]}
                    """)
            #expect(renamed.status == .ok, "\(renamed.text)")
            let after = try renamed.json()
            #expect(after["name"]?.string == "Oat porridge" && after["ingredients"]?.array?.map { $0["name"]?.string } == ["Oats", "Milk"])
            #expect(after["nutrients_per_serving"]?["energy"] == before["nutrients_per_serving"]?["energy"])
            try expectError(
                try await client.send(
                    .put, "/api/v1/recipes/\(id)",
                    json: """
                        {"name":"Oat porridge","ingredients":[{"food_id":"\(oats)"},{"food_id":"\(UUID().uuidString.lowercased())"}]}
                        """), .unprocessableContent, code: "invalid_input", field: "ingredients[1].food_id")

            // A recipe is not edited as a food, and a food is not a recipe.
            try expectError(
                try await client.send(
                    .put, "/api/v1/foods/\(id)",
                    json: #"{"name":"Porridge","serving":{"label":"100 g","grams":100},"nutrients":{"energy":1}}"#),
                .conflict, code: "conflict")
            try expectError(try await client.send(.get, "/api/v1/recipes/\(oats)"), .notFound, code: "not_found")

            #expect(try await client.send(.delete, "/api/v1/recipes/\(id)").status == .noContent)
            try expectError(try await client.send(.get, "/api/v1/recipes/\(id)"), .notFound, code: "not_found")
            #expect(try await journal.store.foodHistory(user: journal.user).first?.energy == 150, "the entry keeps its numbers")
        }
    }

    @Test(arguments: Database.enabled)
    func aBadRecipeNamesItsFieldAndSavesNothing(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let oats = try await Self.food(client, "Oats", kcal: 400, protein: 10)
            for (body, field) in [
                (#"{"name":"P","ingredients":[]}"#, "ingredients"),
                (#"{"name":"","ingredients":[{"food_id":"\#(oats)"}]}"#, "name"),
                (#"{"name":"P","servings":0,"ingredients":[{"food_id":"\#(oats)"}]}"#, "servings"),
                (#"{"name":"P","cooked_grams":1,"ingredients":[{"food_id":"\#(oats)"}]}"#, "cooked_grams"),
                (#"{"name":"P","ingredients":[{"food_id":"\#(oats)"},{"food_id":"nope"}]}"#, "ingredients[1].food_id"),
                (#"{"name":"P","ingredients":[{"food_id":"\#(oats)"},{"food_id":"\#(UUID())"}]}"#, "ingredients[1].food_id"),
                (#"{"name":"P","ingredients":[{"food_id":"\#(oats)","servings":-1}]}"#, "ingredients[0].servings"),
                (#"{"name":"P","ingredients":[{"food_id":"\#(oats)","serving":"1 bucket"}]}"#, "ingredients[0].serving"),
            ] {
                try expectError(
                    try await client.send(.post, "/api/v1/recipes", json: body), .unprocessableContent, code: "invalid_input",
                    field: field)
            }
            #expect(try await journal.store.recipes(user: journal.user).isEmpty)
        }
    }

    /// The schema allows null where a count has a default: null means the default, as leaving it out does.
    @Test(arguments: Database.enabled)
    func nullServingsMeanOne(_ database: Database) async throws {
        try await withApp(on: database) { client, _ in
            let oats = try await Self.food(client, "Oats", kcal: 400, protein: 10)
            let made = try await client.send(
                .post, "/api/v1/recipes",
                json: """
                    {"name":"Oats","servings":null,"ingredients":[{"food_id":"\(oats)","servings":null}]}
                    """)
            #expect(made.status == .created, "\(made.text)")
            #expect(try made.json()["servings"]?.double == 1 && made.json()["total_grams"]?.double == 100)
            let food = try await client.send(
                .post, "/api/v1/foods",
                json: """
                    {"name":"Odd","serving":{"label":"\\u000f7 (0 g)","grams":1},"nutrients":{"energy":1}}
                    """)
            try expectError(food, .unprocessableContent, code: "invalid_input", field: "serving.label")
        }
    }

    @Test(arguments: Database.enabled)
    func theWebEditorAddsSearchesRemovesAndSaves(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let oats = try await Self.food(client, "Rolled oats", kcal: 400, protein: 10)
            let milk = try await Self.food(client, "Whole milk", kcal: 50, protein: 3.4)
            let empty = try await client.send(.get, "/food/recipes")
            #expect(empty.text.contains("No recipes yet"))
            let new = try await client.send(.get, "/food/recipes/new")
            #expect(new.text.contains(#"id="no-ingredients""#))

            // A search, then Add: the draft travels in the form.
            let searched = try await client.post("/food/recipes/draft", form: "name=Porridge&servings=2&q=rolled")
            #expect(searched.text.contains(#"name="add" value="\#(oats)""#))
            let added = try await client.post("/food/recipes/draft", form: "name=Porridge&servings=2&add=\(oats)")
            #expect(added.text.contains(#"name="food.0" value="\#(oats)""#))
            let two = try await client.post(
                "/food/recipes/draft",
                form: "name=Porridge&servings=2&food.0=\(oats)&servings.0=50&serving.0=1+g&add=\(milk)")
            #expect(two.text.contains(#"name="food.1" value="\#(milk)""#))
            #expect(two.text.contains("Whole recipe: 250 kcal"), "50 g of oats and one 100 g of milk")
            let removed = try await client.post(
                "/food/recipes/draft",
                form: "name=Porridge&food.0=\(oats)&servings.0=50&food.1=\(milk)&servings.1=1&remove=0")
            #expect(!removed.text.contains(#"value="\#(oats)""#) && removed.text.contains(#"name="food.0" value="\#(milk)""#))

            // A mistake keeps the draft and names the row.
            let wrong = try await client.post(
                "/food/recipes",
                form: "name=Porridge&servings=2&food.0=\(oats)&servings.0=lots&serving.0=1+g&food.1=\(milk)&servings.1=2")
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.text.contains("&quot;lots&quot; is not a number") && wrong.text.contains(#"value="lots""#))

            let saved = try await client.post(
                "/food/recipes",
                form: "name=Porridge&servings=2&food.0=\(oats)&servings.0=50&serving.0=1+g&food.1=\(milk)&servings.1=2&serving.1=100+g")
            #expect(saved.status == .seeOther)
            let recipe = try #require(try await journal.store.recipes(user: journal.user).first)
            #expect(recipe.totalGrams == 250 && recipe.food.nutrients.energy == 120)
            #expect(saved.headers[.location] == "/food/foods/\(recipe.food.id.lowercasedString)?done=recipe-saved#notice")
            let page = try await client.send(.get, "/food/foods/\(recipe.food.id.lowercasedString)")
            #expect(page.text.contains(#"id="recipe-ingredients""#) && page.text.contains("50 × 1 g Rolled oats"))
            #expect(page.text.contains(#"href="/food/recipes/\#(recipe.food.id.lowercasedString)/edit""#))
            let list = try await client.send(.get, "/food/recipes")
            #expect(list.text.contains("Porridge") && list.text.contains("150 kcal a serving"))
            let edit = try await client.send(.get, "/food/recipes/\(recipe.food.id.lowercasedString)/edit")
            #expect(edit.text.contains(#"name="servings.1" inputmode="decimal" autocomplete="off" value="2""#))
            #expect(edit.text.contains(#"<option value="100 g" data-grams="100" selected>"#))
            // The totals update as amounts change (recipe-totals.js, from what the page carries); the button stays.
            #expect(
                edit.text.contains(#"<script src="/static/recipe-totals.js"></script>"#)
                    && edit.text.contains(#"data-per100="{&quot;energy&quot;:"#))
            #expect(edit.text.contains("Work out the totals"))

            // The milk is deleted: editing the recipe keeps its ingredient as it is, and saving changes nothing of it.
            #expect(try await client.send(.delete, "/api/v1/foods/\(milk)").status == .noContent)
            let kept = try await client.send(.get, "/food/recipes/\(recipe.food.id.lowercasedString)/edit").text
            #expect(kept.contains(#"<input type="hidden" name="keep.1" value="1">"#))
            #expect(kept.contains("2 × 100 g · its food is gone: kept as it is") && kept.contains("Whole milk"))
            #expect(kept.contains("Whole recipe: 300 kcal"), "the kept milk still counts: 200 + 100 kcal")
            let form = "name=Oat+porridge&servings=2&food.0=\(oats)&servings.0=50&serving.0=1+g&keep.0=0&food.1=\(milk)&keep.1=1"
            let renamed = try await client.post("/food/recipes/\(recipe.food.id.lowercasedString)", form: form)
            #expect(renamed.status == .seeOther, "\(renamed.text)")
            let after = try await journal.store.recipe(id: recipe.food.id, user: journal.user)
            #expect(
                after.food.name == "Oat porridge" && after.ingredients == recipe.ingredients
                    && after.food.nutrients == recipe.food.nutrients)
            // A row that claims a stored ingredient it does not match is refused, naming the row.
            let forged = try await client.post(
                "/food/recipes/\(recipe.food.id.lowercasedString)",
                form: "name=Oat+porridge&servings=2&food.0=\(oats)&servings.0=50&keep.1=7")
            #expect(
                forged.status == .unprocessableContent && forged.text.contains("this ingredient is not in the recipe any more: remove it"))
        }
    }
}
