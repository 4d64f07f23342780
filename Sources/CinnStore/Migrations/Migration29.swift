import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 29: foods an import brought, by owner, for Add food's "is there a shared food database beyond the
    /// built-in foods": SQLite probed the 7,000 built-in foods by `user_id` and read each one's row to find none.
    static let v29 = Migration(
        version: 29, name: "an index of imported foods by owner",
        dialectNeutral: [
            "CREATE INDEX foods_owner_import ON foods (user_id, import_id) WHERE import_id IS NOT NULL AND deleted = 0"
        ]
    )
}
