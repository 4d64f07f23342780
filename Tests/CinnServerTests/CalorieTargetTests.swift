import CinnCore
import CinnJournal
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The daily calorie target, set in one place (the Targets page, or the profile in the API), following the data by
/// default and moving at most once a week with the change shown; on both databases. Today is Friday 2024-03-15.
@Suite struct CalorieTargetTests {
    /// A 30-year-old man, 175.26 cm, moderately active: the formula is about 2800 kcal at 86 kg.
    let profile = #"{"sex":"male","birth_date":"1994-03-15","height":"5 ft 9 in","activity":"moderate"}"#

    /// 50 days of weigh-ins to today losing 0.5 kg a week from 90 kg, and `completeFrom` on: complete days of 2000 kcal.
    func seed(_ client: any TestClientProtocol, completeFrom: LocalDate?) async throws {
        let today = LocalDate(iso: "2024-03-15")!
        for offset in 0..<50 {
            try await client.addWeighIn(90 - 0.5 / 7 * Double(49 - offset), date: today.adding(days: offset - 49).iso)
        }
        try await client.send(.put, "/api/v1/profile", json: profile)
        guard let completeFrom else { return }
        var entries: [String] = []
        var day = completeFrom
        while day <= today {
            entries.append(#"{"energy_kcal":2000,"time":"\#(day.iso)T12:00:00Z"}"#)
            day = day.adding(days: 1)
        }
        let logged = try await client.send(.post, "/api/v1/food-entries", json: #"{"entries":[\#(entries.joined(separator: ","))]}"#)
        #expect(logged.status == .created, "\(logged.text)")
        day = completeFrom
        while day <= today {
            try await client.send(.put, "/api/v1/days/\(day.iso)/status", json: #"{"status":"complete"}"#)
            day = day.adding(days: 1)
        }
    }

    @Test(arguments: Database.enabled)
    func oneTargetSetOnTheTargetsPage(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            try await seed(client, completeFrom: nil)
            let energy = try await client.send(.get, "/api/v1/energy?days=0").json()
            let formula = try #require(energy["formula"]?["expenditure_kcal"]?.double)
            #expect(energy["target"]?["basis"]?.string == "adaptive", "a new journal follows the data")
            #expect(energy["target"]?["maintenance_source"]?.string == "formula", "until the log gives an estimate")
            #expect(energy["target"]?["kcal"]?.double == formula)
            let targets = try await client.send(.get, "/api/v1/targets").json()
            #expect(targets["energy"]?["follows"]?.string == "adaptive" && targets["energy"]?["kcal"]?.double == formula)
            #expect(targets["energy"]?["change"]?.isNull == true)

            // Settings and the profile say where the target is set; only the Targets page sets it.
            let shown = "\(Int(formula.rounded())) kcal"
            let settings = try await client.send(.get, "/settings").text
            #expect(!settings.contains(#"name="energy_target""#))
            #expect(settings.contains(#"href="/settings/targets" id="targets-link">Targets: daily calories (\#(shown))"#))
            let profilePage = try await client.send(.get, "/profile").text
            #expect(!profilePage.contains(#"name="target_basis""#) && profilePage.contains(#"id="calorie-target-link""#))
            var page = try await client.send(.get, "/settings/targets").text
            #expect(page.contains("<h2 class=\"first\">Daily calories: \(shown)</h2>"))
            #expect(page.contains(#"<input type="radio" name="follows" value="adaptive" checked>"#))
            #expect(page.contains("from the formula until your log gives an estimate"))

            // Your own number without the number, or a floor out of range: the field is named, nothing is saved.
            let missing = try await client.post("/settings/targets/calories", form: "follows=own&own_kcal=&floor=")
            #expect(missing.status == .unprocessableContent)
            #expect(
                missing.text.contains(#"<p id="own-kcal-error" class="field-error" role="alert">type your own daily target in kcal</p>"#))
            #expect(missing.text.contains(#"<input type="radio" name="follows" value="own" checked>"#), "the choice typed comes back")
            let floor = try await client.post("/settings/targets/calories", form: "follows=formula&own_kcal=&floor=100")
            #expect(floor.status == .unprocessableContent && floor.text.contains("a calorie floor must be between 800 and 3000 kcal"))
            let unchanged = try await journal.settings()
            #expect(unchanged.targetBasis == .adaptive && unchanged.energyFloorKcal == nil)

            let own = try await client.post("/settings/targets/calories", form: "follows=own&own_kcal=1900&floor=")
            #expect(own.headers[.location] == "/settings/targets?done=calorie-target#notice")
            #expect(try await journal.settings().energyTargetKcal == 1900)
            page = try await client.send(.get, "/settings/targets?done=calorie-target").text
            #expect(page.contains("Calorie target saved") && page.contains("Daily calories: 1900 kcal") && page.contains("your own target"))
            #expect(try await client.send(.get, "/api/v1/days/2024-03-15").json()["energy_target_kcal"]?.double == 1900)
            #expect(try await client.send(.get, "/energy").text.contains("Daily target: 1900 kcal"))

            // Back to the formula: the own number is cleared, the floor kept.
            #expect(
                try await client.post("/settings/targets/calories", form: "follows=formula&own_kcal=1900&floor=1400").status == .seeOther)
            let saved = try await journal.settings()
            #expect(saved.targetBasis == .formula && saved.energyTargetKcal == nil && saved.energyFloorKcal == 1400)
            let api = try await client.send(.get, "/api/v1/targets").json()["energy"]
            #expect(api?["follows"]?.string == "formula" && api?["floor_kcal"]?.double == 1400 && api?["own_kcal"]?.isNull == true)
        }
    }

    @Test(arguments: Database.enabled)
    func theTargetFollowsTheDataAndSaysWhyItMoved(_ database: Database) async throws {
        try await withApp(on: database) { client, _ in
            // Complete days from Monday 19 February: the window ending Sunday 10 March qualifies, the one before does not.
            try await seed(client, completeFrom: LocalDate(iso: "2024-02-19")!)
            let energy = try await client.send(.get, "/api/v1/energy?days=0").json()
            let target = try #require(energy["target"])
            #expect(target["maintenance_source"]?.string == "best_estimate")
            #expect(target["maintenance_as_of"]?.string == "2024-03-10")
            let formula = try #require(energy["formula"]?["expenditure_kcal"]?.double)
            let kcal = try #require(target["kcal"]?.double)
            #expect(kcal < formula - 100, "eating 2000 kcal and losing 0.5 kg a week is about 2550 kcal, not \(formula)")
            let change = try #require(target["change"])
            #expect(change["since"]?.string == "2024-03-11")
            #expect(change["to_kcal"]?.double == kcal)
            #expect(change["reason"]?.string == "your last 3 weeks say you burn less than the formula")
            let message = try #require(change["message"]?.string)
            #expect(
                message
                    == "Your target moved from \(Int(try #require(change["from_kcal"]?.double).rounded())) to \(Int(kcal.rounded())) kcal: "
                    + "your last 3 weeks say you burn less than the formula.")
            #expect(try await client.send(.get, "/api/v1/targets").json()["energy"]?["change"]?["message"]?.string == message)
            // The day's budget is this target, and the day says how it moved.
            let day = try await client.send(.get, "/api/v1/days/2024-03-15").json()
            #expect(day["energy_target_kcal"]?.double == kcal && day["target_change"]?["message"]?.string == message)
            let page = try await client.send(.get, "/energy").text
            #expect(page.contains("<p id=\"target-change\">\(message)</p>"))
            #expect(page.contains("best estimate at the end of 10 Mar; it moves on Mondays"))
            #expect(page.contains(#"<div id="figure-best"><span>Best estimate</span>"#), "the blend the CLI prints is on the page too")
            #expect(try await client.send(.get, "/settings/targets").text.contains("<p id=\"target-change\">\(message)</p>"))
            // Today's food log says so too; a day of another week does not.
            #expect(
                try await client.send(.get, "/food").text.contains(
                    #"<p class="muted" id="target-change">\#(message) <a href="/energy#target">"#))
            #expect(!(try await client.send(.get, "/food/2024-03-08").text.contains(#"id="target-change""#)))
        }
    }
}
