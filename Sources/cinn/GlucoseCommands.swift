import ArgumentParser
import CinnCore
import CinnJournal
import Foundation

extension GlucoseUnit: ExpressibleByArgument {
    public init?(argument: String) { self.init(spelling: argument) }
}

extension MealTiming: ExpressibleByArgument {}
extension InsulinKind: ExpressibleByArgument {}

/// `cinn glucose`: readings and the report.
struct GlucoseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glucose",
        abstract: "Blood glucose: add a reading, the report (time in range, GMI, CV, meals ranked by response), one day.",
        subcommands: [Add.self, Report.self, Day.self], defaultSubcommand: Report.self)

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a reading.", discussion: "Example: cinn glucose add 6.2 --unit mmol/L --timing fasting")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The reading, in your glucose unit (see cinn settings) unless --unit says.") var value: Double
        @Option(help: "mg/dL or mmol/L.") var unit: GlucoseUnit?
        @Option(help: "YYYY-MM-DD or an ISO 8601 time (default: now).") var time: String?
        @Option(help: "fasting, before_meal, after_meal or bedtime.") var timing: MealTiming?
        @Option(help: "A note.") var note: String?
        @Flag(help: "Save a value that looks like the other unit (asked about on a terminal) without asking.") var confirm = false

        func run() async throws {
            let reading = try await options.withJournal { journal in
                try await confirmingTypos(confirmed: confirm) { confirm in
                    try await journal.addGlucose(value: value, unit: unit, time: time, timing: timing, note: note, confirm: confirm)
                }
            }
            print(
                "Added \(reading.glucose.formatted(unit ?? .milligramsPerDeciliter)) at \(WeighIn.isoString(instant: reading.measuredAt, utcOffsetSeconds: reading.utcOffsetSeconds))."
            )
        }
    }

    struct Report: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Time in range, mean, GMI and CV, insulin, and which meals spike you.")

        @OptionGroup var options: DatabaseOptions
        @Option(help: "Days to cover, ending today (or --to).") var days = 30
        @Option(help: "The last day, YYYY-MM-DD.") var to: String?
        @Option(help: "text or json.") var format: OutputStyle = .text

        func run() async throws {
            try await options.withJournal { journal in
                let report = try await journal.glucoseReport(days: days, to: try to.map { text in try LocalDate.parse(text, field: "to") })
                if format == .json { return print(try GlucoseJSON.report(report)) }
                let statistics = report.statistics, unit = report.unit
                guard statistics.count > 0 else {
                    return print("No glucose readings from \(report.from.iso) to \(report.to.iso). Add one with: cinn glucose add VALUE")
                }
                func percent(_ share: Double) -> String { "\((share * 100).wholeText) %" }
                print("Glucose \(report.from.iso) … \(report.to.iso): \(statistics.count) readings")
                print(
                    "  Time in range 70–180 mg/dL: \(percent(statistics.inRange))  (below 70: \(percent(statistics.below)), under 54: \(percent(statistics.veryLow)); above 180: \(percent(statistics.above)), over 250: \(percent(statistics.veryHigh)))"
                )
                if let mean = statistics.mean {
                    if report.coverage.isEnough, let gmi = statistics.gmiPercent {
                        print(
                            "  Mean \(mean.formatted(unit)), GMI \(String(format: "%.1f", gmi)) %"
                                + (statistics.coefficientOfVariation.map { ", CV \($0.wholeText) %" } ?? ""))
                    } else {
                        print("  Mean \(mean.formatted(unit)); GMI and CV not sure yet: \(report.coverage.missing ?? "")")
                    }
                }
                print(
                    "  Insulin: \(String(format: "%g", (report.bolusUnits * 10).rounded() / 10)) U bolus, \(String(format: "%g", (report.basalUnits * 10).rounded() / 10)) U basal"
                )
                guard !report.byMeal.isEmpty else {
                    return print("No meals yet: log what you eat (cinn food log …); each meal's response is ranked here.")
                }
                print("Which meals spike you (mean over complete, unreported responses):")
                let width = min(report.byMeal.map(\.name.count).max() ?? 0, 30)
                for ranking in report.byMeal {
                    let name = ranking.name.padding(toLength: width, withPad: " ", startingAt: 0)
                    let rise = ranking.meanRise.map { "↑ \(Glucose(milligramsPerDeciliter: $0).formatted(unit))" } ?? "—"
                    let area = ranking.meanArea.map { "area \($0.wholeText)" } ?? ""
                    let peak = ranking.meanMinutesToPeak.map { "peak after \($0.wholeText) min" } ?? ""
                    print("  \(name)  \(rise)  \(area)  \(peak)  (\(ranking.counted) of \(ranking.events))")
                }
            }
        }
    }

    struct Day: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One day: readings, insulin and meals with their responses.")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "YYYY-MM-DD.") var date: String
        @Option(help: "text or json.") var format: OutputStyle = .text

        func run() async throws {
            try await options.withJournal { journal in
                let day = try await journal.glucoseDay(try LocalDate.parse(date))
                if format == .json { return print(try GlucoseJSON.day(day)) }
                let unit = day.unit
                print(
                    "\(day.date.iso): \(day.statistics.count) readings"
                        + (day.statistics.mean.map {
                            ", mean \($0.formatted(unit)), \((day.statistics.inRange * 100).wholeText) % in range"
                        } ?? ""))
                for item in day.events {
                    let clock = LocalDateTime(instant: item.event.eatenAt, utcOffsetSeconds: item.event.utcOffsetSeconds).clock
                    var line = "  \(clock) \(item.event.diaryMeal.map { "\($0.title): " } ?? "")\(item.meal?.name ?? "Meal")"
                    if let response = item.response {
                        line +=
                            ": ↑ \(Glucose(milligramsPerDeciliter: response.rise).formatted(unit)) to \(response.peak.glucose.formatted(unit)) after \(response.minutesToPeak.rounded(.towardZero).wholeText) min, area \(response.incrementalArea.wholeText)"
                    }
                    if let reason = item.event.reportReason { line += " [reported: \(reason)]" }
                    print(line)
                }
                for dose in day.doses {
                    print(
                        "  \(LocalDateTime(instant: dose.takenAt, utcOffsetSeconds: dose.utcOffsetSeconds).clock) \(String(format: "%g", dose.units)) U \(dose.kind.rawValue)"
                            + (dose.insulin.map { " (\($0))" } ?? ""))
                }
            }
        }
    }
}

/// `cinn insulin add`.
struct InsulinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "insulin", abstract: "Insulin doses.", subcommands: [Add.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a dose.", discussion: "Example: cinn insulin add 4 --kind bolus --insulin Humalog")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "Units.") var units: Double
        @Option(help: "bolus or basal.") var kind: InsulinKind
        @Option(help: "The insulin's name.") var insulin: String?
        @Option(help: "YYYY-MM-DD or an ISO 8601 time (default: now).") var time: String?

        func run() async throws {
            let dose = try await options.withJournal { journal in
                try await journal.addInsulin(units: units, kind: kind, insulin: insulin, time: time, note: nil)
            }
            print(
                "Added \(String(format: "%g", dose.units)) U \(dose.kind.rawValue) at \(WeighIn.isoString(instant: dose.takenAt, utcOffsetSeconds: dose.utcOffsetSeconds))."
            )
        }
    }
}

/// `cinn meal`: meal definitions and meal events.
struct MealCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meal", abstract: "Meals: define one, list them, log that you ate one, report (flag) a meal event.",
        subcommands: [Add.self, List.self, Log.self, Report.self], defaultSubcommand: List.self)

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Define a meal by its carbohydrate estimate.", discussion: "Example: cinn meal add \"Porridge\" --carbs 45")

        @OptionGroup var options: DatabaseOptions
        @Argument var name: String
        @Option(help: "Carbohydrate, grams.") var carbs: Double
        @Flag(help: "A test meal of the study.") var test = false

        func run() async throws {
            let meal = try await options.withJournal { journal in
                try await journal.addMeal(name: name, kind: test ? .test : .common, carbohydrateGrams: carbs, foods: [], note: nil)
            }
            print("Added \(meal.name) (\(String(format: "%g", carbs)) g carbohydrate).")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your meals.")

        @OptionGroup var options: DatabaseOptions
        @Option(help: "text or json.") var format: OutputStyle = .text

        func run() async throws {
            try await options.withJournal { journal in
                let meals = try await journal.meals()
                if format == .json { return print(try GlucoseJSON.meals(meals)) }
                if meals.isEmpty { return print("No meals yet: cinn meal add NAME --carbs G") }
                for meal in meals {
                    print(
                        "\(meal.name)\(meal.kind == .test ? " (test meal)" : "")"
                            + (meal.carbohydrateGrams.map { "  \(String(format: "%g", $0)) g carbohydrate" } ?? "")
                            + (meal.presetID == nil ? "" : "  (a preset now: logged into the food log)"))
                }
            }
        }
    }

    struct Log: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Log that you ate a meal.", discussion: "Example: cinn meal log Porridge --time 2024-03-09T07:30")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The meal's name.") var name: String
        @Option(help: "YYYY-MM-DD or an ISO 8601 time (default: now).") var time: String?
        @Option(help: "How much of the meal (1 is all of it).") var portion: Double?

        func run() async throws {
            let logged = try await options.withJournal { journal in try await journal.logMeal(named: name, time: time, portion: portion) }
            switch logged {
            case .foodLog(let meal, let entries):
                let at = entries.first.map { WeighIn.isoString(instant: $0.eatenAt, utcOffsetSeconds: $0.utcOffsetSeconds) } ?? ""
                print("Logged \(meal.name) into the food log at \(at) (\(entries.count) \(entries.count == 1 ? "entry" : "entries")).")
            case .event(let meal, let event):
                print(
                    "Logged \(meal.name) at \(WeighIn.isoString(instant: event.eatenAt, utcOffsetSeconds: event.utcOffsetSeconds)) (id \(event.id.lowercasedString))."
                )
            }
        }
    }

    struct Report: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Report (flag) a meal event with a reason; --clear takes the report back.")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The meal event's id.") var id: String
        @Option(help: "Why (1–200 characters).") var reason: String?
        @Flag(help: "Clear the report.") var clear = false

        func run() async throws {
            guard let uuid = UUID(text: id) else { throw CommandError.from(CinnError.invalid("id", "\(id) is not a meal event id")) }
            guard clear || reason != nil else { throw CommandError.from(CinnError.invalid("reason", "give --reason or --clear")) }
            try await options.withJournal { journal in try await journal.reportMealEvent(id: uuid, reason: clear ? nil : reason) }
            print(clear ? "Cleared the report." : "Reported.")
        }
    }
}

/// `cinn research-export`: the journal's data as tables with a data dictionary, for a study.
struct ResearchExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "research-export",
        abstract: "Glucose, insulin, meals, meal events with their responses, food and weight as tables with a data dictionary.",
        discussion: "JSON to standard output, or with --format csv a CSV per table (and data_dictionary.csv) in --out. "
            + "--deidentify: participants P001…, dates shifted per participant, no names or free text. --all-users: every account of a hosted server."
    )

    @OptionGroup var options: DatabaseOptions
    @Option(help: "json or csv.") var format: String = "json"
    @Option(help: "With csv: the folder to write the tables into.") var out: String?
    @Flag(help: "Leave out who people are: P001…, shifted dates, no names or notes.") var deidentify = false
    @Flag(name: .customLong("all-users"), help: "Every account that can log in (hosted mode), not the local journal.") var allUsers = false

    func run() async throws {
        guard format == "json" || format == "csv" else { throw CommandError.from(CinnError.invalid("format", "format is json or csv")) }
        guard format == "json" || out != nil else {
            throw CommandError.from(CinnError.invalid("out", "--format csv writes files: give --out FOLDER"))
        }
        let export = try await options.withJournal { journal in
            let participants =
                allUsers
                ? try await journal.accounts().filter(\.hasPassword).map { ($0.name, journal.forUser($0.user)) }
                : [(try await journal.account()?.name ?? "local", journal)]
            return try await ResearchExport.make(participants, deidentify: deidentify)
        }
        guard let out else { return print(export.json()) }
        let folder = URL(fileURLWithPath: out)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in export.tables.map(\.name) + ["dictionary"] {
                let file = folder.appendingPathComponent(name == "dictionary" ? "data_dictionary.csv" : "\(name).csv")
                try Data(try export.csv(name).utf8).write(to: file)
            }
        } catch let error as CinnError {
            throw CommandError.from(error)
        } catch {
            throw CommandError.from(CinnError.invalid("out", "cannot write to \(out): \(error.localizedDescription)"))
        }
        print(
            "Wrote \(export.tables.count + 1) CSV files to \(out): "
                + (export.tables.map { "\($0.name) (\($0.rows.count))" }.joined(separator: ", ")))
    }
}
