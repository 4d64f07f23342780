import CinnCore
import CinnJournal
import CinnServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PropertyBased
import SQLKit
import Testing

@testable import CinnStore

/// Values at and beyond the edges of what Cinn stores (docs/SECURITY.md, "Valid values"): every door refuses them
/// naming the field, and what an older version stored beyond them never crashes a page, an API answer or sync.
@Suite struct HostileValueTests {
    static let day = "2024-03-14"

    static func healthAutoExport(workouts: [String] = [], metrics: [String] = []) -> String {
        #"{"data":{"metrics":[\#(metrics.joined(separator: ","))],"workouts":[\#(workouts.joined(separator: ","))]}}"#
    }

    static func workout(id: Int, _ fields: String) -> String {
        #"{"id":"1F088C46-09AD-4259-A78F-6CBE9F90BD9\#(id)","name":"Outdoor Run","start":"\#(day) 07:00:00 +0000","end":"\#(day) 07:40:00 +0000",\#(fields)}"#
    }

    /// Every GET route of the router, its path parameters filled: the ids of the records the journal holds where a
    /// route names one, a day of the data otherwise. Each must answer below 500; JSON answers must be JSON.
    static func everyRead(_ client: some TestClientProtocol, routes: [String], ids: [String: String]) async throws {
        #expect(routes.count >= 60)
        for template in routes where !template.hasPrefix("/static/") && template != "/metrics" {
            var path = template.replacingOccurrences(of: "{date}", with: day)
            for (prefix, id) in ids where template.hasPrefix(prefix) { path = path.replacingOccurrences(of: "{id}", with: id) }
            path = path.replacingOccurrences(of: "{id}", with: UUID().uuidString.lowercased())
            path = path.replacingOccurrences(of: "{barcode}", with: "4006381333931")
            let response = try await client.send(.get, path)
            #expect(response.status.code < 500, "GET \(path) answered \(response.status.code): \(response.text.prefix(300))")
            #expect(
                !response.text.contains(":inf") && !response.text.contains(",inf") && !response.text.contains("nan,"),
                "GET \(path) wrote a number that is not finite")
            if response.headers[.contentType]?.hasPrefix("application/json") == true {
                #expect(
                    (try? JSONSerialization.jsonObject(with: Data(response.text.utf8), options: [.fragmentsAllowed])) != nil,
                    "GET \(path) is not JSON: \(response.text.prefix(300))")
            }
        }
    }

    @Test(arguments: Database.enabled)
    func aHealthAutoExportDeliveryOfImpossibleValuesIsRefusedPointByPoint(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let body = Self.healthAutoExport(
                workouts: [
                    Self.workout(id: 1, #""activeEnergyBurned":{"qty":1e19,"units":"kcal"}"#),
                    Self.workout(id: 2, #""distance":{"qty":1e308,"units":"mi"}"#),
                    Self.workout(
                        id: 3, #""duration":2400,"distance":{"qty":8.1,"units":"km"},"activeEnergyBurned":{"qty":402,"units":"kcal"}"#),
                ],
                metrics: [
                    #"{"name":"heart_rate","units":"count/min","data":[{"date":"\#(Self.day) 08:00:00 +0000","Min":60,"Avg":1e308,"Max":1e308}]}"#,
                    #"{"name":"step_count","units":"count","data":[{"date":"\#(Self.day) 08:00:00 +0000","qty":1e300},{"date":"1826-01-01 08:00:00 +0000","qty":10}]}"#,
                    #"{"name":"dietary_energy","units":"kcal","data":[{"date":"\#(Self.day) 08:00:00 +0000","qty":1e19}]}"#,
                ])
            let response = try await client.send(.post, "/api/v1/ingest/health-auto-export", json: body)
            #expect(response.status == .created, "\(response.text)")
            let report = try response.json()
            #expect(report["imported"]?.double == 1, "only the run of 8.1 km")
            let fields = (report["rejected"]?.array ?? []).compactMap { $0["field"]?.string }
            #expect(fields.contains("data.workouts[0].activeEnergyBurned.qty"))
            #expect(fields.contains("data.workouts[1].distance.qty"))
            #expect(fields.contains("data.metrics[0].data[0].Avg") || fields.contains("data.metrics[0].data[0].Max"))
            #expect(fields.contains("data.metrics[1].data[0].qty"))
            #expect(fields.contains("data.metrics[1].data[1].date"))
            #expect(fields.contains { $0.hasPrefix("data.metrics[2].data[0]") })
            for path in ["/workouts", "/lifts", "/more-data", "/food/\(Self.day)", "/api/v1/sync/changes"] {
                #expect(try await client.send(.get, path).status == .ok, "\(path)")
            }
        }
    }

    @Test(arguments: Database.enabled)
    func anAppleHealthWorkoutBurningImpossibleEnergyIsRejectedByItsLine(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <HealthData locale="en_US">
                 <ExportDate value="2024-03-15 08:00:00 +0000"/>
                 <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="40" durationUnit="min" totalDistance="8" totalDistanceUnit="km" totalEnergyBurned="1e300" totalEnergyBurnedUnit="kcal" sourceName="Watch" startDate="2024-03-14 07:00:00 +0000" endDate="2024-03-14 07:40:00 +0000"/>
                 <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" totalDistance="5" totalDistanceUnit="km" totalEnergyBurned="300" totalEnergyBurnedUnit="kcal" sourceName="Watch" startDate="2024-03-13 07:00:00 +0000" endDate="2024-03-13 07:30:00 +0000"/>
                 <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-03-14 08:00:00 +0000" endDate="2024-03-14 08:00:00 +0000" value="1e308"/>
                 <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="kg" startDate="0001-01-01 08:00:00 +0000" endDate="0001-01-01 08:00:00 +0000" value="80"/>
                </HealthData>
                """
            let response = try await client.send(.post, "/api/v1/imports?skip_invalid=true", body: xml, contentType: "application/xml")
            #expect(response.status == .created, "\(response.text)")
            let report = try response.json()
            let rejected = report["rejected"]?.array ?? []
            #expect(rejected.contains { $0["line"]?.double == 4 }, "the workout of 1e300 kcal, by its line: \(response.text)")
            #expect(rejected.contains { $0["line"]?.double == 6 }, "the heart rate of 1e308: \(response.text)")
            #expect(
                rejected.contains { $0["line"]?.double == 7 && $0["field"]?.string == "startDate" },
                "a weigh-in in the year 1: \(response.text)")
            #expect(report["imported"]?.double == 1, "the run of 5 km")
            #expect(try await client.send(.get, "/workouts").status == .ok)
            #expect(try await client.send(.get, "/more-data").status == .ok)
        }
    }

    @Test(arguments: Database.enabled)
    func aPresetLoggedAVanishingNumberOfTimesIsRefused(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let quick = try await client.send(
                .post, "/api/v1/food-entries", json: #"{"entries":[{"energy_kcal":500,"name":"Lunch","meal":"lunch"}]}"#)
            #expect(quick.status == .created, "\(quick.text)")
            let preset = try await client.send(.post, "/api/v1/presets", json: #"{"name":"Lunch","from_date":"2024-03-15","meal":"lunch"}"#)
            let id = try #require(try preset.json()["id"]?.string, "\(preset.text)")
            for times in ["1.412347339486671e-210", "0", "1e-4", "20000"] {
                let response = try await client.send(.post, "/api/v1/presets/\(id)/log", json: #"{"times":\#(times)}"#)
                try expectError(response, .unprocessableContent, code: "invalid_input", field: "times")
            }
            #expect(try await client.send(.post, "/api/v1/presets/\(id)/log", json: #"{"times":0.5}"#).status == .created)
            #expect(try await client.send(.get, "/api/v1/food-entries?from=2024-03-15&to=2024-03-15").status == .ok)
            #expect(try await client.send(.get, "/api/v1/glucose/report").status == .ok)
        }
    }

    /// Numbers at and beyond the edges of every range, and ordinary ones.
    static let edgeValues: [Double] = [
        0, -0.0, 4.9e-324, 1.412347339486671e-210, 0.001, 0.0249, 0.025, 1, 30, 100.0001, 699.9, 700.5, 1000.5, 20_000.01, 50_000.5,
        1e6, 1e15, 1e19, -1e19, 1e300, -1e300, .greatestFiniteMagnitude, .infinity, -.infinity, .nan,
    ]

    /// A number as a client writes it in JSON: JSON has no infinity (a client that tries writes 1e999) and no NaN.
    static func json(_ value: Double) -> String { value.isNaN ? "null" : value.isInfinite ? (value > 0 ? "1e999" : "-1e999") : "\(value)" }

    /// Every door a number comes in by, given that number as the client writes it.
    static let doors: [(name: String, method: HTTPRequest.Method, path: String, body: @Sendable (String) -> String)] = [
        ("weigh-in", .post, "/api/v1/weigh-ins", { #"{"weight":\#($0),"unit":"kg","confirm":true}"# }),
        ("quick add", .post, "/api/v1/food-entries", { #"{"entries":[{"energy_kcal":\#($0),"protein_g":\#($0),"name":"Edge"}]}"# }),
        ("glucose", .post, "/api/v1/glucose", { #"{"value":\#($0),"unit":"mg/dL","confirm":true}"# }),
        ("insulin", .post, "/api/v1/insulin", { #"{"units":\#($0),"kind":"bolus"}"# }),
        ("goal", .put, "/api/v1/goal", { #"{"weight":\#($0),"unit":"kg","rate_per_week":\#($0)}"# }),
        (
            "health auto export", .post, "/api/v1/ingest/health-auto-export",
            { value in
                healthAutoExport(
                    workouts: [
                        workout(
                            id: 4,
                            #""duration":\#(value),"distance":{"qty":\#(value),"units":"mi"},"activeEnergyBurned":{"qty":\#(value),"units":"kcal"}"#
                        )
                    ],
                    metrics: [
                        #"{"name":"heart_rate","units":"count/min","data":[{"date":"\#(day) 08:00:00 +0000","Min":\#(value),"Avg":\#(value),"Max":\#(value)}]}"#,
                        #"{"name":"dietary_energy","units":"kcal","data":[{"date":"\#(day) 09:00:00 +0000","qty":\#(value)}]}"#,
                    ])
            }
        ),
        (
            "sync", .post, "/api/v1/sync/push",
            { value in
                #"{"changes":[{"type":"workout","id":"\#(UUID().uuidString)","changed_at":"2024-03-14T08:00:00Z","fields":{"started_at":"2024-03-14T07:00:00Z","name":"Edge","duration_s":\#(value),"distance_m":\#(value),"energy_kcal":\#(value)}}]}"#
            }
        ),
        (
            "nightscout treatment", .post, "/nightscout/api/v1/treatments",
            { #"[{"eventType":"Meal Bolus","created_at":"2024-03-14T07:00:00Z","insulin":\#($0),"carbs":\#($0),"glucose":\#($0)}]"# }
        ),
        ("nightscout entry", .post, "/nightscout/api/v1/entries", { #"[{"type":"sgv","sgv":\#($0),"date":1710399600000}]"# }),
        (
            "nom", .post, "/api/v1/nom",
            { #"{"entries":[{"carbohydrate_g":\#($0),"energy_kcal":\#($0),"fat_g":\#($0),"fiber_g":\#($0)}],"bolus_units":\#($0)}"# }
        ),
        ("insulin curve", .put, "/api/v1/settings", { #"{"insulin_peak_minutes":\#($0),"insulin_duration_minutes":\#($0)}"# }),
    ]

    /// Property: a number at or beyond any edge, through any door, is stored only when valid, never answers 5xx, and
    /// afterwards every page and JSON read of the journal still answers.
    @Test(arguments: Database.enabled)
    func edgeValuesThroughEveryDoorLeaveEveryReadWorking(_ database: Database) async throws {
        try await withStore(database) { store in
            let journal = try await utcJournal(store)
            let router = buildRouter(journal: journal, security: WebSecurity(loopbackHostsOnly: true))
            let routes = router.routes.filter { $0.method == .get }.map(\.path.description)
            try await Application(router: router).test(.router) { client in
                await propertyCheck(
                    count: 60, input: Gen<Int>.int(in: 0...(Self.edgeValues.count + 3)), Gen<Double>.double(in: -1e7...1e7),
                    Gen<Int>.int(in: 0...(Self.doors.count - 1))
                ) { choice, any, index in
                    let value = choice < Self.edgeValues.count ? Self.edgeValues[choice] : any
                    let door = Self.doors[index]
                    let response = try await client.send(door.method, door.path, json: door.body(Self.json(value)))
                    #expect(response.status.code < 500, "\(door.name) with \(value): \(response.status.code) \(response.text.prefix(200))")
                }
                try await Self.everyRead(client, routes: routes, ids: [:])
            }
        }
    }

    /// Property: whatever number an older version stored in the numeric columns of every kind of record (an infinity, a
    /// subnormal, 1e308; within what each column's own check allows), every page, JSON read, export and sync pull of the
    /// router answers below 500, and its JSON is JSON.
    @Test(arguments: Database.enabled)
    func anyNumberStoredByAnOlderVersionCrashesNothing(_ database: Database) async throws {
        try await withStore(database) { store in
            let journal = try await utcJournal(store)
            let router = buildRouter(journal: journal)
            let routes = router.routes.filter { $0.method == .get }.map(\.path.description)
            try await Application(router: router).test(.router) { client in
                // One record of each kind through the doors, then made impossible underneath.
                _ = try await client.addWeighIn(80, date: "2024-03-14")
                #expect(
                    try await client.send(
                        .post, "/api/v1/food-entries",
                        json: #"{"entries":[{"energy_kcal":500,"name":"Lunch","time":"2024-03-14T12:00:00Z"}]}"#
                    ).status == .created)
                let hae = Self.healthAutoExport(
                    workouts: [
                        Self.workout(
                            id: 5, #""duration":2400,"distance":{"qty":8.1,"units":"km"},"activeEnergyBurned":{"qty":402,"units":"kcal"}"#)
                    ],
                    metrics: [
                        #"{"name":"heart_rate","units":"count/min","data":[{"date":"\#(Self.day) 08:00:00 +0000","Min":60,"Avg":70,"Max":80}]}"#,
                        #"{"name":"step_count","units":"count","data":[{"date":"\#(Self.day) 08:00:00 +0000","qty":5000}]}"#,
                    ])
                #expect(try await client.send(.post, "/api/v1/ingest/health-auto-export", json: hae).status == .created)
                #expect(
                    try await client.send(.post, "/api/v1/glucose", json: #"{"value":120,"unit":"mg/dL","time":"2024-03-14T13:00:00Z"}"#)
                        .status == .created)
                #expect(
                    try await client.send(.post, "/api/v1/insulin", json: #"{"units":4,"kind":"bolus","time":"2024-03-14T12:00:00Z"}"#)
                        .status == .created)
                let workouts = try await client.send(.get, "/api/v1/workouts").json()
                let workoutID = workouts["workouts"]?[0]?["id"]?.string ?? workouts[0]?["id"]?.string ?? ""
                let entries = try await client.send(.get, "/api/v1/food-entries?from=2024-03-14&to=2024-03-14").json()
                let entryID = entries["entries"]?[0]?["id"]?.string ?? ""
                let weighIns = try await client.send(.get, "/api/v1/weigh-ins").json()
                let weighInID = weighIns["weigh_ins"]?[0]?["id"]?.string ?? ""
                let ids = [
                    "/workouts/": workoutID, "/api/v1/workouts/": workoutID, "/food/entries/": entryID, "/api/v1/food-entries/": entryID,
                    "/weigh-ins/": weighInID, "/api/v1/weigh-ins/": weighInID,
                ]
                let stored: [Double] = [4.9e-324, 1e-300, 0.0001, 1e15, 1e19, 1e300, .greatestFiniteMagnitude, .infinity]
                await propertyCheck(count: 6, input: Gen<Int>.int(in: 0...(stored.count - 1))) { choice in
                    let value = stored[choice]
                    let sql =
                        database == .sqlite
                        ? (value.isInfinite ? "9e999" : "\(value)")
                        : (value.isInfinite ? "'Infinity'::float8" : "\(value)::float8")
                    let nutrient = value.isInfinite ? "1e300" : "\(value)"
                    try await store.withConnection { db in
                        for statement in [
                            "UPDATE workouts SET energy_kcal = \(sql), distance_m = \(sql), duration_s = \(sql)",
                            "UPDATE weigh_ins SET weight_kg = 700",
                            "UPDATE food_entries SET servings = \(sql), nutrients = '{\"energy\":\(nutrient),\"protein\":\(nutrient)}'",
                            "UPDATE health_days SET total = \(sql), minimum = -1e300, maximum = \(sql)",
                            "UPDATE glucose_readings SET mg_dl = \(sql)",
                            "UPDATE insulin_doses SET units = \(sql)",
                        ] {
                            try await db.raw("\(unsafeRaw: statement)").run()
                        }
                    }
                    try await Self.everyRead(client, routes: routes, ids: ids)
                }
            }
        }
    }
}
