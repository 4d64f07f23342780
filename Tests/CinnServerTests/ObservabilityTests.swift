import CinnCore
import CinnJournal
import CinnServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Metrics
import Prometheus
import SQLKit
import Synchronization
import Testing

@testable import CinnStore

/// The metrics registry of the test process: swift-metrics is bootstrapped once a process, as `cinn serve` does.
let testMetricsRegistry: PrometheusCollectorRegistry = {
    let registry = PrometheusCollectorRegistry()
    MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
    return registry
}()

/// Log lines written by a `StructuredLogHandler`, kept for a test to read.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    func logger(_ format: LogFormat) -> Logger {
        Logger(label: "cinn.requests") { label in
            StructuredLogHandler(label: label, format: format, level: .info) { line in self.lines.withLock { $0.append(line) } }
        }
    }

    var all: [String] { lines.withLock { $0 } }

    func append(_ line: String) { lines.withLock { $0.append(line) } }
}

@Suite("Operations: health, readiness, metrics and the request log")
struct ObservabilityTests {
    /// The value of one series (its name with labels, as written) in Prometheus's text, 0 when absent.
    func value(_ text: String, _ series: String) -> Double {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }

    @Test("hosted mode answers /health, /ready and /metrics without a session; a metrics token is asked for when set")
    func endpointsNeedNoSession() async throws {
        let metrics = MetricsEndpoint(registry: testMetricsRegistry, token: "metrics-secret-123")
        try await withStore { store in
            let journal = try await utcJournal(store)
            let accounts = Accounts(store: store, configuration: AccountTests.fastHashing)
            try await Application(router: buildRouter(journal: journal, accounts: accounts, metrics: metrics)).test(.router) { client in
                #expect(try await client.send(.get, "/health").text == "ok")
                let ready = try await client.send(.get, "/ready")
                #expect(ready.status == .ok && ready.text == "ready")
                #expect(try await client.send(.get, "/metrics").status == .unauthorized)
                let wrong = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer metrics-secret-124"])
                #expect(wrong.status == .unauthorized)
                let answer = try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer metrics-secret-123"])
                #expect(answer.status == .ok && answer.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
                #expect(answer.text.contains("# TYPE cinn_http_requests_total counter"))
                #expect(answer.text.contains(#"cinn_http_requests_total{method="GET",route="/ready",status="200"}"#))
            }
        }
    }

    @Test("/ready is 503 when the schema is not this version's or the database cannot be reached")
    func readiness() async throws {
        try await withStore { store in
            let journal = try await utcJournal(store)
            try await Application(router: buildRouter(journal: journal)).test(.router) { client in
                #expect(try await client.send(.get, "/ready").status == .ok)
                try await store.withConnection { db in
                    try await db.raw(
                        "UPDATE schema_migrations SET version = 99 WHERE version = (SELECT MAX(version) FROM schema_migrations)"
                    ).run()
                }
                let newer = try await client.send(.get, "/ready")
                #expect(newer.status == .serviceUnavailable && newer.text == "the database's schema is not this version's")
                try await store.withConnection { db in try await db.raw("DELETE FROM schema_migrations WHERE version = 99").run() }
                #expect(
                    try await client.send(.get, "/ready").status == .serviceUnavailable,
                    "a schema behind this version's is not ready either")
                try await store.close()
                let closed = try await client.send(.get, "/ready")
                #expect(closed.status == .serviceUnavailable && closed.text == "the database cannot be reached")
                #expect(try await client.send(.get, "/health").status == .ok)
            }
        }
    }

    @Test("/metrics counts requests by route pattern, imports and sync, and holds nothing a user wrote")
    func metricsCountWithoutUserData() async throws {
        let metrics = MetricsEndpoint(registry: testMetricsRegistry)
        try await withStore { store in
            let journal = try await utcJournal(store)
            try await Application(router: buildRouter(journal: journal, metrics: metrics)).test(.router) { client in
                let before = try await client.send(.get, "/metrics").text
                let foodDay = #"cinn_http_requests_total{method="GET",route="/food/{date}",status="200"}"#
                #expect(try await client.send(.get, "/food/2024-03-09?q=private-search").status == .ok)
                #expect(try await client.send(.get, "/food/2024-03-10").status == .ok)
                #expect(
                    try await client.send(.post, "/api/v1/weigh-ins", json: #"{"weight":80.5,"note":"private-note"}"#).status == .created)
                #expect(
                    try await client.send(.post, "/api/v1/imports?format=csv&unit=kg", body: threeDays, contentType: "text/csv")
                        .status == .created)
                let push =
                    #"{"changes":[{"type":"glucose_reading","id":"\#(UUID().uuidString)","changed_at":"2024-03-15T08:00:00Z","fields":{"measured_at":"2024-03-15T08:00:00Z","mg_dl":101}}]}"#
                #expect(try await client.send(.post, "/api/v1/sync/push", json: push).status == .ok)
                #expect(try await client.send(.get, "/api/v1/sync/changes").status == .ok)
                #expect(try await client.send(.get, "/no-such-page-private").status == .notFound)
                let after = try await client.send(.get, "/metrics").text
                #expect(value(after, foodDay) - value(before, foodDay) >= 2)
                let imports = #"cinn_imports_total{format="csv",result="imported"}"#
                #expect(value(after, imports) - value(before, imports) >= 1)
                let pushed = #"cinn_sync_changes_total{direction="push"}"#
                #expect(value(after, pushed) - value(before, pushed) >= 1)
                #expect(value(after, #"cinn_db_connections_max{database="sqlite"}"#) > 0)
                #expect(after.contains("cinn_http_request_duration_seconds_bucket"))
                for secret in ["private", "2024-03-09", "/no-such-page"] {
                    #expect(!after.contains(secret), "\(secret)")
                }
                // The weight as a number of its own, not the digits of a sum of seconds (80.51005081).
                #expect(after.range(of: #"(?<![0-9.])80\.5(?![0-9])"#, options: .regularExpression) == nil)
            }
        }
    }

    @Test(
        "the request log writes method, route, status, duration and request id, and no path values, query or body",
        arguments: LogFormat.allCases)
    func requestLog(_ format: LogFormat) async throws {
        let lines = LogLines()
        try await withStore { store in
            let journal = try await utcJournal(store)
            try await Application(router: buildRouter(journal: journal, requestLog: lines.logger(format))).test(.router) { client in
                let answer = try await client.execute(
                    uri: "/food/2024-03-09?q=private-search", method: .get, headers: [HTTPField.Name("X-Request-Id")!: "proxy-id-42"])
                #expect(answer.headers[HTTPField.Name("X-Request-Id")!] == "proxy-id-42")
                let own = try await client.execute(
                    uri: "/api/v1/weigh-ins", method: .post,
                    headers: [
                        HTTPField.Name("X-Request-Id")!: "not plain; id",
                        .contentType: "application/json",
                    ],
                    body: ByteBuffer(string: #"{"weight":80.5,"note":"private-note"}"#))
                #expect(own.status == .created)
                let ownID = try #require(own.headers[HTTPField.Name("X-Request-Id")!])
                #expect(ownID != "not plain; id" && !ownID.isEmpty)
            }
        }
        let written = lines.all
        #expect(written.count == 2 && written.allSatisfy { $0.hasSuffix("\n") })
        for line in written { #expect(!line.contains("private") && !line.contains("2024-03-09") && !line.contains("80.5"), "\(line)") }
        switch format {
        case .logfmt:
            #expect(
                written[0].contains("msg=request") && written[0].contains("method=GET") && written[0].contains("route=/food/{date}")
                    && written[0].contains("status=200") && written[0].contains("request_id=proxy-id-42")
                    && written[0].contains("duration_ms="))
            #expect(written[1].contains("method=POST") && written[1].contains("route=/api/v1/weigh-ins status=201"))
        case .json:
            let first = try #require(try JSONSerialization.jsonObject(with: Data(written[0].utf8)) as? [String: String])
            #expect(
                first["msg"] == "request" && first["route"] == "/food/{date}" && first["status"] == "200"
                    && first["request_id"] == "proxy-id-42")
            #expect(first["level"] == "info" && first["logger"] == "cinn.requests" && first["ts"]?.hasSuffix("Z") == true)
        }
    }

    @Test("logfmt quotes what is not a plain word; JSON escapes control characters")
    func logFormatsEscape() {
        let lines = LogLines()
        for format in LogFormat.allCases {
            lines.logger(format).error("a \"quoted\"\nline", metadata: ["empty": "", "path": "C:\\x", "plain": "ok"])
        }
        let written = lines.all
        #expect(written[0].hasSuffix(#"level=error logger=cinn.requests msg="a \"quoted\"\nline" empty="" path="C:\\x" plain=ok"# + "\n"))
        let json = try? JSONSerialization.jsonObject(with: Data(written[1].utf8)) as? [String: String]
        #expect(json?["msg"] == "a \"quoted\"\nline" && json?["path"] == "C:\\x")
    }

    /// The database drivers log each statement with its bound values at debug: a token's digest is such a value, and a
    /// working Nightscout secret. `--log-level debug` shows the server's own debug lines, never the drivers'.
    @Test("at --log-level debug no bound value of a statement reaches the log")
    func boundValuesAreNeverLogged() async throws {
        let lines = LogLines()
        var logger = Logger(label: "cinn.store") { label in
            StructuredLogHandler(label: label, format: .logfmt, level: .trace) { line in lines.append(line) }
        }
        logger.logLevel = .debug
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Store(.sqlite(path: folder.appendingPathComponent("cinn.sqlite").path), logger: logger)
        _ = try await store.migrate()
        let accounts = Accounts(store: store)
        let anna = try await accounts.addUser(name: "anna", password: "a long password", role: .member)
        let (_, secret) = try await accounts.createToken(name: "uploader", scope: .nightscoutUpload, user: anna.user)
        let digest = Accounts.sha1Hex(secret)
        #expect(try await accounts.tokenAccount(secretSHA1: digest)?.account.name == "anna")
        try await store.close()
        for line in lines.all { #expect(!line.contains(digest) && !line.contains(secret), "\(line)") }
    }
}
