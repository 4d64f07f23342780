import CinnCore
import CinnJournal
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Metrics
import NIOCore
import Prometheus

/// Where `/metrics` answers, and what it asks for.
public struct MetricsEndpoint: Sendable {
    /// The registry the process's metrics are bootstrapped with.
    public var registry: PrometheusCollectorRegistry
    /// When set, `/metrics` answers only `Authorization: Bearer <token>`.
    public var token: String?

    public init(registry: PrometheusCollectorRegistry, token: String? = nil) {
        self.registry = registry
        self.token = token
    }

    /// Adds `GET /metrics`: the registry in Prometheus's text format. It names routes by their pattern (`/food/{date}`),
    /// never by a path, and counts; nothing a user wrote.
    func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        router.get("metrics") { request, _ in
            if let token = self.token {
                let sent = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
                guard let sent, constantTimeEqual(sent, token) else {
                    throw CinnError(.unauthenticated, "send the metrics token: Authorization: Bearer <token>")
                }
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: self.registry.emitToBuffer())))
        }
    }
}

/// A listener of its own for `/metrics` (`cinn serve --metrics-address`), away from the one people reach.
public func buildMetricsApplication(
    _ endpoint: MetricsEndpoint, host: String, port: Int, logger: Logger,
    onListening: @escaping @Sendable (String, Int) -> Void
) -> some ApplicationProtocol {
    let router = Router()
    endpoint.addRoutes(to: router)
    return Application(
        router: router, configuration: .init(address: .hostname(host, port: port), serverName: "cinn"),
        onServerRunning: { channel in
            onListening(channel.localAddress?.ipAddress ?? host, channel.localAddress?.port ?? port)
        }, logger: logger)
}

/// `GET /health`: the process answers. `GET /ready`: it can serve, its database reachable and migrated to the schema this
/// binary knows (a load balancer sends nothing to an instance that is not). Neither says more than that.
enum HealthRoutes {
    static func addRoutes<Context: RequestContext>(to router: Router<Context>, journal: Journal) {
        router.get("health") { _, _ in "ok" }
        router.get("ready") { _, context in
            let reason: String?
            do {
                reason = try await journal.isSchemaCurrent() ? nil : "the database's schema is not this version's"
            } catch {
                context.logger.warning("not ready", metadata: ["error": "\(String(describing: error).prefix(200))"])
                reason = "the database cannot be reached"
            }
            return Response(
                status: reason == nil ? .ok : .serviceUnavailable,
                headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: reason ?? "ready")))
        }
    }
}

/// Counts requests by method, route pattern and status (`cinn_http_requests_total`), times them by method and route
/// (`cinn_http_request_duration_seconds`, a histogram) and counts those in flight (`cinn_http_requests_in_flight`).
/// A path that matched no route is counted under one name (`NotFound`), so no label holds what a client made up.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let inFlight = Meter(label: "cinn_http_requests_in_flight")

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        inFlight.increment()
        defer { inFlight.decrement() }
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            record(request, context, status: CinnError.from(error).code.httpStatus.code, since: start)
            throw error
        }
        record(request, context, status: response.status.code, since: start)
        return response
    }

    private func record(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        let route = context.endpointPath ?? "unmatched"
        let method = request.method.rawValue
        Counter(label: "cinn_http_requests_total", dimensions: [("method", method), ("route", route), ("status", String(status))])
            .increment()
        Metrics.Timer(label: "cinn_http_request_duration_seconds", dimensions: [("method", method), ("route", route)])
            .record(duration: ContinuousClock.now - start)
    }
}

/// The request log: one line a request, with its method, route pattern, status, milliseconds and request id. The path,
/// the query string and the body are left out (a search, a token or a weight is personal). The request id is the
/// proxy's `X-Request-Id` when it sends a plain one, else the server's own; the response carries it back.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Nil: no request log.
    let logger: Logger?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let sent = request.headers[.xRequestID], Self.isPlainID(sent) {
            context.logger[metadataKey: "hb.request.id"] = .string(sent)
        }
        let id = context.id
        let start = ContinuousClock.now
        do {
            var response = try await next(request, context)
            log(request, context, status: response.status.code, since: start)
            response.headers[.xRequestID] = id
            return response
        } catch {
            log(request, context, status: CinnError.from(error).code.httpStatus.code, since: start)
            throw error
        }
    }

    /// Letters, digits, `-`, `_` and `.`, at most 64: what nginx's `$request_id` and the usual tracing ids are.
    static func isPlainID(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy {
                (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 45 || $0 == 95 || $0 == 46
            }
    }

    private func log(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        guard let logger else { return }
        let milliseconds = (ContinuousClock.now - start) / .milliseconds(1)
        logger.info(
            "request",
            metadata: [
                "method": .string(request.method.rawValue), "route": .string(context.endpointPath ?? "unmatched"),
                "status": .stringConvertible(status), "duration_ms": .string(String(format: "%.1f", milliseconds)),
                "request_id": .string(context.id),
            ])
    }
}

extension HTTPField.Name {
    static var xRequestID: Self { Self("X-Request-Id")! }
}
