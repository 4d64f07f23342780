import CinnCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Today is 2024-03-15 (fixedNow), UTC.
@Suite("Profile, energy and today API")
struct EnergyAPITests {
    let profile = #"{"sex":"male","birth_date":"1994-03-15","height":"5 ft 9 in","activity":"moderate"}"#

    @Test func profileRoundTripsWithExactUnits() async throws {
        try await withApp { client, _ in
            let empty = try await client.send(.get, "/api/v1/profile").json()
            #expect(empty["complete"]?.bool == false)
            #expect(empty["sex"]?.isNull == true)
            let saved = try await client.send(
                .put, "/api/v1/profile",
                json:
                    #"{"sex":"male","birth_date":"1994-03-15","height":"5 ft 11 in","activity":"moderate","length_unit":"ft_in","mass_unit":"lb","goal_weight":160,"goal_rate_per_week":1}"#
            )
            #expect(saved.status == .ok)
            let json = try saved.json()
            #expect(try #require(json["height_cm"]?.double).isClose(to: 180.34))
            #expect(json["height"]?.string == "5 ft 11 in")
            #expect(json["activity_factor"]?.double == 1.55)
            #expect(json["complete"]?.bool == true)
            #expect(try #require(json["goal_weight"]?.double).isClose(to: 160))
            #expect(try #require(json["goal_rate_per_week"]?.double).isClose(to: 1))
            #expect(json["mass_unit"]?.string == "lb")
        }
    }

    @Test(arguments: [
        (#"{"height":"99 cm"}"#, "height"), (#"{"height_cm":251}"#, "height"), (#"{"birth_date":"2015-01-01"}"#, "birth_date"),
        (#"{"birth_date":"1890-01-01"}"#, "birth_date"), (#"{"birth_date":"2030-01-01"}"#, "birth_date"),
        (#"{"activity":"couch potato"}"#, "activity"), (#"{"sex":"x"}"#, "sex"),
        (#"{"goal_weight":80,"goal_rate_per_week":3}"#, "goal_rate"),
        (#"{"goal_weight":0}"#, "goal_weight"), (#"{"goal_rate_per_week":0.5}"#, "goal_weight"),
        (#"{"energy_floor_kcal":500}"#, "energy_floor_kcal"),
        (#"{"target_basis":"vibes"}"#, "target_basis"), (#"{"height":"180","height_cm":180}"#, "height"),
    ])
    func outOfRangeIs422NamingTheField(_ body: String, _ field: String) async throws {
        try await withApp { client, _ in
            try await client.send(.put, "/api/v1/profile", json: profile)
            let response = try await client.send(.put, "/api/v1/profile", json: body)
            #expect(response.status == .unprocessableContent)
            #expect(try response.json()["error"]?["field"]?.string == field)
            // Nothing changed.
            let after = try await client.send(.get, "/api/v1/profile").json()
            #expect(try #require(after["height_cm"]?.double).isClose(to: 175.26))
            #expect(after["activity"]?.string == "moderate")
        }
    }

    @Test func aPartialProfileNamesWhatIsMissing() async throws {
        try await withApp { client, _ in
            let response = try await client.send(.put, "/api/v1/profile", json: #"{"sex":"female","height":"165"}"#)
            #expect(response.status == .unprocessableContent)
            #expect(try response.json()["error"]?["field"]?.string == "birth_date")
        }
    }

    @Test func energyFromTheProfileAndTheTrend() async throws {
        try await withApp { client, _ in
            // 30 days at 80 kg: a 30-year-old man, 175.26 cm, moderate: (800 + 1095.375 − 150 + 5) × 1.55.
            for offset in 0..<30 {
                try await client.addWeighIn(80, date: LocalDate(iso: "2024-03-15")!.adding(days: -offset).iso)
            }
            try await client.send(.put, "/api/v1/profile", json: profile)
            let energy = try await client.send(.get, "/api/v1/energy?days=7").json()
            let expected: Double = (800 + 6.25 * 175.26 - 150 + 5) * 1.55
            #expect(try #require(energy["formula"]?["expenditure_kcal"]?.double).isClose(to: expected, within: 1e-6))
            #expect(energy["formula"]?["equation"]?.string == "mifflin_st_jeor")
            #expect(try #require(energy["maintenance_kcal"]?.double).isClose(to: expected, within: 1e-6))
            #expect(try #require(energy["target"]?["kcal"]?.double).isClose(to: expected, within: 1e-6))
            #expect(energy["adaptive"]?.isNull == true)
            #expect(energy["adaptive_status"]?.string?.contains("complete") == true)
            #expect(energy["days"]?.array?.count == 7)
            #expect(energy["this_week"]?["start"]?.string == "2024-03-11")

            // A goal 10 kg down at 0.5 kg a week takes 550 kcal off; a body-fat value switches to Katch–McArdle.
            try await client.send(.put, "/api/v1/profile", json: #"{"goal_weight":70,"goal_rate_per_week":0.5}"#)
            #expect(try await client.send(.post, "/api/v1/body-fat", json: #"{"percent":20}"#).status == .created)
            let after = try await client.send(.get, "/api/v1/energy?days=0").json()
            let katch: Double = (370 + 21.6 * 64) * 1.55
            #expect(after["formula"]?["equation"]?.string == "katch_mcardle")
            #expect(try #require(after["target"]?["kcal"]?.double).isClose(to: katch - 550, within: 1e-6))
            #expect(try #require(after["target"]?["adjustment_kcal"]?.double).isClose(to: -550))
            #expect(after["time_to_goal_planned"]?["date"]?.string == "2024-08-02")

            // The day view's target and calories to maintain are the energy report's, whichever expenditure the target follows.
            for basis in ["formula", "adaptive"] {
                try await client.send(.put, "/api/v1/profile", json: #"{"target_basis":"\#(basis)"}"#)
                let report = try await client.send(.get, "/api/v1/energy?days=0").json()
                let day = try await client.send(.get, "/api/v1/days/2024-03-15").json()
                #expect(
                    day["maintenance_kcal"] == report["maintenance_kcal"] && day["energy_target_kcal"] == report["target"]?["kcal"],
                    "\(basis)")
            }

            // A manual target always wins; clearing it brings the formula back.
            try await client.send(.put, "/api/v1/profile", json: #"{"energy_target_kcal":1900}"#)
            #expect(try await client.send(.get, "/api/v1/energy?days=0").json()["target"]?["source"]?.string == "manual")
            try await client.send(.put, "/api/v1/profile", json: #"{"energy_target_kcal":null}"#)
            #expect(try await client.send(.get, "/api/v1/energy?days=0").json()["target"]?["source"]?.string == "computed")
        }
    }

    @Test func todayCombinesTheBudgetAndTheTrend() async throws {
        try await withApp { client, _ in
            for offset in 0..<14 {
                try await client.addWeighIn(80 + Double(offset) * 0.1, date: LocalDate(iso: "2024-03-15")!.adding(days: -offset).iso)
            }
            try await client.send(.put, "/api/v1/profile", json: profile)
            try await client.send(.put, "/api/v1/profile", json: #"{"goal_weight":70,"goal_rate_per_week":0.25,"energy_target_kcal":2000}"#)
            let id = try await client.makeFood(#"{"name":"Feast","serving":{"label":"1 plate","grams":100},"nutrients":{"energy":400}}"#)
            var today = try await client.send(.get, "/api/v1/today").json()
            #expect(today["answer"]?.string == "yes")
            #expect(today["message"]?.string == "Yes — 2000 kcal left and your trend is on plan")
            _ = try await client.log(#"{"food_id":"\#(id)","servings":4.625,"meal":"dinner","time":"2024-03-15T11:00:00Z"}"#)
            today = try await client.send(.get, "/api/v1/today").json()
            #expect(today["message"]?.string == "Careful — 150 kcal left")
            #expect(today["remaining_kcal"]?.double == 150)
            _ = try await client.log(#"{"food_id":"\#(id)","servings":1,"meal":"snacks","time":"2024-03-15T11:30:00Z"}"#)
            today = try await client.send(.get, "/api/v1/today").json()
            #expect(today["answer"]?.string == "no")
            #expect(today["message"]?.string == "No — 250 kcal over, though your trend is on plan")
        }
    }

    @Test func dayStatusMarksAndClears() async throws {
        try await withApp { client, journal in
            #expect(try await client.send(.put, "/api/v1/days/2024-03-14/status", json: #"{"status":"complete"}"#).status == .ok)
            #expect(try await journal.store.dayStatuses(user: journal.user) == [LocalDate(iso: "2024-03-14")!: .complete])
            try await client.send(.put, "/api/v1/days/2024-03-14/status", json: #"{"status":"partial"}"#)
            #expect(try await journal.store.dayStatuses(user: journal.user) == [LocalDate(iso: "2024-03-14")!: .partial])
            try await client.send(.put, "/api/v1/days/2024-03-14/status", json: #"{"status":null}"#)
            #expect(try await journal.store.dayStatuses(user: journal.user).isEmpty)
            let future = try await client.send(.put, "/api/v1/days/2024-03-16/status", json: #"{"status":"complete"}"#)
            #expect(future.status == .unprocessableContent)
            let bad = try await client.send(.put, "/api/v1/days/2024-03-14/status", json: #"{"status":"done"}"#)
            #expect(try bad.json()["error"]?["field"]?.string == "status")
            #expect(try await client.send(.post, "/api/v1/body-fat", json: #"{"percent":90}"#).status == .unprocessableContent)
        }
    }

    @Test func theDayViewShowsCaloriesToMaintain() async throws {
        try await withApp { client, _ in
            try await client.addWeighIn(80, date: "2024-03-15")
            try await client.send(.put, "/api/v1/profile", json: profile)
            let day = try await client.send(.get, "/api/v1/days/2024-03-15").json()
            let expected: Double = (800 + 6.25 * 175.26 - 150 + 5) * 1.55
            let maintenance = try #require(day["maintenance_kcal"]?.double)
            #expect(maintenance.isClose(to: expected, within: 1e-6))
            let page = try await client.send(.get, "/food/2024-03-15").text
            #expect(page.contains("Calories to maintain: 2713 kcal"))
            #expect(page.contains(#"id="day-status""#))
        }
    }
}

extension Double {
    func isClose(to other: Double, within tolerance: Double = 1e-9) -> Bool { abs(self - other) <= tolerance }
}

@Suite("MyFitnessPal import over the API")
struct MyFitnessPalAPITests {
    @Test func theZipIsDetectedImportedOnceAndUndone() async throws {
        try await withApp { client, journal in
            let url = try #require(Bundle.module.url(forResource: "mfp-export", withExtension: "zip", subdirectory: "Fixtures"))
            let zip = ByteBuffer(bytes: try Data(contentsOf: url))
            let first = try await client.execute(uri: "/api/v1/imports?file_name=export.zip", method: .post, headers: [:], body: zip)
            #expect(first.status == .created)
            let report = try first.json()
            #expect(report["format"]?.string == "myfitnesspal")
            #expect(report["imported"]?.double == 21)
            let again = try await client.execute(uri: "/api/v1/imports", method: .post, headers: [:], body: zip)
            #expect(try again.json()["duplicates"]?.double == 21)
            let day = try await client.send(.get, "/api/v1/days/2024-03-01").json()
            #expect(day["exercise_kcal"]?.double == 212)
            #expect(day["meals"]?.array?.count == 4)
            let weighIns = try await client.send(.get, "/api/v1/weigh-ins?unit=lb").json()
            #expect(weighIns["weigh_ins"]?.array?.count == 4)
            let csv = try await client.send(
                .post, "/api/v1/imports?format=myfitnesspal&file_name=Measurement-Summary.csv",
                body: "Date,Weight\n2024-03-09,158.0\n", contentType: "text/csv")
            #expect(csv.status == .unprocessableContent)
            #expect(try csv.json()["error"]?["field"]?.string == "unit")
            let importID = Int64(try #require(report["import_id"]?.double))
            #expect(try await journal.store.undoImport(id: importID, user: journal.user) == 21)
        }
    }
}
