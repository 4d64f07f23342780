import CinnCore
import CinnJournal
import CinnStore
import Foundation
import HummingbirdTesting
import Testing

/// "Can I nom nom this?" through `POST /api/v1/nom`, on both databases: no readings, too few similar meals, the
/// expectation from the person's meals in either unit, a bolus the history never saw, the energy part, what is on
/// board, and refused requests that name the field.
@Suite struct NomAPITests {
    static let day = 86400.0

    /// A pizza lunch at 12:30 on 2024-03-(first + n) for each rise, with sensor readings every 5 minutes from 12:00 to
    /// 16:00 at 100 mg/dL, rising linearly to 100 + rise at 13:30 and back to 100 by 15:00.
    func lunches(_ rises: [Double], firstDay: Int = 1, _ client: any TestClientProtocol, _ journal: Journal) async throws {
        var readings: [GlucoseReading] = []
        for (index, rise) in rises.enumerated() {
            let noon = LocalDate(year: 2024, month: 3, day: firstDay + index)!.noon(in: .gmt).instant
            for step in 0...48 {
                let minutesAfterMeal = Double(step * 5) - 30
                let shape =
                    minutesAfterMeal <= 0 ? 0 : minutesAfterMeal <= 60 ? minutesAfterMeal / 60 : max(0, 1 - (minutesAfterMeal - 60) / 90)
                readings.append(
                    GlucoseReading(
                        measuredAt: noon.addingTimeInterval(Double(step) * 300), utcOffsetSeconds: 0,
                        glucose: Glucose(milligramsPerDeciliter: 100 + rise * shape), source: "test", sensor: true))
            }
            _ = try await client.log(
                #"{"name":"Pizza","energy_kcal":700,"carbohydrate_g":60,"meal":"lunch","time":"2024-03-\#(String(format: "%02d", firstDay + index))T12:30:00Z"}"#
            )
        }
        try await journal.store.addGlucoseReadings(readings, user: journal.user)
    }

    func nom(_ client: any TestClientProtocol, _ json: String) async throws -> JSON {
        let response = try await client.send(.post, "/api/v1/nom", json: json)
        #expect(response.status == .ok)
        return try response.json()
    }

    static let pizza = #"{"at":"2024-03-14T12:30:00Z","entries":[{"name":"Pizza","carbohydrate_g":60,"energy_kcal":700}]}"#

    @Test(arguments: Database.enabled)
    func noReadingsNoTargetSaysSo(_ database: Database) async throws {
        try await withApp(on: database) { client, _ in
            let answer = try await nom(client, Self.pizza)
            #expect(answer["glucose"] == .null && answer["energy"] == .null && answer["on_board"] == .null)
            #expect(answer["glucose_reason"]?.string == "no glucose readings in the last 180 days")
            #expect(answer["name"]?.string == "Pizza" && answer["carbohydrate_g"]?.double == 60)
            #expect(answer["at"]?.string == "2024-03-14T12:30:00+00:00")
        }
    }

    @Test(arguments: Database.enabled)
    func tooFewSimilarMealsNeverANumber(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            try await lunches([40, 50, 60, 50], client, journal)
            let answer = try await nom(client, Self.pizza)
            #expect(answer["glucose"] == .null)
            #expect(answer["glucose_reason"]?.string == "4 similar meals with readings so far; 5 are needed")
        }
    }

    @Test(arguments: Database.enabled)
    func sixPizzaLunchesGiveTheExpectationInEitherUnit(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            try await lunches([40, 50, 60, 50, 45, 55], client, journal)
            // The worked example of MealExpectationTests.sixTheSame: 50, 80 % between 38.73 and 61.27; each peak an hour on.
            let answer = try await nom(client, Self.pizza)
            let glucose = try #require(answer["glucose"])
            #expect(glucose["expected_rise_mg_dl"]?.double == 50)
            #expect(glucose["range_mg_dl"]?.array?.compactMap(\.double) == [39, 61])
            #expect(glucose["range_probability"]?.double == 0.8 && glucose["minutes_to_peak"]?.double == 60)
            #expect(glucose["similar_meals"]?.double == 6 && glucose["unit"]?.string == "mg/dL")
            let basedOn = try #require(glucose["based_on"]?.array)
            #expect(basedOn.count == 6 && basedOn.first?["at"]?.string == "2024-03-06T12:30:00+00:00")
            #expect(basedOn.first?["rise_mg_dl"]?.double == 55 && basedOn.first?["name"]?.string == "Pizza")
            #expect(answer["on_board"]?["insulin_units"]?.double == 0 && answer["glucose_reason"] == nil)

            try await client.send(.put, "/api/v1/settings", json: #"{"glucose_unit":"mmol/L"}"#)
            let mmol = try #require(try await nom(client, Self.pizza)["glucose"])
            // 50 / 18.0156 = 2.78; 38.73 / 18.0156 = 2.15; 61.27 / 18.0156 = 3.40.
            #expect(mmol["unit"]?.string == "mmol/L" && mmol["expected_rise"]?.double == 2.8)
            #expect(mmol["range"]?.array?.compactMap(\.double) == [2.1, 3.4] && mmol["expected_rise_mg_dl"]?.double == 50)

            // Pizza at 22:30 is not like these lunches (10 h apart: 10 / 5 × 0.7 = 1.4); a bolus the history never saw has
            // no similar meals either.
            let late = try await nom(client, Self.pizza.replacingOccurrences(of: "12:30", with: "22:30"))
            #expect(late["glucose"] == .null && late["glucose_reason"]?.string?.hasPrefix("0 similar meals") == true)
            let bolused = try await nom(
                client, #"{"at":"2024-03-14T12:30:00Z","bolus_units":6,"entries":[{"name":"Pizza","carbohydrate_g":60}]}"#)
            #expect(bolused["glucose"] == .null)
        }
    }

    @Test(arguments: Database.enabled)
    func aMealBeingAssembledIsAnsweredWhole(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            try await lunches([40, 50, 60, 50, 45, 55], client, journal)
            // Half a pizza logged for lunch at 12:30, the other half asked about at 12:40: the meal is the whole pizza,
            // begun at 12:30, and answers as the six lunches did.
            _ = try await client.log(
                #"{"name":"Pizza","energy_kcal":350,"carbohydrate_g":30,"meal":"lunch","time":"2024-03-14T12:30:00Z"}"#)
            let half = #"{"at":"2024-03-14T12:40:00Z","meal":"lunch","entries":[{"name":"Pizza","carbohydrate_g":30,"energy_kcal":350}]}"#
            let answer = try await nom(client, half)
            #expect(answer["already_in_meal"]?.array?.compactMap(\.string) == ["Pizza"] && answer["carbohydrate_g"]?.double == 60)
            #expect(answer["glucose"]?["expected_rise_mg_dl"]?.double == 50)
            #expect(answer["glucose"]?["range_mg_dl"]?.array?.compactMap(\.double) == [39, 61])
            // Another slot is another meal.
            let snack = try await nom(client, half.replacingOccurrences(of: #""meal":"lunch""#, with: #""meal":"snacks""#))
            #expect(snack["already_in_meal"]?.array?.isEmpty == true && snack["carbohydrate_g"]?.double == 30)
        }
    }

    @Test(arguments: Database.enabled)
    func insulinAndCarbsOnBoard(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            try await lunches([40], firstDay: 14, client, journal)
            #expect(
                try await client.send(.post, "/api/v1/insulin", json: #"{"units":2,"kind":"bolus","time":"2024-03-14T12:30:00Z"}"#)
                    .status == .created)
            // An hour after 2 U and 60 g: 2 × 0.833799 U (Loop's adult curve), 60 × (1 − 0.30041) g (piecewise-linear, 3 h).
            let answer = try await nom(client, Self.pizza.replacingOccurrences(of: "12:30", with: "13:30"))
            #expect(answer["on_board"]?["insulin_units"]?.double == 1.67)
            #expect(answer["on_board"]?["carbohydrate_g"]?.double == 42)
        }
    }

    @Test(arguments: Database.enabled)
    func whatItLeavesAndTheGoalDate(_ database: Database) async throws {
        try await withApp(on: database) { client, _ in
            try await client.send(.put, "/api/v1/settings", json: #"{"energy_target_kcal":2000}"#)
            _ = try await client.log(#"{"name":"Breakfast","energy_kcal":1500,"time":"2024-03-14T08:00:00Z"}"#)
            let energy = try #require(try await nom(client, Self.pizza)["energy"])
            #expect(energy["kcal"]?.double == 700 && energy["kcal_left_before"]?.double == 500 && energy["kcal_left_after"]?.double == -200)
            // A target typed by hand has no expenditure beside it: no goal date to move.
            #expect(energy["goal_date_shift_days"] == .null)
        }
    }

    @Test func goingOverMovesTheGoalDateByWhatGoesOverOverTheDeficit() async throws {
        try await withApp { client, journal in
            let profile = try await client.send(
                .put, "/api/v1/profile",
                json:
                    #"{"sex":"female","birth_date":"1990-01-01","height_cm":165,"activity":"light","goal_weight":70,"goal_rate_per_week":0.5}"#
            )
            #expect(profile.status == .ok)
            #expect(
                try await client.send(.post, "/api/v1/weigh-ins", json: #"{"weight":80,"unit":"kg","date":"2024-03-14"}"#).status
                    == .created)
            let report = try await journal.energyReport(asOf: LocalDate(iso: "2024-03-14")!, historyDays: 0)
            let target = try #require(report.targetKcal), maintenance = try #require(report.maintenanceKcal)
            let feast = (target + 300).rounded()
            let answer = try await nom(client, #"{"at":"2024-03-14T12:30:00Z","entries":[{"name":"Feast","energy_kcal":\#(feast)}]}"#)
            let energy = try #require(answer["energy"])
            let over = feast - target
            #expect(energy["kcal_left_after"]?.double == (-over).rounded())
            let expected = (over / (maintenance - target) * 10).rounded() / 10
            #expect(energy["goal_date_shift_days"]?.double == expected && expected > 0)
        }
    }

    @Test func refusedRequestsNameTheField() async throws {
        try await withApp { client, _ in
            let cases: [(String, String)] = [
                (#"{"entries":[]}"#, "entries"),
                (#"{"entries":[{"carbohydrate_g":-1}]}"#, "entries[0].carbohydrate_g"),
                (#"{"entries":[{"carbohydrate_g":10}],"bolus_units":-1}"#, "bolus_units"),
                (#"{"entries":[{"carbohydrate_g":10},{"food_id":"nope"}]}"#, "entries[1].food_id"),
                (#"{"entries":[{"food_id":"0190a8f0-0000-7000-8000-000000000000"}]}"#, "entries[0].food_id"),
                (#"{"entries":[{"carbohydrate_g":10,"fiber_g":1e308}]}"#, "entries[0].fiber_g"),
                (#"{"entries":[{"carbohydrate_g":10}],"at":"2030-01-01T00:00:00Z"}"#, "at"),
            ]
            for (json, field) in cases {
                try expectError(
                    try await client.send(.post, "/api/v1/nom", json: json), .unprocessableContent, code: "invalid_input", field: field)
            }
        }
    }
}
