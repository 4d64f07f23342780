import CinnCore
import CinnJournal
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

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
            #expect(page.contains("<b>Breakfast: Rolled oats, Milk</b>") && page.contains(#"<a href="/food/2024-03-14">In the food log</a>"#))
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
