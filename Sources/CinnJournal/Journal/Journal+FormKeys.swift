import CinnStore
import Foundation

extension Journal {
    /// Runs `body`, one post of a web form, so that the form's key is recorded with its first change to the journal
    /// (`Store.claiming`): the same post sent again fails as a conflict and changes nothing.
    public func claiming<T>(formKey key: UUID?, _ body: () async throws -> T) async throws -> T {
        try await store.claiming(formKey: key, user: user, body)
    }

    /// Whether a post with form key `key` changed this journal.
    public func formKeyWasPosted(_ key: UUID) async throws -> Bool {
        try await store.formKeyWasPosted(key, user: user)
    }
}
