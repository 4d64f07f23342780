// `GlucoseBench --phase nom`: the meal expectation ("Can I nom nom this?", `Journal.nom`, `POST /api/v1/nom`) over a
// journal of `--days` (default 730: two years) of CGM, meals and insulin, with the 30-day report beside it at the same
// size, timed in process, interleaved, on SQLite or PostgreSQL:
//
//     GlucoseBench --phase nom --database /tmp/nom.sqlite [--days 730] [--iterations 200] [--warmup 5] [--json]
//
// The journal: the demo's food log repeated back over the days (DemoFoodLog makes 28 days; each block of 27 is a
// DemoFoodLog of its own seed, its entries pointing at the first block's 16 foods), DemoGlucose's readings every five
// minutes and insulin answering each block's meals, and the demo person's weigh-ins, goal, profile and complete days
// (so the meal's energy part has a calorie target). The data end at 12:25 UTC of the latest day that allows it (today's
// food log holds only breakfast); the meal asked about is lunch at 12:30, one of the demo's usual lunches.
import BenchmarkData
import CinnCore
import CinnJournal
import CinnStore
import Foundation

func runNomPhase(_ options: Options) async throws {
    let days = options.int("days", 730)
    let iterations = options.int("iterations", 200)
    let warmup = options.int("warmup", 5)
    let isPostgres = options.database.hasPrefix("postgres")
    let utc = TimeZone(identifier: "UTC")!
    guard days >= 28 else { fail("--phase nom needs --days 28 or more") }

    if !isPostgres { try? FileManager.default.removeItem(atPath: options.database) }
    let store = try Store(DatabaseLocation(options.database), schema: options["schema"])
    try await store.migrate()
    let user = try await store.user(named: "bench")

    // The meal is asked about at 12:30 UTC of `last`, a minute or more in the past; the data end just before.
    let clock = Date()
    var last = LocalDate(instant: clock, utcOffsetSeconds: 0)
    func instant(_ day: LocalDate, _ minutes: Double) -> Date {
        LocalDateTime(date: day, secondsOfDay: minutes * 60).resolved(in: utc).instant
    }
    if instant(last, 12 * 60 + 31) > clock { last = last.adding(days: -1) }
    let cutoff = instant(last, 12 * 60 + 26)  // DemoGlucose stops before this: the last reading is 12:25
    let mealTime = instant(last, 12 * 60 + 30)
    let mealText = "\(last.iso)T12:30:00+00:00"
    let first = last.adding(days: -(days - 1))

    let fillStart = ContinuousClock.now
    try await store.saveSettings(
        UserSettings(timeZoneIdentifier: "UTC", profile: DemoJournal.profile, onboarded: true), user: user)
    let person = DemoJournal(endingOn: last, timeZone: utc)
    for weighIn in person.weighIns { _ = try await store.addWeighIn(weighIn, user: user) }
    try await store.setGoal(person.goal, user: user)

    let newest = DemoFoodLog(endingOn: last, timeZone: utc)
    for food in newest.foods { _ = try await store.addFood(food, user: user) }
    for preset in newest.presets { _ = try await store.addPreset(preset, user: user) }
    let foodIDs = Dictionary(newest.foods.map { ($0.name, $0.id) }) { first, _ in first }
    var entries: [FoodLogEntry] = [], readings: [GlucoseReading] = [], doses: [InsulinDose] = []
    // Block 0 is the newest DemoFoodLog's 28 days (its last day breakfast only); block k the 27 days before
    // block k − 1, from a DemoFoodLog ending on the day after them (its breakfast-only last day left out).
    var block = 0, blockLast = last
    while blockLast >= first {
        let log = block == 0 ? newest : DemoFoodLog(endingOn: blockLast.adding(days: 1), timeZone: utc, seed: 2024 + UInt64(block))
        let blockFirst = max(first, blockLast.adding(days: -(block == 0 ? 27 : 26)))
        var blockEntries = log.entries.filter { $0.localDate >= blockFirst && $0.localDate <= blockLast }
        for index in blockEntries.indices { blockEntries[index].foodID = foodIDs[blockEntries[index].name] }
        let glucose = DemoGlucose.make(
            days: blockFirst.distance(to: blockLast) + 1, last: blockLast, utcOffsetSeconds: 0, now: cutoff, entries: blockEntries,
            seed: 42 + UInt64(block))
        entries += blockEntries
        readings += glucose.readings
        doses += glucose.doses
        blockLast = blockFirst.adding(days: -1)
        block += 1
    }
    entries.sort { $0.eatenAt < $1.eatenAt }
    readings.sort { $0.measuredAt < $1.measuredAt }
    doses.sort { $0.takenAt < $1.takenAt }
    let generateMs = milliseconds(since: fillStart)
    for start in stride(from: 0, to: entries.count, by: 5_000) {
        _ = try await store.addFoodEntries(Array(entries[start..<min(entries.count, start + 5_000)]), user: user)
    }
    for day in Set(entries.map(\.localDate)).sorted() where day < last {
        try await store.setDayStatus(.complete, on: day, user: user)
    }
    try await store.addGlucoseReadings(readings, user: user)
    try await store.addInsulinDoses(doses, user: user)
    let fillMs = milliseconds(since: fillStart)
    let mealCount = DiaryMeals.events(entries).count

    let journal = Journal(store: store, user: user)
    // One of the demo's usual lunches, as foods of the journal; and the same carbohydrate as amounts, with a bolus.
    let lunch = ["Chicken breast, roasted", "Rice, brown, cooked", "Broccoli, cooked"].map { name -> NomItem in
        guard let id = foodIDs[name] else { fail("no demo food named \(name)") }
        return .food(id: id, servings: 1, serving: nil)
    }
    let amounts: [NomItem] = [
        .amounts(
            try QuickAdd.validated(name: "Lunch out", energyKcal: 650, proteinGrams: 30, carbohydrateGrams: 60, fatGrams: 20),
            fiberGrams: 6)
    ]
    let answer = try await journal.nom(lunch, time: mealText, bolusUnits: nil)
    let lookbackStart = mealTime.addingTimeInterval(-Double(Journal.nomLookbackDays) * 86400)
    let reportLast = last.adding(days: -1)

    let cases: [Case] = [
        Case("nom", "Journal.nom, a lunch of 3 foods of the journal at 12:30 — POST /api/v1/nom") {
            let answer = try await journal.nom(lunch, time: mealText, bolusUnits: nil)
            if case .expected(let expectation) = answer.forecast { return expectation.similarMeals }
            return -1
        },
        Case("nomAmounts", "Journal.nom, amounts (60 g carbohydrate) with a bolus of 6 U at 12:30") {
            let answer = try await journal.nom(amounts, time: mealText, bolusUnits: 6)
            if case .expected(let expectation) = answer.forecast { return expectation.similarMeals }
            return -1
        },
        Case("report", "Journal.glucoseReport(days: 30) on the same journal — GET /api/v1/glucose/report") {
            try await journal.glucoseReport(days: 30, to: reportLast).events.count
        },
        Case("points", "Store.glucosePoints over nom's \(Journal.nomLookbackDays) days (its main read)") {
            try await store.glucosePoints(user: user, from: lookbackStart.addingTimeInterval(-MealResponse.baselineBefore), to: mealTime)
                .count
        },
        Case("doses", "Store.insulinDoses over nom's \(Journal.nomLookbackDays) days") {
            try await store.insulinDoses(user: user, from: lookbackStart.addingTimeInterval(-6 * 3600), to: mealTime).count
        },
        Case("entries", "Store.loggedFoodEntries over nom's \(Journal.nomLookbackDays) days (its diary meals)") {
            try await store.loggedFoodEntries(user: user, from: lookbackStart.addingTimeInterval(-4 * 3600), to: mealTime).count
        },
    ]
    let seconds = try await runInterleaved(cases, warmup: warmup, iterations: iterations)
    try await store.close()

    let forecast: String
    switch answer.forecast {
    case .expected(let expectation)?:
        forecast =
            "rise \(expectation.riseMgPerDl.wholeText) mg/dL (\(expectation.lowMgPerDl.wholeText)–\(expectation.highMgPerDl.wholeText)), "
            + "peak at \(expectation.minutesToPeak.wholeText) min, from \(expectation.similarMeals) similar meals"
    case .tooFewSimilarMeals(let found, let needed)?: forecast = "too few similar meals: \(found) of \(needed)"
    case nil: forecast = "none: \(answer.glucoseReason ?? "?")"
    }
    let result: [String: Any] = [
        "database": isPostgres ? "postgresql" : "sqlite", "phase": "nom", "days": days, "readings": readings.count,
        "meal_events": mealCount, "food_entries": entries.count, "doses": doses.count, "meal_at": mealText,
        "forecast": forecast, "energy": answer.energy != nil, "generate_ms": rounded(generateMs, 0), "fill_ms": rounded(fillMs, 0),
        "iterations": iterations, "seconds": rounded(seconds, 1), "cases": cases.map(\.summary),
        "peak_rss_mb": rounded(peakResidentMB(), 1), "checksum": cases.reduce(0) { $0 &+ $1.check },
    ]
    if options.json {
        printJSON(result)
    } else {
        print(
            "\(isPostgres ? "PostgreSQL" : "SQLite"), nom over \(days) days: \(readings.count) readings, \(mealCount) meals "
                + "(\(entries.count) food entries), \(doses.count) doses; filled in \(rounded(fillMs / 1000, 1)) s")
        print("  the lunch at \(mealText): \(forecast); energy \(answer.energy == nil ? "none" : "with a target")")
        print("  \(iterations) rounds after \(warmup) warm-up in \(rounded(seconds, 1)) s")
        for entry in cases.map(\.summary) {
            print("  \(entry["p50_ms"]!) / \(entry["p99_ms"]!) / \(entry["max_ms"]!) ms (p50 / p99 / max): \(entry["label"]!)")
        }
    }
}
