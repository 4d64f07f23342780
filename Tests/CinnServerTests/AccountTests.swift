import CinnCore
import CinnJournal
import CinnStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CinnServer

/// Someone using a hosted server: by bearer token (an app) or by session cookie and CSRF token (a browser).
struct Visitor: Sendable {
    let client: any TestClientProtocol
    var headers: HTTPFields = [:]
    var csrf: String?

    @discardableResult
    func send(_ method: HTTPRequest.Method, _ uri: String, body: String? = nil, contentType: String? = nil) async throws -> TestResponse {
        var headers = self.headers
        if let contentType { headers[.contentType] = contentType }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    @discardableResult
    func send(_ method: HTTPRequest.Method, _ uri: String, json: String) async throws -> TestResponse {
        try await send(method, uri, body: json, contentType: "application/json")
    }

    /// Posts a form with the session's CSRF token.
    @discardableResult
    func post(_ uri: String, form: String = "") async throws -> TestResponse {
        let token = csrf.map { "_csrf=" + $0 } ?? ""
        return try await send(
            .post, uri, body: [form, token].filter { !$0.isEmpty }.joined(separator: "&"),
            contentType: "application/x-www-form-urlencoded")
    }
}

extension Visitor {
    /// Posts a form that makes a secret (a token, an invite) and follows the redirect to the account page that shows it
    /// once, with the sealed cookie the answer set: that page, and the cookie it clears.
    func postShowingSecret(_ uri: String, form: String = "") async throws -> (page: String, cleared: Bool) {
        let made = try await post(uri, form: form)
        #expect(made.status == .seeOther && made.headers[.location] == "/account#new-secret", "post, redirect, get")
        let shown = try #require(made.headers[values: .setCookie].first { $0.hasPrefix("cinn_shown=") })
        #expect(shown.contains("HttpOnly") && shown.contains("SameSite=Strict") && shown.contains("Path=/account"))
        var visitor = self
        visitor.headers[.cookie] = [headers[.cookie], shown.split(separator: ";").first.map(String.init)].compactMap { $0 }
            .joined(separator: "; ")
        let page = try await visitor.send(.get, "/account")
        let cleared = page.headers[values: .setCookie].contains { $0.hasPrefix("cinn_shown=;") || $0.hasPrefix("cinn_shown=\"\"") }
        return (page.text, cleared)
    }
}

@Suite struct ShownOnceTests {
    @Test func aSealedSecretOpensOnlyInTheSessionThatSealedIt() throws {
        let secret = ShownOnce.Secret(label: "Your new token “xDrip phone”", value: "cinn_abc")
        let sealed = try ShownOnce.seal(secret, session: "session-one")
        #expect(ShownOnce.open(sealed, session: "session-one") == secret)
        #expect(ShownOnce.open(sealed, session: "session-two") == nil, "another session cannot read it")
        #expect(ShownOnce.open("forged" + sealed.dropFirst(6), session: "session-one") == nil, "nor can it be forged")
        #expect(
            ShownOnce.open("", session: "session-one") == nil && ShownOnce.open(String(repeating: "A", count: 5000), session: "x") == nil)
    }
}

/// The session cookie a log-in or sign-up response sets.
func sessionCookie(_ response: TestResponse) -> String? {
    response.headers[values: .setCookie].first { $0.hasPrefix("cinn_session=") }?.split(separator: ";").first.map(String.init)
}

/// The CSRF token of the first form on a page.
func csrfToken(_ html: String) -> String? {
    guard let range = html.range(of: #"name="_csrf" value=""#) else { return nil }
    return String(html[range.upperBound...].prefix { $0 != "\"" })
}

@Suite("Accounts: hosted mode")
struct AccountTests {
    static let fastHashing = AccountsConfiguration(signUp: .open, bcryptCost: 4)

    /// A hosted app (fixed clock) over a fresh store.
    func withHostedApp(
        _ configuration: AccountsConfiguration = fastHashing,
        _ body: @Sendable (any TestClientProtocol, Accounts) async throws -> Void
    ) async throws {
        try await withStore { store in
            let journal = try await utcJournal(store)
            let accounts = Accounts(store: store, configuration: configuration)
            try await Application(router: buildRouter(journal: journal, accounts: accounts)).test(.router) { client in
                try await body(client, accounts)
            }
        }
    }

    /// A user added as `cinn user add` does, with a bearer token, and their time zone set to UTC.
    func tokenVisitor(_ client: any TestClientProtocol, _ accounts: Accounts, _ name: String, role: AccountRole = .member) async throws -> (
        Visitor, Account
    ) {
        let account = try await accounts.addUser(name: name, password: "\(name)-password-1", role: role)
        try await accounts.store.saveSettings(UserSettings(timeZoneIdentifier: "UTC", onboarded: true), user: account.user)
        let secret = try await accounts.createToken(name: "test", user: account.user).secret
        return (Visitor(client: client, headers: [.authorization: "Bearer " + secret]), account)
    }

    /// Logs in through the form and keeps the cookie and the CSRF token of the account page.
    func browserVisitor(_ client: any TestClientProtocol, name: String, password: String) async throws -> Visitor {
        let response = try await Visitor(client: client).send(
            .post, "/login", body: "name=\(name)&password=\(password)",
            contentType: "application/x-www-form-urlencoded")
        #expect(response.status == .seeOther)
        let cookie = try #require(sessionCookie(response))
        var visitor = Visitor(client: client, headers: [.cookie: cookie])
        visitor.csrf = csrfToken(try await visitor.send(.get, "/account").text)
        #expect(visitor.csrf != nil)
        return visitor
    }

    @Test func withoutProofTheAPIAnswers401AndPagesAskToLogIn() async throws {
        try await withHostedApp { client, _ in
            let stranger = Visitor(client: client)
            try expectError(try await stranger.send(.get, "/api/v1/weigh-ins"), .unauthorized, code: "unauthenticated")
            try expectError(
                try await stranger.send(.post, "/api/v1/weigh-ins", json: #"{"weight":80}"#), .unauthorized, code: "unauthenticated")
            var forged = stranger
            forged.headers[.authorization] = "Bearer cinn_not-a-real-token"
            try expectError(try await forged.send(.get, "/api/v1/weigh-ins"), .unauthorized, code: "unauthenticated")
            let page = try await stranger.send(.get, "/food/2024-03-01?x=1")
            #expect(page.status == .seeOther)
            #expect(page.headers[.location] == "/login?next=/food/2024-03-01%3Fx%3D1")
            #expect(
                try await stranger.send(.post, "/weigh-ins", body: "weight=80", contentType: "application/x-www-form-urlencoded").status
                    == .seeOther)
            #expect(try await stranger.send(.get, "/login").status == .ok)
            #expect(try await stranger.send(.get, "/health").status == .ok)
            #expect(try await stranger.send(.get, "/api/openapi.yaml").status == .ok)
            #expect(!(try await stranger.send(.get, "/login").text.contains("nav class=\"tabs\"")), "no tabs before logging in")
        }
    }

    @Test func signUpLogInAndOutWithACookieThatScriptsCannotRead() async throws {
        try await withHostedApp { client, accounts in
            let signup = try await Visitor(client: client).send(
                .post, "/signup", body: "name=Alice&password=correct-horse-1",
                contentType: "application/x-www-form-urlencoded")
            #expect(signup.status == .seeOther)
            let setCookie = try #require(signup.headers[values: .setCookie].first)
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax") && setCookie.contains("Path=/"))
            #expect(!setCookie.contains("Secure"), "not behind TLS unless configured")
            #expect(try await accounts.store.accounts().first { $0.name == "alice" }?.role == .admin, "the first account of an open server")

            let alice = try await browserVisitor(client, name: "alice", password: "correct-horse-1")
            #expect(try await alice.send(.get, "/more").text.contains(#"<p>Logged in as <b>alice</b></p>"#))
            #expect(try await alice.post("/weigh-ins", form: "weight=80&date=2024-03-01").status == .seeOther)
            #expect(
                try await accounts.store.weighInCount(
                    user: try #require(try await accounts.store.accountForLogIn(named: "alice")).account.user) == 1)

            #expect(try await alice.post("/logout").status == .seeOther)
            #expect(try await alice.send(.get, "/weigh-ins").status == .seeOther, "the old cookie no longer works")

            let wrong = try await Visitor(client: client).send(
                .post, "/login", body: "name=alice&password=nope-nope-nope",
                contentType: "application/x-www-form-urlencoded")
            #expect(wrong.status == .unauthorized)
            #expect(wrong.text.contains("wrong name or password"))
            #expect(sessionCookie(wrong) == nil)
            let unknown = try await Visitor(client: client).send(
                .post, "/login", body: "name=nobody&password=nope-nope-nope",
                contentType: "application/x-www-form-urlencoded")
            #expect(unknown.text.contains("wrong name or password"), "an unknown name answers like a wrong password")
        }
    }

    @Test func secureCookiesBehindTLS() async throws {
        var configuration = Self.fastHashing
        configuration.secureCookies = true
        try await withHostedApp(configuration) { client, _ in
            let signup = try await Visitor(client: client).send(
                .post, "/signup", body: "name=alice&password=correct-horse-1",
                contentType: "application/x-www-form-urlencoded")
            #expect(signup.headers[values: .setCookie].first?.contains("Secure") == true)
        }
    }

    @Test func formsWithoutTheCSRFTokenAreRefused() async throws {
        try await withHostedApp { client, accounts in
            _ = try await accounts.addUser(name: "alice", password: "alice-password-1", role: .member)
            var alice = try await browserVisitor(client, name: "alice", password: "alice-password-1")
            let page = try await alice.send(.get, "/import").text
            #expect(page.contains(#"action="/import?_csrf="#), "an upload carries the token in its action")
            #expect(page.contains(#"#import-form" enctype="multipart/form-data""#), "before the action's fragment")
            for form in page.components(separatedBy: "<form").dropFirst() where form.hasPrefix(" ") && form.contains(#"method="post""#) {
                #expect(form.contains(#"name="_csrf""#), "every form that posts carries the token: <form\(form.prefix(120))")
            }
            let token = alice.csrf
            alice.csrf = nil
            try expectHTML(try await alice.post("/weigh-ins", form: "weight=80"), .forbidden)
            alice.csrf = "not-the-token"
            try expectHTML(try await alice.post("/weigh-ins", form: "weight=80"), .forbidden)
            // The API through the cookie (the page's own scripts) needs the header.
            alice.csrf = token
            try expectError(
                try await alice.send(.post, "/api/v1/weigh-ins", json: #"{"weight":80,"date":"2024-03-01"}"#), .forbidden, code: "forbidden"
            )
            var withHeader = alice
            withHeader.headers[HTTPField.Name("X-CSRF-Token")!] = try #require(token)
            #expect(try await withHeader.send(.post, "/api/v1/weigh-ins", json: #"{"weight":80,"date":"2024-03-01"}"#).status == .created)
            #expect(try await alice.post("/weigh-ins", form: "weight=81&date=2024-03-02").status == .seeOther)
        }
    }

    func expectHTML(_ response: TestResponse, _ status: HTTPResponse.Status, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.headers[.contentType]?.hasPrefix("text/html") == true, sourceLocation: sourceLocation)
    }

    @Test func signUpPolicies() async throws {
        var invite = Self.fastHashing
        invite.signUp = .invite
        try await withHostedApp(invite) { client, accounts in
            let form = "application/x-www-form-urlencoded"
            let without = try await Visitor(client: client).send(
                .post, "/signup", body: "name=bob&password=bob-password-1", contentType: form)
            #expect(without.status == .unprocessableContent)
            #expect(without.text.contains("sign-up needs an invite"))
            let member = try await accounts.addUser(name: "carol", password: "carol-password-1", role: .member)
            await #expect(throws: CinnError.self, "only administrators invite") { _ = try await accounts.createInvite(by: member) }
            let admin = try await accounts.addUser(name: "root", password: "root-password-1", role: .admin)
            let code = try await accounts.createInvite(by: admin)
            #expect(try await Visitor(client: client).send(.get, "/signup?invite=\(code)").text.contains(#"value="\#(code)""#))
            let made = try await Visitor(client: client).send(
                .post, "/signup", body: "name=bob&password=bob-password-1&invite=\(code)", contentType: form)
            #expect(made.status == .seeOther)
            let again = try await Visitor(client: client).send(
                .post, "/signup", body: "name=dave&password=dave-password-1&invite=\(code)", contentType: form)
            #expect(again.status == .unprocessableContent, "an invite is used once")
            #expect(try await accounts.store.accountForLogIn(named: "dave") == nil, "nothing is half-made")
            let rootBrowser = try await browserVisitor(client, name: "root", password: "root-password-1")
            let invitePage = try await rootBrowser.postShowingSecret("/account/invites").page
            let webCode = try #require(invitePage.firstMatch(of: /\/signup\?invite=([A-Za-z0-9_-]{43})</)?.1)
            #expect(
                try await Visitor(client: client).send(
                    .post, "/signup", body: "name=erin&password=erin-password-1&invite=\(webCode)",
                    contentType: form
                ).status == .seeOther)
            #expect(
                try await rootBrowser.send(.get, "/account").text.contains("<td>erin</td>"), "an administrator sees who is on the server")
            let memberBrowser = try await browserVisitor(client, name: "carol", password: "carol-password-1")
            try expectHTML(try await memberBrowser.post("/account/invites"), .forbidden)
            let taken = try await accounts.createInvite(by: admin)
            let clash = try await Visitor(client: client).send(
                .post, "/signup", body: "name=BOB&password=bob-password-2&invite=\(taken)", contentType: form)
            #expect(clash.status == .conflict)
            #expect(clash.text.contains("taken"))
            let short = try await Visitor(client: client).send(
                .post, "/signup", body: "name=eve&password=short&invite=\(taken)", contentType: form)
            #expect(short.status == .unprocessableContent)
            #expect(short.text.contains("at least 10 characters"))
        }
        var closed = Self.fastHashing
        closed.signUp = .closed
        try await withHostedApp(closed) { client, _ in
            #expect(try await Visitor(client: client).send(.get, "/signup").text.contains("Sign-up is closed"))
            let refused = try await Visitor(client: client).send(
                .post, "/signup", body: "name=bob&password=bob-password-1",
                contentType: "application/x-www-form-urlencoded")
            #expect(refused.status == .forbidden)
        }
    }

    @Test func repeatedFailedLogInsAreRefusedForAWhile() async throws {
        try await withHostedApp { client, accounts in
            _ = try await accounts.addUser(name: "alice", password: "alice-password-1", role: .member)
            let anyone = Visitor(client: client)
            for _ in 0..<5 {
                try expectError(
                    try await anyone.send(.post, "/api/v1/login", json: #"{"name":"alice","password":"guess-guess-guess"}"#),
                    .unauthorized, code: "unauthenticated")
            }
            let locked = try await anyone.send(.post, "/api/v1/login", json: #"{"name":"alice","password":"alice-password-1"}"#)
            try expectError(locked, .tooManyRequests, code: "too_many_requests")
            #expect(try locked.json()["error"]?["message"]?.string?.contains("15 minutes") == true)
        }
    }

    @Test func appsLogInForABearerTokenAndManageTheirTokens() async throws {
        try await withHostedApp { client, accounts in
            _ = try await accounts.addUser(name: "alice", password: "alice-password-1", role: .member)
            let login = try await Visitor(client: client).send(
                .post, "/api/v1/login",
                json: #"{"name":"Alice","password":"alice-password-1","token_name":"Phone"}"#)
            #expect(login.status == .created)
            let secret = try #require(try login.json()["token"]?.string)
            #expect(secret.hasPrefix("cinn_") && secret.count == 48)
            let alice = Visitor(client: client, headers: [.authorization: "Bearer " + secret])
            #expect(try await alice.send(.get, "/api/v1/account").json()["name"]?.string == "alice")
            let second = try await alice.send(.post, "/api/v1/tokens", json: #"{"name":"Laptop"}"#).json()
            let tokens = try await alice.send(.get, "/api/v1/tokens").json()["tokens"]?.array ?? []
            #expect(tokens.compactMap { $0["name"]?.string } == ["Laptop", "Phone"])
            #expect(tokens.allSatisfy { $0["token"] == nil }, "a token's secret is shown once")
            let laptop = Visitor(client: client, headers: [.authorization: "Bearer " + (try #require(second["token"]?.string))])
            #expect(try await laptop.send(.get, "/api/v1/weigh-ins").status == .ok)
            #expect(try await alice.send(.delete, "/api/v1/tokens/\(try #require(second["id"]?.string))").status == .noContent)
            try expectError(try await laptop.send(.get, "/api/v1/weigh-ins"), .unauthorized, code: "unauthenticated")
            #expect(try await alice.send(.get, "/api/v1/weigh-ins").status == .ok)
        }
    }

    @Test func changingThePasswordEndsOtherSessions() async throws {
        try await withHostedApp { client, accounts in
            _ = try await accounts.addUser(name: "alice", password: "alice-password-1", role: .member)
            let here = try await browserVisitor(client, name: "alice", password: "alice-password-1")
            let there = try await browserVisitor(client, name: "alice", password: "alice-password-1")
            let wrong = try await here.post("/account/password", form: "current_password=nope-nope-nope&new_password=alice-password-2")
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.text.contains("not your current password"))
            #expect(
                try await here.post("/account/password", form: "current_password=alice-password-1&new_password=alice-password-2").status
                    == .ok)
            #expect(try await here.send(.get, "/account").status == .ok, "this browser stays logged in")
            let (made, cleared) = try await here.postShowingSecret("/account/tokens", form: "name=Kitchen+tablet")
            #expect(made.contains(#"<p class="secret" id="secret-value">cinn_"#), "a new token is shown once")
            #expect(made.contains(#"data-copy="secret-value""#) && cleared, "with a copy button; the page clears what it showed")
            let listed = try await here.send(.get, "/account").text
            #expect(listed.contains("<td>Kitchen tablet</td>") && !listed.contains(#"class="secret""#))
            #expect(
                listed.contains("Also revoke my API tokens: “Kitchen tablet” (these apps and scripts log in again)"),
                "the password change names the tokens it would revoke")
            let tokenID = try #require(listed.firstMatch(of: /action="\/account\/tokens\/([0-9a-f-]{36})\/revoke"/)?.1)
            #expect(try await here.post("/account/tokens/\(tokenID)/revoke").status == .seeOther)
            #expect(try await here.send(.get, "/account").text.contains("revoked"))
            #expect(try await there.send(.get, "/account").status == .seeOther, "the other one is logged out")
            _ = try await browserVisitor(client, name: "alice", password: "alice-password-2")
            let alice = try #require(try await accounts.store.accountForLogIn(named: "alice")).account
            let app = Visitor(
                client: client,
                headers: [.authorization: "Bearer " + (try await accounts.createToken(name: "phone", user: alice.user).secret)])
            try await accounts.resetPassword(name: "alice", password: "alice-password-3", revokingTokens: false)
            #expect(try await here.send(.get, "/account").status == .seeOther, "a reset ends every session")
            #expect(try await app.send(.get, "/api/v1/account").status == .ok, "--keep-tokens keeps the tokens")
            try await accounts.resetPassword(name: "alice", password: "alice-password-4")
            #expect(try await app.send(.get, "/api/v1/account").status == .unauthorized, "by default a reset revokes the tokens")
        }
    }

    // MARK: Isolation

    @Test func anUploadWaitingToBeImportedIsItsOwnersOnly() async throws {
        try await withHostedApp { client, accounts in
            _ = try await accounts.addUser(name: "alice", password: "alice-password-1", role: .member)
            _ = try await accounts.addUser(name: "bob", password: "bob-password-1", role: .member)
            let alice = try await browserVisitor(client, name: "alice", password: "alice-password-1")
            let bob = try await browserVisitor(client, name: "bob", password: "bob-password-1")
            let progress = UUID().uuidString.lowercased()
            let boundary = "----cinn-test"
            let body =
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"progress\"\r\n\r\n\(progress)\r\n"
                + "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"w.csv\"\r\nContent-Type: text/csv\r\n\r\n"
                + threeDays + "\r\n--\(boundary)--\r\n"
            let check = try await alice.send(
                .post, "/import?_csrf=\(try #require(alice.csrf))", body: body,
                contentType: "multipart/form-data; boundary=\(boundary)")
            #expect(check.status == .ok)
            let token = try #require(check.text.firstMatch(of: /action="\/import\/([0-9a-f-]{36})/)?.1)
            #expect(try await alice.send(.get, "/import/progress/\(progress)").status == .ok)
            #expect(try await bob.send(.get, "/import/progress/\(progress)").status == .notFound, "another user's progress is not found")
            #expect(try await bob.post("/import/\(token)").status == .notFound, "another user's upload is not found")
            #expect(try await alice.post("/import/\(token)").text.contains("Imported"), "and it is still there for its owner")
            let aliceUser = try #require(try await accounts.store.accountForLogIn(named: "alice")).account.user
            let bobUser = try #require(try await accounts.store.accountForLogIn(named: "bob")).account.user
            #expect(try await accounts.store.weighInCount(user: aliceUser) == 3)
            #expect(try await accounts.store.weighInCount(user: bobUser) == 0)
        }
    }

    /// Every route, as Bob, aimed at Alice's records: none answers with her data or changes it.
    @Test func noRouteLetsOneUserReachAnothersRecords() async throws {
        try await withStore { store in
            let journal = try await utcJournal(store)
            let accounts = Accounts(store: store, configuration: Self.fastHashing)
            let router = buildRouter(journal: journal, accounts: accounts)
            let routes = router.routes.map { (method: $0.method, template: $0.path.description) }
            try await Application(router: router).test(.router) { client in
                let (alice, _) = try await tokenVisitor(client, accounts, "alice")
                let (bobAPI, _) = try await tokenVisitor(client, accounts, "bob")
                let bobWeb = try await browserVisitor(client, name: "bob", password: "bob-password-1")
                let ids = try await makeRecords(alice)
                let before = try await fingerprint(alice)
                #expect(before.contains("Alice's granola"))

                var checked = 0
                for (method, template) in routes {
                    guard !template.hasPrefix("/login"), !template.hasPrefix("/signup"), template != "/logout",
                        !template.hasPrefix("/api/v1/login")
                    else { continue }
                    let (path, aimsAtAlice) = Self.fill(template, ids)
                    let visitor = path.hasPrefix("/api/") ? bobAPI : bobWeb
                    // A body naming Alice's records where a route takes ids in its body (an alias, a meal event).
                    let json =
                        #"{"weight":1,"name":"x","exercise":"\#(ids.exercise)","times":1,"reason":"x","meal_id":"\#(ids.meal)","value":100,"units":1,"kind":"bolus"}"#
                    let response =
                        if method == .post, !path.hasPrefix("/api/") {
                            try await visitor.post(path, form: "weight=1&name=x&date=2024-03-01&meal_id=\(ids.meal)&value=100&units=1")
                        } else if [.post, .put, .patch].contains(method) {
                            try await visitor.send(method, path, json: json)
                        } else {
                            try await visitor.send(method, path)
                        }
                    // An id Bob sent may come back in an error ("no meal with id …"); nothing else of Alice's may.
                    let sent = (path + json).lowercased(), answer = response.text.lowercased()
                    for secret in ids.secrets.map({ $0.lowercased() }) where !sent.contains(secret) {
                        #expect(!answer.contains(secret), "\(method) \(path) answered with Alice's \(secret)")
                    }
                    if aimsAtAlice {
                        #expect(
                            [.notFound, .unprocessableContent, .badRequest].contains(response.status),
                            "\(method) \(path) → \(response.status)")
                    }
                    checked += 1
                }
                #expect(checked > 80, "every route: \(checked)")
                let after = try await fingerprint(alice)
                #expect(after == before, "Bob changed nothing of Alice's")
            }
        }
    }

    struct AliceRecords {
        var weighIn = "", food = "", entry = "", preset = "", workout = "", exercise = "", importID = "", token = ""
        var glucose = "", insulin = "", meal = "", mealEvent = ""
        /// Text only Alice's records hold.
        var secrets: [String] {
            [
                weighIn, food, entry, preset, workout, exercise, glucose, insulin, meal, mealEvent, "Alice's granola", "Alice Press",
                "alice-secret-note", "Alice's porridge", "Alice-Humalog",
            ]
        }
    }

    /// One of each kind of record, made by Alice through the API.
    func makeRecords(_ alice: Visitor) async throws -> AliceRecords {
        var ids = AliceRecords()
        ids.weighIn = try #require(
            try await alice.send(.post, "/api/v1/weigh-ins", json: #"{"weight":81.7,"date":"2024-03-01","note":"alice-secret-note"}"#)
                .json()["id"]?.string)
        ids.food = try #require(
            try await alice.send(
                .post, "/api/v1/foods",
                json: #"{"name":"Alice's granola","serving":{"label":"1 bar","grams":40},"nutrients":{"energy":180}}"#
            )
            .json()["id"]?.string)
        ids.entry = try #require(
            try await alice.send(
                .post, "/api/v1/food-entries", json: #"{"entries":[{"food_id":"\#(ids.food)","date":"2024-03-01","grams":40}]}"#
            )
            .json()["entries"]?.array?.first?["id"]?.string)
        ids.preset = try #require(
            try await alice.send(.post, "/api/v1/presets", json: #"{"name":"Bar","food_id":"\#(ids.food)"}"#).json()["id"]?.string)
        let fitbod = """
            Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),Incline,Resistance,isWarmup,Note,multiplier
            2024-03-14 18:00:00 +0000,Alice Press,5,50,0,0,0,0,false,,1
            """
        let imported = try await alice.send(.post, "/api/v1/imports", body: fitbod, contentType: "text/csv").json()
        ids.importID = String(Int(try #require(imported["import_id"]?.double)))
        ids.workout = try #require(try await alice.send(.get, "/api/v1/workouts").json()["workouts"]?.array?.first?["id"]?.string)
        ids.exercise = try #require(try await alice.send(.get, "/api/v1/exercises").json()["exercises"]?.array?.first?["id"]?.string)
        ids.token = try #require(try await alice.send(.get, "/api/v1/tokens").json()["tokens"]?.array?.first?["id"]?.string)
        try await alice.send(.put, "/api/v1/goal", json: #"{"weight":70}"#)
        ids.glucose = try #require(
            try await alice.send(.post, "/api/v1/glucose", json: #"{"value":123,"time":"2024-03-01T08:00:00Z","note":"alice-secret-note"}"#)
                .json()["id"]?.string)
        ids.insulin = try #require(
            try await alice.send(
                .post, "/api/v1/insulin", json: #"{"units":3,"kind":"bolus","insulin":"Alice-Humalog","time":"2024-03-01T08:00:00Z"}"#
            )
            .json()["id"]?.string)
        ids.meal = try #require(
            try await alice.send(.post, "/api/v1/meals", json: #"{"name":"Alice's porridge","carbohydrate_g":40}"#).json()["id"]?.string)
        ids.mealEvent = try #require(
            try await alice.send(.post, "/api/v1/meal-events", json: #"{"meal_id":"\#(ids.meal)","time":"2024-03-01T08:05:00Z"}"#)
                .json()["id"]?.string)
        return ids
    }

    /// A route's path with its parameters filled: Alice's record of that kind where there is one.
    static func fill(_ template: String, _ ids: AliceRecords) -> (path: String, aimsAtAlice: Bool) {
        let kinds: [(prefix: String, id: String)] = [
            ("/api/v1/weigh-ins/", ids.weighIn), ("/weigh-ins/", ids.weighIn), ("/api/v1/foods/", ids.food), ("/food/foods/", ids.food),
            ("/food/log/", ids.food), ("/api/v1/food-entries/", ids.entry), ("/food/entries/", ids.entry), ("/api/v1/presets/", ids.preset),
            ("/food/presets/", ids.preset), ("/api/v1/workouts/", ids.workout), ("/workouts/", ids.workout),
            ("/api/v1/exercises/", ids.exercise),
            ("/lifts/", ids.exercise), ("/api/v1/imports/", ids.importID), ("/imports/", ids.importID), ("/api/v1/tokens/", ids.token),
            ("/account/tokens/", ids.token), ("/api/v1/glucose/", ids.glucose), ("/api/v1/insulin/", ids.insulin),
            ("/api/v1/meals/", ids.meal),
            ("/api/v1/meal-events/", ids.mealEvent), ("/glucose/readings/", ids.glucose), ("/glucose/insulin/", ids.insulin),
            ("/glucose/meals/", ids.meal), ("/glucose/meal-events/", ids.mealEvent),
        ]
        guard template.contains("{") else { return (template, false) }
        var path = template
        var aims = false
        if let range = path.range(of: "{id}") {
            let id = kinds.first { template.hasPrefix($0.prefix + "{id}") }?.id ?? UUID().uuidString.lowercased()
            aims = kinds.contains { template.hasPrefix($0.prefix + "{id}") }
            path.replaceSubrange(range, with: id)
        }
        path = path.replacingOccurrences(of: "{date}", with: "2024-03-01").replacingOccurrences(of: "{token}", with: UUID().uuidString)
            .replacingOccurrences(of: "{barcode}", with: "4006381333931")
        return (path, aims)
    }

    /// Everything of Alice's, as the API shows it to her.
    func fingerprint(_ alice: Visitor) async throws -> String {
        var text = ""
        for path in [
            "/api/v1/weigh-ins", "/api/v1/goal", "/api/v1/settings", "/api/v1/foods?mine=true",
            "/api/v1/food-entries?from=2024-01-01&to=2024-12-31",
            "/api/v1/presets", "/api/v1/workouts", "/api/v1/exercises", "/api/v1/imports", "/api/v1/tokens", "/api/v1/profile",
            "/api/v1/days/2024-03-01", "/api/v1/export?format=json", "/api/v1/glucose?from=2024-01-01",
            "/api/v1/insulin?from=2024-01-01&to=2024-12-31", "/api/v1/meals", "/api/v1/meal-events?from=2024-01-01&to=2024-12-31",
            "/api/v1/glucose/report?days=366&to=2024-12-31",
        ] {
            var answer = try await alice.send(.get, path).text
            // When Alice's token was last used is her own doing (these very requests, noted at most once a minute),
            // not Bob's: a slow run crosses that minute.
            if path == "/api/v1/tokens", let range = answer.range(of: #""last_used_at":"[^"]*""#, options: .regularExpression) {
                answer.removeSubrange(range)
            }
            text += path + ": " + answer + "\n"
        }
        return text
    }
}

/// The shared food database in hosted mode: only an administrator imports into it.
@Suite("Accounts: food database imports")
struct FoodDatabaseImportTests {
    static let usdaRows = """
        foodName,data_type,food_category,portion_unit_name,portion_gram_weight,number_of_nutrients,Energy,Protein
        "GRANOLA, HONEY ALMOND",branded_food,Cereal,1 cup,55.0,2,450.0,10.0
        "OAT BAR, CHOC",branded_food,Snacks,1 bar,40.0,2,420.0,7.5
        """

    @Test func aMemberIsRefusedAndAnAdministratorImportsWithTheWebPage() async throws {
        try await AccountTests().withHostedApp { client, accounts in
            let (member, _) = try await AccountTests().tokenVisitor(client, accounts, "alice")
            let refused = try await member.send(.post, "/api/v1/imports?format=usda", body: Self.usdaRows, contentType: "text/csv")
            try expectError(refused, .forbidden, code: "forbidden")
            #expect(try await accounts.store.hasImportedFoods() == false)

            let (admin, _) = try await AccountTests().tokenVisitor(client, accounts, "root", role: .admin)
            let imported = try await admin.send(
                .post, "/api/v1/imports?format=usda&file_name=fooddata.csv", body: Self.usdaRows,
                contentType: "text/csv")
            #expect(imported.status == .created, "\(imported.text)")
            #expect(try imported.json()["imported"]?.double == 2)
            #expect(try await accounts.store.hasImportedFoods())
            // Everyone searches what the administrator imported.
            let found = try await member.send(.get, "/api/v1/foods/search?q=granola").json()
            #expect(found["results"]?.array?.first?["name"]?.string == "GRANOLA, HONEY ALMOND")

            // The import page offers the food databases to the administrator only.
            _ = try await accounts.addUser(name: "bob", password: "bob-password-1", role: .member)
            let bob = try await AccountTests().browserVisitor(client, name: "bob", password: "bob-password-1")
            #expect(!(try await bob.send(.get, "/import").text.contains(#"<option value="usda">"#)))
            _ = try await accounts.addUser(name: "carol", password: "carol-password-1", role: .admin)
            let carol = try await AccountTests().browserVisitor(client, name: "carol", password: "carol-password-1")
            #expect(try await carol.send(.get, "/import").text.contains(#"<option value="usda">"#))
        }
    }
}
