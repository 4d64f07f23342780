// The sync benchmarks (the sync work's speed targets), over HTTP on loopback to a real hosted-mode
// server in this process (SQLite or PostgreSQL), with CinnSync's HTTP transport:
//
//     SyncBench --database /tmp/sync.sqlite [--changes 10000] [--records 100000] [--iterations 5] [--json]
//     SyncBench --database postgres://postgres@127.0.0.1:5433/postgres --schema NAME ...   (an empty schema; sync/run.sh makes and drops it)
//
// - push: one request of `changes` new records (weigh-ins, glucose readings, food entries, insulin doses),
//   each iteration new ids; then the same request again (every change already applied: nothing written);
// - pull: every change of a journal of `records` records, from the start, in pages of 10,000;
// - meal events as clients of the older meal model push them, in process: `meal-events` events of an everyday meal
//   (a preset: each event logged into the food log as its three foods) beside as many of a test meal (stored as
//   they are).
import BenchmarkData
import CinnCore
import CinnJournal
import CinnServer
import CinnStore
import CinnSync
import Foundation
import Hummingbird
import Logging

let options = Options(CommandLine.arguments.dropFirst())
let changeCount = options.int("changes", 10_000)
let recordCount = options.int("records", 100_000)
let iterations = options.int("iterations", 5)
let mealEventCount = options.int("meal-events", 1000)
let isPostgres = options.database.hasPrefix("postgres")
if !isPostgres { try? FileManager.default.removeItem(atPath: options.database) }

var quiet = Logger(label: "cinn.bench")
quiet.logLevel = .critical
let store = try Store(DatabaseLocation(options.database), schema: options["schema"], logger: quiet)
try await store.migrate()
let accounts = Accounts(store: store, configuration: AccountsConfiguration(signUp: .closed, bcryptCost: 4))
let account = try await accounts.addUser(name: "bench", password: "benchmark password", role: .member)
let token = try await accounts.createToken(name: "bench", user: account.user).secret
let journal = Journal(store: store, user: try await store.localUser())

let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
let app = buildApplication(journal: journal, accounts: accounts,
                           configuration: ServerConfiguration(host: "127.0.0.1", port: 0) { _, port in portContinuation.yield(port) },
                           logger: quiet)
let server = Task { try await app.runService() }
guard let port = await ports.first(where: { _ in true }) else { fail("the server did not start") }
let transport = HTTPSyncTransport(server: URL(string: "http://127.0.0.1:\(port)")!, token: token, timeout: 600)

/// `count` new records' changes, made at `base`.
func changes(_ count: Int, seed: Int) -> [SyncChange] {
    let base = 1_763_712_000.0 + Double(seed) * 86_400 * 30
    return (0..<count).map { index in
        let at = Date(timeIntervalSince1970: base + Double(index) * 300)
        let time = JSONValue.string(SyncInstant(date: at, utcOffsetSeconds: 3600).text)
        let fields: (String, SyncFields)
        switch index % 10 {
        case 0, 1, 2:
            fields = ("weigh_in", ["measured_at": time, "weight_kg": .number(70 + Double(index % 100) / 10), "note": index % 7 == 0 ? .string("after run") : .null])
        case 3, 4, 5, 6:
            fields = ("glucose_reading", ["measured_at": time, "mg_dl": .number(80 + Double(index % 120)), "timing": .string("after_meal")])
        case 7, 8:
            fields = ("food_entry", ["eaten_at": time, "name": .string("Porridge \(index % 50)"), "meal": .string("breakfast"), "servings": .number(1.5),
                                     "serving_label": .string("bowl"), "nutrients": .object(["energy": .number(320), "protein": .number(11), "carbohydrate": .number(54)])])
        default:
            fields = ("insulin_dose", ["taken_at": time, "units": .number(4.5), "kind": .string("bolus"), "insulin": .string("Humalog")])
        }
        return SyncChange(type: fields.0, id: UUID.v7(at: at), changedAt: at, fields: fields.1)
    }
}

func timed<T>(_ body: () async throws -> T) async throws -> (Double, T) {
    let start = ContinuousClock.now
    let value = try await body()
    return (milliseconds(since: start), value)
}

func median(_ values: [Double]) -> Double { percentile(values.sorted(), 50) }

var pushMs: [Double] = [], repushMs: [Double] = [], storePushMs: [Double] = []
var stored = 0
for iteration in 0..<iterations {
    let batch = changes(changeCount, seed: iteration)
    let (ms, results) = try await timed { try await transport.push(batch) }
    guard results.allSatisfy({ $0.status == .applied }) else { fail("a benchmark change was not applied") }
    pushMs.append(ms)
    repushMs.append(try await timed { try await transport.push(batch) }.0)
    let inProcess = changes(changeCount, seed: 1000 + iteration)
    storePushMs.append(try await timed { try await store.push(inProcess, user: account.user) }.0)
    stored += 2 * changeCount
}
// Fill the journal to `records` records for the pull.
var seed = 2000
while stored < recordCount {
    _ = try await transport.push(changes(min(changeCount, recordCount - stored), seed: seed))
    stored += min(changeCount, recordCount - stored)
    seed += 1
}
var pullMs: [Double] = [], storePullMs: [Double] = []
var pulled = 0
for _ in 0..<iterations {
    let (ms, count) = try await timed { () async throws -> Int in
        var cursor = SyncCursor.start.description, count = 0
        while true {
            let page = try await transport.changes(after: cursor, limit: 10_000)
            count += page.changes.count
            cursor = page.next
            if !page.more { return count }
        }
    }
    pullMs.append(ms)
    pulled = count
    storePullMs.append(try await timed { () async throws -> Int in
        var cursor = SyncCursor.start, count = 0
        while true {
            let page = try await store.pull(user: account.user, after: cursor, limit: 10_000)
            count += page.changes.count
            cursor = SyncCursor(page.next)!
            if !page.more { return count }
        }
    }.0)
}
// Meal events of an everyday meal and of a test meal, side by side, each round with new ids and other days (after
// the pull, which reads the journal of `records` records).
var foodIDs: [UUID] = []
for (name, carbohydrate) in [("Rolled oats", 60.0), ("Milk", 4.8), ("Blueberries", 14.5)] {
    let food = Food(id: .v7(), name: name, nutrients: try Nutrients(keyed: ["energy": 100, "carbohydrate": carbohydrate]))
    foodIDs.append(try await store.addFood(food, user: account.user).id)
}
let everyday = UUID.v7(), test = UUID.v7()
let definitions = [
    SyncChange(type: "meal", id: everyday, changedAt: Date(), fields: [
        "name": .string("Porridge"), "kind": .string("common"),
        "foods": .array(zip(foodIDs, [("Rolled oats", 80.0), ("Milk", 200.0), ("Blueberries", 50.0)]).map { id, food in
            .object(["food_id": .string(id.lowercasedString), "name": .string(food.0), "grams": .number(food.1)])
        })]),
    SyncChange(type: "meal", id: test, changedAt: Date(), fields: ["name": .string("Glucose drink"), "kind": .string("test"), "carbohydrate_g": .number(75)]),
]
guard try await store.push(definitions, user: account.user).allSatisfy({ $0.status == .applied }) else { fail("the meals were not applied") }
func mealEvents(of meal: UUID, seed: Int) -> [SyncChange] {
    let base = 1_500_000_000.0 + Double(seed) * 86_400 * 300
    return (0..<mealEventCount).map { index in
        let at = Date(timeIntervalSince1970: base + Double(index) * 3600 * 6)
        return SyncChange(type: "meal_event", id: .v7(at: at), changedAt: at, fields: [
            "meal_id": .string(meal.lowercasedString), "eaten_at": .string(SyncInstant(date: at, utcOffsetSeconds: 0).text), "portion": .number(1),
        ])
    }
}
var everydayMs: [Double] = [], testMs: [Double] = []
for iteration in 0..<iterations {
    let pair = [(everyday, 2 * iteration), (test, 2 * iteration + 1)]
    for (meal, seed) in iteration.isMultiple(of: 2) ? pair : pair.reversed() {
        let events = mealEvents(of: meal, seed: seed)
        let (ms, results) = try await timed { try await store.push(events, user: account.user) }
        guard results.allSatisfy({ $0.status == .applied }) else { fail("a meal event was not applied") }
        if meal == everyday { everydayMs.append(ms) } else { testMs.append(ms) }
    }
}
let logged = try await store.foodEntries(user: account.user, from: LocalDate(iso: "2017-01-01")!, to: LocalDate(iso: "2025-10-31")!).count
guard logged == 3 * mealEventCount * iterations else { fail("expected \(3 * mealEventCount * iterations) food log entries, found \(logged)") }
server.cancel()
try await store.close()

let result: [String: Any] = [
    "database": isPostgres ? "postgresql" : "sqlite", "changes_per_push": changeCount, "records_pulled": pulled, "iterations": iterations,
    "push_http_ms": rounded(median(pushMs), 0), "push_http_max_ms": rounded(pushMs.max() ?? 0, 0),
    "repush_http_ms": rounded(median(repushMs), 0), "push_store_ms": rounded(median(storePushMs), 0),
    "pull_http_ms": rounded(median(pullMs), 0), "pull_http_max_ms": rounded(pullMs.max() ?? 0, 0), "pull_store_ms": rounded(median(storePullMs), 0),
    "meal_events": mealEventCount, "meal_events_everyday_ms": rounded(median(everydayMs), 0), "meal_events_test_ms": rounded(median(testMs), 0),
    "peak_rss_mb": rounded(peakResidentMB(), 1),
]
if options.json {
    printJSON(result)
} else {
    print("\(isPostgres ? "PostgreSQL" : "SQLite"), median of \(iterations) (max):")
    print("  push of \(changeCount) new records in one request: \(result["push_http_ms"]!) ms (\(result["push_http_max_ms"]!)); in process: \(result["push_store_ms"]!) ms")
    print("  the same push again (nothing to write): \(result["repush_http_ms"]!) ms")
    print("  pull of \(pulled) records in pages of 10,000: \(result["pull_http_ms"]!) ms (\(result["pull_http_max_ms"]!)); in process: \(result["pull_store_ms"]!) ms")
    print("  \(mealEventCount) meal events in one push, in process: of an everyday meal (into the food log) \(result["meal_events_everyday_ms"]!) ms, of a test meal \(result["meal_events_test_ms"]!) ms")
    print("  peak RSS \(result["peak_rss_mb"]!) MB")
}
