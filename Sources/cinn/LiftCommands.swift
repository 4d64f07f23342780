import ArgumentParser
import CinnCharts
import CinnCore
import CinnJournal
import Foundation

struct LiftsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifts",
        abstract: "Your exercises and their estimated one-rep max; one exercise's history and records; aliases; the formula.",
        subcommands: [List.self, Show.self, Merge.self, Separate.self, Formula.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Every exercise, most recently done first, with its current estimated 1RM (best of the last 30 days).")

        @OptionGroup var options: DatabaseOptions
        @Option(help: "text or json.") var format: OutputStyle = .text

        func run() async throws {
            try await options.withJournal { journal in
                let lifts = try await journal.lifts()
                if format == .json { return print(try WorkoutJSON.lifts(lifts)) }
                guard !lifts.exercises.isEmpty else {
                    return print("No workouts yet. Import a Fitbod, Strong or FitNotes export with: cinn import FILE")
                }
                print("Estimated one-rep max (\(lifts.formula.title), best of the last 30 days):")
                let width = min(lifts.exercises.map(\.name.count).max() ?? 0, 40)
                for exercise in lifts.exercises {
                    let name =
                        exercise.name.count > width
                        ? String(exercise.name.prefix(width - 1)) + "…"
                        : exercise.name.padding(toLength: width, withPad: " ", startingAt: 0)
                    let current =
                        exercise.current.map {
                            "\($0.oneRepMax.formatted(in: lifts.unit)) (\(StrengthChart.lifted($0.set, unit: lifts.unit)))"
                        }
                        ?? exercise.best.map { "— (best \($0.oneRepMax.formatted(in: lifts.unit)) on \($0.day.iso))" } ?? "—"
                    print("  \(name)  last \(exercise.lastDay?.iso ?? "—")  \(current)")
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One exercise: current and best 1RM with the sets they came from, records, weekly volume, history.",
            discussion: "Example: cinn lifts show \"Bench Press\"")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The exercise's name (any of its names; case, word order and punctuation do not matter).") var name: String
        @Flag(name: .customLong("include-high-reps"), help: "Let sets above 10 reps give estimates (less reliable).") var includeHighReps =
            false
        @Option(help: "Weeks of volume to show.") var weeks = 8
        @Option(help: "text or json.") var format: OutputStyle = .text

        func run() async throws {
            try await options.withJournal { journal in
                let page = try await journal.exercisePage(
                    try await journal.exercise(named: name), includeHighReps: includeHighReps,
                    weeks: max(1, weeks))
                if format == .json { return print(try WorkoutJSON.exercise(page, includeHighReps: includeHighReps)) }
                let report = page.report, unit = page.unit
                print(
                    page.exercise.root.name
                        + (page.exercise.aliases.isEmpty ? "" : " (also \(page.exercise.aliases.map(\.name).joined(separator: ", ")))"))
                func estimate(_ value: EstimatedMax?) -> String {
                    value.map { "\($0.oneRepMax.formatted(in: unit)), from \(StrengthChart.lifted($0.set, unit: unit)) on \($0.day.iso)" }
                        ?? "—"
                }
                print("Current 1RM (last 30 days): \(estimate(report.current))")
                print("Best 1RM: \(estimate(report.best))")
                print("Formula: \(report.formula.title)\(includeHighReps ? ", sets above 10 reps included" : ", sets of 1 to 10 reps")")
                if let heaviest = report.heaviest {
                    print("Heaviest set: \(StrengthChart.lifted(heaviest, unit: unit)) on \(heaviest.day.iso)")
                }
                if let volume = report.bestSetVolume {
                    print(
                        "Best set volume: \(Mass.format(volume.weight.value(in: unit) * Double(volume.reps), decimals: 0)) \(unit.rawValue) (\(StrengthChart.lifted(volume, unit: unit)) on \(volume.day.iso))"
                    )
                }
                if !report.repMaxes.isEmpty {
                    print("Rep maxes (heaviest for at least N reps):")
                    for max in report.repMaxes {
                        print("  \(String(max.reps).leftPadded(2)) RM  \(StrengthChart.lifted(max.set, unit: unit))  \(max.set.day.iso)")
                    }
                }
                print("Weekly volume (weight × reps, warm-ups left out):")
                for week in report.weeklyVolume.reversed() {
                    print(
                        "  week of \(week.weekStart.iso)  \(Mass.format(week.volume.value(in: unit), decimals: 0)) \(unit.rawValue)  \(week.sets) sets"
                    )
                }
                print(
                    "History: \(report.history.count) days with an estimate, \(report.totalSets) sets"
                        + (report.firstDay.map { " since \($0.iso)" } ?? ""))
                for point in report.history.suffix(10) {
                    print("  \(point.day.iso)  \(point.oneRepMax.formatted(in: unit))  from \(StrengthChart.lifted(point.set, unit: unit))")
                }
            }
        }
    }

    struct Merge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make one exercise another name of a second one, so their histories count as one.",
            discussion: "Example: cinn lifts merge \"Barbell Bench Press\" \"Flat Bench\"")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The exercise that becomes an alias.") var alias: String
        @Argument(help: "The exercise it is another name of.") var exercise: String

        func run() async throws {
            try await options.withJournal { journal in
                try await journal.mergeExercise(alias, into: exercise)
                print("\"\(alias)\" now counts as \"\(try await journal.exercise(named: exercise).root.name)\".")
            }
        }
    }

    struct Separate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make an alias its own exercise again.")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The alias's name.") var name: String

        func run() async throws {
            try await options.withJournal { journal in
                try await journal.separateExercise(name)
                print("\"\(name)\" is its own exercise again.")
            }
        }
    }

    struct Formula: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Choose the one-rep-max formula: brzycki (default), epley, lombardi, mayhew, oconner, wathan or lander.")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The formula.") var formula: String

        func run() async throws {
            try await options.withJournal { journal in
                let chosen = try OneRepMaxFormula.parse(formula)
                try await journal.setOneRepMaxFormula(chosen)
                print("One-rep maxes are now estimated with \(chosen.title).")
            }
        }
    }
}

struct WorkoutsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "workouts", abstract: "Your workouts, newest first.")

    @OptionGroup var options: DatabaseOptions
    @Option(help: "How many.") var limit = 20
    @Option(help: "text or json.") var format: OutputStyle = .text

    func run() async throws {
        try await options.withJournal { journal in
            let unit = try await journal.settings().displayUnit.liftingUnit
            let workouts = try await journal.workouts(limit: max(1, min(limit, 10_000)))
            if format == .json { return print(try WorkoutJSON.workouts(workouts, unit: unit)) }
            guard !workouts.isEmpty else {
                return print("No workouts yet. Import a Fitbod, Strong or FitNotes export with: cinn import FILE")
            }
            for workout in workouts {
                let volume =
                    workout.volume.kilograms > 0 ? ", \(Mass.format(workout.volume.value(in: unit), decimals: 0)) \(unit.rawValue)" : ""
                print(
                    "\(workout.localDate.iso)  \(workout.name)  \(workout.setCount) sets\(volume)  \(workout.exercises.prefix(4).joined(separator: ", "))\(workout.exercises.count > 4 ? ", …" : "")"
                )
            }
        }
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
