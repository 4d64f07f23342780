import CinnCore
import Foundation
import Testing

@testable import CinnStore

/// A posted form's key is recorded in the same transaction as the change it made: all of it or none.
@Suite struct FormKeyStoreTests {
    static func weighIn(_ kilograms: Double, at clock: Clock) -> WeighIn {
        WeighIn(measuredAt: clock.now, utcOffsetSeconds: 0, weight: Mass(kilograms: kilograms), note: nil, source: "manual")
    }

    @Test(arguments: Backend.enabled)
    func aKeyGoesWithItsChangeOrNotAtAll(_ backend: Backend) async throws {
        let clock = Clock()
        try await TestDatabase.with(backend, now: { clock.now }) { store in
            let user = try await store.localUser()
            let key = UUID.v7()
            // A change that fails records no key: the same key may try again.
            await #expect(throws: CinnError.self) {
                try await store.claiming(formKey: key, user: user) {
                    try await store.transaction { db in
                        try await db.raw("INSERT INTO no_such_table VALUES (1)").run()
                    }
                }
            }
            #expect(try await store.formKeyWasPosted(key, user: user) == false)

            try await store.claiming(formKey: key, user: user) { try await store.addWeighIn(Self.weighIn(80, at: clock), user: user) }
            #expect(try await store.formKeyWasPosted(key, user: user))
            await #expect(throws: CinnError(.conflict, "a record with the same identity already exists")) {
                try await store.claiming(formKey: key, user: user) { try await store.addWeighIn(Self.weighIn(81, at: clock), user: user) }
            }
            #expect(try await store.dailyWeights(user: user).map(\.weight.kilograms) == [80], "the second post wrote nothing")

            // Another person's key is not this person's; a post's later writes do not claim it again.
            let other = try await store.createAccount(name: "bob", passwordHash: "h", role: .member).user
            #expect(try await store.formKeyWasPosted(key, user: other) == false)
            let two = UUID.v7()
            try await store.claiming(formKey: two, user: user) {
                try await store.addWeighIn(Self.weighIn(80.5, at: clock), user: user)
                try await store.addWeighIn(Self.weighIn(80.6, at: clock), user: user)
            }

            // A post whose first write rolled back records the key with its next one.
            let three = UUID.v7()
            try await store.claiming(formKey: three, user: user) {
                _ = try? await store.transaction { db in try await db.raw("INSERT INTO no_such_table VALUES (1)").run() }
                try await store.addWeighIn(Self.weighIn(80.7, at: clock), user: user)
            }
            #expect(try await store.formKeyWasPosted(three, user: user))

            // Keys are kept for their lifetime, then forgotten by the next post.
            let (seconds, _) = Store.formKeyLifetime.components
            clock.now += TimeInterval(seconds) + 60
            try await store.claiming(formKey: UUID.v7(), user: user) { try await store.addWeighIn(Self.weighIn(79, at: clock), user: user) }
            #expect(try await store.formKeyWasPosted(key, user: user) == false)
            #expect(try await store.formKeyWasPosted(two, user: user) == false)
        }
    }
}
