import ArgumentParser
import CinnCore
import CinnJournal
import CinnStore
import Configuration
import Foundation
import Logging

@main
struct Cinn: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cinn",
        abstract:
            "Cinn — can I nom nom? A self-hosted journal of weight and food: a weight trend that strips away the noise, every nutrient you eat, and what you really burn.",
        subcommands: [
            Serve.self, Migrate.self, Weight.self, GoalCommand.self, SettingsCommand.self, Trend.self, FoodCommand.self, RecipeCommand.self,
            TargetsCommand.self,
            Stats.self, ProfileCommand.self, EnergyCommand.self, TodayCommand.self, LiftsCommand.self, WorkoutsCommand.self,
            WorkoutCommand.self,
            RoutineCommand.self, Import.self,
            Export.self, GlucoseCommand.self, NomCommand.self, InsulinCommand.self, MealCommand.self, ResearchExportCommand.self,
            UserCommand.self,
            SyncCommand.self, BackupCommand.self, RestoreCommand.self, HealthCheckCommand.self,
        ]
    )
}

/// Where settings come from, first match wins: command-line flags, then the environment
/// (`cinn.database` is `CINN_DATABASE`, `cinn.port` is `CINN_PORT`, …), then the defaults.
func configReader(flags: [AbsoluteConfigKey: ConfigValue]) -> ConfigReader {
    ConfigReader(providers: [
        InMemoryProvider(name: "flags", values: flags),
        // A PostgreSQL URL may carry a password; a sync token, the API secret, the metrics token and the OIDC client secret are ones.
        EnvironmentVariablesProvider(
            secretsSpecifier: .specific([
                "CINN_DATABASE", "CINN_SYNC_TOKEN", "CINN_API_SECRET",
                "CINN_METRICS_TOKEN", "CINN_OIDC_CLIENT_SECRET",
            ])),
        InMemoryProvider(name: "defaults", values: ["cinn.database": "cinn.sqlite", "cinn.host": "127.0.0.1"]),
    ])
}

/// The server's settings through `configReader`, read strictly: a yes-or-no or a number that is set but is not one is
/// refused with its option and environment variable named. The reader alone would quietly use the default, and a
/// mistyped `CINN_ACCOUNTS` would serve a journal without accounts.
struct Settings {
    let reader: ConfigReader

    /// `true`, `yes` or `1`; `false`, `no` or `0`, in any case.
    func yesOrNo(_ key: String, option: String, default defaultValue: Bool) throws -> Bool {
        guard let text = reader.string(forKey: ConfigKey(key)) else { return defaultValue }
        switch text.lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default:
            throw CommandError.from(
                CinnError.invalid(option, "--\(option) (\(Self.variable(key))) must be true or false, not \"\(text)\""))
        }
    }

    /// A whole number within `range`.
    func number(_ key: String, option: String, in range: ClosedRange<Int>, default defaultValue: Int) throws -> Int {
        guard let text = reader.string(forKey: ConfigKey(key)) else { return defaultValue }
        guard let number = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(number) else {
            throw CommandError.from(
                CinnError.invalid(
                    option,
                    "--\(option) (\(Self.variable(key))) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\""
                ))
        }
        return number
    }

    /// The environment variable of a key: `cinn.public.url` is `CINN_PUBLIC_URL`.
    static func variable(_ key: String) -> String {
        key.uppercased().replacingOccurrences(of: ".", with: "_")
    }
}

/// `--database`, shared by every command.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: "SQLite file path, or postgres://USER@HOST:PORT/DB (default: $CINN_DATABASE, else ./cinn.sqlite).")
    var database: String?

    var location: DatabaseLocation {
        var flags: [AbsoluteConfigKey: ConfigValue] = [:]
        if let database { flags["cinn.database"] = ConfigValue(.string(database), isSecret: true) }
        return DatabaseLocation(configReader(flags: flags).string(forKey: "cinn.database", default: "cinn.sqlite"))
    }

    /// Opens the store, applies pending migrations, installs the built-in foods if this binary's set is not there yet,
    /// runs `body` with the local user's journal, and closes.
    /// Database failures reach the person as one message, so the driver's own logs stay quiet.
    /// - Parameters:
    ///   - logLevel: what the store logs (a command prints its own errors; a server logs the database's).
    ///   - installingAlongside: the built-in foods are installed while `body` runs rather than before it, for a command
    ///     that reads no foods: an import into a new journal reads its file while they go in (both finish before the
    ///     command does).
    func withJournal<T>(
        logLevel: Logger.Level = .critical, installingAlongside: Bool = false, _ body: (Journal) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "cinn.store")
        logger.logLevel = logLevel
        let store = try Store(location, logger: logger)
        do {
            try await store.migrate()
            let result: T
            if installingAlongside {
                async let install = store.installBuiltInFoods()
                result = try await body(try await Journal.local(store: store))
                _ = try await install
            } else {
                try await store.installBuiltInFoods()
                result = try await body(try await Journal.local(store: store))
            }
            try await store.close()
            return result
        } catch {
            try? await store.close()
            throw CommandError.from(error)
        }
    }
}

/// Prints a `CinnError`'s message and exits non-zero (64 for bad input).
struct CommandError: Error, CustomStringConvertible {
    let error: CinnError

    var description: String { error.message }

    static func from(_ error: any Error) -> any Error {
        if error is ExitCode || error is CommandError || error is CleanExit { return error }
        if let error = error as? CinnError {
            printError("error: \(error.message)")
            return error.code == .invalidInput || error.code == .needsConfirmation || error.code == .notFound || error.code == .conflict
                ? ExitCode.validationFailure : ExitCode.failure
        }
        printError("error: \(error)")
        return ExitCode.failure
    }
}

/// Runs `add` for a reading a person typed; when it looks like a typo (`needsConfirmation`), asks on a terminal whether
/// to save it anyway, and elsewhere says to pass `--confirm`.
func confirmingTypos<T>(confirmed: Bool, _ add: (_ confirm: Bool) async throws -> T) async throws -> T {
    do {
        return try await add(confirmed)
    } catch let error as CinnError where error.code == .needsConfirmation {
        guard isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 else {
            throw CinnError(.needsConfirmation, error.message + " Pass --confirm to save it anyway.", field: error.field)
        }
        FileHandle.standardError.write(Data((error.message + " Save it anyway? [y/N] ").utf8))
        guard let answer = readLine(strippingNewline: true), ["y", "yes"].contains(answer.lowercased()) else {
            throw CinnError(.needsConfirmation, "Not saved.", field: error.field)
        }
        return try await add(true)
    }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Parses a command-line value, with the message naming the option.
func parseOrThrow<T>(_ parse: () throws -> T) throws -> T {
    do {
        return try parse()
    } catch {
        throw CommandError.from(error)
    }
}

extension MassUnit: ExpressibleByArgument {}
extension TrendRange: ExpressibleByArgument {}
extension ExportFormat: ExpressibleByArgument {}
