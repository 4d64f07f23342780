import ArgumentParser
import CinnCore
import CinnJournal
import Foundation

struct TargetsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "targets",
        abstract: "Targets: the daily calories, protein, carbohydrate and fat, and any nutrient's minimum or maximum.",
        subcommands: [Show.self, SetTargets.self, Clear.self], defaultSubcommand: Show.self)

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A day's goals and how the day stands against them.")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The day, YYYY-MM-DD (default: today).") var date: String?
        @Flag(help: "Every nutrient's goal, not only yours, fiber and sodium.") var all = false

        func run() async throws {
            let (day, targets, report) = try await options.withJournal { journal in
                let settings = try await journal.settings()
                let day: LocalDate = try date.map { text in try LocalDate.parse(text) } ?? journal.today(settings)
                return (try await journal.day(day).day, settings.nutrientTargets, try await journal.energyReport(asOf: day, historyDays: 0))
            }
            let unit = report.settings.energyUnit
            let follows =
                report.settings.energyTargetKcal != nil
                ? "your own number"
                : report.settings.targetBasis == .adaptive ? "your data" : "the formula"
            print(
                "Calories: "
                    + (report.target.map { "\(unit.format(kilocalories: $0.kcal)) a day, following \(follows)" }
                        ?? "no target yet (a profile and a weigh-in give one; or: cinn targets set calories=2000)"))
            if let change = report.targetChange { print(change.message(in: unit)) }
            let macros = [("Protein", targets.protein), ("Carbohydrate", targets.carbohydrate), ("Fat", targets.fat)]
                .compactMap { name, target in target.map { "\(name) \($0.description)" } }
            print(
                macros.isEmpty
                    ? "No macro targets (set them with: cinn targets set protein=150g fat=30%)."
                    : "Targets: " + macros.joined(separator: ", "))
            if day.energyTargetKcal == nil,
                [targets.carbohydrate, targets.fat, targets.protein].contains(where: {
                    if case .percentOfEnergy? = $0 { true } else { false }
                })
            {
                print(
                    "A share of energy needs a calorie target: set up your profile (cinn profile set) or one (cinn targets set calories=2000)."
                )
            }
            print("\(day.date):")
            for (goal, amount, standing) in day.progress where all || goal.isShownByDefault {
                let unit = goal.nutrient.unit.rawValue
                let bound = [goal.minimum.map { "at least \(format($0))" }, goal.maximum.map { "at most \(format($0))" }]
                    .compactMap { $0 }.joined(separator: ", ")
                let mark = standing == .met ? "✓" : standing == .under ? "↓" : "↑"
                print(
                    "  \(mark) \(goal.nutrient.name): \(format(amount)) \(unit) (\(goal.macro == nil ? bound : "target \(format(goal.target))") \(unit))"
                        + (goal.source == NutrientGoal.Source.dailyValue ? ", Daily Value" : ""))
            }
        }

        func format(_ value: Double) -> String { JSONText.compactNumber((value * 10).rounded() / 10) }
    }

    struct SetTargets: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set targets; the others stay as they are.",
            discussion: """
                Each target is one word:
                  calories=data   calories=formula   calories=2000   calorie-floor=1400   (what the daily calorie target follows)
                  protein=150g   carbohydrate=40%   fat=30%   protein=1.8g/kg   (g a day, % of the calorie target, g per kg)
                  sodium<2000    fiber>30   potassium>3500   (a nutrient's maximum or minimum, in its unit)
                  sodium=dv      protein=none      (back to the Daily Value; no macro target)
                """)

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "Targets such as protein=150g sodium<2000.") var targets: [String]

        func run() async throws {
            try await options.withJournal { journal in
                var changed = try await journal.settings().nutrientTargets
                var calories = ProfileUpdate()
                var nutrients = false, energy = false
                for text in targets {
                    if try Self.applyCalories(text, to: &calories) {
                        energy = true
                    } else {
                        try Self.apply(text, to: &changed)
                        nutrients = true
                    }
                }
                if energy { _ = try await journal.updateProfile(calories) }
                if nutrients { try await journal.setNutrientTargets(changed) }
            }
            print("Targets saved.")
        }

        /// Applies `calories=data|formula|KCAL` or `calorie-floor=KCAL|default`; false for any other target.
        static func applyCalories(_ text: String, to update: inout ProfileUpdate) throws -> Bool {
            let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard parts.count == 2, ["calories", "calorie-floor"].contains(parts[0]) else { return false }
            let (key, value) = (parts[0], parts[1])
            if key == "calorie-floor" {
                guard value == "default" || Double(value) != nil else {
                    throw CinnError.invalid(key, "give calorie-floor=1400 (kcal) or calorie-floor=default")
                }
                update.energyFloorKcal = .some(try Double(value).map { kcal in try EnergyTarget.validFloor(kcal, field: key) })
                return true
            }
            switch value {
            case "data", "adaptive":
                update.targetBasis = TargetBasis.adaptive.rawValue
                update.energyTargetKcal = .some(nil)
            case "formula":
                update.targetBasis = TargetBasis.formula.rawValue
                update.energyTargetKcal = .some(nil)
            default:
                guard let kcal = Double(value) else {
                    throw CinnError.invalid(key, "give calories=data, calories=formula or your own number, like calories=2000")
                }
                update.energyTargetKcal = .some(try UserSettings.validEnergyTarget(kcal, field: key))
            }
            return true
        }

        static func apply(_ text: String, to targets: inout NutrientTargets) throws(CinnError) {
            guard let separator = text.firstIndex(where: { "=<>".contains($0) }) else {
                throw .invalid("targets", "\"\(text)\" is not a target like protein=150g or sodium<2000")
            }
            let key = text[..<separator].lowercased().replacingOccurrences(of: "carbs", with: "carbohydrate")
            let value = String(text[text.index(after: separator)...]).trimmingCharacters(in: .whitespaces).lowercased()
            if ["protein", "carbohydrate", "fat"].contains(key) {
                guard text[separator] == "=" else { throw .invalid(key, "give \(key)=150g, \(key)=30% or (protein) 1.8g/kg") }
                var macro: MacroTarget?
                if value != "none" {
                    let (number, kind): (String, String) =
                        value.hasSuffix("g/kg")
                        ? (String(value.dropLast(4)), "per_kg")
                        : value.hasSuffix("%")
                            ? (String(value.dropLast()), "percent") : (value.hasSuffix("g") ? String(value.dropLast()) : value, "g")
                    guard let amount = Double(number) else {
                        throw .invalid(key, "\"\(value)\" is not an amount like 150g, 30% or 1.8g/kg")
                    }
                    macro = kind == "per_kg" ? .gramsPerKilogram(amount) : kind == "percent" ? .percentOfEnergy(amount) : .grams(amount)
                }
                switch key {
                case "protein": targets.protein = macro
                case "carbohydrate": targets.carbohydrate = macro
                default: targets.fat = macro
                }
                return
            }
            guard Nutrient.named(key) != nil else { throw .invalid(key, "no nutrient \"\(key)\"; cinn food add --help lists the keys") }
            if value == "dv" {
                targets.limits[key] = nil
                return
            }
            guard let amount = Double(value) else { throw .invalid(key, "\"\(value)\" is not an amount") }
            var limit = targets.limits[key] ?? NutrientLimit()
            switch text[separator] {
            case "<": limit.maximum = amount
            case ">": limit.minimum = amount
            default: throw .invalid(key, "give \(key)<AMOUNT for a maximum or \(key)>AMOUNT for a minimum")
            }
            targets.limits[key] = limit
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove every target of yours: the Daily Values only.")

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            try await options.withJournal { journal in try await journal.setNutrientTargets(NutrientTargets()) }
            print("Targets cleared: the Daily Values apply.")
        }
    }
}
