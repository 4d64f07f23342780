import CinnCore
import CinnJournal
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import CinnStore

/// One meal log for food and glucose: food entries logged for a meal at a time are the glucose report's meal events,
/// with their response from the readings around them; on both databases.
@Suite struct DiaryMealGlucoseTests {
    /// Readings every 15 minutes around 08:00 on 2024-03-14 (the curve of the meal-event tests: area 1494 mg/dL·min).
    func readings(_ client: any TestClientProtocol) async throws {
        let curve: [(String, Double)] = [("07:50", 100), ("08:15", 120), ("08:30", 150), ("08:45", 130), ("09:00", 90), ("09:30", 80),
                                         ("10:00", 110), ("10:30", 140)]
        for (time, mg) in curve {
            try await client.send(.post, "/api/v1/glucose", json: #"{"value":\#(mg),"unit":"mg/dL","time":"2024-03-14T\#(time):00Z"}"#)
        }
    }

    @Test(arguments: Database.enabled)
    func foodLoggedForAMealIsAMealEventWithItsResponse(_ database: Database) async throws {
        try await withApp(on: database) { client, _ in
            try await readings(client)
            let oats = try await client.makeFood(#"{"name":"Rolled oats","serving":{"label":"1 cup","grams":40},"nutrients":{"energy":152,"carbohydrate":27.08}}"#)
            let milk = try await client.makeFood(#"{"name":"Milk","serving":{"label":"1 cup","grams":244},"nutrients":{"energy":149,"carbohydrate":11.712}}"#)
            let logged = try await client.log("""
                {"food_id":"\(oats)","servings":1,"meal":"breakfast","time":"2024-03-14T08:00:00Z"},
                {"food_id":"\(milk)","servings":1,"meal":"breakfast","time":"2024-03-14T08:05:00Z"}
                """)
            let firstEntry = try #require(logged.first?["id"]?.string)
            let report = try await client.send(.get, "/api/v1/glucose/report?days=1&to=2024-03-14").json()
            let events = try #require(report["meal_events"]?.array)
            #expect(events.count == 1, "two entries five minutes apart are one breakfast")
            let event = try #require(events.first)
            #expect(event["source"]?.string == "diary" && event["diary_meal"]?.string == "breakfast")
            #expect(event["id"]?.string == firstEntry && event["entry_ids"]?.array?.count == 2)
            #expect(event["time"]?.string == "2024-03-14T08:00:00+00:00")
            #expect(event["meal"]?.string == "Rolled oats, Milk")
            // One serving of each, nutrients given per serving: 27.08 + 11.712 g.
            #expect(try #require(event["carbohydrate_g"]?.double).isClose(to: 38.792, within: 1e-9))
            let response = try #require(event["response"])
            #expect(response["baseline"]?.double == 100 && response["peak"]?.double == 150 && response["minutes_to_peak"]?.double == 30)
            #expect(response["incremental_area_mg_dl_min"]?.double == 1494)
            let ranking = try #require(report["meals"]?.array?.first)
            #expect(ranking["name"]?.string == "Rolled oats, Milk" && ranking["counted"]?.double == 1)
            let foods = try #require(report["foods"]?.array)
            #expect(Set(foods.compactMap { $0["name"]?.string }) == ["Rolled oats", "Milk"])
            #expect(foods.first { $0["name"]?.string == "Rolled oats" }?["id"]?.string == oats)

            // The day's chart and list read the same meal; deleting the entries in the food log removes it.
            let day = try await client.send(.get, "/api/v1/glucose/days/2024-03-14").json()
            #expect(day["meal_events"]?.array?.first?["source"]?.string == "diary")
            let page = try await client.send(.get, "/glucose").text
            #expect(page.contains("<b>Breakfast: Rolled oats, Milk</b>") && page.contains(#"<a href="/food/2024-03-14">in the food log</a>"#))
            for entry in logged.compactMap({ $0["id"]?.string }) {
                #expect(try await client.send(.delete, "/api/v1/food-entries/\(entry)").status == .noContent)
            }
            #expect(try await client.send(.get, "/api/v1/glucose/report?days=1&to=2024-03-14").json()["meal_events"]?.array?.isEmpty == true)
        }
    }

    @Test(arguments: Database.enabled)
    func theGlucoseTabLogsPresetsRecipesAndFoodsToTheFoodLog(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            try await readings(client)
            let oats = try await client.makeFood(#"{"name":"Rolled oats","serving":{"label":"1 cup","grams":40},"nutrients":{"energy":152,"carbohydrate":27.08}}"#)
            _ = try await client.log(#"{"food_id":"\#(oats)","servings":1,"meal":"breakfast","time":"2024-03-13T08:00:00Z"}"#)
            let preset = try #require(try await client.send(.post, "/api/v1/presets", json: #"{"name":"Oat breakfast","from_date":"2024-03-13","meal":"breakfast"}"#).json()["id"]?.string)
            var page = try await client.send(.get, "/glucose").text
            #expect(page.contains(#"<optgroup label="Presets"><option value="preset:\#(preset)">Oat breakfast</option></optgroup>"#))

            let logged = try await client.post("/glucose/meal-events", form: "meal=preset:\(preset)&time=2024-03-14T08:00&slot=breakfast&portion=1.5")
            #expect(logged.status == .seeOther)
            let entries = try await journal.store.foodEntries(user: journal.user, from: LocalDate(iso: "2024-03-14")!, to: LocalDate(iso: "2024-03-14")!)
            #expect(entries.count == 1 && entries[0].servings == 1.5 && entries[0].meal == .breakfast, "the preset went into the food log")
            let event = try #require(try await client.send(.get, "/api/v1/glucose/report?days=1&to=2024-03-14").json()["meal_events"]?.array?.first)
            #expect(event["meal"]?.string == "Oat breakfast" && event["meal_id"]?.string == preset, "a preset's foods rank as the preset")
            #expect(event["response"]?["peak"]?.double == 150)

            // A recipe: one serving × the portion, in the slot its time gives.
            let recipe = try #require(try await client.send(.post, "/api/v1/recipes", json: """
                {"name":"Oat porridge","servings":2,"ingredients":[{"food_id":"\(oats)","servings":2}]}
                """).json()["id"]?.string)
            #expect(try await client.send(.get, "/glucose").text.contains(#"<option value="recipe:\#(recipe)">Oat porridge</option>"#))
            #expect(try await client.post("/glucose/meal-events", form: "meal=recipe:\(recipe)&time=2024-03-14T12:30&slot=&portion=1").status == .seeOther)
            let lunch = try #require(try await journal.store.foodEntries(user: journal.user, from: LocalDate(iso: "2024-03-14")!,
                                                                           to: LocalDate(iso: "2024-03-14")!).last)
            #expect(lunch.name == "Oat porridge" && lunch.meal == .lunch && lunch.servingLabel.hasPrefix("1 serving"))
            #expect(try await client.send(.get, "/api/v1/glucose/report?days=1&to=2024-03-14").json()["meal_events"]?.array?.count == 2)

            // A food logged often: one serving × the portion.
            #expect(try await client.send(.get, "/glucose").text.contains(#"<optgroup label="Foods you log often"><option value="food:\#(oats)">Rolled oats</option>"#))
            #expect(try await client.post("/glucose/meal-events", form: "meal=food:\(oats)&time=2024-03-14T19:00&slot=dinner&portion=2").status == .seeOther)
            let dinner = try #require(try await journal.store.foodEntries(user: journal.user, from: LocalDate(iso: "2024-03-14")!,
                                                                            to: LocalDate(iso: "2024-03-14")!).last)
            #expect(dinner.name == "Rolled oats" && dinner.meal == .dinner && dinner.servings == 2)

            // A bad choice names the field and logs nothing.
            let bad = try await client.post("/glucose/meal-events", form: "meal=preset:nonsense&time=2024-03-14T09:00")
            #expect(bad.status == .unprocessableContent)
            page = bad.text
            #expect(page.contains("choose a meal"))
            #expect(try await journal.store.foodEntries(user: journal.user, from: LocalDate(iso: "2024-03-14")!, to: LocalDate(iso: "2024-03-14")!).count == 3)
        }
    }
}

/// Migration 16: everyday meal definitions become presets (nothing lost: the definitions stay, linked), test meals stay
/// meals, and a meal's past events rank with its preset's meals; on both databases.
@Suite struct MealsBecomePresetsTests {
    @Test(arguments: Database.enabled)
    func everydayMealsBecomePresetsAndRankWithThem(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let store = journal.store, user = journal.user
            let oats = try await store.addFood(Food(id: .v7(), name: "Rolled oats", nutrients: try Nutrients(keyed: ["energy": 380, "carbohydrate": 60]),
                                                    servings: [ServingSize(label: "1 cup", amount: 40)]), user: user)
            let porridge = MealDefinition(name: "Porridge", carbohydrateGrams: 45, foods: [MealFood(foodID: oats.id, name: "Rolled oats", grams: 80)])
            let toast = MealDefinition(name: "Toast", carbohydrateGrams: 30)
            let gone = MealDefinition(name: "Stew", foods: [MealFood(foodID: .v7(), name: "Beef stew", grams: 300)])
            let drink = MealDefinition(name: "Glucose drink", kind: .test, carbohydrateGrams: 75)
            // Counted carbohydrate only, per event (as Nightscout's are): nothing to make a preset of.
            let carbs = MealDefinition(name: "Carbs")
            for meal in [porridge, toast, gone, drink, carbs] { try await store.addMeal(meal, user: user) }
            // Porridge was eaten as a meal event on the 13th, with readings around it.
            let curve: [(String, Double)] = [("07:50", 100), ("08:15", 120), ("08:30", 150), ("08:45", 130), ("09:00", 90), ("09:30", 80),
                                             ("10:00", 110), ("10:30", 140)]
            for day in ["2024-03-13", "2024-03-14"] {
                for (time, mg) in curve {
                    try await client.send(.post, "/api/v1/glucose", json: #"{"value":\#(mg),"unit":"mg/dL","time":"\#(day)T\#(time):00Z"}"#)
                }
            }
            let event = try await client.send(.post, "/api/v1/meal-events", json: #"{"meal_id":"\#(porridge.id.lowercasedString)","time":"2024-03-13T08:00:00Z"}"#)
            #expect(event.status == .created)

            try await store.withConnection { db in try await store.moveMealsToPresets(db) }
            try await store.withConnection { db in try await store.moveMealsToPresets(db) }
            let presets = Dictionary(try await store.presets(user: user).map { ($0.name, $0) }) { first, _ in first }
            #expect(presets.count == 3, "a preset each for the three everyday meals, made once: \(presets.keys.sorted())")
            let oatItem = try #require(presets["Porridge"]?.items.first)
            #expect(oatItem.foodID == oats.id && oatItem.servingLabel == "80 g" && oatItem.servingAmount == 80)
            #expect(oatItem.nutrients[.carbohydrate] == 48, "80 g at 60 g per 100 g")
            let toastItem = try #require(presets["Toast"]?.items.first)
            #expect(toastItem.foodID == nil && toastItem.servingLabel == "1 meal" && toastItem.nutrients[.carbohydrate] == 30)
            #expect(presets["Stew"]?.items.first?.name == "Beef stew" && presets["Stew"]?.items.first?.nutrients.energy == nil)
            let meals = Dictionary(try await store.meals(user: user).map { ($0.name, $0) }) { first, _ in first }
            #expect(meals.count == 5, "every definition stays")
            #expect(meals["Porridge"]?.presetID == presets["Porridge"]?.id && meals["Glucose drink"]?.presetID == nil)
            #expect(meals["Carbs"]?.presetID == nil)

            // The Study meals page lists the test meal and says where the others went; Log meal offers the preset.
            let page = try await client.send(.get, "/glucose/meals").text
            #expect(page.contains("3 everyday meals are presets now, logged into the food log: Porridge, Stew, Toast."))
            #expect(page.contains("Glucose drink") && !page.contains("/glucose/meals/\(porridge.id.lowercasedString)/delete"))
            let glucose = try await client.send(.get, "/glucose").text
            let preset = try #require(presets["Porridge"]?.id.lowercasedString)
            #expect(glucose.contains(#"value="preset:\#(preset)">Porridge</option>"#) && !glucose.contains("meal:\(porridge.id.lowercasedString)"))

            // Eaten again on the 14th from the preset: one ranking line for the meal, its old event and the new one.
            #expect(try await client.post("/glucose/meal-events", form: "meal=preset:\(preset)&time=2024-03-14T08:00&slot=breakfast").status == .seeOther)
            let report = try await client.send(.get, "/api/v1/glucose/report?days=2&to=2024-03-14").json()
            let ranking = try #require(report["meals"]?.array)
            #expect(ranking.count == 1 && ranking.first?["name"]?.string == "Porridge" && ranking.first?["counted"]?.double == 2, "\(ranking)")
            #expect(report["meal_events"]?.array?.map { $0["source"]?.string } == ["diary", "meal_event"])

            // By name (as `cinn meal log` does): a meal that became a preset goes into the food log, a test meal stays an event.
            guard case .foodLog(_, let entries) = try await journal.logMeal(named: "toast", time: "2024-03-14T12:30:00Z", portion: 2) else {
                Issue.record("Toast is a preset now")
                return
            }
            #expect(entries.count == 1 && entries[0].nutrients[.carbohydrate] == 60 && entries[0].meal == .lunch)
            guard case .event(let test, _) = try await journal.logMeal(named: "Glucose drink", time: "2024-03-14T15:00:00Z", portion: nil) else {
                Issue.record("a test meal is logged as a meal event")
                return
            }
            #expect(test.kind == .test)
        }
    }
}
