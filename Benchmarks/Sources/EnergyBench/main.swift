// The energy and goals benchmarks, one step per command, run by energy/run.sh:
//
//     EnergyBench prepare --database journal.sqlite [--seed 7]
//         adds to a journal that `FoodBench log` filled: a weigh-in on every day of the food log
//         (a slow trend with ±1 kg of noise), a profile, a goal, and every logged day marked complete
//     EnergyBench report --database journal.sqlite [--iterations 300] [--json]
//         times Journal.energyReport (history 0 and 90 days), its parts (Store.energyInputs, the
//         trend, the pure EnergyReport init), Journal.trend(range: .quarter) and the day view, all
//         interleaved in one loop so that every case sees the same load
//
// `prepare` prints one JSON object, `report` too with --json.
import BenchmarkData
import CinnCore
import CinnJournal
import CinnStore
import Foundation
import SQLiteNIO
import Synchronization

let options = Options(CommandLine.arguments.dropFirst(2))
switch CommandLine.arguments.dropFirst().first ?? "" {
case "prepare": try await prepare(options)
case "report": try await report(options)
default: fail("unknown command; use prepare or report")
}

/// The body's weight on each of `days` days: phases of 1–6 months losing or gaining slowly
/// (−0.5…+0.25 kg a week, kept within 70–100 kg), the last 120 days losing 0.35 kg a week.
func bodyWeights(days: Int, random: inout SeriesRandom) -> [Double] {
    var kilograms = 90 + random.unit() * 6
    var perDay = 0.0
    var phaseLeft = 0
    var result: [Double] = []
    result.reserveCapacity(days)
    for day in 0..<days {
        if days - day <= 120 {
            perDay = -0.35 / 7
        } else if phaseLeft == 0 {
            perDay = [-0.5, -0.35, -0.25, 0, 0, 0.15, 0.25][Int(random.next() % 7)] / 7
            phaseLeft = 30 + Int(random.next() % 150)
        }
        phaseLeft = max(0, phaseLeft - 1)
        if kilograms > 100 { perDay = -abs(perDay) - 0.01 }
        if kilograms < 70 { perDay = abs(perDay) + 0.01 }
        kilograms += perDay
        result.append(kilograms)
    }
    return result
}

/// Adds what the energy report reads to a journal holding `FoodBench log`'s food log.
func prepare(_ options: Options) async throws {
    let seed = UInt64(options.int("seed", 7))
    let store = try Store(.sqlite(path: options.database))
    let user = try await store.localUser()
    guard let span = try await store.foodLogSpan(user: user) else { fail("no food log; run FoodBench log first") }
    let zone = TimeZone(identifier: "Europe/Berlin")!
    let start = ContinuousClock.now

    // One weigh-in every morning of the log's span, 06:30–08:00, body weight ± up to 1 kg, to 0.1 kg.
    var random = SeriesRandom(seed: seed)
    let dayCount = span.lowerBound.distance(to: span.upperBound) + 1
    let body = bodyWeights(days: dayCount, random: &random)
    var readings: [ImportedWeighIn] = []
    readings.reserveCapacity(dayCount)
    for index in 0..<dayCount {
        let day = span.lowerBound.adding(days: index)
        let time = LocalDateTime(date: day, secondsOfDay: 6.5 * 3600 + random.unit() * 5400).resolved(in: zone)
        let shown = ((body[index] + (random.unit() * 2 - 1)) * 10).rounded() / 10
        readings.append(ImportedWeighIn(measuredAt: time.instant, utcOffsetSeconds: time.utcOffsetSeconds,
                                        weight: Mass(kilograms: shown), externalID: "bench:\(day.iso)", line: index + 2))
    }
    let imported = try await store.importWeighIns(user: user, format: "csv", fileName: "energy-bench", mode: ImportMode()) { insert in
        try await insert(readings)
        return ImportReport(format: "csv", rowsRead: readings.count)
    }
    let weighInSeconds = milliseconds(since: start) / 1000

    // A profile and a goal 6 kg under the final body weight at 0.4 kg a week; targets follow the
    // adaptive estimate (blended with the formula), so the whole estimate path runs.
    let profile = Profile(sex: .male, birthDate: LocalDate(iso: "1986-05-14")!, height: Height(centimetres: 181), activity: .moderate)
    var settings = try await store.settings(user: user)
    settings.timeZoneIdentifier = zone.identifier
    settings.profile = profile
    settings.targetBasis = .adaptive
    settings.onboarded = true
    let goalKilograms = ((body.last! - 6) * 10).rounded() / 10
    let goal = Goal(weight: Mass(kilograms: goalKilograms), plannedRate: Mass(kilograms: 0.4), setOn: span.upperBound.adding(days: -120))
    try await store.saveSettings(settings, goal: goal, user: user)

    // Every day with food logged is complete (as a person who logs carefully marks them).
    let markStart = ContinuousClock.now
    let logged = try await store.energyInputs(user: user).intakeKcal.keys.sorted()
    for day in logged { try await store.setDayStatus(.complete, on: day, user: user) }
    let markSeconds = milliseconds(since: markStart) / 1000

    let inputs = try await store.energyInputs(user: user)
    try await store.close()
    let intakes = inputs.intakeKcal.values.sorted()
    printJSON([
        "from": span.lowerBound.iso, "to": span.upperBound.iso, "days": dayCount,
        "weigh_ins": imported.imported, "weigh_in_seconds": rounded(weighInSeconds),
        "first_kg": readings.first!.weight.kilograms, "last_kg": readings.last!.weight.kilograms,
        "goal_kg": goalKilograms, "complete_days": inputs.completeDayIntakeKcal.count, "mark_seconds": rounded(markSeconds),
        "intake_kcal_p50": rounded(percentile(intakes, 50), 0), "intake_kcal_p10": rounded(percentile(intakes, 10), 0),
        "intake_kcal_p90": rounded(percentile(intakes, 90), 0),
    ])
}

/// Runs every case once per round, in a rotating order, after `warmup` unrecorded rounds.
func report(_ options: Options) async throws {
    let iterations = options.int("iterations", 300)
    let warmup = options.int("warmup", 10)
    let store = try Store(.sqlite(path: options.database))
    let journal = try await Journal.local(store: store)
    let user = journal.user
    let inputs = try await store.energyInputs(user: user)
    let settings = inputs.settings
    let today = journal.today(settings)
    guard let span = try await store.foodLogSpan(user: user) else { fail("no food log; run FoodBench log first") }
    let trend = WeightTrend(days: inputs.days, method: settings.trendMethod, displayUnit: settings.displayUnit)
    let window = AdaptiveExpenditure.defaultWindowDays

    // A raw SQLite connection for the intake query alone (rows collected on the database thread,
    // values read as SQLiteData): what SQLite itself costs for the biggest of energyInputs' reads.
    let raw = try await SQLiteConnection.open(storage: .file(path: options.database))
    let intakeSQL = """
        SELECT local_day, SUM(energy_kcal) AS kcal FROM food_entries
        WHERE user_id = ? AND deleted = 0 GROUP BY local_day
        """

    func pure(historyDays: Int, statuses: [LocalDate: DayStatus], basis: TargetBasis? = nil) -> EnergyReport {
        var settings = settings
        if let basis { settings.targetBasis = basis }
        return EnergyReport(settings: settings, goal: inputs.goal, trend: trend, intakeKcal: inputs.intakeKcal, dayStatuses: statuses,
                     bodyFat: inputs.latestBodyFat, exerciseKcal: inputs.exerciseKcal, asOf: today, windowDays: window,
                     historyDays: historyDays)
    }
    var dayIndex = 0
    let spanDays = span.lowerBound.distance(to: span.upperBound) + 1
    func nextDay() -> LocalDate {
        dayIndex += 1
        return span.lowerBound.adding(days: (dayIndex * 7919) % spanDays)
    }

    // Statistics' days met, judged by each day's goals: a target per kg of the trend is worked out day by day.
    try await journal.setNutrientTargets(NutrientTargets(protein: .gramsPerKilogram(1.6)))
    let cases: [Case] = [
        Case("energy0", "Journal.energyReport(historyDays: 0) — GET /api/v1/today, GET / and the day view's call") {
            try await journal.energyReport(historyDays: 0).history.count + 1
        },
        Case("energy90", "Journal.energyReport(historyDays: 90) — GET /api/v1/energy's default") {
            try await journal.energyReport(historyDays: 90).history.count
        },
        Case("inputs", "Store.energyInputs(user:) — six queries on one connection") {
            try await store.energyInputs(user: user).intakeKcal.count
        },
        Case("weights", "Store.dailyWeights(user:) — one of them") { try await store.dailyWeights(user: user).count },
        Case("statuses", "Store.dayStatuses(user:) — one of them") { try await store.dayStatuses(user: user).count },
        Case("intakeRaw", "the intake query alone, raw SQLiteNIO, rows kept on SQLite's thread") {
            let count = Mutex(0)
            try await raw.query(intakeSQL, [.integer(Int(user.rawValue))]) { row in
                if row.column("kcal")?.double != nil { count.withLock { $0 += 1 } }
            }
            return count.withLock { $0 }
        },
        Case("trendBuild", "WeightTrend(days:) from the inputs (pure)") {
            WeightTrend(days: inputs.days, method: settings.trendMethod, displayUnit: settings.displayUnit).points.count
        },
        Case("pure0", "EnergyReport.init, historyDays 0 (pure, trend built; the target following the data, as prepared)") { pure(historyDays: 0, statuses: inputs.dayStatuses).history.count + 1 },
        Case("pure90", "EnergyReport.init, historyDays 90 (pure, trend built)") { pure(historyDays: 90, statuses: inputs.dayStatuses).history.count },
        Case("pure0Formula", "EnergyReport.init, historyDays 0, the target following the formula (no week's move to find)") {
            pure(historyDays: 0, statuses: inputs.dayStatuses, basis: .formula).history.count + 1
        },
        Case("pureHold", "EnergyReport.init, historyDays 0, no day marked complete (hold search: 2 × 365 windows)") {
            pure(historyDays: 0, statuses: [:]).history.count + 1
        },
        Case("trendQuarter", "Journal.trend(range: .quarter) — GET /api/v1/trend?range=quarter's work") {
            try await journal.trend(range: .quarter).report.days.count
        },
        Case("trendInputs", "Store.trendInputs(user:) — the trend's three queries") { try await store.trendInputs(user: user).days.count },
        Case("day", "Journal.day(date) — the day view now (energy report as of that day + entries)") {
            try await journal.day(nextDay()).day.entries.count
        },
        Case("goals365", "Journal.goalRecords over 365 days, protein 1.6 g/kg: each day's own goals (a report per day)") {
            try await journal.goalRecords(from: today.adding(days: -364), to: today).records.count
        },
        Case("dayNoEnergy", "settings + entries + DayNutrition — the day view's work before energy and goals") {
            let date = nextDay()
            let settings = try await store.settings(user: user)
            return DayNutrition(date: date, entries: try await store.foodEntries(user: user, from: date, to: date),
                                energyTargetKcal: settings.energyTargetKcal).entries.count
        },
    ]

    let seconds = try await runInterleaved(cases, warmup: warmup, iterations: iterations)
    try await raw.close()
    try await store.close()

    let sample = pure(historyDays: 90, statuses: inputs.dayStatuses)
    let hold = pure(historyDays: 0, statuses: [:])
    let result: [String: Any] = [
        "iterations": iterations, "warmup": warmup, "seconds": rounded(seconds, 1), "as_of": today.iso,
        "inputs": ["daily_weights": inputs.days.count, "logged_days": inputs.intakeKcal.count,
                   "marked_days": inputs.dayStatuses.count, "exercise_days": inputs.exerciseKcal.count],
        "report": [
            "formula_kcal": rounded(sample.expenditure.formula?.expenditureKcal ?? -1, 0),
            "adaptive_kcal": rounded(sample.expenditure.adaptive?.estimateKcal ?? -1, 0),
            "adaptive_held": sample.expenditure.isHeld,
            "blended_kcal": rounded(sample.expenditure.blendedKcal ?? -1, 0),
            "target_kcal": rounded(sample.targetKcal ?? -1, 0),
            "trend_kg": rounded(sample.trend?.kilograms ?? -1, 2),
            "history_days": sample.history.count,
            "history_days_with_adaptive": sample.history.filter { $0.adaptiveKcal != nil }.count,
            "goal_date": sample.timeline?.atTrendRate?.date?.iso ?? "none",
            "hold_case_adaptive": hold.expenditure.adaptive == nil ? "none found" : "found",
        ] as [String: Any],
        "cases": cases.map(\.summary),
        "checksum": cases.reduce(0) { $0 &+ $1.check },
    ]
    if options.json { return printJSON(result) }
    print("\(iterations) rounds of \(cases.count) cases in \(rounded(seconds, 1)) s, as of \(today.iso)")
    for entry in cases.map(\.summary) {
        print("  \(entry["p50_ms"]!) / \(entry["p99_ms"]!) ms (p50 / p99), CPU p50 \(entry["cpu_p50_ms"]!) ms: \(entry["label"]!)")
    }
}
