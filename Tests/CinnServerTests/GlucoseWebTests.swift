import CinnCore
import CinnJournal
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
            #expect(page.contains(#"Meals you log in the <a href="/food">food log</a> appear here with their response."#))
            #expect(page.contains(#"<a href="/glucose" class="on">"#), "the Glucose tab is on")
        }
    }

    /// A post that worked says so at the top; one that did not shows its error in its own form, which the answer opens at
    /// (the form's action names it); a reading in the other unit's range offers that unit before it is saved.
    @Test func eachFormAnswersAtItsPlace() async throws {
        try await withApp { client, journal in
            let added = try await client.post("/glucose/readings", form: "value=104&time=2024-03-14T08:00")
            #expect(added.status == .seeOther && added.headers[.location] == "/glucose?done=add-reading#notice")
            #expect(
                try await client.send(.get, "/glucose?done=add-reading").text.contains(#"role="status" id="notice">Reading added.</p>"#))

            let page = try await client.send(.get, "/glucose").text
            #expect(page.contains(#"<form class="card" id="add-insulin" method="post" action="/glucose/insulin#add-insulin">"#))
            #expect(!page.contains("Reading added."))

            let wrong = try await client.post("/glucose/insulin", form: "units=&kind=bolus")
            #expect(wrong.status == .unprocessableContent)
            let insulinForm = try #require(wrong.text.firstRange(of: #"id="add-insulin""#))
            let error = try #require(wrong.text.firstRange(of: #"<p class="error" role="alert">enter the units</p>"#))
            #expect(error.lowerBound > insulinForm.lowerBound, "the error is inside the insulin form")
            #expect(wrong.text.ranges(of: #"class="error""#).count == 1)

            let slip = try await client.post("/glucose/readings", form: "value=7.8&time=2024-03-14T09:00&note=kitchen")
            #expect(slip.status == .unprocessableContent)
            #expect(slip.text.contains("7.8 mg/dL looks like mmol/L: did you mean 7.8 mmol/L = 141 mg/dL?"))
            #expect(slip.text.contains(#"<input type="hidden" name="unit" value="mmol/L">"#))
            #expect(slip.text.contains("It was 7.8 mmol/L"))
            #expect(!slip.text.contains("Save 7.8 mg/dL anyway"), "7.8 mg/dL is not a reading Cinn keeps")
            #expect(try await journal.store.glucoseReadings(user: journal.user).count == 1)
            let confirmed = try await client.post(
                "/glucose/readings", form: "value=7.8&unit=mmol%2FL&time=2024-03-14T09:00&note=kitchen&confirm=true")
            #expect(confirmed.status == .seeOther)
            let readings = try await journal.store.glucoseReadings(user: journal.user)
            #expect(readings.map { Int($0.glucose.milligramsPerDeciliter.rounded()) }.sorted() == [104, 141])
            let low = try await client.post("/glucose/readings", form: "value=25&time=2024-03-14T09:30")
            #expect(low.text.contains("Save 25 mg/dL anyway") && low.text.contains("It was 25 mmol/L"))
        }
    }

    /// A meal just after midnight is the day's: its marker is on that day's chart, in any time zone.
    @Test(arguments: ["UTC", "Europe/Berlin", "America/Los_Angeles"])
    func aMealJustAfterMidnightIsMarkedOnItsDay(_ zone: String) async throws {
        try await withApp { client, _ in
            try await client.send(.put, "/api/v1/settings", json: #"{"time_zone":"\#(zone)"}"#)
            let bar = try await client.makeFood()
            #expect(
                try await client.post("/food/log/\(bar)", form: "servings=1&serving=1+bar&meal=snack&date=2024-03-14&time=00%3A16").status
                    == .seeOther)
            #expect(try await client.post("/glucose/readings", form: "value=104&time=2024-03-14T00:10").status == .seeOther)
            let day = try await client.send(.get, "/glucose/days/2024-03-14").text
            #expect(day.contains("00:16: "), "the meal's marker on the day chart: \(zone)")
            #expect(!(try await client.send(.get, "/glucose/days/2024-03-13").text.contains("00:16: ")))
        }
    }

    /// The Glucose page's live chart marks the meals of its hours too.
    @Test func theLiveChartMarksTheMealsOfItsHours() async throws {
        try await withApp { client, _ in
            let bar = try await client.makeFood()
            #expect(
                try await client.post("/food/log/\(bar)", form: "servings=1&serving=1+bar&meal=lunch&date=2024-03-15&time=11%3A00").status
                    == .seeOther)
            let live = try await client.send(.get, "/glucose/live?hours=3").text
            #expect(live.contains("<title>11:00: "), "\(live)")
            #expect(!(try await client.send(.get, "/glucose/live?hours=3").text.contains("<title>08:")), "only the window's")
        }
    }

    /// GMI and CV wait for what the consensus asks (14 days of CGM readings at 70 %), and say what is missing.
    @Test func gmiAndVariabilityWaitForEnoughReadings() async throws {
        try await withApp { client, _ in
            #expect(try await client.post("/glucose/readings", form: "value=104").status == .seeOther)
            let page = try await client.send(.get, "/glucose").text
            #expect(page.contains("not sure yet") && page.contains("needs 14 days of CGM readings, 70 % of the time: 1 day and 0 % so far"))
            #expect(!page.contains("5.8 %"), "no GMI from one reading: 3.31 + 0.02392 × 104 = 5.8")
            let profile = try await client.send(.get, "/glucose/agp").text
            #expect(profile.contains("not sure yet") && profile.contains("after 14 days at 70 %") && !profile.contains("5.8 %"))
        }
    }

    @Test func formsAddReadingsInsulinMealsAndEvents() async throws {
        try await withApp { client, journal in
            let added = try await client.post("/glucose/meals", form: "name=Toast&carbohydrate_g=45&kind=common")
            #expect(added.headers[.location] == "/glucose/meals?done=meal-added#notice")
            #expect(
                try await client.send(.get, "/glucose/meals?done=meal-added").text.contains(
                    #"<p class="notice card" role="status" id="notice">Meal added.</p>"#))
            let duplicate = try await client.post("/glucose/meals", form: "name=Toast&carbohydrate_g=30")
            #expect(duplicate.status == .conflict && duplicate.text.contains("already have a meal named Toast"))
            #expect(try await client.send(.get, "/glucose/meals").text.contains("45 g carbohydrate"))
            let meal = try #require(try await journal.store.meals(user: journal.user).first?.id)

            for (time, value) in [
                ("07:50", "100"), ("08:15", "120"), ("08:30", "150"), ("08:45", "130"), ("09:00", "90"), ("09:30", "80"),
                ("10:00", "110"), ("10:30", "140"),
            ] {
                #expect(
                    try await client.post("/glucose/readings", form: "value=\(value)&time=2024-03-14T\(time)&timing=").status == .seeOther)
            }
            #expect(
                try await client.post("/glucose/insulin", form: "units=4&kind=bolus&insulin=Humalog&time=2024-03-14T07:45").status
                    == .seeOther)
            #expect(
                try await client.post("/glucose/meal-events", form: "meal_id=\(meal)&time=2024-03-14T08:00&portion=1").status == .seeOther)

            let bad = try await client.post("/glucose/readings", form: "value=abc")
            #expect(bad.status == .unprocessableContent && bad.text.contains("is not a number"))
            let noMeal = try await client.post("/glucose/meal-events", form: "meal_id=&portion=1")
            #expect(noMeal.status == .unprocessableContent && noMeal.text.contains("choose a meal"))

            let report = try await client.send(.get, "/glucose?days=7").text
            #expect(report.contains("In range 70–180 <b>100 %</b>"))
            #expect(
                report.contains(
                    "<td>Toast<br><small class=\"muted\">1 of 1 counted</small></td><td class=\"num\">50 mg/dL</td><td class=\"num\">1494</td>"
                ))
            #expect(report.contains("↑ 50 mg/dL to 150 after 30 min, area 1494 mg/dL·min, 4 U bolus"))

            let day = try await client.send(.get, "/glucose/days/2024-03-14").text
            #expect(day.contains("<svg") && day.contains("07:45: 4 U bolus (Humalog)") && day.contains("08:00: Toast: ↑ 50 mg/dL"))
            #expect(day.contains("8 readings, mean 115 mg/dL, 100 % in range"))
            let chart = try await client.send(.get, "/glucose/days/2024-03-14/chart.svg")
            #expect(chart.headers[.contentType]?.hasPrefix("image/svg+xml") == true && chart.text.hasPrefix("<svg"))

            let event = try #require(
                try await journal.store.mealEvents(user: journal.user, from: .distantPast, to: .distantFuture).first?.id)
            #expect(
                try await client.post("/glucose/meal-events/\(event.uuidString.lowercased())/report", form: "reason=ate+half").status
                    == .seeOther)
            #expect(try await client.send(.get, "/glucose").text.contains("Reported: ate half"))
            #expect(
                try await client.post("/glucose/meal-events/\(event.uuidString.lowercased())/report", form: "reason=").status == .seeOther)
            #expect(!(try await client.send(.get, "/glucose").text.contains("Reported:")))

            // Deleting a reading or a dose from a day's page goes back to that day, and says so.
            #expect(day.contains(#"<input type="hidden" name="day" value="2024-03-14">"#))
            let reading = try #require(try await journal.store.glucoseReadings(user: journal.user).first?.id)
            let deleted = try await client.post("/glucose/readings/\(reading.uuidString.lowercased())/delete", form: "day=2024-03-14")
            #expect(deleted.headers[.location] == "/glucose/days/2024-03-14?done=reading-deleted#notice")
            #expect(
                try await client.send(.get, "/glucose/days/2024-03-14?done=reading-deleted").text.contains(
                    #"<p class="notice card" role="status" id="notice">Reading deleted.</p>"#))
            #expect(try await client.send(.get, "/glucose/days/2024-03-14").text.contains("7 readings"))
        }
    }

    /// The demo's glucose answers its food log: the meals the report ranks are the diary's, the most carbohydrate first.
    @Test func theDemoHasTwoWeeksOfCGMAndMealsToRank() async throws {
        try await withApp { client, journal in
            #expect(try await journal.fillWithDemoData())
            let report = try await journal.glucoseReport(days: 14)
            #expect(report.statistics.count > 3000)
            #expect(report.events.allSatisfy { $0.event.diaryMeal != nil } && report.events.count > 30)
            let ranking = report.byMeal
            let first = try #require(ranking.first), last = try #require(ranking.last { $0.meanArea != nil })
            #expect(try #require(first.meanRise) > 2 * (try #require(last.meanRise)), "\(first.name) against \(last.name)")
            let carbohydrate = Dictionary(report.events.map { ($0.event.mealID, $0.event.carbohydrateGrams ?? 0) }) { first, _ in first }
            #expect(try #require(carbohydrate[first.id]) > (try #require(carbohydrate[last.id])))
            let page = try await client.send(.get, "/glucose?days=14").text
            #expect(page.contains(first.name) && page.contains("in the food log</a>"))
        }
    }
}
