import CinnCore
import CinnJournal
import CinnServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CinnStore

/// The Nightscout API under `/nightscout`, as uploaders (xDrip+, Loop) send to it and followers read it; on both databases.
@Suite struct NightscoutAPITests {
    static let secret = "a secret of twelve+"
    /// The SHA-1 hex Nightscout clients send as `api-secret` (worked out with Python's hashlib).
    static let sha1 = [
        "a secret of twelve+": "cc697cc85150d0a994fd32291cb4da6d7caeda65",
        "a wrong secret!!": "b27b98e3b7a9e2a8192a71bb59bdd7f22f093f34",
    ]

    /// The app with an API secret set, as `cinn serve --api-secret` runs it.
    func withNightscout(
        on database: Database, open: Bool = false,
        _ body: @Sendable (any TestClientProtocol, Journal) async throws -> Void
    ) async throws {
        try await withStore(database) { store in
            let journal = try await utcJournal(store)
            let security = WebSecurity(loopbackHostsOnly: open, apiSecret: open ? nil : Self.secret)
            try await Application(router: buildRouter(journal: journal, security: security)).test(.router) { client in
                try await body(client, journal)
            }
        }
    }

    func send(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, json: String? = nil,
        secret: String? = NightscoutAPITests.secret
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let secret { headers[HTTPField.Name("api-secret")!] = Self.sha1[secret] ?? secret }
        return try await client.execute(
            uri: "/nightscout" + path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    /// xDrip+'s upload: a JSON array of entries with its own fields (docs/nightscout.md), newest first.
    static let xDrip = """
        [{"device":"xDrip-DexcomG6","date":1710403500000,"dateString":"2024-03-14T08:05:00.000+0000","sgv":128,"delta":8.0,
          "direction":"FortyFiveUp","type":"sgv","filtered":128000,"unfiltered":128000,"rssi":100,"noise":1,"sysTime":"2024-03-14T08:05:00.000+0000"},
         {"device":"xDrip-DexcomG6","date":1710403200000,"dateString":"2024-03-14T08:00:00.000+0000","sgv":120,"delta":0.5,
          "direction":"Flat","type":"sgv","filtered":120000,"unfiltered":120000,"rssi":100,"noise":1,"sysTime":"2024-03-14T08:00:00.000+0000"},
         {"device":"xDrip-DexcomG6","date":1710402900000,"dateString":"2024-03-14T07:55:00.000+0000","sgv":5,"type":"sgv"},
         {"device":"xDrip-DexcomG6","date":1710402000000,"dateString":"2024-03-14T07:40:00.000+0000","mbg":112,"type":"mbg"}]
        """

    @Test(arguments: Database.enabled)
    func anUploadersEntriesAreStoredOnceAndReadBackNewestFirst(_ database: Database) async throws {
        try await withNightscout(on: database) { client, journal in
            let first = try await send(client, .post, "/api/v1/entries", json: Self.xDrip)
            #expect(first.status == .ok)
            #expect(try first.json().array?.count == 3, "the status code 5 is skipped, not an error")
            // The same backlog again, and one reading sent by a second uploader without an _id at the same time: nothing new.
            #expect(try await send(client, .post, "/api/v1/entries.json", json: Self.xDrip).json().array?.isEmpty == true)
            let loop =
                #"{"date":1710403200000,"dateString":"2024-03-14T08:00:00Z","device":"loop://iPhone","direction":"Flat","sgv":120,"type":"sgv"}"#
            #expect(try await send(client, .post, "/api/v1/entries", json: loop).json().array?.isEmpty == true)
            #expect(try await journal.store.glucoseReadings(user: journal.user, limit: 100).count == 3)

            let entries = try #require(try await send(client, .get, "/api/v1/entries.json?count=10").json().array)
            #expect(entries.map { $0["type"]?.string } == ["sgv", "sgv", "mbg"])
            #expect(entries[0]["sgv"]?.double == 128 && entries[0]["date"]?.double == 1_710_403_500_000)
            #expect(entries[0]["direction"]?.string == "FortyFiveUp" && entries[0]["device"]?.string == "xDrip-DexcomG6")
            #expect(entries[0]["delta"]?.double == 8 && entries[0]["dateString"]?.string == "2024-03-14T08:05:00.000Z")
            #expect(entries[2]["mbg"]?.double == 112 && entries[2]["sgv"] == nil, "a meter's reading goes back as mbg")
            let sgv = try #require(try await send(client, .get, "/api/v1/entries/sgv.json?count=1").json().array)
            #expect(sgv.count == 1 && sgv[0]["sgv"]?.double == 128)
            let since = try #require(
                try await send(client, .get, "/api/v1/entries/sgv.json?find[date][$gte]=1710403200000&count=10").json().array)
            #expect(since.count == 2)
            let before = try #require(
                try await send(client, .get, "/api/v1/entries.json?find[dateString][$lt]=2024-03-14T08:00:00Z").json().array)
            #expect(before.map { $0["type"]?.string } == ["mbg"])
            let current = try #require(try await send(client, .get, "/api/v1/entries/current.json").json().array)
            #expect(current.count == 1 && current[0]["sgv"]?.double == 128)
            let bad = try await send(client, .get, "/api/v1/entries.json?find[sgv][$gte]=40")
            let badField = try bad.json()["error"]?["field"]?.string
            #expect(bad.status == .unprocessableContent && badField == "find[sgv][$gte]")
            for path in ["/api/v1/entries", "/api/v1/treatments"] {
                let malformed = try await send(client, .post, path, json: #"[{"type":"sgv","sgv":120,"date":17"#)
                #expect(malformed.status == .badRequest, "\(path): malformed JSON is a bad request")
            }
            for path in ["/api/v1/entries", "/api/v1/treatments", "/api/v1/profile.json"] {
                let mixed = try await send(client, .post, path, json: #"[{"type":"sgv","sgv":120,"date":1710403800000},[1],"x"]"#)
                let mixedField = try mixed.json()["error"]?["field"]?.string
                #expect(
                    mixed.status == .unprocessableContent && mixedField == "body",
                    "\(path): an array with more than documents is refused whole")
            }
            #expect(try await journal.store.glucoseReadings(user: journal.user, limit: 100).count == 3, "and nothing of it was stored")

            let status = try await send(client, .get, "/api/v1/status.json").json()
            #expect(
                status["status"]?.string == "ok" && status["settings"]?["units"]?.string == "mg/dl" && status["apiEnabled"]?.bool == true)
            let pebble = try await send(client, .get, "/pebble").json()
            #expect(pebble["bgs"]?.array?.first?["sgv"]?.string == "128" && pebble["bgs"]?.array?.first?["trend"]?.double == 3)
        }
    }

    @Test(arguments: Database.enabled)
    func theSecretIsNeededBeyondLoopback(_ database: Database) async throws {
        try await withNightscout(on: database) { client, _ in
            #expect(try await send(client, .get, "/api/v1/status.json", secret: nil).status == .unauthorized)
            #expect(try await send(client, .get, "/api/v1/status.json", secret: "a wrong secret!!").status == .unauthorized)
            #expect(
                try await send(
                    client, .get, "/api/v1/status.json?token=\(Self.secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
                    secret: nil
                ).status == .ok)
            let refused = try await send(client, .post, "/api/v1/entries", json: Self.xDrip, secret: nil)
            let message = try refused.json()["error"]?["message"]?.string
            #expect(refused.status == .unauthorized && message?.contains("api-secret") == true)
        }
        try await withNightscout(on: database, open: true) { client, _ in
            let open = try await send(client, .get, "/api/v1/status.json", secret: nil)
            #expect(open.status == .ok, "on loopback without a secret, open")
        }
    }

    /// Hosted mode: each person's uploader sends one of their API tokens, and writes to their journal only.
    @Test(arguments: Database.enabled)
    func inHostedModeAnAPITokenNamesWhoseJournal(_ database: Database) async throws {
        try await withStore(database) { store in
            let journal = try await utcJournal(store)
            let accounts = Accounts(store: store, configuration: AccountsConfiguration(signUp: .closed, bcryptCost: 4))
            var made: [String: String] = [:]
            for name in ["ann", "bob"] {
                let account = try await accounts.addUser(name: name, password: "\(name)-password-1", role: .member)
                try await store.saveSettings(UserSettings(timeZoneIdentifier: "UTC", onboarded: true), user: account.user)
                made[name] = try await accounts.createToken(name: "xDrip+", user: account.user).secret
            }
            let tokens = made
            try await Application(router: buildRouter(journal: journal, accounts: accounts)).test(.router) { client in
                func send(_ method: HTTPRequest.Method, _ path: String, token: String?, json: String? = nil) async throws -> TestResponse {
                    let query = token.map { "?token=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) } ?? ""
                    return try await client.execute(
                        uri: "/nightscout" + path + query, method: method, headers: [.contentType: "application/json"],
                        body: json.map { ByteBuffer(string: $0) })
                }
                #expect(try await send(.post, "/api/v1/entries", token: tokens["ann"], json: Self.xDrip).status == .ok)
                let anns = try await send(.get, "/api/v1/entries.json", token: tokens["ann"]).json().array
                let bobs = try await send(.get, "/api/v1/entries.json", token: tokens["bob"]).json().array
                #expect(anns?.count == 3 && bobs?.isEmpty == true)
                #expect(try await send(.get, "/api/v1/entries.json", token: nil).status == .unauthorized)
                #expect(try await send(.get, "/api/v1/entries.json", token: "cinn_not_a_token").status == .unauthorized)
            }
        }
    }

    /// Hosted mode's tokens for Nightscout clients (Account page): an uploader's only sends, a follower's only reads, and
    /// neither reaches the rest of the API; the `api-secret` header with a token's SHA-1 hex finds it, as uploaders send it.
    @Test(arguments: Database.enabled)
    func anUploadersTokenOnlySendsAndAFollowersOnlyReads(_ database: Database) async throws {
        try await withStore(database) { store in
            let journal = try await utcJournal(store)
            let accounts = Accounts(store: store, configuration: AccountsConfiguration(signUp: .closed, bcryptCost: 4))
            let ann = try await accounts.addUser(name: "ann", password: "ann-password-1", role: .member)
            try await store.saveSettings(UserSettings(timeZoneIdentifier: "UTC", onboarded: true), user: ann.user)
            let uploader = try await accounts.createToken(name: "xDrip+", scope: .nightscoutUpload, user: ann.user).secret
            let follower = try await accounts.createToken(name: "Home Assistant", scope: .nightscoutFollow, user: ann.user).secret
            let full = try await accounts.createToken(name: "Scripts", user: ann.user).secret
            #expect(try await store.apiTokens(user: ann.user).map(\.scope) == [.all, .nightscoutFollow, .nightscoutUpload])
            try await Application(router: buildRouter(journal: journal, accounts: accounts)).test(.router) { client in
                func send(_ method: HTTPRequest.Method, _ path: String, secret: String, json: String? = nil) async throws -> TestResponse {
                    let headers: HTTPFields = [.contentType: "application/json", HTTPField.Name("api-secret")!: Accounts.sha1Hex(secret)]
                    return try await client.execute(uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
                }
                #expect(
                    try await send(.get, "/nightscout/api/v1/status.json", secret: uploader).status == .ok,
                    "an uploader checks the server first")
                #expect(try await send(.post, "/nightscout/api/v1/entries", secret: uploader, json: Self.xDrip).status == .ok)
                #expect(
                    try await send(.get, "/nightscout/api/v1/entries.json", secret: uploader).status == .forbidden,
                    "an uploader's token does not read")
                let read = try await send(.get, "/nightscout/api/v1/entries.json", secret: follower)
                let readCount = try read.json().array?.count
                #expect(read.status == .ok && readCount == 3)
                #expect(
                    try await send(.post, "/nightscout/api/v1/treatments", secret: follower, json: Self.treatments).status == .forbidden,
                    "a follower's token does not write")
                #expect(try await send(.get, "/nightscout/api/v1/entries.json", secret: full).status == .ok, "a full token reads too")
                for token in [uploader, follower] {
                    let api = try await client.execute(uri: "/api/v1/weigh-ins", method: .get, headers: [.authorization: "Bearer " + token])
                    #expect(api.status == .forbidden, "a Nightscout client's token is for the Nightscout API only")
                }
                #expect(try await send(.get, "/nightscout/api/v1/entries.json", secret: "cinn_unknown").status == .unauthorized)
            }
        }
    }

    /// A day of treatments as a Nightscout site exported them: each with the site's `_id`.
    static let exportedTreatments = """
        [{"_id":"65f2b1c03a1c2b0012a4f401","eventType":"Correction Bolus","created_at":"2024-03-14T07:58:00.000Z","insulin":2.5,
          "enteredBy":"loop://iPhone"},
         {"_id":"65f2b1c03a1c2b0012a4f402","eventType":"Carb Correction","created_at":"2024-03-14T08:00:00.000Z","carbs":45,
          "foodType":"Porridge","enteredBy":"loop://iPhone"},
         {"_id":"65f2b1c03a1c2b0012a4f403","eventType":"Meal Bolus","created_at":"2024-03-14T12:30:00.000Z","carbs":60,"insulin":6,
          "notes":"Pizza","enteredBy":"xdrip"},
         {"_id":"65f2b1c03a1c2b0012a4f404","eventType":"Temp Basal","created_at":"2024-03-14T08:10:00.000Z","duration":30,"rate":0.8,
          "absolute":0.8,"enteredBy":"openaps://AndroidAPS"}]
        """
    /// The same treatments as each uploader sends them again: without the site's `_id`, their times written their own way.
    static let resentTreatments = [
        // Loop: seconds without a fraction, its own sync identifiers.
        """
        [{"eventType":"Correction Bolus","created_at":"2024-03-14T07:58:00Z","insulin":2.5,"type":"normal","programmed":2.5,
          "syncIdentifier":"a3f1","enteredBy":"loop://iPhone"},
         {"eventType":"Carb Correction","created_at":"2024-03-14T08:00:00Z","carbs":45,"absorptionTime":180,"foodType":"Porridge",
          "syncIdentifier":"b7c2","enteredBy":"loop://iPhone"}]
        """,
        // xDrip+: the local time with its offset, and a uuid.
        """
        [{"eventType":"Meal Bolus","created_at":"2024-03-14T13:30:00.000+01:00","carbs":60,"insulin":6,"notes":"Pizza",
          "enteredBy":"xdrip","uuid":"4f0e9a52-0d6e-4b7e-9a0a-3c1f2b6d8e11"}]
        """,
        // AndroidAPS: its pump's id and the epoch milliseconds too.
        """
        [{"eventType":"Temp Basal","created_at":"2024-03-14T08:10:00.000Z","date":1710403800000,"duration":30,"rate":0.8,"absolute":0.8,
          "enteredBy":"openaps://AndroidAPS","pumpId":4711,"isValid":true}]
        """,
    ]

    /// A file of treatments and an uploader's resend of them make each record once, in either order: by `_id`, then by
    /// the instant and event type, then (a record from an earlier import) by instant and kind.
    @Test(arguments: Database.enabled)
    func aTreatmentIsOneEventWhicheverWayItArrives(_ database: Database) async throws {
        try await withNightscout(on: database) { client, journal in
            let store = journal.store, user = journal.user, day = LocalDate(iso: "2024-03-14")!
            func holds() async throws -> (doses: [Double], food: [String], treatments: Int) {
                (
                    try await store.insulinDoses(user: user, from: .distantPast, to: .distantFuture).map(\.units).sorted(),
                    try await store.foodEntries(user: user, from: day, to: day).map { "\($0.name) \($0.nutrients[.carbohydrate] ?? 0)" }
                        .sorted(),
                    try await store.nightscoutDocuments(.treatments, user: user, limit: 100).count
                )
            }
            let imported = try await client.send(.post, "/api/v1/imports", body: Self.exportedTreatments, contentType: "application/json")
                .json()
            #expect(imported["imported"]?.double == 4 && imported["skipped"]?.double == 1)
            #expect(try await holds() == ([2.5, 6], ["Pizza 60.0", "Porridge 45.0"], 4))
            for body in Self.resentTreatments {
                let answer = try await send(client, .post, "/api/v1/treatments", json: body)
                #expect(answer.status == .ok, "\(answer.text)")
                #expect(try answer.json().array?.isEmpty == true, "nothing new")
            }
            #expect(try await holds() == ([2.5, 6], ["Pizza 60.0", "Porridge 45.0"], 4))
            // And the other way round: what the uploaders sent first, the file adds nothing to.
            let again = try await client.send(.post, "/api/v1/imports", body: Self.exportedTreatments, contentType: "application/json")
                .json()
            #expect(again["imported"]?.double == 0 && again["duplicates"]?.double == 4)
            try await store.undoImport(id: Int64(try #require(imported["import_id"]?.double)), user: user)
            #expect(try await holds() == ([], [], 0))
            for body in Self.resentTreatments {
                #expect(try await send(client, .post, "/api/v1/treatments", json: body).json().array?.count ?? 0 > 0)
            }
            let afterUploads = try await holds()
            #expect(afterUploads == ([2.5, 6], ["Pizza 60.0", "Porridge 45.0"], 4))
            let late = try await client.send(.post, "/api/v1/imports", body: Self.exportedTreatments, contentType: "application/json")
                .json()
            #expect(late["imported"]?.double == 0 && late["duplicates"]?.double == 4)
            #expect(try await holds() == afterUploads)
        }
    }

    /// Loop's and AndroidAPS's treatments: each kept as sent; a bolus a dose, carbohydrate a quick add in the food log
    /// (and so the glucose report's meal), a glucose check a meter's reading; the rest kept and listed.
    static let treatments = """
        [{"_id":"65f2b1c03a1c2b0012a4f301","eventType":"Correction Bolus","created_at":"2024-03-14T07:58:00.000Z","insulin":2.5,
          "type":"normal","programmed":2.5,"unabsorbed":0,"duration":0.5,"enteredBy":"loop://iPhone","utcOffset":0},
         {"eventType":"Carb Correction","created_at":"2024-03-14T08:00:00.000Z","carbs":45,"absorptionTime":180,"foodType":"🥣",
          "enteredBy":"loop://iPhone","syncIdentifier":"6d2e0f6c1b0a4b21a6b7f1a0c9e3d2a1","utcOffset":0},
         {"eventType":"Temp Basal","created_at":"2024-03-14T08:10:00.000Z","duration":30,"rate":0.8,"absolute":0.8,"temp":"absolute",
          "enteredBy":"openaps://AndroidAPS"},
         {"eventType":"BG Check","created_at":"2024-03-14T07:50:00.000Z","glucose":110,"glucoseType":"Finger","units":"mg/dl"},
         {"eventType":"Site Change","created_at":"2024-03-13T20:00:00.000Z","notes":"left arm"}]
        """

    @Test(arguments: Database.enabled)
    func treatmentsAreKeptAndTheJournalHoldsWhatItCan(_ database: Database) async throws {
        try await withNightscout(on: database) { client, journal in
            let store = journal.store, user = journal.user
            let stored = try await send(client, .post, "/api/v1/treatments", json: Self.treatments)
            #expect(stored.status == .ok)
            #expect(try stored.json().array?.count == 5)
            #expect(try await send(client, .post, "/api/v1/treatments.json", json: Self.treatments).json().array?.isEmpty == true)

            let day = LocalDate(iso: "2024-03-14")!
            let doses = try await store.insulinDoses(user: user, from: .distantPast, to: .distantFuture)
            #expect(doses.map(\.units) == [2.5] && doses.first?.kind == .bolus)
            let entries = try await store.foodEntries(user: user, from: day, to: day)
            #expect(entries.count == 1 && entries.first?.name == "🥣" && entries.first?.isQuickAdd == true)
            #expect(entries.first?.nutrients[.carbohydrate] == 45 && entries.first?.nutrients.energy == 180)
            #expect(entries.first?.note?.contains("energy estimated from carbohydrate") == true && entries.first?.meal == .breakfast)
            let readings = try await store.glucoseReadings(user: user, limit: 10)
            #expect(readings.map(\.glucose.milligramsPerDeciliter) == [110] && readings.first?.sensor == false)
            // The carbohydrate is the food log's breakfast, the meal the glucose report reads.
            let events = try await client.send(.get, "/api/v1/glucose/report?days=1&to=2024-03-14")
            #expect(events.status == .ok)
            #expect(try events.json()["meal_events"]?.array?.first?["carbohydrate_g"]?.double == 45)

            let listed = try #require(try await send(client, .get, "/api/v1/treatments.json?count=10").json().array)
            #expect(
                listed.map { $0["eventType"]?.string } == ["Temp Basal", "Carb Correction", "Correction Bolus", "BG Check", "Site Change"])
            #expect(listed[2]["_id"]?.string == "65f2b1c03a1c2b0012a4f301" && listed[1]["_id"]?.string?.count == 24)
            #expect(listed[0]["rate"]?.double == 0.8, "kept as sent")
            let since = try #require(
                try await send(client, .get, "/api/v1/treatments.json?find[created_at][$gte]=2024-03-14T08:00:00Z").json().array)
            #expect(since.count == 2)
            let bad = try await send(client, .post, "/api/v1/treatments", json: #"[{"eventType":"Meal Bolus","insulin":3}]"#)
            let badField = try bad.json()["error"]?["field"]?.string
            #expect(bad.status == .unprocessableContent && badField == "[0].created_at")

            let status =
                #"{"device":"loop://iPhone","created_at":"2024-03-14T08:05:00Z","loop":{"iob":{"iob":1.2}},"pump":{"reservoir":120}}"#
            #expect(try await send(client, .post, "/api/v1/devicestatus", json: status).json().array?.count == 1)
            #expect(try await send(client, .post, "/api/v1/devicestatus", json: status).json().array?.isEmpty == true)
            let statuses = try #require(try await send(client, .get, "/api/v1/devicestatus.json").json().array)
            #expect(statuses.count == 1 && statuses[0]["pump"]?["reservoir"]?.double == 120)
            #expect(try await send(client, .get, "/api/v1/profile.json").json().array?.isEmpty == true)
        }
    }

    /// An uploader's retry is never an error: the same treatment twice in one body, sent again later, or written in
    /// another offset, is stored once, and what the journal keeps of it once.
    @Test(arguments: Database.enabled)
    func aTreatmentSentTwiceOrInAnotherOffsetIsOneEvent(_ database: Database) async throws {
        try await withNightscout(on: database) { client, journal in
            let bolus =
                #"{"_id":"65f2b1c03a1c2b0012a4f399","eventType":"Meal Bolus","created_at":"2024-03-14T07:58:00.000Z","insulin":4,"carbs":40}"#
            let twice = try await send(client, .post, "/api/v1/treatments", json: "[\(bolus),\(bolus)]")
            #expect(twice.status == .ok, "\(twice.text)")
            #expect(try twice.json().array?.count == 1)
            #expect(try await send(client, .post, "/api/v1/treatments", json: "[\(bolus)]").json().array?.isEmpty == true)

            let withoutID = #"{"eventType":"Correction Bolus","created_at":"2024-03-14T10:09:30+02:00","insulin":1.5}"#
            let inUTC = #"{"eventType":"Correction Bolus","created_at":"2024-03-14T08:09:30Z","insulin":1.5}"#
            let both = try await send(client, .post, "/api/v1/treatments", json: "[\(withoutID),\(withoutID),\(inUTC)]")
            #expect(both.status == .ok, "\(both.text)")
            #expect(try both.json().array?.count == 1)
            #expect(try await send(client, .post, "/api/v1/treatments", json: "[\(inUTC)]").json().array?.isEmpty == true)

            let doses = try await journal.store.insulinDoses(user: journal.user, from: .distantPast, to: .distantFuture)
            #expect(doses.map(\.units).sorted() == [1.5, 4])
            let day = LocalDate(iso: "2024-03-14")!
            #expect(try await journal.store.foodEntries(user: journal.user, from: day, to: day).count == 1)

            let status = #"{"device":"openaps://phone","pump":{"reservoir":88}}"#
            #expect(try await send(client, .post, "/api/v1/devicestatus", json: "[\(status),\(status)]").json().array?.count == 1)
            #expect(
                try await send(client, .post, "/api/v1/devicestatus", json: status).json().array?.isEmpty == true,
                "no time: its content is its key")
        }
    }

    /// Each treatment is checked as every door checks its values; the invalid ones are skipped and named, the valid
    /// ones stored, and only a body with nothing valid is refused.
    @Test(arguments: Database.enabled)
    func invalidTreatmentsAreSkippedAndNamedAndTheRestStored(_ database: Database) async throws {
        try await withNightscout(on: database) { client, journal in
            let long = String(repeating: "x", count: 100_000)
            let body = """
                [{"eventType":"Note","created_at":"2024-03-14T08:00:00Z","notes":"\(long)"},
                 {"eventType":"\(long)","created_at":"2024-03-14T08:01:00Z"},
                 {"eventType":"Note","created_at":"0001-01-01T00:00:00Z"},
                 {"eventType":"Note","created_at":"9999-12-31T00:00:00Z"},
                 {"eventType":"Correction Bolus","created_at":"2024-03-14T08:02:00Z","insulin":1e-300},
                 {"eventType":"Note\\u001b[31m","created_at":"2024-03-14T08:03:00Z"},
                 {"eventType":"Correction Bolus","created_at":"2024-03-14T08:04:00Z","insulin":2}]
                """
            let response = try await send(client, .post, "/api/v1/treatments", json: body)
            #expect(response.status == .ok, "\(response.text)")
            #expect(try response.json().array?.count == 1)
            let named = response.headers[HTTPField.Name("Cinn-Rejected")!] ?? ""
            #expect(named.hasPrefix("6 rejected"), "\(named)")
            for field in ["[0].notes", "[1].eventType", "[2].created_at", "[3].created_at", "[4].insulin", "[5].eventType"] {
                #expect(named.contains(field + ":"), "\(field) in \(named)")
            }
            let doses = try await journal.store.insulinDoses(user: journal.user, from: .distantPast, to: .distantFuture)
            #expect(doses.map(\.units) == [2])
            let listed = try #require(try await send(client, .get, "/api/v1/treatments.json?count=100").json().array)
            #expect(listed.count == 1)

            let none = try await send(
                client, .post, "/api/v1/treatments", json: #"[{"eventType":"Note","created_at":"9999-12-31T00:00:00Z"}]"#)
            #expect(none.status == .unprocessableContent)
            #expect(try none.json()["error"]?["field"]?.string == "[0].created_at")
        }
    }

    /// A body of hundreds of thousands of empty documents is refused while it is read, before it is built or stored.
    @Test func anUploadOfMillionsOfValuesIsRefusedWhileItIsRead() async throws {
        try await withNightscout(on: .sqlite) { client, journal in
            let empties = "[" + Array(repeating: "{}", count: 1_000_000).joined(separator: ",") + "]"
            for path in ["/api/v1/devicestatus", "/api/v1/treatments", "/api/v1/entries", "/api/v1/profile"] {
                let response = try await send(client, .post, path, json: empties)
                #expect(response.status == .contentTooLarge, "\(path): \(response.status) \(response.text.prefix(200))")
            }
            let statuses = (1...10_001).map { #"{"device":"d","created_at":"2024-03-14T08:00:00Z","n":\#($0)}"# }
            let many = try await send(client, .post, "/api/v1/devicestatus", json: "[" + statuses.joined(separator: ",") + "]")
            #expect(many.status == .contentTooLarge)
            #expect(try await send(client, .get, "/api/v1/devicestatus.json").json().array?.isEmpty == true)
        }
    }

    /// A sensor's LOW (sgv 39) and HIGH (401) are readings at the ends of its range, counted in time below and above range
    /// and shown as LOW and HIGH; only what is under 39 is a status code.
    @Test(arguments: Database.enabled)
    func aLowReadingIsAReading(_ database: Database) async throws {
        try await withNightscout(on: database) { client, journal in
            let entries = """
                [{"device":"xDrip-DexcomG6","date":1710503700000,"dateString":"2024-03-15T11:55:00.000+0000","sgv":39,"direction":"NOT COMPUTABLE","type":"sgv"},
                 {"device":"xDrip-DexcomG6","date":1710503400000,"dateString":"2024-03-15T11:50:00.000+0000","sgv":38,"type":"sgv"},
                 {"device":"xDrip-DexcomG6","date":1710503100000,"dateString":"2024-03-15T11:45:00.000+0000","sgv":401,"type":"sgv"},
                 {"device":"xDrip-DexcomG6","date":1710502800000,"dateString":"2024-03-15T11:40:00.000+0000","sgv":100,"type":"sgv"}]
                """
            let stored = try await send(client, .post, "/api/v1/entries", json: entries)
            #expect(try stored.json().array?.map { $0["sgv"]?.double } == [39, 401, 100], "38 is a status code; 39 and 401 are readings")
            let report = try await client.send(.get, "/api/v1/glucose/report?days=1&to=2024-03-15").json()
            let statistics = report["statistics"] ?? report
            #expect(
                statistics["percent_below_54"]?.double.map { abs($0 - 100.0 / 3) < 0.1 } == true, "the LOW counts below 54: \(statistics)")
            let live = try await client.send(.get, "/glucose/live?hours=3").text
            #expect(live.contains(">LOW<"), "the newest reading, 39 from a sensor, shows as LOW")
            let day = try await client.send(.get, "/glucose/days/2024-03-15").text
            #expect(day.contains("LOW") && day.contains("HIGH"))
            #expect(try await journal.store.glucoseReadings(user: journal.user, limit: 10).count == 3)
        }
    }
}
