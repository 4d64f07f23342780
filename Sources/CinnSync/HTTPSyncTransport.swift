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
    struct PushAnswer: Decodable { var results: [SyncResult] }

    public func push(_ changes: [SyncChange]) async throws -> [SyncResult] {
        var request = request("api/v1/sync/push")
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(PushBody(changes: changes))
        return try await send(request, as: PushAnswer.self).results
    }

    public func changes(after cursor: String, limit: Int) async throws -> SyncPage {
        var components = URLComponents(url: server.appendingPathComponent("api/v1/sync/changes"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "after", value: cursor), URLQueryItem(name: "limit", value: String(limit))]
        var request = URLRequest(url: components.url!, timeoutInterval: timeout)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return try await send(request, as: SyncPage.self)
    }

    private func request(_ path: String) -> URLRequest {
        var request = URLRequest(url: server.appendingPathComponent(path), timeoutInterval: timeout)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return request
    }

    private func send<T: Decodable>(_ request: URLRequest, as type: T.Type) async throws -> T {
        let data: Data, response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw SyncTransportError("cannot reach \(server.absoluteString): \(error.localizedDescription)", retryable: true)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        switch status {
        case 200:
            do {
                return try JSONDecoder().decode(T.self, from: data)
            } catch {
                throw SyncTransportError("\(server.absoluteString) answered with something that is not the sync protocol", retryable: false)
            }
        case 401:
            throw SyncTransportError("\(server.absoluteString) refused the token (HTTP 401); make a new one on the Account page", retryable: false)
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
