import CinnCore
import CinnJournal
import CinnServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CinnStore

/// The Glucose page's lead: the newest reading and the last 3/6/12/24 hours, and the fragment its script fetches.
@Suite struct LiveGlucoseTests {
    @Test(arguments: Database.enabled)
    func theGlucosePageLeadsWithTheNewestReadingAndTheLastHours(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let empty = String(buffer: try await client.send(.get, "/glucose").body)
            #expect(empty.contains("No reading in the last 24 hours") && empty.contains("No readings in the last 6 hours"))
            #expect(!empty.contains("IOB"), "nothing on board without a reading")

            let readings = (0..<48).map { index in
                GlucoseReading(
                    measuredAt: fixedNow.addingTimeInterval(-Double(index) * 300 - 120), utcOffsetSeconds: 0,
                    glucose: Glucose(milligramsPerDeciliter: 150 - Double(index)), sensor: true)
            }
            try await journal.store.addUploadedGlucoseReadings(readings, user: journal.user)
            let page = try await client.send(.get, "/glucose?hours=3&days=7")
            #expect(page.status == .ok)
            let html = String(buffer: page.body)
            #expect(html.contains(#"<b id="live-value">150</b>"#) && html.contains("2 min ago"))
            #expect(html.contains(#"aria-label="steady""#), "the direction from the last two readings: +1 mg/dL in 5 minutes")
            #expect(html.contains(#"<small id="live-change">+1 mg/dL in 5 min</small>"#), "the change beside the value")
            #expect(!html.contains("live-stale"), "a reading 2 minutes old is current")
            #expect(html.contains(#"href="/glucose?hours=3&amp;days=7" class="on" aria-current="page">3 h"#))
            #expect(html.contains(#"href="/glucose?days=14&amp;hours=3""#), "the period links keep the hours")
            #expect(html.contains("<script src=\"/static/glucose-live.js\"></script>"))
            #expect(html.contains("36 readings, mean"), "3 hours of 5-minute readings in the chart's summary")
            #expect(html.contains("IOB <b>0 U</b>") && html.contains("COB <b>0 g</b>"), "on board, for a glucose user")
            // An hour after 2 U with the child's curve (peak 65 min: 0.800261 left) and 60 g (41.975 left).
            try await client.send(.put, "/api/v1/settings", json: #"{"insulin_peak_minutes":65}"#)
            try await client.send(.post, "/api/v1/insulin", json: #"{"units":2,"kind":"bolus","time":"2024-03-15T11:00:00Z"}"#)
            _ = try await client.log(#"{"name":"Rice","energy_kcal":240,"carbohydrate_g":60,"time":"2024-03-15T11:00:00Z"}"#)
            let onBoard = String(buffer: try await client.send(.get, "/glucose/live?hours=3&days=7").body)
            #expect(onBoard.contains("IOB <b>1.6 U</b>") && onBoard.contains("COB <b>42 g</b>"))

            let fragment = try await client.send(.get, "/glucose/live?hours=12&days=7")
            let part = String(buffer: fragment.body)
            #expect(fragment.status == .ok && part.contains("<section") && part.contains(#"id="live" data-hours="12" data-days="7""#))
            #expect(!part.contains("<html"), "a fragment, not a page")
            #expect(try await client.send(.get, "/glucose/live?hours=5").status == .unprocessableContent)
        }
    }

    /// A value struck through says why: no new reading for a while.
    @Test func aStaleValueSaysWhyItIsStruckThrough() async throws {
        try await withApp(on: .sqlite) { client, journal in
            let readings = [40, 45].map { minutes in
                GlucoseReading(
                    measuredAt: fixedNow.addingTimeInterval(-Double(minutes) * 60), utcOffsetSeconds: 0,
                    glucose: Glucose(milligramsPerDeciliter: minutes == 40 ? 98 : 104), sensor: true)
            }
            try await journal.store.addUploadedGlucoseReadings(readings, user: journal.user)
            let html = String(buffer: try await client.send(.get, "/glucose/live?hours=3").body)
            #expect(html.contains(#"class="live-now stale""#) && html.contains(#"<small id="live-change">−6 mg/dL in 5 min</small>"#))
            #expect(html.contains("No new reading for 40 min: the sensor or its uploader may have stopped."), "\(html)")
        }
    }
}

/// The ambulatory glucose profile's page and SVG.
@Suite struct GlucoseProfilePageTests {
    @Test(arguments: Database.enabled)
    func theProfileShowsThePercentilesAndTheConsensusTargets(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let empty = String(buffer: try await client.send(.get, "/glucose/agp").body)
            #expect(empty.contains("No glucose readings in these 14 days"))
            // Ten days of a sensor every 15 minutes at 120 mg/dL, with an hour at 260 after each dinner.
            let end = fixedNow
            var readings: [GlucoseReading] = []
            for index in 0..<(10 * 96) {
                let at = end.addingTimeInterval(-Double(index) * 900 - 60)
                let minute = Int(at.timeIntervalSince1970) / 60 % 1440
                readings.append(
                    GlucoseReading(
                        measuredAt: at, utcOffsetSeconds: 0,
                        glucose: Glucose(milligramsPerDeciliter: (19 * 60..<20 * 60).contains(minute) ? 260 : 120), sensor: true))
            }
            try await journal.store.addUploadedGlucoseReadings(readings, user: journal.user)
            let page = try await client.send(.get, "/glucose/agp?days=14")
            #expect(page.status == .ok)
            let html = String(buffer: page.body)
            #expect(
                html.contains("<td>Days with readings</td><td class=\"num\"><b>11 of 14</b></td>"),
                "ten days back from noon touch eleven dates")
            #expect(html.contains("aria-label=\"not met\""), "11 days fall short of 14, and an hour a day over 250 is over 5 %")
            #expect(html.contains("<td>In range, 70–180 mg/dL</td><td class=\"num\"><b>96 %</b></td>"), "23 of 24 hours")
            #expect(html.contains("id=\"agp-chart\"") && html.contains("class=\"median\""))
            let svg = try await client.send(.get, "/glucose/agp.svg?days=7")
            #expect(svg.status == .ok && svg.headers[.contentType] == "image/svg+xml; charset=utf-8")
            #expect(String(buffer: svg.body).contains("readings over 7 days, the median from 120 mg/dL to 260 mg/dL"))
            #expect(try await client.send(.get, "/glucose/agp?days=3").status == .unprocessableContent)
        }
    }
}
