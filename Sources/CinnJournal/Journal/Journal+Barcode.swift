import CinnCore
import CinnImport
import CinnStore
import Foundation

/// What a barcode lookup found.
public enum BarcodeLookup: Sendable, Hashable {
    /// A food Cinn already has: the user's own (a barcoded food or an accepted product) or the food database's.
    case known(Food, mine: Bool)
    /// A product just found in Open Food Facts and cached as the user's own food, to accept, edit or reject.
    case fromOpenFoodFacts(Food)
    /// No food to log: make it by hand with the barcode filled in, and the name and brand when
    /// Open Food Facts knows the product but not its nutrition.
    case unknown(Barcode, name: String? = nil, brand: String? = nil)
}

extension Journal {
    /// Looks a barcode up: the user's own foods, then the food database, then Open Food Facts (when
    /// configured). A product found there is cached as the user's own food (the barcode cache), so
    /// the next scan is local; rejecting it is deleting that food.
    public func lookupBarcode(_ text: String) async throws -> BarcodeLookup {
        let barcode = try Barcode.validated(text)
        if let food = try await store.food(barcode: barcode.digits, user: user) {
            return .known(food, mine: try await store.isOwnFood(id: food.id, user: user))
        }
        // Open Food Facts only knows GS1 codes; a store's in-house code (bad check digit) is not worth the request.
        guard let openFoodFacts, barcode.hasValidCheckDigit else { return .unknown(barcode) }
        switch try await openFoodFacts.product(barcode: barcode) {
        case .found(var food):
            food.id = .v7(at: now())
            food.barcode = barcode.digits
            return .fromOpenFoodFacts(try await store.addFood(food, user: user, externalID: "off:" + barcode.digits))
        case .withoutNutrition(let name, let brand):
            return .unknown(barcode, name: name, brand: brand)
        case .notFound, .invalidCode:
            return .unknown(barcode)
        }
    }
}
