import AsyncHTTPClient
import CinnCore
import Foundation
import NIOCore
import NIOHTTP1

/// The sync protocol over HTTP with a bearer API token: `POST {server}/api/v1/sync/push`,
/// `GET {server}/api/v1/sync/changes`. Answers are read as they stream, up to `maximumAnswerBytes`.
public struct HTTPSyncTransport: SyncTransport {
    public let server: URL
    public let token: String
    /// How long one request may take, from connecting to the answer's last byte.
    public let timeoutSeconds: Int64

    /// More than a page of the largest limit the server allows needs; a server sending more is not the sync protocol.
    public static let maximumAnswerBytes = 64 << 20

    public init(server: URL, token: String, timeoutSeconds: Int64 = 60) {
        self.server = server
        self.token = token
        self.timeoutSeconds = timeoutSeconds
    }

    struct PushBody: Encodable { var changes: [SyncChange] }

    public func push(_ changes: [SyncChange]) async throws -> [SyncResult] {
        var request = request(server.appendingPathComponent("api/v1/sync/push"))
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(data: try JSONEncoder().encode(PushBody(changes: changes))))
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

    private func request(_ url: URL) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        return request
    }

    /// The body of a 200 answer; a readable error for anything else.
    private func send(_ request: HTTPClientRequest) async throws -> Data {
        let status: UInt, body: ByteBuffer
        do {
            let response = try await OutgoingHTTP.client.execute(request, timeout: .seconds(timeoutSeconds))
            status = response.status.code
            body = try await response.body.collect(upTo: Self.maximumAnswerBytes)
        } catch is NIOTooManyBytesError {
            throw SyncTransportError(
                "\(server.absoluteString) sent an answer larger than \(Self.maximumAnswerBytes >> 20) MiB: not the sync protocol",
                retryable: false)
        } catch {
            throw SyncTransportError("cannot reach \(server.absoluteString): \(OutgoingHTTP.reason(error))", retryable: true)
        }
        let data = Data(buffer: body)
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
