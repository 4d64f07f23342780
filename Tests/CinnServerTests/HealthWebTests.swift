import CinnCharts
import CinnCore
import CinnJournal
import CinnServer
import CinnStore
import Foundation
import HummingbirdTesting
import Testing

@Suite("Health data page")
struct HealthWebTests {
    static let exportZip = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../CinnImportTests/Fixtures/apple_health/export.zip").standardized

    @Test func anEmptyPageSaysWhatToDo() async throws {
        try await withApp { client, _ in
            let page = try await client.send(.get, "/more-data").text
            #expect(page.contains("Nothing here yet.") && page.contains(#"<a href="/import">Import an Apple Health export</a>"#))
            #expect(try await client.send(.get, "/settings").text.contains(#"href="/more-data""#), "More links to it")
        }
    }

    @Test func anImportedExportsTypesAreChartedPerDay() async throws {
        try await withApp { client, journal in
            let report = try await journal.importAppleHealth(at: Self.exportZip, fileName: nil, mode: ImportMode())
            #expect(report.healthDays.count == 9)
            let steps = try await client.send(.get, "/more-data").text
            #expect(steps.contains("<h2>Step count</h2>") && steps.contains(#"<p class="big">612 steps</p>"#), "steps first")
            #expect(steps.contains(#"<g class="day" data-date="2024-03-09" data-value="612">"#))
            #expect(steps.contains("Core sleep") && steps.contains("Heart rate variability SDNN"))
            let heart = try await client.send(.get, "/more-data?type=HKQuantityTypeIdentifierHeartRate&category=&unit=count/min&days=30")
                .text
            #expect(heart.contains(#"<p class="big">138 bpm</p>"#) && heart.contains(#"<circle class="mean""#))
            #expect(
                heart.contains("From 9 Feb 2024 to 9 Mar 2024: heart rate on 1 of 30 days, mean 138 bpm, from 138 to 138 bpm."),
                "the chart's summary for screen readers: the 30 days up to the last with data")
            #expect(try await client.send(.get, "/more-data?type=HKQuantityTypeIdentifierNoSuchThing").status == .notFound)
        }
    }

    @Test func theProfileOffersTheImportedHeightUntilItHasOne() async throws {
        try await withApp { client, journal in
            #expect(try await client.send(.get, "/profile").text.contains(#"name="height_cm" inputmode="decimal" value="""#))
            _ = try await journal.importAppleHealth(at: Self.exportZip, fileName: nil, mode: ImportMode())
            let offered = try await client.send(.get, "/welcome").text
            #expect(offered.contains(#"name="height_cm" inputmode="decimal" value="167.6""#), "the export's last height, 2 May 2022")
            #expect(
                offered.contains(#"name="height_ft" inputmode="numeric" value="5""#)
                    && offered.contains(#"name="height_in" inputmode="decimal" value="6""#))
            #expect(offered.contains("From your Apple Health export (2 May 2022)."))
            let put = try await client.send(
                .put, "/api/v1/profile", json: #"{"sex":"female","birth_date":"1990-01-01","height_cm":171,"activity":"light"}"#)
            #expect(put.status == .ok, "\(put.text)")
            let saved = try await client.send(.get, "/profile").text
            #expect(
                saved.contains(#"name="height_cm" inputmode="decimal" value="171.0""#) && !saved.contains("Apple Health export"),
                "the profile's own height")
        }
    }

    @Test func importedWorkoutsShowTheirDurationDistanceAndEnergy() async throws {
        try await withApp { client, journal in
            _ = try await journal.importAppleHealth(at: Self.exportZip, fileName: nil, mode: ImportMode())
            let list = try await client.send(.get, "/workouts").text
            #expect(list.contains("42 min 25 s · 8.08 km · 402 kcal"), "a run has no sets: its totals instead")
            #expect(list.contains("498 kcal") && !list.contains("0 sets"))
            let run = try #require(try await journal.store.workouts(user: journal.user, limit: 10).first { $0.name == "Running" })
            #expect(
                try await client.send(.get, "/workouts/\(run.id.lowercasedString)").text.contains(
                    "42 min 25 s · 8.08 km · 402 kcal · from Apple Health"))
        }
    }

    @Test func displayUnitsGroupThousandsAndNameWhatIsCounted() {
        let steps = HealthDayChart.DisplayUnit(kept: "count", type: "HKQuantityTypeIdentifierStepCount", cumulative: true)
        #expect(steps.text(12_345.4) == "12,345 steps" && steps.text(1234) == "1234 steps" && steps.text(1_234_567) == "1,234,567 steps")
        #expect(
            HealthDayChart.DisplayUnit(kept: "m", type: "HKQuantityTypeIdentifierDistanceCycling", cumulative: true).text(12_345)
                == "12.3 km")
        #expect(
            HealthDayChart.DisplayUnit(kept: "count", type: "HKQuantityTypeIdentifierBodyMassIndex", cumulative: false).text(25.44)
                == "25.4")
        #expect(
            HealthDayChart.DisplayUnit(kept: "count/min", type: "HKQuantityTypeIdentifierHeartRate", cumulative: false).text(-61.5)
                == "-61.5 bpm")
    }
}
