import ArgumentParser
import CinnCore
import CinnJournal
import CinnStore
import Foundation

extension FoodCommand {
    struct Preset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Saved foods and saved meals, logged in one step.", subcommands: [List.self, Save.self, Log.self, Delete.self],
            defaultSubcommand: List.self)

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List presets.")

            @OptionGroup var options: DatabaseOptions

            func run() async throws {
                let presets = try await options.withJournal { try await $0.store.presets(user: $0.user) }
                if presets.isEmpty { print("No presets yet. Save one with: cinn food preset save NAME --date YYYY-MM-DD --meal breakfast") }
                for preset in presets {
                    print(
                        preset.id.lowercasedString + "  " + preset.name + (preset.meal.map { " (\($0.title))" } ?? "")
                            + "  \((preset.nutrients.energy ?? 0).wholeText) kcal")
                    for item in preset.items {
                        print("    \(formatServings(item.servings)) × \(item.servingLabel)  \(item.name)")
                    }
                }
            }
        }

        struct Save: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Save a logged meal (--date and --meal) or one food (--food) as a preset.")

            @OptionGroup var options: DatabaseOptions

            @Argument(help: "The preset's name.")
            var name: String

            @Option(help: "The day the meal was logged (YYYY-MM-DD).")
            var date: String?

            @Option(help: "The meal to save, or the meal the preset goes into.")
            var meal: String?

            @Option(help: "A food's id or barcode, to save one food.")
            var food: String?

            @Option(help: "Servings of that food.")
            var servings = 1.0

            @Option(help: "Which serving of that food.")
            var serving: String?

            func run() async throws {
                let preset = try await options.withJournal { journal in
                    if let food {
                        let found = try await journal.food(reference: food)
                        return try await journal.savePreset(name: name, foodID: found.id, servings: servings, serving: serving, meal: meal)
                    }
                    guard let date, let meal else { throw CinnError.invalid("date", "give --date and --meal, or --food") }
                    return try await journal.savePreset(name: name, from: try LocalDate.parse(date), meal: meal)
                }
                print(preset.id.lowercasedString)
            }
        }

        struct Log: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Log a preset.")

            @OptionGroup var options: DatabaseOptions

            @Argument(help: "The preset's id or name.")
            var preset: String

            @Option(help: "How many times (1 = as saved).")
            var times = 1.0

            @Option(help: "Into this meal (default: the preset's).")
            var meal: String?

            @Option(help: "YYYY-MM-DD or an ISO 8601 time (default: now).")
            var time: String?

            func run() async throws {
                let entries = try await options.withJournal { journal in
                    let presets = try await journal.presets()
                    guard
                        let found = presets.first(where: { $0.id.lowercasedString == preset.lowercased() })
                            ?? presets.first(where: { $0.name.caseInsensitiveCompare(preset) == .orderedSame })
                    else {
                        throw CinnError.notFound("no preset named or numbered \"\(preset)\"")
                    }
                    return try await journal.logPreset(id: found.id, times: times, meal: meal, time: time)
                }
                let kcal = entries.reduce(0) { $0 + $1.energy }
                print(
                    "Logged \(entries.count) food\(entries.count == 1 ? "" : "s") (\(kcal.wholeText) kcal) for \(entries[0].meal.title) on \(entries[0].localDate)."
                )
            }
        }

        struct Delete: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Delete a preset.")

            @OptionGroup var options: DatabaseOptions

            @Argument(help: "The preset's id.")
            var id: String

            func run() async throws {
                let uuid = try parseOrThrow { () in
                    guard let uuid = UUID(text: id) else { throw CinnError.invalid("id", "\(id) is not a preset id") }
                    return uuid
                }
                try await options.withJournal { try await $0.store.deletePreset(id: uuid, user: $0.user) }
                print("Deleted.")
            }
        }
    }
}
