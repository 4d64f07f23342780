import CinnCore
import CinnJournal
import CinnServer
import Foundation
import HummingbirdTesting
import Testing

@Suite("Glucose, insulin and meals API")
struct GlucoseAPITests {
    /// A value in the other unit's range (7.8 typed as mg/dL) needs `"confirm": true`; the message offers the other unit.
    @Test func aValueThatLooksLikeTheOtherUnitNeedsConfirmation() async throws {
        try await withApp { client, journal in
            let low = try await client.send(.post, "/api/v1/glucose", json: #"{"value":7.8,"unit":"mg/dL"}"#)
            try expectError(low, .unprocessableContent, code: "needs_confirmation", field: "value")
            #expect(try low.json()["error"]?["message"]?.string == "7.8 mg/dL looks like mmol/L: did you mean 7.8 mmol/L = 141 mg/dL?")
            let high = try await client.send(.post, "/api/v1/glucose", json: #"{"value":141,"unit":"mmol/L"}"#)
            try expectError(high, .unprocessableContent, code: "needs_confirmation", field: "value")
            #expect(try await client.send(.post, "/api/v1/glucose", json: #"{"value":7.8,"unit":"mmol/L"}"#).status == .created)
            #expect(
                try await client.send(.post, "/api/v1/glucose", json: #"{"value":28,"unit":"mg/dL","confirm":true}"#).status == .created)
            #expect(try await journal.store.glucoseReadings(user: journal.user).count == 2)
            let absurd = try await client.send(.post, "/api/v1/glucose", json: #"{"value":-4.614604216787275e+179}"#)
            try expectError(absurd, .unprocessableContent, code: "invalid_input", field: "value")
        }
    }

    @Test func readingsInEitherUnitAndErrorsThatNameTheField() async throws {
        try await withApp { client, _ in
            let mmol = try await client.send(
                .post, "/api/v1/glucose", json: #"{"value":6.2,"unit":"mmol/L","time":"2024-03-15T07:30:00Z","timing":"fasting"}"#)
            #expect(mmol.status == .created)
            #expect(try mmol.json()["mg_dl"]?.double == 6.2 * 18.0156)
            #expect(try mmol.json()["value"]?.double == 6.2 && (try mmol.json()["unit"]?.string) == "mmol/L")
            try await client.send(.post, "/api/v1/glucose", json: #"{"value":154,"time":"2024-03-15T09:00:00Z","note":"after toast"}"#)
            let list = try await client.send(.get, "/api/v1/glucose?unit=mmol/L").json()["glucose"]?.array ?? []
            // The user's glucose unit decides what a bare value means and how readings are shown.
            #expect(
                try await client.send(.put, "/api/v1/settings", json: #"{"glucose_unit":"mmol/L"}"#).json()["glucose_unit"]?.string
                    == "mmol/L")
            let shown = try await client.send(.get, "/api/v1/glucose").json()["glucose"]?.array?.first
            #expect(shown?["value"]?.double == 8.5 && shown?["unit"]?.string == "mmol/L")
            try expectError(
                try await client.send(.put, "/api/v1/settings", json: #"{"glucose_unit":"g/L"}"#), .unprocessableContent,
                code: "invalid_input", field: "glucose_unit")
            try await client.send(.put, "/api/v1/settings", json: #"{"glucose_unit":"mg/dL"}"#)
            #expect(list.compactMap { $0["value"]?.double } == [8.5, 6.2], "newest first, in the unit asked for")
            #expect(list.first?["timing"] == .null && list.last?["timing"]?.string == "fasting")

            try expectError(
                try await client.send(.post, "/api/v1/glucose", json: #"{"value":2000}"#), .unprocessableContent, code: "invalid_input",
                field: "value")
            try expectError(
                try await client.send(.post, "/api/v1/glucose", json: #"{"value":100,"unit":"g/L"}"#), .unprocessableContent,
                code: "invalid_input", field: "unit")
            try expectError(
                try await client.send(.post, "/api/v1/glucose", json: #"{"value":100,"time":"2099-01-01"}"#), .unprocessableContent,
                code: "invalid_input", field: "time")
            let badTiming = try await client.send(.post, "/api/v1/glucose", json: #"{"value":100,"timing":"lunchtime"}"#)
            #expect(badTiming.status == .unprocessableContent)
            #expect(try badTiming.json()["error"]?["field"]?.string == "timing")
            let id = try #require(list.first?["id"]?.string)
            #expect(try await client.send(.delete, "/api/v1/glucose/\(id)").status == .noContent)
            try expectError(try await client.send(.delete, "/api/v1/glucose/\(id)"), .notFound, code: "not_found")
        }
    }

    @Test func mealDefinitionsFromFoodsOrACarbohydrateEstimate() async throws {
        try await withApp { client, _ in
            let oats = try await client.makeFood(
                #"{"name":"Rolled oats","serving":{"label":"40 g","grams":40},"nutrients":{"energy":150,"carbohydrate":27}}"#)
            let porridge = try await client.send(
                .post, "/api/v1/meals", json: #"{"name":"Porridge","foods":[{"food_id":"\#(oats)","grams":60}]}"#)
            #expect(porridge.status == .created)
            #expect(try porridge.json()["foods"]?.array?.first?["name"]?.string == "Rolled oats")
            #expect(try porridge.json()["kind"]?.string == "common")
            let test = try await client.send(.post, "/api/v1/meals", json: #"{"name":"Test meal A","kind":"test","carbohydrate_g":75}"#)
            #expect(try test.json()["carbohydrate_g"]?.double == 75)
            try expectError(
                try await client.send(.post, "/api/v1/meals", json: #"{"name":"Porridge","carbohydrate_g":40}"#), .conflict,
                code: "conflict", field: "name")
            try expectError(
                try await client.send(.post, "/api/v1/meals", json: #"{"name":"Nothing"}"#), .unprocessableContent,
                code: "invalid_input", field: "carbohydrate_g")
            try expectError(
                try await client.send(.post, "/api/v1/meals", json: #"{"name":"Ghost","foods":[{"food_id":"\#(UUID())","grams":10}]}"#),
                .unprocessableContent, code: "invalid_input", field: "foods[0].food_id")
            try expectError(
                try await client.send(.post, "/api/v1/meals", json: #"{"name":"Heavy","foods":[{"food_id":"\#(oats)","grams":0}]}"#),
                .unprocessableContent, code: "invalid_input", field: "foods[0].grams")
            let meals = try await client.send(.get, "/api/v1/meals").json()["meals"]?.array ?? []
            #expect(meals.compactMap { $0["name"]?.string } == ["Porridge", "Test meal A"])
        }
    }

    /// Alice's breakfast on 2024-03-14: readings every 15 minutes around it and a bolus before it.
    func breakfast(_ client: any TestClientProtocol) async throws -> (meal: String, event: String) {
        let meal = try #require(
            try await client.send(.post, "/api/v1/meals", json: #"{"name":"Toast","carbohydrate_g":45}"#).json()["id"]?.string)
        let curve: [(String, Double)] = [
            ("07:50", 100), ("08:15", 120), ("08:30", 150), ("08:45", 130), ("09:00", 90), ("09:30", 80),
            ("10:00", 110), ("10:30", 140),
        ]
        for (time, mg) in curve {
            try await client.send(.post, "/api/v1/glucose", json: #"{"value":\#(mg),"unit":"mg/dL","time":"2024-03-14T\#(time):00Z"}"#)
        }
        try await client.send(
            .post, "/api/v1/insulin", json: #"{"units":4,"kind":"bolus","insulin":"Humalog","time":"2024-03-14T07:45:00Z"}"#)
        try await client.send(.post, "/api/v1/insulin", json: #"{"units":18,"kind":"basal","time":"2024-03-14T22:00:00Z"}"#)
        let event = try await client.send(.post, "/api/v1/meal-events", json: #"{"meal_id":"\#(meal)","time":"2024-03-14T08:00:00Z"}"#)
        #expect(event.status == .created)
        return (meal, try #require(try event.json()["id"]?.string))
    }

    @Test func theReportMeasuresEachMealsResponseAndRanksMeals() async throws {
        try await withApp { client, _ in
            let (_, event) = try await breakfast(client)
            let report = try await client.send(.get, "/api/v1/glucose/report?days=1&to=2024-03-14").json()
            let statistics = try #require(report["statistics"])
            #expect(statistics["readings"]?.double == 8)
            #expect(statistics["mean"]?.double == 115)
            #expect(statistics["percent_70_180"]?.double == 100)
            #expect(
                statistics["gmi_percent"] == .null && statistics["cv_percent"] == .null,
                "a day of finger sticks supports no GMI or CV (the consensus asks for 14 days of CGM at 70 %)")
            let coverage = try #require(report["coverage"])
            #expect(coverage["enough"]?.bool == false && coverage["days"]?.double == 1 && coverage["days_with_readings"]?.double == 1)
            #expect(
                coverage["missing"]?.string?.hasPrefix("needs 14 days of CGM readings, 70 % of the time: 1 day and 0 % so far") == true,
                "\(coverage)")
            #expect(report["bolus_units"]?.double == 4 && report["basal_units"]?.double == 18)
            let response = try #require(report["meal_events"]?.array?.first?["response"])
            #expect(response["baseline"]?.double == 100 && response["peak"]?.double == 150 && response["minutes_to_peak"]?.double == 30)
            #expect(response["incremental_area_mg_dl_min"]?.double == 1494, "the worked example of GlucoseTests: 1493.75")
            #expect(response["complete"]?.bool == true && response["bolus_units"]?.double == 4)
            let ranking = try #require(report["meals"]?.array?.first)
            #expect(ranking["name"]?.string == "Toast" && ranking["counted"]?.double == 1)

            // A reported event stays in the list, flagged, and leaves the averages.
            #expect(
                try await client.send(.put, "/api/v1/meal-events/\(event)/report", json: #"{"reason":"did not finish it"}"#).status
                    == .noContent)
            let flagged = try await client.send(.get, "/api/v1/glucose/report?days=1&to=2024-03-14").json()
            #expect(flagged["meal_events"]?.array?.first?["report_reason"]?.string == "did not finish it")
            #expect(flagged["meals"]?.array?.first?["counted"]?.double == 0)
            #expect(flagged["meals"]?.array?.first?["mean_incremental_area_mg_dl_min"] == .null)
            try expectError(
                try await client.send(.put, "/api/v1/meal-events/\(event)/report", json: #"{"reason":"  "}"#),
                .unprocessableContent, code: "invalid_input", field: "reason")
            #expect(try await client.send(.delete, "/api/v1/meal-events/\(event)/report").status == .noContent)
            #expect(
                try await client.send(.get, "/api/v1/glucose/report?days=1&to=2024-03-14").json()["meals"]?.array?.first?["counted"]?.double
                    == 1)

            let day = try await client.send(.get, "/api/v1/glucose/days/2024-03-14?unit=mmol/L").json()
            #expect(day["readings"]?.array?.count == 8 && day["insulin"]?.array?.count == 2)
            #expect(day["meal_events"]?.array?.first?["response"]?["peak"]?.double == 8.3, "150 mg/dL in mmol/L")
            #expect(
                try await client.send(.get, "/api/v1/meal-events?from=2024-03-14&to=2024-03-14").json()["meal_events"]?.array?.count == 1)
        }
    }

    @Test func aMealEventNeedsAMealOfTheJournal() async throws {
        try await withApp { client, _ in
            try expectError(
                try await client.send(.post, "/api/v1/meal-events", json: #"{"meal_id":"\#(UUID())"}"#), .unprocessableContent,
                code: "invalid_input", field: "meal_id")
            let meal = try #require(
                try await client.send(.post, "/api/v1/meals", json: #"{"name":"Rice","carbohydrate_g":60}"#).json()["id"]?.string)
            try expectError(
                try await client.send(.post, "/api/v1/meal-events", json: #"{"meal_id":"\#(meal)","portion":0}"#), .unprocessableContent,
                code: "invalid_input", field: "portion")
            #expect(try await client.send(.post, "/api/v1/meal-events", json: #"{"meal_id":"\#(meal)","portion":0.5}"#).status == .created)
            #expect(try await client.send(.delete, "/api/v1/meals/\(meal)").status == .noContent)
            try expectError(
                try await client.send(.post, "/api/v1/meal-events", json: #"{"meal_id":"\#(meal)"}"#), .unprocessableContent,
                code: "invalid_input", field: "meal_id")
            let events = try await client.send(.get, "/api/v1/meal-events").json()["meal_events"]?.array ?? []
            #expect(events.first?["meal"]?.string == "Rice", "an event keeps its deleted meal's name")
            try expectError(
                try await client.send(.post, "/api/v1/insulin", json: #"{"units":0,"kind":"bolus"}"#), .unprocessableContent,
                code: "invalid_input", field: "units")
        }
    }

    /// A `mongoexport` backup of a Nightscout site, entries and treatments, on both databases: recognised, read, and
    /// imported once however often it is imported.
    @Test(arguments: Database.enabled)
    func aNightscoutBackupImportsOnce(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            for (name, imported, skipped, repeated) in [
                ("entries.mongoexport", 5.0, 2.0, 1.0), ("treatments.mongoexport", 5, 2, 1), ("carbhistory", 2, 0, 0),
            ] {
                let file = try fixtureText("nightscout/\(name).json")
                let first = try await client.send(
                    .post, "/api/v1/imports?file_name=\(name).json", body: file, contentType: "application/json"
                ).json()
                #expect(first["format"]?.string == "nightscout" && first["imported"]?.double == imported, "\(name): \(first)")
                #expect(
                    first["skipped"]?.double == skipped && first["repeated_in_file"]?.double == repeated
                        && first["rejected_count"]?.double == 0)
                let again = try await client.send(.post, "/api/v1/imports", body: file, contentType: "application/json").json()
                #expect(again["imported"]?.double == 0 && again["duplicates"]?.double == imported, "\(name) again: \(again)")
            }
            let readings = try await journal.store.glucoseReadings(user: journal.user, limit: 10)
            #expect(readings.map(\.glucose.milligramsPerDeciliter).sorted() == [39, 142, 150, 155, 161])
            let doses = try await journal.store.insulinDoses(user: journal.user, from: .distantPast, to: .distantFuture)
            #expect(doses.map(\.units).sorted() == [1.5, 2, 4.5], "one bolus written in two offsets is one")
            #expect(try await journal.store.nightscoutDocuments(.treatments, user: journal.user, limit: 20).count == 8)
            let carbs = try await journal.store.foodEntries(
                user: journal.user, from: LocalDate(iso: "2019-05-09")!, to: LocalDate(iso: "2019-05-10")!)
            #expect(carbs.map(\.name).sorted() == ["Apple", "Carbs", "Oatmeal", "Pizza"], "oref0's carb history, named by its food")
        }
    }

    /// A file of temporary basals only holds nothing for the journal's records, yet it is imported: its treatments are
    /// kept as sent (counted apart), once.
    @Test(arguments: Database.enabled)
    func treatmentsWithNothingForTheJournalAreStillKept(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let basals = (0..<4).map { index in
                #"{"_id":"65f2b1c03a1c2b0012a4f5\#(10 + index)","eventType":"Temp Basal","created_at":"2024-03-14T0\#(index):00:00.000Z","duration":30,"rate":0.8}"#
            }
            let file = "[" + basals.joined(separator: ",") + "]"
            let preview = try await client.send(.post, "/api/v1/imports?dry_run=true", body: file, contentType: "application/json").json()
            #expect(preview["imported"]?.double == 0 && preview["kept_as_sent"]?.double == 4 && preview["skipped"]?.double == 4)
            #expect(
                try await journal.store.nightscoutDocuments(.treatments, user: journal.user, limit: 10).isEmpty, "a dry run keeps nothing")
            let first = try await client.send(.post, "/api/v1/imports", body: file, contentType: "application/json")
            #expect(first.status == .created)
            #expect(try first.json()["kept_as_sent"]?.double == 4)
            #expect(try await journal.store.nightscoutDocuments(.treatments, user: journal.user, limit: 10).count == 4)
            let again = try await client.send(.post, "/api/v1/imports", body: file, contentType: "application/json").json()
            #expect(again["kept_as_sent"]?.double == 0 && again["import_id"]?.isNull == true)
        }
    }

    @Test func nightscoutExportsImportOnceAndUndo() async throws {
        try await withApp { client, _ in
            let entries = try fixtureText("nightscout/entries.json"), treatments = try fixtureText("nightscout/treatments.json")
            let first = try await client.send(.post, "/api/v1/imports", body: entries, contentType: "application/json").json()
            #expect(first["format"]?.string == "nightscout" && first["imported"]?.double == 5)
            #expect(first["duplicates"]?.double == 0 && first["repeated_in_file"]?.double == 1, "a new journal holds none of them")
            let second = try await client.send(.post, "/api/v1/imports", body: treatments, contentType: "application/json").json()
            #expect(second["imported"]?.double == 6 && second["skipped"]?.double == 4 && second["repeated_in_file"]?.double == 1)
            let again = try await client.send(.post, "/api/v1/imports", body: treatments, contentType: "application/json").json()
            #expect(again["imported"]?.double == 0 && again["duplicates"]?.double == 6)

            let day = try await client.send(.get, "/api/v1/glucose/days/2024-03-09?unit=mg/dL").json()
            #expect(day["readings"]?.array?.count == 6 && day["insulin"]?.array?.count == 2)
            let food = try await client.send(.get, "/api/v1/food-entries").json()["entries"]?.array ?? []
            #expect(food.compactMap { $0["name"]?.string }.sorted() == ["Carbs", "Normal bolus with wizard.", "🌯"])
            #expect(try await client.send(.get, "/api/v1/meals").json()["meals"]?.array?.isEmpty == true, "carbohydrate is the food log's")

            let id = try #require(second["import_id"]?.double)
            #expect(try await client.send(.post, "/api/v1/imports/\(Int(id))/undo").status == .ok)
            let after = try await client.send(.get, "/api/v1/glucose/days/2024-03-09").json()
            #expect(after["readings"]?.array?.count == 5 && after["insulin"]?.array?.count == 0)
            #expect(try await client.send(.get, "/api/v1/food-entries").json()["entries"]?.array?.isEmpty == true)
        }
    }
}
