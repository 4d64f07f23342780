// The glucose benchmarks (the glucose work's speed targets): the 30-day report and the day chart over
// a CGM's month (8,640 readings every five minutes, with meals and insulin), timed in process,
// interleaved, on SQLite or PostgreSQL:
//
//     GlucoseBench --database /tmp/glucose.sqlite [--days 30] [--iterations 300] [--warmup 10] [--json]
//     GlucoseBench --database postgres://postgres@127.0.0.1:5433/postgres --schema NAME ...   (an empty schema; glucose/run.sh makes and drops it)
//     GlucoseBench --phase nom --database /tmp/nom.sqlite [--days 730] [--iterations 200] ...  (the meal expectation: NomPhase.swift)
//
// The journal is made fresh each run with the demo's generators, ending yesterday: DemoFoodLog's four weeks of meals in
// the food log (the report's meal events) and DemoGlucose's readings and insulin answering them.
import BenchmarkData
import CinnCharts
import CinnCore
import CinnJournal
import CinnStore
import Foundation

let options = Options(CommandLine.arguments.dropFirst())
if options["phase"] == "nom" {
    try await runNomPhase(options)
    exit(0)
}
guard options["phase"] ?? "report" == "report" else { fail("--phase is report (the default) or nom") }
let days = options.int("days", 30)
let iterations = options.int("iterations", 300)
let warmup = options.int("warmup", 10)
let location = DatabaseLocation(options.database)
let isPostgres = options.database.hasPrefix("postgres")

if !isPostgres { try? FileManager.default.removeItem(atPath: options.database) }
let store = try Store(location, schema: options["schema"])
try await store.migrate()
let user = try await store.user(named: "bench")
try await store.saveSettings(UserSettings(timeZoneIdentifier: "UTC", onboarded: true), user: user)
let journal = Journal(store: store, user: user)
let today = journal.today(try await journal.settings())
let last = today.adding(days: -1)

let fillStart = ContinuousClock.now
let food = DemoFoodLog(endingOn: last, timeZone: TimeZone(identifier: "UTC")!)
for item in food.foods { try await store.addFood(item, user: user) }
try await store.addFoodEntries(food.entries, user: user)
let demo = DemoGlucose.make(days: days, last: last, utcOffsetSeconds: 0, now: Date(), entries: food.entries)
let mealCount = DiaryMeals.events(food.entries).count
try await store.addGlucoseReadings(demo.readings, user: user)
try await store.addInsulinDoses(demo.doses, user: user)
let fillMs = milliseconds(since: fillStart)

let sampleDay = try await journal.glucoseDay(last)
let cases: [Case] = [
    Case("report", "Journal.glucoseReport(days: \(days)) — GET /api/v1/glucose/report: statistics, each day, every meal's response, rankings") {
        try await journal.glucoseReport(days: days, to: last).events.count
    },
    Case("dayChart", "Journal.glucoseDay + GlucoseDayChart.svg — GET /glucose/days/{date}/chart.svg") {
        let day = try await journal.glucoseDay(last)
        let chart = GlucoseDayChart(start: day.start, end: day.end, utcOffsetSeconds: day.utcOffsetSeconds,
                                    points: day.readings.map { GlucosePoint(at: $0.measuredAt, glucose: $0.glucose) },
                                    meals: day.events.map { .init(at: $0.event.eatenAt, label: $0.meal?.name ?? "Meal") }, doses: day.doses, unit: .milligramsPerDeciliter)
        return chart.svg().utf8.count
    },
    Case("day", "Journal.glucoseDay — GET /api/v1/glucose/days/{date}: readings, doses, meals with responses") {
        try await journal.glucoseDay(last).readings.count
    },
    Case("points", "Store.glucosePoints over the \(days) days — the report's main read") {
        try await store.glucosePoints(user: user, from: Date.distantPast, to: Date.distantFuture).count
    },
    Case("statistics", "GlucoseStatistics.compute over the \(days) days' readings (pure)") {
        GlucoseStatistics.compute(demo.readings.map(\.glucose)).count
    },
]
let seconds = try await runInterleaved(cases, warmup: warmup, iterations: iterations)
try await store.close()

let result: [String: Any] = [
    "database": isPostgres ? "postgresql" : "sqlite", "days": days, "readings": demo.readings.count, "meal_events": mealCount,
    "doses": demo.doses.count, "day_readings": sampleDay.readings.count, "fill_ms": rounded(fillMs, 0), "iterations": iterations,
    "seconds": rounded(seconds, 1), "cases": cases.map(\.summary), "peak_rss_mb": rounded(peakResidentMB(), 1),
    "checksum": cases.reduce(0) { $0 &+ $1.check },
]
if options.json {
    printJSON(result)
} else {
    print("\(isPostgres ? "PostgreSQL" : "SQLite"): \(demo.readings.count) readings, \(mealCount) meals, \(demo.doses.count) doses; \(iterations) rounds in \(rounded(seconds, 1)) s")
    for entry in cases.map(\.summary) {
        print("  \(entry["p50_ms"]!) / \(entry["p99_ms"]!) / \(entry["max_ms"]!) ms (p50 / p99 / max): \(entry["label"]!)")
    }
}
