import CinnCore
import Foundation
import Testing
@testable import CinnStore

@Suite struct StoreTests {
    @Test(arguments: Backend.enabled)
    func migrationsApplyOnceInOrder(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let applied = try await store.appliedMigrations()
            let pending = try await store.migrate()
            #expect(applied == Migration.all.map(\.version))
            #expect(pending.isEmpty)
            #expect(Migration.all.map(\.version) == Array(1...Migration.all.count))
        }
    }

    @Test(arguments: Backend.enabled)
    func weighInRoundTripsWithItsOffsetAndLocalDay(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let user = try await store.localUser()
            #expect(try await store.localUser() == user)
            let time = LocalDateTime(iso: "2024-03-10T02:00:00Z")!.resolved(in: .gmt)
            let added = WeighIn(measuredAt: time.instant, utcOffsetSeconds: -18000, weight: Mass(kilograms: 81.25),
                                note: "late dinner", source: "manual")
            try await store.addWeighIn(added, user: user)
            let stored = try await store.weighIn(id: added.id, user: user)
            #expect(stored == added)
            #expect(stored.localDate.iso == "2024-03-09")
            #expect(try await store.dailyWeights(user: user).map(\.date.iso) == ["2024-03-09"])
        }
    }

    @Test(arguments: Backend.enabled)
    func updateAndDeleteWeighIns(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let user = try await store.localUser()
            let first = try await store.addWeighIn(weighIn(80, at: "2024-03-01T07:00:00Z", note: "a"), user: user)
            try await store.addWeighIn(weighIn(81, at: "2024-03-02T07:00:00Z"), user: user)
            try await store.addWeighIn(weighIn(82, at: "2024-03-02T19:00:00Z"), user: user)

            let updated = try await store.updateWeighIn(id: first.id, user: user, weight: Mass(kilograms: 79.5), note: .some(nil))
            #expect(updated.weight.kilograms == 79.5)
            #expect(updated.note == nil)
            #expect(try await store.weighIn(id: first.id, user: user) == updated)

            let moved = try await store.updateWeighIn(
                id: first.id, user: user,
                measuredAt: (LocalDateTime(iso: "2024-02-28T07:00:00Z")!.resolved(in: .gmt).instant, 0))
            #expect(moved.localDate.iso == "2024-02-28")
            #expect(try await store.dailyWeights(user: user).map(\.date.iso) == ["2024-02-28", "2024-03-02"])

            #expect(try await store.deleteWeighIns(on: day("2024-03-02"), user: user) == 2)
            try await store.deleteWeighIn(id: first.id, user: user)
            await #expect(throws: CinnError.notFound("no weigh-in with id \(first.id)")) {
                try await store.deleteWeighIn(id: first.id, user: user)
            }
            await #expect(throws: CinnError.self) { try await store.weighIn(id: first.id, user: user) }
            #expect(try await store.weighInCount(user: user) == 0)
            #expect(try await store.dailyWeights(user: user).isEmpty)
        }
    }

    @Test(arguments: Backend.enabled)
    func dailyWeightsAreMeansOfLocalDays(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let user = try await store.localUser()
            for (kilograms, time) in [(80.0, "2024-03-01T07:00:00Z"), (81.0, "2024-03-01T20:00:00Z"), (79.0, "2024-03-03T07:00:00Z")] {
                try await store.addWeighIn(weighIn(kilograms, at: time), user: user)
            }
            let daily = try await store.dailyWeights(user: user)
            #expect(daily.map(\.date.iso) == ["2024-03-01", "2024-03-03"])
            #expect(daily.map(\.weight.kilograms) == [80.5, 79])
        }
    }

    @Test(arguments: Backend.enabled)
    func listsNewestFirstWithRangeAndPaging(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let user = try await store.localUser()
            for index in 1...9 {
                try await store.addWeighIn(weighIn(80 + Double(index), at: "2024-03-0\(index)T07:00:00Z"), user: user)
            }
            let all = try await store.weighIns(user: user)
            #expect(all.map(\.weight.kilograms) == (1...9).reversed().map { 80 + Double($0) })
            let range = try await store.weighIns(user: user, from: day("2024-03-03"), to: day("2024-03-05"))
            #expect(range.map(\.localDate.iso) == ["2024-03-05", "2024-03-04", "2024-03-03"])
            let page = try await store.weighIns(user: user, limit: 2, offset: 2)
            #expect(page.map(\.localDate.iso) == ["2024-03-07", "2024-03-06"])
            var batches: [[WeighIn]] = []
            try await store.forEachWeighIn(user: user, batchSize: 4) { batches.append($0) }
            #expect(batches.map(\.count) == [4, 4, 1])
            #expect(batches.flatMap { $0 }.map(\.localDate.iso) == (1...9).map { "2024-03-0\($0)" })
        }
    }

    @Test(arguments: Backend.enabled)
    func settingsAndGoals(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let user = try await store.localUser()
            #expect(try await store.settings(user: user) == UserSettings())
            let settings = UserSettings(displayUnit: .pounds, trendMethod: .pencil, timeZoneIdentifier: "Europe/Berlin")
            try await store.saveSettings(settings, user: user)
            #expect(try await store.settings(user: user) == settings)
            try await store.saveSettings(UserSettings(displayUnit: .stones), user: user)
            #expect(try await store.settings(user: user).displayUnit == .stones)

            #expect(try await store.goal(user: user) == nil)
            let goal = Goal(weight: Mass(kilograms: 70), plannedRate: Mass(kilograms: 0.5), setOn: day("2024-03-01"))
            try await store.setGoal(goal, user: user)
            let newer = Goal(weight: Mass(kilograms: 68), setOn: day("2024-03-10"))
            try await store.setGoal(newer, user: user)
            #expect(try await store.goal(user: user) == newer)
            #expect(try await store.clearGoal(user: user))
            #expect(try await store.goal(user: user) == nil)
            #expect(try await store.clearGoal(user: user) == false)
        }
    }

    @Test(arguments: Backend.enabled)
    func everyChangeGetsAHigherVersion(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let user = try await store.localUser()
            let added = try await store.addWeighIn(weighIn(80, at: "2024-03-01T07:00:00Z"), user: user)
            try await store.updateWeighIn(id: added.id, user: user, weight: Mass(kilograms: 81))
            try await store.deleteWeighIn(id: added.id, user: user)
            let versions = try await store.withConnection { db in
                try await db.raw("SELECT version, deleted FROM weigh_ins").all().map {
                    (try $0.decode(column: "version", as: Int.self), try $0.decode(column: "deleted", as: Int.self))
                }
            }
            #expect(versions.count == 1)
            #expect(versions[0].0 == 3)
            #expect(versions[0].1 == 1)
        }
    }
}

func day(_ text: String) -> LocalDate { LocalDate(iso: text)! }
