import CinnCore
import Foundation
import SQLKit
import Synchronization
import Testing

@testable import CinnStore

@Suite("Backups of a SQLite journal")
struct BackupTests {
    /// Every table of two SQLite files, compared row by row (the search indexes' own tables included): the tables whose
    /// rows differ, with how many rows each file has.
    static func differences(_ first: URL, _ second: URL) async throws -> [String] {
        let store = try Store(.sqlite(path: first.path))
        defer { Task { try? await store.close() } }
        return try await store.withConnection { db in
            try await db.raw("ATTACH DATABASE \(bind: second.path) AS other").run()
            let tables = try await db.raw(
                """
                SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name
                """
            ).all().map { try $0.decode(column: "name", as: String.self) }
            var different: [String] = []
            for table in tables {
                let row = try await db.raw(
                    """
                    SELECT (SELECT COUNT(*) FROM main.\(ident: table)) AS here, (SELECT COUNT(*) FROM other.\(ident: table)) AS there,
                        (SELECT COUNT(*) FROM (SELECT * FROM main.\(ident: table) EXCEPT SELECT * FROM other.\(ident: table))) AS missing
                    """
                ).first()
                let here = try row?.decode(column: "here", as: Int.self), there = try row?.decode(column: "there", as: Int.self)
                let missing = try row?.decode(column: "missing", as: Int.self)
                if here != there || missing != 0 {
                    different.append("\(table): \(here ?? -1) and \(there ?? -1) rows")
                }
            }
            try await db.raw("DETACH DATABASE other").run()
            return different
        }
    }

    @Test("a backup taken during writes is one consistent moment, and restoring it gives back every table as it was")
    func backupUnderWritesRestoresEveryTable() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appendingPathComponent("journal.sqlite"), backup = folder.appendingPathComponent("backup.sqlite")
        let store = try Store(.sqlite(path: journal.path))
        try await store.migrate()
        try await store.installBuiltInFoods()
        let user = try await store.localUser()

        // Weigh-ins one a minute, written one after another while the backup runs.
        let written = Atomic(0)
        let writer = Task {
            var index = 0
            while !Task.isCancelled {
                let time = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
                try await store.addWeighIn(
                    WeighIn(
                        measuredAt: time, utcOffsetSeconds: 0, weight: Mass(kilograms: 80 + Double(index % 10) / 10),
                        note: "#\(index)", source: "manual"), user: user)
                index += 1
                written.store(index, ordering: .sequentiallyConsistent)
            }
        }
        while written.load(ordering: .sequentiallyConsistent) < 50 { try await Task.sleep(for: .milliseconds(10)) }
        try await store.backup(to: backup)
        let atBackup = written.load(ordering: .sequentiallyConsistent)
        while written.load(ordering: .sequentiallyConsistent) < atBackup + 50 { try await Task.sleep(for: .milliseconds(10)) }
        writer.cancel()
        _ = await writer.result
        await #expect(throws: CinnError.invalid("file", "\(backup.path) already exists; a backup never overwrites one")) {
            try await store.backup(to: backup)
        }

        // The backup holds the first k weigh-ins and no others: one moment of the journal.
        let copy = try Store(.sqlite(path: backup.path))
        #expect(try await copy.checkBackup() == Migration.all.last?.version)
        let notes = try await copy.weighIns(user: user).compactMap(\.note).compactMap { Int($0.dropFirst()) }.sorted()
        try await copy.close()
        #expect(notes.count >= 50 && notes == Array(0..<notes.count), "\(notes.count) weigh-ins, a prefix of those written")
        #expect(try await store.weighInCount(user: user) >= notes.count + 50)

        // Restored over the journal that moved on: every table is the backup's again, and food search works.
        let before = try await store.searchFoods(try #require(FoodSearchQuery("apple")), user: user).map(\.food.name)
        try await store.close()
        let restoring = try Store(.sqlite(path: journal.path))
        try await restoring.restore(from: backup)
        try await restoring.close()
        #expect(try await Self.differences(journal, backup) == [])
        let after = try Store(.sqlite(path: journal.path))
        #expect(try await after.weighInCount(user: user) == notes.count)
        #expect(try await after.searchFoods(try #require(FoodSearchQuery("apple")), user: user).map(\.food.name) == before)
        #expect(!before.isEmpty)
        try await after.close()
    }

    /// A journal of one weigh-in backed up to a new file in the temporary directory (the caller removes it).
    static func backupOfOneWeighIn(_ store: Store) async throws -> (UserID, URL) {
        let user = try await store.localUser()
        try await store.addWeighIn(weighIn(80, at: "2024-03-01T07:00:00Z"), user: user)
        let backup = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-backup-\(UUID().uuidString).sqlite")
        try await store.backup(to: backup)
        return (user, backup)
    }

    /// Runs `statements` on the backup file, as someone editing it would.
    static func change(_ backup: URL, _ statements: [String]) async throws {
        let file = try Store(.sqlite(path: backup.path))
        try await file.withConnection { db in
            for statement in statements { try await db.raw("\(unsafeRaw: statement)").run() }
        }
        try await file.close()
    }

    @Test("a backup at another schema version is refused by the restore, which changes nothing")
    func restoreNeedsTheSameSchema() async throws {
        try await TestDatabase.with(.sqlite) { store in
            let (user, backup) = try await Self.backupOfOneWeighIn(store)
            defer { try? FileManager.default.removeItem(at: backup) }
            let newest = try #require(Migration.all.last?.version)
            try await Self.change(backup, ["DELETE FROM schema_migrations WHERE version = \(newest)"])
            await #expect(throws: CinnError(.conflict, "the backup's schema version (\(newest - 1)) is not this journal's (\(newest))")) {
                try await store.restore(from: backup)
            }
            #expect(try await store.weighInCount(user: user) == 1)
        }
    }

    @Test("a backup holding a view is refused before anything reads from it: the view's query never runs")
    func aBackupWithAViewIsRefused() async throws {
        try await TestDatabase.with(.sqlite) { store in
            let (user, backup) = try await Self.backupOfOneWeighIn(store)
            defer { try? FileManager.default.removeItem(at: backup) }
            // A table swapped for a recursive view of three billion steps: reading it would run for minutes.
            try await Self.change(
                backup,
                [
                    "ALTER TABLE weigh_ins RENAME TO weigh_ins_gone",
                    """
                    CREATE VIEW weigh_ins AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000000)
                    SELECT * FROM weigh_ins_gone, n
                    """,
                ])
            let check = try Store(.sqlite(path: backup.path))
            await #expect(throws: CinnError.invalid("file", "the file holds a view (weigh_ins), which no Cinn journal has")) {
                _ = try await check.checkBackup()
            }
            try await check.close()
            await #expect(throws: CinnError.invalid("file", "the backup holds a view (weigh_ins), which no Cinn journal has")) {
                try await store.restore(from: backup)
            }
            #expect(try await store.weighInCount(user: user) == 1)
        }
    }

    @Test("PostgreSQL databases are backed up with pg_dump", .enabled(if: Backend.enabled.contains(.postgres)))
    func postgresPointsToPgDump() async throws {
        try await TestDatabase.with(.postgres) { store in
            await #expect(throws: Store.postgresBackups) { try await store.backup(to: URL(fileURLWithPath: "/tmp/never.sqlite")) }
        }
    }
}
