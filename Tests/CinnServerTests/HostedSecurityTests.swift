import CinnCore
import CinnJournal
import CinnServer
import CinnStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Security: hosted mode's log-in")
struct HostedSecurityTests {
    static let form = "application/x-www-form-urlencoded"

    func withHostedApp(
        _ configuration: AccountsConfiguration = AccountTests.fastHashing, live: Bool = false,
        security: WebSecurity = WebSecurity(),
        _ body: @Sendable (any TestClientProtocol, Accounts) async throws -> Void
    ) async throws {
        try await withStore { store in
            let journal = try await utcJournal(store)
            let accounts = Accounts(store: store, configuration: configuration)
            try await Application(router: buildRouter(journal: journal, accounts: accounts, security: security)).test(
                live ? .live : .router
            ) { client in
                try await body(client, accounts)
            }
        }
    }

    /// Sends `requests` at once over their own connections (the live test client answers one at a time).
    func concurrently(port: Int, _ requests: [TestClient.Request]) async throws -> [HTTPResponse.Status] {
        try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
            for request in requests {
                group.addTask {
                    try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(120))) { client in
                        try await client.execute(request).status
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    static func logIn(_ name: String, _ password: String, client: String? = nil) -> TestClient.Request {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let client { headers[HTTPField.Name("X-Forwarded-For")!] = client }
        return TestClient.Request(
            "/api/v1/login", method: .post, authority: "localhost", headers: headers,
            body: ByteBuffer(string: #"{"name":"\#(name)","password":"\#(password)"}"#))
    }

    @Test("log-in and sign-up forms carry the browser's CSRF token: a forged log-in is 403")
    func logInCSRF() async throws {
        try await withHostedApp { client, accounts in
            _ = try await accounts.addUser(name: "alice", password: "alice-password-1", role: .member)
            let page = try await client.send(.get, "/login")
            let cookie = try #require(browserCookie(page))
            let token = try #require(csrfToken(page.text))
            let browser: HTTPFields = [.origin: "http://localhost", .contentType: Self.form, .cookie: cookie]
            var response = try await client.execute(
                uri: "/login", method: .post, headers: browser,
                body: ByteBuffer(string: "name=alice&password=alice-password-1"))
            #expect(response.status == .forbidden)
            var forged = browser
            forged[.origin] = "http://evil.example"
            response = try await client.execute(
                uri: "/login", method: .post, headers: forged,
                body: ByteBuffer(string: "name=alice&password=alice-password-1&_csrf=" + token))
            #expect(response.status == .forbidden)
            response = try await client.execute(
                uri: "/signup", method: .post, headers: browser,
                body: ByteBuffer(string: "name=mallory&password=mallory-password-1"))
            #expect(response.status == .forbidden)
            response = try await client.execute(
                uri: "/login", method: .post, headers: browser,
                body: ByteBuffer(string: "name=alice&password=alice-password-1&_csrf=" + token))
            #expect(response.status == .seeOther)
            #expect(sessionCookie(response) != nil)
        }
    }

    @Test(
        "after log-in, `next` leaves the site in no spelling a browser would follow",
        arguments: [
            ("%2F%09%2Fevil.example", "/"), ("%2F%0A%2Fevil.example", "/"), ("%2F%2Fevil.example", "/"), ("%2F%5Cevil.example", "/"),
            ("https%3A%2F%2Fevil.example", "/"), ("%2F%20%2Fevil.example", "/"), ("%2Ffood%3Fdate%3D2024-03-01", "/food?date=2024-03-01"),
        ])
    func openRedirect(next: String, location: String) async throws {
        try await withHostedApp { client, accounts in
            _ = try await accounts.addUser(name: "alice", password: "alice-password-1", role: .member)
            let response = try await client.post("/login", form: "name=alice&password=alice-password-1&next=" + next)
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == location)
            let page = try await client.send(.get, "/login?next=" + next).text
            #expect(
                page.contains(#"name="next" value="\#(location.replacingOccurrences(of: "=", with: "&#61;"))""#)
                    || page.contains(#"name="next" value="\#(location)""#), "\(next)")
        }
    }

    @Test("invite links are built from the public URL, never from the request", arguments: [nil, "https://cinn.example.org/"])
    func inviteLinks(publicURL: String?) async throws {
        try await withHostedApp(security: WebSecurity(publicURL: publicURL.flatMap(URL.init(string:)))) { client, accounts in
            _ = try await accounts.addUser(name: "root", password: "root-password-1", role: .admin)
            let login = try await client.post("/login", form: "name=root&password=root-password-1")
            var browser = Visitor(client: client, headers: [.cookie: try #require(sessionCookie(login))])
            browser.csrf = csrfToken(try await browser.send(.get, "/account").text)
            let page = try await browser.postShowingSecret("/account/invites").page
            let link = try #require(
                page.firstMatch(of: /<p class="secret" id="secret-value">([^<]*\/signup\?invite=[A-Za-z0-9_-]{43})<\/p>/)?.1,
                "\(page)")
            if publicURL == nil {
                #expect(link.hasPrefix("/signup?invite="), "without a public URL the page gives the path alone")
            } else {
                #expect(link.hasPrefix("https://cinn.example.org/signup?invite="))
            }
        }
    }

    @Test("changing the password revokes the API tokens unless asked not to")
    func passwordChangeRevokesTokens() async throws {
        try await withHostedApp { client, accounts in
            for (name, revoke) in [("alice", true), ("bob", false)] {
                let account = try await accounts.addUser(name: name, password: "\(name)-password-1", role: .member)
                let secret = try await accounts.createToken(name: "phone", user: account.user).secret
                let app = Visitor(client: client, headers: [.authorization: "Bearer " + secret])
                #expect(try await app.send(.get, "/api/v1/account").status == .ok)
                let login = try await client.post("/login", form: "name=\(name)&password=\(name)-password-1")
                var browser = Visitor(client: client, headers: [.cookie: try #require(sessionCookie(login))])
                let page = try await browser.send(.get, "/account").text
                #expect(page.contains(#"name="revoke_tokens" value="true" checked"#))
                browser.csrf = csrfToken(page)
                let change = try await browser.post(
                    "/account/password",
                    form: "current_password=\(name)-password-1&new_password=\(name)-password-2"
                        + (revoke ? "&revoke_tokens=true" : ""))
                #expect(change.status == .ok)
                #expect(change.text.contains(revoke ? "API tokens are revoked" : "logged out."))
                #expect(try await app.send(.get, "/api/v1/account").status == (revoke ? .unauthorized : .ok), "\(name)")
            }
        }
    }

    @Test("parallel guesses for one name pass the limit no more than it allows; someone else's failures lock out no other client")
    func throttleCountsBeforeChecking() async throws {
        try await withHostedApp(live: true) { client, accounts in
            _ = try await accounts.addUser(name: "alice", password: "alice-password-1", role: .member)
            let port = try #require(client.port)
            let statuses = try await concurrently(
                port: port, (0..<30).map { _ in Self.logIn("alice", "guess-guess-guess", client: "203.0.113.7") })
            #expect(statuses.filter { $0 == .unauthorized }.count <= 5, "\(statuses)")
            #expect(statuses.allSatisfy { [.unauthorized, .tooManyRequests].contains($0) }, "\(statuses)")
            #expect(statuses.filter { $0 == .tooManyRequests }.count >= 25)
            // Alice, from her own address behind the same proxy, still logs in.
            let alice = try await concurrently(port: port, [Self.logIn("alice", "alice-password-1", client: "198.51.100.20")])
            #expect(alice == [.created])
            // Made-up names of any length are not kept: only the client's count grows.
            let long = String(repeating: "x", count: 10_000)
            _ = try await concurrently(
                port: port, (0..<20).map { index in Self.logIn(long + "\(index)", "guess-guess-guess", client: "192.0.2.\(index)") })
            #expect(try await accounts.throttledKeyCount <= 3 + 20)
        }
    }

    @Test("a burst of log-ins is answered 503 beyond the password checks' cap, never 500, and others' requests go on")
    func loginBurstIsBounded() async throws {
        let configuration = AccountsConfiguration(signUp: .open, bcryptCost: 12, maximumPasswordChecks: 2)
        try await withHostedApp(configuration, live: true) { client, accounts in
            let bob = try await accounts.addUser(name: "bob", password: "bob-password-1", role: .member)
            let secret = try await accounts.createToken(name: "phone", user: bob.user).secret
            let port = try #require(client.port)
            async let burst = concurrently(
                port: port, (0..<40).map { index in Self.logIn("ghost\(index)", "guess-guess-guess", client: "10.0.0.\(index)") })
            try await Task.sleep(for: .milliseconds(50))
            let bobsCall = try await concurrently(
                port: port,
                [
                    TestClient.Request(
                        "/api/v1/weigh-ins", method: .get, authority: "localhost",
                        headers: [.authorization: "Bearer " + secret])
                ])
            #expect(bobsCall == [.ok])
            let statuses = try await burst
            #expect(statuses.allSatisfy { [.unauthorized, .serviceUnavailable].contains($0) }, "\(statuses)")
            #expect(statuses.contains(.serviceUnavailable))
        }
    }
}
