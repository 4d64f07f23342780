import ArgumentParser
import CinnCore
import CinnJournal
import CinnStore
import Foundation

struct Weight: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add, list and delete weigh-ins.", subcommands: [Add.self, List.self, Delete.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Record a weigh-in and print its id.")

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The weight, e.g. 72.4.")
        var value: String

        @Option(help: "kg, lb or st (default: your display unit).")
        var unit: MassUnit?

        @Option(help: "YYYY-MM-DD (today: now; an earlier day: local noon) or an ISO 8601 time with offset (default: now).")
        var date: String?

        @Option(help: "A note.")
        var note: String?

        @Flag(help: "Save a weight far from your trend (a likely typo, asked about on a terminal) without asking.")
        var confirm = false

        func run() async throws {
            let weight = try parseOrThrow { () in
                guard let number = Double(value.replacingOccurrences(of: ",", with: ".")) else {
                    throw CinnError.invalid("weight", "\"\(value)\" is not a number")
                }
                return number
            }
            let weighIn = try await options.withJournal { journal in
                try await confirmingTypos(confirmed: confirm) { confirm in
                    try await journal.addWeighIn(weight: weight, unit: unit, date: date, note: note, confirm: confirm)
                }
            }
            print(weighIn.id.lowercasedString)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List weigh-ins, newest first.")

        @OptionGroup var options: DatabaseOptions

        @Option(help: "First local day (YYYY-MM-DD).")
        var from: String?

        @Option(help: "Last local day (YYYY-MM-DD).")
        var to: String?

        @Option(help: "How many at most.")
        var limit = 50

        @Option(help: "kg, lb or st (default: your display unit).")
        var unit: MassUnit?

        func run() async throws {
            let fromDate = try parseOrThrow { () in try from.map { t in try LocalDate.parse(t, field: "from") } }
            let toDate = try parseOrThrow { () in try to.map { t in try LocalDate.parse(t, field: "to") } }
            try await options.withJournal { journal in
                let settings = try await journal.settings()
                let shown = unit ?? settings.displayUnit
                let weighIns = try await journal.weighIns(from: fromDate, to: toDate, limit: limit)
                if weighIns.isEmpty {
                    print("No weigh-ins yet. Add one with: cinn weight add 72.4")
                    return
                }
                for weighIn in weighIns {
                    let note = weighIn.note.map { "  \($0)" } ?? ""
                    print(
                        "\(weighIn.localTimeISO.prefix(16).replacingOccurrences(of: "T", with: " "))  "
                            + "\(weighIn.weight.formatted(in: shown))  \(weighIn.id.lowercasedString)\(note)")
                }
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a weigh-in by id, or every weigh-in of a day.")

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "A weigh-in id, or a local day YYYY-MM-DD.")
        var target: String

        func run() async throws {
            try await options.withJournal { journal in
                if let id = UUID(text: target) {
                    try await journal.deleteWeighIn(id: id)
                    print("Deleted 1 weigh-in.")
                } else if let day = LocalDate(iso: target) {
                    let count = try await journal.deleteWeighIns(on: day)
                    guard count > 0 else { throw CinnError.notFound("no weigh-ins on \(day)") }
                    print("Deleted \(count) weigh-in\(count == 1 ? "" : "s") of \(day).")
                } else {
                    throw CinnError.invalid("target", "\"\(target)\" is neither a weigh-in id nor a date (YYYY-MM-DD)")
                }
            }
        }
    }
}

struct GoalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goal", abstract: "Set, show or clear the goal weight.", subcommands: [SetGoal.self, Show.self, Clear.self])

    struct SetGoal: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set the goal weight and, optionally, a planned weekly rate.")

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The goal weight.")
        var weight: Double

        @Option(help: "kg, lb or st (default: your display unit).")
        var unit: MassUnit?

        @Option(help: "Planned amount per week towards the goal, in the same unit.")
        var rate: Double?

        func run() async throws {
            try await options.withJournal { journal in
                let goal = try await journal.setGoal(weight: weight, unit: unit, ratePerWeek: rate)
                let settings = try await journal.settings()
                let shown = unit ?? settings.displayUnit
                let plan = goal.plannedRate.map { ", \($0.formatted(in: shown, decimals: shown.displayDecimals + 1)) a week" } ?? ""
                print("Goal: \(goal.weight.formatted(in: shown))\(plan).")
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the goal.")

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            try await options.withJournal { journal in
                let unit = (try await journal.settings()).displayUnit
                guard let goal = try await journal.goal() else {
                    print("No goal set. Set one with: cinn goal set 70 --rate 0.5")
                    return
                }
                let plan = goal.plannedRate.map { ", \($0.formatted(in: unit, decimals: unit.displayDecimals + 1)) a week" } ?? ""
                print("Goal: \(goal.weight.formatted(in: unit))\(plan), set \(goal.setOn).")
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Clear the goal.")

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            try await options.withJournal { journal in
                guard try await journal.clearGoal() else { throw CinnError.notFound("no goal is set") }
                print("Goal cleared.")
            }
        }
    }
}

struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Show or change settings.", subcommands: [Change.self, Show.self])

    struct Change: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: """
                Change a setting: unit (kg|lb|st), trend-method (exact|pencil), time-zone (an IANA name), \
                energy-target (kcal per day, or "none"), energy-unit (kcal|kJ), glucose-unit (mg/dL|mmol/L), \
                insulin-peak or insulin-duration (the rapid-acting insulin's curve, minutes: 75 and 360 for Humalog or NovoRapid, \
                55 for Fiasp or Lyumjev).
                """)

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "unit, trend-method, time-zone, energy-target, energy-unit, glucose-unit, insulin-peak or insulin-duration.")
        var name: String

        @Argument(help: "The new value.")
        var value: String

        func run() async throws {
            try await options.withJournal { journal in
                var settings = try await journal.settings()
                switch name {
                case "unit": settings.displayUnit = try MassUnit.parse(value)
                case "trend-method":
                    guard let method = TrendMethod(rawValue: value) else {
                        throw CinnError.invalid("trend-method", "trend-method must be exact or pencil")
                    }
                    settings.trendMethod = method
                case "time-zone": settings.timeZoneIdentifier = try UserSettings.validTimeZone(value, field: "time-zone")
                case "energy-target":
                    if value.lowercased() == "none" {
                        settings.energyTargetKcal = nil
                    } else {
                        guard let kcal = Double(value) else { throw CinnError.invalid("energy-target", "\"\(value)\" is not a number") }
                        settings.energyTargetKcal = try UserSettings.validEnergyTarget(kcal, field: "energy-target")
                    }
                case "energy-unit": settings.energyUnit = try EnergyUnit.parse(value, field: "energy-unit")
                case "glucose-unit": settings.glucoseUnit = try GlucoseUnit.parse(value, field: "glucose-unit")
                case "insulin-peak", "insulin-duration":
                    guard let minutes = Double(value) else { throw CinnError.invalid(name, "\"\(value)\" is not a number of minutes") }
                    let model = settings.insulinModel
                    settings.insulinModel = try ExponentialInsulinModel.validated(
                        peakMinutes: name == "insulin-peak" ? minutes : model.peakMinutes,
                        durationMinutes: name == "insulin-duration" ? minutes : model.durationMinutes)
                default:
                    throw CinnError.invalid(
                        "name",
                        "unknown setting \"\(name)\"; use unit, trend-method, time-zone, energy-target, energy-unit, glucose-unit, "
                            + "insulin-peak or insulin-duration")
                }
                try await journal.saveSettings(settings)
                print("\(name) = \(value)")
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the settings.")

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            try await options.withJournal { journal in
                let settings = try await journal.settings()
                print("unit = \(settings.displayUnit.rawValue)")
                print("trend-method = \(settings.trendMethod.rawValue)")
                print("time-zone = \(settings.timeZoneIdentifier ?? settings.timeZone.identifier)")
                print("energy-target = \(settings.energyTargetKcal.map { "\($0.wholeText) kcal" } ?? "none")")
                print("energy-unit = \(settings.energyUnit.rawValue)")
                print("glucose-unit = \(settings.glucoseUnit.rawValue)")
                print("insulin-peak = \(settings.insulinModel.peakMinutes.wholeText) min")
                print("insulin-duration = \(settings.insulinModel.durationMinutes.wholeText) min")
            }
        }
    }
}
