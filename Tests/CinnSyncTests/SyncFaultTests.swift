import CinnCore
import CinnJournal
import CinnServer
import CinnStore
import CinnSync
import Foundation
import Synchronization
import Testing

/// Delivers pushes badly, as networks do: drops the answer after the server has committed (30 %), delivers
/// a push twice, and now and then delivers an old push again, late.
final class FaultyTransport: SyncTransport, Sendable {
    let inner: ServerTransport
    private let state: Mutex<(random: SplitMix64, old: [[SyncChange]], faults: Bool)>

    init(inner: ServerTransport, seed: UInt64) {
        self.inner = inner
        state = Mutex((SplitMix64(seed: seed), [], true))
    }

    func heal() { state.withLock { $0.faults = false } }

    private func roll() -> (drop: Bool, twice: Bool, replay: [SyncChange]?) {
        state.withLock { state in
            guard state.faults else { return (false, false, nil) }
            let drop = state.random.nextDouble() < 0.3, twice = state.random.nextDouble() < 0.1
            let replay =
                !state.old.isEmpty && state.random.nextDouble() < 0.1
                ? state.old[Int(state.random.nextDouble() * Double(state.old.count))] : nil
            return (drop, twice, replay)
        }
    }

    func push(_ changes: [SyncChange]) async throws -> [SyncResult] {
        let fault = roll()
        state.withLock { $0.old.append(changes) }
        if let replay = fault.replay { _ = try await inner.push(replay) }
        var results = try await inner.push(changes)
        if fault.twice { results = try await inner.push(changes) }
        if fault.drop { throw SyncTransportError("the answer was lost", retryable: true) }
        return results
    }

    func changes(after cursor: String, limit: Int) async throws -> SyncPage {
        let page = try await inner.changes(after: cursor, limit: limit)
        if roll().drop { throw SyncTransportError("the answer was lost", retryable: true) }
        return page
    }
}

/// What every client did, to know what must be there at the end.
final class Ledger: Sendable {
    private let state = Mutex<(created: Set<String>, deleted: Set<String>)>(([], []))

    func created(_ key: String) { state.withLock { _ = $0.created.insert(key) } }
    func deleted(_ key: String) { state.withLock { _ = $0.deleted.insert(key) } }
    var live: Set<String> { state.withLock { $0.created.subtracting($0.deleted) } }
}

@Suite("Sync under faults")
struct SyncFaultTests {
    /// Operations in all; CINN_SYNC_FAULT_OPS sets it (Benchmarks/sync/run.sh runs 10,000).
    static var operations: Int { Int(ProcessInfo.processInfo.environment["CINN_SYNC_FAULT_OPS"] ?? "") ?? 900 }

    /// SQLite always; PostgreSQL too when CINN_TEST_POSTGRES_URL is set.
    static let onPostgres: [Bool] =
        ProcessInfo.processInfo.environment["CINN_TEST_POSTGRES_URL", default: ""].isEmpty ? [false] : [false, true]

    @Test(arguments: onPostgres)
    func threeClientsConvergeWithLostAnswersRestartsAndDuplicatePushes(postgres: Bool) async throws {
        let server = try await LiveServer.start(postgres: postgres)
        let ledger = Ledger()
        var clients: [ClientJournal] = []
        var transports: [FaultyTransport] = []
        for seed in 1...3 {
            let transport = FaultyTransport(inner: ServerTransport(server: server), seed: UInt64(seed))
            var client = try await ClientJournal.make(server: server, transport: transport)
            client.client.batchSize = 50
            client.client.pageSize = 60
            client.client.attempts = 30
            clients.append(client)
            transports.append(transport)
        }
        let perClient = Self.operations / 3
        let done = Counter(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, client) in clients.enumerated() {
                group.addTask {
                    try await Self.work(client, operations: perClient, seed: UInt64(100 + index), ledger: ledger)
                    done.add()
                }
            }
            group.addTask {
                var restarts = 0
                while done.value < 3 {
                    try await Task.sleep(for: .milliseconds(150))
                    try await server.restart()
                    restarts += 1
                }
                #expect(restarts > 0)
            }
            try await group.waitForAll()
        }
        for transport in transports { transport.heal() }
        for _ in 0..<2 {
            for client in clients { try await client.client.sync() }
        }
        let expected = try await liveRecords(server.store, server.user)
        // What the server made of the clients' meals (one meal log): a preset of each everyday meal, and each event of
        // one logged into the food log once, whatever the faults.
        let derived = Set(expected.keys.filter { $0.hasPrefix("preset/") || $0.hasPrefix("food_entry/") })
        #expect(Set(expected.keys).subtracting(derived) == ledger.live, "none lost, none brought back")
        #expect(derived.filter { $0.hasPrefix("preset/") }.count == ledger.live.filter { $0.hasPrefix("meal/") }.count)
        let logged = expected.filter { $0.key.hasPrefix("food_entry/") }.compactMap { $0.value["meal_event_id"]?.string }
        #expect(
            logged.sorted() == ledger.live.filter { $0.hasPrefix("meal_event/") }.map { String($0.dropFirst("meal_event/".count)) }.sorted()
        )
        for client in clients {
            let records = try await liveRecords(client.store, client.journal.user)
            #expect(records.count == expected.count)
            #expect(records == expected)
            #expect(try await client.store.pendingSyncCount() == 0)
            #expect(try await client.store.rejectedSyncChanges().isEmpty)
        }
        let weighIns = try await server.store.weighIns(user: server.user, limit: 1_000_000)
        #expect(Set(weighIns.map(\.id)).count == weighIns.count, "no record twice")
        for client in clients { try await client.close() }
        try await server.stop()
    }

    /// Random creates, edits and deletes on one client, with a sync every few operations (which may fail:
    /// the next one catches up).
    static func work(_ client: ClientJournal, operations: Int, seed: UInt64, ledger: Ledger) async throws {
        var random = SplitMix64(seed: seed)
        let store = client.store, user = client.journal.user
        let start = Date(timeIntervalSince1970: 1_763_712_000)
        for step in 0..<operations {
            let time = start.addingTimeInterval(Double(step) * 60 + random.nextDouble() * 30)
            let roll = random.nextDouble()
            let weighIns = try await store.weighIns(user: user, limit: 50)
            if roll < 0.35 || weighIns.isEmpty {
                let added = try await store.addWeighIn(
                    WeighIn(
                        measuredAt: time, utcOffsetSeconds: 3600,
                        weight: Mass(kilograms: 60 + random.nextDouble() * 40)), user: user)
                ledger.created("weigh_in/\(added.id.uuidString.lowercased())")
            } else if roll < 0.55 {
                let target = weighIns[Int(random.nextDouble() * Double(weighIns.count))]
                _ = try await store.updateWeighIn(
                    id: target.id, user: user, weight: Mass(kilograms: 60 + random.nextDouble() * 40),
                    note: random.nextDouble() < 0.5 ? .some("edit \(step)") : .some(nil))
            } else if roll < 0.7 {
                let target = weighIns[Int(random.nextDouble() * Double(weighIns.count))]
                try await store.deleteWeighIn(id: target.id, user: user)
                ledger.deleted("weigh_in/\(target.id.uuidString.lowercased())")
            } else if roll < 0.85 {
                let reading = GlucoseReading(
                    measuredAt: time, utcOffsetSeconds: 0, glucose: Glucose(milligramsPerDeciliter: 70 + random.nextDouble() * 150))
                try await store.addGlucoseReadings([reading], user: user)
                ledger.created("glucose_reading/\(reading.id.uuidString.lowercased())")
            } else {
                let meals = try await store.meals(user: user)
                if meals.count < 5 || random.nextDouble() < 0.2 {
                    let meal = MealDefinition(name: "Meal \(seed)-\(step)", carbohydrateGrams: 20 + random.nextDouble() * 60)
                    try await store.addMeal(meal, user: user)
                    ledger.created("meal/\(meal.id.uuidString.lowercased())")
                } else {
                    let event = MealEvent(
                        mealID: meals[Int(random.nextDouble() * Double(meals.count))].id, eatenAt: time, utcOffsetSeconds: 0)
                    try await store.addMealEvent(event, user: user)
                    ledger.created("meal_event/\(event.id.uuidString.lowercased())")
                }
            }
            if random.nextDouble() < 0.15 { _ = try? await client.client.sync() }
        }
    }
}
