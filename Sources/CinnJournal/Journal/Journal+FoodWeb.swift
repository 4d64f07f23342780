import CinnCore
import CinnStore
import Foundation

extension Journal {
    /// Replaces one of the user's own foods with what its label says now, keeping its other servings.
    public func replaceFood(id: UUID, with label: NutritionLabel) async throws -> Food {
        guard try await store.isOwnFood(id: id, user: user) else { throw CinnError.notFound("no food of yours with id \(id)") }
        let old = try await store.food(id: id, user: user)
        var food = try label.food(id: id)
        food.servings += old.servings.dropFirst().filter { serving in !food.servings.contains { $0.label == serving.label } }
        return try await store.updateFood(food, user: user)
    }
}
