import CinnCore
import Foundation
import Synchronization
import Testing

@testable import CinnStore

func nutrients(_ amounts: [String: Double]) -> Nutrients {
    try! Nutrients(keyed: amounts)
}

func sharedFood(
    _ name: String, brand: String? = nil, kcal: Double = 100, generic: Bool = false, key: String? = nil,
    barcode: String? = nil, line: Int = 1
) -> ImportedFood {
    ImportedFood(
        food: Food(
            name: name, brand: brand, barcode: barcode, source: generic ? .usda : .openFoodFacts,
            nutrients: nutrients(["energy": kcal, "protein": 1]),
            servings: [ServingSize(label: "1 piece", amount: 50)]),
        externalID: key ?? "k:\(name):\(brand ?? ""):\(kcal)", line: line, isGeneric: generic)
}

func importShared(_ store: Store, _ foods: [ImportedFood], user: UserID, mode: ImportMode = ImportMode()) async throws -> ImportReport {
    try await store.importFoods(user: user, format: "test", fileName: nil, mode: mode) { insert in
        try await insert(foods)
        return ImportReport(format: "test", rowsRead: foods.count)
    }
}

@Suite struct FoodStoreTests {
    @Test(arguments: Backend.enabled)
    func ownFoodRoundTripsAndOnlyItsOwnerCanChangeIt(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let other = try await store.user(named: "other")
            let food = Food(
                name: "Porridge", brand: "Home", barcode: "4006381333931",
                nutrients: nutrients(["energy": 68, "fiber": 1.7, "iron": 0.9]),
                servings: [ServingSize(label: "1 bowl", amount: 250)])
            try await store.addFood(food, user: me)
            #expect(try await store.food(id: food.id, user: me) == food)
            await #expect(throws: CinnError.self) { try await store.food(id: food.id, user: other) }
            #expect(try await store.food(barcode: "4006381333931", user: me)?.id == food.id)
            #expect(try await store.food(barcode: "4006381333931", user: other) == nil)

            var edited = food
            edited.name = "Oat porridge"
            await #expect(throws: CinnError.self) { try await store.updateFood(edited, user: other) }
            try await store.updateFood(edited, user: me)
            #expect(try await store.food(id: food.id, user: me).name == "Oat porridge")
            #expect(try await store.ownFoods(user: me).map(\.name) == ["Oat porridge"])
            #expect(try await store.ownFoods(user: other).isEmpty)
            await #expect(throws: CinnError.self) { try await store.deleteFood(id: food.id, user: other) }
            try await store.deleteFood(id: food.id, user: me)
            await #expect(throws: CinnError.self) { try await store.food(id: food.id, user: me) }
        }
    }

    @Test(arguments: Backend.enabled)
    func entriesKeepTheirSnapshotWhenTheFoodChangesOrGoes(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let apple = Food(
                name: "Apple", nutrients: nutrients(["energy": 52, "carbohydrate": 13.8]),
                servings: [ServingSize(label: "1 medium", amount: 182)])
            try await store.addFood(apple, user: me)
            let time = LocalDateTime(iso: "2024-03-14T23:30:00-05:00")!.resolved(in: .gmt)
            let entry = try FoodLogEntry.logging(
                apple, servings: 1.5, of: apple.servings[0], meal: .snacks,
                eatenAt: time.instant, utcOffsetSeconds: time.utcOffsetSeconds)
            try await store.addFoodEntries([entry], user: me)
            var changed = apple
            changed.nutrients = nutrients(["energy": 999])
            try await store.updateFood(changed, user: me)
            try await store.deleteFood(id: apple.id, user: me)

            let day = LocalDate(iso: "2024-03-14")!
            let stored = try await store.foodEntries(user: me, from: day, to: day)
            #expect(stored == [entry])
            #expect(abs(stored[0].energy - 141.96) < 1e-9)
            #expect(stored[0].servingLabel == "1 medium (182 g)")
            let totals = try await store.dailyNutrition(user: me, from: day, to: day)
            #expect(totals.count == 1)
            #expect(abs((totals[0].totals[.carbohydrate] ?? 0) - 37.674) < 1e-9)
        }
    }

    @Test(arguments: Backend.enabled)
    func editingAnEntryScalesItsNutrientsAndDeletingLeavesATombstone(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let other = try await store.user(named: "other")
            let food = Food(name: "Rice", nutrients: nutrients(["energy": 130]), servings: [ServingSize(label: "1 cup", amount: 158)])
            let entry = try FoodLogEntry.logging(
                food, servings: 1, of: food.servings[0], meal: .lunch,
                eatenAt: fixedNow, utcOffsetSeconds: 0)
            try await store.addFoodEntries([entry], user: me)
            await #expect(throws: CinnError.self) { try await store.updateFoodEntry(id: entry.id, user: other, servings: 2) }
            let edited = try await store.updateFoodEntry(id: entry.id, user: me, servings: 2, meal: .dinner, note: .some("big"))
            #expect(abs(edited.energy - 410.8) < 1e-9)
            #expect(try await store.foodEntry(id: entry.id, user: me) == edited)
            await #expect(throws: CinnError.self) { try await store.updateFoodEntry(id: entry.id, user: me, servings: 0) }
            await #expect(throws: CinnError.self) { try await store.deleteFoodEntry(id: entry.id, user: other) }
            try await store.deleteFoodEntry(id: entry.id, user: me)
            await #expect(throws: CinnError.self) { try await store.foodEntry(id: entry.id, user: me) }
            #expect(try await store.foodHistory(user: me).isEmpty)
        }
    }

    @Test(arguments: Backend.enabled)
    func historySearchesAndPagesNewestFirst(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let names = ["Apple", "Banana", "Apple pie", "Greek yogurt 100%"]
            let entries = try names.enumerated().map { index, name in
                let food = Food(name: name, nutrients: nutrients(["energy": 100]))
                return try FoodLogEntry.logging(
                    food, servings: 1, of: food.defaultServing, meal: .snacks,
                    eatenAt: fixedNow.addingTimeInterval(Double(index) * 60), utcOffsetSeconds: 0)
            }
            try await store.addFoodEntries(entries, user: me)
            #expect(try await store.foodHistory(user: me).map(\.name) == names.reversed())
            #expect(try await store.foodHistory(user: me, search: "APPLE").map(\.name) == ["Apple pie", "Apple"])
            #expect(try await store.foodHistory(user: me, search: "100%").map(\.name) == ["Greek yogurt 100%"])
            #expect(try await store.foodHistory(user: me, limit: 2, offset: 1).map(\.name) == ["Apple pie", "Banana"])
        }
    }

    @Test(arguments: Backend.enabled)
    func importedFoodsAreSharedDeduplicatedAndUndoable(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let other = try await store.user(named: "other")
            let foods = [
                sharedFood("Apple, raw", kcal: 52, generic: true),
                sharedFood("APPLE JUICE", kcal: 46, barcode: "4056489123453"),
                sharedFood("Tab\tand \\ slash", kcal: 1),
            ]
            let first = try await importShared(store, foods, user: me)
            #expect(first.imported == 3)
            let again = try await importShared(store, foods, user: me)
            #expect(again.imported == 0)
            #expect(again.duplicates == 3)
            #expect(try await store.sharedFoodCount() == 3)
            #expect(try await store.food(barcode: "4056489123453", user: other)?.name == "APPLE JUICE")

            let dry = try await importShared(store, [sharedFood("Pear", kcal: 57)], user: me, mode: ImportMode(dryRun: true))
            #expect(dry.imported == 1)
            #expect(try await store.sharedFoodCount() == 3)

            let query = try #require(FoodSearchQuery("tab"))
            #expect(try await store.searchFoods(query, user: other).map(\.food.name) == ["Tab\tand \\ slash"])

            try await store.undoImport(id: try #require(first.importID), user: me)
            #expect(try await store.sharedFoodCount() == 0)
            #expect(try await store.searchFoods(try #require(FoodSearchQuery("apple")), user: me).isEmpty)
            let back = try await importShared(store, foods, user: me)
            #expect(back.imported == 3)
        }
    }

    /// While a food database is read nothing of it is searchable and other writes go through (on SQLite its foods are
    /// staged outside the write lock); a read that fails leaves nothing behind.
    @Test(arguments: Backend.enabled)
    func whileAFoodDatabaseIsReadOtherWritesGoThroughAndNothingOfItShows(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser(), bob = try await store.user(named: "bob")
            let apple = try #require(FoodSearchQuery("apple"))
            let report = try await store.importFoods(user: me, format: "test", fileName: nil, mode: ImportMode()) { insert in
                try await insert([sharedFood("Apple, raw", kcal: 52, generic: true)])
                // Polled rather than awaited: before, the weigh-in waited for the import, which waited for this.
                let added = Mutex(false)
                Task {
                    _ = try await store.addWeighIn(weighIn(70, at: "2024-03-10T07:00:00Z"), user: bob)
                    added.withLock { $0 = true }
                }
                let deadline = ContinuousClock.now + .seconds(10)
                while !added.withLock({ $0 }) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
                #expect(added.withLock { $0 }, "another user's weigh-in went in within 10 s while the foods were being read")
                #expect(try await store.searchFoods(apple, user: bob).isEmpty, "nothing of the import shows before it is complete")
                try await insert([sharedFood("Apple juice", kcal: 46)])
                return ImportReport(format: "test", rowsRead: 2)
            }
            #expect(report.imported == 2)
            #expect(try await store.searchFoods(apple, user: bob).count == 2)
            #expect(try await store.weighIns(user: bob).map(\.weight.kilograms) == [70])

            await #expect(throws: CinnError.self) {
                try await store.importFoods(user: me, format: "test", fileName: nil, mode: ImportMode()) { insert in
                    try await insert([sharedFood("Pear", kcal: 57, generic: true)])
                    throw CinnError(.invalidInput, "line 2: the file ends inside a row")
                }
            }
            #expect(try await store.searchFoods(try #require(FoodSearchQuery("pear")), user: me).isEmpty)
            #expect(try await store.sharedFoodCount() == 2)
            #expect(try await store.imports(user: me).count == 1)
        }
    }

    @Test(arguments: Backend.enabled)
    func searchRanksOwnAndRecentThenGenericThenBrandedAndFoldsLookAlikes(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let other = try await store.user(named: "other")
            _ = try await importShared(
                store,
                [
                    sharedFood("Yogurt, Greek, plain, nonfat", kcal: 59, generic: true),
                    sharedFood("GREEK YOGURT", kcal: 97), sharedFood("GREEK YOGURT", kcal: 120),
                    sharedFood("GREEK YOGURT", kcal: 130),
                    sharedFood("HONEY GREEK YOGURT", kcal: 110),
                    sharedFood("Yogurt, plain", kcal: 61, generic: true),
                    sharedFood("STRAWBERRY DRINK", brand: "Greek Farms", kcal: 50),
                ], user: me)
            let mine = Food(name: "My greek yoghurt bowl", nutrients: nutrients(["energy": 150]))
            try await store.addFood(mine, user: me)

            let query = try #require(FoodSearchQuery("greek yog"))
            let results = try await store.searchFoods(query, user: me)
            #expect(
                results.map(\.food.name) == [
                    "My greek yoghurt bowl", "Yogurt, Greek, plain, nonfat", "GREEK YOGURT",
                    "HONEY GREEK YOGURT",
                ])
            #expect(results[2].otherVersions == 2)
            #expect(results[0].food.isMine)

            let others = try await store.searchFoods(query, user: other)
            #expect(!others.map(\.food.name).contains("My greek yoghurt bowl"))

            let brand = try await store.searchFoods(try #require(FoodSearchQuery("greek farms")), user: me)
            #expect(brand.map(\.food.name) == ["STRAWBERRY DRINK"])

            let honey = try #require(results.first { $0.food.name == "HONEY GREEK YOGURT" })
            let food = try await store.food(id: honey.food.id, user: me)
            let entry = try FoodLogEntry.logging(
                food, servings: 1, of: food.defaultServing, meal: .breakfast,
                eatenAt: fixedNow, utcOffsetSeconds: 0)
            try await store.addFoodEntries([entry], user: me)
            let afterLogging = try await store.searchFoods(query, user: me)
            #expect(afterLogging.prefix(2).map(\.food.name).sorted() == ["HONEY GREEK YOGURT", "My greek yoghurt bowl"])
            #expect(try await store.recentFoods(user: me).map(\.name) == ["HONEY GREEK YOGURT"])
            #expect(try await store.recentFoods(user: other).isEmpty)
            #expect(try await store.frequentFoods(user: me, since: fixedNow.addingTimeInterval(-86_400)).map(\.count) == [1])
        }
    }

    @Test(arguments: Backend.enabled)
    func presetsKeepTheirItemsInOrder(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let other = try await store.user(named: "other")
            let preset = FoodPreset(
                name: "Usual breakfast", meal: .breakfast,
                items: [
                    FoodPreset.Item(
                        foodID: UUID.v7(), name: "Oats", brand: nil, servings: 1, servingLabel: "40 g",
                        servingAmount: 40, nutrients: nutrients(["energy": 150])),
                    FoodPreset.Item(
                        foodID: nil, name: "Milk", brand: "Farm", servings: 2, servingLabel: "1 cup (244 g)",
                        servingAmount: 244, nutrients: nutrients(["energy": 244, "calcium": 600])),
                ])
            try await store.addPreset(preset, user: me)
            #expect(try await store.presets(user: me) == [preset])
            #expect(try await store.presets(user: other).isEmpty)
            await #expect(throws: CinnError.self) { try await store.preset(id: preset.id, user: other) }
            await #expect(throws: CinnError.self) { try await store.deletePreset(id: preset.id, user: other) }
            try await store.deletePreset(id: preset.id, user: me)
            #expect(try await store.presets(user: me).isEmpty)
        }
    }

    @Test(arguments: Backend.enabled)
    func energySettingsRoundTrip(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            #expect(try await store.settings(user: me).energyTargetKcal == nil)
            try await store.saveSettings(UserSettings(energyTargetKcal: 1850, energyUnit: .kilojoules), user: me)
            let settings = try await store.settings(user: me)
            #expect(settings.energyTargetKcal == 1850)
            #expect(settings.energyUnit == .kilojoules)
        }
    }

    @Test(arguments: Backend.enabled)
    func searchFoldsAccentsAndSharpSOnEveryDatabase(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            _ = try await importShared(
                store,
                [
                    sharedFood("Weißbier hell", brand: "Brauerei Müller", kcal: 43),
                    sharedFood("Crème fraîche", kcal: 292, generic: true),
                ], user: me)
            for (text, name) in [
                ("weissbier", "Weißbier hell"), ("weißb", "Weißbier hell"), ("muller", "Weißbier hell"),
                ("MÜLL", "Weißbier hell"), ("creme fr", "Crème fraîche"), ("crème", "Crème fraîche"),
            ] {
                let results = try await store.searchFoods(try #require(FoodSearchQuery(text)), user: me)
                #expect(results.map(\.food.name) == [name], "\(text)")
            }
        }
    }

    @Test(arguments: Backend.enabled)
    func theUsersOwnFoodsAreFoundAmongManyGenericOnes(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let generic = (0..<700).map { sharedFood("Cheese, kind \($0)", kcal: Double(300 + $0 % 50), generic: true) }
            _ = try await importShared(store, generic, user: me)
            try await store.addFood(Food(name: "Cheese on toast, mine", nutrients: nutrients(["energy": 280])), user: me)
            let results = try await store.searchFoods(try #require(FoodSearchQuery("c")), user: me)
            #expect(results.first?.food.name == "Cheese on toast, mine")
        }
    }

    @Test(arguments: Backend.enabled)
    func historySearchFoldsCaseAndAccentsOnEveryDatabase(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let entries = try ["Éclair au chocolat", "Straße snack", "Apple"].map { name in
                let food = Food(name: name, nutrients: nutrients(["energy": 100]))
                return try FoodLogEntry.logging(
                    food, servings: 1, of: food.defaultServing, meal: .snacks, eatenAt: fixedNow,
                    utcOffsetSeconds: 0)
            }
            try await store.addFoodEntries(entries, user: me)
            #expect(try await store.foodHistory(user: me, search: "eclair").map(\.name) == ["Éclair au chocolat"])
            #expect(try await store.foodHistory(user: me, search: "ÉCLAIR AU").map(\.name) == ["Éclair au chocolat"])
            #expect(try await store.foodHistory(user: me, search: "strasse").map(\.name) == ["Straße snack"])
            #expect(try await store.foodHistory(user: me, search: "%").count == 3, "punctuation alone matches everything")
        }
    }
}
