import ArgumentParser
import CinnCharts
import CinnCore
import CinnJournal
import CinnStore
import Foundation

struct WorkoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workout", abstract: "Log a workout set by set, show one, or delete one.",
        subcommands: [Log.self, Show.self, Delete.self, Export.self])

    struct Log: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Log a workout: each exercise's name followed by its sets.",
            discussion: """
                A set is WEIGHTxREPS in --unit (100x5), with @RPE after it if you like (100x5@8.5); w: makes it a warm-up \
                (w:60x5), d: a drop set, f: a set to failure; x12 or 0x12 is 12 reps of a body-weight exercise. A word that \
                is not a set starts the next exercise.
                Example: cinn workout log "Bench Press" w:60x5 100x5 100x5 90x8 "Barbell Row" 80x8 80x8
                """)

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "Exercise names, each followed by its sets.") var items: [String]
        @Option(help: "kg or lb (default: your lifting unit).") var unit: String?
        @Option(help: "When it started: YYYY-MM-DD or an ISO 8601 time (default: now).") var date: String?
        @Option(help: "The workout's name (default: from the time of day).") var name: String?
        @Option(help: "How long it lasted, in minutes.") var minutes: Double?

        func run() async throws {
            try await options.withJournal { journal in
                let settings = try await journal.settings()
                let unit = try self.unit.map { try MassUnit.parse($0, field: "unit") } ?? settings.displayUnit.liftingUnit
                var sets: [WorkoutSet] = []
                var exercise: String?
                for item in items {
                    if item.lowercased().range(of: #"^([wdf]:)?[0-9.,]*x[0-9]+(@[0-9.,]+)?$"#, options: .regularExpression) != nil {
                        guard let exercise else {
                            throw CinnError.invalid("set", "\"\(item)\" comes before any exercise: name the exercise first")
                        }
                        sets.append(try LoggedSet.parse(item, exercise: exercise, unit: unit))
                    } else {
                        if let exercise, !sets.contains(where: { $0.exercise == exercise }) {
                            throw CinnError.invalid("set", "\"\(exercise)\" has no set: follow it with sets like 100x5")
                        }
                        exercise = item
                    }
                }
                guard let exercise, sets.contains(where: { $0.exercise == exercise }) else {
                    throw CinnError.invalid(
                        "set", "name an exercise followed by its sets, like: cinn workout log \"Bench Press\" 100x5 100x5")
                }
                let start = try journal.readingTime(date, settings: settings, field: "date")
                let end = minutes.map {
                    WeighIn.isoString(instant: start.instant.addingTimeInterval($0 * 60), utcOffsetSeconds: start.utcOffsetSeconds)
                }
                let stored = try await journal.logWorkout(
                    name: name, startedAt: WeighIn.isoString(instant: start.instant, utcOffsetSeconds: start.utcOffsetSeconds),
                    endedAt: end, note: nil, sets: sets)
                print("Logged \(stored.workout.name) on \(stored.workout.localDate.iso) (\(stored.workout.id.lowercasedString)):")
                printWorkout(try await journal.workoutWithRecords(stored))
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One workout's sets, with the records they set.")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The workout's id (cinn workouts lists them; JSON gives the ids).") var id: String
        @Option(help: "text or json.") var format: OutputStyle = .text

        func run() async throws {
            try await options.withJournal { journal in
                guard let uuid = UUID(text: id), let stored = try await journal.workout(id: uuid) else {
                    throw CinnError.notFound("no workout \(id)")
                }
                let workout = try await journal.workoutWithRecords(stored)
                if format == .json { return print(try WorkoutJSON.workout(workout)) }
                print("\(stored.workout.name), \(stored.workout.localDate.iso)")
                printWorkout(workout)
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a workout; its exercises' records are computed again.")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The workout's id.") var id: String

        func run() async throws {
            try await options.withJournal { journal in
                guard let uuid = UUID(text: id) else { throw CinnError.notFound("no workout \(id)") }
                try await journal.deleteWorkout(id: uuid)
                print("Deleted the workout.")
            }
        }
    }
}

extension WorkoutCommand {
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every workout to standard output as CSV in the layout of Strong's export (it imports back; RIR is left out).")

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            try await options.withJournal { journal in
                try await journal.exportWorkouts { text in FileHandle.standardOutput.write(Data(text.utf8)) }
            }
        }
    }
}

/// A workout's sets by exercise, each set's records after it.
private func printWorkout(_ workout: WorkoutWithRecords) {
    var exercise: String?
    for (index, set) in workout.stored.workout.sets.enumerated() {
        if set.exercise != exercise {
            exercise = set.exercise
            print("  \(set.exercise)")
        }
        var line =
            "    " + (set.weight.map { "\(StrengthChart.weight($0, unit: workout.unit)) × " } ?? "") + (set.reps.map { "\($0)" } ?? "—")
        if let kind = set.kind.title { line += " (\(kind))" }
        if let rpe = set.rpe { line += " RPE \(Mass.format(rpe, decimals: 1))" }
        if let records = workout.records[index] { line += "  ★ new " + records.map(\.title).joined(separator: ", ") }
        print(line)
    }
}

struct RoutineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routine", abstract: "Routines: workouts to start from, with each exercise's target sets, reps and weight.",
        subcommands: [List.self, Show.self, Add.self, Delete.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every routine.")

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            try await options.withJournal { journal in
                let routines = try await journal.routines()
                guard !routines.isEmpty else {
                    return print("No routines yet. Make one with: cinn routine add NAME \"Squat:3x5@100\" \"Leg Curl:3x12\"")
                }
                for routine in routines {
                    print("\(routine.name)  \(routine.exercises.map(\.exercise).joined(separator: ", "))")
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One routine's exercises and targets.")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The routine's name or id.") var name: String

        func run() async throws {
            try await options.withJournal { journal in
                let routine = try await journal.routine(named: name)
                let unit = try await journal.settings().displayUnit.liftingUnit
                print(routine.name + (routine.note.map { " — \($0)" } ?? ""))
                for planned in routine.exercises {
                    var target = "\(planned.sets) × \(planned.reps.map(String.init) ?? "—")"
                    if let weight = planned.weight { target += " at \(StrengthChart.weight(weight, unit: unit))" }
                    if let rest = planned.restSeconds { target += ", rest \(rest) s" }
                    print("  \(planned.exercise)  \(target)")
                }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a routine (or replace the one of that name).",
            discussion: "Example: cinn routine add Legs \"Squat:3x5@100\" \"Leg Curl:3x12\"   or   cinn routine add Push --from-workout ID")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The routine's name.") var name: String
        @Argument(help: "Its exercises: NAME:SETSxREPS[@WEIGHT].") var exercises: [String] = []
        @Option(help: "kg or lb for the weights (default: your lifting unit).") var unit: String?
        @Option(name: .customLong("from-workout"), help: "Copy a workout's exercises (its id).") var fromWorkout: String?

        func run() async throws {
            try await options.withJournal { journal in
                let routine: Routine
                if let fromWorkout {
                    guard let id = UUID(text: fromWorkout) else {
                        throw CinnError.invalid("from-workout", "--from-workout takes a workout's id")
                    }
                    routine = try await journal.routine(fromWorkout: id, name: name)
                } else {
                    let lifting = try await journal.settings().displayUnit.liftingUnit
                    let unit = try self.unit.map { try MassUnit.parse($0, field: "unit") } ?? lifting
                    let existing = try? await journal.routine(named: name)
                    routine = try await journal.saveRoutine(
                        Routine(
                            id: existing?.id ?? .v7(), name: name,
                            exercises: try exercises.map { try PlannedExercise.parse($0, unit: unit) }))
                }
                print("Saved the routine \(routine.name): \(routine.exercises.map(\.exercise).joined(separator: ", ")).")
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a routine (workouts started from it stay).")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "The routine's name or id.") var name: String

        func run() async throws {
            try await options.withJournal { journal in
                let routine = try await journal.routine(named: name)
                try await journal.deleteRoutine(routine.id)
                print("Deleted the routine \(routine.name).")
            }
        }
    }
}
