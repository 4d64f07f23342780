import ArgumentParser
import CinnCore
import CinnJournal
import CinnServer
import CinnStore
import Configuration
import Foundation
import Hummingbird
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the web app and JSON API.")

    @OptionGroup var options: DatabaseOptions

    @Option(help: "Address to listen on (default: $CINN_HOST, else 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on, 0 picks a free one (default: $CINN_PORT, else 8080).")
    var port: Int?

    @Flag(help: "Fill an empty journal with 18 months of realistic demo data (default: $CINN_DEMO, else no).")
    var demo = false

    @Flag(
        help:
            "Hosted mode: people log in, each to their own journal (add the first with `cinn user add NAME --admin`, or use --signup open; default: $CINN_ACCOUNTS, else no)."
    )
    var accounts = false

    @Option(
        help:
            "With --accounts, who may make an account on the sign-up page: open (the first is an administrator), invite (with an administrator's invite) or closed (default: $CINN_SIGNUP, else invite)."
    )
    var signup: AccountsConfiguration.SignUp?

    @Flag(help: "With --accounts, send the session cookie over HTTPS only (behind a TLS proxy; default: $CINN_SECURE_COOKIES, else no).")
    var secureCookies = false

    @Option(
        help:
            "With --accounts, sign people in through this OpenID Connect provider (its issuer URL, such as https://accounts.google.com; default: $CINN_OIDC_ISSUER). Needs --public-url: the provider sends browsers back to PUBLIC-URL/login/oidc/callback."
    )
    var oidcIssuer: String?

    @Option(help: "The client ID this server has at the provider (default: $CINN_OIDC_CLIENT_ID).")
    var oidcClientId: String?

    @Option(help: "The client secret that goes with it (default: $CINN_OIDC_CLIENT_SECRET).")
    var oidcClientSecret: String?

    @Option(
        help:
            "What the log-in page's button calls the provider: \"Sign in with NAME\" (default: $CINN_OIDC_NAME, else the issuer's host name)."
    )
    var oidcName: String?

    @Flag(
        inversion: .prefixedNo,
        help:
            "With --oidc-issuer, whether people may also log in and sign up with a name and password (default: $CINN_PASSWORDS, else yes).")
    var passwords: Bool?

    @Option(
        help:
            "The address people reach this server by, behind a proxy (https://cinn.example.org): invite links use it, and browsers' requests naming it are this site's (default: $CINN_PUBLIC_URL)."
    )
    var publicURL: String?

    @Option(
        name: .customLong("allowed-host"),
        help:
            "Without --accounts, another host name this server answers to besides localhost, 127.0.0.1 and, beyond loopback, the machine's own names and addresses (repeatable; default: $CINN_ALLOWED_HOSTS, separated by commas)."
    )
    var allowedHosts: [String] = []

    @Option(
        name: .customLong("trusted-proxy"),
        help:
            "With --accounts, the address of a reverse proxy whose X-Forwarded-For names the client (repeatable; default: $CINN_TRUSTED_PROXIES, separated by commas, else 127.0.0.1 and ::1)."
    )
    var trustedProxies: [String] = []

    @Option(
        help:
            "Without --accounts, the secret Nightscout uploaders and followers send (their API_SECRET, at least 12 characters; default: $CINN_API_SECRET). Needed for /nightscout when listening beyond loopback."
    )
    var apiSecret: String?

    @Option(
        help:
            "Where unknown barcodes are looked up: an Open Food Facts server, or \"none\" (default: $CINN_OFF_URL, else https://world.openfoodfacts.org)."
    )
    var offURL: String?

    @Option(
        help:
            "Where the web app's uploads wait between their check and their import (default: $CINN_UPLOAD_DIR, else the system's temporary directory). Servers sharing one database need one directory they all reach."
    )
    var uploadDir: String?

    @Option(
        help:
            "What the server logs (to standard error) besides the request log: trace, debug, info, notice, warning, error or critical (default: $CINN_LOG_LEVEL, else notice). \"Listening on\" is printed on standard output at every level."
    )
    var logLevel: String?

    @Option(help: "How log lines are written: logfmt or json (default: $CINN_LOG_FORMAT, else logfmt).")
    var logFormat: String?

    @Flag(
        inversion: .prefixedNo,
        help:
            "A log line for every request: method, route, status, milliseconds and request id; never the path's values, the query or the body (default: on; $CINN_REQUEST_LOG=false turns it off)."
    )
    var requestLog: Bool?

    @Option(help: "Serve /metrics on this HOST:PORT instead of the main listener (default: $CINN_METRICS_ADDRESS).")
    var metricsAddress: String?

    @Option(help: "/metrics answers only Authorization: Bearer TOKEN, at least 16 characters (default: $CINN_METRICS_TOKEN; none).")
    var metricsToken: String?

    @Option(
        help:
            "On SIGTERM or SIGINT, the seconds requests in flight get to finish once the server stops accepting new ones (default: $CINN_DRAIN_SECONDS, else 25)."
    )
    var drainSeconds: Int?

    func run() async throws {
        let settings = try settings()
        let config = settings.reader
        let apiSecret = config.string(forKey: "cinn.api.secret", isSecret: true)
        if let apiSecret, apiSecret.count < 12 {
            throw CommandError.from(
                CinnError.invalid("api-secret", "--api-secret needs at least 12 characters, as Nightscout's API_SECRET does"))
        }
        let uploadDirectory = config.string(forKey: "cinn.upload.dir").map { URL(fileURLWithPath: $0, isDirectory: true) }
        let host = config.string(forKey: "cinn.host", default: "127.0.0.1")
        let port = try settings.number("cinn.port", option: "port", in: 0...65_535, default: 8080)
        let levelName = config.string(forKey: "cinn.log.level", default: "notice")
        guard let level = Logger.Level(rawValue: levelName.lowercased()) else {
            throw CommandError.from(
                CinnError.invalid(
                    "log-level", "--log-level must be trace, debug, info, notice, warning, error or critical, not \"\(levelName)\""))
        }
        let formatName = config.string(forKey: "cinn.log.format", default: "logfmt")
        guard let format = LogFormat(rawValue: formatName.lowercased()) else {
            throw CommandError.from(CinnError.invalid("log-format", "--log-format must be logfmt or json, not \"\(formatName)\""))
        }
        let drain = try settings.number("cinn.drain.seconds", option: "drain-seconds", in: 0...3600, default: 25)
        let metricsListener = try config.string(forKey: "cinn.metrics.address").map(Self.hostAndPort)
        let metricsToken = config.string(forKey: "cinn.metrics.token", isSecret: true)
        if let metricsToken, metricsToken.count < 16 {
            throw CommandError.from(CinnError.invalid("metrics-token", "--metrics-token needs at least 16 characters"))
        }
        let demo = try settings.yesOrNo("cinn.demo", option: "demo", default: false)
        let accounts = try settings.yesOrNo("cinn.accounts", option: "accounts", default: false)
        let secureCookies = try settings.yesOrNo("cinn.secure.cookies", option: "secure-cookies", default: false)
        let passwords = try settings.yesOrNo("cinn.passwords", option: "passwords", default: true)
        let requestLog = try settings.yesOrNo("cinn.request.log", option: "request-log", default: true)
        let signupName = config.string(forKey: "cinn.signup", default: "invite")
        guard let signup = AccountsConfiguration.SignUp(rawValue: signupName.lowercased()) else {
            throw CommandError.from(CinnError.invalid("signup", "--signup must be open, invite or closed, not \"\(signupName)\""))
        }
        let allowedHosts = config.stringArray(forKey: "cinn.allowed.hosts", default: []).filter { !$0.isEmpty }
        let trustedProxies = config.stringArray(forKey: "cinn.trusted.proxies", default: []).filter { !$0.isEmpty }
        if !accounts, !WebSecurity.isLoopbackAddress(host) {
            printError("warning: without --accounts anyone who can reach \(host) can read and change this journal")
            let names = WebSecurity.machineNames().union(allowedHosts.map { $0.lowercased() }).union(
                publicURL.flatMap { URL(string: $0)?.host }.map { [$0] } ?? [])
            printError(
                "note: answering only requests addressed to this machine: localhost, \(names.sorted().joined(separator: ", ")) (add a name with --allowed-host)"
            )
        }
        LoggingSystem.bootstrap { label in StructuredLogHandler(label: label, format: format, level: level) }
        var logger = Logger(label: "cinn")
        logger.logLevel = level
        var requestLogger = Logger(label: "cinn.requests")
        requestLogger.logLevel = .info
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let metrics = MetricsEndpoint(registry: registry, token: metricsToken)
        let openFoodFacts = try openFoodFactsClient(offURL)
        let publicURL = try config.string(forKey: "cinn.public.url").map { text in
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw CommandError.from(
                    CinnError.invalid("public-url", "--public-url must be an http or https address such as https://cinn.example.org"))
            }
            return url
        }
        let openID = try openIDConfiguration(config, accounts: accounts, passwords: passwords, publicURL: publicURL)
        try await options.withJournal(logLevel: level) { journal in
            var journal = journal
            journal.openFoodFacts = openFoodFacts
            if demo, try await journal.fillWithDemoData() {
                FileHandle.standardOutput.write(Data("Filled the journal with demo data.\n".utf8))
            }
            let hosted =
                accounts
                ? Accounts(
                    of: journal,
                    configuration: AccountsConfiguration(
                        signUp: signup, secureCookies: secureCookies,
                        trustedProxies: trustedProxies.isEmpty ? AccountsConfiguration.loopbackProxies : Set(trustedProxies),
                        openID: openID, passwords: passwords))
                : nil
            if let hosted, signup != .open, try await hosted.store.loginAccountCount() == 0 {
                printError("note: nobody can log in yet: add an administrator with cinn user add NAME --admin")
            }
            let drainListener = ListenerDrain(logger: logger)
            let app = buildApplication(
                journal: journal,
                accounts: hosted,
                configuration: ServerConfiguration(
                    host: host, port: port,
                    security: WebSecurity(publicURL: publicURL, allowedHosts: allowedHosts, apiSecret: apiSecret),
                    uploadDirectory: uploadDirectory,
                    requestLog: requestLog ? requestLogger : nil,
                    metrics: metricsListener == nil ? metrics : nil, drain: drainListener
                ) { host, port in
                    FileHandle.standardOutput.write(Data("Listening on http://\(host):\(port)\n".utf8))
                },
                logger: logger)
            var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: app)]
            if let metricsListener {
                services.append(
                    .init(
                        service: buildMetricsApplication(
                            metrics, host: metricsListener.host, port: metricsListener.port,
                            logger: logger
                        ) { host, port in
                            FileHandle.standardOutput.write(Data("Metrics on http://\(host):\(port)/metrics\n".utf8))
                        }))
            }
            // On SIGTERM or SIGINT new connections are held back while those queued are taken (the drain step runs
            // first: the group stops services in reverse order), the listeners close, requests in flight finish, and
            // after `drain` seconds whatever is left is cancelled.
            services.append(.init(service: drainListener))
            var group = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            group.maximumGracefulShutdownDuration = .seconds(drain)
            group.maximumCancellationDuration = .seconds(5)
            do {
                try await ServiceGroup(configuration: group).run()
            } catch let error as IOError where error.errnoCode == EADDRINUSE {
                throw CinnError.invalid("port", "\(host):\(port) is already in use; choose another with --port (0 picks a free one)")
            }
        }
    }
}

extension Serve {
    /// Every setting of the server: its flag when given, else its environment variable, else the default.
    func settings() throws -> Settings {
        var flags: [AbsoluteConfigKey: ConfigValue] = [:]
        func set(_ key: AbsoluteConfigKey, _ value: String?, isSecret: Bool = false) {
            if let value { flags[key] = .init(.string(value), isSecret: isSecret) }
        }
        func set(_ key: AbsoluteConfigKey, _ values: [String]) {
            if !values.isEmpty { flags[key] = .init(.stringArray(values), isSecret: false) }
        }
        set("cinn.host", host)
        set("cinn.port", port.map(String.init))
        set("cinn.demo", demo ? "true" : nil)
        set("cinn.accounts", accounts ? "true" : nil)
        set("cinn.signup", signup?.rawValue)
        set("cinn.secure.cookies", secureCookies ? "true" : nil)
        set("cinn.oidc.issuer", oidcIssuer)
        set("cinn.oidc.client.id", oidcClientId)
        set("cinn.oidc.client.secret", oidcClientSecret, isSecret: true)
        set("cinn.oidc.name", oidcName)
        set("cinn.passwords", passwords.map { String($0) })
        set("cinn.public.url", publicURL)
        set("cinn.allowed.hosts", allowedHosts)
        set("cinn.trusted.proxies", trustedProxies)
        set("cinn.api.secret", apiSecret, isSecret: true)
        set("cinn.upload.dir", uploadDir)
        set("cinn.log.level", logLevel)
        set("cinn.log.format", logFormat)
        set("cinn.request.log", requestLog.map { String($0) })
        set("cinn.metrics.address", metricsAddress)
        set("cinn.metrics.token", metricsToken, isSecret: true)
        set("cinn.drain.seconds", drainSeconds.map(String.init))
        return Settings(reader: configReader(flags: flags))
    }

    /// The identity provider of `--oidc-issuer`, with its client and the redirect URI under `--public-url`; nil without one.
    func openIDConfiguration(_ config: ConfigReader, accounts: Bool, passwords: Bool, publicURL: URL?) throws -> OpenIDConfiguration? {
        guard let issuer = config.string(forKey: "cinn.oidc.issuer") else {
            guard passwords else {
                throw CommandError.from(CinnError.invalid("passwords", "--no-passwords needs --oidc-issuer: people must log in somehow"))
            }
            return nil
        }
        guard accounts else { throw CommandError.from(CinnError.invalid("oidc-issuer", "--oidc-issuer needs --accounts")) }
        guard let url = URL(string: issuer), ["https", "http"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw CommandError.from(
                CinnError.invalid("oidc-issuer", "--oidc-issuer must be the provider's issuer URL, such as https://accounts.google.com"))
        }
        guard let publicURL else {
            throw CommandError.from(
                CinnError.invalid("public-url", "--oidc-issuer needs --public-url: the provider sends browsers back to it"))
        }
        guard let clientID = config.string(forKey: "cinn.oidc.client.id"),
            let clientSecret = config.string(forKey: "cinn.oidc.client.secret", isSecret: true)
        else {
            throw CommandError.from(CinnError.invalid("oidc-client-id", "--oidc-issuer needs --oidc-client-id and --oidc-client-secret"))
        }
        let base = publicURL.absoluteString.hasSuffix("/") ? String(publicURL.absoluteString.dropLast()) : publicURL.absoluteString
        return OpenIDConfiguration(
            issuer: issuer, clientID: clientID, clientSecret: clientSecret, displayName: config.string(forKey: "cinn.oidc.name"),
            redirectURI: base + "/login/oidc/callback")
    }

    /// `HOST:PORT`, as `--metrics-address` takes it (`[::1]:9090` for IPv6).
    static func hostAndPort(_ text: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else {
            throw CommandError.from(CinnError.invalid("metrics-address", "--metrics-address must be HOST:PORT, such as 127.0.0.1:9090"))
        }
        let host = String(text[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return (host.isEmpty ? "127.0.0.1" : host, port)
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations and install the built-in foods.")

    @OptionGroup var options: DatabaseOptions

    func run() async throws {
        var logger = Logger(label: "cinn.store")
        logger.logLevel = .critical
        let store = try Store(options.location, logger: logger)
        do {
            let applied = try await store.migrate()
            print(
                applied.isEmpty ? "The database is up to date." : "Applied migrations \(applied.map(String.init).joined(separator: ", ")).")
            if let install = try await store.installBuiltInFoods() {
                print("Installed the built-in foods: \(install.added) added, \(install.updated) updated, \(install.removed) removed.")
            }
            try await store.close()
        } catch {
            try? await store.close()
            throw CommandError.from(error)
        }
    }
}
