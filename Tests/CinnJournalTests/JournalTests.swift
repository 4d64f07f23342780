import CinnCore
import CinnJournal
import Foundation
import SQLKit
import Testing

@testable import CinnStore

/// The databases these tests run against: SQLite always, PostgreSQL when `CINN_TEST_POSTGRES_URL` is set (set but
/// unreachable is a failure, never a skip).
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    static var enabled: [Backend] {
        ProcessInfo.processInfo.environment["CINN_TEST_POSTGRES_URL", default: ""].isEmpty ? [.sqlite] : [.sqlite, .postgres]
    }

    var testDescription: String { rawValue }
}

/// 2024-03-15T12:00:00Z, the tests' "now", the store's clock and the journal's alike.
let fixedNow = Date(timeIntervalSince1970: 1_710_504_000)

/// A journal of the local user on a fresh, migrated database (a SQLite file, or a PostgreSQL schema of its own), in
/// UTC, removed after `body` whatever happens.
func withJournal(_ backend: Backend, _ body: (Journal) async throws -> Void) async throws {
    let store: Store
    var cleanup: () async throws -> Void
    switch backend {
    case .sqlite:
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try Store(.sqlite(path: directory.appendingPathComponent("journal.sqlite").path), now: { fixedNow })
        cleanup = {
            try await store.close()
            try? FileManager.default.removeItem(at: directory)
        }
    case .postgres:
        let url = try #require(ProcessInfo.processInfo.environment["CINN_TEST_POSTGRES_URL"])
        let schema = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let admin = try Store(.postgres(url: url))
        try await admin.withConnection { db in try await db.raw("CREATE SCHEMA \(unsafeRaw: String(schema))").run() }
        store = try Store(.postgres(url: url), schema: String(schema), now: { fixedNow })
        cleanup = {
            try await store.close()
            try await admin.withConnection { db in try await db.raw("DROP SCHEMA \(unsafeRaw: String(schema)) CASCADE").run() }
            try await admin.close()
        }
    }
    do {
        try await store.migrate()
        let journal = try await Journal.local(store: store, now: { fixedNow })
        var settings = try await journal.settings()
        settings.timeZoneIdentifier = "UTC"
        try await journal.saveSettings(settings)
        try await body(journal)
    } catch {
        try await cleanup()
        throw error
    }
    try await cleanup()
}

/// The use-cases the server and the CLI share, through the Journal alone, on both databases.
@Suite struct JournalTests {
    static func granolaBar() -> Food {
        Food(
            id: .v7(), name: "Granola bar", source: .mine, basis: .grams,
            nutrients: try! Nutrients(keyed: ["energy": 450, "protein": 10]), servings: [ServingSize(label: "1 bar", amount: 40)])
    }

    /// The energy report is kept while the journal is unchanged (`Store.computed`): every kind of write it reads gives
    /// the next report that write.
    @Test(arguments: Backend.enabled)
    func theEnergyReportFollowsEveryWriteItReads(_ backend: Backend) async throws {
        try await withJournal(backend) { journal in
            let empty = try await journal.energyReportAndTrend(historyDays: 0).report
            #expect(empty.trend == nil && empty.eatenKcal == 0 && empty.goal == nil && empty.dayStatus == nil)
            #expect(try await journal.energyReportAndTrend(historyDays: 0).report.trend == nil, "kept, and still right")

            _ = try await journal.addWeighIn(weight: 80, unit: .kilograms, date: "2024-03-15")
            #expect(try await journal.energyReportAndTrend(historyDays: 0).report.trend?.kilograms == 80)
            let bar = try await journal.store.addFood(Self.granolaBar(), user: journal.user)
            _ = try await journal.logFoods([FoodLogRequest(foodID: bar.id, servings: 1, serving: "1 bar", time: "2024-03-15T08:00:00Z")])
            #expect(try await journal.energyReportAndTrend(historyDays: 0).report.eatenKcal == 180)
            try await journal.setDayStatus(LocalDate(iso: "2024-03-15")!, status: .complete)
            #expect(try await journal.energyReportAndTrend(historyDays: 0).report.dayStatus == .complete)
            _ = try await journal.setGoal(weight: 75, unit: .kilograms, ratePerWeek: nil)
            #expect(try await journal.energyReportAndTrend(historyDays: 0).report.goal?.weight.kilograms == 75)
            var settings = try await journal.settings()
            settings.displayUnit = .pounds
            try await journal.saveSettings(settings)
            #expect(try await journal.energyReportAndTrend(historyDays: 0).report.settings.displayUnit == .pounds)
        }
    }

    /// The live card reads its doses and meals once for its own window and for what is on board, which looks further
    /// back: the card shows the last three hours, on board counts the dose and the meal before them.
    @Test(arguments: Backend.enabled)
    func theLiveCardsOnBoardIsWhatOnBoardSays(_ backend: Backend) async throws {
        try await withJournal(backend) { journal in
            _ = try await journal.addGlucose(
                value: 120, unit: .milligramsPerDeciliter, time: "2024-03-15T11:55:00Z", timing: nil, note: nil)
            _ = try await journal.addInsulin(units: 4, kind: .bolus, insulin: nil, time: "2024-03-15T08:30:00Z", note: nil)
            _ = try await journal.addInsulin(units: 2, kind: .bolus, insulin: nil, time: "2024-03-15T11:00:00Z", note: nil)
            let meal = try await journal.addMeal(name: "Porridge", kind: .common, carbohydrateGrams: 50, foods: [], note: nil)
            _ = try await journal.logMeal(mealID: meal.id, time: "2024-03-15T08:40:00Z", portion: 1, carbohydrateGrams: nil, note: nil)
            _ = try await journal.logMeal(mealID: meal.id, time: "2024-03-15T10:30:00Z", portion: 1, carbohydrateGrams: nil, note: nil)
            let live = try await journal.liveGlucose(hours: 3)
            #expect(live.doses.map(\.units) == [2], "the card: the last three hours' dose")
            #expect(live.meals.map(\.name) == ["Porridge"])
            let onBoard = try await journal.onBoard()
            #expect(live.onBoard == onBoard, "on board counts the 08:30 dose and the 08:40 meal too")
            #expect(onBoard.insulinUnits > 2 && onBoard.carbohydrateGrams > 0)
        }
    }

    @Test(arguments: Backend.enabled)
    func aFoodLoggedBeforeStartsAtItsLastAmount(_ backend: Backend) async throws {
        try await withJournal(backend) { journal in
            let bar = try await journal.store.addFood(Self.granolaBar(), user: journal.user)
            #expect(try await journal.lastLoggedAmount(foodID: bar.id) == nil)
            _ = try await journal.logFoods([FoodLogRequest(foodID: bar.id, servings: 2, serving: "1 bar", time: "2024-03-14T08:00:00Z")])
            _ = try await journal.logFoods([FoodLogRequest(foodID: bar.id, servings: 1.5, serving: "100 g", time: "2024-03-15T08:00:00Z")])
            let last = try #require(try await journal.lastLoggedAmount(foodID: bar.id))
            #expect(last.servings == 1.5 && last.servingLabel == "100 g", "the newest entry's, by when it was eaten")
            #expect(try await journal.food(id: bar.id).name == "Granola bar")
        }
    }

    @Test(arguments: Backend.enabled)
    func foodsLoggedAtOneInstantAreRecentByName(_ backend: Backend) async throws {
        try await withJournal(backend) { journal in
            var ids: [UUID] = []
            for name in ["Yogurt", "Banana", "Muesli"] {
                var food = Self.granolaBar()
                food.id = .v7()
                food.name = name
                ids.append(try await journal.store.addFood(food, user: journal.user).id)
            }
            _ = try await journal.logFoods(ids.map { FoodLogRequest(foodID: $0, time: "2024-03-15T08:00:00Z") })
            #expect(try await journal.recentFoods(limit: 10).map(\.name) == ["Banana", "Muesli", "Yogurt"])
        }
    }

    @Test(arguments: Backend.enabled)
    func aWaitingUploadIsClaimedOnce(_ backend: Backend) async throws {
        try await withJournal(backend) { journal in
            let token = UUID().uuidString.lowercased()
            let expired = try await journal.keepWaitingUpload(token: token, fields: ["unit": "kg"], lifetime: 3600)
            #expect(expired.isEmpty)
            let looked = try await journal.waitingUpload(token: token, claiming: false)
            #expect(looked == ["unit": "kg"], "looked at, it stays")
            let claimed = try await journal.waitingUpload(token: token, claiming: true)
            #expect(claimed == ["unit": "kg"])
            let again = try await journal.waitingUpload(token: token, claiming: true)
            #expect(again == nil, "claimed, no other request finds it")
        }
    }

    /// The demo journal reads the same every time it is made: its days are marked in date order, so a sync pull lists
    /// them alike (the page snapshots rest on this; in a Set's order they differed from one process to the next).
    @Test func theDemoJournalIsTheSameEveryTime() async throws {
        func demo() async throws -> [String] {
            var changes: [String] = []
            try await withJournal(.sqlite) { journal in
                #expect(try await journal.fillWithDemoData())
                var cursor = SyncCursor.start
                while true {
                    let page = try await journal.pull(after: cursor, limit: 1000)
                    changes += page.changes.filter { $0.type == "food_day" }.compactMap { $0.fields?["day"]?.string }
                    guard page.more, let next = SyncCursor(page.next) else { break }
                    cursor = next
                }
            }
            return changes
        }
        let first = try await demo()
        #expect(first.count > 20)
        #expect(try await demo() == first)
    }
}

/// JSON that cannot be written is an error, never a body of `null`; numbers that are not finite are written as null.
@Suite struct JSONWritingTests {
    struct Refuses: Encodable {
        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "refused"))
        }
    }

    @Test func aValueThatCannotBeWrittenIsAnError() {
        #expect(throws: CinnError.self) { try jsonString(Refuses()) }
        #expect((try? jsonString(["a": Double.infinity, "b": 1.5])) == #"{"a":null,"b":1.5}"#)
    }
}
