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
        let curve: [(String, Double)] = [
            ("07:50", 100), ("08:15", 120), ("08:30", 150), ("08:45", 130), ("09:00", 90), ("09:30", 80),
            ("10:00", 110), ("10:30", 140),
        ]
        for (time, mg) in curve {
            try await client.send(.post, "/api/v1/glucose", json: #"{"value":\#(mg),"unit":"mg/dL","time":"2024-03-14T\#(time):00Z"}"#)
        }
    }

    @Test(arguments: Database.enabled)
    func foodLoggedForAMealIsAMealEventWithItsResponse(_ database: Database) async throws {
        try await withApp(on: database) { client, _ in
            try await readings(client)
            let oats = try await client.makeFood(
                #"{"name":"Rolled oats","serving":{"label":"1 cup","grams":40},"nutrients":{"energy":152,"carbohydrate":27.08}}"#)
            let milk = try await client.makeFood(
                #"{"name":"Milk","serving":{"label":"1 cup","grams":244},"nutrients":{"energy":149,"carbohydrate":11.712}}"#)
            let logged = try await client.log(
                """
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
            #expect(
                page.contains("<b>Breakfast: Rolled oats, Milk</b>") && page.contains(#"<a href="/food/2024-03-14">in the food log</a>"#))
            for entry in logged.compactMap({ $0["id"]?.string }) {
                #expect(try await client.send(.delete, "/api/v1/food-entries/\(entry)").status == .noContent)
            }
            #expect(
                try await client.send(.get, "/api/v1/glucose/report?days=1&to=2024-03-14").json()["meal_events"]?.array?.isEmpty == true)
        }
    }

    @Test(arguments: Database.enabled)
    func theGlucoseTabLogsPresetsRecipesAndFoodsToTheFoodLog(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            try await readings(client)
            let oats = try await client.makeFood(
                #"{"name":"Rolled oats","serving":{"label":"1 cup","grams":40},"nutrients":{"energy":152,"carbohydrate":27.08}}"#)
            _ = try await client.log(#"{"food_id":"\#(oats)","servings":1,"meal":"breakfast","time":"2024-03-13T08:00:00Z"}"#)
            let preset = try #require(
                try await client.send(
                    .post, "/api/v1/presets", json: #"{"name":"Oat breakfast","from_date":"2024-03-13","meal":"breakfast"}"#
                ).json()["id"]?.string)
            var page = try await client.send(.get, "/glucose").text
            #expect(page.contains(#"<optgroup label="Presets"><option value="preset:\#(preset)">Oat breakfast</option></optgroup>"#))

            let logged = try await client.post(
                "/glucose/meal-events", form: "meal=preset:\(preset)&time=2024-03-14T08:00&slot=breakfast&portion=1.5")
            #expect(logged.status == .seeOther)
            let entries = try await journal.store.foodEntries(
                user: journal.user, from: LocalDate(iso: "2024-03-14")!, to: LocalDate(iso: "2024-03-14")!)
            #expect(entries.count == 1 && entries[0].servings == 1.5 && entries[0].meal == .breakfast, "the preset went into the food log")
            let event = try #require(
                try await client.send(.get, "/api/v1/glucose/report?days=1&to=2024-03-14").json()["meal_events"]?.array?.first)
            #expect(event["meal"]?.string == "Oat breakfast" && event["meal_id"]?.string == preset, "a preset's foods rank as the preset")
            #expect(event["response"]?["peak"]?.double == 150)

            // A recipe: one serving × the portion, in the slot its time gives.
            let recipe = try #require(
                try await client.send(
                    .post, "/api/v1/recipes",
                    json: """
                        {"name":"Oat porridge","servings":2,"ingredients":[{"food_id":"\(oats)","servings":2}]}
                        """
                ).json()["id"]?.string)
            #expect(try await client.send(.get, "/glucose").text.contains(#"<option value="recipe:\#(recipe)">Oat porridge</option>"#))
            #expect(
                try await client.post("/glucose/meal-events", form: "meal=recipe:\(recipe)&time=2024-03-14T12:30&slot=&portion=1").status
                    == .seeOther)
            let lunch = try #require(
                try await journal.store.foodEntries(
                    user: journal.user, from: LocalDate(iso: "2024-03-14")!,
                    to: LocalDate(iso: "2024-03-14")!
                ).last)
            #expect(lunch.name == "Oat porridge" && lunch.meal == .lunch && lunch.servingLabel.hasPrefix("1 serving"))
            #expect(try await client.send(.get, "/api/v1/glucose/report?days=1&to=2024-03-14").json()["meal_events"]?.array?.count == 2)

            // A food logged often: one serving × the portion.
            #expect(
                try await client.send(.get, "/glucose").text.contains(
                    #"<optgroup label="Foods you log often"><option value="food:\#(oats)">Rolled oats</option>"#))
            #expect(
                try await client.post("/glucose/meal-events", form: "meal=food:\(oats)&time=2024-03-14T19:00&slot=dinner&portion=2").status
                    == .seeOther)
            let dinner = try #require(
                try await journal.store.foodEntries(
                    user: journal.user, from: LocalDate(iso: "2024-03-14")!,
                    to: LocalDate(iso: "2024-03-14")!
                ).last)
            #expect(dinner.name == "Rolled oats" && dinner.meal == .dinner && dinner.servings == 2)

            // A bad choice names the field and logs nothing.
            let bad = try await client.post("/glucose/meal-events", form: "meal=preset:nonsense&time=2024-03-14T09:00")
            #expect(bad.status == .unprocessableContent)
            page = bad.text
            #expect(page.contains("choose a meal"))
            #expect(
                try await journal.store.foodEntries(
                    user: journal.user, from: LocalDate(iso: "2024-03-14")!, to: LocalDate(iso: "2024-03-14")!
                ).count == 3)
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
            let oats = try await store.addFood(
                Food(
                    id: .v7(), name: "Rolled oats", nutrients: try Nutrients(keyed: ["energy": 380, "carbohydrate": 60]),
                    servings: [ServingSize(label: "1 cup", amount: 40)]), user: user)
            let porridge = MealDefinition(
                name: "Porridge", carbohydrateGrams: 45, foods: [MealFood(foodID: oats.id, name: "Rolled oats", grams: 80)])
            let toast = MealDefinition(name: "Toast", carbohydrateGrams: 30)
            let gone = MealDefinition(name: "Stew", foods: [MealFood(foodID: .v7(), name: "Beef stew", grams: 300)])
            let drink = MealDefinition(name: "Glucose drink", kind: .test, carbohydrateGrams: 75)
            // Counted carbohydrate only, per event (as Nightscout's are): nothing to make a preset of.
            let carbs = MealDefinition(name: "Carbs")
            for meal in [porridge, toast, gone, drink, carbs] { try await store.addMeal(meal, user: user) }
            // Porridge was eaten as a meal event on the 13th, with readings around it.
            let curve: [(String, Double)] = [
                ("07:50", 100), ("08:15", 120), ("08:30", 150), ("08:45", 130), ("09:00", 90), ("09:30", 80),
                ("10:00", 110), ("10:30", 140),
            ]
            for day in ["2024-03-13", "2024-03-14"] {
                for (time, mg) in curve {
                    try await client.send(.post, "/api/v1/glucose", json: #"{"value":\#(mg),"unit":"mg/dL","time":"\#(day)T\#(time):00Z"}"#)
                }
            }
            let event = try await client.send(
                .post, "/api/v1/meal-events", json: #"{"meal_id":"\#(porridge.id.lowercasedString)","time":"2024-03-13T08:00:00Z"}"#)
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
            #expect(
                glucose.contains(#"value="preset:\#(preset)">Porridge</option>"#)
                    && !glucose.contains("meal:\(porridge.id.lowercasedString)"))

            // Eaten again on the 14th from the preset: one ranking line for the meal, its old event and the new one.
            #expect(
                try await client.post("/glucose/meal-events", form: "meal=preset:\(preset)&time=2024-03-14T08:00&slot=breakfast").status
                    == .seeOther)
            let report = try await client.send(.get, "/api/v1/glucose/report?days=2&to=2024-03-14").json()
            let ranking = try #require(report["meals"]?.array)
            #expect(
                ranking.count == 1 && ranking.first?["name"]?.string == "Porridge" && ranking.first?["counted"]?.double == 2, "\(ranking)")
            #expect(report["meal_events"]?.array?.map { $0["source"]?.string } == ["diary", "meal_event"])

            // By name (as `cinn meal log` does): a meal that became a preset goes into the food log, a test meal stays an event.
            guard case .foodLog(_, let entries) = try await journal.logMeal(named: "toast", time: "2024-03-14T12:30:00Z", portion: 2) else {
                Issue.record("Toast is a preset now")
                return
            }
            #expect(entries.count == 1 && entries[0].nutrients[.carbohydrate] == 60 && entries[0].meal == .lunch)
            guard case .event(let test, _) = try await journal.logMeal(named: "Glucose drink", time: "2024-03-14T15:00:00Z", portion: nil)
            else {
                Issue.record("a test meal is logged as a meal event")
                return
            }
            #expect(test.kind == .test)
        }
    }
}

/// Sync clients that still send `meal` and `meal_event`: an everyday meal is a preset, and its events are that preset
/// in the food log, read by the glucose report as the food log's meals; a test meal's events stay meal events. On
/// both databases.
@Suite struct SyncedMealsTests {
    func push(_ client: any TestClientProtocol, _ changes: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let results = try await client.send(.post, "/api/v1/sync/push", json: #"{"changes":[\#(changes)]}"#).json()["results"]?.array ?? []
        #expect(!results.isEmpty && results.allSatisfy { $0["status"]?.string == "applied" }, "\(results)", sourceLocation: sourceLocation)
    }

    @Test(arguments: Database.enabled)
    func aClientsMealsArePresetsAndItsEventsAreInTheFoodLog(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let store = journal.store, user = journal.user
            try await DiaryMealGlucoseTests().readings(client)
            let oats = try await client.makeFood(
                #"{"name":"Rolled oats","serving":{"label":"100 g","grams":100},"nutrients":{"energy":380,"carbohydrate":60}}"#)
            let meal = UUID().uuidString.lowercased(), event = UUID().uuidString.lowercased()
            let test = UUID().uuidString.lowercased(), testEvent = UUID().uuidString.lowercased()
            let changes = """
                {"type":"meal","id":"\(meal)","changed_at":"2024-03-14T07:00:00Z",
                 "fields":{"name":"Porridge","kind":"common","foods":[{"food_id":"\(oats)","name":"Rolled oats","grams":80}]}},
                {"type":"meal_event","id":"\(event)","changed_at":"2024-03-14T08:01:00Z",
                 "fields":{"meal_id":"\(meal)","eaten_at":"2024-03-14T08:00:00Z","portion":1}},
                {"type":"meal","id":"\(test)","changed_at":"2024-03-14T07:00:00Z","fields":{"name":"Glucose drink","kind":"test","carbohydrate_g":75}},
                {"type":"meal_event","id":"\(testEvent)","changed_at":"2024-03-14T10:01:00Z",
                 "fields":{"meal_id":"\(test)","eaten_at":"2024-03-14T10:00:00Z","portion":1}}
                """
            try await push(client, changes)
            try await push(client, changes)
            func entries() async throws -> [FoodLogEntry] {
                try await store.foodEntries(user: user, from: LocalDate(iso: "2024-03-14")!, to: LocalDate(iso: "2024-03-14")!)
            }

            // The everyday meal is a preset; its event is the preset in the food log, once however often it is pushed.
            let preset = try #require(try await store.presets(user: user).first)
            #expect(
                preset.name == "Porridge" && preset.items.map(\.servingAmount) == [80] && preset.items.first?.nutrients[.carbohydrate] == 48
            )
            #expect(try await store.meal(id: UUID(uuidString: meal)!, user: user).presetID == preset.id)
            var logged = try await entries()
            #expect(logged.count == 1 && logged.first?.foodID?.lowercasedString == oats && logged.first?.meal == .breakfast)
            #expect(logged.first?.nutrients[.carbohydrate] == 48)
            var report = try await client.send(.get, "/api/v1/glucose/report?days=1&to=2024-03-14").json()
            var events = try #require(report["meal_events"]?.array)
            #expect(
                events.map { $0["source"]?.string } == ["meal_event", "diary"],
                "newest first: the test meal as itself; the everyday meal once, from the food log")
            #expect(events.last?["meal"]?.string == "Porridge" && events.last?["carbohydrate_g"]?.double == 48)
            #expect(events.last?["response"]?["incremental_area_mg_dl_min"]?.double == 1494)
            #expect(Set(report["meals"]?.array?.compactMap { $0["name"]?.string } ?? []) == ["Porridge", "Glucose drink"])

            // A client pulls the preset and the entries, which name the event they stand for.
            let pulled = try await client.send(.get, "/api/v1/sync/changes?limit=1000").json()["changes"]?.array ?? []
            let entry = try #require(pulled.first { $0["type"]?.string == "food_entry" })
            #expect(entry["fields"]?["meal_event_id"]?.string == event && entry["id"]?.string == logged.first?.id.lowercasedString)
            #expect(pulled.contains { $0["type"]?.string == "preset" && $0["id"]?.string == preset.id.lowercasedString })

            // A client that pushes the entries it logged for the event, as a Cinn client does, adds nothing.
            try await push(
                client,
                """
                {"type":"food_entry","id":"\(logged[0].id.lowercasedString)","changed_at":"2024-03-14T08:02:00Z",
                 "fields":{"eaten_at":"2024-03-14T08:00:00Z","name":"Rolled oats","food_id":"\(oats)","meal":"breakfast","servings":1,
                           "serving_label":"80 g","serving_amount":80,"nutrients":{"energy":304,"carbohydrate":48},"meal_event_id":"\(event)"}},
                {"type":"meal_event","id":"\(event)","changed_at":"2024-03-14T08:02:00Z",
                 "fields":{"meal_id":"\(meal)","eaten_at":"2024-03-14T08:00:00Z","portion":1,"note":"warm"}}
                """)
            #expect(try await entries().map(\.id) == logged.map(\.id))

            // A bigger portion logs it anew: twice the oats, the first entries deleted.
            try await push(
                client,
                """
                {"type":"meal_event","id":"\(event)","changed_at":"2024-03-14T09:00:00Z","fields":{"portion":2}}
                """)
            logged = try await entries()
            #expect(logged.count == 1 && logged.first?.servings == 2 && logged.first?.nutrients[.carbohydrate] == 96)
            events = try #require(try await client.send(.get, "/api/v1/glucose/report?days=1&to=2024-03-14").json()["meal_events"]?.array)
            #expect(events.count == 2 && events.last?["carbohydrate_g"]?.double == 96)

            // The meal renamed with more oats renames its preset and changes its items; deleting the event empties the food log.
            try await push(
                client,
                """
                {"type":"meal","id":"\(meal)","changed_at":"2024-03-14T09:00:00Z",
                 "fields":{"name":"Oat porridge","foods":[{"food_id":"\(oats)","name":"Rolled oats","grams":100}]}}
                """)
            let renamed = try #require(try await store.presets(user: user).first)
            #expect(renamed.id == preset.id && renamed.name == "Oat porridge" && renamed.items.first?.nutrients[.carbohydrate] == 60)
            try await push(client, #"{"type":"meal_event","id":"\#(event)","changed_at":"2024-03-14T09:30:00Z","deleted":true}"#)
            #expect(try await entries().isEmpty)
            report = try await client.send(.get, "/api/v1/glucose/report?days=1&to=2024-03-14").json()
            #expect(report["meal_events"]?.array?.map { $0["source"]?.string } == ["meal_event"])

            // Deleting the meal deletes its preset; the test meal never had one.
            try await push(client, #"{"type":"meal","id":"\#(meal)","changed_at":"2024-03-14T09:40:00Z","deleted":true}"#)
            #expect(try await store.presets(user: user).isEmpty)
        }
    }

    /// The API's meal events of a meal that became a preset go into the food log too, and leave it with their event.
    @Test(arguments: Database.enabled)
    func anAPIMealEventOfAPresetIsLoggedIntoTheFoodLog(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let store = journal.store, user = journal.user
            let toast = MealDefinition(name: "Toast", carbohydrateGrams: 30)
            try await store.addMeal(toast, user: user)
            try await store.withConnection { db in try await store.moveMealsToPresets(db) }
            let response = try await client.send(
                .post, "/api/v1/meal-events",
                json: #"{"meal_id":"\#(toast.id.lowercasedString)","time":"2024-03-14T12:30:00Z","portion":2}"#)
            #expect(response.status == .created)
            let day = LocalDate(iso: "2024-03-14")!
            let logged = try await store.foodEntries(user: user, from: day, to: day)
            #expect(logged.map(\.name) == ["Toast"] && logged.first?.nutrients[.carbohydrate] == 60 && logged.first?.meal == .lunch)
            let events = try await client.send(.get, "/api/v1/glucose/report?days=1&to=2024-03-14").json()["meal_events"]?.array
            #expect(events?.map { $0["source"]?.string } == ["diary"])
            let id = try #require(try response.json()["id"]?.string)
            #expect(try await client.send(.delete, "/api/v1/meal-events/\(id)").status == .noContent)
            #expect(try await store.foodEntries(user: user, from: day, to: day).isEmpty)
        }
    }
}
