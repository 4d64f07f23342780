import CinnCore
import CinnJournal
import CinnServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Lifts and workouts: import, API and pages")
struct WorkoutAPITests {
    /// Fitbod rows: bench 100 kg × 5 twice (identical, both kept) and 110 kg × 3 a week later, a warm-up, a plank.
    static let fitbod = """
        Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),Incline,Resistance,isWarmup,Note,multiplier
        2024-03-14 18:00:00 +0000,Barbell Bench Press,10,40,0,0,0,0,true,,1
        2024-03-14 18:00:00 +0000,Barbell Bench Press,3,110,0,0,0,0,false,"Paused, felt strong",1
        2024-03-14 18:00:00 +0000,Plank,0,0,60,0,0,0,false,,0
        2024-03-07 18:00:00 +0000,Barbell Bench Press,5,100,0,0,0,0,false,,1
        2024-03-07 18:00:00 +0000,Barbell Bench Press,5,100,0,0,0,0,false,,1
        2024-03-07 18:00:00 +0000,Back Squat,5,140,0,0,0,0,false,,1
        """

    @Test func anExerciseNotDoneLatelyShowsItsBestEver() async throws {
        try await withApp { client, _ in
            let older =
                Self.fitbod + "\n2024-01-10 18:00:00 +0000,Deadlift,3,180,0,0,0,0,false,,1\n"
                + "2024-01-03 18:00:00 +0000,Deadlift,1,190,0,0,0,0,false,,1"
            _ = try await client.importFile(older)
            let exercises = try #require(try await client.send(.get, "/api/v1/exercises").json()["exercises"]?.array)
            let deadlift = try #require(exercises.first { $0["name"]?.string == "Deadlift" })
            #expect(deadlift["current"] == .null, "last done more than 30 days ago")
            #expect(deadlift["best"]?["value_kg"] == .number(180.0 * 36 / 34), "180 × 3 (190.59 by Brzycki) beats the single of 190")
            #expect(deadlift["best"]?["set"]?["date"]?.string == "2024-01-10")
            #expect(
                exercises.first { $0["name"]?.string == "Barbell Bench Press" }?["best"] == .null, "only for exercises not done in 30 days")
            #expect(exercises.first { $0["name"]?.string == "Plank" }?["best"] == .null, "done lately, without any estimate")
            let page = try await client.send(.get, "/lifts").text
            #expect(page.contains("best ever 190 kg"))
        }
    }

    @Test func importedLiftsAnswerThroughTheAPI() async throws {
        try await withApp { client, journal in
            let imported = try await client.importFile(Self.fitbod)
            #expect(imported.status == .created || imported.status == .ok)
            #expect(try imported.json()["imported"] == .number(6))
            let again = try await client.importFile(Self.fitbod)
            #expect(try again.json()["imported"] == .number(0))
            #expect(try again.json()["duplicates"] == .number(6))

            let list = try await client.send(.get, "/api/v1/exercises").json()
            let exercises = try #require(list["exercises"]?.array)
            #expect(exercises.map { $0["name"]?.string } == ["Barbell Bench Press", "Plank", "Back Squat"], "most recently done first")
            #expect(exercises[0]["current"]?["shown"]?.string == "116 kg", "110 × 36 / 34 = 116.47, truncated")
            #expect(exercises[0]["current"]?["set"]?["reps"] == .number(3))
            #expect(exercises[1]["current"] == .null)

            let bench = try #require(exercises[0]["id"]?.string)
            let page = try await client.send(.get, "/api/v1/exercises/\(bench)").json()
            #expect(page["best"]?["value_kg"] == .number(110.0 * 36 / 34))
            #expect(page["best"]?["workout_id"]?.string != nil, "every estimate names the set and workout it came from")
            #expect(page["history"]?.array?.map { $0["date"]?.string } == ["2024-03-07", "2024-03-14"])
            #expect(page["history"]?.array?.first?["estimate"] == .number(112.5), "Brzycki 100 × 5")
            #expect(page["rep_maxes"]?.array?.count == 5)
            #expect(page["heaviest"]?["weight"] == .number(110))
            #expect(page["total_sets"] == .number(4))
            let byName = try await client.send(.get, "/api/v1/exercises/bench%20press%20(barbell)")
            #expect(byName.status == .ok, "an exercise is found by any spelling of its name")

            let workouts = try await client.send(.get, "/api/v1/workouts").json()
            #expect(workouts["total"] == .number(2))
            let latest = try #require(workouts["workouts"]?.array?.first)
            #expect(latest["sets"] == .number(3))
            let detail = try await client.send(.get, "/api/v1/workouts/\(try #require(latest["id"]?.string))").json()
            #expect(detail["sets"]?.array?.map { $0["kind"]?.string } == ["warmup", "working", "working"])
            #expect(detail["sets"]?.array?[1]["note"]?.string == "Paused, felt strong")
            #expect(detail["sets"]?.array?[1]["estimate"]?.string == "116 kg")
            #expect(detail["sets"]?.array?[2]["duration_s"] == .number(60))

            let formula = try await client.send(.put, "/api/v1/lifts/formula", json: #"{"formula":"epley"}"#)
            #expect(formula.status == .ok)
            let epley = try await client.send(.get, "/api/v1/exercises/\(bench)").json()
            #expect(epley["formula"]?.string == "epley")
            try expectError(
                try await client.send(.put, "/api/v1/lifts/formula", json: #"{"formula":"guess"}"#), .unprocessableContent,
                code: "invalid_input", field: "formula")
            try expectError(try await client.send(.get, "/api/v1/exercises/deadlift"), .notFound, code: "not_found")
            _ = journal
        }
    }

    @Test func aliasesMergeHistories() async throws {
        try await withApp { client, _ in
            _ = try await client.importFile(
                Self.fitbod.replacingOccurrences(of: "2024-03-07 18:00:00 +0000,Back Squat", with: "2024-03-07 18:00:00 +0000,Flat Bench"))
            let merged = try await client.send(
                .put, "/api/v1/exercises/Flat%20Bench/alias-of", json: #"{"exercise":"Barbell Bench Press"}"#)
            #expect(merged.status == .ok)
            #expect(try merged.json()["aliases"] == .array([.string("Flat Bench")]))
            let page = try await client.send(.get, "/api/v1/exercises/Barbell%20Bench%20Press").json()
            #expect(page["heaviest"]?["weight"] == .number(140), "the alias's sets count")
            #expect(try await client.send(.delete, "/api/v1/exercises/Flat%20Bench/alias-of").status == .noContent)
            let separate = try await client.send(.get, "/api/v1/exercises/Barbell%20Bench%20Press").json()
            #expect(separate["heaviest"]?["weight"] == .number(110))
        }
    }

    @Test func aBadFileIsRejectedWholeNamingEveryLine() async throws {
        try await withApp { client, journal in
            let bad =
                Self.fitbod
                + "\n2024-03-15 18:00:00 +0000,Deadlift,five,100,0,0,0,0,false,,1\n2024-03-15 18:00:00 +0000,Deadlift,5,-100,0,0,0,0,false,,1"
            let response = try await client.importFile(bad)
            #expect(response.status == .unprocessableContent)
            let text = response.text
            #expect(text.contains("\"line\":8") && text.contains("\"line\":9"))
            #expect(try await journal.store.workoutCount(user: journal.user) == 0)
            let skipped = try await client.importFile(bad, query: "skip_invalid=true")
            #expect(try skipped.json()["imported"] == .number(6))
            let unknown = try await client.importFile("Lift;Load\nSquat;100\n")
            try expectError(unknown, .unprocessableContent, code: "invalid_input", field: "file")
            #expect(unknown.text.contains("Fitbod") && unknown.text.contains("\\\"Lift\\\""))
        }
    }

    @Test func pagesShowTheLifts() async throws {
        try await withApp { client, journal in
            let empty = try await client.send(.get, "/lifts").text
            #expect(empty.contains("No sets yet. Start a workout above"))
            _ = try await client.importFile(Self.fitbod)
            let lifts = try await client.send(.get, "/lifts").text
            #expect(lifts.contains("Barbell Bench Press") && lifts.contains("116 kg") && lifts.contains("from 110 kg × 3"))
            let bench = try await journal.exercise(named: "Barbell Bench Press").root.id.uuidString.lowercased()
            let page = try await client.send(.get, "/lifts/\(bench)").text
            #expect(page.contains("<svg") && page.contains("id=\"strength-chart\""))
            #expect(page.contains("Current 1RM") && page.contains("Best ever") && page.contains("Heaviest set"))
            #expect(page.contains("Thu 14 Mar: 116 kg, from 110 kg × 3"), "each point names its set")
            let workouts = try await client.send(.get, "/workouts").text
            #expect(workouts.contains("Barbell Bench Press, Plank"))
            let workout = try #require(try await journal.store.workouts(user: journal.user, limit: 1).first)
            let detail = try await client.send(.get, "/workouts/\(workout.id.uuidString.lowercased())").text
            #expect(detail.contains("110 kg × 3") && detail.contains("warm-up") && detail.contains("1 min"))
            #expect(detail.contains(" · from Fitbod"), "an import's app by its name")
            #expect(
                try await client.post("/lifts/formula", form: "formula=lander").headers[.location] == "/lifts?done=formula-saved#notice")
            #expect(
                try await client.send(.get, "/lifts?done=formula-saved").text.contains("Formula saved; every one-rep max below uses it."))
            #expect(try await journal.settings().oneRepMaxFormula == .lander)
            // Deleting asks first, as a weigh-in's does: the detail page links to a question, which changes nothing.
            let id = workout.id.uuidString.lowercased()
            #expect(detail.contains(#"<a class="button secondary" href="/workouts/\#(id)/delete">Delete this workout</a>"#))
            let question = try await client.send(.get, "/workouts/\(id)/delete").text
            #expect(
                question.contains("<h1>Delete this workout?</h1>")
                    && question.contains(#"<form method="post" action="/workouts/\#(id)/delete""#))
            #expect(question.contains(#"href="/workouts/\#(id)">Keep it</a>"#))
            #expect(try await journal.store.workoutCount(user: journal.user) == 2)
            #expect(
                try await client.post("/workouts/\(id)/delete", form: "").headers[.location]
                    == "/workouts?done=workout-deleted#notice")
            #expect(
                try await client.send(.get, "/workouts?done=workout-deleted").text.contains(
                    #"<p class="notice card" role="status" id="notice">Workout deleted.</p>"#))
            #expect(try await journal.store.workoutCount(user: journal.user) == 1)
        }
    }
}
