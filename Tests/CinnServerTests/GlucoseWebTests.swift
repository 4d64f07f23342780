import CinnCore
import CinnServer
import Foundation
import HummingbirdTesting
import Testing

@Suite("Glucose pages")
struct GlucoseWebTests {
    @Test func anEmptyReportSaysWhatToDo() async throws {
        try await withApp { client, _ in
            let page = try await client.send(.get, "/glucose").text
            #expect(page.contains("No glucose readings in these 30 days"))
            #expect(page.contains("Define your meals first"))
            #expect(page.contains(#"<a href="/glucose" class="on">"#), "the Glucose tab is on")
        }
    }

    @Test func formsAddReadingsInsulinMealsAndEvents() async throws {
        try await withApp { client, journal in
            #expect(try await client.post("/glucose/meals", form: "name=Toast&carbohydrate_g=45&kind=common").status == .seeOther)
            let duplicate = try await client.post("/glucose/meals", form: "name=Toast&carbohydrate_g=30")
            #expect(duplicate.status == .conflict && duplicate.text.contains("already have a meal named Toast"))
            #expect(try await client.send(.get, "/glucose/meals").text.contains("45 g carbohydrate"))
            let meal = try #require(try await journal.store.meals(user: journal.user).first?.id)

            for (time, value) in [("07:50", "100"), ("08:15", "120"), ("08:30", "150"), ("08:45", "130"), ("09:00", "90"), ("09:30", "80"),
                                  ("10:00", "110"), ("10:30", "140")] {
                #expect(try await client.post("/glucose/readings", form: "value=\(value)&time=2024-03-14T\(time)&timing=").status == .seeOther)
            }
            #expect(try await client.post("/glucose/insulin", form: "units=4&kind=bolus&insulin=Humalog&time=2024-03-14T07:45").status == .seeOther)
            #expect(try await client.post("/glucose/meal-events", form: "meal_id=\(meal)&time=2024-03-14T08:00&portion=1").status == .seeOther)

            let bad = try await client.post("/glucose/readings", form: "value=abc")
            #expect(bad.status == .unprocessableContent && bad.text.contains("is not a number"))
            let noMeal = try await client.post("/glucose/meal-events", form: "meal_id=&portion=1")
            #expect(noMeal.status == .unprocessableContent && noMeal.text.contains("choose a meal"))

            let report = try await client.send(.get, "/glucose?days=7").text
            #expect(report.contains("In range 70–180 <b>100 %</b>"))
            #expect(report.contains("<td>Toast<br><small class=\"muted\">1 of 1 counted</small></td><td class=\"num\">50 mg/dL</td><td class=\"num\">1494</td>"))
            #expect(report.contains("↑ 50 mg/dL to 150 after 30 min, area 1494, 4 U bolus"))

            let day = try await client.send(.get, "/glucose/days/2024-03-14").text
            #expect(day.contains("<svg") && day.contains("07:45: 4 U bolus (Humalog)") && day.contains("08:00: Toast: ↑ 50 mg/dL"))
            #expect(day.contains("8 readings, mean 115 mg/dL, 100 % in range"))
            let chart = try await client.send(.get, "/glucose/days/2024-03-14/chart.svg")
            #expect(chart.headers[.contentType]?.hasPrefix("image/svg+xml") == true && chart.text.hasPrefix("<svg"))

            let event = try #require(try await journal.store.mealEvents(user: journal.user, from: .distantPast, to: .distantFuture).first?.id)
            #expect(try await client.post("/glucose/meal-events/\(event.uuidString.lowercased())/report", form: "reason=ate+half").status == .seeOther)
            #expect(try await client.send(.get, "/glucose").text.contains("Reported: ate half"))
            #expect(try await client.post("/glucose/meal-events/\(event.uuidString.lowercased())/report", form: "reason=").status == .seeOther)
            #expect(!(try await client.send(.get, "/glucose").text.contains("Reported:")))
        }
    }

    @Test func theDemoHasTwoWeeksOfCGMAndMealsToRank() async throws {
        try await withApp { client, journal in
            #expect(try await journal.fillWithDemoData())
            let report = try await client.send(.get, "/glucose?days=14").text
            #expect(report.contains("Pizza margherita") && report.contains("Chicken salad"))
            let ranking = try await journal.glucoseReport(days: 14).byMeal
            #expect(ranking.first?.name == "Pizza margherita", "the demo's biggest response")
            #expect(ranking.last?.name == "Chicken salad")
            #expect(try await journal.glucoseReport(days: 14).statistics.count > 3000)
        }
    }
}
