import CinnCore
import Foundation
import SQLKit
import Synchronization

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

/// A form's key waiting to be claimed by the first write transaction of its post (`Store.claiming`).
final class FormKeyClaim: Sendable {
    let key: UUID
    let user: UserID
    private let pending = Mutex(true)

    init(key: UUID, user: UserID) {
        self.key = key
        self.user = user
    }

    /// True the first time only: a post's later transactions do not claim the key again.
    func take() -> Bool {
        pending.withLock { pending in
            defer { pending = false }
            return pending
        }
    }

    /// The transaction that took the key rolled back: the next one takes it.
    func release() {
        pending.withLock { $0 = true }
    }
}

extension Store {
    /// How long a posted form's key is kept: a phone's queue that waited longer than this sends its entries as new.
    public static let formKeyLifetime: Duration = .seconds(90 * 86_400)

    @TaskLocal static var formKeyClaim: FormKeyClaim?

    /// Runs `body` (one post of a form) so that its first write transaction also records `key` for `user`, all of it
    /// written or none: when the key was recorded before, that transaction fails as a conflict and nothing of this
    /// post is written. Without a key, `body` just runs.
    public func claiming<T>(formKey key: UUID?, user: UserID, _ body: () async throws -> T) async throws -> T {
        guard let key else { return try await body() }
        return try await Self.$formKeyClaim.withValue(FormKeyClaim(key: key, user: user)) { try await body() }
    }

    /// Whether a post with form key `key` changed this user's journal (within `formKeyLifetime`).
    public func formKeyWasPosted(_ key: UUID, user: UserID) async throws -> Bool {
        try await withConnection { db in
            try await db.raw(
                "SELECT 1 AS found FROM posted_forms WHERE form_key = \(bind: bind(key)) AND user_id = \(bind: user.rawValue)"
            ).first() != nil
        }
    }

    /// In a write transaction: records the pending form key (`claiming`), once per post, and forgets this user's keys
    /// older than `formKeyLifetime`; returns the claim it recorded. A key recorded before is a unique-key violation, so
    /// the transaction fails.
    func claimFormKey(_ db: any SQLDatabase) async throws -> FormKeyClaim? {
        guard let claim = Self.formKeyClaim, claim.take() else { return nil }
        let time = milliseconds(now())
        let (seconds, _) = Self.formKeyLifetime.components
        try await db.raw(
            """
            DELETE FROM posted_forms WHERE user_id = \(bind: claim.user.rawValue) AND posted_at_ms < \(bind: time - seconds * 1000)
            """
        ).run()
        try await db.raw(
            """
            INSERT INTO posted_forms (form_key, user_id, posted_at_ms)
            VALUES (\(bind: bind(claim.key)), \(bind: claim.user.rawValue), \(bind: time))
            """
        ).run()
        return claim
    }
}
