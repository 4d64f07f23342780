import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 28: the foods with a brand, for Add food's "can this person find a branded product at all": without
    /// it, a journal whose foods have no brand (the built-in foods have none) read every food's row to say no.
    static let v28 = Migration(
        version: 28, name: "an index of branded foods",
        dialectNeutral: [
            "CREATE INDEX foods_branded ON foods (user_id) WHERE brand IS NOT NULL AND deleted = 0"
        ]
    )
}
