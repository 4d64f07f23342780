import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 15: the calorie target follows the data by default. A journal following the formula moves to the
    /// adaptive basis (the formula until an adaptive estimate qualifies, then the best estimate, moving once a week); the
    /// change reaches sync clients as a new version of the settings.
    static let v15 = Migration(
        version: 15, name: "calorie target follows the data",
        dialectNeutral: [
            """
            UPDATE users SET last_version = last_version + 1
            WHERE row_id IN (SELECT user_id FROM user_settings WHERE target_basis = 'formula')
            """,
            """
            UPDATE user_settings SET target_basis = 'adaptive',
                version = (SELECT last_version FROM users WHERE users.row_id = user_settings.user_id)
            WHERE target_basis = 'formula'
            """,
        ])
}
