import CinnCore
import CinnJournal
import CinnServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CinnStore

/// `GET /api/v1/glance` and the `/glance` page, on both databases.
@Suite struct GlanceTests {
    @Test(arguments: Database.enabled)
    func anEmptyJournalsGlanceSaysWhatItLacks(_ database: Database) async throws {
        try await withApp(on: database) { client, _ in
            let glance = try await client.send(.get, "/api/v1/glance").json()
            #expect(glance["date"]?.string == "2024-03-15" && glance["answer"]?.string == "unknown")
            #expect(glance["kcal_left"]?.isNull == true && glance["trend"]?.isNull == true && glance["glucose"]?.isNull == true)
            let page = try await client.send(.get, "/glance")
            #expect(page.status == .ok)
            let html = String(buffer: page.body)
            #expect(html.contains("Not sure") && html.contains("No calorie target") && !html.contains("glance-glucose"))
            #expect(html.contains(#"<meta http-equiv="refresh" content="60">"#), "it keeps itself current without JavaScript")
        }
    }

    @Test(arguments: Database.enabled)
    func theGlanceHasTheAnswerTheTrendAndTheNewestReading(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let profile = try await client.send(
                .put, "/api/v1/profile",
                json: """
                    {"sex":"female","birth_date":"1990-05-01","height_cm":168,"activity":"light","goal_weight":70,"goal_rate_per_week":0.5}
                    """)
            #expect(profile.status == .ok, "\(String(buffer: profile.body))")
            for day in 1...15 { try await client.addWeighIn(80 - Double(day) * 0.1, date: String(format: "2024-03-%02d", day)) }
            let minute = 60.0
            try await journal.store.addUploadedGlucoseReadings(
                [
                    GlucoseReading(
                        measuredAt: fixedNow.addingTimeInterval(-9 * minute), utcOffsetSeconds: 0,
                        glucose: Glucose(milligramsPerDeciliter: 170),
                        source: "nightscout", sensor: true, direction: .fortyFiveUp),
                    GlucoseReading(
                        measuredAt: fixedNow.addingTimeInterval(-4 * minute), utcOffsetSeconds: 0,
                        glucose: Glucose(milligramsPerDeciliter: 182),
                        source: "nightscout", sensor: true, direction: .singleUp),
                ], user: journal.user)
            let report = try await journal.energyReport()
            let glance = try await client.send(.get, "/api/v1/glance").json()
            #expect(glance["answer"]?.string == report.answer.answer.rawValue && glance["message"]?.string == report.answer.message)
            #expect(glance["kcal_left"]?.double.map(Int.init) == report.answer.remainingKcal && report.answer.remainingKcal != nil)
            let trend = try #require(glance["trend"])
            #expect(trend["unit"]?.string == "kg")
            #expect(abs((trend["weight"]?.double ?? 0) - (report.trend?.kilograms ?? 0)) < 0.01)
            #expect((trend["weekly_change"]?.double ?? 0) < -0.3, "losing 0.1 kg a day, as the trend follows")
            let glucose = try #require(glance["glucose"])
            #expect(glucose["value"]?.double == 182 && glucose["unit"]?.string == "mg/dL" && glucose["direction"]?.string == "SingleUp")
            #expect(glucose["arrow"]?.string == "↑" && glucose["minutes_old"]?.double == 4 && glucose["stale"]?.bool == false)
            #expect(glucose["sensor"]?.bool == true)
            #expect(glucose["insulin_on_board_units"]?.double == 0 && glucose["carbs_on_board_g"]?.double == 0)
            // Two hours after 4 U (Loop's adult curve: 0.500577 left) and 50 g (piecewise-linear over 3 h: 13.443 / 60 left).
            try await client.send(.post, "/api/v1/insulin", json: #"{"units":4,"kind":"bolus","time":"2024-03-15T10:00:00Z"}"#)
            _ = try await client.log(#"{"name":"Toast","energy_kcal":300,"carbohydrate_g":50,"time":"2024-03-15T10:00:00Z"}"#)
            let onBoard = try await client.send(.get, "/api/v1/glance").json()["glucose"]
            #expect(onBoard?["insulin_on_board_units"]?.double == 2 && onBoard?["carbs_on_board_g"]?.double == 11)

            try await client.send(.put, "/api/v1/settings", json: #"{"glucose_unit":"mmol/L"}"#)
            #expect(try await client.send(.get, "/api/v1/glance").json()["glucose"]?["value"]?.double == 10.1, "182 mg/dL is 10.1 mmol/L")
            let html = String(buffer: try await client.send(.get, "/glance").body)
            #expect(html.contains("<b>10.1</b>") && html.contains(#"aria-label="rising""#) && html.contains("4 min"))
        }
    }

    @Test(arguments: Database.enabled)
    func anOldReadingIsStaleAndADaysOneIsNotCurrent(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            try await journal.store.addUploadedGlucoseReadings(
                [
                    GlucoseReading(
                        measuredAt: fixedNow.addingTimeInterval(-25 * 3600), utcOffsetSeconds: 0,
                        glucose: Glucose(milligramsPerDeciliter: 99))
                ], user: journal.user)
            #expect(try await client.send(.get, "/api/v1/glance").json()["glucose"]?.isNull == true)
            try await journal.store.addUploadedGlucoseReadings(
                [
                    GlucoseReading(
                        measuredAt: fixedNow.addingTimeInterval(-40 * 60), utcOffsetSeconds: 0,
                        glucose: Glucose(milligramsPerDeciliter: 101))
                ], user: journal.user)
            let glucose = try await client.send(.get, "/api/v1/glance").json()["glucose"]
            #expect(glucose?["stale"]?.bool == true && glucose?["minutes_old"]?.double == 40 && glucose?["direction"]?.isNull == true)
            #expect(String(buffer: try await client.send(.get, "/glance").body).contains(#"class="stale""#))
        }
    }

    /// The README's iOS Shortcuts recipes, as the requests Shortcuts sends.
    @Test func theShortcutsRecipesWork() async throws {
        try await withApp { client, journal in
            #expect(try await client.send(.post, "/api/v1/weigh-ins", json: #"{"weight":80.4,"unit":"kg"}"#).status == .created)
            #expect(try await client.send(.post, "/api/v1/food-entries", json: #"{"entries":[{"energy_kcal":350}]}"#).status == .created)
            _ = try await client.makeFood()
            let results = try #require(try await client.send(.get, "/api/v1/foods/search?q=granola").json()["results"]?.array)
            let food = try #require(results.first?["id"]?.string)
            #expect(
                try await client.send(.post, "/api/v1/food-entries", json: #"{"entries":[{"food_id":"\#(food)","servings":1}]}"#).status
                    == .created)
            let message = try #require(try await client.send(.get, "/api/v1/glance").json()["message"]?.string)
            #expect(message == (try await journal.energyReport().answer.message))
            #expect(
                try await journal.store.foodEntries(
                    user: journal.user, from: LocalDate(year: 2024, month: 3, day: 15)!,
                    to: LocalDate(year: 2024, month: 3, day: 15)!
                ).count == 2)
        }
    }
}
