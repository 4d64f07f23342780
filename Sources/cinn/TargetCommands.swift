import ArgumentParser
import CinnCore
import CinnJournal
import Foundation

struct TargetsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "targets", abstract: "Nutrition targets: protein, carbohydrate and fat, and any nutrient's minimum or maximum.",
        subcommands: [Show.self, SetTargets.self, Clear.self], defaultSubcommand: Show.self)

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A day's goals and how the day stands against them.")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The day, YYYY-MM-DD (default: today).") var date: String?
        @Flag(help: "Every nutrient's goal, not only yours, fiber and sodium.") var all = false

        func run() async throws {
            let (day, targets) = try await options.withJournal { journal in
                let settings = try await journal.settings()
                let day: LocalDate = try date.map { text in try LocalDate.parse(text) } ?? journal.today(settings)
                return (try await journal.day(day).day, settings.nutrientTargets)
            }
            let macros = [("Protein", targets.protein), ("Carbohydrate", targets.carbohydrate), ("Fat", targets.fat)]
                .compactMap { name, target in target.map { "\(name) \($0.description)" } }
            print(macros.isEmpty ? "No macro targets (set them with: cinn targets set protein=150g fat=30%)." : "Targets: " + macros.joined(separator: ", "))
            if day.energyTargetKcal == nil, [targets.carbohydrate, targets.fat, targets.protein].contains(where: {
                if case .percentOfEnergy? = $0 { true } else { false }
            }) {
                print("A share of energy needs a calorie target: set up your profile (cinn profile set) or one (cinn settings set energy-target 2000).")
            }
            print("\(day.date):")
            for (goal, amount, standing) in day.progress where all || goal.isShownByDefault {
                let unit = goal.nutrient.unit.rawValue
                let bound = [goal.minimum.map { "at least \(format($0))" }, goal.maximum.map { "at most \(format($0))" }]
                    .compactMap { $0 }.joined(separator: ", ")
                let mark = standing == .met ? "✓" : standing == .under ? "↓" : "↑"
                print("  \(mark) \(goal.nutrient.name): \(format(amount)) \(unit) (\(goal.macro == nil ? bound : "target \(format(goal.target))") \(unit))"
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
                  protein=150g   carbohydrate=40%   fat=30%   protein=1.8g/kg   (g a day, % of the calorie target, g per kg)
                  sodium<2000    fiber>30   potassium>3500   (a nutrient's maximum or minimum, in its unit)
                  sodium=dv      protein=none      (back to the Daily Value; no macro target)
                """)

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "Targets such as protein=150g sodium<2000.") var targets: [String]

        func run() async throws {
            try await options.withJournal { journal in
                var changed = try await journal.settings().nutrientTargets
                for text in targets { try Self.apply(text, to: &changed) }
                try await journal.setNutrientTargets(changed)
            }
            print("Targets saved.")
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
                    let (number, kind): (String, String) = value.hasSuffix("g/kg") ? (String(value.dropLast(4)), "per_kg")
                        : value.hasSuffix("%") ? (String(value.dropLast()), "percent") : (value.hasSuffix("g") ? String(value.dropLast()) : value, "g")
                    guard let amount = Double(number) else { throw .invalid(key, "\"\(value)\" is not an amount like 150g, 30% or 1.8g/kg") }
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
