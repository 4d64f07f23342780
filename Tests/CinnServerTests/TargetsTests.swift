import CinnCore
import CinnJournal
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Nutrition targets in the API, the day (API and page) and the settings page, on both databases.
@Suite struct TargetsTests {
    @Test(arguments: Database.enabled)
    func targetsAreSetReadAndShownOnTheDay(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            var settings = try await journal.settings()
            settings.energyTargetKcal = 2000
            try await journal.store.saveSettings(settings, user: journal.user)
            let put = try await client.send(
                .put, "/api/v1/targets",
                json: """
                    {"protein":{"grams":150},"carbohydrate":{"percent":40},"fat":{"percent":30},"nutrients":{"sodium":{"max":2000}}}
                    """)
            #expect(put.status == .ok, "\(put.text)")
            let body = try put.json()
            #expect(body["targets"]?["carbohydrate"]?["percent"]?.double == 40)
            let goals = try #require(body["goals"]?.array)
            #expect(goals.first { $0["key"]?.string == "carbohydrate" }?["target"]?.double == 200, "40 % of 2000 kcal at 4 kcal/g")
            #expect(goals.first { $0["key"]?.string == "sodium" }?["maximum"]?.double == 2000)
            #expect(goals.first { $0["key"]?.string == "fiber" }?["source"]?.string == "daily_value")

            _ = try await client.send(
                .post, "/api/v1/food-entries",
                json: """
                    {"entries":[{"energy_kcal":600,"protein_g":140,"carbohydrate_g":20,"fat_g":10,"time":"2024-03-14T12:00:00Z"}]}
                    """)
            let day = try await client.send(.get, "/api/v1/days/2024-03-14").json()
            let targets = try #require(day["targets"]?.array)
            let protein = try #require(targets.first { $0["key"]?.string == "protein" })
            #expect(protein["amount"]?.double == 140 && protein["standing"]?.string == "met", "140 g is within 10 % of 150 g")
            #expect(targets.first { $0["key"]?.string == "carbohydrate" }?["standing"]?.string == "under")

            let page = try await client.send(.get, "/food/2024-03-14").text
            #expect(page.contains(#"<li class="target met" data-nutrient="protein" data-percent="93""#))
            // One protein number to compare with: the target, not the Daily Value beside it.
            let macros = try #require(page.firstMatch(of: /<div class="numbers macro-numbers" id="day-macros">(.*?)<\/div><\/div>/)?.1)
            #expect(macros.contains("<b>140 g</b><span>protein</span><span>of 150 g</span>"), "\(macros)")
            #expect(!macros.contains("protein</span><span>280 % DV"))
            #expect(page.contains("140 of 150 g"))
            #expect(page.contains(#"data-nutrient="sodium""#) && page.contains(#"data-nutrient="fiber""#))
            let stats = try await client.send(.get, "/food/stats?from=2024-03-13&to=2024-03-14").text
            #expect(stats.contains("Days you met your targets"))
            #expect(stats.contains("<span>Protein (150 g)</span><span>1 of 1 day</span>"), "only the logged day counts")
            #expect(stats.contains("<span>Fiber (at least 28 g)</span><span>0 of 1 day</span>"))

            for (json, field) in [
                (#"{"protein":{"grams":-5}}"#, "protein"), (#"{"fat":{"per_kg":1}}"#, "fat"),
                (#"{"nutrients":{"sodium":{"min":3000,"max":2000}}}"#, "nutrients.sodium.max"),
                (#"{"sugar":{"grams":1}}"#, "sugar"), (#"{"protein":{"grams":"lots"}}"#, "protein"),
                (#"{"nutrients":{"sodium":null}}"#, "nutrients.sodium"),
            ] {
                try expectError(
                    try await client.send(.put, "/api/v1/targets", json: json), .unprocessableContent, code: "invalid_input",
                    field: field)
            }
            #expect(try await journal.settings().nutrientTargets.protein == .grams(150), "a refused change keeps the targets")
        }
    }

    @Test(arguments: Database.enabled)
    func theSettingsPageSavesTargetsAndKeepsWhatWasTypedOnAMistake(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let empty = try await client.send(.get, "/settings/targets")
            #expect(empty.status == .ok && empty.text.contains(#"placeholder="2300""#), "sodium's Daily Value shows as the default")
            let saved = try await client.post(
                "/settings/targets", form: "protein=1.8&protein_kind=per_kg&fat=30&fat_kind=percent&max.sodium=2000")
            #expect(saved.status == .seeOther)
            let targets = try await journal.settings().nutrientTargets
            #expect(targets.protein == .gramsPerKilogram(1.8) && targets.fat == .percentOfEnergy(30) && targets.carbohydrate == nil)
            #expect(targets.limits == ["sodium": NutrientLimit(maximum: 2000)])
            let wrong = try await client.post("/settings/targets", form: "protein=abc&protein_kind=g&min.fiber=40&max.fiber=20")
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.text.contains(#"id="target-protein-error""#) && wrong.text.contains(#"value="abc""#))
            #expect(try await journal.settings().nutrientTargets == targets)
            let fiber = try await client.post("/settings/targets", form: "min.fiber=40&max.fiber=20")
            #expect(fiber.status == .unprocessableContent && fiber.text.contains("Fiber&#39;s maximum is below its minimum"))
        }
    }
}

/// Statistics judge each day by its own goals: grams per kg follow that day's trend, as its day view shows.
@Suite struct DailyGoalRecordsTests {
    @Test(arguments: Database.enabled)
    func aGoalPerKilogramIsThatDaysGrams(_ database: Database) async throws {
        try await withApp(on: database) { client, _ in
            // 100 kg through February, then 60 kg: the trend falls from 100 to about 68 kg by 15 March.
            let start = LocalDate(iso: "2024-02-01")!
            for offset in 0..<44 {
                let day = start.adding(days: offset)
                let weight = day < LocalDate(iso: "2024-03-01")! ? 100 : 60
                let added = try await client.send(
                    .post, "/api/v1/weigh-ins", json: #"{"weight":\#(weight),"date":"\#(day.iso)","confirm":true}"#)
                #expect(added.status == .created, "\(added.text)")
            }
            #expect(try await client.send(.put, "/api/v1/targets", json: #"{"protein":{"per_kg":1}}"#).status == .ok)
            let trendToday = try #require(
                try await client.send(.get, "/api/v1/targets").json()["goals"]?.array?
                    .first { $0["key"]?.string == "protein" }?["target"]?.double)
            #expect(trendToday < 70 && trendToday > 66)
            // 100 g of protein on 29 February (its trend: 100 kg) and today's grams on 15 March: each met its own day's goal.
            for (day, grams) in [("2024-02-29", 100.0), ("2024-03-15", trendToday)] {
                _ = try await client.send(
                    .post, "/api/v1/food-entries",
                    json: #"{"entries":[{"energy_kcal":800,"protein_g":\#(grams),"time":"\#(day)T12:00:00Z"}]}"#)
            }
            let february = try await client.send(.get, "/api/v1/days/2024-02-29").json()["targets"]?.array?
                .first { $0["key"]?.string == "protein" }
            #expect(february?["standing"]?.string == "met" && february?["target"]?.double == 100)
            let stats = try await client.send(.get, "/food/stats?from=2024-02-29&to=2024-03-15").text
            #expect(
                stats.contains("Protein (1 g/kg)") && stats.contains("2 of 2 days"),
                "judged by today's 68 g, 29 February's 100 g would be over")
        }
    }
}
