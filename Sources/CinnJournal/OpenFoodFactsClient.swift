import CinnCore
import CinnImport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Looks products up in the Open Food Facts product API (`GET {base}/api/v2/product/{barcode}.json`).
public struct OpenFoodFactsClient: Sendable {
    public let baseURL: URL
    public let timeout: TimeInterval

    /// The public server.
    public static let defaultBaseURL = URL(string: "https://world.openfoodfacts.org")!

    public init(baseURL: URL = OpenFoodFactsClient.defaultBaseURL, timeout: TimeInterval = 8) {
        self.baseURL = baseURL
        self.timeout = timeout
    }

    /// The product with this barcode: found, not found, or an invalid code. A network failure, a
    /// timeout or a body that is not a product response is an `upstreamFailed` error saying so.
    public func product(barcode: Barcode) async throws -> OpenFoodFactsProduct {
        let url = baseURL.appendingPathComponent("api/v2/product/\(barcode.digits).json")
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.setValue("Cinn/1 (self-hosted health journal)", forHTTPHeaderField: "User-Agent")
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw CinnError(.upstreamFailed, "cannot reach Open Food Facts at \(baseURL.absoluteString) (\(Self.reason(error))); "
                            + "check the network, or make the food by hand")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 || status == 404 else {
            throw CinnError(.upstreamFailed, "Open Food Facts answered with HTTP \(status); try again later or make the food by hand")
        }
        guard data.count <= OpenFoodFactsProduct.maximumBodySize else {
            throw CinnError(.upstreamFailed, "Open Food Facts sent a response too large to read")
        }
        do {
            return try OpenFoodFactsProduct(responseBody: data)
        } catch {
            throw CinnError(.upstreamFailed, "Open Food Facts sent a product Cinn cannot read (\(error.message)); make the food by hand")
        }
    }

    private static func reason(_ error: any Error) -> String {
        guard let error = error as? URLError else { return "the request failed" }
        switch error.code {
        case .timedOut: return "no answer in time"
        case .notConnectedToInternet, .networkConnectionLost: return "no network"
        case .cannotFindHost, .dnsLookupFailed: return "the host is unknown"
        case .cannotConnectToHost: return "the connection was refused"
        default: return "the request failed"
        }
    }
}
