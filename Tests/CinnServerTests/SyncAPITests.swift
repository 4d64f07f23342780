import CinnCore
import CinnJournal
import CinnServer
import Foundation
import HummingbirdTesting
import Testing

@Suite("Sync API")
struct SyncAPITests {
    @Test func pushAnswersEveryChangeAndChangesPagesThroughThem() async throws {
        try await withApp { client, journal in
            let meal = UUID().uuidString, event = UUID().uuidString, reading = UUID().uuidString
            // Where the journal stands before the push (its settings, saved when it was made, are a synced record).
            let start = try #require(try await client.send(.get, "/api/v1/sync/changes").json()["next"]?.string)
            let push = """
                {"changes":[
                  {"type":"meal_event","id":"\(event)","changed_at":"2026-11-21T08:10:00Z",
                   "fields":{"meal_id":"\(meal)","eaten_at":"2026-11-21T08:05:00+01:00","portion":1}},
                  {"type":"meal","id":"\(meal)","changed_at":"2026-11-21T08:00:00Z","fields":{"name":"Porridge","kind":"test","carbohydrate_g":50}},
                  {"type":"glucose_reading","id":"\(reading)","changed_at":"2026-11-21T08:00:00Z",
                   "fields":{"measured_at":"2026-11-21T08:00:00+01:00","mg_dl":2000}}
                ]}
                """
            let answer = try await client.send(.post, "/api/v1/sync/push", json: push)
            #expect(answer.status == .ok)
            let results = try answer.json()["results"]?.array ?? []
            #expect(results.compactMap { $0["status"]?.string } == ["applied", "applied", "rejected"])
            #expect(results.last?["field"]?.string == "mg_dl" && results.last?["reason"]?.string?.contains("1000") == true)
            #expect(results.first?["record"]?["eaten_at"]?.string == "2026-11-21T08:05:00+01:00")
            // The same push again changes nothing.
            let again = try await client.send(.post, "/api/v1/sync/push", json: push).json()["results"]?.array ?? []
            #expect(again.compactMap { $0["status"]?.string } == ["applied", "applied", "rejected"])
            #expect(try await journal.store.mealEvents(user: journal.user, from: .distantPast, to: .distantFuture).count == 1)

            let first = try await client.send(.get, "/api/v1/sync/changes?after=\(start)&limit=1").json()
            #expect(first["changes"]?.array?.first?["type"]?.string == "meal" && first["more"]?.bool == true)
            let next = try #require(first["next"]?.string)
            let second = try await client.send(.get, "/api/v1/sync/changes?after=\(next)").json()
            #expect(second["changes"]?.array?.compactMap { $0["id"]?.string } == [event.lowercased()] && second["more"]?.bool == false)
            #expect(second["changes"]?.array?.first?["fields"]?["meal_id"]?.string == meal.lowercased())
        }
    }

    @Test("a push of millions of empty changes is refused before it is built; more changes than a push holds are 422")
    func oversizedPushesAreRefusedEarly() async throws {
        try await withApp { client, _ in
            let empties = "{\"changes\":[" + Array(repeating: "{}", count: 4_000_000).joined(separator: ",") + "]}"
            let huge = try await client.send(.post, "/api/v1/sync/push", json: empties)
            #expect(huge.status == .contentTooLarge)
            #expect(huge.text.contains("content_too_large"))
            let many = "{\"changes\":[" + Array(repeating: "{}", count: 10_001).joined(separator: ",") + "]}"
            let tooMany = try await client.send(.post, "/api/v1/sync/push", json: many)
            #expect(tooMany.status == .unprocessableContent)
            #expect(tooMany.text.contains("at most 10000 changes"))
            let body = try await client.send(.post, "/api/v1/sync/push", json: String(repeating: " ", count: 33 << 20))
            #expect(body.status == .contentTooLarge)
        }
    }

    @Test func malformedPushesAndCursorsAreErrorsNamingTheField() async throws {
        try await withApp { client, _ in
            try expectError(
                try await client.send(.post, "/api/v1/sync/push", json: #"{"changes":[{"type":"weigh_in"}]}"#),
                .unprocessableContent, code: "invalid_input", field: "changes[0].id")
            try expectError(
                try await client.send(
                    .post, "/api/v1/sync/push",
                    json: #"{"changes":[{"type":"weigh_in","id":"\#(UUID())","changed_at":"yesterday"}]}"#),
                .unprocessableContent, code: "invalid_input", field: "changes[0].changed_at")
            try expectError(
                try await client.send(.post, "/api/v1/sync/push", json: #"{"changes":"#), .badRequest, code: "malformed_request")
            try expectError(
                try await client.send(.get, "/api/v1/sync/changes?after=yesterday"), .unprocessableContent,
                code: "invalid_input", field: "after")
            try expectError(
                try await client.send(.get, "/api/v1/sync/changes?limit=0"), .unprocessableContent, code: "invalid_input", field: "limit")
        }
    }
}
