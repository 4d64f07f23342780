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

            let readings = (0..<48).map { index in
                GlucoseReading(measuredAt: fixedNow.addingTimeInterval(-Double(index) * 300 - 120), utcOffsetSeconds: 0,
                               glucose: Glucose(milligramsPerDeciliter: 150 - Double(index)), sensor: true)
            }
            try await journal.store.addUploadedGlucoseReadings(readings, user: journal.user)
            let page = try await client.send(.get, "/glucose?hours=3&days=7")
            #expect(page.status == .ok)
            let html = String(buffer: page.body)
            #expect(html.contains(#"<b id="live-value">150</b>"#) && html.contains("2 min ago"))
            #expect(html.contains(#"aria-label="steady""#), "the direction from the last two readings: +1 mg/dL in 5 minutes")
            #expect(html.contains(#"href="/glucose?hours=3&amp;days=7" class="on" aria-current="page">3 h"#))
            #expect(html.contains(#"href="/glucose?days=14&amp;hours=3""#), "the period links keep the hours")
            #expect(html.contains("<script src=\"/static/glucose-live.js\"></script>"))
            #expect(html.contains("36 readings, mean"), "3 hours of 5-minute readings in the chart's summary")

            let fragment = try await client.send(.get, "/glucose/live?hours=12&days=7")
            let part = String(buffer: fragment.body)
            #expect(fragment.status == .ok && part.contains("<section") && part.contains(#"id="live" data-hours="12" data-days="7""#))
            #expect(!part.contains("<html"), "a fragment, not a page")
            #expect(try await client.send(.get, "/glucose/live?hours=5").status == .unprocessableContent)
        }
    }
}
