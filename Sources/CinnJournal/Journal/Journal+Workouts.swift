import CinnCore
import CinnImport
import CinnStore
import Foundation

extension Journal {
    /// Imports a Fitbod, Strong or FitNotes CSV: streamed, all or nothing (unless `mode.skipInvalid`),
    /// as a batch that can be undone; workouts already in the journal are skipped whole.
    public func importWorkouts(
        at url: URL, fileName: String?, format: WorkoutFileFormat?, unit: MassUnit?, mode: ImportMode,
        progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }
    ) async throws -> ImportReport {
        let settings = try await settings()
        let reader = try WorkoutFileReader(url: url, format: format, options: WorkoutImportOptions(unit: unit, timeZone: settings.timeZone))
        return try await store.importWorkouts(user: user, format: reader.format.rawValue, fileName: fileName, mode: mode) { insert in
            let summary = try await reader.read(progress: progress) { batch in try await insert(batch) }
            return ImportReport(
                format: reader.format.rawValue, rowsRead: summary.rowsRead, skipped: summary.skipped,
                rejected: summary.rejected, rejectedCount: summary.rejectedCount)
        }
    }

    /// The user's exercises, aliases folded into the exercise they name, most recently done first.
    public func exerciseClusters() async throws -> [ExerciseCluster] {
        ExerciseCluster.clusters(try await store.exercises(user: user))
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
            return ExerciseSummary(
                id: cluster.root.id, name: cluster.root.name, aliases: cluster.aliases.map(\.name),
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

    /// The exercise named `name` (any of its names, compared as `ExerciseKey` does, or any of the catalogue's names
    /// for it: "Squat" finds the "Barbell Squat" logged) or with that id.
    public func exercise(named name: String) async throws -> ExerciseCluster {
        let clusters = try await exerciseClusters()
        do {
            return try ExerciseCluster.named(name, among: clusters)
        } catch let error as CinnError where error.code == .notFound {
            let stored = ExerciseCatalogue.builtIn.storedName(for: name, among: clusters)
            guard stored != name, let cluster = try? ExerciseCluster.named(stored, among: clusters) else { throw error }
            return cluster
        }
    }

    /// The exercise page: current and best estimate (with the workouts they came from), history, records, weekly volume.
    public func exercisePage(_ exercise: ExerciseCluster, includeHighReps: Bool = false, weeks: Int = 12) async throws -> ExercisePage {
        let settings = try await settings()
        let days = try await store.exerciseDays(exerciseRows: exercise.rows)
        let report = ExerciseReport.compute(
            days: exercise.rows.flatMap { days[$0] ?? [] }, formula: settings.oneRepMaxFormula, today: today(settings),
            includeHighReps: includeHighReps, weeks: weeks)
        var page = ExercisePage(exercise: exercise, report: report, unit: settings.displayUnit.liftingUnit)
        if let current = report.current {
            page.currentWorkout = try await store.workoutID(user: user, exerciseRows: exercise.rows, set: current.set)
        }
        if let best = report.best {
            page.bestWorkout =
                best == report.current
                ? page.currentWorkout : try await store.workoutID(user: user, exerciseRows: exercise.rows, set: best.set)
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
        guard let alias = cluster.aliases.first(where: { ExerciseKey.normalised($0.name) == key || $0.id.uuidString == name.uppercased() })
        else {
            throw CinnError(.conflict, "\"\(name)\" is not an alias of another exercise", field: "name")
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
