import CinnCore
import CinnStore
import Foundation
import JWTKit
import Testing

@testable import CinnJournal

/// The checks of an ID token and what a sign-in makes of it. The whole flow against a real provider, in a browser, is
/// e2e/test_oidc.py.
@Suite("Sign-in through an OpenID Connect provider")
struct OpenIDConnectTests {
    static let issuer = "https://id.example.org"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    func claims(
        iss: String = issuer, aud: [String] = ["cinn"], azp: String? = nil, exp: TimeInterval = 300, iat: TimeInterval = -10,
        nonce: String? = "n-123", sub: String = "248289761001"
    ) -> IDTokenClaims {
        IDTokenClaims(
            iss: iss, sub: sub, aud: AudienceClaim(value: aud), exp: ExpirationClaim(value: Self.now.addingTimeInterval(exp)),
            iat: IssuedAtClaim(value: Self.now.addingTimeInterval(iat)), nonce: nonce, azp: azp, email: "jane@example.org",
            preferred_username: nil, name: "Jane")
    }

    func check(_ claims: IDTokenClaims) throws -> OpenIDIdentity {
        try OpenIDConnect.check(claims, issuer: Self.issuer, clientID: "cinn", nonce: "n-123", now: Self.now, leeway: 10)
    }

    func refusal(_ why: String) -> CinnError { CinnError(.unauthenticated, "the identity provider's token was refused: " + why) }

    @Test("a token of this provider, for this client and sign-in, in its time, is accepted")
    func acceptsAGoodToken() throws {
        let identity = try check(claims())
        #expect(
            identity
                == OpenIDIdentity(
                    issuer: Self.issuer, subject: "248289761001", email: "jane@example.org", preferredUsername: nil, name: "Jane"))
        #expect(try check(claims(exp: -5)).subject == "248289761001", "expired 5 s ago is within the 10 s leeway")
        #expect(try check(claims(aud: ["cinn", "other"], azp: "cinn")).subject == "248289761001")
    }

    @Test("every claim that does not fit is refused, naming it")
    func refusesEachBadClaim() {
        #expect(throws: refusal("it was issued by https://evil.example, not \(Self.issuer)")) {
            try check(claims(iss: "https://evil.example"))
        }
        #expect(throws: refusal("it is for another application")) { try check(claims(aud: ["other"])) }
        #expect(throws: refusal("it was given to another application")) { try check(claims(aud: ["cinn", "other"])) }
        #expect(throws: refusal("it was given to another application")) { try check(claims(azp: "other")) }
        #expect(throws: refusal("it has expired")) { try check(claims(exp: -11)) }
        #expect(throws: refusal("it was issued in the future")) { try check(claims(iat: 400)) }
        #expect(throws: refusal("it is not for this sign-in (nonce)")) { try check(claims(nonce: "n-124")) }
        #expect(throws: refusal("it is not for this sign-in (nonce)")) { try check(claims(nonce: nil)) }
        #expect(throws: refusal("it names no subject")) { try check(claims(sub: "")) }
    }

    @Test("the signature is verified with the provider's keys: a token changed on its way, or signed by another key, is refused")
    func verifiesTheSignature() async throws {
        let key = ES256PrivateKey(), other = ES256PrivateKey()
        let signer = JWTKeyCollection()
        await signer.add(ecdsa: key, kid: "provider-1")
        let token = try await signer.sign(claims(), kid: "provider-1")
        let published = JWTKeyCollection()
        await published.add(ecdsa: key.publicKey, kid: "provider-1")
        try await withStore { store in
            let openID = OpenIDConnect(
                configuration: OpenIDConfiguration(
                    issuer: Self.issuer, clientID: "cinn", clientSecret: "s",
                    redirectURI: "https://cinn.example.org/login/oidc/callback"),
                store: store)
            let provider = OpenIDProvider(
                authorizationEndpoint: "", tokenEndpoint: "", jwksURI: "", postsSecret: false, keys: published,
                fetchedAt: Date())
            #expect(try await openID.verifySignature(token, provider: provider).sub == "248289761001")
            let parts = token.split(separator: ".").map(String.init)
            let forged = try JSONEncoder().encode(claims(sub: "someone-else"))
            let swapped = [parts[0], Accounts.base64URL(Array(forged)), parts[2]].joined(separator: ".")
            await #expect(throws: refusal("its signature does not verify")) {
                try await openID.verifySignature(swapped, provider: provider)
            }
            let impostor = JWTKeyCollection()
            await impostor.add(ecdsa: other, kid: "provider-1")
            let foreign = try await impostor.sign(claims(), kid: "provider-1")
            await #expect(throws: refusal("its signature does not verify")) {
                try await openID.verifySignature(foreign, provider: provider)
            }
            await #expect(throws: refusal("it cannot be read or verified")) {
                try await openID.verifySignature("not.a.token", provider: provider)
            }
        }
    }

    @Test("a provider that cannot be reached is named as such, not as a bad answer")
    func unreachableProvider() async throws {
        try await withStore { store in
            // Port 9 (discard) refuses connections on loopback.
            let openID = OpenIDConnect(
                configuration: OpenIDConfiguration(
                    issuer: "http://127.0.0.1:9", clientID: "cinn", clientSecret: "s",
                    redirectURI: "http://127.0.0.1:8080/login/oidc/callback"),
                store: store)
            await #expect(
                throws: CinnError(.upstreamFailed, "Cinn cannot reach the identity provider's discovery document; try again later")
            ) {
                _ = try await openID.start(next: nil, invite: nil)
            }
        }
    }

    func identity(_ subject: String, username: String? = nil, email: String? = nil) -> OpenIDIdentity {
        OpenIDIdentity(issuer: Self.issuer, subject: subject, email: email, preferredUsername: username, name: nil)
    }

    func login(invite: String? = nil, linking user: UserID? = nil) -> PendingOpenIDLogin {
        PendingOpenIDLogin(nonce: "n", codeVerifier: "v", next: nil, invite: invite, linkUser: user)
    }

    @Test(
        "on an open server a new identity makes an account (the first an administrator); the same identity is the same account",
        arguments: Database.enabled)
    func openSignUp(_ database: Database) async throws {
        try await withStore(database) { store in
            let accounts = Accounts(store: store, configuration: AccountsConfiguration(signUp: .open, bcryptCost: 4))
            let jane = try await accounts.signIn(identity("1", email: "Jane.Doe@example.org"), login: login())
            #expect(jane.name == "jane.doe" && jane.role == .admin && !jane.hasPassword)
            #expect(try await accounts.signIn(identity("1", email: "Jane.Doe@example.org"), login: login()) == jane)
            let other = try await accounts.signIn(identity("2", email: "jane.doe@elsewhere.org"), login: login())
            #expect(other.name == "jane.doe-2" && other.role == .member, "a taken name gets a number")
            #expect(
                try await accounts.signIn(identity("3", username: "Ö!"), login: login()).name == "user---", "odd names become valid ones")
            await #expect(throws: CinnError(.unauthenticated, "wrong name or password")) {
                try await accounts.authenticate(name: "jane.doe", password: "any-password-1", client: "203.0.113.1")
            }
        }
    }

    @Test(
        "an invite-only server needs an invite; a closed one makes no account; a logged-in person links their identity",
        arguments: Database.enabled)
    func signUpPolicies(_ database: Database) async throws {
        try await withStore(database) { store in
            let invited = Accounts(store: store, configuration: AccountsConfiguration(signUp: .invite, bcryptCost: 4))
            let admin = try await invited.addUser(name: "anna", password: "anna-password-1", role: .admin)
            await #expect(throws: CinnError.self) { try await invited.signIn(identity("10", email: "ben@example.org"), login: login()) }
            let code = try await invited.createInvite(by: admin)
            let ben = try await invited.signIn(identity("10", email: "ben@example.org"), login: login(invite: code))
            #expect(ben.name == "ben" && ben.role == .member)
            await #expect(throws: CinnError.invalid("invite", "this invite is unknown, used or expired")) {
                try await invited.signIn(identity("11", email: "cleo@example.org"), login: login(invite: code))
            }

            let closed = Accounts(store: store, configuration: AccountsConfiguration(signUp: .closed, bcryptCost: 4))
            await #expect(throws: CinnError.self) { try await closed.signIn(identity("12"), login: login()) }
            #expect(try await closed.signIn(identity("12"), login: login(linking: admin.user)) == admin, "anna links it")
            #expect(try await closed.signIn(identity("12"), login: login()) == admin, "and signs in with it")
            await #expect(throws: CinnError(.conflict, "this sign-in is already linked to another account")) {
                try await closed.signIn(identity("10"), login: login(linking: admin.user))
            }
        }
    }

    @Test("with passwords off, password log-in and sign-up are refused")
    func passwordsOff() async throws {
        try await withStore { store in
            let openID = OpenIDConfiguration(
                issuer: Self.issuer, clientID: "cinn", clientSecret: "s", displayName: "Example ID",
                redirectURI: "https://cinn.example.org/login/oidc/callback")
            let accounts = Accounts(
                store: store, configuration: AccountsConfiguration(signUp: .open, bcryptCost: 4, openID: openID, passwords: false))
            let refusal = CinnError(.forbidden, "this server signs in with Example ID only, not with passwords")
            await #expect(throws: refusal) { try await accounts.signUp(name: "zoe", password: "zoe-password-1", invite: nil) }
            _ = try await accounts.addUser(name: "yan", password: "yan-password-1", role: .member)
            await #expect(throws: refusal) {
                try await accounts.authenticate(name: "yan", password: "yan-password-1", client: "203.0.113.1")
            }
        }
    }
}
