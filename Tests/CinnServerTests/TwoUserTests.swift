import CinnJournal
import CinnServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Two users on one store")
struct TwoUserTests {
    /// Alice and Bob, each with their own router over one store.
    func withAliceAndBob(_ body: @Sendable (_ alice: any TestClientProtocol, _ bob: any TestClientProtocol) async throws -> Void)
        async throws
    {
        try await withStore { store in
            let alice = try await utcJournal(store, user: "alice")
            let bob = try await utcJournal(store, user: "bob")
            #expect(alice.user != bob.user)
            try await Application(router: buildRouter(journal: alice)).test(.router) { aliceClient in
                try await Application(router: buildRouter(journal: bob)).test(.router) { bobClient in
                    try await body(aliceClient, bobClient)
                }
            }
        }
    }

    @Test func aliceWeighInIsNotFoundForBob() async throws {
        try await withAliceAndBob { alice, bob in
            let id = try #require(try await alice.addWeighIn(80, date: "2024-03-01")["id"]?.string)
            try expectError(try await bob.send(.get, "/api/v1/weigh-ins/\(id)"), .notFound, code: "not_found")
            try expectError(
                try await bob.send(.patch, "/api/v1/weigh-ins/\(id)", json: #"{"weight":60}"#),
                .notFound, code: "not_found")
            try expectError(try await bob.send(.delete, "/api/v1/weigh-ins/\(id)"), .notFound, code: "not_found")
            #expect(try await bob.send(.delete, "/api/v1/weigh-ins?date=2024-03-01").json()["deleted"]?.double == 0)
            let mine = try await alice.send(.get, "/api/v1/weigh-ins/\(id)").json()
            #expect(mine["weight"]?.double == 80)
        }
    }

    @Test func bobSeesNoneOfAlicesData() async throws {
        try await withAliceAndBob { alice, bob in
            try await alice.addWeighIn(80, date: "2024-03-01")
            try await alice.importFile(threeDays)
            try await alice.send(.put, "/api/v1/goal", json: #"{"weight":70}"#)
            try await alice.send(.put, "/api/v1/settings", json: #"{"unit":"lb"}"#)
            try await bob.addWeighIn(90, date: "2024-03-10")

            let list = try await bob.send(.get, "/api/v1/weigh-ins").json()["weigh_ins"]?.array
            #expect(list?.compactMap { $0["weight"]?.double } == [90])
            let trend = try await bob.send(.get, "/api/v1/trend").json()
            #expect(trend["days"]?.array?.compactMap { $0["date"]?.string } == ["2024-03-10"])
            #expect(try await bob.send(.get, "/api/v1/imports").json()["imports"] == .array([]))
            try expectError(try await bob.send(.get, "/api/v1/goal"), .notFound, code: "not_found")
            #expect(try await bob.send(.get, "/api/v1/settings").json()["unit"]?.string == "kg")
            let export = try await bob.send(.get, "/api/v1/export?format=json").json()
            #expect(export["weigh_ins"]?.array?.compactMap { $0["weight"]?.double } == [90])
            #expect(export["goal"] == .null)
            let csv = try await bob.send(.get, "/api/v1/export?format=csv").text
            #expect(csv.split(separator: "\n").count == 2)
            #expect(try await alice.send(.get, "/api/v1/weigh-ins").json()["weigh_ins"]?.array?.count == 4)
        }
    }

    @Test func aliceWorkoutsAndRoutinesAreHersAlone() async throws {
        try await withAliceAndBob { alice, bob in
            let workout = try await alice.send(
                .post, "/api/v1/workouts",
                json: #"""
                    {"started_at":"2024-03-14T18:00:00Z","in_progress":true,"sets":[{"exercise":"Squat","weight":100,"reps":5}]}
                    """#
            ).json()
            let routine = try await alice.send(
                .post, "/api/v1/routines", json: #"{"name":"Legs","exercises":[{"exercise":"Squat","sets":3}]}"#
            ).json()
            let workoutID = try #require(workout["id"]?.string), routineID = try #require(routine["id"]?.string)
            for path in ["/api/v1/workouts/\(workoutID)", "/api/v1/routines/\(routineID)", "/api/v1/exercises/Squat/last"] {
                try expectError(try await bob.send(.get, path), .notFound, code: "not_found")
            }
            try expectError(
                try await bob.send(.patch, "/api/v1/workouts/\(workoutID)", json: #"{"name":"mine"}"#), .notFound, code: "not_found")
            try expectError(
                try await bob.send(.put, "/api/v1/routines/\(routineID)", json: #"{"name":"x","exercises":[{"exercise":"Dip","sets":1}]}"#),
                .notFound, code: "not_found")
            #expect(try await bob.send(.get, "/workouts/\(workoutID)/log").status == .notFound)
            #expect(try await bob.post("/workouts/\(workoutID)/sets", form: "exercise=Squat&weight=1&reps=1").status == .notFound)
            #expect(try await bob.post("/workouts/\(workoutID)/finish", form: "").status == .notFound)
            #expect(try await bob.post("/workouts/start", form: "routine=\(routineID)").status == .notFound)
            #expect(try await bob.send(.get, "/api/v1/routines").json()["routines"] == .array([]))
            #expect(!(try await bob.send(.get, "/lifts").text.contains("Continue workout")))
            #expect(try await alice.send(.get, "/api/v1/workouts/\(workoutID)").json()["sets"]?.array?.count == 1)
        }
    }

    @Test func bobCannotUndoAlicesImport() async throws {
        try await withAliceAndBob { alice, bob in
            let id = try #require(try await alice.importFile(threeDays).json()["import_id"]?.double)
            try expectError(try await bob.send(.post, "/api/v1/imports/\(Int(id))/undo"), .notFound, code: "not_found")
            #expect(try await alice.send(.get, "/api/v1/weigh-ins").json()["weigh_ins"]?.array?.count == 3)
            #expect(try await alice.send(.post, "/api/v1/imports/\(Int(id))/undo").status == .ok)
        }
    }

    @Test func bobsImportOfTheSameFileIsNotADuplicate() async throws {
        try await withAliceAndBob { alice, bob in
            let alices = try await alice.importFile(threeDays).json()
            let bobs = try await bob.importFile(threeDays).json()
            #expect(alices["imported"]?.double == 3)
            #expect(bobs["imported"]?.double == 3)
        }
    }

    @Test func webPagesAreSeparate() async throws {
        try await withAliceAndBob { alice, bob in
            let id = try #require(try await alice.addWeighIn(80, date: "2024-03-01")["id"]?.string)
            #expect(try await bob.send(.get, "/weigh-ins/\(id)/edit").status == .notFound)
            #expect(try await bob.post("/weigh-ins/\(id)/delete", form: "").status == .notFound)
            #expect(try await bob.send(.get, "/weigh-ins").text.contains(id) == false)
            #expect(try await alice.send(.get, "/weigh-ins").text.contains(id))
        }
    }
}
