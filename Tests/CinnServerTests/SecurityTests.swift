import CinnCharts
import CinnCore
import CinnJournal
import CinnServer
import CinnStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The browser's CSRF cookie a response sets, as a `Cookie` header value.
func browserCookie(_ response: TestResponse) -> String? {
    response.headers[values: .setCookie].first { $0.hasPrefix("cinn_csrf=") }?.split(separator: ";").first.map(String.init)
}

@Suite("Security: cross-site requests, headers, limits")
struct SecurityTests {
    static let form = "application/x-www-form-urlencoded"

    /// A single-user app over a fresh journal, answering only loopback names like `cinn serve` on 127.0.0.1.
    func withLocalApp(allowedHosts: [String] = [], _ body: @Sendable (any TestClientProtocol, Journal) async throws -> Void) async throws {
        try await withStore { store in
            let journal = try await utcJournal(store)
            let security = WebSecurity(loopbackHostsOnly: true, allowedHosts: allowedHosts)
            try await Application(router: buildRouter(journal: journal, security: security)).test(.router) { client in
                try await body(client, journal)
            }
        }
    }

    @Test("single-user mode: a cross-site form post or fetch writes nothing (403); the CLI's and curl's requests still work")
    func crossSiteWritesAreRefused() async throws {
        try await withLocalApp { client, journal in
            let evil: HTTPFields = [.origin: "http://evil.example", .contentType: Self.form]
            var response = try await client.execute(uri: "/weigh-ins", method: .post, headers: evil, body: ByteBuffer(string: "weight=80"))
            #expect(response.status == .forbidden)
            let fetch: HTTPFields = [
                .origin: "http://evil.example", .contentType: "text/plain",
                HTTPField.Name("Sec-Fetch-Site")!: "cross-site",
            ]
            response = try await client.execute(
                uri: "/api/v1/weigh-ins", method: .post, headers: fetch,
                body: ByteBuffer(string: #"{"weight": 80}"#))
            #expect(response.status == .forbidden)
            let sameSite: HTTPFields = [HTTPField.Name("Sec-Fetch-Site")!: "same-site", .contentType: Self.form]
            response = try await client.execute(uri: "/weigh-ins", method: .post, headers: sameSite, body: ByteBuffer(string: "weight=80"))
            #expect(response.status == .forbidden)
            let nullOrigin: HTTPFields = [.origin: "null", .contentType: Self.form]
            response = try await client.execute(
                uri: "/weigh-ins", method: .post, headers: nullOrigin, body: ByteBuffer(string: "weight=80"))
            #expect(response.status == .forbidden)
            #expect(try await journal.count() == 0)

            // No browser headers at all: the CLI, curl, uploaders.
            response = try await client.send(.post, "/api/v1/weigh-ins", json: #"{"weight": 80, "unit": "kg"}"#)
            #expect(response.status == .created)
            response = try await client.post("/weigh-ins", form: "weight=80.5")
            #expect(response.status == .seeOther)
            // An app's HTTP library that keeps cookies (of every port of the host) is no browser either.
            response = try await client.execute(
                uri: "/api/v1/weigh-ins", method: .post,
                headers: [.contentType: "application/json", .cookie: "cinn_csrf=" + String(repeating: "b", count: 43)],
                body: ByteBuffer(string: #"{"weight": 81}"#))
            #expect(response.status == .created)
            #expect(try await journal.count() == 3)
        }
    }

    @Test("single-user mode: a same-origin form carries the browser's CSRF token; without it the post is 403")
    func sameOriginFormsCarryTheToken() async throws {
        try await withLocalApp { client, journal in
            let page = try await client.send(.get, "/")
            let cookie = try #require(browserCookie(page))
            let token = try #require(csrfToken(String(buffer: page.body)))
            #expect(page.headers[values: .setCookie].first { $0.hasPrefix("cinn_csrf=") }?.contains("SameSite=Strict") == true)
            #expect(page.headers[values: .setCookie].first { $0.hasPrefix("cinn_csrf=") }?.contains("HttpOnly") == true)
            // The test client's requests name the host "localhost".
            let browser: HTTPFields = [
                .origin: "http://localhost", .contentType: Self.form,
                HTTPField.Name("Sec-Fetch-Site")!: "same-origin", .cookie: cookie,
            ]
            var response = try await client.execute(
                uri: "/weigh-ins", method: .post, headers: browser, body: ByteBuffer(string: "weight=80"))
            #expect(response.status == .forbidden)
            response = try await client.execute(
                uri: "/weigh-ins", method: .post, headers: browser,
                body: ByteBuffer(string: "weight=80&_csrf=" + String(repeating: "A", count: 43)))
            #expect(response.status == .forbidden)
            #expect(try await journal.count() == 0)
            response = try await client.execute(
                uri: "/weigh-ins", method: .post, headers: browser, body: ByteBuffer(string: "weight=80&_csrf=" + token))
            #expect(response.status == .seeOther)
            // A page the browser already has a token for sets no new cookie, and its forms carry the same token.
            var again: HTTPFields = browser
            again[.contentType] = nil
            let next = try await client.execute(uri: "/settings", method: .get, headers: again)
            #expect(browserCookie(next) == nil)
            #expect(csrfToken(String(buffer: next.body)) == token)
            // The JSON API from the page's own scripts: the header carries the token.
            var api = browser
            api[.contentType] = "application/json"
            api[HTTPField.Name("X-CSRF-Token")!] = token
            response = try await client.execute(
                uri: "/api/v1/weigh-ins", method: .post, headers: api, body: ByteBuffer(string: #"{"weight": 81}"#))
            #expect(response.status == .created)
            #expect(try await journal.count() == 2)
        }
    }

    @Test("single-user mode on loopback answers only loopback names and the allowed ones (DNS rebinding), over HTTP")
    func hostsAreChecked() async throws {
        try await withStore { store in
            let journal = try await utcJournal(store)
            let security = WebSecurity(loopbackHostsOnly: true, allowedHosts: ["cinn.home.arpa"])
            try await Application(router: buildRouter(journal: journal, security: security)).test(.live) { client in
                let port = try #require(client.port)
                try await TestClient.withClient(host: "127.0.0.1", port: port) { http in
                    for host in ["evil.example", "evil.example:8080", "192.168.1.10:8080", "127.0.0.1.evil.example"] {
                        let response = try await http.execute(.init("/api/v1/weigh-ins", method: .get, authority: host))
                        #expect(response.status == .forbidden, "\(host)")
                        #expect(response.body.map { String(buffer: $0) }?.contains("--allowed-host") == true, "\(host)")
                    }
                    for host in [
                        "localhost:8080", "127.0.0.1", "127.0.0.2:8080", "[::1]:8080", "app.localhost", "cinn.home.arpa:8080",
                        "CINN.home.arpa",
                    ] {
                        let response = try await http.execute(.init("/api/v1/weigh-ins", method: .get, authority: host))
                        #expect(response.status == .ok, "\(host)")
                    }
                }
            }
        }
    }

    @Test(
        "single-user mode beyond loopback answers only this machine's names and addresses (DNS rebinding), over HTTP",
        arguments: ["0.0.0.0", "127.1"])
    func hostsAreCheckedBeyondLoopback(_ listening: String) async throws {
        #expect(
            WebSecurity.isLoopbackAddress("127.1") && WebSecurity.isLoopbackAddress("127.0.0.9")
                && !WebSecurity.isLoopbackAddress("0.0.0.0"))
        let own = WebSecurity.machineNames()
        #expect(!own.isEmpty)
        try await withStore { store in
            let journal = try await utcJournal(store)
            let app = buildApplication(
                journal: journal,
                configuration: ServerConfiguration(
                    host: listening, port: 0, security: WebSecurity(allowedHosts: ["cinn.home.arpa"])))
            try await app.test(.live) { client in
                let port = try #require(client.port)
                try await TestClient.withClient(host: "127.0.0.1", port: port) { http in
                    for host in ["evil.example", "evil.example:\(port)", "127.0.0.1.evil.example", "10.9.8.7"] {
                        let response = try await http.execute(.init("/api/v1/weigh-ins", method: .get, authority: host))
                        #expect(response.status == .forbidden, "\(listening): \(host)")
                    }
                    var allowed = ["localhost:\(port)", "127.0.0.1", "cinn.home.arpa"]
                    if listening == "0.0.0.0" { allowed += own.map { $0.contains(":") ? "[\($0)]:\(port)" : "\($0):\(port)" } }
                    for host in allowed {
                        let response = try await http.execute(.init("/api/v1/weigh-ins", method: .get, authority: host))
                        #expect(response.status == .ok, "\(listening): \(host)")
                    }
                    // Beyond loopback, Nightscout's clients need the secret (none is set: none reaches it).
                    let nightscout = try await http.execute(.init("/nightscout/api/v1/entries.json", method: .get, authority: "127.0.0.1"))
                    #expect(nightscout.status == (listening == "0.0.0.0" ? .unauthorized : .ok), "\(listening)")
                }
            }
        }
    }

    @Test("HEAD answers every GET route as GET does, without the body")
    func headIsGetWithoutTheBody() async throws {
        try await withApp { client, _ in
            for path in ["/", "/food", "/api/v1/weigh-ins", "/static/cinn.css", "/health", "/api/openapi.yaml"] {
                let get = try await client.send(.get, path)
                let head = try await client.send(.head, path)
                #expect(head.status == get.status && get.status == .ok, "HEAD \(path): \(head.status)")
                #expect(head.body.readableBytes == 0, "HEAD \(path)")
                #expect(head.headers[.contentType] == get.headers[.contentType], "HEAD \(path)")
            }
            #expect(try await client.send(.head, "/no-such-page").status == .notFound)
        }
    }

    @Test("a body over a limit is refused with the limit as it is: 1 MiB of JSON, 8 MiB of Nightscout, 32 MiB of sync")
    func tooLargeNamesTheLimit() async throws {
        try await withStore { store in
            let journal = try await utcJournal(store)
            let router = buildRouter(journal: journal, security: WebSecurity(loopbackHostsOnly: true))
            try await Application(router: router).test(.router) { client in
                for (path, limit) in [
                    ("/api/v1/weigh-ins", "1 MiB"), ("/nightscout/api/v1/treatments", "8 MiB"), ("/api/v1/sync/push", "32 MiB"),
                    ("/weigh-ins", "64 KiB"),
                ] {
                    let size = limit == "1 MiB" ? 1 << 20 : limit == "8 MiB" ? 8 << 20 : limit == "32 MiB" ? 32 << 20 : 64 << 10
                    let response =
                        path == "/weigh-ins"
                        ? try await client.post(path, form: "weight=" + String(repeating: "8", count: size))
                        : try await client.send(.post, path, json: "[" + String(repeating: " ", count: size) + "]")
                    #expect(response.status == .contentTooLarge, "\(path)")
                    #expect(response.text.contains("(\(limit))"), "\(path): \(response.text.prefix(300))")
                }
            }
        }
    }

    @Test("every response carries the security headers: pages, JSON, redirects, errors; TRACE is 405")
    func securityHeaders() async throws {
        try await withApp { client, _ in
            let responses = [
                ("page", try await client.send(.get, "/")),
                ("json", try await client.send(.get, "/api/v1/weigh-ins")),
                ("redirect", try await client.post("/weigh-ins", form: "weight=80")),
                ("not found", try await client.send(.get, "/no-such-page")),
                ("api error", try await client.send(.post, "/api/v1/weigh-ins", json: "{")),
                ("static", try await client.send(.get, "/static/cinn.css")),
                ("trace", try await client.send(.trace, "/")),
            ]
            for (name, response) in responses {
                let policy = try #require(response.headers[.contentSecurityPolicy], "\(name)")
                #expect(
                    policy.contains("default-src 'self'") && policy.contains("script-src 'self'")
                        && policy.contains("frame-ancestors 'none'"), "\(name)")
                #expect(!policy.contains("unsafe-inline"), "\(name)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(name)")
                #expect(response.headers[HTTPField.Name("X-Frame-Options")!] == "DENY", "\(name)")
                #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin", "\(name)")
            }
            let trace = try #require(responses.last?.1)
            #expect(trace.status == .methodNotAllowed)
            #expect(trace.headers[.allow]?.contains("GET") == true)
        }
    }

    @Test("pages hold no inline script or style attribute; the charts' own styles are allowed by their hashes")
    func noInlineScriptOrStyle() async throws {
        try await withStore { store in
            let journal = try await utcJournal(store)
            #expect(try await journal.fillWithDemoData())
            try await Application(router: buildRouter(journal: journal)).test(.router) { client in
                let policy = try #require(try await client.send(.get, "/").headers[.contentSecurityPolicy])
                for path in [
                    "/", "/weigh-ins", "/food", "/food/search", "/food/new", "/food/history", "/food/stats", "/food/presets", "/energy",
                    "/profile", "/lifts", "/workouts",
                    "/glucose", "/glucose/meals", "/glucose/agp", "/glance", "/import", "/settings", "/more-data",
                ] {
                    let response = try await client.send(.get, path)
                    #expect(response.status == .ok, "\(path)")
                    let html = String(buffer: response.body)
                    #expect(!html.contains("<script>"), "\(path) has an inline script")
                    #expect(!html.contains(" style=\""), "\(path) has a style attribute")
                    #expect(!html.contains(" onclick="), "\(path) has an event handler attribute")
                    var rest = html[...]
                    while let open = rest.range(of: "<style>"), let close = rest[open.upperBound...].range(of: "</style>") {
                        let style = String(rest[open.upperBound..<close.lowerBound])
                        #expect(ChartStyles.all.contains(style), "\(path): a <style> that is not a chart's")
                        rest = rest[close.upperBound...]
                    }
                }
                for asset in ["cinn.css", "progress.js", "food-search.js", "food-preview.js", "glucose-live.js"] {
                    let response = try await client.send(.get, "/static/" + asset)
                    #expect(response.status == .ok, "\(asset)")
                    #expect(response.body.readableBytes > 200, "\(asset)")
                }
                #expect(ChartStyles.all.count == 9)
                #expect(policy.components(separatedBy: "'sha256-").count - 1 == ChartStyles.all.count)
            }
        }
    }

    @Test("a JSON body over 1 MiB is 413, not 500")
    func largeBodies() async throws {
        try await withApp { client, journal in
            let note = String(repeating: "x", count: (1 << 20) + 10)
            let response = try await client.send(.post, "/api/v1/weigh-ins", json: #"{"weight": 80, "note": "\#(note)"}"#)
            #expect(response.status == .contentTooLarge)
            #expect(String(buffer: response.body).contains("content_too_large"))
            #expect(try await journal.count() == 0)
        }
    }

    @Test("REST refuses what sync refuses: tiny weights and rates, long notes, an empty date (422 naming the field)")
    func restValidatesLikeSync() async throws {
        try await withApp { client, journal in
            let cases: [(String, String, String)] = [
                ("/api/v1/weigh-ins", #"{"weight": 5e-324, "unit": "lb"}"#, "weight"),
                ("/api/v1/weigh-ins", #"{"weight": 1e-320, "unit": "kg"}"#, "weight"),
                ("/api/v1/weigh-ins", #"{"weight": 0.05, "unit": "kg"}"#, "weight"),
                ("/api/v1/weigh-ins", #"{"weight": 80, "note": "\#(String(repeating: "n", count: 501))"}"#, "note"),
                ("/api/v1/weigh-ins", #"{"weight": 80, "date": ""}"#, "date"),
            ]
            for (path, body, field) in cases {
                let response = try await client.send(.post, path, json: body)
                #expect(response.status == .unprocessableContent, "\(body.prefix(60))")
                #expect(String(buffer: response.body).contains(#""field":"\#(field)""#), "\(body.prefix(60))")
            }
            let goal = try await client.send(.put, "/api/v1/goal", json: #"{"weight": 70, "unit": "kg", "rate_per_week": 1e-320}"#)
            #expect(goal.status == .unprocessableContent)
            #expect(try await journal.count() == 0)
            let fine = try await client.send(
                .post, "/api/v1/weigh-ins", json: #"{"weight": 80, "note": "\#(String(repeating: "n", count: 500))"}"#)
            #expect(fine.status == .created)
        }
    }

    @Test("an upload's errors name the file as the person did, or the upload, never the server's temporary file")
    func uploadErrorsHideTemporaryFiles() async throws {
        try await withApp { client, _ in
            for path in ["/api/v1/food-journal", "/api/v1/imports?format=fitbit&unit=kg", "/api/v1/imports?format=apple-health"] {
                let response = try await client.send(
                    .post, path, body: "PK\u{3}\u{4} not really a zip", contentType: "application/octet-stream")
                #expect(response.status == .unprocessableContent, "\(path)")
                #expect(!response.text.contains("cinn-upload-"), "\(path): \(response.text)")
                let named = try await client.send(
                    .post, path + (path.contains("?") ? "&" : "?") + "file_name=mine.zip",
                    body: "PK\u{3}\u{4} not really a zip", contentType: "application/octet-stream")
                #expect(!named.text.contains("cinn-upload-"), "\(path): \(named.text)")
            }
        }
    }

    @Test("CSV exports neutralise cells a spreadsheet would run as a formula, and leave negative numbers alone")
    func csvInjection() async throws {
        try await withApp { client, _ in
            let response = try await client.send(
                .post, "/api/v1/weigh-ins", json: #"{"weight": 80, "note": "=HYPERLINK(\"http://evil.example\",\"x\")"}"#)
            #expect(response.status == .created)
            let csv = String(buffer: try await client.send(.get, "/api/v1/export?format=csv").body)
            #expect(csv.contains(#""'=HYPERLINK(""http://evil.example"",""x"")""#))
            #expect(!csv.contains(",=HYPERLINK"))
        }
    }
}
