import CinnCore
import CinnJournal
import CinnServer
import CinnStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Research export")
struct ResearchExportTests {
    func fill(_ client: any TestClientProtocol) async throws {
        let meal = try #require(
            try await client.send(.post, "/api/v1/meals", json: #"{"name":"Secret porridge","carbohydrate_g":45}"#).json()["id"]?.string)
        for (time, value) in [
            ("07:50", 100), ("08:15", 120), ("08:30", 150), ("08:45", 130), ("09:00", 90), ("09:30", 80), ("10:00", 110), ("10:30", 140),
        ] {
            try await client.send(
                .post, "/api/v1/glucose",
                json: #"{"value":\#(value),"unit":"mg/dL","time":"2024-03-14T\#(time):00Z","note":"my secret note"}"#)
        }
        try await client.send(
            .post, "/api/v1/insulin", json: #"{"units":4,"kind":"bolus","insulin":"Humalog","time":"2024-03-14T07:45:00Z"}"#)
        let event = try #require(
            try await client.send(.post, "/api/v1/meal-events", json: #"{"meal_id":"\#(meal)","time":"2024-03-14T08:00:00Z"}"#).json()[
                "id"]?.string)
        try await client.send(.put, "/api/v1/meal-events/\(event)/report", json: #"{"reason":"spoke to Dr Who"}"#)
        try await client.addWeighIn(80, date: "2024-03-14")
        let food = try await client.makeFood()
        _ = try await client.log(#"{"food_id":"\#(food)","servings":1,"meal":"breakfast","time":"2024-03-14T08:00:00Z"}"#)
    }

    @Test func everyTableWithADictionary() async throws {
        try await withApp { client, _ in
            try await fill(client)
            let export = try await client.send(.get, "/api/v1/research-export").json()
            let tables = try #require(export["tables"])
            #expect(tables["glucose"]?.array?.count == 8 && tables["insulin"]?.array?.count == 1 && tables["weight"]?.array?.count == 1)
            let event = try #require(tables["meal_events"]?.array?.first)
            #expect(
                event["baseline_mg_dl"] == .number(100) && event["peak_mg_dl"] == .number(150)
                    && event["incremental_area_mg_dl_min"] == .number(1494))
            #expect(
                event["reported"] == .bool(true) && event["report_reason"]?.string == "spoke to Dr Who" && event["meal"]?.string == "M1")
            #expect(tables["meals"]?.array?.first?["name"]?.string == "Secret porridge")
            // The breakfast logged in the food log is a meal event too, of a meal named by its foods.
            #expect(event["source"]?.string == "meal_event")
            let diary = try #require(tables["meal_events"]?.array?.last)
            #expect(tables["meal_events"]?.array?.count == 2 && diary["source"]?.string == "diary" && diary["meal"]?.string == "M2")
            #expect(diary["carbohydrate_g"] == .number(24) && diary["peak_mg_dl"] == .number(150) && diary["reported"] == .bool(false))
            let granola = tables["meals"]?.array?.last
            #expect(
                granola?["kind"]?.string == "diary" && granola?["name"]?.string == "Granola bar"
                    && granola?["foods"]?.string == "Granola bar:40")
            #expect(tables["food"]?.array?.first?["energy_kcal"] == .number(180))
            let dictionary = export["dictionary"]?.array ?? []
            for name in ["glucose", "meal_events", "food", "insulin", "meals", "weight", "participants"] {
                let documented = Set(dictionary.filter { $0["table"]?.string == name }.compactMap { $0["column"]?.string })
                guard case .object(let row)? = tables[name]?.array?.first else {
                    Issue.record("no \(name) row")
                    continue
                }
                #expect(Set(row.keys) == documented, "every column of \(name) is in the dictionary")
            }
            let csv = try await client.send(.get, "/api/v1/research-export?format=csv&table=glucose")
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(csv.text.hasPrefix("participant,time,glucose_mg_dl,timing,source\r\nlocal,2024-03-14T07:50:00+00:00,100,,manual\r\n"))
            #expect(
                try await client.send(.get, "/api/v1/research-export?format=csv&table=dictionary").text.contains(
                    "glucose,glucose_mg_dl,number,mg/dL,"))
            try expectError(
                try await client.send(.get, "/api/v1/research-export?format=csv&table=secrets"), .unprocessableContent,
                code: "invalid_input", field: "table")
            try expectError(
                try await client.send(.get, "/api/v1/research-export?table=secrets"), .unprocessableContent, code: "invalid_input",
                field: "table")
            try expectError(try await client.send(.get, "/api/v1/research-export?scope=study"), .forbidden, code: "forbidden")
        }
    }

    @Test func deidentifiedExportsShiftEachParticipantsDatesAndDropWhatPeopleWrote() async throws {
        try await withApp { client, _ in
            try await fill(client)
            let plain = try await client.send(.get, "/api/v1/research-export").text
            let text = try await client.send(.get, "/api/v1/research-export?deidentify=true").text
            for secret in ["Secret porridge", "Dr Who", "Humalog", "Granola", "2024-03-14", #""participant":"local""#] {
                #expect(plain.contains(secret), "the plain export has \(secret)")
                #expect(!text.contains(secret), "the de-identified one has no \(secret)")
            }
            let export = try JSONDecoder().decode(JSON.self, from: Data(text.utf8))
            let tables = try #require(export["tables"])
            #expect(tables["glucose"]?.array?.allSatisfy { $0["participant"]?.string == "P001" } == true)
            // One shift for the participant: the meal still starts 10 minutes after the first reading, at the same time of day.
            let first = try #require(tables["glucose"]?.array?.first?["time"]?.string),
                meal = try #require(tables["meal_events"]?.array?.first?["time"]?.string)
            #expect(first.hasSuffix("T07:50:00+00:00") && meal.hasSuffix("T08:00:00+00:00") && first.prefix(10) == meal.prefix(10))
            #expect(
                tables["meal_events"]?.array?.first?["report_reason"] == .null
                    && tables["meal_events"]?.array?.first?["reported"] == .bool(true))
        }
    }

    @Test func anAdministratorExportsTheStudy() async throws {
        try await withStore { store in
            let journal = try await utcJournal(store)
            let accounts = Accounts(store: store, configuration: AccountsConfiguration(signUp: .open, bcryptCost: 4))
            try await Application(router: buildRouter(journal: journal, accounts: accounts)).test(.router) { client in
                let admin = try await accounts.addUser(name: "coordinator", password: "coordinator-1", role: .admin)
                let member = try await accounts.addUser(name: "participant1", password: "participant-1", role: .member)
                for account in [admin, member] {
                    try await accounts.store.saveSettings(UserSettings(timeZoneIdentifier: "UTC", onboarded: true), user: account.user)
                    _ = try await journal.forUser(account.user).addGlucose(
                        value: 100, unit: .milligramsPerDeciliter, time: "2024-03-14T08:00:00Z", timing: nil, note: nil)
                }
                let adminToken = try await accounts.createToken(name: "t", user: admin.user).secret
                let memberToken = try await accounts.createToken(name: "t", user: member.user).secret
                let study = try await client.execute(
                    uri: "/api/v1/research-export?scope=study&deidentify=true", method: .get,
                    headers: [.authorization: "Bearer " + adminToken], body: nil)
                let participants = try study.json()["tables"]?["participants"]?.array?.compactMap { $0["participant"]?.string }
                #expect(participants == ["P001", "P002"])
                let refused = try await client.execute(
                    uri: "/api/v1/research-export?scope=study", method: .get,
                    headers: [.authorization: "Bearer " + memberToken], body: nil)
                #expect(refused.status == .forbidden)
                let own = try await client.execute(
                    uri: "/api/v1/research-export", method: .get, headers: [.authorization: "Bearer " + memberToken], body: nil)
                #expect(try own.json()["tables"]?["participants"]?.array?.compactMap { $0["participant"]?.string } == ["participant1"])
            }
        }
    }
}
