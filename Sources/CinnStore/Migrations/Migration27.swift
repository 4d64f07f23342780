import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 27: the keys of web forms whose post changed the journal without making a record under the key (a set
    /// marked done, a day copied, a workout started): a post sent again with a key already here changes nothing. Kept
    /// for `Store.formKeyLifetime`.
    static let v27 = Migration(
        version: 27, name: "posted forms' keys",
        dialectNeutral: [
            """
            CREATE TABLE posted_forms (
                form_key $UUID NOT NULL PRIMARY KEY,
                user_id $INT NOT NULL REFERENCES users(row_id),
                posted_at_ms $INT NOT NULL
            ) $WITHOUT_ROWID
            """,
            "CREATE INDEX posted_forms_user ON posted_forms (user_id, posted_at_ms)",
        ]
    )
}
