import CinnCore
import CinnImport
import Foundation
import Synchronization
import Testing

@testable import CinnStore

@Suite struct HealthImportStoreTests {
    static let exportZip = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../CinnImportTests/Fixtures/apple_health/export.zip").standardized

    static func importExport(_ store: Store, _ user: UserID, _ url: URL = exportZip, mode: ImportMode = ImportMode()) async throws
        -> ImportReport
    {
        try await store.importHealthRecords(user: user, format: "apple-health", fileName: url.lastPathComponent, mode: mode) { write in
            let summary = try await AppleHealthReader.read(url: url, batchSize: 3) { try await write($0) }
            return (
                ImportReport(
                    format: "apple-health", rowsRead: summary.records, rejected: summary.rejected, rejectedCount: summary.rejectedCount),
                summary.days, summary.exportedAt
            )
        }
    }

    @Test(arguments: Backend.enabled)
    func anExportIsOneUndoableBatchAndImportingItAgainAddsNothing(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let first = try await Self.importExport(store, me)
            #expect(
                first.rowsRead == 37 && first.imported == 15 && first.duplicates == 1, "the exact duplicate weigh-in counts once: \(first)")
            #expect(try await store.weighIns(user: me).map(\.weight.kilograms).count == 4)
            let glucose = try await store.glucoseReadings(user: me)
            #expect(
                glucose.count == 3
                    && glucose.allSatisfy { $0.source == "import:apple-health" && $0.externalID?.hasPrefix("apple:") == true })
            #expect(try await store.insulinDoses(user: me, from: .distantPast, to: .distantFuture).map(\.kind) == [.basal, .bolus])
            #expect(try await store.latestBodyFat(user: me)?.fraction == 0.2815)
            let workouts = try await store.workouts(user: me, limit: 10)
            #expect(workouts.map(\.name).sorted() == ["Cycling", "Running", "Traditional Strength Training"])
            let lunch = try await store.foodEntries(user: me, from: LocalDate(iso: "2024-03-09")!, to: LocalDate(iso: "2024-03-09")!)
            #expect(lunch.map(\.name) == ["Turkey & Avocado Wrap, Whole Wheat"] && lunch.first?.energy == 512)

            let again = try await Self.importExport(store, me)
            #expect(again.imported == 0 && again.duplicates == 16 && again.importID == nil, "nothing new: no batch left behind")
            let batch = try #require(first.importID)
            #expect(try await store.undoImport(id: batch, user: me) == 15 + 9, "records and day summaries")
            #expect(try await store.glucoseReadings(user: me).isEmpty)
            #expect(try await store.weighIns(user: me).isEmpty)
            #expect(try await Self.importExport(store, me).imported == 15, "after an undo the export can come in again")
        }
    }

    @Test(arguments: Backend.enabled)
    func daySummariesAreReplacedByANewerExportAndComeBackWhenItIsUndone(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let xml = try String(
                contentsOf: Self.exportZip.deletingLastPathComponent().appendingPathComponent("export.xml"), encoding: .utf8)
            var made: [URL] = []
            defer { for url in made { try? FileManager.default.removeItem(at: url) } }
            func export(date: String, steps: String) throws -> URL {
                let url = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-export-\(UUID().uuidString).xml")
                made.append(url)
                try xml.replacingOccurrences(
                    of: "<ExportDate value=\"2024-03-14 21:07:44 -0400\"/>", with: "<ExportDate value=\"\(date)\"/>"
                )
                .replacingOccurrences(
                    of:
                        "unit=\"count\" creationDate=\"2024-03-09 08:20:31 -0500\" startDate=\"2024-03-09 08:09:52 -0500\" endDate=\"2024-03-09 08:17:03 -0500\" value=\"612\"",
                    with:
                        "unit=\"count\" creationDate=\"2024-03-09 08:20:31 -0500\" startDate=\"2024-03-09 08:09:52 -0500\" endDate=\"2024-03-09 08:17:03 -0500\" value=\"\(steps)\""
                )
                .write(to: url, atomically: true, encoding: .utf8)
                return url
            }
            let steps = "HKQuantityTypeIdentifierStepCount"
            let march = LocalDate(iso: "2024-03-01")!...LocalDate(iso: "2024-03-31")!
            func stepsOn9th() async throws -> [Double] {
                try await store.healthDays(user: me, type: steps, category: "", unit: "count", days: march).map(\.sum)
            }

            let first = try await Self.importExport(store, me)
            #expect(first.healthDays.count == 9 && first.healthDays.allSatisfy { $0.days == 1 && $0.written == 1 }, "\(first.healthDays)")
            let types = try await store.healthDayTypes(user: me)
            #expect(types.map(\.name).contains("Core sleep") && types.count == 9)
            #expect(types.first { $0.type == "HKQuantityTypeIdentifierHeight" }?.first == LocalDate(iso: "2022-05-02"))
            #expect(try await stepsOn9th() == [612])

            let newer = try await Self.importExport(store, me, try export(date: "2024-04-14 21:07:44 -0400", steps: "700"))
            #expect(newer.imported == 0 && newer.importID != nil, "a changed day alone is worth a batch")
            #expect(newer.healthDays.filter { $0.written > 0 }.map(\.type) == [steps], "the other days are the same again")
            #expect(try await stepsOn9th() == [700])
            let older = try await Self.importExport(store, me, try export(date: "2024-02-14 21:07:44 -0400", steps: "500"))
            #expect(older.importID == nil && older.healthDays.allSatisfy { $0.written == 0 }, "an older export replaces nothing")
            #expect(try await stepsOn9th() == [700])

            #expect(try await store.undoImport(id: try #require(newer.importID), user: me) == 1)
            #expect(try await stepsOn9th() == [612], "the day's summary is the first export's again")
            try await store.undoImport(id: try #require(first.importID), user: me)
            #expect(try await store.healthDayTypes(user: me).isEmpty)
        }
    }

    @Test(arguments: Backend.enabled)
    func aCutOffExportWritesNothing(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let xml = try Data(contentsOf: Self.exportZip.deletingLastPathComponent().appendingPathComponent("export.xml"))
            let cut = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-cut-\(UUID().uuidString).xml")
            try xml.prefix(xml.count * 3 / 4).write(to: cut)
            defer { try? FileManager.default.removeItem(at: cut) }
            await #expect(throws: CinnError.self) { try await Self.importExport(store, me, cut) }
            #expect(try await store.weighIns(user: me).isEmpty)
            #expect(try await store.glucoseReadings(user: me).isEmpty)
            #expect(try await store.imports(user: me).isEmpty)
        }
    }

    /// While an export is read nothing of it is in the journal, and other writes go through: on SQLite the rows are
    /// staged outside the database's write lock (a weigh-in added here waited for the whole import before).
    @Test(arguments: Backend.enabled)
    func whileAnExportIsReadOtherWritesGoThroughAndNothingOfItShows(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser(), bob = try await store.user(named: "bob")
            var batches = 0
            let report = try await store.importHealthRecords(user: me, format: "apple-health", fileName: nil, mode: ImportMode()) { write in
                let summary = try await AppleHealthReader.read(url: Self.exportZip, batchSize: 3) { records in
                    try await write(records)
                    batches += 1
                    guard batches == 2 else { return }
                    // Polled rather than awaited: before, the weigh-in waited for the import, which waited for this.
                    let added = Mutex(false)
                    Task {
                        _ = try await store.addWeighIn(weighIn(70, at: "2024-03-10T07:00:00Z"), user: bob)
                        added.withLock { $0 = true }
                    }
                    // Long enough for a loaded machine.
                    let deadline = ContinuousClock.now + .seconds(30)
                    while !added.withLock({ $0 }) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
                    #expect(added.withLock { $0 }, "another user's weigh-in went in within 30 s while the export was being read")
                    #expect(try await store.weighIns(user: me).isEmpty, "nothing of the import shows before it is complete")
                }
                return (ImportReport(format: "apple-health", rowsRead: summary.records), summary.days, summary.exportedAt)
            }
            #expect(batches > 2 && report.imported == 15)
            #expect(try await store.weighIns(user: me).count == 4)
            #expect(try await store.weighIns(user: bob).map(\.weight.kilograms) == [70])
        }
    }
}
