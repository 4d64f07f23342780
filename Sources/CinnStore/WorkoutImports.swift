import CinnCore
import Foundation
import NIOCore
import PostgresNIO
import SQLKit
import SQLiteNIO

extension Store {
    /// Imports workouts and their sets as one batch that can be undone, all or nothing.
    ///
    /// `read` parses the file, calling `insert` with batches of sets in file order, and returns the
    /// parse report. A workout whose external id the journal already holds is a duplicate: its sets
    /// are skipped (counted as duplicates). Sets inside one file are never merged. The rejection and
    /// dry-run rules are those of `importWeighIns`. On SQLite the file is staged outside the write lock
    /// (`StagedWorkouts`); on PostgreSQL it is written in the import's transaction (`WorkoutWriter`).
    public func importWorkouts(
        user: UserID, format: String, fileName: String?, mode: ImportMode,
        read: (_ insert: ([ImportedSet]) async throws -> Void) async throws -> ImportReport
    ) async throws -> ImportReport {
        guard isSQLite else {
            return try await recordedImport(user: user, format: format, fileName: fileName, mode: mode) { connection, batch in
                var writer = WorkoutWriter(store: self, connection: connection, batch: batch)
                var report = try await writer.writing(read)
                report.imported = writer.imported
                report.duplicates = writer.duplicates
                return report
            }
        }
        return try await stagedImport(user: user, format: format, fileName: fileName, mode: mode) { staging in
            let workouts = try await StagedWorkouts(store: self, staging: staging, user: user)
            var report = try await workouts.staging(read)
            report.imported = workouts.imported
            report.duplicates = workouts.duplicates
            return (report, workouts)
        } merge: { connection, batch, _, workouts in
            try await workouts.merge(connection, batch)
        }
    }
}

/// SQLite: an import's workouts and sets, staged batch by batch while the file is read (`ImportStaging`; each batch's sets
/// are written while the next batch is parsed), then moved into the journal in the import's transaction by `merge`. A
/// workout is a duplicate when the journal held its external id before the import began, or the file had it before;
/// the file's exercise days are worked out as the sets come, by exercise name.
final class StagedWorkouts: @unchecked Sendable {
    private let store: Store
    private let user: UserID
    /// External ids of the user's workouts in the journal when staging began, and of the workouts staged since.
    private var known: Set<String>
    /// The local day of each workout staged, by its number in the file (duplicates have none).
    private var staged: [Int: Int] = [:]
    private var exerciseNames: [String] = []
    private var exerciseIndex: [String: Int] = [:]
    /// The file's exercise days, by exercise (its index in `exerciseNames`) and day number.
    private var days: [Int: [Int: ExerciseDay]] = [:]
    private(set) var imported = 0
    private(set) var duplicates = 0
    private var ids: ImportIDs
    private var pending: Task<Void, any Error>?
    private let workoutInsert: SQLiteBulkInsert, setInsert: SQLiteBulkInsert

    /// Sets per prepared INSERT: 50 was faster than 1, 10 and 200 (BENCHMARKS.md, issue 5, third session).
    static let setRowsPerStatement = 50
    private static let workoutColumns = ["number", "id", "started_at_ms", "utc_offset_s", "local_day", "name", "duration_s", "note", "external_id"]
    private static let setColumns = ["number", "position", "exercise", "reps", "weight_kg", "kind", "duration_s", "distance_m", "rpe", "rir", "note"]

    init(store: Store, staging: ImportStaging, user: UserID) async throws {
        self.store = store
        self.user = user
        ids = ImportIDs(at: store.now())
        known = Set(try await store.withConnection { db in
            try await db.raw("""
                SELECT external_id FROM workouts WHERE user_id = \(bind: user.rawValue) AND deleted = 0 AND external_id IS NOT NULL
                """).all().map { try $0.decode(column: "external_id", as: String.self) }
        })
        workoutInsert = try await staging.table("workouts", columns: Self.workoutColumns, rowsPerStatement: 1)
        setInsert = try await staging.table("sets", columns: Self.setColumns, rowsPerStatement: Self.setRowsPerStatement)
    }

    /// Runs `read` with the staging writer as its sink, then waits for the last batch's sets.
    func staging(_ read: (_ write: ([ImportedSet]) async throws -> Void) async throws -> ImportReport) async throws -> ImportReport {
        do {
            let report = try await read { sets in try await self.write(sets) }
            try await finishPending()
            return report
        } catch {
            try? await finishPending()
            throw error
        }
    }

    private func finishPending() async throws {
        guard let task = pending else { return }
        pending = nil
        try await task.value
    }

    private func write(_ sets: [ImportedSet]) async throws {
        try await finishPending()
        var workouts: [(number: Int, workout: ImportedWorkout)] = []
        for imported in sets {
            guard let workout = imported.newWorkout, known.insert(workout.externalID).inserted else { continue }
            staged[imported.workout] = workout.localDate.dayNumber
            workouts.append((imported.workout, workout))
        }
        if !workouts.isEmpty {
            try workoutInsert.insert(count: workouts.count) { n, binder in
                let (number, workout) = workouts[n]
                binder.bind(number)
                binder.bind(ids.next())
                binder.bind(Int(store.milliseconds(workout.startedAt)))
                binder.bind(workout.utcOffsetSeconds)
                binder.bind(workout.localDate.dayNumber)
                binder.bind(workout.name)
                binder.bind(workout.durationSeconds)
                binder.bind(workout.note)
                binder.bind(workout.externalID)
            }
        }
        var rows: [(index: Int, exercise: Int)] = []
        rows.reserveCapacity(sets.count)
        for (index, imported) in sets.enumerated() {
            guard let day = staged[imported.workout] else {
                duplicates += 1
                continue
            }
            let name = imported.set.exercise
            let exercise: Int
            if let known = exerciseIndex[name] {
                exercise = known
            } else {
                exercise = exerciseNames.count
                exerciseIndex[name] = exercise
                exerciseNames.append(name)
            }
            rows.append((index, exercise))
            days[exercise, default: [:]][day, default: ExerciseDay(day: LocalDate(dayNumber: day))].add(imported.set)
        }
        imported += rows.count
        let insert = setInsert
        pending = Task {
            try insert.insert(count: rows.count) { n, binder in
                let row = rows[n], imported = sets[row.index], set = imported.set
                binder.bind(imported.workout)
                binder.bind(imported.position)
                binder.bind(row.exercise)
                binder.bind(set.reps)
                binder.bind(set.weight?.kilograms)
                binder.bind(set.kind.storageCode)
                binder.bind(set.durationSeconds)
                binder.bind(set.distanceMetres)
                binder.bind(set.rpe)
                binder.bind(set.rir)
                binder.bind(set.note)
            }
        }
    }

    /// Moves the staged workouts and sets into the journal, in the import's transaction on `connection` (the staging file
    /// attached as `staging`), with the exercises they name (found by their normalised name, or made) and their exercise
    /// days. A workout the journal gained since staging began (another import of the same file, at the same time) makes
    /// the import fail with 409, writing nothing: importing it again then skips it.
    func merge(_ connection: Store.Connection, _ batch: Store.ImportedBatch) async throws {
        let db = connection.sql
        guard !staged.isEmpty else { return }
        let firstVersion = try await store.reserveVersions(db, user: user, count: staged.count)
        try await db.raw("""
            INSERT INTO main.workouts (id, user_id, started_at_ms, utc_offset_s, local_day, name, duration_s, note, source, external_id,
                import_id, created_at_ms, updated_at_ms, version)
            SELECT id, \(bind: user.rawValue), started_at_ms, utc_offset_s, local_day, name, duration_s, note, \(bind: batch.source), external_id,
                \(bind: batch.importID), \(bind: batch.createdAt), \(bind: batch.createdAt), \(bind: firstVersion - 1) + rowid
            FROM staging.workouts WHERE true ORDER BY rowid
            ON CONFLICT (user_id, external_id) WHERE deleted = 0 AND external_id IS NOT NULL DO NOTHING
            """).run()
        let inserted = try await db.raw("SELECT changes() AS n").first()?.decode(column: "n", as: Int.self) ?? 0
        guard inserted == staged.count else {
            throw CinnError(.conflict, "some of these workouts were added while the file was read (another import?); import it again")
        }
        var exerciseRows: [Int64] = []
        for name in exerciseNames {
            exerciseRows.append(try await store.exerciseRow(db, user: user, name: name, createdAt: batch.createdAt))
        }
        try await db.raw("CREATE TEMP TABLE import_exercises (idx INTEGER PRIMARY KEY, row_id INTEGER NOT NULL)").run()
        try await store.insertRows(db, into: "import_exercises", columns: ["idx", "row_id"],
                                   exerciseRows.enumerated().map { [$0.offset, $0.element] })
        try await db.raw("CREATE TEMP TABLE import_workouts (number INTEGER PRIMARY KEY, row_id INTEGER NOT NULL)").run()
        try await db.raw("""
            INSERT INTO import_workouts (number, row_id) SELECT s.number, w.row_id FROM staging.workouts s JOIN main.workouts w ON w.id = s.id
            """).run()
        try await db.raw("""
            INSERT INTO main.workout_sets (workout_id, position, exercise_id, reps, weight_kg, kind, duration_s, distance_m, rpe, rir, note)
            SELECT w.row_id, s.position, e.row_id, s.reps, s.weight_kg, s.kind, s.duration_s, s.distance_m, s.rpe, s.rir, s.note
            FROM staging.sets s JOIN import_workouts w ON w.number = s.number JOIN import_exercises e ON e.idx = s.exercise
            ORDER BY s.rowid
            """).run()
        try await db.raw("DROP TABLE import_workouts").run()
        try await db.raw("DROP TABLE import_exercises").run()
        var byRow: [Int64: [Int: ExerciseDay]] = [:]
        for (exercise, exerciseDays) in days {
            for (day, value) in exerciseDays { byRow[exerciseRows[exercise], default: [:]][day, default: ExerciseDay(day: value.day)].merge(value) }
        }
        try await store.mergeExerciseDays(connection, byRow)
    }
}

/// PostgreSQL: writes an import's sets batch by batch in its transaction: the batch's new workouts first (skipping
/// those already in the journal), then its sets in one `COPY`; at the end, the exercise days the sets make.
struct WorkoutWriter {
    let store: Store
    let connection: Store.Connection
    let batch: Store.ImportedBatch
    private(set) var imported = 0
    private(set) var duplicates = 0
    /// Each workout of the file by number: its row and local day, or nil when it was already in the journal.
    private var workouts: [Int: (rowID: Int64, day: Int)?] = [:]
    private var exercises: [String: Int64] = [:]
    /// The file's exercise days, by exercise row and day number, merged into `exercise_days` at the end.
    private var days: [Int64: [Int: ExerciseDay]] = [:]
    private var ids: ImportIDs

    init(store: Store, connection: Store.Connection, batch: Store.ImportedBatch) {
        self.store = store
        self.connection = connection
        self.batch = batch
        ids = ImportIDs(at: Date(timeIntervalSince1970: Double(batch.createdAt) / 1000))
    }

    /// Runs `read` with `write` as its sink, then writes the exercise days.
    mutating func writing(_ read: (_ write: ([ImportedSet]) async throws -> Void) async throws -> ImportReport) async throws -> ImportReport {
        let report = try await read { sets in try await write(sets) }
        try await store.mergeExerciseDays(connection, days)
        return report
    }

    private mutating func write(_ sets: [ImportedSet]) async throws {
        try await insertWorkouts(sets.filter { $0.newWorkout != nil })
        var rows: [SetRow] = []
        rows.reserveCapacity(sets.count)
        var last: (name: String, row: Int64)?
        for (index, imported) in sets.enumerated() {
            guard let workout = workouts[imported.workout], let workout else {
                duplicates += 1
                continue
            }
            // A workout's sets of one exercise come together: most sets skip the name's lookup.
            let exercise = if let last, last.name == imported.set.exercise { last.row } else { try await exerciseID(imported.set.exercise) }
            last = (imported.set.exercise, exercise)
            rows.append(SetRow(index: index, workout: workout.rowID, day: workout.day, exercise: exercise))
        }
        imported += rows.count
        guard let postgres = connection.postgres else { throw CinnError(.internal, "a PostgreSQL import on another database") }
        try await copySets(postgres, sets, rows)
        for row in rows {
            days[row.exercise, default: [:]][row.day, default: ExerciseDay(day: LocalDate(dayNumber: row.day))].add(sets[row.index].set)
        }
    }

    private static let workoutColumns = ["id", "user_id", "started_at_ms", "utc_offset_s", "local_day", "name", "duration_s", "note",
                                         "source", "external_id", "import_id", "created_at_ms", "updated_at_ms", "version"]
    private static let workoutConflict = " ON CONFLICT (user_id, external_id) WHERE deleted = 0 AND external_id IS NOT NULL DO NOTHING"

    /// Inserts the workouts that the first sets in `sets` carry, skipping external ids already there.
    private mutating func insertWorkouts(_ sets: [ImportedSet]) async throws {
        guard !sets.isEmpty else { return }
        let firstVersion = try await store.reserveVersions(connection.sql, user: batch.user, count: sets.count)
        var byExternalID: [String: (number: Int, day: Int)] = [:]
        var query = SQLQueryString("INSERT INTO workouts (" + Self.workoutColumns.joined(separator: ", ") + ") VALUES")
        for (offset, imported) in sets.enumerated() {
            guard let workout = imported.newWorkout else { continue }
            let day = workout.localDate.dayNumber
            byExternalID[workout.externalID] = (imported.workout, day)
            workouts[imported.workout] = .some(nil)
            let id = ids.next(), version = firstVersion + Int64(offset), startedAt = store.milliseconds(workout.startedAt)
            query += (offset == 0 ? " " : ", ") + """
                (\(bind: store.bind(id)), \(bind: batch.user.rawValue), \(bind: startedAt), \(bind: workout.utcOffsetSeconds), \(bind: day),
                \(bind: workout.name), \(bind: workout.durationSeconds), \(bind: workout.note), \(bind: batch.source),
                \(bind: workout.externalID), \(bind: batch.importID), \(bind: batch.createdAt), \(bind: batch.createdAt), \(bind: version))
                """
        }
        query += SQLQueryString(Self.workoutConflict + " RETURNING row_id, external_id")
        for row in try await connection.sql.raw(query).all() {
            let externalID = try row.decode(column: "external_id", as: String.self)
            guard let workout = byExternalID[externalID] else { continue }
            workouts[workout.number] = (try row.decode(column: "row_id", as: Int64.self), workout.day)
        }
    }

    /// The row of the exercise named `name` (by its normalised key), made when new.
    private mutating func exerciseID(_ name: String) async throws -> Int64 {
        if let known = exercises[name] { return known }
        let id = try await store.exerciseRow(connection.sql, user: batch.user, name: name, createdAt: batch.createdAt)
        exercises[name] = id
        return id
    }

    /// Where a set of a batch goes: its index in the batch, its workout's row and day, its exercise's row.
    struct SetRow {
        var index: Int
        var workout: Int64
        var day: Int
        var exercise: Int64
    }

    /// The PostgreSQL bulk path: the batch's sets in one text-format `COPY`.
    private func copySets(_ postgres: PostgresConnection, _ sets: [ImportedSet], _ rows: [SetRow]) async throws {
        guard !rows.isEmpty else { return }
        try await postgres.copyFrom(
            table: "workout_sets",
            columns: ["workout_id", "position", "exercise_id", "reps", "weight_kg", "duration_s", "distance_m", "kind",
                      "rpe", "rir", "note"],
            logger: store.logger
        ) { writer in
            var buffer = ByteBuffer()
            func optional<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "\\N" }
            for row in rows {
                let set = sets[row.index].set
                buffer.writeString("\(row.workout)\t\(sets[row.index].position)\t\(row.exercise)\t\(optional(set.reps))\t")
                buffer.writeString("\(optional(set.weight?.kilograms))\t\(optional(set.durationSeconds))\t\(optional(set.distanceMetres))\t")
                buffer.writeString("\(set.kind.storageCode)\t\(optional(set.rpe))\t\(optional(set.rir))\t")
                buffer.writeString(set.note.map(Store.copyText) ?? "\\N")
                buffer.writeString("\n")
            }
            try await writer.write(buffer)
        }
    }
}

extension SetKind {
    /// The `workout_sets.kind` code: 0 normal, 1 warm-up, 2 drop, 3 failure.
    var storageCode: Int {
        switch self {
        case .normal: 0
        case .warmUp: 1
        case .drop: 2
        case .failure: 3
        }
    }

    init?(storageCode: Int) {
        switch storageCode {
        case 0: self = .normal
        case 1: self = .warmUp
        case 2: self = .drop
        case 3: self = .failure
        default: return nil
        }
    }
}

extension Store {
    /// The row of the user's exercise whose normalised name is `name`'s, made when there is none.
    func exerciseRow(_ db: any SQLDatabase, user: UserID, name: String, createdAt: Int64) async throws -> Int64 {
        let key = ExerciseKey.normalised(name)
        if let row = try await db.raw("""
            SELECT row_id FROM exercises WHERE user_id = \(bind: user.rawValue) AND name_key = \(bind: key)
            """).first() {
            return try row.decode(column: "row_id", as: Int64.self)
        }
        let version = try await reserveVersions(db, user: user)
        guard let row = try await db.raw("""
            INSERT INTO exercises (id, user_id, name, name_key, created_at_ms, updated_at_ms, version)
            VALUES (\(bind: bind(UUID.v7())), \(bind: user.rawValue), \(bind: name), \(bind: key), \(bind: createdAt), \(bind: createdAt),
                \(bind: version))
            RETURNING row_id
            """).first() else { throw CinnError(.internal, "the exercise could not be saved") }
        return try row.decode(column: "row_id", as: Int64.self)
    }
}
