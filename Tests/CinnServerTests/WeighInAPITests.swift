import CinnCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Weigh-ins API")
struct WeighInAPITests {
    @Test func createReturnsTheWeighInAtLocalNoon() async throws {
        try await withApp { client, journal in
            let response = try await client.send(
                .post, "/api/v1/weigh-ins",
                json: #"{"weight":72.4,"unit":"kg","date":"2024-03-01","note":"after run"}"#)
            #expect(response.status == .created)
            let body = try response.json()
            #expect(body.keys == ["id", "weight", "unit", "date", "measured_at", "note", "source"])
            #expect(UUID(uuidString: body["id"]?.string ?? "") != nil)
            #expect(body["weight"]?.double == 72.4)
            #expect(body["unit"]?.string == "kg")
            #expect(body["date"]?.string == "2024-03-01")
            #expect(body["measured_at"]?.string == "2024-03-01T12:00:00+00:00")
            #expect(body["note"]?.string == "after run")
            #expect(body["source"]?.string == "manual")
            #expect(try await journal.count() == 1)
        }
    }

    @Test(arguments: [("lb", 160.0, 72.57477920), ("st", 11.5, 73.02837157), ("kg", 80.0, 80.0)])
    func createConvertsUnits(unit: String, weight: Double, kilograms: Double) async throws {
        try await withApp { client, _ in
            let created = try await client.addWeighIn(weight, unit: unit, date: "2024-03-01")
            #expect(close(created["weight"]?.double, weight))
            #expect(created["unit"]?.string == unit)
            let id = try #require(created["id"]?.string)
            let inKilograms = try await client.send(.get, "/api/v1/weigh-ins/\(id)?unit=kg").json()
            #expect(close(inKilograms["weight"]?.double, kilograms, tolerance: 1e-6))
        }
    }

    @Test func aClientGeneratedIDIsKeptAndCannotBeUsedTwice() async throws {
        try await withApp { client, journal in
            let id = "0190f5a2-7b1c-7d3e-8f00-1234567890ab"
            let body = #"{"id":"\#(id)","weight":72.4,"unit":"kg","date":"2024-03-01"}"#
            let created = try await client.send(.post, "/api/v1/weigh-ins", json: body)
            #expect(created.status == .created)
            #expect(try created.json()["id"]?.string == id)
            #expect(try await client.send(.get, "/api/v1/weigh-ins/\(id)").status == .ok)
            try expectError(try await client.send(.post, "/api/v1/weigh-ins", json: body), .conflict, code: "conflict")
            let malformed = #"{"id":"not-a-uuid","weight":72.4}"#
            try expectError(
                try await client.send(.post, "/api/v1/weigh-ins", json: malformed), .unprocessableContent,
                code: "invalid_input", field: "id")
            #expect(try await journal.count() == 1)
        }
    }

    @Test func withoutUnitTheDisplayUnitIsUsed() async throws {
        try await withApp { client, _ in
            try await client.send(.put, "/api/v1/settings", json: #"{"unit":"lb"}"#)
            let created = try await client.send(.post, "/api/v1/weigh-ins", json: #"{"weight":"160","date":"2024-03-01"}"#).json()
            #expect(created["unit"]?.string == "lb")
            #expect(created["weight"]?.double == 160)
        }
    }

    @Test func measuredAtKeepsItsOffsetAndLocalDay() async throws {
        try await withApp { client, _ in
            let response = try await client.send(
                .post, "/api/v1/weigh-ins",
                json: #"{"weight":70,"measured_at":"2024-03-10T23:30:00-05:00"}"#)
            #expect(response.status == .created)
            let body = try response.json()
            #expect(body["measured_at"]?.string == "2024-03-10T23:30:00-05:00")
            #expect(body["date"]?.string == "2024-03-10")
        }
    }

    @Test func listIsNewestFirstWithFromToAndLimit() async throws {
        try await withApp { client, _ in
            for (day, weight) in [("2024-03-01", 80.0), ("2024-03-03", 79.5), ("2024-03-02", 79.8), ("2024-03-05", 79.0)] {
                try await client.addWeighIn(weight, date: day)
            }
            let all = try await client.send(.get, "/api/v1/weigh-ins").json()["weigh_ins"]?.array ?? []
            #expect(all.compactMap { $0["date"]?.string } == ["2024-03-05", "2024-03-03", "2024-03-02", "2024-03-01"])
            let middle = try await client.send(.get, "/api/v1/weigh-ins?from=2024-03-02&to=2024-03-03").json()["weigh_ins"]?.array
            #expect(middle?.compactMap { $0["date"]?.string } == ["2024-03-03", "2024-03-02"])
            let limited = try await client.send(.get, "/api/v1/weigh-ins?limit=2").json()["weigh_ins"]?.array
            #expect(limited?.compactMap { $0["date"]?.string } == ["2024-03-05", "2024-03-03"])
        }
    }

    @Test func getOne() async throws {
        try await withApp { client, _ in
            let id = try #require(try await client.addWeighIn(72.4, date: "2024-03-01")["id"]?.string)
            let response = try await client.send(.get, "/api/v1/weigh-ins/\(id)")
            #expect(response.status == .ok)
            let body = try response.json()
            #expect(body["id"]?.string == id)
            #expect(body["weight"]?.double == 72.4)
        }
    }

    @Test func patchChangesWeightAndNullClearsTheNote() async throws {
        try await withApp { client, _ in
            let created = try await client.send(
                .post, "/api/v1/weigh-ins",
                json: #"{"weight":72.4,"unit":"kg","date":"2024-03-01","note":"hello"}"#
            ).json()
            let id = try #require(created["id"]?.string)
            let weight = try await client.send(.patch, "/api/v1/weigh-ins/\(id)", json: #"{"weight":71.9}"#)
            #expect(weight.status == .ok)
            #expect(try weight.json()["weight"]?.double == 71.9)
            #expect(try weight.json()["note"]?.string == "hello")
            let cleared = try await client.send(.patch, "/api/v1/weigh-ins/\(id)", json: #"{"note":null}"#).json()
            #expect(cleared["note"] == .null)
            #expect(cleared["weight"]?.double == 71.9)
            #expect(cleared["date"]?.string == "2024-03-01")
            let stored = try await client.send(.get, "/api/v1/weigh-ins/\(id)").json()
            #expect(stored["note"] == .null)
            #expect(stored["weight"]?.double == 71.9)
        }
    }

    @Test func deleteThenNotFound() async throws {
        try await withApp { client, journal in
            let id = try #require(try await client.addWeighIn(72.4, date: "2024-03-01")["id"]?.string)
            #expect(try await client.send(.delete, "/api/v1/weigh-ins/\(id)").status == .noContent)
            #expect(try await journal.count() == 0)
            try expectError(try await client.send(.get, "/api/v1/weigh-ins/\(id)"), .notFound, code: "not_found")
            try expectError(try await client.send(.delete, "/api/v1/weigh-ins/\(id)"), .notFound, code: "not_found")
        }
    }

    @Test func deleteByDateDeletesThatDay() async throws {
        try await withApp { client, journal in
            try await client.send(.post, "/api/v1/weigh-ins", json: #"{"weight":72.4,"measured_at":"2024-03-01T07:00:00Z"}"#)
            try await client.send(.post, "/api/v1/weigh-ins", json: #"{"weight":72.0,"measured_at":"2024-03-01T21:00:00Z"}"#)
            try await client.addWeighIn(71.8, date: "2024-03-02")
            let response = try await client.send(.delete, "/api/v1/weigh-ins?date=2024-03-01")
            #expect(response.status == .ok)
            #expect(try response.json()["deleted"]?.double == 2)
            let left = try await client.send(.get, "/api/v1/weigh-ins").json()["weigh_ins"]?.array
            #expect(left?.compactMap { $0["date"]?.string } == ["2024-03-02"])
            #expect(try await journal.count() == 1)
        }
    }
}

@Suite("Weigh-ins API: bad input")
struct WeighInAPIErrorTests {
    /// Posts `json`, expects a 422 naming `field`, and checks nothing was written.
    func expectRejected(_ json: String, field: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await withApp { client, journal in
            let response = try await client.send(.post, "/api/v1/weigh-ins", json: json)
            try expectError(response, .unprocessableContent, code: "invalid_input", field: field, sourceLocation: sourceLocation)
            #expect(try await journal.count() == 0, sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [
        #"{"weight":0}"#, #"{"weight":-1}"#, #"{"weight":701,"unit":"kg"}"#, #"{"weight":1544,"unit":"lb"}"#,
        #"{"weight":"NaN"}"#, #"{"weight":"Infinity"}"#, #"{"weight":"-Infinity"}"#, #"{"weight":1e999}"#,
        #"{"weight":true}"#, #"{"weight":"heavy"}"#, #"{"weight":null}"#, #"{"weight":[72]}"#, #"{"date":"2024-03-01"}"#,
    ])
    func badWeight(json: String) async throws {
        try await expectRejected(json, field: "weight")
    }

    @Test func unknownUnit() async throws {
        try await expectRejected(#"{"weight":72,"unit":"stone-ish"}"#, field: "unit")
    }

    /// A weight 10 % or more away from the trend, or an unusual one without a trend, needs `"confirm": true`.
    @Test func aLikelyTypoNeedsConfirmation() async throws {
        try await withApp { client, journal in
            let unusual = try await client.send(.post, "/api/v1/weigh-ins", json: #"{"weight":803,"unit":"lb"}"#)
            try expectError(unusual, .unprocessableContent, code: "needs_confirmation", field: "weight")
            for day in 10...14 { try await client.addWeighIn(80.3, date: "2024-03-\(day)") }
            let slip = try await client.send(.post, "/api/v1/weigh-ins", json: #"{"weight":8.03,"date":"2024-03-15"}"#)
            try expectError(slip, .unprocessableContent, code: "needs_confirmation", field: "weight")
            #expect(try slip.json()["error"]?["message"]?.string == "8.03 kg is 90 % away from your trend, 80.3 kg: is that right?")
            #expect(try await journal.count() == 5)
            #expect(try await client.send(.post, "/api/v1/weigh-ins", json: #"{"weight":79.6,"date":"2024-03-15"}"#).status == .created)
            let confirmed = try await client.send(.post, "/api/v1/weigh-ins", json: #"{"weight":8.03,"date":"2024-03-15","confirm":true}"#)
            #expect(confirmed.status == .created)
            #expect(try await journal.count() == 7)
        }
    }

    /// A PATCH that changes the weight into a likely typo needs `"confirm": true`; one that leaves it does not.
    @Test func aLikelyTypoInAnEditNeedsConfirmation() async throws {
        try await withApp { client, journal in
            for day in 10...14 { try await client.addWeighIn(80.3, date: "2024-03-\(day)") }
            let id = try #require(try await journal.store.weighIns(user: journal.user, limit: 1).first?.id.lowercasedString)
            let slip = try await client.send(.patch, "/api/v1/weigh-ins/\(id)", json: #"{"weight":8.03}"#)
            try expectError(slip, .unprocessableContent, code: "needs_confirmation", field: "weight")
            #expect(try await client.send(.patch, "/api/v1/weigh-ins/\(id)", json: #"{"note":"after coffee"}"#).status == .ok)
            #expect(try await client.send(.patch, "/api/v1/weigh-ins/\(id)", json: #"{"weight":80.3,"note":null}"#).status == .ok)
            let confirmed = try await client.send(.patch, "/api/v1/weigh-ins/\(id)", json: #"{"weight":8.03,"confirm":true}"#)
            #expect(confirmed.status == .ok)
            #expect(try await journal.store.weighIns(user: journal.user, limit: 1).first?.weight.kilograms == 8.03)
        }
    }

    @Test(arguments: ["2024-02-30", "2024-13-01", "yesterday", "2024-03-16", "2030-01-01", "2024-03-01T25:00:00Z"])
    func badDate(date: String) async throws {
        try await expectRejected(#"{"weight":72,"date":"\#(date)"}"#, field: "date")
    }

    @Test func futureMeasuredAt() async throws {
        try await expectRejected(#"{"weight":72,"measured_at":"2024-03-16T08:00:00+00:00"}"#, field: "measured_at")
        try await expectRejected(#"{"weight":72,"measured_at":"2024-03-15T13:00:00Z"}"#, field: "measured_at")
    }

    /// The clock is 2024-03-15T12:00Z: a reading at 01:00 on the 16th in UTC+14 was taken an hour ago,
    /// and a device clock a few minutes ahead is not "the future".
    @Test func aPastInstantInAZoneAheadIsAccepted() async throws {
        try await withApp { client, _ in
            let ahead = try await client.send(.post, "/api/v1/weigh-ins", json: #"{"weight":72,"measured_at":"2024-03-16T01:00:00+14:00"}"#)
            #expect(ahead.status == .created)
            #expect(try ahead.json()["date"]?.string == "2024-03-16")
            let skewed = try await client.send(.post, "/api/v1/weigh-ins", json: #"{"weight":72,"measured_at":"2024-03-15T12:05:00Z"}"#)
            #expect(skewed.status == .created)
        }
    }

    @Test(arguments: [#"{"weight":72"#, "weight=72", "", "[1,2"])
    func malformedJSON(body: String) async throws {
        try await withApp { client, journal in
            let response = try await client.send(.post, "/api/v1/weigh-ins", json: body)
            try expectError(response, .badRequest, code: "malformed_request")
            #expect(try await journal.count() == 0)
        }
    }

    @Test func unknownAndMalformedIDsAreNotFound() async throws {
        try await withApp { client, journal in
            try await client.addWeighIn(72, date: "2024-03-01")
            for id in [UUID().uuidString, "not-a-uuid", "42"] {
                try expectError(try await client.send(.get, "/api/v1/weigh-ins/\(id)"), .notFound, code: "not_found")
                try expectError(
                    try await client.send(.patch, "/api/v1/weigh-ins/\(id)", json: #"{"weight":70}"#),
                    .notFound, code: "not_found")
                try expectError(try await client.send(.delete, "/api/v1/weigh-ins/\(id)"), .notFound, code: "not_found")
            }
            #expect(try await journal.count() == 1)
        }
    }

    @Test func rejectedPatchChangesNothing() async throws {
        try await withApp { client, _ in
            let id = try #require(try await client.addWeighIn(72.4, date: "2024-03-01")["id"]?.string)
            try expectError(
                try await client.send(.patch, "/api/v1/weigh-ins/\(id)", json: #"{"weight":0}"#),
                .unprocessableContent, code: "invalid_input", field: "weight")
            try expectError(
                try await client.send(.patch, "/api/v1/weigh-ins/\(id)", json: #"{"weight":70,"date":"2024-02-30"}"#),
                .unprocessableContent, code: "invalid_input", field: "date")
            try expectError(
                try await client.send(.patch, "/api/v1/weigh-ins/\(id)", json: #"{"weight":70,"unit":"furlong"}"#),
                .unprocessableContent, code: "invalid_input", field: "unit")
            let stored = try await client.send(.get, "/api/v1/weigh-ins/\(id)").json()
            #expect(stored["weight"]?.double == 72.4)
            #expect(stored["date"]?.string == "2024-03-01")
        }
    }

    @Test func deleteByDateNeedsAValidDate() async throws {
        try await withApp { client, journal in
            try await client.addWeighIn(72, date: "2024-03-01")
            try expectError(
                try await client.send(.delete, "/api/v1/weigh-ins"), .unprocessableContent,
                code: "invalid_input", field: "date")
            try expectError(
                try await client.send(.delete, "/api/v1/weigh-ins?date=2024-02-30"), .unprocessableContent,
                code: "invalid_input", field: "date")
            #expect(try await journal.count() == 1)
        }
    }

    @Test func badListQuery() async throws {
        try await withApp { client, _ in
            try expectError(
                try await client.send(.get, "/api/v1/weigh-ins?limit=0"), .unprocessableContent,
                code: "invalid_input", field: "limit")
            try expectError(
                try await client.send(.get, "/api/v1/weigh-ins?from=2024-13-01"), .unprocessableContent,
                code: "invalid_input", field: "from")
            try expectError(
                try await client.send(.get, "/api/v1/weigh-ins?unit=stone-ish"), .unprocessableContent,
                code: "invalid_input", field: "unit")
        }
    }
}
