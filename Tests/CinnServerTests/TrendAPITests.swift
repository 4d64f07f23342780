import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Trend API")
struct TrendAPITests {
    @Test func shapeAndValuesOfASmallCase() async throws {
        try await withApp { client, _ in
            try await client.addWeighIn(80, date: "2024-03-01")
            try await client.addWeighIn(81, date: "2024-03-03")
            let response = try await client.send(.get, "/api/v1/trend?from=2024-03-01&to=2024-03-03&unit=kg")
            #expect(response.status == .ok)
            let trend = try response.json()
            #expect(trend.keys == ["unit", "days", "rate_per_week", "energy_balance_per_day", "forecast_date", "settling_days", "verdict"])
            #expect(trend["unit"]?.string == "kg")
            let days = try #require(trend["days"]?.array)
            #expect(days.count == 3)
            for day in days { #expect(day.keys == ["date", "weight", "interpolated", "value", "trend", "starts_series"]) }
            #expect(days.compactMap { $0["starts_series"]?.bool } == [true, false, false])
            #expect(days.compactMap { $0["date"]?.string } == ["2024-03-01", "2024-03-02", "2024-03-03"])
            #expect(days.map { $0["weight"] } == [.number(80), .null, .number(81)])
            #expect(days.compactMap { $0["interpolated"]?.bool } == [false, true, false])
            #expect(days.compactMap { $0["value"]?.double } == [80, 80.5, 81])
            let trends = days.compactMap { $0["trend"]?.double }
            #expect(trends.count == 3 && close(trends[0], 80) && close(trends[1], 80.05) && close(trends[2], 80.145))
            // Three days old, two weigh-ins: the trend is settling and two weigh-ins show no direction: no rate.
            #expect(trend["rate_per_week"] == .null && trend["energy_balance_per_day"] == .null)
            #expect(trend["settling_days"] == .number(3))
            #expect(trend["forecast_date"] == .null)
            #expect(trend["verdict"]?.keys == ["answer", "reason"])
            #expect(trend["verdict"]?["answer"]?.string == "unknown")
            #expect(trend["verdict"]?["reason"]?.string?.isEmpty == false)
        }
    }

    @Test func rateAndForecastAreNullWhenNotComputable() async throws {
        try await withApp { client, _ in
            try await client.addWeighIn(80, date: "2024-03-15")
            let trend = try await client.send(.get, "/api/v1/trend").json()
            #expect(trend["days"]?.array?.count == 1)
            #expect(trend["rate_per_week"] == .null)
            #expect(trend["energy_balance_per_day"] == .null)
            #expect(trend["forecast_date"] == .null)
        }
    }

    @Test func emptyJournalHasNoDays() async throws {
        try await withApp { client, _ in
            let trend = try await client.send(.get, "/api/v1/trend").json()
            #expect(trend["days"] == .array([]))
            #expect(trend["rate_per_week"] == .null)
            #expect(trend["verdict"]?["answer"]?.string == "unknown")
        }
    }

    @Test func forecastWithAGoal() async throws {
        try await withApp { client, _ in
            for offset in 0..<14 {
                try await client.addWeighIn(90 - Double(offset) * 0.2, date: "2024-03-\(String(format: "%02d", offset + 2))")
            }
            try await client.send(.put, "/api/v1/goal", json: #"{"weight":80,"unit":"kg"}"#)
            let trend = try await client.send(.get, "/api/v1/trend").json()
            #expect(try #require(trend["rate_per_week"]?.double) < 0)
            let forecast = try #require(trend["forecast_date"]?.string)
            #expect(forecast > "2024-03-15")
            #expect(["yes", "no"].contains(trend["verdict"]?["answer"]?.string))
        }
    }

    @Test func daysLieBetweenTheFirstAndLastWeighIn() async throws {
        try await withApp { client, _ in
            try await client.addWeighIn(80, date: "2024-03-01")
            try await client.addWeighIn(81, date: "2024-03-03")
            let trend = try await client.send(.get, "/api/v1/trend?from=2024-02-20&to=2024-03-10").json()
            #expect(trend["days"]?.array?.compactMap { $0["date"]?.string } == ["2024-03-01", "2024-03-02", "2024-03-03"])
        }
    }

    @Test func rangeEndsAtToDefaultingToToday() async throws {
        try await withApp { client, _ in
            for day in 1...15 { try await client.addWeighIn(80, date: String(format: "2024-03-%02d", day)) }
            let week = try await client.send(.get, "/api/v1/trend?range=week").json()["days"]?.array ?? []
            #expect(week.first?["date"]?.string == "2024-03-09")
            #expect(week.last?["date"]?.string == "2024-03-15")
            #expect(week.count == 7)
            let earlier = try await client.send(.get, "/api/v1/trend?range=week&to=2024-03-10").json()["days"]?.array ?? []
            #expect(earlier.compactMap { $0["date"]?.string }.first == "2024-03-04")
            #expect(earlier.count == 7)
            let all = try await client.send(.get, "/api/v1/trend?range=all").json()["days"]?.array ?? []
            #expect(all.count == 15)
        }
    }

    @Test func poundsConvert() async throws {
        try await withApp { client, _ in
            try await client.addWeighIn(80, date: "2024-03-01")
            try await client.addWeighIn(81, date: "2024-03-03")
            let trend = try await client.send(.get, "/api/v1/trend?from=2024-03-01&to=2024-03-03&unit=lb").json()
            #expect(trend["unit"]?.string == "lb")
            let days = trend["days"]?.array ?? []
            #expect(close(days.first?["weight"]?.double, 80 / 0.45359237))
            #expect(close(days[safe: 1]?["value"]?.double, 80.5 / 0.45359237))
            #expect(close(days.last?["trend"]?.double, 80.145 / 0.45359237))
            // A settled trend (15 days) has a rate: in pounds, the kilograms' rate converted; energy is kcal whatever the unit.
            for day in 4...15 { try await client.addWeighIn(81 + 0.1 * Double(day - 3), date: String(format: "2024-03-%02d", day)) }
            let kilograms = try await client.send(.get, "/api/v1/trend?to=2024-03-15&unit=kg").json()
            let pounds = try await client.send(.get, "/api/v1/trend?to=2024-03-15&unit=lb").json()
            let rate = try #require(kilograms["rate_per_week"]?.double)
            #expect(close(pounds["rate_per_week"]?.double, rate / 0.45359237))
            #expect(close(pounds["energy_balance_per_day"]?.double, rate * 7700 / 7, tolerance: 1e-6))
            #expect(pounds["settling_days"] == .null)
        }
    }

    @Test func badQueries() async throws {
        try await withApp { client, _ in
            try expectError(
                try await client.send(.get, "/api/v1/trend?range=fortnight"), .unprocessableContent,
                code: "invalid_input", field: "range")
            try expectError(
                try await client.send(.get, "/api/v1/trend?from=2024-03-10&to=2024-03-01"), .unprocessableContent,
                code: "invalid_input", field: "from")
            try expectError(
                try await client.send(.get, "/api/v1/trend?to=2024-02-30"), .unprocessableContent,
                code: "invalid_input", field: "to")
            try expectError(
                try await client.send(.get, "/api/v1/trend?unit=stone-ish"), .unprocessableContent,
                code: "invalid_input", field: "unit")
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
