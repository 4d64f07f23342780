import CinnCore
import Foundation
import Testing

@testable import CinnStore

@Suite struct GlucoseStoreTests {
    static let morning = Date(timeIntervalSince1970: 1_710_403_200)  // 2024-03-14 08:00 UTC
    static let day = LocalDate(instant: morning, utcOffsetSeconds: 0)

    @Test(arguments: Backend.enabled)
    func readingsDosesMealsAndEventsBelongToTheirUser(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser(), other = try await store.user(named: "other")
            let readings = [(-10, 100.0), (30, 150), (15, 120)].map { minutes, mg in
                GlucoseReading(
                    measuredAt: Self.morning.addingTimeInterval(Double(minutes) * 60), utcOffsetSeconds: 3600,
                    glucose: Glucose(milligramsPerDeciliter: mg), timing: minutes < 0 ? .beforeMeal : nil)
            }
            try await store.addGlucoseReadings(readings, user: me)
            let points = try await store.glucosePoints(
                user: me, from: Self.morning.addingTimeInterval(-3600), to: Self.morning.addingTimeInterval(3600))
            #expect(points.map(\.glucose.milligramsPerDeciliter) == [100, 120, 150], "oldest first")
            let local = try await store.localGlucosePoints(
                user: me, from: Self.morning.addingTimeInterval(-3600), to: Self.morning.addingTimeInterval(3600), limit: 2)
            #expect(local.map(\.glucose.milligramsPerDeciliter).sorted() == [120, 150], "the latest two")
            #expect(local.allSatisfy { $0.utcOffsetSeconds == 3600 } && local.map(\.at).contains(Self.morning.addingTimeInterval(1800)))
            #expect(try await store.localGlucosePoints(user: other, from: .distantPast, to: .distantFuture, limit: 10).isEmpty)
            let listed = try await store.glucoseReadings(user: me)
            #expect(listed.first?.glucose.milligramsPerDeciliter == 150 && listed.last?.timing == .beforeMeal)
            #expect(try await store.glucoseReadings(user: other).isEmpty)

            try await store.addInsulinDoses(
                [InsulinDose(takenAt: Self.morning, utcOffsetSeconds: 3600, units: 4.5, kind: .bolus, insulin: "Humalog")], user: me)
            #expect(try await store.insulinDoses(user: me, from: Self.morning, to: Self.morning.addingTimeInterval(1)).first?.units == 4.5)

            let oats = MealFood(foodID: UUID(), name: "Oats", grams: 60), milk = MealFood(foodID: UUID(), name: "Milk", grams: 200)
            let porridge = MealDefinition(name: "Porridge", carbohydrateGrams: 50, foods: [oats, milk])
            try await store.addMeal(porridge, user: me)
            await #expect(throws: CinnError.self) { try await store.addMeal(MealDefinition(name: "Porridge"), user: me) }
            try await store.addMeal(MealDefinition(name: "Porridge"), user: other)
            #expect(try await store.meal(id: porridge.id, user: me).foods == [oats, milk])
            await #expect(throws: CinnError.self) { _ = try await store.meal(id: porridge.id, user: other) }

            let event = MealEvent(mealID: porridge.id, eatenAt: Self.morning, utcOffsetSeconds: 3600, portion: 0.5, carbohydrateGrams: 30)
            try await store.addMealEvent(event, user: me)
            await #expect(throws: CinnError.self, "another user's meal") {
                try await store.addMealEvent(MealEvent(mealID: porridge.id, eatenAt: Self.morning, utcOffsetSeconds: 0), user: other)
            }
            try await store.reportMealEvent(id: event.id, user: me, reason: "spilled half")
            await #expect(throws: CinnError.self) { try await store.reportMealEvent(id: event.id, user: other, reason: "x") }
            try await store.deleteMeal(id: porridge.id, user: me)
            let window = (Self.morning.addingTimeInterval(-60), Self.morning.addingTimeInterval(60))
            let events = try await store.mealEvents(user: me, from: window.0, to: window.1)
            #expect(events.map(\.reportReason) == ["spilled half"] && events.first?.portion == 0.5 && events.first?.carbohydrateGrams == 30)
            #expect(
                try await store.mealsOfEvents(user: me, from: window.0, to: window.1).map(\.name) == ["Porridge"],
                "a deleted meal still names its events")
            try await store.deleteMealEvent(id: event.id, user: me)
            #expect(try await store.mealEvents(user: me, from: window.0, to: window.1).isEmpty)
            await #expect(throws: CinnError.self) { try await store.deleteGlucoseReading(id: readings[0].id, user: other) }
            try await store.deleteGlucoseReading(id: readings[0].id, user: me)
            #expect(try await store.glucoseReadings(user: me).count == 2)
        }
    }

    @Test(arguments: Backend.enabled)
    func importedRecordsAreSkippedByIdOrByTimeAndUndoable(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            func reading(_ id: String, _ minutes: Double, _ mg: Double) -> GlucoseReading {
                GlucoseReading(
                    measuredAt: Self.morning.addingTimeInterval(minutes * 60), utcOffsetSeconds: 0,
                    glucose: Glucose(milligramsPerDeciliter: mg),
                    source: "import:nightscout", externalID: "nightscout:\(id):sgv")
            }
            func treatment(_ id: String) throws -> (NightscoutDocument, InsulinDose, FoodLogEntry) {
                (
                    NightscoutDocument(
                        collection: .treatments, key: id, eventType: "Meal Bolus", createdAt: Self.morning, body: #"{"_id":"\#(id)"}"#),
                    InsulinDose(takenAt: Self.morning, utcOffsetSeconds: 0, units: 4, kind: .bolus, externalID: "nightscout:\(id):insulin"),
                    try FoodLogEntry.carbohydrateTreatment(
                        grams: 40, name: "Pizza", note: nil, eatenAt: Self.morning, utcOffsetSeconds: 0,
                        source: "import:nightscout", externalID: "nightscout:\(id):carbs")
                )
            }
            func load(_ readings: [GlucoseReading], _ treatment: (NightscoutDocument, InsulinDose, FoodLogEntry)) async throws
                -> ImportReport
            {
                try await store.importNightscout(user: me, fileName: "entries.json", mode: ImportMode()) { write in
                    for reading in readings { try await write(NightscoutRecords(readings: [reading]), []) }
                    try await write(NightscoutRecords(doses: [treatment.1], entries: [treatment.2]), [treatment.0])
                    return ImportReport(format: "nightscout", rowsRead: readings.count + 1)
                }
            }
            let first = try await load([reading("a", 0, 100), reading("b", 5, 110)], try treatment("t1"))
            #expect(first.imported == 4)
            // Another uploader: new ids, the same instants and kinds; and one new reading.
            let second = try await load([reading("x", 0, 100), reading("c", 10, 120)], try treatment("t2"))
            #expect(second.imported == 1 && second.duplicates == 3)
            #expect(try await store.glucoseReadings(user: me).count == 3)
            #expect(try await store.foodEntries(user: me, from: Self.day, to: Self.day).map(\.name) == ["Pizza"])
            #expect(
                try await store.nightscoutDocuments(.treatments, user: me, limit: 10).map(\.key) == ["t1"],
                "the same instant and event type")
            try await store.undoImport(id: try #require(first.importID), user: me)
            #expect(try await store.glucoseReadings(user: me).map(\.glucose.milligramsPerDeciliter) == [120])
            #expect(try await store.foodEntries(user: me, from: Self.day, to: Self.day).isEmpty)
            #expect(try await store.nightscoutDocuments(.treatments, user: me, limit: 10).isEmpty)
        }
    }

    /// Carbohydrate that earlier Nightscout imports made meal events of becomes food-log entries of the same import, once,
    /// even when an uploader had sent it again.
    @Test(arguments: Backend.enabled)
    func earlierImportsCarbohydrateMovesToTheFoodLog(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let report = try await store.importNightscout(user: me, fileName: "treatments.json", mode: ImportMode()) { write in
                try await write(
                    NightscoutRecords(doses: [
                        InsulinDose(
                            takenAt: Self.morning, utcOffsetSeconds: 3600, units: 2, kind: .bolus,
                            externalID: "nightscout:d:insulin")
                    ]), [])
                return ImportReport(format: "nightscout", rowsRead: 1)
            }
            let importID = try #require(report.importID)
            // What an import made before: a meal named by the food type, and an event of it per treatment with carbs.
            try await store.withConnection { db in
                let meal = try #require(
                    try await db.raw(
                        """
                        INSERT INTO meals (id, user_id, name, kind, source, import_id, created_at_ms, updated_at_ms, version)
                        VALUES (\(bind: store.bind(UUID())), \(bind: me.rawValue), 'Pizza', 'common', 'import:nightscout', \(bind: importID), 0, 0, 1)
                        RETURNING row_id
                        """
                    ).first()
                ).decode(column: "row_id", as: Int64.self)
                for (minutes, id) in [(0, "a"), (60, "b")] {
                    let at = Self.morning.millisecondsSince1970 + Int64(minutes) * 60_000
                    try await db.raw(
                        """
                        INSERT INTO meal_events (id, user_id, meal_id, eaten_at_ms, utc_offset_s, local_day, portion, carbohydrate_g, note,
                            source, external_id, import_id, created_at_ms, updated_at_ms, version)
                        VALUES (\(bind: store.bind(UUID())), \(bind: me.rawValue), \(bind: meal), \(bind: at), 3600,
                            \(bind: LocalDate(instant: Self.morning, utcOffsetSeconds: 3600).dayNumber), 1, 30, 'with salad', 'import:nightscout',
                            \(bind: "nightscout:\(id):carbs"), \(bind: importID), 0, 0, 2)
                        """
                    ).run()
                }
            }
            // An uploader had sent the second again, to the food log.
            let resent = try FoodLogEntry.carbohydrateTreatment(
                grams: 30, name: nil, note: nil, eatenAt: Self.morning.addingTimeInterval(3600),
                utcOffsetSeconds: 3600, source: "nightscout", externalID: "nightscout:b2:carbs")
            try await store.addFoodEntries([resent], user: me)
            try await store.withConnection { db in try await store.moveNightscoutCarbsToFoodLog(db) }
            let day = LocalDate(instant: Self.morning, utcOffsetSeconds: 3600)
            let entries = try await store.foodEntries(user: me, from: day, to: day)
            #expect(entries.map(\.name) == ["Pizza", "Carbs"])
            #expect(
                entries[0].nutrients[.carbohydrate] == 30 && entries[0].energy == 120 && entries[0].note?.hasPrefix("with salad") == true)
            #expect(try await store.meals(user: me).isEmpty, "the meal and its events are gone")
            try await store.undoImport(id: importID, user: me)
            #expect(
                try await store.foodEntries(user: me, from: day, to: day).map(\.externalID) == ["nightscout:b2:carbs"],
                "the import's entry goes with it")
        }
    }
}
