import AsyncHTTPClient
import CinnCore
import CinnStore
import Crypto
import Foundation
import JWTKit
import NIOCore
import Synchronization

/// Sign-in through an OpenID Connect provider (`cinn serve --oidc-issuer`): the authorization code flow with PKCE
/// (RFC 7636, S256), the provider found by discovery, and its ID token checked as OpenID Connect Core 1.0 §3.1.3.7
/// says: the signature by a key of the provider's JWKS, the issuer, the audience (and `azp` when there are several),
/// the expiry and issue time, and the nonce of this sign-in.
public struct OpenIDConfiguration: Sendable {
    /// The provider's issuer identifier, as its discovery document names it (`https://accounts.google.com`).
    public var issuer: String
    public var clientID: String
    public var clientSecret: String
    /// What the log-in page's button says: "Sign in with NAME".
    public var displayName: String
    /// Where the provider sends the browser back: `{public URL}/login/oidc/callback`, registered with the provider.
    public var redirectURI: String
    /// Clock skew allowed between the provider and this server when checking the token's times.
    public var leeway: TimeInterval

    public init(
        issuer: String, clientID: String, clientSecret: String, displayName: String? = nil, redirectURI: String,
        leeway: TimeInterval = 10
    ) {
        self.issuer = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.displayName = displayName ?? URL(string: issuer)?.host ?? issuer
        self.redirectURI = redirectURI
        self.leeway = leeway
    }
}

/// Who the provider says signed in.
public struct OpenIDIdentity: Sendable, Equatable {
    public var issuer: String
    public var subject: String
    public var email: String?
    public var preferredUsername: String?
    public var name: String?
}

/// The claims of an ID token Cinn reads; each is checked by `OpenIDConnect.check`, not by the decoder.
struct IDTokenClaims: JWTPayload {
    var iss: String
    var sub: String
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim
    var nonce: String?
    var azp: String?
    var email: String?
    var preferred_username: String?
    var name: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The provider's endpoints and keys, from its discovery document and JWKS.
struct OpenIDProvider: Sendable {
    var authorizationEndpoint: String
    var tokenEndpoint: String
    var jwksURI: String
    /// `client_secret_basic` unless the provider offers only `client_secret_post`.
    var postsSecret: Bool
    var keys: JWTKeyCollection
    var fetchedAt: Date
}

public final class OpenIDConnect: Sendable {
    public let configuration: OpenIDConfiguration
    let store: Store
    private let provider = Mutex<OpenIDProvider?>(nil)
    /// How long a sign-in may take between the redirect and the provider's answer.
    static let loginLifetime: TimeInterval = 600
    /// How long discovery and keys are kept before they are fetched again (a key the cache lacks fetches them at once).
    static let providerLifetime: TimeInterval = 3600

    public init(configuration: OpenIDConfiguration, store: Store) {
        self.configuration = configuration
        self.store = store
    }

    /// Starts a sign-in: records it and returns where to send the browser, with the state the browser keeps in a
    /// cookie until the provider sends it back.
    public func start(next: String?, invite: String?, linking user: UserID? = nil) async throws -> (url: String, state: String) {
        let provider = try await currentProvider()
        let state = Accounts.secret(), nonce = Accounts.secret(), verifier = Accounts.secret() + Accounts.secret()
        try await store.startOpenIDLogin(
            stateSHA256: Accounts.digest(state),
            PendingOpenIDLogin(nonce: nonce, codeVerifier: verifier, next: next, invite: invite, linkUser: user),
            expiringBefore: store.now().addingTimeInterval(-Self.loginLifetime))
        var components = URLComponents(string: provider.authorizationEndpoint)
        let existing = components?.queryItems ?? []
        components?.queryItems =
            existing + [
                URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "client_id", value: configuration.clientID),
                URLQueryItem(name: "redirect_uri", value: configuration.redirectURI),
                URLQueryItem(name: "scope", value: "openid profile email"),
                URLQueryItem(name: "state", value: state), URLQueryItem(name: "nonce", value: nonce),
                URLQueryItem(name: "code_challenge", value: Accounts.base64URL(Array(SHA256.hash(data: Data(verifier.utf8))))),
                URLQueryItem(name: "code_challenge_method", value: "S256"),
            ]
        guard let url = components?.url?.absoluteString else {
            throw CinnError(.upstreamFailed, "the identity provider's authorization endpoint is not a URL")
        }
        return (url, state)
    }

    /// Finishes a sign-in the provider sent back: the code is exchanged for tokens and the ID token checked. The state
    /// must be one this server started (on any instance) and the browser's own (`browserState`, from its cookie).
    public func finish(code: String, state: String, browserState: String?) async throws -> (
        identity: OpenIDIdentity, login: PendingOpenIDLogin
    ) {
        guard let browserState, constantTimeEqual(browserState, state) else {
            throw CinnError(.unauthenticated, "this sign-in was not started in this browser; start it again")
        }
        guard
            let login = try await store.finishOpenIDLogin(
                stateSHA256: Accounts.digest(state),
                startedAfter: store.now().addingTimeInterval(-Self.loginLifetime))
        else {
            throw CinnError(.unauthenticated, "this sign-in has expired or was already used; start it again")
        }
        let provider = try await currentProvider()
        let idToken = try await exchange(code: code, verifier: login.codeVerifier, provider: provider)
        let claims = try await verifySignature(idToken, provider: provider)
        let identity = try Self.check(
            claims, issuer: configuration.issuer, clientID: configuration.clientID, nonce: login.nonce,
            now: store.now(), leeway: configuration.leeway)
        return (identity, login)
    }

    /// The claims' checks of OpenID Connect Core §3.1.3.7, once the signature is verified.
    static func check(_ claims: IDTokenClaims, issuer: String, clientID: String, nonce: String, now: Date, leeway: TimeInterval) throws
        -> OpenIDIdentity
    {
        func refused(_ why: String) -> CinnError { CinnError(.unauthenticated, "the identity provider's token was refused: \(why)") }
        guard claims.iss == issuer else { throw refused("it was issued by \(claims.iss.prefix(100)), not \(issuer)") }
        guard claims.aud.value.contains(clientID) else { throw refused("it is for another application") }
        if claims.aud.value.count > 1 || claims.azp != nil {
            guard claims.azp == clientID else { throw refused("it was given to another application") }
        }
        guard claims.exp.value > now.addingTimeInterval(-leeway) else { throw refused("it has expired") }
        guard claims.iat.value < now.addingTimeInterval(leeway + 300) else { throw refused("it was issued in the future") }
        guard let sent = claims.nonce, constantTimeEqual(sent, nonce) else { throw refused("it is not for this sign-in (nonce)") }
        guard !claims.sub.isEmpty, claims.sub.utf8.count <= 255 else { throw refused("it names no subject") }
        return OpenIDIdentity(
            issuer: issuer, subject: claims.sub, email: claims.email, preferredUsername: claims.preferred_username,
            name: claims.name)
    }

    // MARK: The provider

    /// The provider's endpoints and keys, fetched when missing or stale.
    func currentProvider(refreshing: Bool = false) async throws -> OpenIDProvider {
        if !refreshing, let cached = provider.withLock({ $0 }), store.now().timeIntervalSince(cached.fetchedAt) < Self.providerLifetime {
            return cached
        }
        let discovery = try await getJSON(configuration.issuer + "/.well-known/openid-configuration", what: "discovery document")
        guard let issuer = discovery["issuer"]?.string, issuer == configuration.issuer else {
            throw CinnError(.upstreamFailed, "the identity provider's discovery document names another issuer than \(configuration.issuer)")
        }
        guard let authorization = discovery["authorization_endpoint"]?.string, let token = discovery["token_endpoint"]?.string,
            let jwksURI = discovery["jwks_uri"]?.string
        else {
            throw CinnError(.upstreamFailed, "the identity provider's discovery document lacks an endpoint Cinn needs")
        }
        let methods = {
            if case .array(let items)? = discovery["token_endpoint_auth_methods_supported"] {
                items.compactMap(\.string)
            } else {
                ["client_secret_basic"]
            }
        }()
        let keys = JWTKeyCollection()
        do {
            try await keys.add(jwksJSON: String(decoding: try await get(jwksURI, what: "keys"), as: UTF8.self))
        } catch let error as CinnError {
            throw error
        } catch {
            throw CinnError(.upstreamFailed, "the identity provider's keys (JWKS) cannot be read")
        }
        let fetched = OpenIDProvider(
            authorizationEndpoint: authorization, tokenEndpoint: token, jwksURI: jwksURI,
            postsSecret: !methods.contains("client_secret_basic") && methods.contains("client_secret_post"),
            keys: keys, fetchedAt: store.now())
        provider.withLock { $0 = fetched }
        return fetched
    }

    /// The ID token's claims, once its signature is verified by a key of the provider's (fetched again once when the
    /// token names a key the cached set lacks: the provider rotated its keys).
    func verifySignature(_ token: String, provider: OpenIDProvider) async throws -> IDTokenClaims {
        func refusal(_ error: any Error) -> CinnError {
            let signature = (error as? JWTError)?.errorType == .signatureVerificationFailed
            return CinnError(
                .unauthenticated,
                "the identity provider's token was refused: "
                    + (signature ? "its signature does not verify" : "it cannot be read or verified"))
        }
        do {
            return try await provider.keys.verify(token, as: IDTokenClaims.self)
        } catch let error as JWTError where error.errorType == .missingKIDHeader || error.errorType == .unknownKID {
            let fresh = try await currentProvider(refreshing: true)
            do {
                return try await fresh.keys.verify(token, as: IDTokenClaims.self)
            } catch {
                throw refusal(error)
            }
        } catch {
            throw refusal(error)
        }
    }

    /// The authorization code exchanged for tokens at the token endpoint; the ID token.
    func exchange(code: String, verifier: String, provider: OpenIDProvider) async throws -> String {
        var form: [(String, String)] = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", configuration.redirectURI),
            ("code_verifier", verifier),
        ]
        var request = HTTPClientRequest(url: provider.tokenEndpoint)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        if provider.postsSecret {
            form += [("client_id", configuration.clientID), ("client_secret", configuration.clientSecret)]
        } else {
            let pair = Self.formEncode(configuration.clientID) + ":" + Self.formEncode(configuration.clientSecret)
            request.headers.add(name: "Authorization", value: "Basic " + Data(pair.utf8).base64EncodedString())
        }
        request.body = .bytes(ByteBuffer(string: form.map { Self.formEncode($0.0) + "=" + Self.formEncode($0.1) }.joined(separator: "&")))
        let body = try await send(request, what: "token endpoint", accepting: [200, 400, 401])
        guard let json = Self.object(body) else {
            throw CinnError(.upstreamFailed, "the identity provider's token endpoint sent something that is not JSON")
        }
        if let error = json["error"]?.string {
            throw CinnError(.unauthenticated, "the identity provider refused the sign-in (\(error.prefix(60)))")
        }
        guard let idToken = json["id_token"]?.string else {
            throw CinnError(.upstreamFailed, "the identity provider's token endpoint sent no ID token")
        }
        return idToken
    }

    private func getJSON(_ url: String, what: String) async throws -> [String: JSONValue] {
        let body = try await get(url, what: what)
        guard let json = Self.object(body) else {
            throw CinnError(.upstreamFailed, "the identity provider's \(what) is not JSON")
        }
        return json
    }

    /// A JSON object's members read by Cinn's one parser (at most 10,000 values: a provider's documents are small);
    /// nil for anything else.
    static func object(_ body: Data) -> [String: JSONValue]? {
        guard case .object(let members)? = try? JSONParser.parse(body, maximumValues: 10_000) else { return nil }
        return members
    }

    private func get(_ url: String, what: String) async throws -> Data {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        return try await send(request, what: what, accepting: [200])
    }

    private func send(_ request: HTTPClientRequest, what: String, accepting statuses: Set<UInt>) async throws -> Data {
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            guard statuses.contains(response.status.code) else {
                throw CinnError(.upstreamFailed, "the identity provider's \(what) answered HTTP \(response.status.code)")
            }
            return Data(buffer: try await response.body.collect(upTo: 1 << 20))
        } catch let error as CinnError {
            throw error
        } catch {
            throw CinnError(.upstreamFailed, "Cinn cannot reach the identity provider's \(what); try again later")
        }
    }

    // MARK: Helpers

    /// `application/x-www-form-urlencoded`, as RFC 6749 §2.3.1 has the client's id and secret encoded too.
    static func formEncode(_ text: String) -> String {
        text.addingPercentEncoding(
            withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~"))
            ?? text
    }
}
