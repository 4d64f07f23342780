import CinnCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The sync protocol over HTTP with a bearer API token: `POST {server}/api/v1/sync/push`,
/// `GET {server}/api/v1/sync/changes`.
public struct HTTPSyncTransport: SyncTransport {
    public let server: URL
    public let token: String
    public let timeout: TimeInterval

    public init(server: URL, token: String, timeout: TimeInterval = 60) {
        self.server = server
        self.token = token
        self.timeout = timeout
    }

    struct PushBody: Encodable { var changes: [SyncChange] }

    public func push(_ changes: [SyncChange]) async throws -> [SyncResult] {
        var request = request(server.appendingPathComponent("api/v1/sync/push"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(PushBody(changes: changes))
        let body = try await send(request)
        return try protocolAnswer { () throws(CinnError) in try SyncResult.results(jsonText: body) }
    }

    public func changes(after cursor: String, limit: Int) async throws -> SyncPage {
        var components = URLComponents(url: server.appendingPathComponent("api/v1/sync/changes"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "after", value: cursor), URLQueryItem(name: "limit", value: String(limit))]
        let body = try await send(request(components.url!))
        return try protocolAnswer { () throws(CinnError) in try SyncPage(jsonText: body) }
    }

    private func protocolAnswer<T>(_ read: () throws(CinnError) -> T) throws -> T {
        do {
            return try read()
        } catch {
            throw SyncTransportError(
                "\(server.absoluteString) answered with something that is not the sync protocol (\(error.message))",
                retryable: false)
        }
    }

    private func request(_ url: URL) -> URLRequest {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return request
    }

    /// The body of a 200 answer; a readable error for anything else.
    private func send(_ request: URLRequest) async throws -> Data {
        let data: Data, response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw SyncTransportError("cannot reach \(server.absoluteString): \(error.localizedDescription)", retryable: true)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        switch status {
        case 200:
            return data
        case 401:
            throw SyncTransportError(
                "\(server.absoluteString) refused the token (HTTP 401); make a new one on the Account page", retryable: false)
        case 429, 500...599:
            throw SyncTransportError("\(server.absoluteString) answered HTTP \(status)", retryable: true)
        default:
            let message = (try? JSONDecoder().decode(ErrorBody.self, from: data))?.error.message ?? "HTTP \(status)"
            throw SyncTransportError("\(server.absoluteString) refused the request: \(message)", retryable: false)
        }
    }

    struct ErrorBody: Decodable {
        struct Detail: Decodable { var message: String }
        var error: Detail
    }
}
