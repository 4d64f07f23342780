import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Goal and settings API")
struct GoalAndSettingsAPITests {
    @Test func putThenGetConvertsUnits() async throws {
        try await withApp { client, _ in
            let put = try await client.send(.put, "/api/v1/goal", json: #"{"weight":154,"unit":"lb","rate_per_week":1}"#)
            #expect(put.status == .ok)
            let body = try put.json()
            #expect(body.keys == ["weight", "unit", "rate_per_week", "set_on"])
            #expect(close(body["weight"]?.double, 154))
            #expect(body["unit"]?.string == "lb")
            #expect(close(body["rate_per_week"]?.double, 1))
            #expect(body["set_on"]?.string == "2024-03-15")
            let kilograms = try await client.send(.get, "/api/v1/goal?unit=kg").json()
            #expect(close(kilograms["weight"]?.double, 154 * 0.45359237))
            #expect(close(kilograms["rate_per_week"]?.double, 0.45359237))
            #expect(kilograms["unit"]?.string == "kg")
        }
    }

    @Test func goalWithoutRateHasNullRate() async throws {
        try await withApp { client, _ in
            try await client.send(.put, "/api/v1/goal", json: #"{"weight":70}"#)
            let goal = try await client.send(.get, "/api/v1/goal").json()
            #expect(goal["weight"]?.double == 70)
            #expect(goal["unit"]?.string == "kg")
            #expect(goal["rate_per_week"] == .null)
        }
    }

    @Test func deleteThenNotFound() async throws {
        try await withApp { client, _ in
            try expectError(try await client.send(.get, "/api/v1/goal"), .notFound, code: "not_found")
            try await client.send(.put, "/api/v1/goal", json: #"{"weight":70}"#)
            #expect(try await client.send(.delete, "/api/v1/goal").status == .noContent)
            try expectError(try await client.send(.get, "/api/v1/goal"), .notFound, code: "not_found")
            try expectError(try await client.send(.delete, "/api/v1/goal"), .notFound, code: "not_found")
        }
    }

    @Test(arguments: [
        (#"{"weight":0}"#, "weight"), (#"{"weight":800}"#, "weight"), (#"{"weight":"NaN"}"#, "weight"),
        (#"{"rate_per_week":0.5}"#, "weight"), (#"{"weight":70,"rate_per_week":-0.5}"#, "rate_per_week"),
        (#"{"weight":70,"rate_per_week":0}"#, "rate_per_week"), (#"{"weight":70,"rate_per_week":5}"#, "rate_per_week"),
        (#"{"weight":70,"unit":"stone-ish"}"#, "unit"),
    ])
    func invalidGoal(json: String, field: String) async throws {
        try await withApp { client, journal in
            try expectError(
                try await client.send(.put, "/api/v1/goal", json: json), .unprocessableContent,
                code: "invalid_input", field: field)
            #expect(try await journal.store.goal(user: journal.user) == nil)
        }
    }

    @Test func settingsPartialUpdates() async throws {
        @Sendable func settings(
            _ unit: String, _ method: String, _ zone: String, target: JSON = .null, energyUnit: String = "kcal",
            insulin: (Double, Double) = (75, 360)
        ) -> JSON {
            .object([
                "unit": .string(unit), "trend_method": .string(method), "time_zone": .string(zone),
                "energy_target_kcal": target, "energy_unit": .string(energyUnit), "glucose_unit": .string("mg/dL"),
                "insulin_peak_minutes": .number(insulin.0), "insulin_duration_minutes": .number(insulin.1),
            ])
        }
        try await withApp { client, _ in
            let initial = try await client.send(.get, "/api/v1/settings").json()
            #expect(initial == settings("kg", "exact", "UTC"))
            let unit = try await client.send(.put, "/api/v1/settings", json: #"{"unit":"lb"}"#)
            #expect(unit.status == .ok)
            #expect(try unit.json() == settings("lb", "exact", "UTC"))
            try await client.send(.put, "/api/v1/settings", json: #"{"trend_method":"pencil"}"#)
            try await client.send(.put, "/api/v1/settings", json: #"{"time_zone":"Europe/Berlin"}"#)
            try await client.send(.put, "/api/v1/settings", json: #"{"energy_target_kcal":1850,"energy_unit":"kJ"}"#)
            let final = try await client.send(.get, "/api/v1/settings").json()
            #expect(final == settings("lb", "pencil", "Europe/Berlin", target: .number(1850), energyUnit: "kJ"))
            try await client.send(.put, "/api/v1/settings", json: #"{"energy_target_kcal":null}"#)
            #expect(
                try await client.send(.get, "/api/v1/settings").json()
                    == settings("lb", "pencil", "Europe/Berlin", energyUnit: "kJ"))
            // The insulin curve: one part changed keeps the other; Fiasp's peak.
            try await client.send(.put, "/api/v1/settings", json: #"{"insulin_peak_minutes":55}"#)
            #expect(
                try await client.send(.get, "/api/v1/settings").json()
                    == settings("lb", "pencil", "Europe/Berlin", energyUnit: "kJ", insulin: (55, 360)))
        }
    }

    @Test(arguments: [
        (#"{"unit":"furlong"}"#, "unit"), (#"{"trend_method":"crayon"}"#, "trend_method"),
        (#"{"time_zone":"Mars/Olympus_Mons"}"#, "time_zone"), (#"{"unit":"lb","time_zone":"Nowhere"}"#, "time_zone"),
        (#"{"unit":7}"#, "unit"), (#"{"energy_target_kcal":200}"#, "energy_target_kcal"),
        (#"{"energy_target_kcal":"lots"}"#, "energy_target_kcal"), (#"{"energy_unit":"joules"}"#, "energy_unit"),
        (#"{"insulin_peak_minutes":200}"#, "insulin_peak_minutes"), (#"{"insulin_duration_minutes":60}"#, "insulin_duration_minutes"),
        (#"{"insulin_peak_minutes":1e308,"insulin_duration_minutes":300}"#, "insulin_peak_minutes"),
    ])
    func invalidSettings(json: String, field: String) async throws {
        try await withApp { client, _ in
            try expectError(
                try await client.send(.put, "/api/v1/settings", json: json), .unprocessableContent,
                code: "invalid_input", field: field)
            let settings = try await client.send(.get, "/api/v1/settings").json()
            #expect(settings["unit"]?.string == "kg")
            #expect(settings["time_zone"]?.string == "UTC")
        }
    }

    @Test func malformedSettingsBody() async throws {
        try await withApp { client, _ in
            try expectError(
                try await client.send(.put, "/api/v1/settings", json: "{unit:lb}"), .badRequest,
                code: "malformed_request")
        }
    }
}
