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
    /// Nobody knows it: make the food by hand, with the barcode filled in.
    case unknown(Barcode)
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
        guard let openFoodFacts else { return .unknown(barcode) }
        switch try await openFoodFacts.product(barcode: barcode) {
        case .found(var food):
            food.id = .v7(at: now())
            food.barcode = barcode.digits
            let checked: Food
            do { checked = try food.validated() } catch {
                throw CinnError(.upstreamFailed, "Open Food Facts sent a product Cinn cannot use (\(error.message)); make the food by hand")
            }
            return .fromOpenFoodFacts(try await store.addFood(checked, user: user, externalID: "off:" + barcode.digits))
        case .notFound, .invalidCode:
            return .unknown(barcode)
        }
    }
}
