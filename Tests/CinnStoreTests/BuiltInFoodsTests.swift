import CinnCore
import Foundation
import SQLKit
import Testing

@testable import CinnStore

/// The generic foods built into the binary: installed once per set, searchable, logged by their stable ids.
@Suite struct BuiltInFoodsTests {
    static let foods = try! BuiltInFoods.foods()

    static func named(_ name: String) throws -> ImportedFood {
        try #require(foods.first { $0.food.name == name }, "the built-in set has no \(name)")
    }

    @Test func theSetHoldsTheGenericUSDAFoodsWithStableDistinctIds() throws {
        #expect((7000...7400).contains(Self.foods.count), "about 7,200 Foundation, SR Legacy and survey foods")
        #expect(Set(Self.foods.map(\.food.id)).count == Self.foods.count)
        #expect(Set(Self.foods.map(\.externalID)).count == Self.foods.count)
        #expect(Set(Self.foods.map(\.food.name)).count == Self.foods.count, "one food a name")
        #expect(Self.foods.allSatisfy { $0.isGeneric && $0.food.source == .usda && $0.food.nutrients.energy != nil })
        let bananas = try Self.named("Bananas, raw")
        #expect(bananas.food.id.uuid.6 >> 4 == 5, "a name-based (version 5) id")
        #expect(bananas.food.nutrients.energy == 89)
        #expect(bananas.food.nutrients[try Nutrient.parse("potassium")] == 358)
        #expect(bananas.externalID.hasPrefix("usda:"))
    }

    @Test(arguments: Backend.enabled)
    func installsOnceAndSearchFindsThePlainFoodFirst(_ backend: Backend) async throws {
        try await TestDatabase.with(backend, now: { Date() }) { store in
            let me = try await store.localUser()
            #expect(try await store.installedBuiltInVersion() == nil)
            let first = try #require(try await store.installBuiltInFoods())
            #expect(first == BuiltInFoodsInstall(added: Self.foods.count, updated: 0, removed: 0, alreadyImported: 0))
            #expect(try await store.installedBuiltInVersion() == BuiltInFoods.version)
            #expect(try await store.installBuiltInFoods() == nil, "the same set is not installed twice")
            #expect(try await store.installBuiltInFoods(force: true) == BuiltInFoodsInstall(), "nothing differs: nothing is written")
            #expect(try await store.sharedFoodCount() == Self.foods.count)

            for (query, expected) in [
                ("apple", "Apple, raw"), ("banana", "Banana, raw"), ("chicken breast", "Chicken, breast"),
                ("oatmeal", "Oatmeal, NFS"), ("greek yogurt", "Yogurt, Greek, plain"), ("whole milk", "Milk, whole"),
                ("broccoli", "Broccoli, raw"),
            ] {
                let results = try await store.searchFoods(try #require(FoodSearchQuery(query)), user: me, limit: 10)
                let name = results.first?.food.name ?? "nothing"
                #expect(name.hasPrefix(expected), "\(query): \(name) first, not a food named \(expected)…")
                #expect(results.first?.food.isGeneric == true)
            }

            // Logged by id like any food, and found by id.
            let bananas = try Self.named("Bananas, raw")
            let stored = try await store.food(id: bananas.food.id, user: me)
            #expect(stored.name == "Bananas, raw" && stored.nutrients == bananas.food.nutrients && stored.servings == bananas.food.servings)
            #expect(try await store.isOwnFood(id: bananas.food.id, user: me) == false, "nobody can edit a built-in food")
        }
    }

    /// Add food asks whether anyone could find a branded food or an imported food database; with the built-in foods
    /// installed, SQLite answers from partial indexes, never by reading the 7,000 built-in foods' rows.
    @Test func addFoodsProbesReadPartialIndexes() async throws {
        try await TestDatabase.with(.sqlite, now: { Date() }) { store in
            try await store.installBuiltInFoods()
            let me = try await store.localUser()
            let imported = try await store.hasImportedFoods(), branded = try await store.hasBrandedFoods(user: me)
            #expect(!imported && !branded)
            let plans = try await store.withConnection { db in
                try await db.raw(SQLQueryString("EXPLAIN QUERY PLAN " + Store.importedFoodsProbe)).all()
                    .map { try $0.decode(column: "detail", as: String.self) }
            }
            #expect(plans == ["SEARCH foods USING COVERING INDEX foods_owner_import (user_id=? AND import_id>?)"])
        }
    }

    @Test(arguments: Backend.enabled)
    func aFoodDatabaseImportAndTheSetNeverHoldTheSameRowTwice(_ backend: Backend) async throws {
        try await TestDatabase.with(backend, now: { Date() }) { store in
            let me = try await store.localUser()
            let bananas = try Self.named("Bananas, raw")
            // A journal that imported the USDA file before the set existed: its row stays, the set's is not added.
            var imported = bananas
            imported.food.id = UUID()
            let report = try await importShared(store, [imported, sharedFood("Plantain chips", generic: true)], user: me)
            #expect(report.imported == 2)
            let install = try #require(try await store.installBuiltInFoods())
            #expect(install.alreadyImported == 1 && install.added == Self.foods.count - 1)
            let found = try await store.searchFoods(try #require(FoodSearchQuery("bananas raw")), user: me, limit: 5)
            #expect(found.filter { $0.food.name == "Bananas, raw" }.count == 1 && found.first?.otherVersions == 0)

            // Undoing that import takes its rows away and the set's food comes in.
            let batch = try #require(try await store.imports(user: me).first)
            try await store.undoImport(id: batch.id, user: me)
            #expect(try await store.food(id: bananas.food.id, user: me).name == "Bananas, raw")
            #expect(try await store.sharedFoodCount() == Self.foods.count)

            // Importing the file again skips the rows the set holds.
            let again = try await importShared(store, [imported], user: me)
            #expect(again.imported == 0 && again.duplicates == 1)
        }
    }

    @Test(arguments: Backend.enabled)
    func aNewSetUpdatesChangedFoodsAndRemovesDroppedOnes(_ backend: Backend) async throws {
        try await TestDatabase.with(backend, now: { Date() }) { store in
            let me = try await store.localUser()
            try await store.installBuiltInFoods()
            let bananas = try Self.named("Bananas, raw")
            // As an older set would have left them: one food's amounts differ, and one food the set no longer has.
            try await store.withConnection { db in
                try await db.raw("UPDATE foods SET nutrients = '{\"energy\":90}' WHERE id = \(bind: store.bind(bananas.food.id))").run()
                try await db.raw("UPDATE builtin_foods SET version = 'older'").run()
            }
            let dropped = Food(name: "Gone, raw", source: .usda, nutrients: nutrients(["energy": 10]))
            try await store.withConnection { db in
                try await db.raw(
                    """
                    INSERT INTO foods (id, name, source, basis, generic, builtin, nutrients, energy_kcal, servings, name_key,
                        created_at_ms, updated_at_ms, version)
                    VALUES (\(bind: store.bind(dropped.id)), 'Gone, raw', 'usda', 'g', 1, 1, '{"energy":10}', 10, '[]', 'gone raw', 0, 0, 0)
                    """
                ).run()
            }
            let install = try #require(try await store.installBuiltInFoods())
            #expect(install == BuiltInFoodsInstall(added: 0, updated: 1, removed: 1, alreadyImported: 0))
            #expect(try await store.food(id: bananas.food.id, user: me).nutrients.energy == 89)
            await #expect(throws: CinnError.self) { try await store.food(id: dropped.id, user: me) }
        }
    }

    @Test func commonFoodsComeWithTheirHouseholdPortionsTheUsualOneFirst() throws {
        func servings(_ name: String) throws -> [String] {
            try Self.named(name).food.servings.map { "\($0.label) (\(JSONText.compactNumber($0.amount)) g)" }
        }
        #expect(try servings("Apple, raw").first == "1 medium (200 g)")
        #expect(try servings("Apple, raw").contains("1 large (242 g)"))
        #expect(try servings("Bananas, raw").first == "1 medium (7\" to 7-7/8\" long) (118 g)")
        #expect(try servings("Egg, whole, boiled or poached").first == "1 egg (50 g)")
        #expect(try servings("Bread, white").first == "1 medium or regular slice (28 g)")
        #expect(try servings("Oatmeal, NFS").first == "1 cup, cooked (240 g)")
        #expect(try servings("Coffee, brewed").first == "1 cup (8 fl oz) (240 g)")
        #expect(try servings("Avocado, raw").contains("1 fruit (150 g)"))
        #expect(try servings("Strawberries, raw").first == "1 serving (147 g)", "an SR Legacy food's NLEA serving")
        let withPortions = Self.foods.filter { $0.food.servings.count > 1 }.count
        #expect(withPortions > 5_000, "\(withPortions) of \(Self.foods.count) foods have household portions")
    }

    @Test func everyEverydayFoodIsABuiltInFood() {
        let names = Set(Self.foods.map(\.food.name))
        #expect(EverydayFoods.names.subtracting(names).isEmpty, "\(EverydayFoods.names.subtracting(names).sorted())")
    }

    /// The judged set (Benchmarks/food-search/judged.tsv): what people type, and the foods they mean.
    static let judged: [(query: String, foods: Set<String>)] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Benchmarks/food-search/judged.tsv")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return (String(parts[0]), Set(parts[1].split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }))
        }
    }()

    @Test func theJudgedSetNamesBuiltInFoods() {
        #expect(Self.judged.count >= 150)
        let names = Set(Self.foods.map(\.food.name))
        for (query, foods) in Self.judged {
            #expect(!foods.isEmpty && foods.isSubset(of: names), "\(query): \(foods.subtracting(names).sorted())")
        }
    }

    @Test(arguments: Backend.enabled)
    func everydaySearchesFindWhatPeopleMean(_ backend: Backend) async throws {
        try await TestDatabase.with(backend, now: { Date() }) { store in
            let me = try await store.localUser()
            try await store.installBuiltInFoods()
            var answered = 0
            var misses: [String] = []
            for (query, foods) in Self.judged {
                let results = try await store.searchFoods(try #require(FoodSearchQuery(query)), user: me, limit: 10)
                #expect(!results.isEmpty, "\(query) finds nothing")
                let first = results.prefix(3).map(\.food.name)
                if first.contains(where: foods.contains) {
                    answered += 1
                } else {
                    misses.append("\(query): \(first.joined(separator: " / "))")
                }
            }
            #expect(
                Double(answered) > 0.9 * Double(Self.judged.count),
                "\(answered) of \(Self.judged.count) in the first 3; missed:\n\(misses.joined(separator: "\n"))")
        }
    }

    @Test(arguments: Backend.enabled)
    func aSearchThatFindsNothingAnswersWithANearbyOneAndSaysSo(_ backend: Backend) async throws {
        try await TestDatabase.with(backend, now: { Date() }) { store in
            let me = try await store.localUser()
            try await store.installBuiltInFoods()
            func search(_ text: String) async throws -> [FoodSearchResult] {
                try await store.searchFoods(try #require(FoodSearchQuery(text)), user: me, limit: 10)
            }
            let typo = try await search("brocoli")
            #expect(typo.first?.food.name == "Broccoli, raw" && typo.allSatisfy(\.isApproximate))
            let fewer = try await search("tuna in water")
            #expect(
                !fewer.isEmpty && fewer.allSatisfy(\.isApproximate) && fewer.first?.food.name.contains("tuna") == true,
                "\(fewer.map(\.food.name))")
            let typed = try await search("broccoli")
            #expect(typed.first?.food.name == "Broccoli, raw" && !typed.contains(where: \.isApproximate))
            #expect(try await search("zzzz qqqq").isEmpty)
        }
    }
}
