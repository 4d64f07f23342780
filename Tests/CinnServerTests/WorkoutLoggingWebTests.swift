import CinnCore
import CinnJournal
import CinnServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Logging a workout in the web app")
struct WorkoutLoggingWebTests {
    @Test(arguments: Database.enabled)
    func startFromARoutineLogSetsReloadAndFinish(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            _ = try await client.send(
                .post, "/api/v1/workouts",
                json: WorkoutLoggingAPITests.workout(
                    "2024-03-08T18:00:00Z",
                    #"""
                    {"exercise":"Squat","weight":100,"reps":5},{"exercise":"Squat","weight":100,"reps":5},{"exercise":"Squat","weight":95,"reps":6}
                    """#, name: "Legs"))
            let routine = try await client.send(
                .post, "/api/v1/routines",
                json: #"""
                    {"name":"Legs","exercises":[{"exercise":"Squat","sets":3,"reps":5,"weight":102.5,"rest_s":180},{"exercise":"Leg Curl","sets":2,"reps":12}]}
                    """#
            ).json()
            let routineID = try #require(routine["id"]?.string)
            let lifts = try await client.send(.get, "/lifts").text
            #expect(lifts.contains("Start a workout") && lifts.contains(">Legs</button>"))

            let started = try await client.post("/workouts/start", form: "routine=\(routineID)")
            #expect(started.status == .seeOther)
            let path = try #require(started.headers[.location])
            #expect(path.hasPrefix("/workouts/") && path.hasSuffix("/log"))
            let id = String(path.dropFirst("/workouts/".count).dropLast("/log".count))

            let page = try await client.send(.get, path).text
            #expect(page.contains("<h1>Legs</h1>"))
            #expect(try await client.send(.get, "/workouts/\(id)").text.contains("from Manual") == false, "logged here, from nowhere else")
            #expect(page.contains("Last time, Fri 8 Mar 2024: 100 kg × 5, 100 kg × 5, 95 kg × 6"), "last time's sets beside the new rows")
            #expect(page.contains(#"name="weight" inputmode="decimal" value="102.5""#), "the routine's own target, 3 × 5 @ 102.5 kg")
            #expect(
                !page.contains(#"name="weight" inputmode="decimal" value="100""#)
                    && !page.contains(#"name="reps" inputmode="numeric" value="6""#),
                "not last time's sets instead of the routine's")
            #expect(page.ranges(of: #"name="reps" inputmode="numeric" value="5""#).count == 3, "three rows of the routine's five reps")
            #expect(page.contains("20 kg bar + "), "the plates for a barbell's weight")
            #expect(page.contains("Seated Leg Curl"), "the routine's second exercise, planned")
            #expect(page.contains(#"<script src="/static/workout-log.js"></script>"#))

            let done = try await client.post(
                "/workouts/\(id)/sets", form: "exercise=Barbell+Squat&weight=102.5&reps=5&kind=working&rest=180")
            #expect(done.status == .seeOther)
            let back = try #require(done.headers[.location])
            #expect(back.hasPrefix("/workouts/\(id)/log?rest=180&at=") && back.hasSuffix("#exercise-barbell-squat"), "\(back)")

            // Reloading (or coming back after closing the phone) finds the set saved and the rest running.
            let reloaded = try await client.send(.get, String(back.prefix { $0 != "#" })).text
            #expect(reloaded.contains("102.5 kg × 5"))
            #expect(reloaded.contains("★ New best estimated 1RM, 5-rep max, heaviest set<"), "not the set volume: 95 × 6 was more")
            #expect(reloaded.contains("rest-timer") && reloaded.contains("<b>Rest 180 s</b>"))
            for at in ["9223372036854775807", "-9223372036854775808", "1"] {
                let odd = try await client.send(.get, "/workouts/\(id)/log?rest=180&at=\(at)")
                #expect(odd.status == .ok && !odd.text.contains("rest-timer"), "a rest time that is not now's is left out")
            }
            #expect(try await client.send(.get, "/lifts").text.contains("In progress:</b> Legs, started 12:00 · 1 set done"))

            try #expect(await client.post("/workouts/\(id)/exercises", form: "exercise=pull+up").status == .seeOther)
            #expect(try await client.send(.get, path).text.contains(">Pull Up</a>") == false, "a new exercise has no page yet")
            #expect(try await client.send(.get, path).text.contains("<h2 class=\"first\">Pull Up</h2>"))
            let bad = try await client.execute(
                uri: "/workouts/\(id)/sets", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded", .referer: "http://localhost\(path)"],
                body: ByteBuffer(string: "exercise=Pull+Up&reps=0"))
            #expect(bad.status == .unprocessableContent)
            #expect(bad.text.contains("set.reps must be between 1 and 100"))
            #expect(bad.text.contains(#"<a href="\#(path)">Go back</a>"#), "back to the workout being logged")
            let elsewhere = try await client.execute(
                uri: "/workouts/\(id)/sets", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded", .referer: "https://evil.example\(path)"],
                body: ByteBuffer(string: "exercise=Pull+Up&reps=0"))
            #expect(elsewhere.text.contains(#"<a href="/">Go back</a>"#), "never to another site")
            #expect(try await client.post("/workouts/\(id)/sets/9223372036854775807/delete", form: "").status == .notFound)
            #expect(
                try await client.post("/workouts/\(id)/sets", form: "exercise=Pull+Up&reps=8&position=9223372036854775807").status
                    == .notFound)
            _ = try await client.post("/workouts/\(id)/sets", form: "exercise=Pull+Up&reps=8&rpe=8.5&note=strict&rest=90")

            let finished = try await client.post("/workouts/\(id)/finish", form: "")
            #expect(finished.headers[.location] == "/workouts/\(id)?finished=1")
            let summary = try await client.send(.get, "/workouts/\(id)?finished=1").text
            #expect(summary.contains("Workout done") && summary.contains("3 new records, marked ★ below."))
            #expect(summary.contains(#"<li class="record">102.5 kg × 5"#))
            #expect(summary.contains("<span>Sets</span><b>2</b>"))
            #expect(summary.contains("RPE 8.5"))
            let squat = try await journal.exercise(named: "Squat").root.id.uuidString.lowercased()
            #expect(try await client.send(.get, "/lifts/\(squat)").text.contains("★ new"), "the record on the exercise page")
            #expect(try await journal.workoutInProgress() == nil)

            // Editing a finished workout computes its records again.
            let edit = try await client.send(.get, path).text
            #expect(edit.contains("editing a finished workout") && edit.contains("Done editing"))
            _ = try await client.post("/workouts/\(id)/sets", form: "exercise=Barbell+Squat&position=0&weight=90&reps=5&kind=working")
            #expect(try await client.send(.get, "/workouts/\(id)").text.contains("★ New") == false)

            // An empty workout finished is discarded.
            let empty = try #require(try await client.post("/workouts/start", form: "").headers[.location])
            let emptyID = String(empty.dropFirst("/workouts/".count).dropLast("/log".count))
            let emptyPage = try await client.send(.get, empty).text
            #expect(emptyPage.contains("No exercise yet"))
            // Discarding asks first, and "Keep it" goes back to the logging.
            #expect(emptyPage.contains(#"<a class="button secondary" href="/workouts/\#(emptyID)/delete">Discard this workout</a>"#))
            let question = try await client.send(.get, "/workouts/\(emptyID)/delete").text
            #expect(question.contains("<h1>Discard this workout?</h1>") && question.contains(#"href="\#(empty)">Keep it</a>"#))
            #expect(
                try await client.post("/workouts/\(emptyID)/finish", form: "").headers[.location] == "/lifts?done=workout-discarded#notice")
        }
    }

    @Test func routinesAreEditedInTheirPage() async throws {
        try await withApp { client, journal in
            #expect(try await client.send(.get, "/routines").text.contains("No routines yet"))
            #expect(try await client.send(.get, "/routines/new").text.contains("<h1>New routine</h1>"))
            let made = try await client.post(
                "/routines", form: "name=Push&exercise_0=Bench+Press&sets_0=3&reps_0=5&weight_0=80&exercise_1=Dips&sets_1=2&exercise_2=")
            let location = try #require(made.headers[.location])
            #expect(location.hasPrefix("/routines/") && location.hasSuffix("?done=routine-saved#notice"))
            let id = String(location.dropFirst("/routines/".count).prefix(36))
            var routine = try await journal.routine(try #require(UUID(uuidString: id)))
            #expect(routine.exercises.map(\.exercise) == ["Barbell Bench Press", "Dip"])
            #expect(routine.exercises.map(\.sets) == [3, 2])
            _ = try await client.post(
                "/routines/\(id)",
                form: "name=Push&exercise_0=Bench+Press&sets_0=3&reps_0=5&weight_0=80&exercise_1=Dips&sets_1=2&action=down:0")
            routine = try await journal.routine(try #require(UUID(uuidString: id)))
            #expect(routine.exercises.map(\.exercise) == ["Dip", "Barbell Bench Press"])
            let page = try await client.send(.get, "/routines/\(id)").text
            #expect(page.contains(#"value="Dip""#) && page.contains("Start a workout from it"))
            let bad = try await client.post("/routines/\(id)", form: "name=Push&exercise_0=Dips&sets_0=x")
            #expect(bad.status == .unprocessableContent)
            #expect(try await client.post("/routines/\(id)/delete", form: "").headers[.location] == "/routines?done=routine-deleted#notice")
            #expect(try await journal.routines().isEmpty)
        }
    }

    @Test func thePlateCalculatorAndTheBarAndPlates() async throws {
        try await withApp { client, journal in
            #expect(try await client.send(.get, "/lifts?load=100").text.contains("100 kg: 20 kg bar + "))
            _ = try await client.post("/lifts/plates", form: "unit=lb&bar=45&plates=45x4+25x2+10x2+5x2+2.5x2")
            #expect(
                try await journal.settings().plates
                    == PlateSet(unit: .pounds, bar: 45, plates: try PlateSet.plates("45x4 25x2 10x2 5x2 2.5x2")))
            #expect(try await client.send(.get, "/lifts?load=225").text.contains("225 lb: 45 lb bar + 45, 45 each side"))
            #expect(try await client.send(.get, "/lifts?load=400").text.contains("400 lb cannot be made; nearest 310"))
            _ = try await client.post("/lifts/plates", form: "reset=1")
            #expect(try await journal.settings().plateSet == nil)
            #expect(try await client.post("/lifts/plates", form: "unit=kg&bar=20&plates=twenty").status == .unprocessableContent)
        }
    }
}
