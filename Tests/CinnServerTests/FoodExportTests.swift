import CinnCore
import CinnJournal
import CinnServer
import CinnStore
import Foundation
import HummingbirdTesting
import Testing

@Suite("Food journal export and import") struct FoodExportTests {
    /// Fills a journal through the API: two foods, four entries over two days (one with an offset), a preset.
    func fill(_ client: any TestClientProtocol) async throws {
        let bar = try await client.makeFood()
        let soup = try await client.makeFood(
            #"""
            {"name":"Tomato soup, \"homemade\"","basis":"ml","serving":{"label":"1 bowl","grams":300},
             "nutrients":{"energy":120,"sodium":480,"vitamin_c":12}}
            """#)
        _ = try await client.log(
            """
            {"food_id":"\(bar)","servings":2,"meal":"breakfast","time":"2024-03-13T08:00:00+01:00"},
            {"food_id":"\(soup)","servings":1.5,"meal":"Late snack","time":"2024-03-13T23:30:00-05:00","note":"cold, \\"again\\""},
            {"food_id":"\(soup)","meal":"lunch","time":"2024-03-14T12:00:00Z"},
            {"food_id":"\(bar)","serving":"100 g","servings":0.25,"meal":"snacks","time":"2024-03-14T16:00:00Z"}
            """)
        let preset = try await client.send(.post, "/api/v1/presets", json: #"{"name":"Soup lunch","food_id":"\#(soup)","servings":2}"#)
        #expect(preset.status == .created)
    }

    @Test func theJSONExportImportsBackIntoAnotherJournalUnchanged() async throws {
        let exported = try await withApp(returning: String.self) { client, _ in
            try await fill(client)
            let response = try await client.send(.get, "/api/v1/food-journal")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            #expect(response.headers[.contentDisposition] == #"attachment; filename="cinn-food-journal.json""#)
            return response.text
        }
        let document = try JSONDecoder().decode(JSON.self, from: Data(exported.utf8))
        #expect(document["format"]?.string == "cinn-food-journal")
        #expect(document["foods"]?.array?.count == 2)
        #expect(document["entries"]?.array?.count == 4)
        #expect(document["days"]?.array?.map { $0["date"]?.string } == ["2024-03-13", "2024-03-14"])

        try await withApp { client, journal in
            let first = try await client.send(.post, "/api/v1/food-journal", body: exported, contentType: "application/json")
            #expect(first.status == .created)
            let report = try first.json()
            #expect(report["imported"]?.double == 7)
            #expect(report["duplicates"]?.double == 0)
            #expect(try await client.send(.get, "/api/v1/food-journal").text == exported)
            #expect(
                try await client.send(.get, "/api/v1/days/2024-03-13").json()["meals"]?.array?.contains {
                    $0["meal"]?.string == "Late snack"
                } == true)

            let again = try await client.send(.post, "/api/v1/food-journal", body: exported, contentType: "application/json")
            #expect(again.status == .ok)
            #expect(try again.json()["imported"]?.double == 0)
            #expect(try again.json()["duplicates"]?.double == 7)

            let id = try #require(report["import_id"]?.double)
            #expect(try await client.send(.post, "/api/v1/imports/\(Int(id))/undo").status == .ok)
            #expect(try await journal.store.foodHistory(user: journal.user).isEmpty)
            #expect(try await journal.store.ownFoods(user: journal.user).isEmpty)
            #expect(try await journal.store.presets(user: journal.user).isEmpty)
            let back = try await client.send(.post, "/api/v1/food-journal", body: exported, contentType: "application/json")
            #expect(try back.json()["imported"]?.double == 7, "everything comes back")
        }
    }

    @Test func importingAnExportIntoItsOwnJournalAddsNothing() async throws {
        try await withApp { client, _ in
            try await fill(client)
            let exported = try await client.send(.get, "/api/v1/food-journal").text
            let response = try await client.send(.post, "/api/v1/food-journal", body: exported, contentType: "application/json")
            #expect(try response.json()["imported"]?.double == 0)
            #expect(try response.json()["duplicates"]?.double == 7)
        }
    }

    @Test func aFileWithBadRecordsIsRejectedWholeNamingThem() async throws {
        try await withApp { client, journal in
            try await fill(client)
            let exported = try await client.send(.get, "/api/v1/food-journal").text
            var document = try #require(try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? [String: Any])
            var entries = try #require(document["entries"] as? [[String: Any]])
            entries[1]["nutrients"] = ["energy": 100, "fat": -2]
            entries[2]["servings"] = 0
            document["entries"] = entries
            let broken = String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)

            try await withStore { other in
                let fresh = try await utcJournal(other)
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID()).json")
                try broken.write(to: file, atomically: true, encoding: .utf8)
                defer { try? FileManager.default.removeItem(at: file) }
                let report = try await fresh.importFoodJournal(at: file, fileName: nil, mode: ImportMode())
                #expect(report.rejected.map(\.line) == [2, 3])
                #expect(report.rejected.map(\.field) == ["entries[1].nutrients.fat", "entries[2].servings"])
                #expect(report.imported == 0)
                #expect(try await fresh.store.foodHistory(user: fresh.user).isEmpty)
                #expect(try await fresh.store.ownFoods(user: fresh.user).isEmpty)

                let skipping = try await fresh.importFoodJournal(at: file, fileName: nil, mode: ImportMode(skipInvalid: true))
                #expect(skipping.imported == 5)
            }
            try expectError(
                try await client.send(
                    .post, "/api/v1/food-journal", body: #"{"weigh_ins":[]}"#,
                    contentType: "application/json"), .unprocessableContent, code: "invalid_input", field: "file")
            #expect(try await journal.store.foodHistory(user: journal.user).count == 4)
        }
    }

    @Test func csvTablesNameEachNutrientsUnit() async throws {
        try await withApp { client, _ in
            try await fill(client)
            let entries = try await client.send(.get, "/api/v1/food-journal?format=csv").text.split(separator: "\n")
            #expect(entries.count == 5)
            let header = entries[0].split(separator: ",").map(String.init)
            #expect(header.prefix(4) == ["date", "time", "meal", "name"])
            #expect(header.contains("energy_kcal") && header.contains("sodium_mg") && header.contains("vitamin_d_ug"))
            #expect(entries[2].contains("\"Tomato soup, \"\"homemade\"\"\""))
            let days = try await client.send(.get, "/api/v1/food-journal?format=csv&table=days").text.split(separator: "\n")
            #expect(days.map { $0.prefix(13) } == ["date,entries,", "2024-03-13,2,", "2024-03-14,2,"])
            let foods = try await client.send(.get, "/api/v1/food-journal?format=csv&table=foods").text.split(separator: "\n")
            #expect(foods[0].hasPrefix("name,brand,barcode,basis,servings,id,energy_kcal_per_100"))
            try expectError(
                try await client.send(.get, "/api/v1/food-journal?format=csv&table=weeks"), .unprocessableContent,
                code: "invalid_input", field: "table")
        }
    }
}
