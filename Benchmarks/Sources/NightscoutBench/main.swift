// The Nightscout API's benchmarks, over HTTP on loopback to a real single-user server in this process (SQLite or
// PostgreSQL), with the `api-secret` header as uploaders send it:
//
//     NightscoutBench --database /tmp/ns.sqlite [--days 365] [--reads 300] [--phase all|upload|read] [--json]
//     NightscoutBench --database postgres://postgres@127.0.0.1:5433/postgres --schema NAME ...   (nightscout/run.sh)
//
// - upload: a year of 5-minute CGM readings (105,120), each day one POST of 288 entries shaped as xDrip+ sends them;
//   then 10 of those days sent again (every entry a duplicate);
// - read: `entries.json?count=288` (a day) and `entries/sgv.json?find[date][$gte]=…` (the last 3 hours), `reads`
//   times each, with the year in the journal;
// - hae (only when asked for, `--phase hae`): Health Auto Export deliveries to `/api/v1/ingest/health-auto-export`,
//   `--days` days each a delivery of that day at the minute (heart rate Min/Avg/Max, active energy and steps:
//   4,320 points) with a weigh-in, a glucose reading and a meal; then each of the last 10 days sent again with the
//   day after it as the app's default window does (yesterday and today, the day before all duplicates).
import BenchmarkData
import CinnCore
import CinnJournal
import CinnServer
import CinnStore
import Foundation
import Hummingbird
import Logging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let options = Options(CommandLine.arguments.dropFirst())
let days = options.int("days", 365)
let reads = options.int("reads", 300)
/// Which half to run: `upload`, `read` (on a journal an upload run filled), or both (`all`, the default).
let phase = options["phase"] ?? "all"
let isPostgres = options.database.hasPrefix("postgres")
if !isPostgres, phase != "read" { try? FileManager.default.removeItem(atPath: options.database) }

var quiet = Logger(label: "cinn.bench")
quiet.logLevel = .critical
let store = try Store(DatabaseLocation(options.database), schema: options["schema"], logger: quiet)
try await store.migrate()
let journal = try await Journal.local(store: store)
let secret = "a benchmark secret"
let secretHash = "8284bfef6a9026620656a82df028fcf3461c3a55"  // its SHA-1 hex, worked out with Python's hashlib

let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
let app = buildApplication(journal: journal, configuration: ServerConfiguration(host: "127.0.0.1", port: 0, security: WebSecurity(apiSecret: secret)) { _, port in
    portContinuation.yield(port)
}, logger: quiet)
let server = Task { try await app.runService() }
guard let port = await ports.first(where: { _ in true }) else { fail("the server did not start") }
let base = "http://127.0.0.1:\(port)/nightscout"

func request(_ method: String, _ path: String, body: Data? = nil, statuses: Set<Int> = [200]) async throws -> Data {
    var request = URLRequest(url: URL(string: (path.hasPrefix("/api/v1/ingest") ? "http://127.0.0.1:\(port)" : base) + path)!)
    request.httpMethod = method
    request.httpBody = body
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue(secretHash, forHTTPHeaderField: "api-secret")
    let (data, response) = try await URLSession.shared.data(for: request)
    guard statuses.contains((response as? HTTPURLResponse)?.statusCode ?? 0) else {
        fail("\(method) \(path): HTTP \((response as? HTTPURLResponse)?.statusCode ?? 0): \(String(decoding: data, as: UTF8.self))")
    }
    return data
}

/// One day of readings as xDrip+ uploads them, newest first.
let end = 1_767_225_600_000 as Int64  // 2026-01-01T00:00:00Z
func day(_ index: Int) -> Data {
    let dayEnd = end - Int64(index) * 86_400_000
    var glucose = 110.0
    let entries = (0..<288).map { slot -> String in
        let date = dayEnd - Int64(slot + 1) * 300_000
        glucose = min(300, max(50, glucose + Double((slot * 7919 + index * 104_729) % 11) - 5))
        return """
            {"device":"xDrip-DexcomG6","date":\(date),"sgv":\(Int(glucose)),"delta":0,"direction":"Flat","type":"sgv",\
            "filtered":\(Int(glucose) * 1000),"unfiltered":\(Int(glucose) * 1000),"rssi":100,"noise":1}
            """
    }
    return Data(("[" + entries.joined(separator: ",") + "]").utf8)
}

func timed<T>(_ body: () async throws -> T) async throws -> (Double, T) {
    let start = ContinuousClock.now
    let value = try await body()
    return (milliseconds(since: start), value)
}

/// One day of Health Auto Export at the minute (`index` days before `end`), as JSON metrics.
func haeMetrics(_ index: Int) -> [String: [String]] {
    let dayStart = end - Int64(index + 1) * 86_400_000
    func time(_ minute: Int) -> String {
        let seconds = (dayStart / 1000) + Int64(minute) * 60
        let local = LocalDateTime(instant: Date(timeIntervalSince1970: Double(seconds)), utcOffsetSeconds: 0)
        let second = Int(local.secondsOfDay)
        return local.date.iso + String(format: " %02d:%02d:00 +0000", second / 3600, second / 60 % 60)
    }
    var metrics: [String: [String]] = ["heart_rate": [], "active_energy": [], "step_count": []]
    for minute in 0..<1440 {
        let beat = 60 + (minute * 7919 + index * 104_729) % 40
        metrics["heart_rate"]!.append(#"{"date":"\#(time(minute))","Min":\#(beat - 3),"Avg":\#(beat),"Max":\#(beat + 4),"source":"Watch"}"#)
        metrics["active_energy"]!.append(#"{"date":"\#(time(minute))","qty":\#(Double(minute % 13) / 10),"source":"Watch"}"#)
        metrics["step_count"]!.append(#"{"date":"\#(time(minute))","qty":\#(minute % 97),"source":"iPhone"}"#)
    }
    metrics["weight_body_mass"] = [#"{"date":"\#(time(420))","qty":\#(80 - Double(index % 30) / 10),"source":"Scale"}"#]
    metrics["blood_glucose"] = [#"{"date":"\#(time(430))","qty":\#(90 + index % 20),"mealTime":"Before Meal","source":"Meter"}"#]
    metrics["dietary_energy"] = [#"{"date":"\#(time(750))","qty":\#(600 + index % 50),"source":"MyFitnessPal"}"#]
    metrics["carbohydrates"] = [#"{"date":"\#(time(750))","qty":\#(70 + index % 9),"source":"MyFitnessPal"}"#]
    return metrics
}

func haeDelivery(_ days: [Int]) -> Data {
    var merged: [String: [String]] = [:]
    for index in days { for (name, points) in haeMetrics(index) { merged[name, default: []] += points } }
    let units = ["heart_rate": "count/min", "active_energy": "kcal", "step_count": "count", "weight_body_mass": "kg",
                 "blood_glucose": "mg/dL", "dietary_energy": "kcal", "carbohydrates": "g"]
    let metrics = merged.keys.sorted().map { name in
        #"{"name":"\#(name)","units":"\#(units[name]!)","data":[\#(merged[name]!.joined(separator: ","))]}"#
    }
    return Data(#"{"data":{"metrics":[\#(metrics.joined(separator: ","))]}}"#.utf8)
}

func healthAutoExport() async throws {
    let path = "/api/v1/ingest/health-auto-export"
    var firstMs: [Double] = [], windowMs: [Double] = [], resendMs: [Double] = []
    let bytes = haeDelivery([0]).count
    for index in (0..<days).reversed() {
        let body = haeDelivery([index])
        firstMs.append(try await timed { try await request("POST", path, body: body, statuses: [201]) }.0)
    }
    for index in 0..<min(10, days - 1) {
        // The app's default window: yesterday (all there already) and today (new again after the resend below).
        let window = haeDelivery([index + 1, index])
        windowMs.append(try await timed { try await request("POST", path, body: window, statuses: [200, 201]) }.0)
        resendMs.append(try await timed { try await request("POST", path, body: window, statuses: [200]) }.0)
    }
    let samples = try await store.healthDayTypes(user: journal.user).count
    guard samples >= 3 else { fail("expected the day summaries of heart rate, energy and steps, found \(samples) types") }
    let first = firstMs.sorted(), windows = windowMs.sorted(), resends = resendMs.sorted()
    func p(_ values: [Double], _ q: Double) -> Double { values.isEmpty ? 0 : percentile(values, q) }
    let result: [String: Any] = [
        "database": isPostgres ? "postgresql" : "sqlite", "days": days, "delivery_kb": bytes / 1024,
        "day_p50_ms": rounded(p(first, 50), 1), "day_p99_ms": rounded(p(first, 99), 1),
        "window_p50_ms": rounded(p(windows, 50), 1), "resend_p50_ms": rounded(p(resends, 50), 1),
        "peak_rss_mb": rounded(peakResidentMB(), 1),
    ]
    if options.json {
        printJSON(result)
    } else {
        print("\(isPostgres ? "PostgreSQL" : "SQLite"), Health Auto Export:")
        print("  a day at the minute (4,320 points + 4 records, \(result["delivery_kb"]!) KB), \(days) days one after another: p50 \(result["day_p50_ms"]!) ms, p99 \(result["day_p99_ms"]!) ms")
        print("  yesterday and today again (the default window): p50 \(result["window_p50_ms"]!) ms; the same sent once more (all duplicates): p50 \(result["resend_p50_ms"]!) ms")
        print("  peak RSS \(result["peak_rss_mb"]!) MB")
    }
}

if phase == "hae" {
    try await healthAutoExport()
    server.cancel()
    try await store.close()
    exit(0)
}

var uploadMs: [Double] = []
let uploadStart = ContinuousClock.now
for index in 0..<days where phase != "read" {
    let body = day(index)
    let (ms, data) = try await timed { try await request("POST", "/api/v1/entries", body: body) }
    guard data.count > 2 else { fail("day \(index) stored nothing") }
    uploadMs.append(ms)
}
let totalMs = milliseconds(since: uploadStart)
var repostMs: [Double] = []
for index in 0..<10 where phase != "read" {
    let body = day(index)
    let (ms, data) = try await timed { try await request("POST", "/api/v1/entries", body: body) }
    guard String(decoding: data, as: UTF8.self) == "[]" else { fail("a day sent again stored something") }
    repostMs.append(ms)
}
let stored = try await store.latestGlucoseReadings(user: journal.user, limit: 1_000_000).count
guard stored == days * 288 else { fail("expected \(days * 288) readings, found \(stored)") }

var dayMs: [Double] = [], recentMs: [Double] = []
for round in 0..<reads where phase != "upload" {
    let (ms, data) = try await timed { try await request("GET", "/api/v1/entries.json?count=288") }
    if round == 0, (try JSONSerialization.jsonObject(with: data) as? [Any])?.count != 288 { fail("entries.json?count=288 did not answer 288") }
    dayMs.append(ms)
    recentMs.append(try await timed { try await request("GET", "/api/v1/entries/sgv.json?find[date][$gte]=\(end - 3 * 3_600_000)&count=100") }.0)
}
server.cancel()
try await store.close()

let uploads = uploadMs.sorted(), daysRead = dayMs.sorted(), recent = recentMs.sorted()
func p(_ values: [Double], _ q: Double) -> Double { values.isEmpty ? 0 : percentile(values, q) }
let result: [String: Any] = [
    "database": isPostgres ? "postgresql" : "sqlite", "days": days, "readings": stored, "reads": reads,
    "upload_total_s": rounded(totalMs / 1000, 1), "upload_day_p50_ms": rounded(p(uploads, 50), 1),
    "upload_day_p99_ms": rounded(p(uploads, 99), 1), "repost_day_p50_ms": rounded(p(repostMs.sorted(), 50), 1),
    "entries_288_p50_ms": rounded(p(daysRead, 50), 2), "entries_288_p99_ms": rounded(p(daysRead, 99), 2),
    "recent_3h_p50_ms": rounded(p(recent, 50), 2), "recent_3h_p99_ms": rounded(p(recent, 99), 2),
    "peak_rss_mb": rounded(peakResidentMB(), 1),
]
if options.json {
    printJSON(result)
} else {
    print("\(isPostgres ? "PostgreSQL" : "SQLite")\(phase == "all" ? "" : ", \(phase)"):")
    if phase != "read" {
        print("  upload of \(stored) readings, a POST of 288 a day: \(result["upload_total_s"]!) s; a day p50 \(result["upload_day_p50_ms"]!) ms, p99 \(result["upload_day_p99_ms"]!) ms")
        print("  a day sent again (all duplicates): p50 \(result["repost_day_p50_ms"]!) ms")
    }
    if phase != "upload" {
        print("  entries.json?count=288 with the year in the journal: p50 \(result["entries_288_p50_ms"]!) ms, p99 \(result["entries_288_p99_ms"]!) ms")
        print("  sgv.json, the last 3 hours by find[date][$gte]: p50 \(result["recent_3h_p50_ms"]!) ms, p99 \(result["recent_3h_p99_ms"]!) ms")
    }
    print("  peak RSS \(result["peak_rss_mb"]!) MB")
}
