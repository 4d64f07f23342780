// The workouts and strength benchmarks, run by workouts/run.sh:
//
//     WorkoutBench page --database journal.sqlite [--iterations 300] [--warmup 10] [--exercise NAME] [--json]
//         on a journal that `cinn import` filled from a Fitbod export (1,000,000 sets in run.sh), times
//         Journal.exercisePage for one exercise (default: the one with the most sets), Journal.lifts(),
//         Journal.exercise(named:) and the page's parts (Store.exercises, Store.exerciseDays for the
//         exercise's rows, the same query raw, ExerciseReport.compute, Store.workoutID and its query
//         raw), all interleaved in one loop so that every case sees the same load.
//
//     WorkoutBench logging --database journal.sqlite [--iterations 300] [--warmup 10] [--json]
//         on the same journal: makes a routine of its three busiest exercises, starts a workout from it with two
//         sets done (left in progress, so that a server can serve its page after) and logs a finished one of
//         nine sets; then times, interleaved, the logging page's work (GET /workouts/{id}/log: the workout, its
//         records, its exercises with last time's sets), the finish summary's (GET /workouts/{id}: the workout
//         and the records it set), marking a set done and taking it back (two writes), and
//         Journal.exercisePage beside them. Prints the two workouts' ids.
//
// Prints one JSON object with --json, else a short table.
import BenchmarkData
import CinnCore
import CinnJournal
import CinnStore
import Foundation
import SQLiteNIO
import Synchronization

let options = Options(CommandLine.arguments.dropFirst(2))
switch CommandLine.arguments.dropFirst().first ?? "" {
case "page": try await page(options)
case "logging": try await logging(options)
default: fail("unknown command; use page or logging")
}

/// Integer columns of a query on a raw connection, by position (NULL as 0).
func integers(_ connection: SQLiteConnection, _ sql: String, _ binds: [SQLiteData] = []) async throws -> [[Int]] {
    let rows = Mutex<[[Int]]>([])
    try await connection.query(sql, binds) { row in
        let values = row.columns.map { $0.data.integer ?? 0 }
        rows.withLock { $0.append(values) }
    }
    return rows.withLock { $0 }
}

func page(_ options: Options) async throws {
    let iterations = options.int("iterations", 300)
    let warmup = options.int("warmup", 10)
    let raw = try await SQLiteConnection.open(storage: .file(path: options.database))

    // The journal's size, and the exercise with the most sets (unless one is named).
    let totals = try await integers(raw, "SELECT (SELECT COUNT(*) FROM workout_sets), (SELECT COUNT(*) FROM workouts), (SELECT COUNT(*) FROM exercises)")[0]
    guard totals[0] > 0 else { fail("no sets in \(options.database); import a workout file first") }
    let name: String
    if let named = options["exercise"] {
        name = named
    } else {
        let busiest = Mutex("")
        try await raw.query("""
            SELECT e.name FROM workout_sets s JOIN exercises e ON e.row_id = s.exercise_id
            GROUP BY s.exercise_id ORDER BY COUNT(*) DESC LIMIT 1
            """) { row in
            let value = row.column("name")?.string ?? ""
            busiest.withLock { $0 = value }
        }
        name = busiest.withLock { $0 }
    }

    let store = try Store(.sqlite(path: options.database))
    let journal = try await Journal.local(store: store)
    let user = journal.user
    let settings = try await journal.settings()
    let today = journal.today(settings)
    let cluster = try await journal.exercise(named: name)
    let id = cluster.root.id.uuidString.lowercased()
    let rows = cluster.rows
    let setsOfExercise = try await integers(raw, "SELECT COUNT(*) FROM workout_sets WHERE exercise_id IN (\(rows.map(String.init).joined(separator: ",")))")[0][0]
    let days = try await store.exerciseDays(exerciseRows: rows)
    let all = rows.flatMap { days[$0] ?? [] }
    let sample = try await journal.exercisePage(cluster)
    guard let best = sample.report.best else { fail("\(name) has no estimate; choose another with --exercise") }
    let current = sample.report.current

    // exerciseDays' query as the store sends it, run on a raw connection with the rows left on SQLite's
    // thread: what SQLite itself costs.
    let daysSQL = """
        SELECT exercise_id, local_day, sets, work_sets, volume_kg, lifts FROM exercise_days
        WHERE exercise_id IN (\(rows.map(String.init).joined(separator: ","))) AND local_day BETWEEN ? AND ?
        ORDER BY exercise_id, local_day
        """
    let workoutSQL = """
        SELECT w.id FROM workouts w JOIN workout_sets s ON s.workout_id = w.row_id
        WHERE w.user_id = ? AND w.deleted = 0 AND w.local_day = ? AND s.exercise_id IN (?) AND s.reps = ? AND s.weight_kg = ? AND s.kind = ?
        ORDER BY s.workout_id, s.position LIMIT 1
        """
    let bestBinds: [SQLiteData] = [.integer(Int(user.rawValue)), .integer(best.set.day.dayNumber), .integer(Int(cluster.root.rowID)), .integer(best.set.reps),
                                   .float(best.set.weight.kilograms), .integer(best.set.kind == .failure ? 3 : 0)]

    let cases: [Case] = [
        Case("page", "Journal.exercisePage — the exercise page's work, exercise already resolved") {
            try await journal.exercisePage(cluster).report.history.count
        },
        Case("pageByID", "Journal.exercise(named: id) + exercisePage — GET /lifts/{id} or /api/v1/exercises/{id}") {
            try await journal.exercisePage(try await journal.exercise(named: id)).report.history.count
        },
        Case("named", "Journal.exercise(named: name) — the exercise list and its aliases, then a name match") {
            try await journal.exercise(named: name).rows.count
        },
        Case("lifts", "Journal.lifts() — the exercise list with each one's current estimate") {
            try await journal.lifts().exercises.count
        },
        Case("exercises", "Store.exercises(user:) — every exercise with its last day (in exercise(named:) and lifts())") {
            try await store.exercises(user: user).count
        },
        Case("settings", "Journal.settings() — read by exercisePage and lifts()") {
            try await journal.settings().oneRepMaxFormula == .default ? 1 : 0
        },
        Case("exerciseDays", "Store.exerciseDays(exerciseRows:) — the exercise's days (sets, volume, unbeaten lifts)") {
            try await store.exerciseDays(exerciseRows: rows)[cluster.root.rowID]?.count ?? 0
        },
        Case("exerciseDaysRaw", "the same query alone, raw SQLiteNIO, rows kept on SQLite's thread") {
            let count = Mutex(0)
            try await raw.query(daysSQL, [.integer(Int(Int32.min)), .integer(Int(Int32.max))]) { row in
                if row.column("sets")?.integer != nil { count.withLock { $0 += 1 } }
            }
            return count.withLock { $0 }
        },
        Case("report", "ExerciseReport.compute over those days (pure)") {
            ExerciseReport.compute(days: all, formula: settings.oneRepMaxFormula, today: today).history.count
        },
        Case("workoutIDBest", "Store.workoutID(exerciseRows:set:) — the best estimate's workout") {
            try await store.workoutID(user: user, exerciseRows: rows, set: best.set) == nil ? 0 : 1
        },
        Case("workoutIDRaw", "the same query alone, raw SQLiteNIO") {
            try await integers(raw, workoutSQL, bestBinds).count
        },
    ] + (current.map { current in
        [Case("workoutIDCurrent", "Store.workoutID(exerciseRows:set:) — the current estimate's workout") {
            try await store.workoutID(user: user, exerciseRows: rows, set: current.set) == nil ? 0 : 1
        }]
    } ?? [])

    let seconds = try await runInterleaved(cases, warmup: warmup, iterations: iterations)
    try await raw.close()
    try await store.close()

    let report = sample.report
    let result: [String: Any] = [
        "iterations": iterations, "warmup": warmup, "seconds": rounded(seconds, 1), "today": today.iso,
        "journal": ["sets": totals[0], "workouts": totals[1], "exercises": totals[2]],
        "exercise": [
            "name": cluster.root.name, "id": id, "aliases": cluster.aliases.count, "sets": setsOfExercise, "days": all.count,
            "lifts": all.map(\.lifts.count).reduce(0, +),
            "history_days": report.history.count, "total_sets": report.totalSets,
            "first_day": report.firstDay?.iso ?? "none", "last_day": report.lastDay?.iso ?? "none",
            "best_kg": rounded(best.oneRepMax.estimate.kilograms, 1), "best_day": best.day.iso,
            "current_kg": current.map { rounded($0.oneRepMax.estimate.kilograms, 1) } ?? -1,
            "current_workout": sample.currentWorkout != nil, "best_workout": sample.bestWorkout != nil,
            "weekly_volume_weeks": report.weeklyVolume.count,
        ] as [String: Any],
        "cases": cases.map(\.summary),
        "peak_rss_mb": rounded(peakResidentMB(), 1),
        "checksum": cases.reduce(0) { $0 &+ $1.check },
    ]
    if options.json { return printJSON(result) }
    print("\(iterations) rounds of \(cases.count) cases in \(rounded(seconds, 1)) s; \(cluster.root.name): \(setsOfExercise) sets, \(all.count) days")
    for entry in cases.map(\.summary) {
        print("  \(entry["p50_ms"]!) / \(entry["p99_ms"]!) / \(entry["max_ms"]!) ms (p50 / p99 / max), CPU p50 \(entry["cpu_p50_ms"]!) ms: \(entry["label"]!)")
    }
}

func logging(_ options: Options) async throws {
    let iterations = options.int("iterations", 300)
    let warmup = options.int("warmup", 10)
    let raw = try await SQLiteConnection.open(storage: .file(path: options.database))
    let busiest = Mutex<[String]>([])
    try await raw.query("""
        SELECT e.name FROM workout_sets s JOIN exercises e ON e.row_id = s.exercise_id
        WHERE s.weight_kg IS NOT NULL GROUP BY s.exercise_id ORDER BY COUNT(*) DESC LIMIT 3
        """) { row in
        let name = row.column("name")?.string ?? ""
        busiest.withLock { $0.append(name) }
    }
    try await raw.close()
    let names = busiest.withLock { $0 }
    guard names.count == 3 else { fail("no three exercises with weights in \(options.database); import a workout file first") }

    let store = try Store(.sqlite(path: options.database))
    let journal = try await Journal.local(store: store)
    if let stale = try await journal.workoutInProgress() { try await journal.deleteWorkout(id: stale.workout.id) }
    let routine = try await journal.saveRoutine(Routine(name: "Benchmark routine", exercises: names.map {
        PlannedExercise(exercise: $0, sets: 3, reps: 5, weight: Mass(kilograms: 60), restSeconds: 120)
    }))
    let started = try await journal.startWorkout(.routine(routine.id))
    for _ in 0..<2 { _ = try await journal.logSet(WorkoutSet(exercise: names[0], reps: 5, weight: Mass(kilograms: 60)), in: started.workout.id) }
    let finishedSets = names.flatMap { name in (0..<3).map { WorkoutSet(exercise: name, reps: 5 + $0, weight: Mass(kilograms: 80)) } }
    let startedAt = journal.now().addingTimeInterval(-7200)
    let finished = try await journal.logWorkout(name: "Benchmark workout", startedAt: WeighIn.isoString(instant: startedAt, utcOffsetSeconds: 0),
                                                endedAt: WeighIn.isoString(instant: startedAt.addingTimeInterval(3600), utcOffsetSeconds: 0),
                                                note: nil, sets: finishedSets)
    let cluster = try await journal.exercise(named: names[0])
    let inProgress = started.workout.id, done = finished.workout.id

    let cases: [Case] = [
        Case("loggingPage", "the logging page's work: the workout, its records, its exercises with last time's sets (GET /workouts/{id}/log)") {
            guard let stored = try await store.workout(id: inProgress, user: journal.user) else { fail("the workout is gone") }
            let page = try await journal.loggingPage(stored)
            return page.exercises.count + page.workout.records.count
        },
        Case("summary", "the finish summary's work: the workout and the records it set (GET /workouts/{id})") {
            guard let stored = try await store.workout(id: done, user: journal.user) else { fail("the workout is gone") }
            return try await journal.workoutWithRecords(stored).records.count
        },
        Case("markDone", "a set marked done and taken back: logSet + removeSet, two writes of the workout with its exercise days") {
            let stored = try await journal.logSet(WorkoutSet(exercise: names[1], reps: 5, weight: Mass(kilograms: 60)), in: inProgress)
            return try await journal.removeSet(stored.workout.sets.count - 1, from: inProgress).workout.sets.count
        },
        Case("exercisePage", "Journal.exercisePage for the busiest exercise, beside them") {
            try await journal.exercisePage(cluster).report.history.count
        },
    ]
    let seconds = try await runInterleaved(cases, warmup: warmup, iterations: iterations)
    let days = try await store.exerciseDays(exerciseRows: cluster.rows)[cluster.root.rowID]?.count ?? 0
    try await store.close()
    let result: [String: Any] = [
        "iterations": iterations, "warmup": warmup, "seconds": rounded(seconds, 1), "exercises": names, "busiest_days": days,
        "in_progress": inProgress.uuidString.lowercased(), "finished": done.uuidString.lowercased(),
        "cases": cases.map(\.summary), "peak_rss_mb": rounded(peakResidentMB(), 1), "checksum": cases.reduce(0) { $0 &+ $1.check },
    ]
    if options.json { return printJSON(result) }
    print("\(iterations) rounds of \(cases.count) cases in \(rounded(seconds, 1)) s; exercises \(names.joined(separator: ", "))")
    for entry in cases.map(\.summary) {
        print("  \(entry["p50_ms"]!) / \(entry["p99_ms"]!) / \(entry["max_ms"]!) ms (p50 / p99 / max), CPU p50 \(entry["cpu_p50_ms"]!) ms: \(entry["label"]!)")
    }
}
