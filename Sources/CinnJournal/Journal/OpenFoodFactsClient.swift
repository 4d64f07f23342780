import AsyncHTTPClient
import CinnCore
import CinnImport
import CinnSync
import Foundation
import NIOCore

/// Where a barcode Cinn does not know is looked up: Open Food Facts' product API, or in tests anything that answers
/// as it does.
public protocol ProductLookup: Sendable {
    /// The product with this barcode: found, not found, or an invalid code. A network failure, a timeout or a body
    /// that is not a product response is an `upstreamFailed` error saying so.
    func product(barcode: Barcode) async throws -> OpenFoodFactsProduct
}

/// Looks products up in the Open Food Facts product API (`GET {base}/api/v2/product/{barcode}.json`). The body is
/// read as it streams and the lookup stops at `OpenFoodFactsProduct.maximumBodySize`, so a server sending more
/// costs that much memory at most.
public struct OpenFoodFactsClient: ProductLookup {
    public let baseURL: URL
    public let timeout: TimeInterval

    /// The public server.
    public static let defaultBaseURL = URL(string: "https://world.openfoodfacts.org")!

    public init(baseURL: URL = OpenFoodFactsClient.defaultBaseURL, timeout: TimeInterval = 8) {
        self.baseURL = baseURL
        self.timeout = timeout
    }

    public func product(barcode: Barcode) async throws -> OpenFoodFactsProduct {
        var request = HTTPClientRequest(url: baseURL.appendingPathComponent("api/v2/product/\(barcode.digits).json").absoluteString)
        request.headers.add(name: "User-Agent", value: "Cinn/1 (self-hosted health journal)")
        let deadline = TimeAmount.milliseconds(Int64(timeout * 1000))
        let body: ByteBuffer
        do {
            let response = try await OutgoingHTTP.client.execute(request, timeout: deadline)
            let status = response.status.code
            guard status == 200 || status == 404 else {
                throw CinnError(
                    .upstreamFailed, "Open Food Facts answered with HTTP \(status); try again later or make the food from its label")
            }
            body = try await response.body.collect(upTo: OpenFoodFactsProduct.maximumBodySize)
        } catch let error as CinnError {
            throw error
        } catch is NIOTooManyBytesError {
            throw CinnError(.upstreamFailed, "Open Food Facts sent a response too large to read; make the food from its label")
        } catch {
            throw CinnError(
                .upstreamFailed,
                "Cinn cannot reach Open Food Facts (\(OutgoingHTTP.reason(error))); check the server's "
                    + "network, or make the food from its label")
        }
        do {
            return try OpenFoodFactsProduct(responseBody: Data(buffer: body))
        } catch {
            throw CinnError(
                .upstreamFailed, "Open Food Facts sent a product Cinn cannot read (\(error.message)); make the food from its label")
        }
    }
}
