import CinnCore
import Foundation
import SQLKit

/// The kinds of record a web form creates under the id its key holds (the web app's form keys).
public enum CreatedRecord: String, Sendable, CaseIterable {
    case glucoseReading = "glucose_readings"
    case insulinDose = "insulin_doses"
    case mealEvent = "meal_events"
    case foodEntry = "food_entries"
}

extension Store {
    /// Whether this user has a record of `kind` with `id` (not deleted): a form posted again finds the one the first
    /// post made.
    public func hasRecord(_ kind: CreatedRecord, id: UUID, user: UserID) async throws -> Bool {
        try await withConnection { db in
            try await db.raw(
                """
                SELECT 1 AS found FROM \(unsafeRaw: kind.rawValue)
                WHERE id = \(bind: bind(id)) AND user_id = \(bind: user.rawValue) AND deleted = 0
                """
            ).first() != nil
        }
    }
}
