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

    /// A database a newer Cinn migrated is refused with a message saying so, and left as it was.
    @Test(arguments: Backend.enabled)
    func aDatabaseFromANewerCinnIsRefused(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let next = Migration.all.count + 1
            try await store.withConnection { db in
                try await db.raw(
                    "INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES (\(bind: next), 'from the future', 0)"
                ).run()
            }
            await #expect(
                throws: CinnError(
                    .conflict,
                    "this database was written by a newer Cinn (schema version \(next); this one "
                        + "knows up to \(next - 1)): run that version or a newer one, or restore a backup")
            ) {
                try await store.migrate()
            }
            #expect(try await store.appliedMigrations() == Array(1...next))
        }
    }

    /// Migration 15 moves a journal following the formula to following the data, as a new version sync clients pull.
    @Test(arguments: Backend.enabled)
    func theCalorieTargetComesToFollowTheData(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let user = try await store.localUser()
            try await store.saveSettings(UserSettings(energyTargetKcal: 2000, targetBasis: .formula), user: user)
            func version() async throws -> Int64 {
                try await store.withConnection { db in
                    try await db.raw("SELECT version FROM user_settings WHERE user_id = \(bind: user.rawValue)").first()!.decode(
                        column: "version", as: Int64.self)
                }
            }
            let before = try await version()
            try await store.withConnection { db in try await db.raw("DELETE FROM schema_migrations WHERE version = 15").run() }
            #expect(try await store.migrate() == [15])
            let settings = try await store.settings(user: user)
            #expect(settings.targetBasis == .adaptive && settings.energyTargetKcal == 2000)
            #expect(try await version() > before)
        }
    }

    /// A migration that has shipped is never edited (add the next one instead): each one's SQL, in both dialects,
    /// must keep the fingerprint it shipped with. A new migration adds its line here.
    @Test func shippedMigrationsKeepTheirSQL() {
        let shipped: [Int: String] = [
            1: "a23a9a179214c0cc", 2: "8f263c3ecb83cd47", 3: "ae30c6e7e829ef82", 4: "79350187fd167143", 5: "28a0655233e93f45",
            6: "5c946b77f2a3c47", 7: "a96d64901013fed6", 8: "33420801ae53d723", 9: "8089608b68fbed65", 10: "4603f9ae006a3840",
            11: "3e336ebdd6100861", 12: "441fa69c4eb4112", 13: "2d2f24d198b94b4e", 14: "86cbe053d52af7b",
            15: "d008490e58c944f", 16: "5689e662377bbc51", 17: "8cf9425a05556181", 18: "8d7d192e2fb98792", 19: "1b69b885a26dcdee",
            20: "dbf7d0ec47c729a2", 21: "90da95c7e51fc657",
            22: "b49c132d92089502", 23: "a24316581eb4990f", 24: "8f2eed43960d48e6", 25: "8c5c8067af336b64",
            26: "9255c4af4b09d57", 27: "3c697d01818689a2", 28: "6da55b43fa9a4cad", 29: "fb1e035d0c0222c5",
        ]
        var found: [Int: String] = [:]
        for migration in Migration.all {
            // FNV-1a, 64 bits, over both dialects' statements: stable across runs and platforms.
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in (migration.sqlite + ["--"] + migration.postgres).joined(separator: "\n").utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            found[migration.version] = String(hash, radix: 16)
        }
        #expect(found == shipped, "\(found.sorted { $0.key < $1.key }.map { "\($0.key): \"\($0.value)\"" }.joined(separator: ", "))")
    }

    @Test(arguments: Backend.enabled)
    func weighInRoundTripsWithItsOffsetAndLocalDay(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let user = try await store.localUser()
            #expect(try await store.localUser() == user)
            let time = LocalDateTime(iso: "2024-03-10T02:00:00Z")!.resolved(in: .gmt)
            let added = WeighIn(
                measuredAt: time.instant, utcOffsetSeconds: -18000, weight: Mass(kilograms: 81.25),
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
