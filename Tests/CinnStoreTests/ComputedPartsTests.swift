import CinnCore
import Foundation
import Synchronization
import Testing

@testable import CinnStore

/// What pages compute is kept while the journal is unchanged, and never served once it changed — by this store or
/// another instance on the same database.
@Suite struct ComputedPartsTests {
    /// A second store on the same database: the same SQLite file, or the same PostgreSQL schema.
    static func sibling(of store: Store) async throws -> Store {
        switch store.location {
        case .sqlite(let path):
            return try Store(.sqlite(path: path))
        case .postgres(let url):
            let schema = try await store.withConnection { db in
                try await db.raw("SELECT current_schema() AS name").first()?.decode(column: "name", as: String.self)
            }
            return try Store(.postgres(url: url), schema: schema)
        }
    }

    @Test(arguments: Backend.enabled)
    func aResultIsKeptUntilTheJournalChangesAnywhere(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser(), other = try await store.user(named: "other")
            let computed = Mutex(0)
            @Sendable func count() -> Int {
                computed.withLock {
                    $0 += 1
                    return $0
                }
            }
            #expect(try await store.computed("test", user: me, parameters: "a") { count() } == 1)
            #expect(try await store.computed("test", user: me, parameters: "a") { count() } == 1, "kept")
            #expect(try await store.computed("test", user: me, parameters: "b") { count() } == 2, "other parameters")
            #expect(try await store.computed("test", user: other, parameters: "a") { count() } == 3, "another person's")

            // A write of this person's journal by another instance: computed again here.
            let sibling = try await Self.sibling(of: store)
            try await sibling.addWeighIn(
                WeighIn(measuredAt: fixedNow, utcOffsetSeconds: 0, weight: Mass(kilograms: 80), source: "manual"), user: me)
            try await sibling.close()
            #expect(try await store.computed("test", user: me, parameters: "a") { count() } == 4, "the journal changed")
            #expect(try await store.computed("test", user: me, parameters: "a") { count() } == 4)
            #expect(try await store.computed("test", user: other, parameters: "a") { count() } == 3, "not the other person's")
        }
    }

    @Test func theLeastRecentlyUsedResultGoesFirst() {
        let parts = ComputedParts(capacity: 2)
        let key = { (name: String) in ComputedParts.Key(user: 1, part: "test", parameters: name) }
        parts.keep(1, for: key("a"), version: 7)
        parts.keep(2, for: key("b"), version: 7)
        #expect(parts.value(key("a"), version: 7) as? Int == 1)
        parts.keep(3, for: key("c"), version: 7)
        #expect(parts.value(key("b"), version: 7) == nil, "b was used least recently")
        #expect(parts.value(key("a"), version: 7) as? Int == 1 && parts.value(key("c"), version: 7) as? Int == 3)
        #expect(parts.value(key("a"), version: 8) == nil, "another count of changes")
    }
}
