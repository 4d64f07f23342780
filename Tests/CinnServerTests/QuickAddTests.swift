import CinnCore
import CinnJournal
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Quick add: energy and macronutrients straight into a meal, in the API and the web app, on both databases.
@Suite struct QuickAddTests {
    @Test(arguments: Database.enabled)
    func theAPILogsAQuickAddAndTheDayCountsIt(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let response = try await client.send(
                .post, "/api/v1/food-entries",
                json: """
                    {"entries":[{"energy_kcal":650,"protein_g":30,"carbohydrate_g":70,"fat_g":25.5,"name":"Lunch out","meal":"lunch",
                      "time":"2024-03-14T12:30:00Z"},
                      {"protein_g":20,"carbohydrate_g":10,"fat_g":5,"meal":"snacks","time":"2024-03-14T16:00:00Z"}]}
                    """)
            #expect(response.status == .created)
            let entries = try #require(try response.json()["entries"]?.array)
            #expect(entries.map { $0["name"]?.string } == ["Lunch out", "Quick add"])
            #expect(entries[0]["food_id"]?.isNull == true)
            #expect(entries[0]["nutrients"]?["fat"]?.double == 25.5)
            #expect(entries[1]["nutrients"]?["energy"]?.double == 165, "4 × 20 + 4 × 10 + 9 × 5")
            let day = try await client.send(.get, "/api/v1/days/2024-03-14").json()
            #expect(day["energy_kcal"]?.double == 815)
            #expect(try await journal.store.foodHistory(user: journal.user).allSatisfy(\.isQuickAdd))
        }
    }

    @Test(arguments: Database.enabled)
    func aBadQuickAddNamesItsFieldAndLogsNothing(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            for (entry, field) in [
                (#"{"energy_kcal":-5}"#, "entries[0].energy_kcal"),
                (#"{"energy_kcal":20000}"#, "entries[0].energy_kcal"),
                (#"{"energy_kcal":500,"fat_g":"lots"}"#, "entries[0].fat_g"),
                (#"{"energy_kcal":500,"protein_g":-1}"#, "entries[0].protein_g"),
                (#"{"name":"Cake"}"#, "entries[0].energy_kcal"),
                (#"{"energy_kcal":500,"food_id":"0190f5d0-0000-7000-8000-000000000000"}"#, "entries[0].food_id"),
                (#"{"meal":"lunch"}"#, "entries[0].food_id"),
            ] {
                try expectError(
                    try await client.send(
                        .post, "/api/v1/food-entries",
                        json: #"{"entries":[{"energy_kcal":100},\#(entry)]}"#
                            .replacingOccurrences(of: "entries[0]", with: "entries[1]")),
                    .unprocessableContent, code: "invalid_input", field: field.replacingOccurrences(of: "[0]", with: "[1]"))
            }
            #expect(try await journal.store.foodHistory(user: journal.user).isEmpty, "all or nothing")
        }
    }

    @Test(arguments: Database.enabled)
    func theWebFormLogsIntoTheMealAndShowsTheDay(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let page = try await client.send(.get, "/food/search?meal=dinner&date=2024-03-14")
            #expect(page.text.contains(#"<form method="post" action="/food/quick">"#))
            #expect(page.text.contains(#"<input type="hidden" name="meal" value="dinner">"#))
            let logged = try await client.post("/food/quick", form: "meal=dinner&date=2024-03-14&energy=720&protein_g=40&name=Curry+night")
            #expect(logged.status == .seeOther)
            let location = try #require(logged.headers[.location])
            #expect(location.hasPrefix("/food/2024-03-14?logged="))
            let entry = try #require(try await journal.store.foodHistory(user: journal.user).first)
            #expect(entry.name == "Curry night" && entry.meal == .dinner && entry.energy == 720 && entry.localTimeOfDay == "19:00")
            let day = try await client.send(.get, location)
            #expect(day.text.contains("Curry night") && day.text.contains("quick add"))

            let wrong = try await client.post("/food/quick", form: "meal=lunch&date=2024-03-14&energy=&fat_g=-3&name=Pie")
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.text.contains(#"id="quick-fat-error""#) && wrong.text.contains("fat must be 0 g or more"))
            #expect(wrong.text.contains(#"value="Pie""#), "what was typed stays")
            #expect(wrong.text.contains(#"<details class="card" id="quick-add" open>"#))
            let empty = try await client.post("/food/quick", form: "energy=")
            #expect(empty.status == .unprocessableContent && empty.text.contains(#"id="quick-energy-error""#))
            #expect(try await journal.store.foodHistory(user: journal.user).count == 1)
        }
    }
}
