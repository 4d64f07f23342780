import CinnCore
import Foundation
import Testing

@testable import CinnImport

/// Health Auto Export's REST API JSON (docs/FORMATS.md §9), read into what the Apple Health import makes of the same types.
@Suite struct HealthAutoExportTests {
    static func delivery(_ json: String) throws -> HealthAutoExportDelivery {
        try HealthAutoExportParser.parse(try JSONParser.parse(Array(json.utf8)))
    }

    static func instant(_ iso: String) throws -> Date {
        try #require(LocalDateTime(iso: iso)).resolved(in: .gmt).instant
    }

    @Test func aDeliveryBecomesJournalRecordsAndDaySamples() throws {
        let bytes = Array(try Data(contentsOf: try fixture("health_auto_export/delivery.json")))
        let delivery = try HealthAutoExportParser.parse(try JSONParser.parse(bytes))
        #expect(delivery.rowsRead == 19)
        #expect(delivery.rejected.isEmpty, "\(delivery.rejected)")
        #expect(delivery.unknownMetrics == ["sexual_activity": 1], "an unknown metric is counted, not an error; an empty one is not")

        let records = delivery.records
        let weighIn = try #require(records.weighIns.first)
        #expect(abs(weighIn.weight.kilograms - 165.3 * 0.45359237) < 1e-9, "165.3 lb at 0.45359237 kg a pound")
        #expect(weighIn.measuredAt == (try Self.instant("2024-06-01T14:00:00Z")) && weighIn.utcOffsetSeconds == -7 * 3600)
        #expect(
            records.bodyFat.count == 1 && abs((records.bodyFat.first?.reading.fraction ?? 0) - 0.219) < 1e-12,
            "21.9 % is the fraction 0.219")
        #expect(records.glucose.map(\.glucose.milligramsPerDeciliter) == [94, 141])
        #expect(records.glucose.map(\.timing) == [.beforeMeal, .afterMeal])
        #expect(records.glucose[1].measuredAt == (try Self.instant("2024-06-01T16:05:00Z")), "9:05 am in the 12-hour form")
        #expect(records.insulin.map(\.units) == [4, 18] && records.insulin.map(\.kind) == [.bolus, .basal])
        let food = try #require(records.foodEntries.first)
        #expect(records.foodEntries.count == 1, "the nutrients of one time and source are one entry")
        #expect(food.name == "Food from MyFitnessPal" && food.meal == .lunch)
        #expect(food.nutrients[.energy] == 640.5 && food.nutrients[.carbohydrate] == 72 && food.nutrients[.protein] == 31.5)
        #expect(food.externalID?.hasPrefix("hae:") == true)

        let workouts = records.workouts
        #expect(workouts.map(\.name) == ["Outdoor Walk", "Walking"])
        #expect(
            workouts[0].durationSeconds == 1130.0801928043365
                && workouts[0].externalID == "hae-workout:1f088c46-09ad-4259-a78f-6cbe9f90bd94")
        #expect(
            abs((workouts[0].distanceMeters ?? 0) - 1.1341 * 1609.344) < 1e-9
                && abs((workouts[0].energyKcal ?? 0) - 77.31842723339633) < 1e-9)
        #expect(workouts[1].durationSeconds == 1150, "version 1: no duration, so end − start")
        #expect(abs((workouts[1].energyKcal ?? 0) - 226.21122641832523 / 4.184) < 1e-9, "kJ at 4.184 a kcal")

        let days = Dictionary(grouping: HealthSample.summaries(delivery.samples)) { $0.key.type + " " + $0.key.category }
        let june1 = LocalDate(year: 2024, month: 6, day: 1)!
        let heart = try #require(days["HKQuantityTypeIdentifierHeartRate "]?.first)
        #expect(heart.key.unit == "count/min" && heart.key.day == june1)
        #expect(heart.count == 2 && heart.minimum == 55 && heart.maximum == 138 && abs(heart.sum - 146.00876070790811) < 1e-9)
        #expect(days["HKQuantityTypeIdentifierStepCount "]?.first?.sum == 8990)
        let distance = try #require(days["HKQuantityTypeIdentifierDistanceWalkingRunning "]?.first)
        #expect(distance.key.unit == "m" && abs(distance.sum - 4.2 * 1609.344) < 1e-9)
        #expect(days["HKQuantityTypeIdentifierOxygenSaturation "]?.first?.sum == 0.97, "a percentage is kept as HealthKit's fraction")
        #expect(days["HKQuantityTypeIdentifierBloodPressureSystolic "]?.first?.sum == 121)
        #expect(days["HKQuantityTypeIdentifierBloodPressureDiastolic "]?.first?.sum == 79)
        let sleep = "HKCategoryTypeIdentifierSleepAnalysis HKCategoryValueSleepAnalysis"
        #expect(abs((days[sleep + "AsleepCore"]?.first?.sum ?? 0) - 4.6227 * 60) < 1e-9)
        #expect(days[sleep + "AsleepDeep"]?.first?.key.day == june1, "a night counts on the day it ends")
        #expect(days[sleep + "InBed"] == nil && days[sleep + "AsleepUnspecified"] == nil, "zero hours are no sample")
    }

    @Test func timesInTheFormsTheAppWrites() throws {
        let times: [(String, String, Int)] = [
            ("2024-02-06 14:30:00 -0800", "2024-02-06T22:30:00Z", -8 * 3600),
            ("2024-09-28 4:51:59 pm +1000", "2024-09-28T06:51:59Z", 10 * 3600),
            ("2024-09-21 7:57:00\u{202F}AM +1000", "2024-09-20T21:57:00Z", 10 * 3600),
            ("2024-09-21 12:05:00 am +0530", "2024-09-20T18:35:00Z", 19_800),
            ("2024-09-21 12:05:00 pm +0000", "2024-09-21T12:05:00Z", 0),
            ("2024-02-06", "2024-02-06T00:00:00Z", 0),
        ]
        for (text, instant, offset) in times {
            let date = try #require(HealthDate(healthAutoExport: text), "\(text)")
            #expect(date.date == (try Self.instant(instant)) && date.utcOffsetSeconds == offset, "\(text)")
        }
        for text in [
            "2024-02-06T14:30:00-08:00", "2024-02-06 25:00:00 -0800", "2024-02-06 13:00:00 pm -0800", "2024-02-06 14:30:00",
            "06/02/2024 14:30:00 -0800",
        ] {
            #expect(HealthDate(healthAutoExport: text) == nil, "\(text)")
        }
    }

    @Test func aPointThatCannotBeReadIsRejectedAloneNamingItsPath() throws {
        let delivery = try Self.delivery(
            """
            {"data":{"metrics":[{"name":"weight_body_mass","units":"kg","data":[
              {"date":"2024-06-01 07:00:00 -0700","qty":80.1},
              {"qty":80.2},
              {"date":"2024-06-03 07:00:00 -0700","qty":"eighty"},
              {"date":"2024-06-04 07:00:00 -0700","qty":800}]},
             {"name":"insulin_delivery","units":"IU","data":[{"date":"2024-06-01 07:00:00 -0700","qty":3}]},
             {"name":"weight_body_mass","units":"furlongs","data":[{"date":"2024-06-01 07:00:00 -0700","qty":80}]}]}}
            """)
        #expect(delivery.records.weighIns.map(\.weight.kilograms) == [80.1])
        #expect(delivery.rejectedCount == 5)
        #expect(
            delivery.rejected.map(\.field) == [
                "data.metrics[0].data[1].date", "data.metrics[0].data[2].qty", "data.metrics[0].data[3].qty",
                "data.metrics[1].data[0].reason", "data.metrics[2].data[0].units",
            ])
        #expect(delivery.rejected[1].reason.contains("\"eighty\" is not a number"))
    }

    @Test func aBodyOfTheWrongShapeIsRefusedNamingTheJSONPath() throws {
        let cases: [(String, String)] = [
            (#"[1,2]"#, "$"),
            (#"{"metrics":[]}"#, "data"),
            (#"{"data":{"metrics":{"name":"step_count"}}}"#, "data.metrics"),
            (#"{"data":{"metrics":[{"units":"count","data":[]}]}}"#, "data.metrics[0].name"),
            (#"{"data":{"metrics":[{"name":"step_count","data":{"qty":1}}]}}"#, "data.metrics[0].data"),
            (#"{"data":{"workouts":7}}"#, "data.workouts"),
        ]
        for (json, path) in cases {
            let error = #expect(throws: CinnError.self, "\(json)") { _ = try Self.delivery(json) }
            #expect(error?.field == path, "\(json)")
        }
        let empty = try Self.delivery(#"{"data":{}}"#)
        #expect(empty.rowsRead == 0 && empty.records.count == 0 && empty.samples.isEmpty)
    }
}
