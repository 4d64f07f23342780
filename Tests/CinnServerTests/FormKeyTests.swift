import CinnCore
import CinnJournal
import Foundation
import HummingbirdTesting
import Testing

/// Exactly once without JavaScript: a form that creates a record carries a key the server made when it rendered the
/// form, and the same post sent twice (a double tap, a resend after a timeout) makes one record and answers as the
/// first did; on both databases.
@Suite struct FormKeyTests {
    /// The key of the form `id` on `page`.
    static func key(in page: String, form marker: String) throws -> String {
        let start = try #require(page.range(of: marker)?.upperBound, "\(marker) is on the page")
        let rest = page[start...]
        return String(try #require(rest.firstMatch(of: /name="key" value="([0-9a-f-]{36})"/)?.1))
    }

    @Test(arguments: Database.enabled)
    func aFormSentTwiceMakesOneRecord(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            // A weigh-in: each render makes a fresh key; the post sent twice answers the same, one weigh-in.
            let dashboard = try await client.send(.get, "/").text
            let key = try Self.key(in: dashboard, form: #"<form id="add-weight""#)
            #expect(try Self.key(in: try await client.send(.get, "/").text, form: #"<form id="add-weight""#) != key)
            let post = "key=\(key)&weight=80.4&date=2024-03-15&note="
            let first = try await client.post("/weigh-ins", form: post), second = try await client.post("/weigh-ins", form: post)
            #expect(first.status == .seeOther && second.status == .seeOther)
            #expect(first.headers[.location] == "/?added=\(key)" && second.headers[.location] == first.headers[.location])
            #expect(try await journal.count() == 1)

            // Logging a food from its dialog.
            let bar = try await client.makeFood()
            let dialog = try await client.send(.get, "/food/log/\(bar)?meal=lunch&date=2024-03-14").text
            let logKey = try Self.key(in: dialog, form: #"<form id="log-form""#)
            let log = "key=\(logKey)&servings=1&serving=1+bar&meal=lunch&meal_name=&date=2024-03-14&time=12%3A30&note="
            let logged = try await client.post("/food/log/\(bar)", form: log), again = try await client.post("/food/log/\(bar)", form: log)
            #expect(logged.status == .seeOther && again.headers[.location] == logged.headers[.location])
            #expect(logged.headers[.location]?.contains("logged=\(logKey)") == true)

            // A quick add.
            let search = try await client.send(.get, "/food/search?meal=lunch&date=2024-03-14").text
            let quickKey = try Self.key(in: search, form: #"action="/food/quick""#)
            let quick = "key=\(quickKey)&energy=300&name=Soup&protein_g=&carbohydrate_g=&fat_g=&meal=lunch&date=2024-03-14"
            let added = try await client.post("/food/quick", form: quick), resent = try await client.post("/food/quick", form: quick)
            #expect(added.status == .seeOther && resent.headers[.location] == added.headers[.location])
            let day = LocalDate(iso: "2024-03-14")!
            #expect(try await journal.foodEntries(from: day, to: day).count == 2, "the bar and the soup, once each")

            // A preset from its page: the key is its first entry's id.
            let preset = try #require(
                try await client.send(.post, "/api/v1/presets", json: #"{"name":"Lunch","from_date":"2024-03-14","meal":"lunch"}"#)
                    .json()["id"]?.string)
            let presets = try await client.send(.get, "/food/presets").text
            let presetKey = try Self.key(in: presets, form: #"action="/food/presets/\#(preset)/log""#)
            let logPreset = "key=\(presetKey)&times=1&meal=dinner&meal_name=&date=2024-03-13&time=19%3A00"
            let presetLogged = try await client.post("/food/presets/\(preset)/log", form: logPreset)
            let repeated = try await client.post("/food/presets/\(preset)/log", form: logPreset)
            #expect(presetLogged.status == .seeOther && repeated.headers[.location] == presetLogged.headers[.location])
            #expect(presetLogged.headers[.location]?.hasPrefix("/food/2024-03-13?added=2") == true)
            let dinner = LocalDate(iso: "2024-03-13")!
            #expect(try await journal.foodEntries(from: dinner, to: dinner).count == 2, "the preset's two foods, once")

            // The Glucose page's forms: a reading, a dose and a meal eaten, each posted twice.
            let glucose = try await client.send(.get, "/glucose").text
            for (form, path, body) in [
                (#"id="add-reading""#, "/glucose/readings", "value=120&time=2024-03-14T10%3A00&timing=&note="),
                (#"id="add-insulin""#, "/glucose/insulin", "units=3&kind=bolus&insulin=&time=2024-03-14T10%3A00&note="),
                (#"id="log-meal""#, "/glucose/meal-events", "meal=preset%3A\(preset)&time=2024-03-12T12%3A30&slot=lunch&portion=1"),
            ] {
                let key = try Self.key(in: glucose, form: form)
                let once = try await client.post(path, form: "key=\(key)&\(body)"),
                    twice = try await client.post(path, form: "key=\(key)&\(body)")
                #expect(
                    once.status == .seeOther && twice.status == .seeOther && twice.headers[.location] == once.headers[.location], "\(path)")
            }
            #expect(try await journal.glucoseReadings().count == 1)
            #expect(try await journal.insulinDoses(from: .distantPast, to: .distantFuture).count == 1)
            let lunch = LocalDate(iso: "2024-03-12")!
            #expect(try await journal.foodEntries(from: lunch, to: lunch).count == 2, "the preset logged from the Glucose page, once")

            // A form without a key still works (an older page); a key that is no id is refused, naming it.
            #expect(try await client.post("/weigh-ins", form: "weight=80.2&date=2024-03-14").status == .seeOther)
            let bad = try await client.post("/weigh-ins", form: "key=nope&weight=80.2&date=2024-03-13")
            #expect(bad.status == .unprocessableContent && bad.text.contains("is not a form&#39;s key"))
        }
    }

    /// Posts `body` to `path` twice with the key of the form `marker` on `page`: both answer 303, the second as the
    /// first did when `sameAnswer`.
    static func postTwice(
        _ client: some TestClientProtocol, page: String, form marker: String, to path: String, _ body: String, sameAnswer: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TestResponse {
        let key = try Self.key(in: try await client.send(.get, page).text, form: marker)
        let first = try await client.post(path, form: "key=\(key)&\(body)")
        let second = try await client.post(path, form: "key=\(key)&\(body)")
        #expect(first.status == .seeOther && second.status == .seeOther, "\(path)", sourceLocation: sourceLocation)
        if sameAnswer { #expect(second.headers[.location] == first.headers[.location], "\(path)", sourceLocation: sourceLocation) }
        return first
    }

    @Test(arguments: Database.enabled)
    func theOtherFormsThatCreateSentTwiceMakeOneEach(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            // A workout started, a set marked done, a workout saved as a routine.
            let started = try await Self.postTwice(client, page: "/lifts", form: #"action="/workouts/start">"#, to: "/workouts/start", "")
            let workout = try #require(started.headers[.location]?.firstMatch(of: /workouts\/([0-9a-f-]{36})\/log/)?.1)
            #expect(try await client.post("/workouts/\(workout)/exercises", form: "exercise=Bench+Press").status == .seeOther)
            _ = try await Self.postTwice(
                client, page: "/workouts/\(workout)/log", form: #"class="set-form""#, to: "/workouts/\(workout)/sets",
                "exercise=Bench+Press&weight=80&reps=5&rest=0")
            let id = try #require(UUID(uuidString: String(workout)))
            #expect(try await journal.workout(id: id)?.workout.sets.count == 1)
            #expect(try await client.post("/workouts/\(workout)/finish", form: "").status == .seeOther)
            let restarted = try await client.post(
                "/workouts/start",
                form: "key=\(try Self.key(in: try await client.send(.get, "/lifts").text, form: #"action="/workouts/start">"#))")
            #expect(restarted.status == .seeOther)
            #expect(try await journal.workouts(limit: 10).count == 2, "a new key starts a new workout")
            _ = try await Self.postTwice(
                client, page: "/workouts/\(workout)", form: #"action="/workouts/\#(workout)/routine""#, to: "/workouts/\(workout)/routine",
                "",
                sameAnswer: false)
            #expect(try await journal.routines().count == 1)

            // A routine made in the editor: its id is the key.
            _ = try await Self.postTwice(
                client, page: "/routines/new", form: #"class="card routine-editor""#, to: "/routines",
                "name=Push&exercise_0=Bench+Press&sets_0=3")
            #expect(try await journal.routines().count == 2)

            // A food, a preset from it, a recipe of it, a day copied, a preset from a day's meal.
            let food = try #require(
                try await Self.postTwice(
                    client, page: "/food/new", form: #"id="food-editor""#, to: "/food/new",
                    "name=Oat+bar&basis=g&serving.label=1+bar&serving.grams=40&energy_unit=kcal&nutrients.energy=180"
                ).headers[.location]?.firstMatch(of: /foods\/([0-9a-f-]{36})/)?.1)
            #expect(try await journal.ownFoods().count == 1)
            _ = try await Self.postTwice(
                client, page: "/food/foods/\(food)", form: #"id="preset-from-food""#, to: "/food/presets",
                "name=Bar&food_id=\(food)&servings=1&serving=1+bar", sameAnswer: false)
            #expect(try await journal.presets().count == 1)
            _ = try await Self.postTwice(
                client, page: "/food/recipes/new", form: #"id="recipe-form""#, to: "/food/recipes",
                "name=Bars&servings=2&food.0=\(food)&servings.0=2&serving.0=1+bar", sameAnswer: false)
            #expect(try await journal.recipes().count == 1)
            _ = try await client.log(#"{"food_id":"\#(food)","servings":1,"meal":"snacks","time":"2024-03-14T16:00:00Z"}"#)
            _ = try await Self.postTwice(
                client, page: "/food/2024-03-14", form: #"id="copy-day""#, to: "/food/2024-03-14/copy", "to=2024-03-13", sameAnswer: false)
            let copied = LocalDate(iso: "2024-03-13")!
            #expect(try await journal.foodEntries(from: copied, to: copied).count == 1)
            _ = try await Self.postTwice(
                client, page: "/food/2024-03-14", form: #"action="/food/presets" class="row""#, to: "/food/presets",
                "name=Snack&from_date=2024-03-14&meal=snacks", sameAnswer: false)
            #expect(try await journal.presets().count == 2)

            // A study meal and a body-fat measurement.
            _ = try await Self.postTwice(
                client, page: "/glucose/meals", form: #"action="/glucose/meals">"#, to: "/glucose/meals",
                "name=Toast&carbohydrate_g=45&kind=common")
            #expect(try await journal.meals().count == 1)
            // A post the server refused recorded nothing: its key sent again with the mistake put right is a new post.
            let meals = try Self.key(in: try await client.send(.get, "/glucose/meals").text, form: #"action="/glucose/meals">"#)
            #expect(try await client.post("/glucose/meals", form: "key=\(meals)&name=Toast&carbohydrate_g=30").status == .conflict)
            #expect(try await client.post("/glucose/meals", form: "key=\(meals)&name=Rice&carbohydrate_g=30").status == .seeOther)
            #expect(try await journal.meals().count == 2)
            let bodyFat = try Self.key(in: try await client.send(.get, "/profile").text, form: #"id="body-fat-form""#)
            #expect(try await client.post("/profile/body-fat", form: "key=\(bodyFat)&percent=21.5&date=2024-03-15").status == .seeOther)
            #expect(try await client.post("/profile/body-fat", form: "key=\(bodyFat)&percent=25&date=2024-03-15").status == .seeOther)
            #expect(try await journal.latestBodyFat()?.fraction == 0.215, "the same form sent again changed nothing")
        }
    }

    @Test func aConfirmedTypoKeepsItsKey() async throws {
        try await withApp { client, journal in
            try await client.addWeighIn(80, date: "2024-03-14")
            let key = try Self.key(in: try await client.send(.get, "/").text, form: #"<form id="add-weight""#)
            let asked = try await client.post("/weigh-ins", form: "key=\(key)&weight=8.04&date=2024-03-15")
            #expect(asked.status == .unprocessableContent)
            // Both the confirmation and the form shown again carry the key the first post sent.
            #expect(asked.text.components(separatedBy: #"name="key" value="\#(key)""#).count == 3)
            let confirmed = "key=\(key)&weight=8.04&date=2024-03-15&confirm=true"
            #expect(try await client.post("/weigh-ins", form: confirmed).status == .seeOther)
            #expect(try await client.post("/weigh-ins", form: confirmed).status == .seeOther)
            #expect(try await journal.count() == 2)
        }
    }
}
