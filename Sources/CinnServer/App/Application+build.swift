import CinnCore
import CinnJournal
import CinnStore
import Foundation
import Hummingbird
import Logging
import NIOCore

/// How `cinn serve` listens.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Public URL, allowed host names; `buildApplication` answers only loopback names in single-user mode on loopback.
    public var security: WebSecurity
    /// Where the web app's uploads wait between their check and their import: a directory every server on one database
    /// shares. The system's temporary directory when nil.
    public var uploadDirectory: URL?
    /// Where the request log goes (`RequestLogMiddleware`); nil: no request log.
    public var requestLog: Logger?
    /// `/metrics` on this listener; nil when it answers elsewhere or not at all.
    public var metrics: MetricsEndpoint?
    /// Called once the server is bound, with the address it listens on.
    public var onListening: @Sendable (_ host: String, _ port: Int) -> Void
    /// The first step of stopping (run it after the server in the service group); nil: the server stops on its own.
    public var drain: ListenerDrain?

    public init(
        host: String = "127.0.0.1", port: Int = 8080, security: WebSecurity = WebSecurity(), uploadDirectory: URL? = nil,
        requestLog: Logger? = nil, metrics: MetricsEndpoint? = nil, drain: ListenerDrain? = nil,
        onListening: @escaping @Sendable (String, Int) -> Void = { _, _ in }
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.uploadDirectory = uploadDirectory
        self.requestLog = requestLog
        self.metrics = metrics
        self.onListening = onListening
        self.drain = drain
    }
}

/// Builds the router the server runs: the JSON API under `/api/v1`, the OpenAPI document, and the web app.
/// Without `accounts` (single-user mode) every request is `journal`'s; with them (hosted mode) every request
/// but log-in and sign-up is a logged-in user's, whose journal is made like `journal`.
/// Every response carries the security headers, and what a browser sends for another site is refused (`WebSecurity`).
/// `/health`, `/ready` and (given `metrics`) `/metrics` answer without a session; every request is counted for `/metrics`
/// and, given `requestLog`, logged.
public func buildRouter(
    journal: Journal, accounts: Accounts? = nil, security: WebSecurity = WebSecurity(),
    uploadDirectory: URL? = nil, requestLog: Logger? = nil, metrics: MetricsEndpoint? = nil
) -> Router<AppRequestContext> {
    // HEAD answers every GET route as GET does, without the body (RFC 9110, 9.3.2).
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: RequestMetricsMiddleware())
    router.add(middleware: RequestLogMiddleware(logger: requestLog))
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: ErrorMiddleware())
    router.add(
        middleware: BrowserRequestGuard(
            security: security, hosted: accounts != nil,
            publicPaths: AccountsMiddleware.publicPaths))
    StaticAssets.addRoutes(to: router)
    if let accounts {
        router.add(middleware: AccountsMiddleware(accounts: accounts) { user in journal.forUser(user) })
        let accountWeb = AccountWebController(accounts: accounts, security: security)
        accountWeb.addRoutes(public: router, account: router.group(context: AccountRequestContext.self))
        let accountAPI = AccountAPIController(accounts: accounts)
        accountAPI.addPublicRoutes(to: router.group("api/v1"))
        accountAPI.addRoutes(to: router.group("api/v1", context: AccountRequestContext.self))
    } else {
        router.add(middleware: LocalJournalMiddleware(journal: journal))
    }
    // Every other route is someone's journal's: its context cannot be made without the asker's identity.
    let web = router.group(context: JournalRequestContext.self)
    let api = router.group("api/v1", context: JournalRequestContext.self)
    let pendingImports = uploadDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("cinn-pending-imports")
    WeightWebController().addRoutes(to: web)
    GlanceController().addRoutes(web: web, api: api)
    ImportWebController(pendingDirectory: pendingImports).addRoutes(to: web)
    SettingsWebController().addRoutes(to: web)
    FoodWebController().addRoutes(to: web)
    EnergyWebController().addRoutes(to: web)
    WorkoutWebController().addRoutes(to: web)
    WorkoutLogController().addRoutes(to: web)
    GlucoseWebController().addRoutes(to: web)
    HealthWebController().addRoutes(to: web)
    WeightAPIController().addRoutes(to: api)
    SettingsAPIController().addRoutes(to: api)
    ImportAPIController().addRoutes(to: api)
    FoodAPIController().addRoutes(to: api)
    EnergyAPIController().addRoutes(to: api)
    WorkoutAPIController().addRoutes(to: api)
    GlucoseAPIController().addRoutes(to: api)
    ResearchExportController().addRoutes(to: api)
    SyncController().addRoutes(to: api)
    let nightscout = router.group("nightscout").add(
        middleware: NightscoutAccessMiddleware(
            secret: security.apiSecret, openOnLoopback: accounts == nil && security.loopbackHostsOnly && !security.listensBeyondLoopback,
            accounts: accounts
        ) { user in journal.forUser(user) })
    NightscoutController().addRoutes(to: nightscout.group(context: JournalRequestContext.self))
    router.get("api/openapi.yaml") { _, _ in
        Response(
            status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml)))
    }
    HealthRoutes.addRoutes(to: router, journal: journal)
    metrics?.addRoutes(to: router)
    return router
}

/// Builds the whole application, exactly as `cinn serve` runs it (tests build the same).
public func buildApplication(
    journal: Journal, accounts: Accounts? = nil, configuration: ServerConfiguration,
    logger: Logger = Logger(label: "cinn.server")
) -> some ApplicationProtocol {
    let onListening = configuration.onListening
    var security = configuration.security
    if accounts == nil {
        // Single-user mode answers only to this machine's names, wherever it listens (DNS rebinding).
        security.loopbackHostsOnly = true
        if !WebSecurity.isLoopbackAddress(configuration.host) {
            security.listensBeyondLoopback = true
            security.machineNames.formUnion(WebSecurity.machineNames())
            // A specific address it listens on is its own name too.
            if configuration.host != "0.0.0.0", configuration.host != "::" {
                security.machineNames.insert(WebSecurity.hostName(configuration.host))
            }
        }
    }
    return Application(
        router: buildRouter(
            journal: journal, accounts: accounts, security: security, uploadDirectory: configuration.uploadDirectory,
            requestLog: configuration.requestLog, metrics: configuration.metrics),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "cinn"),
        onServerRunning: { channel in
            configuration.drain?.listening(on: channel)
            let address = channel.localAddress
            onListening(address?.ipAddress ?? configuration.host, address?.port ?? configuration.port)
        },
        logger: logger)
}

/// Turns every error into a response: JSON under `/api`, an error page elsewhere. Unknown errors
/// become a generic 500; their details go to the log, never to the person.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Where the error page's "Go back" leads: the page the refused form was on (the `Referer` of this host, its path
    /// and query only: a set with 0 reps leads back to the workout being logged), else the dashboard.
    static func back(_ request: Request) -> String {
        guard let referer = request.headers[.referer], let url = URL(string: referer), let host = url.host,
            let requestHost = request.head.authority?.split(separator: ":").first, host == requestHost,
            url.path.hasPrefix("/"), !url.path.hasPrefix("//")
        else { return "/" }
        return url.path + (url.query.map { "?" + $0 } ?? "")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let cinnError = CinnError.from(error)
            if cinnError.code == .internal {
                context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(type(of: error))"])
            }
            var response: Response
            if request.uri.path.hasPrefix("/api/") || request.uri.path.hasPrefix("/nightscout/") {
                response = JSONResponse.error(cinnError)
            } else {
                let page = ErrorPage(
                    heading: cinnError.code == .notFound ? "Not found" : "Something is wrong",
                    message: cinnError.message, back: Self.back(request))
                let html = PageRenderer.shared.render("error", page, title: "Error", tab: .none, formToken: nil)
                response = Response(
                    status: cinnError.code.httpStatus, headers: [.contentType: "text/html; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
            }
            if cinnError.code == .unavailable { response.headers[.retryAfter] = "2" }
            return response
        }
    }
}

/// Single-user mode: every request is the local user's.
struct LocalJournalMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let journal: Journal

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.identity = RequestIdentity(journal: journal, account: nil)
        return try await next(request, context)
    }
}
