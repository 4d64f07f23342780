import CinnCore
import CinnJournal
import CinnServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CinnStore

/// `POST /api/v1/ingest/health-auto-export`: deliveries of the iPhone app Health Auto Export, as its REST API
/// automation posts them, on both databases (docs/health-auto-export.md).
@Suite struct HealthAutoExportAPITests {
    static let path = "/api/v1/ingest/health-auto-export"

    /// A delivery with the summaries "Days" aggregation sends: a day's food and steps so far, heart rate by the minute.
    static func delivery(energy: Double, carbs: Double, steps: Double, heartRate: [(minute: Int, average: Double)]) -> String {
        // Fractions of a kcal by the minute, whose sum depends on the order they are added in.
        let energyBurned = (0..<40).map { minute in
            #"{"date":"2024-06-01 07:\#(String(format: "%02d", minute)):00 -0700","qty":\#(Double(minute % 7) / 10 + 0.1),"source":"Watch"}"#
        }
        let beats = heartRate.map { point in
            #"{"date":"2024-06-01 08:0\#(point.minute):00 -0700","Min":\#(point.average - 5),"Avg":\#(point.average),"Max":\#(point.average + 5),"source":"Watch"}"#
        }
        return """
            {"data":{"metrics":[
              {"name":"weight_body_mass","units":"kg","data":[{"date":"2024-06-01 07:00:00 -0700","qty":80.4,"source":"Withings"}]},
              {"name":"dietary_energy","units":"kcal","data":[{"date":"2024-06-01 00:00:00 -0700","qty":\(energy),"source":"MyFitnessPal"}]},
              {"name":"carbohydrates","units":"g","data":[{"date":"2024-06-01 00:00:00 -0700","qty":\(carbs),"source":"MyFitnessPal"}]},
              {"name":"step_count","units":"count","data":[{"date":"2024-06-01 00:00:00 -0700","qty":\(steps),"source":"iPhone"}]},
              {"name":"active_energy","units":"kJ","data":[\(energyBurned.joined(separator: ","))]},
              {"name":"heart_rate","units":"count/min","data":[\(beats.joined(separator: ","))]},
              {"name":"state_of_mind_valence","units":"","data":[{"date":"2024-06-01 09:00:00 -0700","qty":0.4}]}],
             "workouts":[{"id":"1F088C46-09AD-4259-A78F-6CBE9F90BD94","name":"Outdoor Walk","start":"2024-06-01 19:37:47 -0700",
               "end":"2024-06-01 19:56:37 -0700","duration":1130,"distance":{"qty":1.8,"units":"km"},"activeEnergyBurned":{"qty":77,"units":"kcal"}}]}}
            """
    }

    static let june1 = LocalDate(year: 2024, month: 6, day: 1)!

    func heartRate(_ journal: Journal) async throws -> HealthDaySummary? {
        try await journal.store.healthDays(
            user: journal.user, type: "HKQuantityTypeIdentifierHeartRate", category: "", unit: "count/min",
            days: Self.june1...Self.june1
        ).first
    }

    @Test(arguments: Database.enabled)
    func overlappingDeliveriesAddEachRecordOnceAndAGrownTotalReplacesTheOld(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let first = Self.delivery(energy: 500, carbs: 60, steps: 3000, heartRate: [(0, 70), (1, 72)])
            let response = try await client.send(.post, Self.path, json: first)
            #expect(response.status == .created)
            let report = try response.json()
            #expect(report["format"]?.string == "health-auto-export" && report["rows_read"]?.double == 48)
            #expect(
                report["imported"]?.double == 46,
                "a weigh-in, a food entry, a workout, two minutes of heart rate, the steps and 40 minutes of energy")
            #expect(report["unknown"]?["state_of_mind_valence"]?.double == 1)
            let firstImport = try #require(report["import_id"]?.double)
            #expect(try await heartRate(journal)?.count == 2)

            // The app sends the same window again: nothing new, and no batch left behind.
            let again = try await client.send(.post, Self.path, json: first)
            #expect(again.status == .ok)
            #expect(
                try again.json()["imported"]?.double == 0 && again.json()["duplicates"]?.double == 46
                    && again.json()["import_id"]?.isNull == true)

            // A later, overlapping window: the day's food and steps grew, one minute is new, one is sent again.
            let second = try await client.send(
                .post, Self.path, json: Self.delivery(energy: 1400, carbs: 150, steps: 7000, heartRate: [(1, 72), (2, 90)]))
            #expect(second.status == .created)
            #expect(try second.json()["replaced"]?.double == 1, "the day's food so far replaces the smaller total")
            let food = try await journal.store.foodEntries(user: journal.user, from: Self.june1, to: Self.june1)
            #expect(food.map(\.energy) == [1400] && food.first?.nutrients[.carbohydrate] == 150)
            #expect(try await journal.store.weighIns(user: journal.user).count == 1)
            let heart = try #require(try await heartRate(journal))
            #expect(heart.count == 3 && heart.minimum == 65 && heart.maximum == 95 && heart.sum == 232)
            let steps = try await journal.store.healthDays(
                user: journal.user, type: "HKQuantityTypeIdentifierStepCount", category: "", unit: "count",
                days: Self.june1...Self.june1)
            #expect(steps.map(\.sum) == [7000], "a day's total sent again with more is the day's total, not added to it")

            // Each delivery is an import: listed, and undone alone.
            let imports = try #require(try await client.send(.get, "/api/v1/imports").json()["imports"]?.array)
            #expect(imports.map { $0["format"]?.string } == ["health-auto-export", "health-auto-export"])
            let secondImport = try #require(try second.json()["import_id"]?.double)
            #expect(try await client.send(.post, "/api/v1/imports/\(Int(secondImport))/undo").status == .ok)
            #expect(try await heartRate(journal)?.count == 2, "the first delivery's day summary is the day's again")
            #expect(try await journal.store.foodEntries(user: journal.user, from: Self.june1, to: Self.june1).isEmpty)
            #expect(try await client.send(.post, "/api/v1/imports/\(Int(firstImport))/undo").status == .ok)
            #expect(try await heartRate(journal) == nil)
            #expect(try await journal.store.weighIns(user: journal.user).isEmpty)
        }
    }

    /// The app's own "Export" as JSON, imported as a file: recognised by its content, read by the delivery's code as one
    /// batch, previewed by a dry run that writes nothing, refused whole for an invalid point unless asked to skip it.
    @Test(arguments: Database.enabled)
    func anExportFileIsImportedAsADeliveryIs(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let file = Self.delivery(energy: 500, carbs: 60, steps: 3000, heartRate: [(0, 70), (1, 72)])
            let preview = try await client.send(
                .post, "/api/v1/imports?dry_run=true&file_name=HealthAutoExport-2024-06-01.json", body: file,
                contentType: "application/json")
            #expect(preview.status == .ok)
            #expect(try preview.json()["format"]?.string == "health-auto-export" && preview.json()["dry_run"]?.bool == true)
            #expect(try preview.json()["imported"]?.double == 46 && preview.json()["import_id"]?.isNull == true)
            #expect(try await heartRate(journal) == nil, "a dry run writes nothing")
            #expect(try await journal.store.weighIns(user: journal.user).isEmpty)

            let imported = try await client.send(
                .post, "/api/v1/imports?file_name=HealthAutoExport-2024-06-01.json", body: file,
                contentType: "application/json")
            #expect(imported.status == .created)
            #expect(try imported.json()["imported"]?.double == 46)
            #expect(try await heartRate(journal)?.count == 2)
            // The same export delivered by the app's automation adds nothing.
            #expect(try await client.send(.post, Self.path, json: file).json()["imported"]?.double == 0)

            let broken = file.replacingOccurrences(of: #""qty":80.4"#, with: #""qty":"heavy""#)
            let refused = try await client.send(
                .post, "/api/v1/imports", body: broken.replacingOccurrences(of: "07:00:00 -0700", with: "06:00:00 -0700"),
                contentType: "application/json")
            #expect(refused.status == .unprocessableContent)
            let report = try #require(try refused.json()["report"])
            #expect(report["rejected_count"]?.double == 1 && report["imported"]?.double == 0)
            #expect(report["rejected"]?.array?.first?["field"]?.string == "data.metrics[0].data[0].qty")
            #expect(try await journal.store.weighIns(user: journal.user).count == 1, "nothing of a file with an invalid point is written")
        }
    }

    /// Deliveries that arrive out of order (a retry of an older window after a newer one): each bucket keeps one record,
    /// the one sent last, and the day's samples count once each.
    @Test(arguments: Database.enabled)
    func anOlderDeliveryAfterANewerOneAddsOnlyWhatWasMissing(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let newer = Self.delivery(energy: 1400, carbs: 150, steps: 7000, heartRate: [(1, 72), (2, 90)])
            let older = Self.delivery(energy: 500, carbs: 60, steps: 3000, heartRate: [(0, 70), (1, 72)])
            #expect(try await client.send(.post, Self.path, json: newer).status == .created)
            let late = try await client.send(.post, Self.path, json: older)
            #expect(late.status == .created, "its minute of heart rate at 08:00 is new")
            let heart = try #require(try await heartRate(journal))
            #expect(heart.count == 3 && heart.sum == 232, "08:00, 08:01 and 08:02, each once")
            #expect(try await journal.store.weighIns(user: journal.user).count == 1)
            #expect(
                try await journal.store.foodEntries(user: journal.user, from: Self.june1, to: Self.june1).count == 1,
                "one entry for the day's food: the bucket sent last")
        }
    }

    @Test(arguments: Database.enabled)
    func badDeliveriesAreRefusedSayingWhere(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let malformed = try await client.send(.post, Self.path, json: #"{"data":{"metrics":[{"name":"step_count""#)
            #expect(malformed.status == .badRequest)
            let shape = try await client.send(.post, Self.path, json: #"{"data":{"metrics":{"name":"step_count"}}}"#)
            let shapeField = try shape.json()["error"]?["field"]?.string
            #expect(shape.status == .unprocessableContent && shapeField == "data.metrics")
            let unreadable = try await client.send(
                .post, Self.path,
                json: """
                    {"data":{"metrics":[{"name":"weight_body_mass","units":"kg","data":[{"date":"yesterday","qty":80}]}]}}
                    """)
            #expect(unreadable.status == .unprocessableContent)
            #expect(try unreadable.json()["error"]?["field"]?.string == "data.metrics[0].data[0].date")
            // One bad point among good ones is rejected alone.
            let mixed = try await client.send(
                .post, Self.path,
                json: """
                    {"data":{"metrics":[{"name":"weight_body_mass","units":"kg","data":[{"date":"2024-06-01 07:00:00 -0700","qty":80},
                      {"date":"2024-06-02 07:00:00 -0700","qty":8000}]}]}}
                    """)
            #expect(mixed.status == .created)
            #expect(try mixed.json()["rejected"]?.array?.first?["field"]?.string == "data.metrics[0].data[1].qty")
            #expect(try await journal.store.weighIns(user: journal.user).count == 1)
            let unknownOnly = try await client.send(
                .post, Self.path, json: #"{"data":{"metrics":[{"name":"made_up","units":"x","data":[{"qty":1}]}]}}"#)
            let madeUp = try unknownOnly.json()["unknown"]?["made_up"]?.double
            #expect(unknownOnly.status == .ok && madeUp == 1)
            let tooLarge = try await client.execute(
                uri: Self.path, method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(repeating: UInt8(ascii: " "), count: Journal.maximumHealthDeliveryBytes + 1))
            #expect(tooLarge.status == .contentTooLarge)
        }
    }

    /// A delivery larger than one write transaction takes (three years of five metrics by the day) is written a few
    /// days at a time, and is still one batch: listed once, sent again it adds nothing, undone it leaves nothing.
    @Test(arguments: Database.enabled)
    func aBigDeliveryIsWrittenInPartsAsOneBatch(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let start = LocalDate(year: 2021, month: 1, day: 1)!
            let metrics = ["step_count", "active_energy", "flights_climbed", "walking_running_distance", "resting_heart_rate"].map { name in
                let points = (0..<1100).map {
                    #"{"date":"\#(start.adding(days: $0).iso) 00:00:00 +0000","qty":\#(1000 + $0 % 97),"source":"iPhone"}"#
                }
                return #"{"name":"\#(name)","units":"count","data":[\#(points.joined(separator: ","))]}"#
            }
            let body = #"{"data":{"metrics":[\#(metrics.joined(separator: ","))],"workouts":[]}}"#
            let first = try await client.send(.post, Self.path, json: body)
            #expect(first.status == .created, "\(first.text.prefix(300))")
            let report = try first.json()
            #expect(report["imported"]?.double == 5500)
            #expect((report["health_days"]?.array ?? []).map { $0["written"]?.double } == [1100, 1100, 1100, 1100, 1100])
            let id = try #require(report["import_id"]?.double)
            let imports = try #require(try await client.send(.get, "/api/v1/imports").json()["imports"]?.array)
            #expect(imports.count == 1 && imports[0]["imported"]?.double == 5500)

            let again = try await client.send(.post, Self.path, json: body)
            #expect(try again.json()["duplicates"]?.double == 5500 && again.json()["import_id"]?.double == nil, "\(again.text.prefix(300))")
            #expect(try await client.send(.get, "/api/v1/imports").json()["imports"]?.array?.count == 1)

            #expect(try await client.send(.post, "/api/v1/imports/\(Int(id))/undo").status == .ok)
            #expect(try await journal.store.healthDayTypes(user: journal.user).isEmpty)
            let samples = try await journal.store.withConnection { db in
                try await db.raw("SELECT COUNT(*) AS n FROM health_samples").first()?.decode(column: "n", as: Int.self)
            }
            #expect(samples == 0)
        }
    }
}
