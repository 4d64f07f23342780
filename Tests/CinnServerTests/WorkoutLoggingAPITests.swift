import CinnCore
import CinnJournal
import CinnServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Logging workouts through the API, on SQLite and PostgreSQL")
struct WorkoutLoggingAPITests {
    static func workout(_ startedAt: String, _ sets: String, name: String = "Push", extra: String = "") -> String {
        #"{"started_at":"\#(startedAt)","name":"\#(name)"\#(extra),"sets":[\#(sets)]}"#
    }

    static let benchSets = #"""
        {"exercise":"Bench Press","weight":60,"unit":"kg","reps":5,"kind":"warmup"},
        {"exercise":"Bench Press","weight":100,"unit":"kg","reps":5},
        {"exercise":"Bench Press","weight":100,"unit":"kg","reps":5,"kind":"working"}
        """#

    /// The parts of the exercise page that come from the sets, not from ids.
    static func figures(_ page: JSON) -> [JSON?] {
        [
            page["current"]?["value_kg"], page["current"]?["shown"], page["best"]?["shown"], page["heaviest"], page["best_set_volume"],
            page["rep_maxes"], page["weekly_volume"], page["history"], page["total_sets"],
        ]
    }

    @Test(arguments: Database.enabled)
    func aLoggedWorkoutCountsAsAnImportedOneWould(_ database: Database) async throws {
        let logged = try await withStore(database) { store in
            let journal = try await utcJournal(store)
            return try await Application(router: buildRouter(journal: journal)).test(.router) { client in
                let response = try await client.send(
                    .post, "/api/v1/workouts",
                    json: Self.workout(
                        "2024-03-14T18:00:00Z", Self.benchSets,
                        extra: #","ended_at":"2024-03-14T19:02:00Z""#))
                #expect(response.status == .created)
                let body = try response.json()
                #expect(body["sets"]?.array?.map { $0["kind"]?.string } == ["warmup", "working", "working"])
                #expect(body["sets"]?.array?.first?["exercise"]?.string == "Barbell Bench Press", "named as the catalogue names it")
                #expect(body["duration_s"] == .number(3720))
                #expect(body["ended_at"]?.string == "2024-03-14T19:02:00+00:00")
                #expect(body["in_progress"] == .bool(false))
                let page = try await client.send(.get, "/api/v1/exercises/Bench%20Press").json()
                #expect(page["current"]?["value_kg"] == .number(112.5), "Brzycki: 100 × 36 / 32")
                #expect(page["current"]?["shown"]?.string == "112 kg")
                #expect(page["current"]?["workout_id"] == body["id"])
                return Self.figures(page)
            }
        }
        let imported = try await withStore(database) { store in
            let journal = try await utcJournal(store)
            return try await Application(router: buildRouter(journal: journal)).test(.router) { client in
                let csv = """
                    Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),Incline,Resistance,isWarmup,Note,multiplier
                    2024-03-14 18:00:00 +0000,Barbell Bench Press,5,60,0,0,0,0,true,,1
                    2024-03-14 18:00:00 +0000,Barbell Bench Press,5,100,0,0,0,0,false,,1
                    2024-03-14 18:00:00 +0000,Barbell Bench Press,5,100,0,0,0,0,false,,1
                    """
                #expect(try await client.importFile(csv).json()["imported"] == .number(3))
                return Self.figures(try await client.send(.get, "/api/v1/exercises/Bench%20Press").json())
            }
        }
        #expect(logged == imported)
    }

    /// Two dumbbells: a set logged with load_multiplier 2 and Fitbod's row with multiplier 2 give the same exercise
    /// page, whose volume counts both dumbbells; an impossible multiplier is refused naming it.
    @Test(arguments: Database.enabled)
    func aLoadMultiplierLoggedOrImportedCountsTheSame(_ database: Database) async throws {
        let sets = #"{"exercise":"Dumbbell Row","weight":20,"unit":"kg","reps":10,"load_multiplier":2}"#
        let logged = try await withStore(database) { store in
            let journal = try await utcJournal(store)
            return try await Application(router: buildRouter(journal: journal)).test(.router) { client in
                let response = try await client.send(.post, "/api/v1/workouts", json: Self.workout("2024-03-14T18:00:00Z", sets))
                #expect(response.status == .created)
                #expect(try response.json()["sets"]?.array?.first?["load_multiplier"] == .number(2))
                try expectError(
                    try await client.send(
                        .post, "/api/v1/workouts",
                        json: Self.workout(
                            "2024-03-13T18:00:00Z",
                            sets.replacingOccurrences(of: #""load_multiplier":2"#, with: #""load_multiplier":11"#))),
                    .unprocessableContent, code: "invalid_input", field: "sets[0].load_multiplier")
                let page = try await client.send(.get, "/api/v1/exercises/Dumbbell%20Row").json()
                #expect(page["best_set_volume"] != nil)
                return Self.figures(page)
            }
        }
        let imported = try await withStore(database) { store in
            let journal = try await utcJournal(store)
            return try await Application(router: buildRouter(journal: journal)).test(.router) { client in
                let csv = """
                    Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),Incline,Resistance,isWarmup,Note,multiplier
                    2024-03-14 18:00:00 +0000,Dumbbell Row,10,20,0,0,0,0,false,,2
                    """
                #expect(try await client.importFile(csv).json()["imported"] == .number(1))
                return Self.figures(try await client.send(.get, "/api/v1/exercises/Dumbbell%20Row").json())
            }
        }
        #expect(logged == imported)
        #expect(logged.description.contains("400"), "a week's volume of 20 kg × 10 × 2: \(logged)")
    }

    @Test(arguments: Database.enabled)
    func editingAndDeletingSetsComputesTheRecordsAgain(_ database: Database) async throws {
        try await withApp(on: database) { client, _ in
            let earlier = try await client.send(
                .post, "/api/v1/workouts",
                json: Self.workout(
                    "2024-03-07T18:00:00Z", #"{"exercise":"Squat","weight":100,"reps":5}"#)
            ).json()
            #expect(earlier["sets"]?.array?.first?["records"] == .array([]), "the first time sets no record")
            let later = try await client.send(
                .post, "/api/v1/workouts",
                json: Self.workout(
                    "2024-03-14T18:00:00Z", #"{"exercise":"Squat","weight":105,"reps":5},{"exercise":"Squat","weight":90,"reps":5}"#)
            ).json()
            let records = later["sets"]?.array?.first?["records"]?.array?.compactMap { $0["kind"]?.string }
            #expect(records == ["estimated_1rm", "rep_max", "heaviest", "set_volume"])
            #expect(later["sets"]?.array?[1]["records"] == .array([]))
            let laterID = try #require(later["id"]?.string)
            #expect(try await client.send(.get, "/api/v1/exercises/squat").json()["best"]?["shown"]?.string == "118 kg")

            let edited = try await client.send(
                .patch, "/api/v1/workouts/\(laterID)", json: #"{"sets":[{"exercise":"Squat","weight":90,"reps":5,"rpe":7}]}"#)
            #expect(edited.status == .ok)
            #expect(try edited.json()["sets"]?.array?.first?["records"] == .array([]))
            let afterEdit = try await client.send(.get, "/api/v1/exercises/squat").json()
            #expect(afterEdit["best"]?["shown"]?.string == "112 kg", "back to 100 × 5")
            #expect(afterEdit["heaviest"]?["weight"] == .number(100))

            let earlierID = try #require(earlier["id"]?.string)
            #expect(try await client.send(.delete, "/api/v1/workouts/\(earlierID)").status == .noContent)
            let afterDelete = try await client.send(.get, "/api/v1/exercises/squat").json()
            #expect(afterDelete["best"]?["shown"]?.string == "101 kg", "90 × 5 by Brzycki: 101.25")
            #expect(afterDelete["total_sets"] == .number(1))
            #expect(try await client.send(.get, "/api/v1/workouts/\(earlierID)").status == .notFound)
        }
    }

    @Test(arguments: Database.enabled)
    func invalidSetsAreRefusedNamingTheFieldAndNothingIsSaved(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            func post(_ sets: String) async throws -> TestResponse {
                try await client.send(.post, "/api/v1/workouts", json: Self.workout("2024-03-14T18:00:00Z", sets))
            }
            let good = #"{"exercise":"Squat","weight":100,"reps":5}"#
            try expectError(
                try await post("\(good),\(good),{\"exercise\":\"Squat\",\"weight\":100,\"reps\":0}"), .unprocessableContent,
                code: "invalid_input", field: "sets[2].reps")
            try expectError(
                try await post("\(good),{\"exercise\":\"Squat\",\"weight\":100,\"reps\":101}"), .unprocessableContent,
                code: "invalid_input", field: "sets[1].reps")
            try expectError(
                try await post(#"{"exercise":"Squat","weight":-5,"reps":5}"#), .unprocessableContent,
                code: "invalid_input", field: "sets[0].weight")
            try expectError(
                try await post("\(good),{\"exercise\":\"Squat\",\"weight\":100,\"reps\":5,\"kind\":\"amrap\"}"), .unprocessableContent,
                code: "invalid_input", field: "sets[1].kind")
            try expectError(
                try await post(#"{"exercise":"Squat","weight":100,"reps":5,"unit":"stone-ish"}"#), .unprocessableContent,
                code: "invalid_input", field: "sets[0].unit")
            try expectError(
                try await post(#"{"exercise":"","weight":100,"reps":5}"#), .unprocessableContent,
                code: "invalid_input", field: "sets[0].exercise")
            try expectError(try await post(""), .unprocessableContent, code: "invalid_input", field: "sets")
            try expectError(
                try await client.send(.post, "/api/v1/workouts", json: #"{"sets":[\#(good)]}"#), .unprocessableContent,
                code: "invalid_input", field: "started_at")
            try expectError(
                try await client.send(
                    .post, "/api/v1/workouts",
                    json: Self.workout(
                        "2024-03-14T18:00:00Z", good, extra: #","ended_at":"2024-03-14T17:00:00Z""#)), .unprocessableContent,
                code: "invalid_input", field: "ended_at")
            #expect(try await journal.store.workoutCount(user: journal.user) == 0)
            #expect(try await client.send(.get, "/api/v1/exercises").json()["exercises"] == .array([]), "no exercise was made either")
        }
    }

    @Test(arguments: Database.enabled)
    func kindsRPEAndNotesRoundTrip(_ database: Database) async throws {
        try await withApp(on: database) { client, _ in
            let sets = #"""
                {"exercise":"Deadlift","weight":140,"reps":3,"kind":"warm_up","note":"belt"},
                {"exercise":"Deadlift","weight":180,"reps":3,"kind":"failure","rpe":9.5,"rir":0},
                {"exercise":"Deadlift","weight":150,"reps":6,"kind":"drop","rpe":8}
                """#
            let created = try await client.send(.post, "/api/v1/workouts", json: Self.workout("2024-03-14T18:00:00+01:00", sets)).json()
            let id = try #require(created["id"]?.string)
            let read = try await client.send(.get, "/api/v1/workouts/\(id)").json()
            let stored = try #require(read["sets"]?.array)
            #expect(stored.map { $0["kind"]?.string } == ["warmup", "failure", "drop"])
            #expect(stored.map { $0["rpe"] } == [.null, .number(9.5), .number(8)])
            #expect(stored.map { $0["rir"] } == [.null, .number(0), .null])
            #expect(stored[0]["note"]?.string == "belt")
            #expect(read["started_at"]?.string == "2024-03-14T18:00:00+01:00", "the offset given is kept")
            // Sync pulls the same sets in its own spelling.
            let pulled = try await client.send(.get, "/api/v1/sync/changes").json()
            let workout = try #require(pulled["changes"]?.array?.first { $0["type"]?.string == "workout" })
            let synced = try #require(workout["fields"]?["sets"]?.array)
            #expect(synced.map { $0["kind"]?.string } == ["warm_up", "failure", "drop"])
            #expect(synced.map { $0["rpe"] } == [.null, .number(9.5), .number(8)])
            #expect(workout["fields"]?["in_progress"] == .bool(false))
        }
    }

    @Test(arguments: Database.enabled)
    func routinesAreMadeListedChangedAndDeleted(_ database: Database) async throws {
        try await withApp(on: database) { client, _ in
            let body = #"""
                {"name":"Legs","note":"heavy day","exercises":[
                  {"exercise":"Squat","sets":3,"reps":5,"weight":100,"rest_s":180},
                  {"exercise":"Leg Curl","sets":3,"reps":12}]}
                """#
            let created = try await client.send(.post, "/api/v1/routines", json: body)
            #expect(created.status == .created)
            let routine = try created.json()
            let id = try #require(routine["id"]?.string)
            #expect(routine["exercises"]?.array?.map { $0["exercise"]?.string } == ["Barbell Squat", "Seated Leg Curl"])
            #expect(routine["exercises"]?.array?.first?["weight"] == .number(100))
            #expect(routine["exercises"]?.array?.first?["rest_s"] == .number(180))

            let reordered =
                #"{"name":"Legs","exercises":[{"exercise":"Leg Curl","sets":2,"reps":12},{"exercise":"Squat","sets":5,"reps":5}]}"#
            let replaced = try await client.send(.put, "/api/v1/routines/\(id)", json: reordered).json()
            #expect(replaced["exercises"]?.array?.map { $0["sets"] } == [.number(2), .number(5)])
            #expect(replaced["note"] == .null)
            let list = try await client.send(.get, "/api/v1/routines").json()
            #expect(list["routines"]?.array?.count == 1)

            try expectError(
                try await client.send(
                    .post, "/api/v1/routines",
                    json: #"{"name":"Bad","exercises":[{"exercise":"Squat","sets":3},{"exercise":"Dips","sets":0}]}"#),
                .unprocessableContent, code: "invalid_input", field: "exercises[1].sets")
            try expectError(
                try await client.send(.post, "/api/v1/routines", json: #"{"name":"Bad","exercises":[]}"#),
                .unprocessableContent, code: "invalid_input", field: "exercises")

            let workout = try await client.send(.post, "/api/v1/workouts", json: Self.workout("2024-03-14T18:00:00Z", Self.benchSets))
                .json()
            let copied = try await client.send(
                .post, "/api/v1/routines", json: #"{"from_workout":"\#(try #require(workout["id"]?.string))"}"#
            ).json()
            #expect(copied["name"]?.string == "Push")
            #expect(copied["exercises"]?.array?.first?["sets"] == .number(2), "the working sets, not the warm-up")
            #expect(copied["exercises"]?.array?.first?["weight"] == .number(100))

            #expect(try await client.send(.delete, "/api/v1/routines/\(id)").status == .noContent)
            #expect(try await client.send(.get, "/api/v1/routines/\(id)").status == .notFound)
            let pulled = try await client.send(.get, "/api/v1/sync/changes").json()
            let tombstone = pulled["changes"]?.array?.first { $0["type"]?.string == "routine" && $0["id"]?.string == id }
            #expect(tombstone?["deleted"] == .bool(true))
        }
    }

    @Test(arguments: Database.enabled)
    func anExercisesLastSetsAreThoseOfItsLastWorkout(_ database: Database) async throws {
        try await withApp(on: database) { client, _ in
            try expectError(try await client.send(.get, "/api/v1/exercises/Bench%20Press/last"), .notFound, code: "not_found")
            _ = try await client.send(
                .post, "/api/v1/workouts", json: Self.workout("2024-03-07T18:00:00Z", #"{"exercise":"Bench Press","weight":95,"reps":5}"#))
            let latest = try await client.send(.post, "/api/v1/workouts", json: Self.workout("2024-03-14T18:00:00Z", Self.benchSets)).json()
            let last = try await client.send(.get, "/api/v1/exercises/bench%20press%20(barbell)/last").json()
            #expect(last["workout_id"] == latest["id"])
            #expect(last["date"]?.string == "2024-03-14")
            #expect(last["sets"]?.array?.map { $0["weight"] } == [.number(60), .number(100), .number(100)])
            #expect(last["exercise"]?.string == "Barbell Bench Press")
        }
    }

    @Test(arguments: Database.enabled)
    func aWorkoutInProgressIsKeptUntilFinished(_ database: Database) async throws {
        try await withApp(on: database) { client, _ in
            let started = try await client.send(
                .post, "/api/v1/workouts", json: Self.workout("2024-03-15T11:00:00Z", "", extra: #","in_progress":true"#))
            #expect(started.status == .created)
            let id = try #require(try started.json()["id"]?.string)
            #expect(try started.json()["in_progress"] == .bool(true))
            let finished = try await client.send(
                .patch, "/api/v1/workouts/\(id)",
                json: #"""
                    {"in_progress":false,"ended_at":"2024-03-15T12:00:00Z","sets":[{"exercise":"Pull Up","reps":8}]}
                    """#
            ).json()
            #expect(finished["in_progress"] == .bool(false))
            #expect(finished["duration_s"] == .number(3600))
            #expect(finished["sets"]?.array?.first?["weight"] == .null, "a body-weight set")
            try expectError(
                try await client.send(.patch, "/api/v1/workouts/\(id)", json: #"{"sets":[]}"#), .unprocessableContent,
                code: "invalid_input", field: "sets")
        }
    }
}
