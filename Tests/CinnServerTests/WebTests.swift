import CinnCore
import CinnJournal
import CinnServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Web app")
struct WebTests {
    @Test func emptyDashboard() async throws {
        try await withApp { client, _ in
            let response = try await client.send(.get, "/")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(response.text.components(separatedBy: "No weigh-ins yet").count == 2, "said once, without an empty chart")
            #expect(!response.text.contains("trend-chart"))
            #expect(response.text.contains(#"data-answer="unknown""#))
            #expect(response.text.contains(#"<form id="add-weight""#))
        }
    }

    @Test func dashboardWithData() async throws {
        try await withApp { client, _ in
            for day in 1...10 { try await client.addWeighIn(80 - Double(day) / 10, date: String(format: "2024-03-%02d", day)) }
            try await client.send(.put, "/api/v1/goal", json: #"{"weight":75}"#)
            let page = try await client.send(.get, "/").text
            #expect(page.contains("<svg"))
            #expect(page.contains(#"id="trend-chart""#))
            #expect(page.contains(#"id="verdict""#))
            #expect(!page.contains("No weigh-ins yet"))
            for range in ["week", "month", "quarter", "year", "all"] {
                #expect(try await client.send(.get, "/?range=\(range)").status == .ok)
            }
            #expect(try await client.send(.get, "/?range=decade").status == .unprocessableContent)
        }
    }

    /// On a phone, the charts' labels are 15 of their 400 units (12 px or more at 390 px wide), as the charts space them.
    @Test func theStyleSheetDrawsChartLabelsLargerOnAPhone() async throws {
        try await withApp { client, _ in
            let css = try await client.send(.get, "/static/cinn.css").text
            let phone = try #require(css.range(of: "@media (max-width:600px) {"))
            #expect(css[phone.upperBound...].hasPrefix("\n  main svg[viewBox][role=img] { font-size:15px; }"))
            #expect(
                css.contains("@media (min-width:700px) { form.set-form > label { flex:0 0 7.5rem; } }"),
                "a set's weight and reps boxes sized to a few digits on a wide screen")
        }
    }

    @Test func theWeighInsLogShowsTheTrendAndChangesAndAMonthDayByDay() async throws {
        try await withApp { client, _ in
            for (date, weight) in [("2024-02-28", "80.0"), ("2024-03-01", "80.6"), ("2024-03-04", "80.2")] {
                #expect(try await client.post("/weigh-ins", form: "weight=\(weight)&date=\(date)").status == .seeOther)
            }
            let log = try await client.send(.get, "/weigh-ins").text
            #expect(log.contains(#"<table class="weight-log" id="weigh-in-log">"#))
            #expect(log.contains(#"<a href="/" class="on">"#), "the weigh-ins belong to the Weight tab")
            let id = try #require(log.firstMatch(of: #/href="/weigh-ins/([0-9a-f-]{36})/edit"/#)?.1)
            #expect(try await client.send(.get, "/weigh-ins/\(id)/edit").text.contains(#"<a href="/" class="on">"#))
            #expect(log.contains(#"<td class="num">−0.4</td>"#), "80.2 after 80.6")
            #expect(log.contains(#"<td class="num">+0.6</td>"#), "80.6 after 80.0")
            #expect(log.contains(#"href="/weigh-ins?month=2024-03" id="month-view""#))
            let march = try await client.send(.get, "/weigh-ins?month=2024-03").text
            #expect(march.contains("<h1>Weigh-ins, Mar 2024</h1>"))
            #expect(march.contains(#"<tr class="interpolated"><td>Sat 2</td>"#), "a day without a weigh-in is filled in")
            #expect(march.contains(#"id="month-summary">The trend went from 80.03 to"#), "from 29 Feb's trend: 80 + (80.3 − 80) / 10")
            #expect(try await client.send(.get, "/weigh-ins?month=2024-13").status == .unprocessableContent)
        }
    }

    @Test func addWeightByForm() async throws {
        try await withApp { client, journal in
            let response = try await client.post("/weigh-ins", form: "weight=72.4&date=2024-03-15")
            #expect(response.status == .seeOther)
            let stored = try await journal.store.weighIns(user: journal.user)
            #expect(stored.map(\.weight.kilograms) == [72.4])
            #expect(stored.first?.localDate.iso == "2024-03-15")
            let location = try #require(response.headers[.location])
            #expect(location == "/?added=\(try #require(stored.first).id.lowercasedString)")
            let page = try await client.send(.get, location).text
            #expect(page.contains(#"id="trend-chart""#))
            #expect(page.contains(#"<p class="notice card" role="status" id="notice">Saved 72.4 kg for today.</p>"#))
            #expect(!(try await client.send(.get, "/").text.contains("Saved 72.4")), "the notice is for the page the post led to")
        }
    }

    /// Today's reading from the form is stored when it was entered, not at noon: at 08:00 its edit form shows 08:00,
    /// and saving only a new note works (it failed with "…T12:00 is in the future" until noon).
    @Test func todaysWeighInIsStoredWhenEnteredAndItsNoteCanBeEditedAtOnce() async throws {
        try await withStore { store in
            let morning = Date(timeIntervalSince1970: 1_710_489_600)  // 2024-03-15T08:00:00Z
            let journal = Journal(store: store, user: try await store.localUser(), now: { morning })
            try await store.saveSettings(UserSettings(timeZoneIdentifier: "UTC", onboarded: true), user: journal.user)
            try await Application(router: buildRouter(journal: journal)).test(.router) { client in
                #expect(try await client.post("/weigh-ins", form: "weight=80.3&date=2024-03-15").status == .seeOther)
                let stored = try #require(try await store.weighIns(user: journal.user).first)
                #expect(stored.measuredAt == morning)
                let form = try await client.send(.get, "/weigh-ins/\(stored.id.lowercasedString)/edit").text
                #expect(form.contains(#"value="2024-03-15T08:00:00""#))
                let saved = try await client.post(
                    "/weigh-ins/\(stored.id.lowercasedString)",
                    form: "weight=80.3&date=2024-03-15T08:00:00&note=after%20coffee")
                #expect(saved.status == .seeOther)
                #expect(try await store.weighIns(user: journal.user).map(\.note) == ["after coffee"])
                #expect(try await client.post("/weigh-ins", form: "weight=80.1&date=2024-03-14").status == .seeOther)
                #expect(
                    try await store.weighIns(user: journal.user).map(\.measuredAt).contains(Date(timeIntervalSince1970: 1_710_417_600)),
                    "an earlier day is stored at its local noon")
            }
        }
    }

    /// 8.03 for 80.3 is not saved from the form until confirmed: the page shows the value, "Save anyway" and "Fix it".
    @Test func aWeightFarFromTheTrendIsSavedOnlyOnceConfirmed() async throws {
        try await withApp { client, journal in
            for day in 10...14 { try await client.addWeighIn(80.3, date: "2024-03-\(day)") }
            let questioned = try await client.post("/weigh-ins", form: "weight=8.03&date=2024-03-15&note=after%20run")
            #expect(questioned.status == .unprocessableContent)
            let page = questioned.text
            #expect(page.contains("8.03 kg is 90 % away from your trend, 80.3 kg: is that right?"))
            #expect(page.contains(#"<input type="hidden" name="confirm" value="true">"#))
            #expect(page.contains(#"<input type="hidden" name="note" value="after run">"#))
            #expect(page.contains(#"<button type="submit" id="save-anyway">Save 8.03 kg anyway</button>"#))
            #expect(page.contains(##"<a class="button secondary" href="#weight">Fix it</a>"##))
            #expect(page.contains(#"value="8.03""#), "the form keeps the value to fix")
            #expect(try await journal.count() == 5)
            let confirmed = try await client.post("/weigh-ins", form: "weight=8.03&date=2024-03-15&note=after%20run&confirm=true")
            #expect(confirmed.status == .seeOther)
            #expect(try await journal.store.weighIns(user: journal.user).first?.weight.kilograms == 8.03)
        }
    }

    /// Editing 80.3 into 8.03 asks too, against the trend before that day; an edit that keeps the weight never asks.
    @Test func anEditedWeightFarFromTheTrendIsSavedOnlyOnceConfirmed() async throws {
        try await withApp { client, journal in
            for day in 10...14 { try await client.addWeighIn(80.3, date: "2024-03-\(day)") }
            let id = try #require(try await journal.store.weighIns(user: journal.user, limit: 1).first?.id.lowercasedString)
            let questioned = try await client.post("/weigh-ins/\(id)", form: "weight=8.03&date=2024-03-14T12:00:00&note=")
            #expect(questioned.status == .unprocessableContent)
            #expect(questioned.text.contains("8.03 kg is 90 % away from your trend, 80.3 kg: is that right?"))
            #expect(questioned.text.contains(#"<button type="submit" id="save-anyway">Save 8.03 kg anyway</button>"#))
            #expect(questioned.text.contains(#"id="weight" name="weight" inputmode="decimal" required value="8.03""#))
            #expect(try await journal.store.weighIns(user: journal.user, limit: 1).first?.weight.kilograms == 80.3)
            let noted = try await client.post("/weigh-ins/\(id)", form: "weight=80.30&date=2024-03-14T12:00:00&note=fine")
            #expect(noted.status == .seeOther, "the weight it showed, sent back unchanged, is not questioned")
            let confirmed = try await client.post("/weigh-ins/\(id)", form: "weight=8.03&date=2024-03-14T12:00:00&note=&confirm=true")
            #expect(confirmed.headers[.location] == "/weigh-ins?done=weigh-in-saved#notice")
            #expect(try await journal.store.weighIns(user: journal.user, limit: 1).first?.weight.kilograms == 8.03)
            #expect(
                try await client.send(.get, "/weigh-ins?done=weigh-in-saved").text
                    .contains(#"<p class="notice card" role="status" id="notice">Weigh-in saved.</p>"#))
        }
    }

    /// The delete page names the reading as pages show a day and a time, not as ISO 8601.
    @Test func theDeletePageNamesTheReadingPlainly() async throws {
        try await withApp { client, journal in
            let added = try await client.send(
                .post, "/api/v1/weigh-ins", json: #"{"weight":80.3,"measured_at":"2024-03-14T07:41:00+01:00"}"#)
            let id = try #require(try added.json()["id"]?.string)
            let page = try await client.send(.get, "/weigh-ins/\(id)/delete").text
            #expect(page.contains("<p><b>80.30 kg</b> on 14 Mar 2024 at 07:41</p>"))
            #expect(!page.contains("2024-03-14T07:41"))
            #expect(try await journal.count() == 1)
        }
    }

    @Test func decimalCommaInTheForm() async throws {
        try await withApp { client, journal in
            let response = try await client.post("/weigh-ins", form: "weight=72%2C4&date=2024-03-14")
            #expect(response.status == .seeOther)
            #expect(try await journal.store.weighIns(user: journal.user).map(\.weight.kilograms) == [72.4])
        }
    }

    @Test(arguments: [
        "weight=abc&date=2024-03-15", "weight=0", "weight=&date=2024-03-15", "weight=72&date=2024-02-30",
        "weight=72&date=2024-03-16", "weight=900",
    ])
    func invalidFormShowsTheError(form: String) async throws {
        try await withApp { client, journal in
            let response = try await client.post("/weigh-ins", form: form)
            #expect(response.status == .unprocessableContent)
            #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(response.text.contains(#"class="error" role="alert""#))
            #expect(response.text.contains(#"<form id="add-weight""#))
            #expect(try await journal.count() == 0)
        }
    }

    @Test func formKeepsWhatWasTyped() async throws {
        try await withApp { client, _ in
            let page = try await client.post("/weigh-ins", form: "weight=abc&date=2024-03-15").text
            #expect(page.contains(#"value="abc""#))
        }
    }

    @Test func listEditAndDelete() async throws {
        try await withApp { client, journal in
            let id = try #require(try await client.addWeighIn(72.4, date: "2024-03-01")["id"]?.string)
            let list = try await client.send(.get, "/weigh-ins")
            #expect(list.status == .ok)
            #expect(list.text.contains("/weigh-ins/\(id)/edit"))
            #expect(list.text.contains("72.4"))

            let form = try await client.send(.get, "/weigh-ins/\(id)/edit")
            #expect(form.status == .ok)
            #expect(form.text.contains(#"action="/weigh-ins/\#(id)""#))
            #expect(form.text.contains(#"value="72.4"#))
            #expect(form.text.contains("/weigh-ins/\(id)/delete"))
            let saved = try await client.post("/weigh-ins/\(id)", form: "weight=73.1&date=2024-03-02T08%3A30%3A00&note=new+scale")
            #expect(saved.status == .seeOther)
            #expect(saved.headers[.location] == "/weigh-ins?done=weigh-in-saved#notice")
            let edited = try await journal.store.weighIn(id: try #require(UUID(uuidString: id)), user: journal.user)
            #expect(edited.weight.kilograms == 73.1)
            #expect(edited.localTimeISO == "2024-03-02T08:30:00+00:00")
            #expect(edited.note == "new scale")

            let invalid = try await client.post("/weigh-ins/\(id)", form: "weight=-3")
            #expect(invalid.status == .unprocessableContent)
            #expect(invalid.text.contains(#"role="alert""#))
            #expect(try await journal.store.weighIn(id: edited.id, user: journal.user).weight.kilograms == 73.1)

            let confirm = try await client.send(.get, "/weigh-ins/\(id)/delete")
            #expect(confirm.status == .ok)
            #expect(confirm.text.contains(#"action="/weigh-ins/\#(id)/delete""#))
            let deleted = try await client.post("/weigh-ins/\(id)/delete", form: "")
            #expect(deleted.status == .seeOther)
            #expect(deleted.headers[.location] == "/weigh-ins?done=weigh-in-deleted#notice")
            #expect(
                try await client.send(.get, "/weigh-ins?done=weigh-in-deleted").text.contains(
                    #"<p class="notice card" role="status" id="notice">Weigh-in deleted.</p>"#))
            #expect(
                !(try await client.send(.get, "/weigh-ins?done=Hacked").text.contains(#"id="notice""#)),
                "only the fixed sentences can appear")
            #expect(try await journal.count() == 0)
            #expect(try await client.send(.get, "/weigh-ins/\(id)/edit").status == .notFound)
            #expect(try await client.send(.get, "/weigh-ins").text.contains("No weigh-ins yet"))
        }
    }

    @Test func unknownWeighInPagesAreNotFound() async throws {
        try await withApp { client, _ in
            for path in ["/weigh-ins/\(UUID().uuidString)/edit", "/weigh-ins/nope/delete"] {
                let response = try await client.send(.get, path)
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
            }
        }
    }

    @Test func settingsAndGoalForms() async throws {
        try await withApp { client, journal in
            let page = try await client.send(.get, "/settings")
            #expect(page.status == .ok)
            #expect(page.text.contains(#"action="/settings""#))

            let saved = try await client.post("/settings", form: "unit=lb&trend_method=pencil&time_zone=Europe%2FBerlin")
            #expect(saved.status == .seeOther)
            #expect(saved.headers[.location] == "/settings?done=settings#notice")
            #expect(try await client.send(.get, "/settings?done=settings").text.contains(#"id="notice">Settings saved.</p>"#))
            #expect(!(try await client.send(.get, "/settings").text.contains("Settings saved.")))
            let settings = try await journal.settings()
            #expect(settings.displayUnit == .pounds)
            #expect(settings.trendMethod == .pencil)
            #expect(settings.timeZone.identifier == "Europe/Berlin")

            let badZone = try await client.post("/settings", form: "time_zone=Nowhere%2FLand")
            #expect(badZone.status == .unprocessableContent)
            #expect(badZone.text.contains(#"role="alert""#))
            #expect(try await journal.settings().timeZone.identifier == "Europe/Berlin")

            let goal = try await client.post("/goal", form: "weight=154&rate=1")
            #expect(goal.status == .seeOther)
            #expect(goal.headers[.location] == "/?done=goal#notice")
            #expect(try await client.send(.get, "/?done=goal").text.contains(#"id="notice">Goal saved.</p>"#))
            let stored = try #require(try await journal.store.goal(user: journal.user))
            #expect(abs(stored.weight.value(in: .pounds) - 154) < 1e-9)
            #expect(try await client.send(.get, "/settings").text.contains(#"action="/goal/clear""#))

            #expect(try await client.post("/goal", form: "weight=0").status == .unprocessableContent)
            let cleared = try await client.post("/goal/clear", form: "")
            #expect(cleared.status == .seeOther)
            #expect(cleared.headers[.location] == "/settings?done=goal-cleared#notice")
            #expect(try await client.send(.get, "/settings?done=goal-cleared").text.contains("Goal cleared."))
            #expect(try await journal.store.goal(user: journal.user) == nil)
        }
    }

    @Test func importUploadCheckImportAndUndo() async throws {
        try await withApp { client, journal in
            let form = try await client.send(.get, "/import")
            #expect(form.status == .ok)
            #expect(form.text.contains(#"enctype="multipart/form-data""#))

            let check = try await client.upload(threeDays, fileName: "weights.csv")
            #expect(check.status == .ok)
            let token = try #require(check.text.firstMatch(of: /action="\/import\/([0-9a-f-]{36})"/)?.1)
            #expect(try await journal.count() == 0)

            let imported = try await client.post("/import/\(token)", form: "")
            #expect(imported.status == .ok)
            #expect(imported.text.contains(#"id="import-report""#))
            #expect(try await journal.count() == 3)
            // The token is used up.
            #expect(try await client.post("/import/\(token)", form: "").status == .notFound)

            let list = try await client.send(.get, "/import").text
            let id = try #require(list.firstMatch(of: /href="\/imports\/(\d+)\/undo">Undo…</)?.1)
            #expect(list.contains("weights.csv"))
            let confirm = try await client.send(.get, "/imports/\(id)/undo").text
            #expect(confirm.contains("<h1>Undo import #\(id)?</h1>"))
            #expect(confirm.contains("This removes the 3 weigh-ins it added, from 3 days (1 Mar – 3 Mar 2024)."))
            #expect(confirm.contains(#"<form class="card" method="post" action="/imports/\#(id)/undo">"#))
            #expect(try await journal.count() == 3, "asking removes nothing")
            let undo = try await client.post("/imports/\(id)/undo", form: "")
            #expect(undo.status == .seeOther)
            #expect(undo.headers[.location] == "/import?done=import-undone#notice")
            #expect(
                try await client.send(.get, "/import?done=import-undone").text.contains("Import undone: everything it brought is removed."))
            #expect(try await journal.count() == 0)
            #expect(try await client.post("/imports/\(id)/undo", form: "").status == .conflict)
        }
    }

    @Test func importsReportTheirProgressToThePage() async throws {
        try await withApp { client, journal in
            let page = try await client.send(.get, "/import").text
            #expect(page.contains("data-progress-form") && page.contains(#"<script src="/static/progress.js">"#))
            #expect(
                try await client.send(.get, "/static/progress.js").text.contains("/import/progress/"),
                "the page's script polls for progress")
            let id = UUID().uuidString.lowercased()
            #expect(try await client.send(.get, "/import/progress/\(id)").status == .notFound)

            let check = try await client.upload(threeDays, fileName: "weights.csv", fields: ["progress": id])
            let token = try #require(check.text.firstMatch(of: /action="\/import\/([0-9a-f-]{36})"/)?.1)
            #expect(check.text.contains(#"data-progress="\#(token)""#))
            #expect(check.text.contains("Import 3 weigh-ins"))
            let checked = try await client.send(.get, "/import/progress/\(id)").json()
            #expect(
                checked["phase"] == .string("checking") && checked["rowsRead"] == .number(3) && checked["fraction"] == .number(1)
                    && checked["done"] == .bool(true))

            #expect(try await client.post("/import/\(token)", form: "").status == .ok)
            let imported = try await client.send(.get, "/import/progress/\(token)").json()
            #expect(imported["phase"] == .string("importing") && imported["rowsRead"] == .number(3) && imported["done"] == .bool(true))
            #expect(try await journal.count() == 3)
            #expect(try await client.send(.get, "/import/progress/not-an-id").status == .notFound)
        }
    }

    /// A plain date,weight file asks for its unit on the page (no command-line flags), and keeps the upload meanwhile.
    @Test func aFileWithoutAUnitAsksForItOnThePage() async throws {
        try await withApp { client, journal in
            let asked = try await client.upload("date,weight\n2024-03-01,80.1\n2024-03-02,80.3\n", fileName: "scale.csv")
            #expect(asked.status == .unprocessableContent)
            #expect(asked.text.contains("<h1>Which unit are the weights in?</h1>"))
            #expect(!asked.text.contains("--unit"))
            let token = try #require(asked.text.firstMatch(of: /action="\/import\/([0-9a-f-]{36})\/unit"/)?.1)
            let checked = try await client.post("/import/\(token)/unit", form: "unit=lb")
            #expect(checked.status == .ok && checked.text.contains("Import 2 weigh-ins"))
            #expect(try await client.post("/import/\(token)", form: "").status == .ok)
            #expect(
                try await journal.store.weighIns(user: journal.user).map { ($0.weight.value(in: .pounds) * 10).rounded() / 10 } == [
                    80.3, 80.1,
                ])

            let unreadable = try await client.upload("this is not a weight file", fileName: "notes.txt")
            #expect(unreadable.status == .unprocessableContent)
            #expect(
                unreadable.text.contains(#"<form class="card" id="import-form""#)
                    && unreadable.text.contains(#"<p class="error" role="alert">"#),
                "an unreadable file is named beside the form, not on an error page")
        }
    }

    /// A MyFitnessPal diary a spreadsheet saved with dates that read both ways asks which comes first, on the page.
    @Test func aSpreadsheetsDatesAskTheirOrderOnThePage() async throws {
        try await withApp { client, journal in
            let diary =
                "Date,Meal,Calories,Fat (g),Carbohydrates (g),Protein (g)\r\n3/1/2024,Breakfast,312,9.1,38.6,19.4\r\n"
                + "3/2/2024,Lunch,512,16.4,58.2,31.5\r\n"
            let asked = try await client.upload(diary, fileName: "Nutrition-Summary-2024.csv")
            #expect(asked.status == .unprocessableContent)
            #expect(asked.text.contains("<h1>Which comes first in the dates?</h1>") && asked.text.contains("&quot;3/1/2024&quot;"))
            #expect(!asked.text.contains("--date-order"))
            let token = try #require(asked.text.firstMatch(of: /action="\/import\/([0-9a-f-]{36})\/date-order"/)?.1)
            let checked = try await client.post("/import/\(token)/date-order", form: "date_order=month-first")
            #expect(checked.status == .ok && checked.text.contains("Import 2 records"))
            #expect(try await client.post("/import/\(token)", form: "").status == .ok)
            let days = try await journal.store.foodEntries(
                user: journal.user, from: LocalDate(iso: "2024-01-01")!, to: LocalDate(iso: "2024-12-31")!)
            #expect(days.map(\.localDate.iso).sorted() == ["2024-03-01", "2024-03-02"])
        }
    }

    @Test func aWorkoutFileImportsThroughTheWebPage() async throws {
        try await withApp { client, _ in
            let fitbod = """
                Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),Incline,Resistance,isWarmup,Note,multiplier
                2024-03-13 18:00:00 +0000,Back Squat,5,140,0,0,0,0,false,,1
                2024-03-13 18:00:00 +0000,Back Squat,5,140,0,0,0,0,false,,1
                """
            let check = try await client.upload(fitbod, fileName: "WorkoutExport.csv")
            #expect(check.text.contains("Import 2 sets"))
            let token = try #require(check.text.firstMatch(of: /action="\/import\/([0-9a-f-]{36})"/)?.1)
            let imported = try await client.post("/import/\(token)", form: "")
            #expect(imported.text.contains(#"href="/lifts""#))
            #expect(try await client.send(.get, "/lifts").text.contains("Back Squat"))
        }
    }

    /// Rows with nothing to import are counted and named in the person's words, so the numbers add up.
    @Test func theReportSaysWhatTheSkippedRowsAre() async throws {
        try await withApp { client, _ in
            let strong = """
                Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
                2024-03-04 18:02:37,"Upper A",1h 5m,"Bench Press (Barbell)",1,135.0,5,0,0,,,7.5
                2024-03-04 18:02:37,"Upper A",1h 5m,"Bench Press (Barbell)",Rest Timer,0,0.0,0,120.0,,,
                2024-03-04 18:02:37,"Upper A",1h 5m,"Bench Press (Barbell)",2,135.0,5,0,0,,,8
                """
            let check = try await client.upload(strong, fileName: "strong.csv", fields: ["unit": "lb"])
            #expect(check.text.contains("Import 2 sets"), "\(check.text)")
            #expect(
                check.text.contains(
                    #"<tr><td>Nothing to import <span class="muted">(rest timers and notes)</span></td><td class="num">1</td></tr>"#))
        }
    }

    @Test func uploadWithBadRowsOffersToImportTheGoodOnes() async throws {
        try await withApp { client, journal in
            let check = try await client.upload(withBadRows, fileName: "bad.csv")
            #expect(check.status == .ok)
            #expect(check.text.contains("Line 3"))
            #expect(check.text.contains("Line 5"))
            let good = try #require(check.text.firstMatch(of: /action="\/import\/([0-9a-f-]{36})\?skip_invalid=true"/)?.1)
            #expect(check.text.contains("Import the 2 good weigh-ins"))
            #expect(try await client.post("/import/\(good)?skip_invalid=true", form: "").status == .ok)
            #expect(try await journal.count() == 2)
            try await journal.store.undoImport(id: 1, user: journal.user)

            let skipping = try await client.upload(withBadRows, fileName: "bad.csv", fields: ["skip_invalid": "true"])
            let token = try #require(skipping.text.firstMatch(of: /action="\/import\/([0-9a-f-]{36})"/)?.1)
            #expect(try await client.post("/import/\(token)", form: "").status == .ok)
            #expect(try await journal.count() == 2)
        }
    }

    @Test func uploadOfAnEmptyFileShowsTheProblem() async throws {
        try await withApp { client, journal in
            let response = try await client.upload("", fileName: "empty.csv")
            #expect(response.status == .unprocessableContent)
            #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(try await journal.count() == 0)
        }
    }

    @Test func uploadWithoutMultipart() async throws {
        try await withApp { client, _ in
            let response = try await client.send(.post, "/import", body: threeDays, contentType: "text/csv")
            #expect(response.status == .badRequest)
        }
    }

    @Test func chartAndExportDownloads() async throws {
        try await withApp { client, _ in
            try await client.addWeighIn(80, date: "2024-03-01")
            try await client.addWeighIn(79, date: "2024-03-05")
            let chart = try await client.send(.get, "/chart.svg?range=month")
            #expect(chart.status == .ok)
            #expect(chart.headers[.contentType] == "image/svg+xml")
            #expect(chart.text.contains("<svg"))
            let csv = try await client.send(.get, "/export.csv")
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(csv.headers[.contentDisposition]?.contains("attachment") == true)
            #expect(csv.text.hasPrefix("date,weight,unit,note,source,id\n"))
            #expect(csv.text.split(separator: "\n").count == 3)
            let json = try await client.send(.get, "/export.json")
            #expect(try json.json()["weigh_ins"]?.array?.count == 2)
        }
    }

    @Test func unknownPageIsAnHTMLNotFound() async throws {
        try await withApp { client, _ in
            let response = try await client.send(.get, "/no/such/page")
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(response.text.contains("<h1>Not found</h1>"))
            let api = try await client.send(.get, "/api/v1/nothing-here")
            try expectError(api, .notFound, code: "not_found")
        }
    }

    @Test func health() async throws {
        try await withApp { client, _ in
            let response = try await client.send(.get, "/health")
            #expect(response.status == .ok)
            #expect(response.text == "ok")
        }
    }
}

extension TestClientProtocol {
    /// Posts a `multipart/form-data` upload of `text` as the `file` field, as a browser does.
    func upload(_ text: String, fileName: String, fields: [String: String] = [:]) async throws -> TestResponse {
        let boundary = "----cinn-test-\(UUID().uuidString)"
        var body = ""
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
        }
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"format\"\r\n\r\n\r\n"
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(fileName)\"\r\n"
        body += "Content-Type: text/csv\r\n\r\n\(text)\r\n--\(boundary)--\r\n"
        return try await send(.post, "/import", body: body, contentType: "multipart/form-data; boundary=\(boundary)")
    }
}
