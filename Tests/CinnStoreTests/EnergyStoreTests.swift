import CinnCore
import Foundation
import Testing

@testable import CinnStore

@Suite struct EnergyStoreTests {
    let noon = Date(timeIntervalSince1970: 1_710_504_000)  // 2024-03-15 12:00 UTC

    @Test(arguments: Backend.enabled)
    func profileAndEnergyChoicesRoundTrip(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let profile = Profile(
                sex: .male, birthDate: LocalDate(iso: "1988-02-29")!, height: Height(feet: 5, inches: 11),
                activity: .veryActive)
            let settings = UserSettings(
                displayUnit: .pounds, profile: profile, lengthUnit: .feetAndInches, targetBasis: .adaptive,
                energyFloorKcal: 1300, onboarded: true)
            let goal = Goal(weight: Mass(170, .pounds), plannedRate: Mass(1, .pounds), setOn: LocalDate(iso: "2024-03-15")!)
            try await store.saveSettings(settings, goal: goal, user: me)
            #expect(try await store.settings(user: me) == settings)
            #expect(try await store.goal(user: me) == goal)
            let height = try #require(try await store.settings(user: me).profile?.height.feetAndInches())
            #expect(height == (5, 11))
        }
    }

    @Test(arguments: Backend.enabled)
    func dayStatusesBodyFatAndEnergyInputs(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let other = try await store.user(named: "other")
            let day = LocalDate(iso: "2024-03-14")!
            try await store.setDayStatus(.partial, on: day, user: me)
            try await store.setDayStatus(.complete, on: day, user: me)
            try await store.setDayStatus(.complete, on: day.adding(days: -1), user: me)
            try await store.setDayStatus(nil, on: day.adding(days: -1), user: me)
            try await store.setDayStatus(.partial, on: day, user: other)
            #expect(try await store.dayStatuses(user: me) == [day: .complete])
            #expect(try await store.dayStatuses(user: other) == [day: .partial])

            try await store.addBodyFat(
                BodyFatReading(measuredAt: noon.addingTimeInterval(-86_400 * 40), utcOffsetSeconds: 0, fraction: 0.3), user: me)
            try await store.addBodyFat(BodyFatReading(measuredAt: noon, utcOffsetSeconds: 3600, fraction: 0.22), user: me)
            #expect(try await store.latestBodyFat(user: me)?.fraction == 0.22)
            #expect(try await store.latestBodyFat(user: other) == nil)

            let entry = FoodLogEntry(
                foodID: nil, name: "Soup", meal: .lunch, eatenAt: noon.addingTimeInterval(-86_400), utcOffsetSeconds: 0,
                servings: 1, servingLabel: "1 bowl", servingAmount: nil, nutrients: try Nutrients(keyed: ["energy": 450]))
            var second = entry
            second.id = .v7()
            try await store.addFoodEntries([entry, second], user: me)
            let inputs = try await store.energyInputs(user: me)
            #expect(inputs.intakeKcal == [day: 900])
            #expect(inputs.completeDayIntakeKcal == [day: 900])
            #expect(inputs.latestBodyFat?.fraction == 0.22)
            try await store.setDayStatus(.complete, on: day.adding(days: -2), user: other)
            #expect(
                try await store.energyInputs(user: other).completeDayIntakeKcal == [day.adding(days: -2): 0],
                "partial days are left out; a complete day without entries ate nothing")
        }
    }

    @Test(arguments: Backend.enabled)
    func myFitnessPalBatchIsIdempotentAndUndoable(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let entry = FoodLogEntry(
                foodID: nil, name: "Breakfast (MyFitnessPal)", meal: .breakfast, eatenAt: noon, utcOffsetSeconds: 0,
                servings: 1, servingLabel: "1 meal", servingAmount: nil,
                nutrients: try Nutrients(keyed: ["energy": 312]), externalID: "mfp:a#0")
            let twin = FoodLogEntry(
                foodID: nil, name: "Breakfast (MyFitnessPal)", meal: .breakfast, eatenAt: noon, utcOffsetSeconds: 0,
                servings: 1, servingLabel: "1 meal", servingAmount: nil,
                nutrients: try Nutrients(keyed: ["energy": 312]), externalID: "mfp:a#1")
            let walk = ExerciseEntry(
                performedAt: noon, utcOffsetSeconds: 0, name: "Walking", kind: .cardio, energyKcal: 178,
                minutes: 32, steps: 4210, externalID: "mfp:w#0")
            let bench = ExerciseEntry(
                performedAt: noon, utcOffsetSeconds: 0, name: "Bench Press, Barbell", kind: .strength, sets: 3,
                repsPerSet: 8, weight: Mass(95, .pounds), externalID: "mfp:w#1")
            let weighIn = ImportedWeighIn(
                measuredAt: noon, utcOffsetSeconds: 0, weight: Mass(158.2, .pounds), externalID: "mfp:m#0", line: 2)
            func run() async throws -> ImportReport {
                try await store.importMyFitnessPal(user: me, format: "myfitnesspal", fileName: "export.zip", mode: ImportMode()) { write in
                    try await write(
                        [entry, twin].map {
                            var copy = $0
                            copy.id = .v7()
                            return copy
                        }, [], [])
                    try await write(
                        [], [weighIn],
                        [walk, bench].map {
                            var copy = $0
                            copy.id = .v7()
                            return copy
                        })
                    return ImportReport(format: "myfitnesspal", rowsRead: 5)
                }
            }
            let first = try await run()
            #expect(first.imported == 5)
            let again = try await run()
            #expect(again.imported == 0)
            #expect(again.duplicates == 5)
            let day = LocalDate(iso: "2024-03-15")!
            #expect(try await store.foodEntries(user: me, from: day, to: day).count == 2)
            let exercises = try await store.exerciseEntries(user: me, from: day, to: day)
            #expect(exercises.map(\.energyKcal) == [178, nil] || exercises.map(\.energyKcal) == [nil, 178])
            let stored = try #require(exercises.first { $0.kind == .strength })
            #expect(stored.sets == 3 && stored.repsPerSet == 8 && abs((stored.weight?.kilograms ?? 0) - 43.091) < 0.001)
            #expect(exercises.first { $0.kind == .cardio }?.steps == 4210)
            #expect(try await store.energyInputs(user: me).exerciseKcal == [day: 178])
            #expect(try await store.undoImport(id: try #require(first.importID), user: me) == 5)
            #expect(try await store.exerciseEntries(user: me, from: day, to: day).isEmpty)
            #expect(try await store.weighInCount(user: me) == 0)
            #expect(try await run().imported == 5, "undone rows come back on a later import")
        }
    }
}
