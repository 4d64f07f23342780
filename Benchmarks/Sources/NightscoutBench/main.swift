// The Nightscout API's benchmarks, over HTTP on loopback to a real single-user server in this process (SQLite or
// PostgreSQL), with the `api-secret` header as uploaders send it:
//
//     NightscoutBench --database /tmp/ns.sqlite [--days 365] [--reads 300] [--phase all|upload|read] [--json]
//     NightscoutBench --database postgres://postgres@127.0.0.1:5433/postgres --schema NAME ...   (nightscout/run.sh)
//
// - upload: a year of 5-minute CGM readings (105,120), each day one POST of 288 entries shaped as xDrip+ sends them;
//   then 10 of those days sent again (every entry a duplicate);
// - read: `entries.json?count=288` (a day) and `entries/sgv.json?find[date][$gte]=…` (the last 3 hours), `reads`
//   times each, with the year in the journal.
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

func request(_ method: String, _ path: String, body: Data? = nil) async throws -> Data {
    var request = URLRequest(url: URL(string: base + path)!)
    request.httpMethod = method
    request.httpBody = body
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue(secretHash, forHTTPHeaderField: "api-secret")
    let (data, response) = try await URLSession.shared.data(for: request)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
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
