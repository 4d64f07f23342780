import CinnCore
import Foundation
import Testing
@testable import CinnStore

@Suite struct GlucoseStoreTests {
    static let morning = Date(timeIntervalSince1970: 1_710_403_200)  // 2024-03-14 08:00 UTC

    @Test(arguments: Backend.enabled)
    func readingsDosesMealsAndEventsBelongToTheirUser(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser(), other = try await store.user(named: "other")
            let readings = [(-10, 100.0), (30, 150), (15, 120)].map { minutes, mg in
                GlucoseReading(measuredAt: Self.morning.addingTimeInterval(Double(minutes) * 60), utcOffsetSeconds: 3600,
                               glucose: Glucose(milligramsPerDeciliter: mg), timing: minutes < 0 ? .beforeMeal : nil)
            }
            try await store.addGlucoseReadings(readings, user: me)
            let points = try await store.glucosePoints(user: me, from: Self.morning.addingTimeInterval(-3600), to: Self.morning.addingTimeInterval(3600))
            #expect(points.map(\.glucose.milligramsPerDeciliter) == [100, 120, 150], "oldest first")
            let listed = try await store.glucoseReadings(user: me)
            #expect(listed.first?.glucose.milligramsPerDeciliter == 150 && listed.last?.timing == .beforeMeal)
            #expect(try await store.glucoseReadings(user: other).isEmpty)

            try await store.addInsulinDoses([InsulinDose(takenAt: Self.morning, utcOffsetSeconds: 3600, units: 4.5, kind: .bolus, insulin: "Humalog")], user: me)
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
            #expect(try await store.mealsOfEvents(user: me, from: window.0, to: window.1).map(\.name) == ["Porridge"], "a deleted meal still names its events")
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
                GlucoseReading(measuredAt: Self.morning.addingTimeInterval(minutes * 60), utcOffsetSeconds: 0, glucose: Glucose(milligramsPerDeciliter: mg),
                               source: "import:nightscout", externalID: "nightscout:\(id):sgv")
            }
            let dose = InsulinDose(takenAt: Self.morning, utcOffsetSeconds: 0, units: 4, kind: .bolus, externalID: "nightscout:d:insulin")
            let carbs = ImportedCarbs(at: Self.morning, utcOffsetSeconds: 0, grams: 40, mealName: "Carbs", note: nil, externalID: "nightscout:c:carbs")
            func load(_ readings: [GlucoseReading], _ doses: [InsulinDose], _ carbs: [ImportedCarbs]) async throws -> ImportReport {
                try await store.importGlucoseRecords(user: me, format: "nightscout", fileName: "entries.json", mode: ImportMode()) { write in
                    for reading in readings { try await write([reading], []) }
                    try await write([], doses)
                    return (ImportReport(format: "nightscout", rowsRead: readings.count + doses.count + carbs.count), carbs)
                }
            }
            let first = try await load([reading("a", 0, 100), reading("b", 5, 110)], [dose], [carbs])
            #expect(first.imported == 4)
            // Another uploader: new ids, same times and amounts; and one new reading.
            var otherDose = dose
            otherDose.externalID = "nightscout:d2:insulin"
            var otherCarbs = carbs
            otherCarbs.externalID = "nightscout:c2:carbs"
            let second = try await load([reading("x", 0, 100), reading("c", 10, 120)], [otherDose], [otherCarbs])
            #expect(second.imported == 1 && second.duplicates == 3)
            #expect(try await store.glucoseReadings(user: me).count == 3)
            #expect(try await store.meals(user: me).map(\.name) == ["Carbs"])
            try await store.undoImport(id: try #require(first.importID), user: me)
            #expect(try await store.glucoseReadings(user: me).map(\.glucose.milligramsPerDeciliter) == [120])
            #expect(try await store.meals(user: me).isEmpty)
        }
    }
}
