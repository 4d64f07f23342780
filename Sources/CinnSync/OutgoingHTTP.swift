import AsyncHTTPClient
import NIOCore
import NIOPosix

/// The HTTP client of every request Cinn makes to another server (sync, Open Food Facts), and what its failures mean
/// in words.
public enum OutgoingHTTP {
    /// `HTTPClient.shared`'s settings, except that a refused or failed connection fails the request at once: the shared
    /// client tries again until the request's deadline, so a server that is down cost the whole timeout before saying
    /// so. The callers decide themselves what to try again. Never shut down, like the shared client.
    public static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// Why a request failed, in a few words.
    public static func reason(_ error: any Error) -> String {
        switch error {
        case let error as HTTPClientError where [.deadlineExceeded, .readTimeout, .connectTimeout].contains(error): "no answer in time"
        case let error as HTTPClientError where error == .remoteConnectionClosed: "the connection was closed"
        case let error as IOError where error.errnoCode == ECONNREFUSED: "the connection was refused"
        case is NIOConnectionError, is IOError: "no connection to it"
        default: "the request failed"
        }
    }
}
