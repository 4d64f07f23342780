import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 21: API tokens for Nightscout clients: a token's scope (everything, or a Nightscout uploader's sending
    /// only, or a follower's reading only), and its SHA-1 hex, which uploaders send in the `api-secret` header.
    static let v21 = Migration(
        version: 21, name: "API token scopes and the Nightscout secret's digest",
        dialectNeutral: [
            "ALTER TABLE api_tokens ADD COLUMN scope TEXT NOT NULL DEFAULT 'all'",
            // Tokens made before this have none: a Nightscout client sends those as ?token=.
            "ALTER TABLE api_tokens ADD COLUMN secret_sha1 TEXT",
            "CREATE INDEX api_tokens_secret_sha1 ON api_tokens (secret_sha1)",
        ]
    )
}
