import CinnCore
import Foundation

/// What the Open Food Facts product API (`GET /api/v2/product/{barcode}.json`) answered.
public enum OpenFoodFactsProduct: Sendable, Hashable {
    /// The product, read as the dumps are read.
    case found(Food)
    /// No product has the barcode (status 0, "product not found"; HTTP 404).
    case notFound
    /// Open Food Facts does not accept the barcode (status 0, "no code or invalid code").
    case invalidCode
    /// The product is known but has no name or no energy value: a food to make by hand, with what is known.
    case withoutNutrition(name: String?, brand: String?)

    /// The largest response body read.
    public static let maximumBodySize = 8 << 20

    /// Decodes a response body by its `status`, whatever the HTTP status: a 404 carries a body too.
    public init(responseBody body: Data) throws(CinnError) {
        guard body.count <= Self.maximumBodySize else {
            throw .invalid("body", "the response is larger than \(Self.maximumBodySize >> 20) MiB")
        }
        let document: JSONValue
        do throws(JSONSyntaxError) {
            document = try JSONParser.parse(body)
        } catch {
            throw .invalid("body", "the response is not JSON: \(error.fileError.message)")
        }
        guard case .object(let envelope) = document else { throw .invalid("body", "the response is not a JSON object") }
        guard let status = envelope["status"]?.integer else {
            throw .invalid("status", "the response has no status (0 or 1)")
        }
        switch status {
        case 0:
            self = envelope["status_verbose"]?.string?.contains("invalid code") == true ? .invalidCode : .notFound
        case 1:
            guard case .object(var members)? = envelope["product"] else {
                throw .invalid("product", "the response says the product was found but holds no product")
            }
            if members["code"] == nil { members["code"] = envelope["code"] }
            var generator = SystemRandomNumberGenerator()
            let product = OpenFoodFactsJSONProduct(members: members, fieldPrefix: "product.")
            switch try OpenFoodFactsFood.read(product, using: &generator) {
            case .food(let food, _): self = .found(food)
            case .incomplete:
                self = .withoutNutrition(
                    name: product.text(.productName) ?? product.text(.productNameEnglish),
                    brand: OpenFoodFactsFood.firstBrand(product))
            }
        default:
            throw .invalid("status", "the response has an unknown status \(status)")
        }
    }
}
