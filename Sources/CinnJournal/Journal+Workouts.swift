import CinnCore
import CinnImport
import CinnStore
import Foundation

/// One exercise with the names merged into it, as the lifts pages and the CLI show it.
public struct ExerciseCluster: Sendable, Hashable {
    public var root: StoredExercise
    public var aliases: [StoredExercise]

    /// Every row whose sets count as this exercise.
    public var rows: [Int64] { [root.rowID] + aliases.map(\.rowID) }
    public var lastDay: LocalDate? { ([root.lastDay] + aliases.map(\.lastDay)).compactMap { $0 }.max() }
}

/// The exercise page's content: the exercise, its report, and the workouts its current and best estimates came from.
public struct ExercisePage: Sendable {
    public var exercise: ExerciseCluster
    public var report: ExerciseReport
    public var currentWorkout: UUID?
    public var bestWorkout: UUID?
    public var unit: MassUnit
}

extension Journal {
    /// Imports a Fitbod, Strong or FitNotes CSV: streamed, all or nothing (unless `mode.skipInvalid`),
    /// as a batch that can be undone; workouts already in the journal are skipped whole.
    public func importWorkouts(at url: URL, fileName: String?, format: WorkoutFileFormat?, unit: MassUnit?, mode: ImportMode,
                               progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }) async throws -> ImportReport {
        let settings = try await settings()
        let reader = try WorkoutFileReader(url: url, format: format, options: WorkoutImportOptions(unit: unit, timeZone: settings.timeZone))
        return try await store.importWorkouts(user: user, format: reader.format.rawValue, fileName: fileName, mode: mode) { insert in
            let summary = try await reader.read(progress: progress) { batch in try await insert(batch) }
            return ImportReport(format: reader.format.rawValue, rowsRead: summary.rowsRead, skipped: summary.skipped,
                                rejected: summary.rejected, rejectedCount: summary.rejectedCount)
        }
    }

    /// The user's exercises, aliases folded into the exercise they name, most recently done first.
    public func exerciseClusters() async throws -> [ExerciseCluster] {
        let exercises = try await store.exercises(user: user)
        let aliases = Dictionary(grouping: exercises.filter { $0.aliasOf != nil }) { $0.aliasOf ?? 0 }
        return exercises.filter { $0.aliasOf == nil }
            .map { ExerciseCluster(root: $0, aliases: aliases[$0.rowID] ?? []) }
            .sorted { ($0.lastDay ?? LocalDate(dayNumber: .min / 2), $1.root.name) > ($1.lastDay ?? LocalDate(dayNumber: .min / 2), $0.root.name) }
    }

    /// The exercise list: every exercise done at least once, most recently done first, with its current estimate.
    public func lifts() async throws -> (exercises: [ExerciseSummary], unit: MassUnit, formula: OneRepMaxFormula) {
        let settings = try await settings()
        let today = today(settings)
        let clusters = try await exerciseClusters().filter { $0.lastDay != nil }
        let windowStart = today.adding(days: -(ExerciseReport.currentWindowDays - 1))
        let recent = try await store.exerciseDays(exerciseRows: clusters.flatMap(\.rows), from: windowStart)
        var summaries = clusters.map { cluster in
            let days = cluster.rows.flatMap { recent[$0] ?? [] }
            let report = ExerciseReport.compute(days: days, formula: settings.oneRepMaxFormula, today: today, weeks: 1)
            return ExerciseSummary(id: cluster.root.id, name: cluster.root.name, aliases: cluster.aliases.map(\.name),
                                   lastDay: cluster.lastDay, current: report.current)
        }
        // Exercises not done lately show their best ever instead (read from the days with lifts only).
        let idle = summaries.indices.filter { clusters[$0].lastDay.map { $0 < windowStart } ?? false }
        if !idle.isEmpty {
            let history = try await store.exerciseDays(exerciseRows: idle.flatMap { clusters[$0].rows }, withLiftsOnly: true)
            for index in idle {
                let days = clusters[index].rows.flatMap { history[$0] ?? [] }
                summaries[index].best = ExerciseReport.compute(days: days, formula: settings.oneRepMaxFormula, today: today, weeks: 1).best
            }
        }
        return (summaries, settings.displayUnit.liftingUnit, settings.oneRepMaxFormula)
    }

    /// The exercise named `name` (any of its names, compared as `ExerciseKey` does) or with that id.
    public func exercise(named name: String) async throws -> ExerciseCluster {
        try Self.exercise(named: name, among: try await exerciseClusters())
    }

    /// The exercise named `name` (or with that id) among `clusters`, as `exercise(named:)` finds it.
    public static func exercise(named name: String, among clusters: [ExerciseCluster]) throws -> ExerciseCluster {
        if let id = UUID(text: name), let cluster = clusters.first(where: { $0.root.id == id || $0.aliases.contains { $0.id == id } }) {
            return cluster
        }
        let key = ExerciseKey.normalised(name)
        if let cluster = clusters.first(where: { cluster in ([cluster.root] + cluster.aliases).contains { ExerciseKey.normalised($0.name) == key } }) {
            return cluster
        }
        let words = Set(key.split(separator: " "))
        let similar = clusters.filter { cluster in
            !words.isDisjoint(with: ExerciseKey.normalised(cluster.root.name).split(separator: " "))
        }.prefix(5).map { "\"\($0.root.name)\"" }
        let hint = similar.isEmpty ? "" : "; did you mean \(similar.joined(separator: ", "))?"
        throw CinnError.notFound("no exercise named \"\(name)\"\(hint)")
    }

    /// The exercise page: current and best estimate (with the workouts they came from), history, records, weekly volume.
    public func exercisePage(_ exercise: ExerciseCluster, includeHighReps: Bool = false, weeks: Int = 12) async throws -> ExercisePage {
        let settings = try await settings()
        let days = try await store.exerciseDays(exerciseRows: exercise.rows)
        let report = ExerciseReport.compute(days: exercise.rows.flatMap { days[$0] ?? [] }, formula: settings.oneRepMaxFormula, today: today(settings),
                                            includeHighReps: includeHighReps, weeks: weeks)
        var page = ExercisePage(exercise: exercise, report: report, unit: settings.displayUnit.liftingUnit)
        if let current = report.current {
            page.currentWorkout = try await store.workoutID(user: user, exerciseRows: exercise.rows, set: current.set)
        }
        if let best = report.best {
            page.bestWorkout = best == report.current ? page.currentWorkout : try await store.workoutID(user: user, exerciseRows: exercise.rows, set: best.set)
        }
        return page
    }

    /// Makes `alias` (a name or id) another name of `target`: their histories become one.
    public func mergeExercise(_ alias: String, into target: String) async throws {
        let aliasCluster = try await exercise(named: alias)
        let targetCluster = try await exercise(named: target)
        guard aliasCluster.root.rowID != targetCluster.root.rowID else {
            throw CinnError.invalid("alias", "\"\(alias)\" and \"\(target)\" are already one exercise")
        }
        try await store.mergeExercise(aliasCluster.root.id, into: targetCluster.root.id, user: user)
    }

    /// Makes the exercise named `name` its own exercise again, out of the one it was merged into.
    public func separateExercise(_ name: String) async throws {
        let cluster = try await exercise(named: name)
        let key = ExerciseKey.normalised(name)
        guard let alias = cluster.aliases.first(where: { ExerciseKey.normalised($0.name) == key || $0.id.uuidString == name.uppercased() }) else {
            throw CinnError.invalid("name", "\"\(name)\" is not an alias of another exercise")
        }
        try await store.separateExercise(alias.id, user: user)
    }

    /// Sets the one-rep-max formula.
    public func setOneRepMaxFormula(_ formula: OneRepMaxFormula) async throws {
        var settings = try await settings()
        settings.oneRepMaxFormula = formula
        try await store.saveSettings(settings, user: user)
    }
}
