import CinnCore
import CinnJournal
import CinnServer
import CinnStore
import CinnSync
import Foundation
import Synchronization
import Testing

@Suite("CinnSync: clients and a real server on loopback")
struct SyncClientTests {
    static let t0 = Date(timeIntervalSince1970: 1_763_712_000)  // 2025-11-21 08:00 UTC

    static func weighIn(_ kilograms: Double, minutes: Double = 0, note: String? = nil) -> WeighIn {
        WeighIn(measuredAt: t0.addingTimeInterval(minutes * 60), utcOffsetSeconds: 3600, weight: Mass(kilograms: kilograms), note: note)
    }

    @Test func twoJournalsConvergeEditsMergeFieldByFieldAndDeletionsTravel() async throws {
        let server = try await LiveServer.start()
        let a = try await ClientJournal.make(server: server), b = try await ClientJournal.make(server: server)
        let shared = try await a.store.addWeighIn(Self.weighIn(80, note: "first"), user: a.journal.user)
        let porridge = MealDefinition(
            name: "Porridge", kind: .test, carbohydrateGrams: 50,
            foods: [MealFood(foodID: UUID(), name: "Oats", grams: 60)])
        try await a.store.addMeal(porridge, user: a.journal.user)
        try await a.store.addMealEvent(
            MealEvent(mealID: porridge.id, eatenAt: Self.t0, utcOffsetSeconds: 3600, portion: 0.5), user: a.journal.user)
        try await b.store.addGlucoseReadings(
            [GlucoseReading(measuredAt: Self.t0, utcOffsetSeconds: 0, glucose: Glucose(milligramsPerDeciliter: 120))],
            user: b.journal.user)
        #expect(try await a.client.sync().pushed == 3)
        #expect(try await b.client.sync().pulled >= 4)
        try await a.client.sync()
        let server0 = try await liveRecords(server.store, server.user)
        #expect(server0.count == 4)
        #expect(try await liveRecords(a.store, a.journal.user) == server0)
        #expect(try await liveRecords(b.store, b.journal.user) == server0)
        #expect(try await b.store.meal(id: porridge.id, user: b.journal.user).foods.map(\.name) == ["Oats"])

        // Offline on both: A changes the note, B the weight of the same weigh-in; both edits survive.
        _ = try await a.store.updateWeighIn(id: shared.id, user: a.journal.user, note: .some("scale by the door"))
        try await Task.sleep(for: .milliseconds(5))
        _ = try await b.store.updateWeighIn(id: shared.id, user: b.journal.user, weight: Mass(kilograms: 79.4))
        try await a.client.sync()
        let merged = try await b.client.sync()
        #expect(merged.applied == 1)
        try await a.client.sync()
        for journal in [a, b] {
            let weighIn = try #require(try await journal.store.weighIns(user: journal.journal.user).first)
            #expect(weighIn.weight.kilograms == 79.4 && weighIn.note == "scale by the door")
        }

        try await b.store.deleteWeighIn(id: shared.id, user: b.journal.user)
        try await b.client.sync()
        try await a.client.sync()
        #expect(try await a.store.weighIns(user: a.journal.user).isEmpty)
        let serverNow = try await liveRecords(server.store, server.user)
        #expect(try await liveRecords(a.store, a.journal.user) == serverNow)
        #expect(try await a.store.pendingSyncCount() == 0)
        #expect(try await b.store.pendingSyncCount() == 0)
        try await a.close()
        try await b.close()
        try await server.stop()
    }

    @Test func foodsPresetsAndWorkoutsConvergeWithTheirExercises() async throws {
        let server = try await LiveServer.start()
        let a = try await ClientJournal.make(server: server), b = try await ClientJournal.make(server: server)
        let oats = try await a.store.addFood(
            Food(
                name: "Rolled oats", basis: .grams, nutrients: try Nutrients([.energy: 372, .protein: 13.5]),
                servings: [ServingSize(label: "1 cup", amount: 80)]
            ).validated(), user: a.journal.user)
        let breakfast = FoodPreset(
            name: "Usual breakfast", meal: .breakfast,
            items: [
                FoodPreset.Item(
                    foodID: oats.id, name: oats.name, brand: nil, servings: 1, servingLabel: "1 cup", servingAmount: 80,
                    nutrients: try Nutrients([.energy: 298]))
            ])
        try await a.store.addPreset(breakfast, user: a.journal.user)
        // A workout logged on a third device: both journals get it with its exercises and their days.
        let workout = UUID()
        _ = try await server.store.push(
            [
                SyncChange(
                    type: "workout", id: workout, changedAt: Self.t0,
                    fields: [
                        "started_at": .string("2025-11-21T18:00:00+01:00"), "name": .string("Push day"),
                        "sets": .array([
                            .object([
                                "exercise": .string("Bench Press (Barbell)"), "reps": .number(5), "weight_kg": .number(100),
                                "kind": .string("normal"),
                            ])
                        ]),
                    ])
            ], user: server.user)
        #expect(try await a.client.sync().pushed == 2)
        try await b.client.sync()
        try await a.client.sync()
        let serverRecords = try await liveRecords(server.store, server.user)
        #expect(serverRecords.keys.map { $0.split(separator: "/")[0] }.sorted() == ["food", "preset", "workout"])
        for journal in [a, b] {
            #expect(try await liveRecords(journal.store, journal.journal.user) == serverRecords)
            let bench = try #require(
                try await journal.store.exercises(user: journal.journal.user).first { $0.name == "Bench Press (Barbell)" })
            let days = try await journal.store.exerciseDays(exerciseRows: [bench.rowID])
            #expect(days[bench.rowID]?.map(\.day.iso) == ["2025-11-21"])
        }
        #expect(try await b.store.food(id: oats.id, user: b.journal.user).servings == [ServingSize(label: "1 cup", amount: 80)])
        #expect(try await b.store.presets(user: b.journal.user).map(\.name) == ["Usual breakfast"])

        try await b.store.deleteWorkout(id: workout, user: b.journal.user)
        try await b.client.sync()
        try await a.client.sync()
        #expect(try await a.store.workout(id: workout, user: a.journal.user) == nil)
        #expect(try await server.store.workout(id: workout, user: server.user) == nil)
        try await a.close()
        try await b.close()
        try await server.stop()
    }

    @Test func routinesAWorkoutInProgressThePlatesAndTheTargetsTravel() async throws {
        let server = try await LiveServer.start()
        let a = try await ClientJournal.make(server: server), b = try await ClientJournal.make(server: server)
        let legs = Routine(
            name: "Legs", note: "heavy",
            exercises: [
                PlannedExercise(exercise: "Barbell Squat", sets: 3, reps: 5, weight: Mass(kilograms: 100), restSeconds: 180),
                PlannedExercise(exercise: "Seated Leg Curl", sets: 2, reps: 12),
            ])
        try await a.journal.saveRoutine(legs)
        // A workout started on A and not finished: B sees it in progress with its sets, and finishes it.
        let started = try await a.journal.startWorkout(.routine(legs.id))
        _ = try await a.journal.logSet(
            WorkoutSet(exercise: "Barbell Squat", reps: 5, weight: Mass(kilograms: 100), rpe: 8), in: started.workout.id)
        try await a.journal.setPlates(PlateSet(unit: .pounds, bar: 45, plates: [.init(weight: 45, count: 4)]))
        let targets = NutrientTargets(
            protein: .gramsPerKilogram(1.8), fat: .percentOfEnergy(30), limits: ["sodium": NutrientLimit(maximum: 2000)])
        try await a.journal.setNutrientTargets(targets)
        try await a.client.sync()
        try await b.client.sync()
        #expect(
            try await b.store.settings(user: b.journal.user).nutrientTargets == targets, "the nutrition targets travel with the settings")
        #expect(try await b.journal.routines() == [legs])
        let onB = try #require(try await b.journal.workoutInProgress())
        #expect(onB.workout.id == started.workout.id)
        #expect(onB.workout.sets.map(\.rpe) == [8])
        #expect(try await b.store.settings(user: b.journal.user).plateSet?.bar == 45)
        _ = try await b.journal.finishWorkout(onB.workout.id)
        try await b.journal.saveRoutine(Routine(id: legs.id, name: "Legs", exercises: [legs.exercises[1], legs.exercises[0]]))
        try await b.client.sync()
        try await a.client.sync()
        #expect(try await a.journal.workoutInProgress() == nil, "finished on B")
        #expect(try await a.journal.routine(legs.id).exercises.map(\.exercise) == ["Seated Leg Curl", "Barbell Squat"])
        try await a.journal.deleteRoutine(legs.id)
        try await a.client.sync()
        try await b.client.sync()
        #expect(try await b.journal.routines().isEmpty)
        #expect(try await liveRecords(a.store, a.journal.user) == liveRecords(server.store, server.user))
        try await a.close()
        try await b.close()
        try await server.stop()
    }

    @Test func theAccountsSettingsWinOverADevicesFirstOnesAndThenSyncFieldByField() async throws {
        let server = try await LiveServer.start()
        let a = try await ClientJournal.make(server: server), b = try await ClientJournal.make(server: server)
        try await a.store.saveSettings(UserSettings(displayUnit: .pounds, onboarded: true), user: a.journal.user)
        try await b.store.saveSettings(UserSettings(displayUnit: .stones), user: b.journal.user)
        try await a.client.sync()
        try await b.client.sync()
        // B's own settings were not the account's: the server said so, and B took the account's.
        for journal in [a, b] {
            let settings = try await journal.store.settings(user: journal.journal.user)
            #expect(settings.displayUnit == .pounds && settings.onboarded)
            #expect(try await journal.store.rejectedSyncChanges().isEmpty)
            #expect(try await journal.store.pendingSyncCount() == 0)
        }
        var changed = try await b.store.settings(user: b.journal.user)
        changed.energyTargetKcal = 2100
        try await b.store.saveSettings(changed, user: b.journal.user)
        try await b.client.sync()
        try await a.client.sync()
        #expect(try await a.store.settings(user: a.journal.user).energyTargetKcal == 2100)
        #expect(try await server.store.settings(user: server.user).energyTargetKcal == 2100)
        let onServer = try await liveRecords(server.store, server.user)
        #expect(try await liveRecords(a.store, a.journal.user) == onServer)
        try await a.close()
        try await b.close()
        try await server.stop()
    }

    @Test func aRejectedChangeIsKeptAndSurfacedAndNotSentAgain() async throws {
        let server = try await LiveServer.start()
        let a = try await ClientJournal.make(server: server), b = try await ClientJournal.make(server: server)
        try await b.store.addMeal(MealDefinition(name: "Porridge"), user: b.journal.user)
        try await b.client.sync()
        let mine = MealDefinition(name: "Porridge", carbohydrateGrams: 45)
        try await a.store.addMeal(mine, user: a.journal.user)
        let first = try await a.client.sync()
        #expect(first.rejected == 1)
        #expect(try await a.store.meal(id: mine.id, user: a.journal.user).carbohydrateGrams == 45, "kept locally")
        // The server's meal of that name came down, so the local one was renamed to make room, and the
        // renamed meal is a new change that the server takes.
        #expect(try await a.store.meal(id: mine.id, user: a.journal.user).name == "Porridge (2)")
        #expect(try await a.store.rejectedSyncChanges().isEmpty)
        let second = try await a.client.sync()
        #expect(second.pushed == 1 && second.applied == 1)
        #expect(try await server.store.meals(user: server.user).map(\.name).sorted() == ["Porridge", "Porridge (2)"])

        // A rejection that nothing resolves stays, and is not sent again until the record changes.
        // (The store takes any reading above zero; the server, like the app's forms, 10 to 1000 mg/dL.)
        try await b.store.addGlucoseReadings(
            [GlucoseReading(measuredAt: Self.t0, utcOffsetSeconds: 0, glucose: Glucose(milligramsPerDeciliter: 5))],
            user: b.journal.user)
        #expect(try await b.client.sync().rejected == 1)
        #expect(try await b.client.sync().pushed == 0, "a rejection is final until the record changes")
        #expect(try await b.store.rejectedSyncChanges().first?.field == "mg_dl")
        #expect(try await b.store.glucoseReadings(user: b.journal.user).count == 1, "kept locally")
        try await a.close()
        try await b.close()
        try await server.stop()
    }

    /// Fails the first `failures` requests as a network would, after the server has done the work.
    struct LosingTransport: SyncTransport {
        let inner: ServerTransport
        let failures: Counter

        func push(_ changes: [SyncChange]) async throws -> [SyncResult] {
            let results = try await inner.push(changes)
            if failures.take() {
                throw SyncTransportError("the answer was lost", retryable: true)
            }
            return results
        }

        func changes(after cursor: String, limit: Int) async throws -> SyncPage { try await inner.changes(after: cursor, limit: limit) }
    }

    @Test func lostAnswersAreRetriedWithBackoffAndNothingIsDoubled() async throws {
        let server = try await LiveServer.start()
        var a = try await ClientJournal.make(
            server: server, transport: LosingTransport(inner: ServerTransport(server: server), failures: Counter(2)))
        a.client.batchSize = 2
        for minutes in 0..<5 {
            _ = try await a.store.addWeighIn(Self.weighIn(80 + Double(minutes) / 10, minutes: Double(minutes)), user: a.journal.user)
        }
        let summary = try await a.client.sync()
        #expect(summary.retries == 2 && summary.pushed == 5, "three batches in one sync")
        #expect(try await server.store.weighIns(user: server.user).count == 5)

        var impatient = SyncClient(
            store: a.store, user: a.journal.user, transport: HTTPSyncTransport(server: URL(string: "http://127.0.0.1:9")!, token: "x"))
        impatient.attempts = 2
        impatient.initialDelay = .milliseconds(1)
        _ = try await a.store.addWeighIn(Self.weighIn(90, minutes: 30), user: a.journal.user)
        await #expect(throws: SyncTransportError.self) { try await impatient.sync() }
        #expect(try await a.store.pendingSyncCount() == 1, "a failed sync loses nothing")
        try await a.client.sync()
        #expect(try await server.store.weighIns(user: server.user).count == 6)

        // Saved again without a change, a record is marked but has nothing to send: a batch (of two) of those
        // does not stop the sync before the record that did change.
        let oldest = try await a.store.weighIns(user: a.journal.user, limit: 10).sorted { $0.id.uuidString < $1.id.uuidString }
        for weighIn in oldest.prefix(2) {
            _ = try await a.store.updateWeighIn(id: weighIn.id, user: a.journal.user, weight: weighIn.weight)
        }
        _ = try await a.store.updateWeighIn(id: oldest[2].id, user: a.journal.user, note: .some("changed"))
        #expect(try await a.client.sync().pushed == 1)
        #expect(try await server.store.weighIns(user: server.user, limit: 10).contains { $0.id == oldest[2].id && $0.note == "changed" })
        try await a.close()
        try await server.stop()
    }
}

/// A count shared by concurrent tasks: `take` says whether one was left and uses it; `add` adds one.
final class Counter: Sendable {
    private let count: Mutex<Int>

    init(_ count: Int) { self.count = Mutex(count) }

    func take() -> Bool {
        count.withLock { count in
            defer { count -= 1 }
            return count > 0
        }
    }

    func add() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }
}
