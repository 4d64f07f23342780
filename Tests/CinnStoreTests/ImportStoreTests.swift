import CinnCore
import Foundation
import Testing

@testable import CinnStore

@Suite struct ImportStoreTests {
    let readings = (1...5).map { reading(80 + Double($0) / 10, at: "2024-03-0\($0)T07:00:00Z", key: "csv:\($0)", line: $0 + 1) }

    func parsed(_ readings: [ImportedWeighIn], rejected: [RejectedRow] = []) -> (([ImportedWeighIn]) async throws -> Void) async throws ->
        ImportReport
    {
        { insert in
            try await insert(readings)
            return ImportReport(format: "csv", rowsRead: readings.count + rejected.count, rejected: rejected)
        }
    }

    @Test(arguments: Backend.enabled)
    func importIsOneUndoableBatchAndReimportingAddsNothing(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let user = try await store.localUser()
            let first = try await store.importWeighIns(
                user: user, format: "csv", fileName: "w.csv", mode: ImportMode(),
                read: parsed(readings))
            #expect(first.imported == 5)
            #expect(first.duplicates == 0)
            let batchID = try #require(first.importID)
            #expect(try await store.weighInCount(user: user) == 5)
            #expect(try await store.weighIns(user: user).allSatisfy { $0.importID == batchID && $0.source == "import:csv" })

            let again = try await store.importWeighIns(
                user: user, format: "csv", fileName: "w.csv", mode: ImportMode(),
                read: parsed(readings))
            #expect(again.imported == 0)
            #expect(again.duplicates == 5)
            #expect(again.importID == nil)

            let batches = try await store.imports(user: user)
            #expect(batches.map(\.id) == [batchID])
            #expect(batches[0].imported == 5)
            #expect(batches[0].fileName == "w.csv")

            #expect(try await store.undoImport(id: batchID, user: user) == 5)
            #expect(try await store.weighInCount(user: user) == 0)
            #expect(try await store.imports(user: user)[0].undoneAt != nil)
            await #expect(throws: CinnError.self) { try await store.undoImport(id: batchID, user: user) }

            let back = try await store.importWeighIns(
                user: user, format: "csv", fileName: "w.csv", mode: ImportMode(),
                read: parsed(readings))
            #expect(back.imported == 5)
            #expect(try await store.weighInCount(user: user) == 5)
        }
    }

    @Test(arguments: Backend.enabled)
    func duplicateKeysInsideOneFileCountOnce(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let user = try await store.localUser()
            let doubled = readings + [readings[0]]
            let report = try await store.importWeighIns(
                user: user, format: "fitbit", fileName: nil, mode: ImportMode(),
                read: parsed(doubled))
            #expect(report.imported == 5)
            #expect(report.duplicates == 1)
        }
    }

    @Test(arguments: Backend.enabled)
    func fileWithBadRowsWritesNothingUnlessAskedToSkipThem(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let user = try await store.localUser()
            let bad = [RejectedRow(line: 9, field: "weight", reason: "weight must be above zero")]
            let rejected = try await store.importWeighIns(
                user: user, format: "csv", fileName: nil, mode: ImportMode(),
                read: parsed(readings, rejected: bad))
            #expect(rejected.imported == 0)
            #expect(rejected.rejected == bad)
            #expect(rejected.importID == nil)
            #expect(try await store.weighInCount(user: user) == 0)
            #expect(try await store.imports(user: user).isEmpty)

            let skipped = try await store.importWeighIns(
                user: user, format: "csv", fileName: nil,
                mode: ImportMode(skipInvalid: true), read: parsed(readings, rejected: bad))
            #expect(skipped.imported == 5)
            #expect(skipped.rejectedCount == 1)
            #expect(try await store.imports(user: user).first?.rejected == 1)
        }
    }

    /// Notes travel through COPY's text format on PostgreSQL: escapes must round-trip.
    @Test(arguments: Backend.enabled)
    func notesWithTabsNewlinesAndBackslashesRoundTrip(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let user = try await store.localUser()
            let notes = ["tab\there", "two\nlines", "windows\r\nline", "back\\slash \\N", "Pizza, \"salt\" 🍕", "plain"]
            var withNotes = readings + [reading(70, at: "2024-03-06T07:00:00Z", key: "csv:6", line: 7)]
            for index in notes.indices { withNotes[index].note = notes[index] }
            let report = try await store.importWeighIns(
                user: user, format: "csv", fileName: nil, mode: ImportMode(),
                read: parsed(withNotes))
            #expect(report.imported == 6)
            let stored = try await store.weighIns(user: user).sorted { $0.measuredAt < $1.measuredAt }.map(\.note)
            #expect(stored == notes)
        }
    }

    @Test(arguments: Backend.enabled)
    func dryRunReportsAndWritesNothing(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let user = try await store.localUser()
            try await store.addWeighIn(weighIn(70, at: "2024-02-01T07:00:00Z"), user: user)
            let report = try await store.importWeighIns(
                user: user, format: "csv", fileName: nil, mode: ImportMode(dryRun: true),
                read: parsed(readings))
            #expect(report.dryRun)
            #expect(report.imported == 5)
            #expect(report.importID == nil)
            #expect(try await store.weighInCount(user: user) == 1)
            #expect(try await store.imports(user: user).isEmpty)
        }
    }

    @Test(arguments: Backend.enabled)
    func aFailingParseLeavesNothingHalfWritten(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let user = try await store.localUser()
            struct Truncated: Error {}
            await #expect(throws: Truncated.self) {
                try await store.importWeighIns(user: user, format: "csv", fileName: nil, mode: ImportMode()) { insert in
                    try await insert(readings)
                    throw Truncated()
                }
            }
            #expect(try await store.weighInCount(user: user) == 0)
            #expect(try await store.imports(user: user).isEmpty)
        }
    }

    @Test(arguments: Backend.enabled)
    func largeImportsSpanManyStatements(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let user = try await store.localUser()
            let start = LocalDate(iso: "2000-01-01")!
            let many = (0..<2345).map { index in
                reading(
                    70 + Double(index % 50) / 10, at: start.adding(days: index).iso + "T07:00:00Z", key: "csv:\(index)",
                    line: index + 2)
            }
            let report = try await store.importWeighIns(user: user, format: "csv", fileName: nil, mode: ImportMode()) { insert in
                for chunk in stride(from: 0, to: many.count, by: 1000) {
                    try await insert(Array(many[chunk..<min(chunk + 1000, many.count)]))
                }
                return ImportReport(format: "csv", rowsRead: many.count)
            }
            #expect(report.imported == 2345)
            #expect(try await store.dailyWeights(user: user).count == 2345)
        }
    }
}

@Suite struct TwoUserTests {
    /// Every query is scoped to its user: bob sees none of alice's records and cannot touch them.
    @Test(arguments: Backend.enabled)
    func noQueryCrossesUsers(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let alice = try await store.user(named: "alice")
            let bob = try await store.user(named: "bob")
            #expect(alice != bob)
            let hers = try await store.addWeighIn(weighIn(60, at: "2024-03-01T07:00:00Z"), user: alice)
            try await store.saveSettings(UserSettings(displayUnit: .pounds), user: alice)
            try await store.setGoal(Goal(weight: Mass(kilograms: 55), setOn: day("2024-03-01")), user: alice)
            let batch = try await store.importWeighIns(user: alice, format: "csv", fileName: nil, mode: ImportMode()) { insert in
                try await insert([reading(61, at: "2024-03-02T07:00:00Z", key: "csv:a")])
                return ImportReport(format: "csv", rowsRead: 1)
            }

            #expect(try await store.weighIns(user: bob).isEmpty)
            #expect(try await store.weighInCount(user: bob) == 0)
            #expect(try await store.dailyWeights(user: bob).isEmpty)
            #expect(try await store.settings(user: bob) == UserSettings())
            #expect(try await store.goal(user: bob) == nil)
            #expect(try await store.imports(user: bob).isEmpty)
            var exported = 0
            try await store.forEachWeighIn(user: bob) { exported += $0.count }
            #expect(exported == 0)
            await #expect(throws: CinnError.self) { try await store.weighIn(id: hers.id, user: bob) }
            await #expect(throws: CinnError.self) {
                try await store.updateWeighIn(id: hers.id, user: bob, weight: Mass(kilograms: 1))
            }
            await #expect(throws: CinnError.self) { try await store.deleteWeighIn(id: hers.id, user: bob) }
            #expect(try await store.deleteWeighIns(on: day("2024-03-01"), user: bob) == 0)
            await #expect(throws: CinnError.self) { try await store.undoImport(id: batch.importID!, user: bob) }
            #expect(try await store.clearGoal(user: bob) == false)

            // The same external id is a separate reading for another user.
            let bobs = try await store.importWeighIns(user: bob, format: "csv", fileName: nil, mode: ImportMode()) { insert in
                try await insert([reading(90, at: "2024-03-02T07:00:00Z", key: "csv:a")])
                return ImportReport(format: "csv", rowsRead: 1)
            }
            #expect(bobs.imported == 1)
            #expect(try await store.weighIn(id: hers.id, user: alice).weight.kilograms == 60)
            #expect(try await store.weighInCount(user: alice) == 2)
            #expect(try await store.goal(user: alice) != nil)
        }
    }
}
