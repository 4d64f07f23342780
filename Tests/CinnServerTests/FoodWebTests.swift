import CinnCore
import CinnJournal
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CinnServer

@Suite("Food web pages") struct FoodWebTests {
    /// The day view's energy total, from `#day-energy[data-kcal]`.
    func dayEnergy(_ client: any TestClientProtocol, _ date: String) async throws -> Int? {
        let page = try await client.send(.get, "/food/\(date)").text
        return page.firstMatch(of: /id="day-energy"[^>]*data-kcal="(\d+)"/).flatMap { Int($0.1) }
    }

    /// Alice and Bob, each with their own router over one store.
    func withAliceAndBob(_ body: @Sendable (_ alice: any TestClientProtocol, _ bob: any TestClientProtocol) async throws -> Void)
        async throws
    {
        try await withStore { store in
            let alice = try await utcJournal(store, user: "alice")
            let bob = try await utcJournal(store, user: "bob")
            try await Application(router: buildRouter(journal: alice)).test(.router) { aliceClient in
                try await Application(router: buildRouter(journal: bob)).test(.router) { bobClient in
                    try await body(aliceClient, bobClient)
                }
            }
        }
    }

    // MARK: - Can I nom nom this?

    @Test func theLogPageAndQuickAddAnswerCanINomNomThis() async throws {
        try await withApp { client, _ in
            let bar = try await client.makeFood()
            try await client.send(.put, "/api/v1/settings", json: #"{"energy_target_kcal":2000}"#)
            _ = try await client.log(#"{"name":"Breakfast","energy_kcal":1700,"time":"2024-03-14T08:00:00Z"}"#)
            // The log page answers for the amounts it opens with: 1 bar, 180 kcal of the 300 left.
            let form = try await client.send(.get, "/food/log/\(bar)?meal=lunch&date=2024-03-14").text
            #expect(
                form.contains(#"<div class="nom-holder" data-nom="food=\#(bar)">"#)
                    && form.contains("Leaves 120 kcal of today&#39;s target."))
            #expect(!form.contains("nom-bolus") && !form.contains("nom-glucose"), "no glucose part without readings")
            #expect(form.contains(#"<script src="/static/food-nom.js"></script>"#))
            // The script's fragment, for 2 bars: 60 kcal over; a target typed by hand moves no goal date.
            let fragment = try await client.send(
                .get, "/food/nom?food=\(bar)&servings=2&serving=1+bar&date=2024-03-14&time=12%3A30&fragment=true")
            #expect(fragment.status == .ok && fragment.text.hasPrefix("<section class=\"nom\" id=\"nom-answer\""))
            #expect(fragment.text.contains("Puts you 60 kcal over today&#39;s target.") && !fragment.text.contains("<html"))
            // A quick add's amounts, energy in the person's unit; without the script, a page of its own.
            try await client.send(.put, "/api/v1/settings", json: #"{"energy_unit":"kJ"}"#)
            let quick = try await client.send(.get, "/food/nom?energy=418.4&name=Apple&date=2024-03-14&time=16%3A00")
            #expect(
                quick.status == .ok && quick.text.contains("<h1>Apple</h1>") && quick.text.contains("Leaves 837 kJ of today&#39;s target."))
            let bad = try await client.send(.get, "/food/nom?food=\(bar)&servings=lots")
            #expect(bad.status == .unprocessableContent && bad.text.contains("is not a number"))
            // With readings, the glucose part and the bolus field appear.
            try await client.send(.post, "/api/v1/glucose", json: #"{"value":110,"time":"2024-03-14T12:20:00Z"}"#)
            let withReadings = try await client.send(.get, "/food/log/\(bar)?meal=lunch&date=2024-03-14").text
            #expect(withReadings.contains(#"id="nom-bolus" name="bolus""#))
            #expect(withReadings.contains("Not sure yet about glucose: 0 similar meals with readings so far; 5 are needed."))
        }
    }

    // MARK: - The day

    @Test func anEmptyDayShowsTheUsualMealsAndAsksForATarget() async throws {
        try await withApp { client, _ in
            let response = try await client.send(.get, "/food")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
            let page = response.text
            #expect(page.contains("<h1>Today</h1>"))
            #expect(page.contains(#"data-kcal="0""#))
            for meal in ["breakfast", "lunch", "dinner", "snacks"] {
                #expect(page.contains(#"data-meal="\#(meal)""#))
            }
            #expect(page.contains(#"<a href="/settings/targets#calories">Set one up</a>"#))
            #expect(page.contains(#"href="/food/2024-03-14" rel="prev""#))
            #expect(!page.contains(#"rel="next""#))
            #expect(page.contains(#"<a href="/food" class="on">"#), "the Food tab is on")
            #expect(page.contains(#"href="/food/search?date=2024-03-15""#))
            #expect(!page.contains(#"id="nutrient-totals""#))
        }
    }

    /// What is left is the difference of the numbers shown: 378.5 kcal shows as 379, so 1815 − 379 = 1436 (1436.5 rounded
    /// on its own said 1437), on the food day and on the dashboard alike.
    @Test func whatIsLeftIsTheDifferenceOfWhatIsShown() async throws {
        try await withApp { client, _ in
            try await client.send(.put, "/api/v1/settings", json: #"{"energy_target_kcal":1815}"#)
            let porridge = try await client.makeFood(
                #"{"name":"Porridge","serving":{"label":"1 bowl","grams":100},"nutrients":{"energy":378.5,"protein":20,"carbohydrate":50,"fat":12.9}}"#
            )
            _ = try await client.log(#"{"food_id":"\#(porridge)","servings":1,"meal":"breakfast","time":"2024-03-15T08:00:00Z"}"#)
            let day = try await client.send(.get, "/food/2024-03-15").text
            #expect(day.contains("379 kcal eaten of 1815 kcal") && day.contains("1436 kcal left"))
            #expect(day.contains(#">379</text>"#), "the macro split's middle shows the energy eaten, not its macros' 396")
            #expect(try await client.send(.get, "/").text.contains("1436 kcal left"))
        }
    }

    @Test func aDayShowsMealsTotalsAndWhatIsLeft() async throws {
        try await withApp { client, _ in
            try await client.send(.put, "/api/v1/settings", json: #"{"energy_target_kcal":2000}"#)
            let bar = try await client.makeFood()
            _ = try await client.log(
                """
                {"food_id":"\(bar)","servings":2,"meal":"breakfast","time":"2024-03-14T08:00:00Z","note":"on the bus"},
                {"food_id":"\(bar)","servings":0.5,"serving":"100 g","meal":"Second breakfast","time":"2024-03-14T10:00:00Z"}
                """)
            let page = try await client.send(.get, "/food/2024-03-14").text
            #expect(page.contains(#"data-kcal="585""#))
            #expect(page.contains(#"data-target-kcal="2000""#))
            #expect(page.contains("1415 kcal left"))
            #expect(page.contains(#"class="energy yes""#))
            #expect(page.contains(#"data-meal="Second breakfast""#))
            #expect(page.contains("2 × 1 bar (40 g) · 08:00 · on the bus"))
            #expect(page.contains("0.5 × 100 g"))
            #expect(page.contains(#"<span class="meal-energy">360 kcal</span>"#), "the breakfast subtotal")
            #expect(page.contains(#"href="/food/search?meal=Second%20breakfast&amp;date=2024-03-14""#))
            #expect(page.contains(#"id="macro-chart""#))
            #expect(page.contains(#"id="nutrient-totals""#))
            #expect(page.contains("<b>13 g</b><span>protein</span><span>26% DV</span>"))
            #expect(page.contains("<td>Vitamin D</td>"))
            #expect(page.contains(#"href="/food/2024-03-15" rel="next""#))
            #expect(page.contains("<h1>Yesterday</h1>"))

            try await client.send(.put, "/api/v1/settings", json: #"{"energy_target_kcal":500}"#)
            let over = try await client.send(.get, "/food/2024-03-14").text
            #expect(over.contains("85 kcal over"))
            #expect(over.contains(#"class="energy no""#))
        }
    }

    @Test func aDayThatIsNotADateIsNotFound() async throws {
        try await withApp { client, _ in
            for path in ["/food/2024-02-30", "/food/yesterday", "/food/2024-03-14/nothing"] {
                let response = try await client.send(.get, path)
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
            }
        }
    }

    // MARK: - Logging

    @Test func logThroughTheFormAndTheDayTotalChanges() async throws {
        try await withApp { client, journal in
            let bar = try await client.makeFood()
            let form = try await client.send(.get, "/food/log/\(bar)?meal=lunch&date=2024-03-14")
            #expect(form.status == .ok)
            #expect(form.text.contains(#"<form id="log-form""#))
            #expect(form.text.contains(#"<option value="1 bar" data-grams="40" selected>1 bar (40 g)</option>"#))
            #expect(form.text.contains(#"<option value="100 g" data-grams="100">100 g</option>"#))
            #expect(form.text.contains(#"<option value="lunch" selected>Lunch</option>"#))
            #expect(form.text.contains(#"name="date" type="date" value="2024-03-14""#))
            #expect(form.text.contains(#"name="time" type="time" value="12:30""#), "lunch's usual time on another day")
            #expect(form.text.contains("<b>180 kcal</b>"))
            #expect(try await dayEnergy(client, "2024-03-14") == 0)

            let posted = try await client.post(
                "/food/log/\(bar)", form: "servings=1%2C5&serving=1+bar&meal=lunch&meal_name=&date=2024-03-14&time=12%3A30&note=at+my+desk")
            #expect(posted.status == .seeOther)
            let location = try #require(posted.headers[.location])
            #expect(location.hasPrefix("/food/2024-03-14?logged="))
            let day = try await client.send(.get, location).text
            #expect(day.contains("Logged Granola bar, 270 kcal."))
            #expect(day.contains("just-logged"))
            #expect(try await dayEnergy(client, "2024-03-14") == 270)
            let entry = try #require(try await journal.store.foodHistory(user: journal.user).first)
            #expect(entry.servings == 1.5)
            #expect(entry.meal == .lunch)
            #expect(entry.note == "at my desk")
            #expect(entry.localTimeOfDay == "12:30")

            // Picked again, the food starts at its last amount and serving.
            let again = try await client.send(.get, "/food/log/\(bar)?meal=lunch&date=2024-03-15").text
            #expect(again.contains(#"<option value="1 bar" data-grams="40" selected>1 bar (40 g)</option>"#))
            #expect(again.contains(#"name="servings" inputmode="decimal" autocomplete="off" required value="1.5""#), "\(again)")
            #expect(again.contains("<b>270 kcal</b>"))
        }
    }

    @Test func todayOffersYesterdaysMealForAnEmptyMeal() async throws {
        try await withApp { client, journal in
            let bar = try await client.makeFood()
            #expect(
                try await client.post(
                    "/food/log/\(bar)",
                    form: "servings=1.5&serving=1+bar&meal=breakfast&date=2024-03-14&time=08%3A00"
                ).status == .seeOther)
            let today = try await client.send(.get, "/food/2024-03-15").text
            #expect(today.contains(#"<form method="post" action="/food/2024-03-14/copy" class="copy-previous">"#))
            #expect(today.contains("Copy yesterday’s breakfast (1 food, 270 kcal)"), "\(today)")
            #expect(!today.contains("Copy yesterday’s lunch"), "only meals yesterday had")
            let copied = try await client.post("/food/2024-03-14/copy", form: "meal=breakfast&to=2024-03-15")
            #expect(copied.status == .seeOther && copied.headers[.location] == "/food/2024-03-15?added=1")
            let after = try await client.send(.get, "/food/2024-03-15").text
            #expect(!after.contains("Copy yesterday’s breakfast"), "a meal with entries offers nothing")
            #expect(
                try await journal.store.foodEntries(
                    user: journal.user, from: LocalDate(iso: "2024-03-15")!,
                    to: LocalDate(iso: "2024-03-15")!
                ).map(\.servings) == [1.5])
        }
    }

    @Test func theLogFormDefaultsToNowAndAMealOfYourOwn() async throws {
        try await withApp { client, journal in
            let bar = try await client.makeFood()
            let form = try await client.send(.get, "/food/log/\(bar)").text
            #expect(form.contains(#"value="2024-03-15""#))
            #expect(form.contains(#"name="time" type="time" value="12:00""#), "now, today")
            #expect(form.contains(#"<option value="lunch" selected>"#), "the meal noon usually is")
            let posted = try await client.post(
                "/food/log/\(bar)", form: "servings=1&serving=100+g&meal=lunch&meal_name=Brunch&date=2024-03-15&time=11%3A00")
            #expect(posted.status == .seeOther)
            #expect(try await journal.store.foodHistory(user: journal.user).map(\.meal.name) == ["Brunch"])
            #expect(try await client.send(.get, "/food/log/\(bar)").text.contains(#"<option value="Brunch">Brunch</option>"#))
        }
    }

    @Test(arguments: [
        ("servings=0&serving=1+bar&meal=lunch&date=2024-03-14&time=12%3A30", "servings"),
        ("servings=lots&serving=1+bar&meal=lunch&date=2024-03-14&time=12%3A30", "servings"),
        ("servings=&serving=1+bar&meal=lunch&date=2024-03-14&time=12%3A30", "servings"),
        ("servings=1&serving=1+slab&meal=lunch&date=2024-03-14&time=12%3A30", "serving"),
        ("servings=1&serving=1+bar&meal=lunch&date=2024-03-16&time=12%3A30", "time"),
        ("servings=1&serving=1+bar&meal=lunch&date=2024-02-30&time=12%3A30", "time"),
        ("servings=1&serving=1+bar&meal=lunch&meal_name=\(String(repeating: "m", count: 41))&date=2024-03-14", "meal"),
    ])
    func logFormErrorsNameTheFieldAndWriteNothing(form: String, field: String) async throws {
        try await withApp { client, journal in
            let bar = try await client.makeFood()
            let response = try await client.post("/food/log/\(bar)", form: form)
            #expect(response.status == .unprocessableContent)
            #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(response.text.contains(#"<p id="\#(field)-error" class="field-error" role="alert">"#))
            #expect(response.text.contains(#"aria-invalid="true" aria-describedby="\#(field)-error""#))
            #expect(response.text.contains(#"<form id="log-form""#))
            #expect(try await journal.store.foodHistory(user: journal.user).isEmpty)
        }
    }

    @Test func theLogFormKeepsWhatWasTyped() async throws {
        try await withApp { client, _ in
            let bar = try await client.makeFood()
            let form = "servings=lots&serving=100+g&meal=dinner&date=2024-03-14&time=19%3A05&note=late"
            let page = try await client.post("/food/log/\(bar)", form: form).text
            #expect(page.contains(#"value="lots""#))
            #expect(page.contains(#"<option value="100 g" data-grams="100" selected>"#))
            #expect(page.contains(#"<option value="dinner" selected>"#))
            #expect(page.contains(#"value="19:05""#))
            #expect(page.contains(#"value="late""#))
        }
    }

    // MARK: - Entries

    @Test func editAndDeleteAnEntry() async throws {
        try await withApp { client, journal in
            let bar = try await client.makeFood()
            let logged = try await client.log(#"{"food_id":"\#(bar)","meal":"lunch","time":"2024-03-14T12:00:07Z"}"#)[0]
            let id = try #require(logged["id"]?.string)
            let form = try await client.send(.get, "/food/entries/\(id)/edit")
            #expect(form.status == .ok)
            #expect(form.text.contains(#"action="/food/entries/\#(id)""#))
            #expect(form.text.contains(#"<option value="lunch" selected>"#))
            #expect(form.text.contains(#"value="12:00""#))

            let saved = try await client.post(
                "/food/entries/\(id)",
                form: "servings=3&meal=dinner&meal_name=&date=2024-03-14&time=12%3A00&note=")
            #expect(saved.status == .seeOther)
            #expect(saved.headers[.location] == "/food/2024-03-14?done=entry-saved#notice")
            #expect(
                try await client.send(.get, "/food/2024-03-14?done=entry-saved").text
                    .contains(#"<p class="notice" role="status" id="notice">Entry saved.</p>"#))
            let entryID = try #require(UUID(uuidString: id))
            let edited = try await journal.store.foodEntry(id: entryID, user: journal.user)
            #expect(edited.servings == 3)
            #expect(edited.meal == .dinner)
            #expect(edited.energy == 540)
            #expect(
                WeighIn.isoString(instant: edited.eatenAt, utcOffsetSeconds: 0) == "2024-03-14T12:00:07+00:00",
                "an unchanged time keeps its seconds")
            #expect(try await dayEnergy(client, "2024-03-14") == 540)

            let invalid = try await client.post("/food/entries/\(id)", form: "servings=-1&meal=dinner&date=2024-03-14&time=12%3A00")
            #expect(invalid.status == .unprocessableContent)
            #expect(invalid.text.contains(#"id="servings-error""#))
            #expect(try await journal.store.foodEntry(id: entryID, user: journal.user).servings == 3)

            let confirm = try await client.send(.get, "/food/entries/\(id)/delete")
            #expect(confirm.status == .ok)
            #expect(confirm.text.contains(#"action="/food/entries/\#(id)/delete""#))
            let deleted = try await client.post("/food/entries/\(id)/delete", form: "")
            #expect(deleted.status == .seeOther)
            #expect(deleted.headers[.location] == "/food/2024-03-14?done=entry-deleted#notice")
            #expect(try await client.send(.get, "/food/2024-03-14?done=entry-deleted").text.contains("Entry deleted."))
            #expect(try await dayEnergy(client, "2024-03-14") == 0)
            #expect(try await client.send(.get, "/food/entries/\(id)/edit").status == .notFound)
        }
    }

    @Test func moveAnEntryToAnotherDay() async throws {
        try await withApp { client, journal in
            let bar = try await client.makeFood()
            let id = try #require(try await client.log(#"{"food_id":"\#(bar)","time":"2024-03-14T12:00:00Z"}"#)[0]["id"]?.string)
            let saved = try await client.post("/food/entries/\(id)", form: "servings=1&meal=snacks&date=2024-03-13&time=21%3A15")
            #expect(saved.headers[.location] == "/food/2024-03-13?done=entry-saved#notice")
            let entry = try await journal.store.foodEntry(id: try #require(UUID(uuidString: id)), user: journal.user)
            #expect(entry.localDate.iso == "2024-03-13")
            #expect(entry.localTimeOfDay == "21:15")
        }
    }

    @Test func anotherUsersRecordsAreNotFound() async throws {
        try await withAliceAndBob { alice, bob in
            let food = try await alice.makeFood()
            let entry = try #require(try await alice.log(#"{"food_id":"\#(food)","time":"2024-03-14"}"#)[0]["id"]?.string)
            let preset = try #require(
                try await alice.send(.post, "/api/v1/presets", json: #"{"name":"Bar","food_id":"\#(food)"}"#)
                    .json()["id"]?.string)
            for path in [
                "/food/entries/\(entry)/edit", "/food/entries/\(entry)/delete", "/food/foods/\(food)", "/food/log/\(food)",
                "/food/foods/\(food)/edit", "/food/foods/\(food)/delete", "/food/presets/\(preset)/delete",
                "/food/new?copy=\(food)",
            ] {
                #expect(try await bob.send(.get, path).status == .notFound, "GET \(path)")
            }
            for path in [
                "/food/entries/\(entry)", "/food/entries/\(entry)/delete", "/food/log/\(food)", "/food/foods/\(food)",
                "/food/foods/\(food)/delete", "/food/presets/\(preset)/log", "/food/presets/\(preset)/delete",
            ] {
                #expect(
                    try await bob.post(path, form: "servings=1&name=Mine&serving.label=1+bar&serving.grams=40").status == .notFound,
                    "POST \(path)")
            }
            #expect(try await bob.post("/food/presets", form: "food_id=\(food)&servings=1&name=Mine").status == .notFound)
            #expect(try await bob.send(.get, "/food/barcode?code=4006381333931").headers[.location]?.hasPrefix("/food/new") == true)
            #expect(try await dayEnergy(alice, "2024-03-14") == 180)
            #expect(try await alice.send(.get, "/food/foods/\(food)").status == .ok)
        }
    }

    @Test func namesAreEscaped() async throws {
        try await withApp { client, _ in
            let food = try await client.makeFood(
                #"""
                {"name":"<script>alert(\"x\")</script> & 'Bar'","brand":"<b>Brand</b>","serving":{"label":"1 <i>bar</i>","grams":40},
                 "nutrients":{"energy":100}}
                """#)
            let entry = try #require(
                try await client.log(#"{"food_id":"\#(food)","meal":"<img src=x>","note":"<u>note</u>"}"#)[0]["id"]?
                    .string)
            for path in [
                "/food", "/food/search?q=script", "/food/search", "/food/foods/\(food)", "/food/log/\(food)",
                "/food/history", "/food/entries/\(entry)/edit", "/food/entries/\(entry)/delete", "/food/foods/\(food)/edit",
            ] {
                let page = try await client.send(.get, path).text
                #expect(!page.contains("<script>alert"), "\(path)")
                for markup in ["<b>Brand", "<i>bar", "<img src=x>", "<u>note"] { #expect(!page.contains(markup), "\(path)") }
                #expect(page.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Bar&#39;"), "\(path)")
            }
        }
    }

    // MARK: - Search and barcodes

    @Test func searchBeforeAnythingIsTypedInAnEmptyJournal() async throws {
        try await withApp { client, _ in
            let page = try await client.send(.get, "/food/search").text
            #expect(page.contains(#"<form id="food-search""#))
            #expect(page.contains(#"<form id="barcode-form""#))
            #expect(page.contains("Nothing logged yet"))
            #expect(page.contains(#"<div id="browse">"#))
            #expect(page.contains(#"<div id="no-results" class="card empty" hidden>"#))
            #expect(page.contains(#"<script src="/static/food-search.js">"#))
            #expect(
                try await client.send(.get, "/static/food-search.js").text.contains("fetch('/api/v1/foods/search"), "results as you type")
        }
    }

    @Test func searchShowsRecentsFrequentFoodsAndPresets() async throws {
        try await withApp { client, _ in
            let bar = try await client.makeFood()
            _ = try await client.makeFood(#"{"name":"Oats","serving":{"label":"1 cup","grams":80},"nutrients":{"energy":300}}"#)
            _ = try await client.log(
                """
                {"food_id":"\(bar)","time":"2024-03-14"},
                {"food_id":"\(bar)","time":"2024-03-15"}
                """)
            try await client.send(.post, "/api/v1/presets", json: #"{"name":"Two bars","food_id":"\#(bar)","servings":2}"#)
            let page = try await client.send(.get, "/food/search?meal=snacks&date=2024-03-14").text
            #expect(page.contains("<h1>Add food to Snacks</h1>"))
            #expect(page.contains(#"<ul class="results" id="recents"><li class="result" data-food-id="\#(bar)">"#))
            #expect(page.contains(#"href="/food/log/\#(bar)?meal=snacks&amp;date=2024-03-14""#))
            #expect(page.contains("logged 2 times"))
            #expect(page.contains(#"<ul class="results" id="presets">"#))
            #expect(page.contains("Two bars"))
            #expect(page.contains(#"action="/food/presets/"#))
            #expect(!page.contains("Nothing logged yet"))
        }
    }

    @Test func searchResultsWithoutJavaScript() async throws {
        try await withApp { client, _ in
            let bar = try await client.makeFood()
            _ = try await client.log(#"{"food_id":"\#(bar)","time":"2024-03-14"}"#)
            let page = try await client.send(.get, "/food/search?q=gran&date=2024-03-14").text
            #expect(page.contains(#"<input id="q" name="q" type="search" value="gran""#))
            #expect(page.contains(#"<ul id="results" class="results" aria-label="Results"><li class="result" data-food-id="\#(bar)">"#))
            #expect(page.contains(#"<span class="badge">mine</span> <span class="badge recent">recent</span>"#))
            #expect(page.contains("Trail · 450 kcal per 100 g · 1 bar (40 g)"))
            #expect(page.contains(#"<p id="results-status" class="muted" role="status">1 food</p>"#))
            #expect(page.contains(#"<div id="browse" hidden>"#))
            // As a browser sends the form: spaces as +, a plus as %2B.
            let spaced = try await client.send(.get, "/food/search?q=coffee+with+milk").text
            #expect(spaced.contains(#"<input id="q" name="q" type="search" value="coffee with milk""#))
            let plus = try await client.send(.get, "/food/search?q=c%2B%2B").text
            #expect(plus.contains(#"<input id="q" name="q" type="search" value="c++""#))
            let none = try await client.send(.get, "/food/search?q=zebra").text
            #expect(none.contains(#"<div id="no-results" class="card empty">"#))
            // The trail bar made above is a branded product: the message does not deny there are any, and still offers a
            // food database.
            #expect(
                !none.contains("no branded products yet") && none.contains(#"<a href="/import#import-form">import a food database</a>"#),
                "an empty search says what is missing and how to add it")
        }
    }

    @Test func barcodeFoundOpensTheLogDialogAndUnknownOpensTheEditor() async throws {
        try await withApp { client, _ in
            let bar = try await client.makeFood()
            let found = try await client.send(.get, "/food/barcode?code=4006381333931&meal=snacks&date=2024-03-14")
            #expect(found.status == .seeOther)
            #expect(found.headers[.location] == "/food/log/\(bar)?meal=snacks&date=2024-03-14")
            let unknown = try await client.send(.get, "/food/barcode?code=4006-3813-33948")
            #expect(unknown.status == .seeOther)
            #expect(unknown.headers[.location] == "/food/new?barcode=4006381333948")
            let editor = try await client.send(.get, "/food/new?barcode=4006381333948").text
            #expect(editor.contains(#"name="barcode" inputmode="numeric" autocomplete="off" value="4006381333948""#))
            #expect(editor.contains(#"class="notice info" role="status""#))
            for code in ["12AB", ""] {
                let invalid = try await client.send(.get, "/food/barcode?code=\(code)")
                #expect(invalid.status == .unprocessableContent)
                #expect(invalid.text.contains(#"<p id="code-error" class="field-error" role="alert">"#))
                #expect(invalid.text.contains(#"value="\#(code)" placeholder"#))
            }
        }
    }

    // MARK: - Foods

    @Test func makeAFoodWithTheEditor() async throws {
        try await withApp { client, journal in
            let form = try await client.send(.get, "/food/new").text
            #expect(form.contains(#"<form id="food-editor""#))
            #expect(form.contains(#"name="dv.iron""#), "iron has a Daily Value")
            #expect(!form.contains(#"name="dv.omega3_dha""#), "omega-3 DHA has none")
            #expect(!form.contains(#"name="dv.protein""#), "macros are amounts")

            let posted = try await client.post(
                "/food/new",
                form: """
                    name=Muesli+bar&brand=&barcode=&serving.label=1+bar&serving.grams=40&basis=g&nutrients.energy=753.12&energy_unit=kJ\
                    &nutrients.protein=4&nutrients.iron=10&dv.iron=percent&nutrients.vitamin_d=2&dv.vitamin_d=amount&meal=snacks
                    """)
            #expect(posted.status == .seeOther)
            let location = try #require(posted.headers[.location])
            #expect(location.hasPrefix("/food/foods/") && location.hasSuffix("?meal=snacks"))
            let food = try #require(try await journal.store.ownFoods(user: journal.user).first)
            #expect(close(food.nutrients.energy, 450, tolerance: 1e-6))
            #expect(close(food.nutrients[Nutrient.named("iron")!], 4.5))
            #expect(close(food.nutrients[Nutrient.named("vitamin_d")!], 5))
            let page = try await client.send(.get, location).text
            #expect(page.contains("<div class=\"answer\">180 kcal</div>"))
            #expect(page.contains(#"id="log-it" href="/food/log/\#(food.id.uuidString.lowercased())?meal=snacks""#))
            #expect(page.contains(#"id="edit-food""#))
            #expect(page.contains("<td>Iron</td><td class=\"num\">1.8 mg</td><td class=\"num\">10%</td><td class=\"num\">4.5 mg</td>"))
        }
    }

    @Test(arguments: [
        ("name=&serving.label=1+bar&serving.grams=40&nutrients.energy=100", "name"),
        ("name=X&serving.label=1+bar&serving.grams=&nutrients.energy=100", "serving-grams"),
        ("name=X&serving.label=&serving.grams=40", "serving-label"),
        ("name=X&serving.label=1+bar&serving.grams=40&nutrients.fat=-1", "nutrient-fat"),
        ("name=X&serving.label=1+bar&serving.grams=40&nutrients.iron=lots&dv.iron=percent", "nutrient-iron"),
        ("name=X&serving.label=1+bar&serving.grams=40&nutrients.energy=-5", "nutrient-energy"),
        ("name=X&barcode=12AB&serving.label=1+bar&serving.grams=40", "barcode"),
    ])
    func foodEditorErrorsNameTheFieldAndWriteNothing(form: String, field: String) async throws {
        try await withApp { client, journal in
            let response = try await client.post("/food/new", form: form)
            #expect(response.status == .unprocessableContent)
            #expect(response.text.contains(#"id="\#(field)-error" class="field-error" role="alert""#))
            #expect(response.text.contains(#"<form id="food-editor""#))
            #expect(try await journal.store.ownFoods(user: journal.user).isEmpty)
        }
    }

    @Test func editingAndDeletingAFoodKeepsPastDays() async throws {
        try await withApp { client, journal in
            let bar = try await client.makeFood()
            _ = try await client.log(#"{"food_id":"\#(bar)","time":"2024-03-14"}"#)
            let form = try await client.send(.get, "/food/foods/\(bar)/edit")
            #expect(form.status == .ok)
            #expect(form.text.contains(#"action="/food/foods/\#(bar)""#))
            #expect(form.text.contains(#"name="nutrients.energy" inputmode="decimal" autocomplete="off" value="180""#))
            #expect(form.text.contains(#"name="nutrients.iron" inputmode="decimal" autocomplete="off" value="1.8""#))

            let saved = try await client.post(
                "/food/foods/\(bar)",
                form: "name=Granola+bar&serving.label=1+bar&serving.grams=40&nutrients.energy=200")
            #expect(saved.status == .seeOther)
            #expect(saved.headers[.location] == "/food/foods/\(bar)?done=food-saved#notice")
            #expect(
                try await client.send(.get, "/food/foods/\(bar)?done=food-saved").text.contains(
                    #"<p class="notice card" role="status" id="notice">Food saved.</p>"#))
            #expect(close(try await journal.store.food(id: try #require(UUID(uuidString: bar)), user: journal.user).nutrients.energy, 500))
            #expect(try await dayEnergy(client, "2024-03-14") == 180)
            #expect(
                try await client.post("/food/foods/\(bar)", form: "name=&serving.label=1+bar&serving.grams=40").status
                    == .unprocessableContent)

            #expect(try await client.send(.get, "/food/new?copy=\(bar)").text.contains(#"value="Granola bar""#))
            let confirm = try await client.send(.get, "/food/foods/\(bar)/delete")
            #expect(confirm.text.contains(#"action="/food/foods/\#(bar)/delete""#))
            let deleted = try await client.post("/food/foods/\(bar)/delete", form: "")
            #expect(deleted.status == .seeOther)
            #expect(deleted.headers[.location] == "/food/search?done=food-deleted#notice")
            #expect(try await client.send(.get, "/food/search?done=food-deleted").text.contains("Food deleted."))
            #expect(try await client.send(.get, "/food/foods/\(bar)").status == .notFound)
            #expect(try await dayEnergy(client, "2024-03-14") == 180)
        }
    }

    // MARK: - Presets, copies, history, statistics

    @Test func presetsFromAMealAndFromAFood() async throws {
        try await withApp { client, journal in
            let bar = try await client.makeFood()
            let oats = try await client.makeFood(#"{"name":"Oats","serving":{"label":"1 cup","grams":80},"nutrients":{"energy":300}}"#)
            _ = try await client.log(
                """
                {"food_id":"\(oats)","meal":"breakfast","time":"2024-03-14T07:00:00Z"},
                {"food_id":"\(bar)","meal":"breakfast","time":"2024-03-14T07:05:00Z"}
                """)
            let saved = try await client.post("/food/presets", form: "from_date=2024-03-14&meal=breakfast&name=Usual+breakfast")
            #expect(saved.status == .seeOther)
            let location = try #require(saved.headers[.location])
            let id = try #require(location.firstMatch(of: /saved=([0-9a-f-]{36})/)?.1)
            let list = try await client.send(.get, location).text
            #expect(list.contains("Preset saved."))
            #expect(list.contains(#"id="preset-\#(id)""#))
            #expect(list.contains("480 kcal"))
            #expect(list.contains("1 cup (80 g) Oats"))

            let logged = try await client.post("/food/presets/\(id)/log", form: "meal=&times=2&date=2024-03-15&time=07%3A30")
            #expect(logged.status == .seeOther)
            #expect(logged.headers[.location] == "/food/2024-03-15?added=2")
            #expect(try await client.send(.get, "/food/2024-03-15?added=2").text.contains("Added 2 entries to this day."))
            #expect(try await dayEnergy(client, "2024-03-15") == 960)
            let failed = try await client.post("/food/presets/\(id)/log", form: "meal=&times=0&date=2024-03-15&time=07%3A30")
            #expect(failed.status == .unprocessableContent)
            #expect(failed.text.contains(#"class="field-error" role="alert""#))
            #expect(try await journal.store.foodHistory(user: journal.user).count == 4)

            let fromFood = try await client.post("/food/presets", form: "food_id=\(bar)&name=Two+bars&servings=2&serving=1+bar")
            #expect(fromFood.status == .seeOther)
            #expect(try await client.send(.get, "/food/presets").text.contains("Two bars"))
            let badServings = try await client.post("/food/presets", form: "food_id=\(bar)&name=None&servings=0&serving=1+bar")
            #expect(badServings.status == .unprocessableContent)
            #expect(badServings.text.contains(#"id="preset-servings-error""#))
            let emptyMeal = try await client.post("/food/presets", form: "from_date=2024-03-14&meal=dinner&name=Nothing")
            #expect(emptyMeal.status == .unprocessableContent)
            #expect(emptyMeal.text.contains(#"class="field-error" role="alert""#))
            #expect(try await journal.store.presets(user: journal.user).count == 2)

            #expect(try await client.send(.get, "/food/presets/\(id)/delete").text.contains(#"action="/food/presets/\#(id)/delete""#))
            let deleted = try await client.post("/food/presets/\(id)/delete", form: "")
            #expect(deleted.headers[.location] == "/food/presets?done=preset-deleted#notice")
            #expect(
                try await client.send(.get, "/food/presets?done=preset-deleted").text.contains(
                    #"<p class="notice card" role="status" id="notice">Preset deleted.</p>"#))
            #expect(!(try await client.send(.get, "/food/presets").text.contains("Usual breakfast")))
        }
    }

    @Test func anEmptyPresetsPageSaysHowToMakeOne() async throws {
        try await withApp { client, _ in
            let page = try await client.send(.get, "/food/presets")
            #expect(page.status == .ok)
            #expect(page.text.contains("No presets yet."))
        }
    }

    @Test func copyADayOrAMeal() async throws {
        try await withApp { client, _ in
            let bar = try await client.makeFood()
            _ = try await client.log(
                """
                {"food_id":"\(bar)","meal":"breakfast","time":"2024-03-13T08:00:00Z"},
                {"food_id":"\(bar)","meal":"dinner","time":"2024-03-13T19:00:00Z"}
                """)
            let meal = try await client.post("/food/2024-03-13/copy", form: "to=2024-03-14&meal=breakfast")
            #expect(meal.status == .seeOther)
            #expect(meal.headers[.location] == "/food/2024-03-14?added=1")
            #expect(try await dayEnergy(client, "2024-03-14") == 180)
            let day = try await client.post("/food/2024-03-13/copy", form: "to=2024-03-12")
            #expect(day.headers[.location] == "/food/2024-03-12?added=2")
            #expect(try await dayEnergy(client, "2024-03-12") == 360)
            let tonight = try await client.post("/food/2024-03-13/copy", form: "to=2024-03-15")
            #expect(tonight.status == .unprocessableContent, "dinner at 19:00 today is still to come")
            let future = try await client.post("/food/2024-03-13/copy", form: "to=2024-03-20")
            #expect(future.status == .unprocessableContent)
            #expect(future.text.contains(#"<details class="card" id="copy-day" open>"#))
            #expect(future.text.contains(#"class="field-error" role="alert""#))
            #expect(
                try await client.post("/food/2024-03-13/copy", form: "to=2024-03-20&meal=dinner").text
                    .contains(#"class="field-error" role="alert""#))
        }
    }

    @Test func historyIsPagedAndSearchable() async throws {
        try await withApp { client, _ in
            let bar = try await client.makeFood()
            let oats = try await client.makeFood(#"{"name":"Oats","serving":{"label":"1 cup","grams":80},"nutrients":{"energy":300}}"#)
            let entries = (0..<54).map { minute in
                #"{"food_id":"\#(bar)","time":"2024-03-14T08:\#(String(format: "%02d", minute)):00Z"}"#
            }
            _ = try await client.log(entries.joined(separator: ","))
            _ = try await client.log(#"{"food_id":"\#(oats)","time":"2024-03-15T08:00:00Z"}"#)
            let first = try await client.send(.get, "/food/history").text
            #expect(first.matches(of: /data-entry-id=/).count == 50)
            #expect(first.contains(#"<h2 class="go"><a href="/food/2024-03-15">Today</a></h2>"#))
            #expect(first.contains(#"href="/food/history?page=2""#))
            #expect(!first.contains("← Newer"))
            let second = try await client.send(.get, "/food/history?page=2").text
            #expect(second.matches(of: /data-entry-id=/).count == 5)
            #expect(second.contains(#"href="/food/history""#))
            let search = try await client.send(.get, "/food/history?search=oat").text
            #expect(search.matches(of: /data-entry-id=/).count == 1)
            #expect(try await client.send(.get, "/food/history?search=zebra").text.contains("Nothing you logged matches that."))
            #expect(try await client.send(.get, "/food/history?page=0").status == .unprocessableContent)
        }
    }

    @Test func statisticsWithChartsAndANutrientPicker() async throws {
        try await withApp { client, _ in
            let empty = try await client.send(.get, "/food/stats")
            #expect(empty.status == .ok)
            #expect(empty.text.contains("0 of 30 days logged"))
            #expect(!empty.text.contains(#"id="calorie-chart""#))

            try await client.send(.put, "/api/v1/settings", json: #"{"energy_target_kcal":2000}"#)
            let bar = try await client.makeFood()
            _ = try await client.log(
                """
                {"food_id":"\(bar)","time":"2024-03-11T08:00:00Z"},
                {"food_id":"\(bar)","servings":3,"time":"2024-03-13T08:00:00Z"}
                """)
            let page = try await client.send(.get, "/food/stats?from=2024-03-01&to=2024-03-15&period=week&nutrient=iron").text
            #expect(page.contains(#"<div class="answer">360 kcal</div>"#))
            #expect(page.contains("2 of 15 days logged · Target 2000 kcal a day"))
            for chart in ["calorie-chart", "macro-chart", "nutrient-chart"] { #expect(page.contains(#"id="\#(chart)""#)) }
            #expect(page.contains("Iron per day, weekly average"))
            #expect(page.contains(#"<option value="iron" selected>"#))
            #expect(page.contains(#"<option value="week" selected>"#))
            #expect(page.contains("11 Mar – 17 Mar"))
            #expect(page.contains("2 days, 720 kcal in all"))
            #expect(try await client.send(.get, "/food/stats?period=fortnight").status == .unprocessableContent)
            #expect(try await client.send(.get, "/food/stats?nutrient=unobtainium").status == .unprocessableContent)
            #expect(try await client.send(.get, "/food/stats?from=2024-03-15&to=2024-03-01").status == .unprocessableContent)
        }
    }

    // MARK: - Settings and units

    @Test func calorieTargetAndEnergyUnitInTheSettingsForm() async throws {
        try await withApp { client, journal in
            let form = try await client.send(.get, "/settings").text
            #expect(form.contains(#"id="targets-link""#))
            #expect(form.contains(#"<option value="kcal" selected>"#))

            #expect(try await client.post("/settings/targets/calories", form: "follows=own&own_kcal=1800").status == .seeOther)
            let saved = try await client.post("/settings", form: "energy_unit=kJ")
            #expect(saved.status == .seeOther)
            var settings = try await journal.settings()
            #expect(settings.energyTargetKcal == 1800)
            #expect(settings.energyUnit == .kilojoules)
            let bar = try await client.makeFood()
            _ = try await client.log(#"{"food_id":"\#(bar)","time":"2024-03-15"}"#)
            let day = try await client.send(.get, "/food").text
            #expect(day.contains("6778 kJ left"), "(1800 − 180) kcal × 4.184")
            #expect(day.contains(#"data-kcal="180""#), "the data attribute stays in kcal")
            #expect(try await client.send(.get, "/food/search?q=gran").text.contains("1883 kJ per 100 g"))

            #expect(try await client.post("/settings/targets/calories", form: "follows=own&own_kcal=100").status == .unprocessableContent)
            #expect(try await journal.settings().energyTargetKcal == 1800)
            #expect(try await client.post("/settings/targets/calories", form: "follows=adaptive&own_kcal=1800").status == .seeOther)
            #expect(try await client.post("/settings", form: "unit=kg").status == .seeOther)
            settings = try await journal.settings()
            #expect(settings.energyTargetKcal == nil)
            #expect(settings.energyUnit == .kilojoules, "a form without the unit leaves it")
        }
    }
}
