import CinnCharts
import CinnCore
import CinnJournal
import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// How the server guards the browsers that use it (docs/SECURITY.md): which `Host` names it answers on, the
/// address people reach it by, and the headers every response carries.
public struct WebSecurity: Sendable {
    /// The address people reach the server by, behind a proxy (`https://cinn.example.org`): invite links are
    /// built from it, and a browser's `Origin` or `Host` naming it is this site.
    public var publicURL: URL?
    /// Answer only requests whose `Host` is a loopback name (`localhost`, `127.0.0.1`, `[::1]`), one of
    /// `machineNames`, `publicURL`'s host or one of `allowedHosts`: single-user mode, so that a page on another domain
    /// cannot reach the journal by pointing its own name at this machine (DNS rebinding).
    public var loopbackHostsOnly: Bool
    /// Host names allowed besides the loopback ones (`cinn serve --allowed-host`).
    public var allowedHosts: [String]
    /// The machine's own addresses and host names, which single-user mode answers to when it listens beyond loopback.
    public var machineNames: Set<String> = []
    /// Whether the server listens beyond loopback (`--host 0.0.0.0`): then Nightscout's clients need the secret.
    public var listensBeyondLoopback = false
    /// Single-user mode's secret for Nightscout clients (`cinn serve --api-secret`, Nightscout's API_SECRET).
    public var apiSecret: String?

    public init(publicURL: URL? = nil, loopbackHostsOnly: Bool = false, allowedHosts: [String] = [], apiSecret: String? = nil) {
        self.publicURL = publicURL
        self.loopbackHostsOnly = loopbackHostsOnly
        self.allowedHosts = allowedHosts.map { $0.lowercased() }
        self.apiSecret = apiSecret
    }

    /// `publicURL`'s host and port as a browser's `Origin` names it (`cinn.example.org`, `example.org:8443`).
    var publicAuthority: String? {
        guard let publicURL, let host = publicURL.host else { return nil }
        return Self.normalisedAuthority(publicURL.port.map { "\(host):\($0)" } ?? host, scheme: publicURL.scheme)
    }

    /// `host[:port]` lowercased and without the scheme's default port, as `Origin` and `Host` are compared.
    static func normalisedAuthority(_ authority: String, scheme: String?) -> String {
        let text = authority.lowercased()
        let defaultPort = scheme?.lowercased() == "https" ? ":443" : ":80"
        return text.hasSuffix(defaultPort) ? String(text.dropLast(defaultPort.count)) : text
    }

    /// `Host`'s host name alone, lowercased: `localhost` of `localhost:8080`, `::1` of `[::1]:8080`.
    static func hostName(_ host: String) -> String {
        let host = host.lowercased()
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            return String(host[host.index(after: host.startIndex)..<close])
        }
        return String(host.prefix { $0 != ":" })
    }

    /// Whether `name` (a host name without port) is this machine by any spelling a browser sends.
    static func isLoopbackName(_ name: String) -> Bool {
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    func allowsHost(_ host: String) -> Bool {
        let name = Self.hostName(host)
        if Self.isLoopbackName(name) || allowedHosts.contains(name) || machineNames.contains(name) { return true }
        return publicURL?.host?.lowercased() == name
    }

    /// Whether a listening address is on loopback: a loopback name, or any IPv4 address of 127.0.0.0/8 however it is
    /// written (`127.1` is 127.0.0.1).
    public static func isLoopbackAddress(_ host: String) -> Bool {
        let name = hostName(host)
        if isLoopbackName(name) { return true }
        var address = in_addr()
        return inet_aton(name, &address) != 0 && UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    /// This machine's addresses (every interface's, IPv4 and IPv6) and host names (its name, and that name in
    /// `.local` as mDNS announces it), lowercased: what a browser on the network may call it.
    public static func machineNames() -> Set<String> {
        var names = Set<String>()
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count) == 0 {
            let name = String(cString: buffer).lowercased()
            if !name.isEmpty {
                names.insert(name)
                if !name.contains(".") { names.insert(name + ".local") }
            }
        }
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return names }
        defer { freeifaddrs(list) }
        for interface in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = interface.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            // A link-local IPv6 address carries its interface (`fe80::1%eth0`); a browser's Host does not.
            names.insert(String(String(cString: text).lowercased().prefix { $0 != "%" }))
        }
        return names
    }

    /// The Content-Security-Policy of every response: nothing from elsewhere, no inline script, and inline
    /// styles only the charts' own (by their hashes), so that a chart downloaded as a file keeps its colours.
    static let contentSecurityPolicy: String = {
        let chartStyles = ChartStyles.all.map { style in
            "'sha256-" + Data(SHA256.hash(data: Data(style.utf8))).base64EncodedString() + "'"
        }
        return [
            "default-src 'self'", "script-src 'self'", "style-src 'self' " + chartStyles.joined(separator: " "),
            "img-src 'self' data: blob:", "object-src 'none'", "base-uri 'none'", "form-action 'self'",
            "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }()
}

/// Adds the security headers to every response (pages, JSON, redirects and errors alike), and answers
/// methods the server does not use (TRACE, CONNECT…) with 405.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var allowedMethods: [HTTPRequest.Method] { [.get, .head, .post, .put, .patch, .delete, .options] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        if Self.allowedMethods.contains(request.method) {
            response = try await next(request, context)
        } else {
            let allow = Self.allowedMethods.map(\.rawValue).joined(separator: ", ")
            response = JSONResponse.error(CinnError(.methodNotAllowed, "\(request.method.rawValue) is not a method this server answers"))
            response.headers[.allow] = allow
        }
        response.headers[.contentSecurityPolicy] = WebSecurity.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.referrerPolicy] = "same-origin"
        response.headers[.crossOriginOpenerPolicy] = "same-origin"
        return response
    }
}

/// The CSRF token of a browser that has no session: the value of its `cinn_csrf` cookie (HttpOnly,
/// SameSite=Strict), which every form it is shown carries back. Single-user mode's forms and the log-in and
/// sign-up forms of hosted mode carry it; a logged-in session's forms carry the session's own token.
enum BrowserToken {
    static var cookieName: String { "cinn_csrf" }

    /// A cookie value this server could have made: 43 base64url characters.
    static func isWellFormed(_ value: String) -> Bool {
        value.utf8.count == 43
            && value.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
    }
}

/// Refuses what a browser sends on behalf of another site, in both modes:
/// - in single-user mode on loopback, any request whose `Host` is not this machine's (DNS rebinding);
/// - a request that changes something (not GET, HEAD or OPTIONS) whose `Sec-Fetch-Site` is not `same-origin`
///   or `none`, or whose `Origin` is not this site's — so a cross-site form post and a cross-site `fetch` with
///   `Content-Type: text/plain` are 403 alike;
/// - a browser's change without the CSRF token its forms carry (`BrowserToken`), where no session's token is
///   checked instead (single-user mode; log-in and sign-up in hosted mode).
/// Requests with no browser headers (no `Origin`, no `Sec-Fetch-*`: the CLI, curl, sync clients, uploaders)
/// need no token.
struct BrowserRequestGuard: RouterMiddleware {
    typealias Context = AppRequestContext
    let security: WebSecurity
    /// Hosted mode: requests other than `publicPaths` prove themselves with a session and its token.
    let hosted: Bool
    let publicPaths: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if security.loopbackHostsOnly, let host = request.head.authority, !security.allowsHost(host) {
            throw CinnError(
                .forbidden,
                "this server answers only on this machine's own names (localhost, 127.0.0.1), not \(WebSecurity.hostName(host)): start it with --allowed-host to add a name"
            )
        }
        var request = request
        let changes = ![.get, .head, .options].contains(request.method)
        if changes { try checkSite(request) }
        let sent = request.cookies[BrowserToken.cookieName].map(\.value).flatMap { BrowserToken.isWellFormed($0) ? $0 : nil }
        if changes, request.headers[.authorization] == nil, Self.isFromBrowser(request),
            !hosted || publicPaths.contains(request.uri.path)
        {
            try await CSRFToken.check(&request, expected: sent)
        }
        var context = context
        // The JSON API renders no forms: no token is made for it, nor a cookie set.
        guard sent == nil, !request.uri.path.hasPrefix("/api/") else {
            context.browserToken = sent
            return try await next(request, context)
        }
        let token = Accounts.secret()
        context.browserToken = token
        var response = try await next(request, context)
        response.setCookie(Cookie(name: BrowserToken.cookieName, value: token, path: "/", httpOnly: true, sameSite: .strict))
        return response
    }

    /// A browser marks every change it sends with `Origin`, and current browsers every request with `Sec-Fetch-*`.
    /// Cookies alone do not make a browser: an app's HTTP library keeps them too, for every port of a host.
    static func isFromBrowser(_ request: Request) -> Bool {
        request.headers[.origin] != nil || request.headers[.secFetchSite] != nil || request.headers[.secFetchMode] != nil
    }

    private func checkSite(_ request: Request) throws {
        if let site = request.headers[.secFetchSite]?.lowercased(), site != "same-origin", site != "none" {
            throw CinnError(.forbidden, "a change sent from another site (\(site)) is refused: use Cinn's own pages")
        }
        guard let origin = request.headers[.origin] else { return }
        let refusal = CinnError(.forbidden, "a change sent from another site (Origin \(origin)) is refused: use Cinn's own pages")
        guard let separator = origin.range(of: "://") else { throw refusal }
        let scheme = String(origin[..<separator.lowerBound])
        let offered = WebSecurity.normalisedAuthority(String(origin[separator.upperBound...]), scheme: scheme)
        let own = request.head.authority.map { WebSecurity.normalisedAuthority($0, scheme: scheme) }
        guard offered == own || offered == security.publicAuthority else { throw refusal }
    }
}

/// The CSRF token a request offers: the `X-CSRF-Token` header, the `_csrf` query item (uploads), or the `_csrf`
/// field of a urlencoded form (read, then handed on to the handler unchanged).
enum CSRFToken {
    /// Refuses the request (403) unless it offers `expected`.
    static func check(_ request: inout Request, expected: String?) async throws {
        guard let expected, let offered = try await offered(in: &request), constantTimeEqual(offered, expected) else {
            throw CinnError(.forbidden, "this form has expired or did not come from Cinn: reload the page and try again")
        }
    }

    private static func offered(in request: inout Request) async throws -> String? {
        if let header = request.headers[.xCSRFToken] { return header }
        if let query = request.uri.queryParameters.get("_csrf") { return query }
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else { return nil }
        let body = try await request.body(upTo: maximumFormBytes)
        request.body = .init(buffer: body)
        return URLEncodedText.pairs(String(decoding: body.readableBytesView, as: UTF8.self))["_csrf"]
    }
}

extension HTTPField.Name {
    static var xFrameOptions: Self { Self("X-Frame-Options")! }
    static var referrerPolicy: Self { Self("Referrer-Policy")! }
    static var crossOriginOpenerPolicy: Self { Self("Cross-Origin-Opener-Policy")! }
    static var secFetchSite: Self { Self("Sec-Fetch-Site")! }
    static var secFetchMode: Self { Self("Sec-Fetch-Mode")! }
    static var xCSRFToken: Self { Self("X-CSRF-Token")! }
    static var xForwardedFor: Self { Self("X-Forwarded-For")! }
}
