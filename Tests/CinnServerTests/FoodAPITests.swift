import CinnCore
import CinnJournal
import CinnServer
import Foundation
import HummingbirdTesting
import Testing

/// A granola bar label: 40 g, 180 kcal, 10 % DV iron (1.8 mg), 2 µg vitamin D.
let granolaBar = #"""
    {"name":"Granola bar","brand":"Trail","barcode":"4006381333931","serving":{"label":"1 bar","grams":40},
     "nutrients":{"energy":180,"protein":4,"carbohydrate":24,"fat":7,"sodium":95,"vitamin_d":2},
     "percent_daily_value":{"iron":10,"calcium":4}}
    """#

extension TestClientProtocol {
    /// Makes a food through the API and returns its id.
    func makeFood(_ json: String = granolaBar, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let response = try await send(.post, "/api/v1/foods", json: json)
        #expect(response.status == .created, sourceLocation: sourceLocation)
        return try #require(try response.json()["id"]?.string, sourceLocation: sourceLocation)
    }

    /// Logs foods and returns the new entries.
    func log(_ entries: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [JSON] {
        let response = try await send(.post, "/api/v1/food-entries", json: #"{"entries":[\#(entries)]}"#)
        #expect(response.status == .created, sourceLocation: sourceLocation)
        return try response.json()["entries"]?.array ?? []
    }
}

@Suite("Food API") struct FoodAPITests {
    @Test func makeAFoodFromALabelWithPercentDailyValues() async throws {
        try await withApp { client, _ in
            let response = try await client.send(.post, "/api/v1/foods", json: granolaBar)
            #expect(response.status == .created)
            let food = try response.json()
            #expect(food["mine"]?.bool == true)
            #expect(food["source"]?.string == "mine")
            let per100 = try #require(food["nutrients_per_100"])
            #expect(close(per100["energy"]?.double, 450))
            #expect(close(per100["iron"]?.double, 4.5), "10 % of 18 mg per 40 g is 4.5 mg per 100 g")
            #expect(close(per100["calcium"]?.double, 130), "4 % of 1300 mg per 40 g")
            #expect(close(per100["vitamin_d"]?.double, 5))
            #expect(per100["fiber"] == nil, "absent, not zero")
            #expect(food["servings"]?[0] == .object(["label": .string("1 bar"), "grams": .number(40)]))
            let id = try #require(food["id"]?.string)
            #expect(try await client.send(.get, "/api/v1/foods/\(id)").json() == food)
            let scanned = try await client.send(.get, "/api/v1/foods/barcode/4006381333931").json()
            #expect(scanned["found_in"]?.string == "mine")
            #expect(scanned["food"]?["id"]?.string == id)
            #expect(try await client.send(.get, "/api/v1/foods").json()["foods"]?.array?.count == 1)
        }
    }

    @Test(arguments: [
        (#"{"name":"X","serving":{"label":"1 bar","grams":40},"nutrients":{"fat":-1}}"#, "nutrients.fat"),
        (#"{"name":"X","serving":{"label":"1 bar","grams":40},"nutrients":{"unobtainium":1}}"#, "nutrients.unobtainium"),
        (#"{"name":"X","serving":{"label":"1 bar"},"nutrients":{"energy":100}}"#, "serving.grams"),
        (#"{"name":"X","serving":{"label":"1 bar","grams":0},"nutrients":{"energy":100}}"#, "serving.grams"),
        (#"{"name":"","serving":{"label":"1 bar","grams":40}}"#, "name"),
        (#"{"name":"X","serving":{"label":"1 bar","grams":40},"percent_daily_value":{"trans_fat":5}}"#, "percent_daily_value.trans_fat"),
        (#"{"name":"X","serving":{"label":"1 bar","grams":40},"percent_daily_value":{"iron":-5}}"#, "percent_daily_value.iron"),
        (#"{"name":"X","serving":{"label":"1 g","grams":1},"nutrients":{"energy":50}}"#, "nutrients.energy"),
        (#"{"name":"X","serving":{"label":"1 bar","grams":40},"nutrients":{"energy":1e19}}"#, "nutrients.energy"),
        (#"{"name":"X","serving":{"label":"1 bar","grams":40},"nutrients":{"sodium":50000}}"#, "nutrients.sodium"),
        (#"{"name":"X","serving":{"label":"1 bar","grams":40},"other_servings":[{"label":"1 bar","grams":5}]}"#, "other_servings[0].label"),
        (#"{"name":"X","serving":{"label":"1 bar","grams":40},"other_servings":[{"label":"1 box"}]}"#, "other_servings[0].grams"),
        (
            #"{"name":"X","serving":{"label":"1 bar","grams":40},"nutrients":{"iron":1},"percent_daily_value":{"iron":5}}"#,
            "percent_daily_value.iron"
        ),
        (#"{"name":"X","barcode":"12AB","serving":{"label":"1 bar","grams":40}}"#, "barcode"),
        (#"{"name":"X","serving":{"label":"1 bar","grams":40},"energy_unit":"joules"}"#, "energy_unit"),
    ])
    func badFoodsAreRefusedNamingTheField(json: String, field: String) async throws {
        try await withApp { client, journal in
            try expectError(
                try await client.send(.post, "/api/v1/foods", json: json), .unprocessableContent,
                code: "invalid_input", field: field)
            #expect(try await journal.store.ownFoods(user: journal.user).isEmpty)
        }
    }

    @Test func aFoodMayHaveMoreServings() async throws {
        try await withApp { client, _ in
            let id = try await client.makeFood(
                #"""
                {"name":"Peanut butter","serving":{"label":"2 tbsp","grams":32},"nutrients":{"energy":188},
                 "other_servings":[{"label":"1 tsp","grams":5},{"label":"1 jar","grams":340}]}
                """#)
            let food = try await client.send(.get, "/api/v1/foods/\(id)").json()
            #expect(food["servings"]?.array?.compactMap { $0["label"]?.string } == ["2 tbsp", "1 tsp", "1 jar", "100 g", "1 g"])
            let entry = try await client.log(#"{"food_id":"\#(id)","serving":"1 tsp","servings":2}"#)[0]
            #expect(close(entry["nutrients"]?["energy"]?.double, 58.75))
        }
    }

    @Test func loggingAPresetNamesTimes() async throws {
        try await withApp { client, _ in
            let bar = try await client.makeFood()
            let preset = try await client.send(.post, "/api/v1/presets", json: #"{"name":"Bar","food_id":"\#(bar)"}"#).json()
            let id = try #require(preset["id"]?.string)
            try expectError(
                try await client.send(.post, "/api/v1/presets/\(id)/log", json: #"{"times":0}"#),
                .unprocessableContent, code: "invalid_input", field: "times")
        }
    }

    @Test func logADayAndSeeItsTotalsWithPercentDailyValueAndWhatIsLeft() async throws {
        try await withApp { client, _ in
            try await client.send(.put, "/api/v1/settings", json: #"{"energy_target_kcal":2000}"#)
            let bar = try await client.makeFood()
            let entries = try await client.log(
                """
                {"food_id":"\(bar)","servings":2,"meal":"Breakfast","time":"2024-03-15T08:00:00Z"},
                {"food_id":"\(bar)","servings":0.5,"serving":"100 g","meal":"Second breakfast","time":"2024-03-15T10:00:00Z"}
                """)
            #expect(entries.count == 2)
            #expect(close(entries[0]["nutrients"]?["energy"]?.double, 360))
            #expect(entries[0]["serving"]?["label"]?.string == "1 bar (40 g)")
            #expect(close(entries[1]["nutrients"]?["energy"]?.double, 225))

            let day = try await client.send(.get, "/api/v1/days/2024-03-15").json()
            #expect(day["energy_kcal"]?.double == 585)
            #expect(day["energy_target_kcal"]?.double == 2000)
            #expect(day["energy_remaining_kcal"]?.double == 1415)
            #expect(day["meals"]?.array?.map { $0["meal"]?.string } == ["breakfast", "lunch", "dinner", "snacks", "Second breakfast"])
            let iron = try #require(day["totals"]?.array?.first { $0["key"]?.string == "iron" })
            #expect(close(iron["amount"]?.double, 5.85, tolerance: 1e-3), "4.5 mg/100 g × 130 g")
            #expect(close(iron["percent_daily_value"]?.double, 32.5))
            let empty = try await client.send(.get, "/api/v1/days/2024-03-14").json()
            #expect(empty["energy_kcal"]?.double == 0)
            #expect(empty["energy_remaining_kcal"]?.double == 2000)
        }
    }

    @Test func loggingSeveralIsAllOrNothing() async throws {
        try await withApp { client, journal in
            let bar = try await client.makeFood()
            let response = try await client.send(
                .post, "/api/v1/food-entries",
                json: """
                    {"entries":[{"food_id":"\(bar)","servings":1},{"food_id":"\(bar)","servings":0}]}
                    """)
            try expectError(response, .unprocessableContent, code: "invalid_input", field: "entries[1].servings")
            #expect(try await journal.store.foodHistory(user: journal.user).isEmpty)
            for (json, field) in [
                (#"{"entries":[{"food_id":"\#(bar)","serving":"1 slab"}]}"#, "entries[0].serving"),
                (#"{"entries":[{"food_id":"\#(UUID())"}]}"#, "entries[0].food_id"),
                (#"{"entries":[{"food_id":"nope"}]}"#, "entries[0].food_id"),
                (#"{"entries":[{"food_id":"\#(bar)","time":"2024-03-16"}]}"#, "entries[0].time"),
                (#"{"entries":[{"food_id":"\#(bar)","servings":"lots"}]}"#, "entries[0].servings"),
                (#"{"entries":[]}"#, "entries"),
            ] {
                try expectError(
                    try await client.send(.post, "/api/v1/food-entries", json: json), .unprocessableContent,
                    code: "invalid_input", field: field)
            }
            #expect(try await journal.store.foodHistory(user: journal.user).isEmpty)
        }
    }

    @Test func editingAndDeletingAFoodNeverChangesPastDays() async throws {
        try await withApp { client, _ in
            let bar = try await client.makeFood()
            let entry = try await client.log(#"{"food_id":"\#(bar)","time":"2024-03-14"}"#)[0]
            let replaced = try await client.send(
                .put, "/api/v1/foods/\(bar)", json: granolaBar.replacingOccurrences(of: "180", with: "400"))
            #expect(replaced.status == .ok)
            #expect(try await client.send(.delete, "/api/v1/foods/\(bar)").status == .noContent)
            try expectError(try await client.send(.get, "/api/v1/foods/\(bar)"), .notFound, code: "not_found")
            let day = try await client.send(.get, "/api/v1/days/2024-03-14").json()
            #expect(day["energy_kcal"]?.double == 180)
            let id = try #require(entry["id"]?.string)
            #expect(try await client.send(.get, "/api/v1/food-entries/\(id)").json() == entry)
        }
    }

    @Test func editAndDeleteEntries() async throws {
        try await withApp { client, _ in
            let bar = try await client.makeFood()
            let entry = try await client.log(#"{"food_id":"\#(bar)","meal":"lunch","note":"desk"}"#)[0]
            let id = try #require(entry["id"]?.string)
            let edited = try await client.send(.patch, "/api/v1/food-entries/\(id)", json: #"{"servings":3,"meal":"dinner","note":null}"#)
            #expect(edited.status == .ok)
            let json = try edited.json()
            #expect(close(json["nutrients"]?["energy"]?.double, 540))
            #expect(json["meal"]?.string == "dinner")
            #expect(json["note"]?.isNull == true)
            try expectError(
                try await client.send(.patch, "/api/v1/food-entries/\(id)", json: #"{"servings":-1}"#),
                .unprocessableContent, code: "invalid_input", field: "servings")
            #expect(try await client.send(.delete, "/api/v1/food-entries/\(id)").status == .noContent)
            try expectError(try await client.send(.delete, "/api/v1/food-entries/\(id)"), .notFound, code: "not_found")
        }
    }

    @Test func copyADayOrOneMeal() async throws {
        try await withApp { client, _ in
            let bar = try await client.makeFood()
            _ = try await client.log(
                """
                {"food_id":"\(bar)","meal":"breakfast","time":"2024-03-13T08:00:00Z"},
                {"food_id":"\(bar)","meal":"dinner","time":"2024-03-13T19:00:00Z"}
                """)
            let copied = try await client.send(
                .post, "/api/v1/days/2024-03-13/copy", json: #"{"to":"2024-03-14","meal":"breakfast","to_meal":"lunch"}"#)
            #expect(copied.status == .created)
            let entries = try copied.json()["entries"]?.array ?? []
            #expect(entries.map { $0["eaten_at"]?.string } == ["2024-03-14T08:00:00+00:00"])
            #expect(entries.map { $0["meal"]?.string } == ["lunch"])
            let whole = try await client.send(.post, "/api/v1/days/2024-03-13/copy", json: #"{"to":"2024-03-10"}"#)
            #expect(try whole.json()["entries"]?.array?.count == 2)
            try expectError(
                try await client.send(.post, "/api/v1/days/2024-03-13/copy", json: #"{"to":"2024-03-15"}"#),
                .unprocessableContent, code: "invalid_input", field: "to")
            try expectError(
                try await client.send(.post, "/api/v1/days/2024-03-12/copy", json: #"{"to":"2024-03-15"}"#),
                .unprocessableContent, code: "invalid_input", field: "from")
            try expectError(
                try await client.send(.post, "/api/v1/days/2024-03-13/copy", json: #"{"to":"2024-03-20"}"#),
                .unprocessableContent, code: "invalid_input", field: "to")
        }
    }

    @Test func aCopyAcrossADaylightSavingChangeKeepsTheWallClockTime() async throws {
        try await withApp { client, _ in
            try await client.send(.put, "/api/v1/settings", json: #"{"time_zone":"Europe/Berlin"}"#)
            let bar = try await client.makeFood()
            _ = try await client.log(#"{"food_id":"\#(bar)","meal":"breakfast","time":"2023-10-28T08:00:00+02:00"}"#)
            let copied = try await client.send(.post, "/api/v1/days/2023-10-28/copy", json: #"{"to":"2023-10-29"}"#)
            #expect(try copied.json()["entries"]?[0]?["eaten_at"]?.string == "2023-10-29T08:00:00+01:00")
        }
    }

    @Test func presetsRecentsHistoryAndFrequentFoods() async throws {
        try await withApp { client, _ in
            let bar = try await client.makeFood()
            let oats = try await client.makeFood(#"{"name":"Oats","serving":{"label":"1 cup","grams":80},"nutrients":{"energy":300}}"#)
            _ = try await client.log(
                """
                {"food_id":"\(oats)","meal":"breakfast","time":"2024-03-14T07:00:00Z"},
                {"food_id":"\(bar)","meal":"breakfast","time":"2024-03-14T07:05:00Z"},
                {"food_id":"\(bar)","meal":"snacks","time":"2024-03-14T15:00:00Z"}
                """)
            let fromMeal = try await client.send(
                .post, "/api/v1/presets", json: #"{"name":"Usual breakfast","from_date":"2024-03-14","meal":"breakfast"}"#)
            #expect(fromMeal.status == .created)
            let preset = try fromMeal.json()
            #expect(preset["energy_kcal"]?.double == 480)
            #expect(preset["items"]?.array?.map { $0["name"]?.string } == ["Oats", "Granola bar"])
            let single = try await client.send(.post, "/api/v1/presets", json: #"{"name":"Two bars","food_id":"\#(bar)","servings":2}"#)
            #expect(try single.json()["energy_kcal"]?.double == 360)
            let presets = try await client.send(.get, "/api/v1/presets").json()["presets"]?.array ?? []
            #expect(presets.map { $0["name"]?.string } == ["Two bars", "Usual breakfast"])

            let id = try #require(preset["id"]?.string)
            let logged = try await client.send(.post, "/api/v1/presets/\(id)/log", json: #"{"time":"2024-03-15T07:30:00Z"}"#)
            #expect(logged.status == .created)
            #expect(try logged.json()["entries"]?.array?.map { $0["meal"]?.string } == ["breakfast", "breakfast"])
            #expect(try await client.send(.get, "/api/v1/days/2024-03-15").json()["energy_kcal"]?.double == 480)

            let recent = try await client.send(.get, "/api/v1/recent-foods").json()["foods"]?.array ?? []
            #expect(Set(recent.compactMap { $0["name"]?.string }) == ["Oats", "Granola bar"])
            #expect(recent.allSatisfy { $0["last_used"]?.string != nil })
            let frequent = try await client.send(.get, "/api/v1/frequent-foods").json()["foods"]?.array ?? []
            #expect(frequent.first?["food"]?["name"]?.string == "Granola bar")
            #expect(frequent.first?["count"]?.double == 3)

            let history = try await client.send(.get, "/api/v1/food-entries?search=oat&limit=10").json()["entries"]?.array ?? []
            #expect(history.count == 2)
            #expect(try await client.send(.delete, "/api/v1/presets/\(id)").status == .noContent)
            try expectError(try await client.send(.post, "/api/v1/presets/\(id)/log", json: "{}"), .notFound, code: "not_found")
        }
    }

    @Test func searchFindsOwnFoodsByPrefixes() async throws {
        try await withApp { client, _ in
            _ = try await client.makeFood()
            let results = try await client.send(.get, "/api/v1/foods/search?q=gran%20ba").json()["results"]?.array ?? []
            #expect(results.map { $0["name"]?.string } == ["Granola bar"])
            #expect(results[0]["mine"]?.bool == true)
            #expect(results[0]["energy_kcal_per_100"]?.double == 450)
            #expect(try await client.send(.get, "/api/v1/foods/search?q=trail").json()["results"]?.array?.count == 1)
            #expect(try await client.send(.get, "/api/v1/foods/search?q=%2B%2B").json()["results"]?.array?.isEmpty == true)
            #expect(try await client.send(.get, "/api/v1/foods/search?q=zebra").json()["results"]?.array?.isEmpty == true)
        }
    }

    @Test func statisticsPerDayAndWeek() async throws {
        try await withApp { client, _ in
            let bar = try await client.makeFood()
            _ = try await client.log(
                """
                {"food_id":"\(bar)","time":"2024-03-11T08:00:00Z"},
                {"food_id":"\(bar)","servings":3,"time":"2024-03-13T08:00:00Z"}
                """)
            let week = try await client.send(.get, "/api/v1/nutrition-stats?from=2024-03-01&to=2024-03-15&period=week").json()
            let periods = week["periods"]?.array ?? []
            #expect(periods.count == 1)
            #expect(periods[0]["start"]?.string == "2024-03-11")
            #expect(periods[0]["days_logged"]?.double == 2)
            let average = try #require(periods[0]["daily_average"]?.array?.first { $0["key"]?.string == "energy" })
            #expect(average["amount"]?.double == 360)
            try expectError(
                try await client.send(.get, "/api/v1/nutrition-stats?period=fortnight"), .unprocessableContent,
                code: "invalid_input", field: "period")
        }
    }

    @Test func nutrientCatalogueListsDailyValues() async throws {
        try await withApp { client, _ in
            let nutrients = try await client.send(.get, "/api/v1/nutrients").json()["nutrients"]?.array ?? []
            let sodium = try #require(nutrients.first { $0["key"]?.string == "sodium" })
            #expect(sodium["daily_value"]?.double == 2300)
            #expect(sodium["unit"]?.string == "mg")
            #expect(nutrients.first { $0["key"]?.string == "trans_fat" }?["daily_value"]?.isNull == true)
        }
    }
}
