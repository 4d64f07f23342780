import CinnCore
import Foundation
import NIOCore
import PostgresNIO
import SQLKit
import SQLiteNIO

extension Store {
    /// Imports workouts and their sets in one transaction, as one batch that can be undone.
    ///
    /// `read` parses the file, calling `insert` with batches of sets in file order, and returns the
    /// parse report. A workout whose external id the journal already holds is a duplicate: its sets
    /// are skipped (counted as duplicates). Sets inside one file are never merged. The rejection and
    /// dry-run rules are those of `importWeighIns`. On SQLite the foreign keys are not checked: every
    /// workout and exercise a set refers to is one this import wrote or found in the same transaction.
    public func importWorkouts(
        user: UserID, format: String, fileName: String?, mode: ImportMode,
        read: (_ insert: ([ImportedSet]) async throws -> Void) async throws -> ImportReport
    ) async throws -> ImportReport {
        try await recordedImport(user: user, format: format, fileName: fileName, mode: mode, bulk: true) { connection, batch in
            var writer = try WorkoutWriter(store: self, connection: connection, batch: batch)
            var report = try await writer.writing(read)
            report.imported = writer.imported
            report.duplicates = writer.duplicates
            return report
        }
    }
}

/// Writes an import's sets batch by batch: the batch's new workouts first (skipping those already
/// in the journal), then its sets in multi-row statements (SQLite) or one `COPY` (PostgreSQL); at the
/// end, the exercise days the sets make.
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
    /// The last batch's sets, still being written on SQLite.
    private var pending: Task<Void, any Error>?
    /// SQLite's prepared INSERTs: workouts, sets in six columns (plain sets) and in all eleven.
    private let workoutInsert: SQLiteBulkInsert?, plainInsert: SQLiteBulkInsert?, fullInsert: SQLiteBulkInsert?

    /// Sets per prepared INSERT on SQLite: 50 was faster than 1, 10 and 200 (BENCHMARKS.md, "Workouts and strength", prepared statements).
    static let setRowsPerStatement = 50

    init(store: Store, connection: Store.Connection, batch: Store.ImportedBatch) throws {
        self.store = store
        self.connection = connection
        self.batch = batch
        ids = ImportIDs(at: Date(millisecondsSince1970: batch.createdAt))
        if let sqlite = connection.sqlite {
            workoutInsert = try SQLiteBulkInsert(
                sqlite, table: "workouts", columns: Self.workoutColumns, rowsPerStatement: 1,
                suffix: Self.workoutConflict)
            plainInsert = try SQLiteBulkInsert(
                sqlite, table: "workout_sets", columns: Array(Self.allColumns.prefix(Self.plainColumns)),
                rowsPerStatement: Self.setRowsPerStatement)
            fullInsert = try SQLiteBulkInsert(
                sqlite, table: "workout_sets", columns: Self.allColumns,
                rowsPerStatement: Self.setRowsPerStatement)
        } else {
            workoutInsert = nil
            plainInsert = nil
            fullInsert = nil
        }
    }

    /// Runs `read` with `write` as its sink, then waits for the last statement. On SQLite a batch's sets
    /// are written while the next batch is parsed (one statement at a time, in order).
    mutating func writing(_ read: (_ write: ([ImportedSet]) async throws -> Void) async throws -> ImportReport) async throws -> ImportReport
    {
        defer {
            workoutInsert?.finish()
            plainInsert?.finish()
            fullInsert?.finish()
        }
        do {
            let report = try await read { sets in try await write(sets) }
            try await finishPending()
            try await store.mergeExerciseDays(connection, days)
            return report
        } catch {
            try? await finishPending()
            throw error
        }
    }

    private mutating func finishPending() async throws {
        guard let task = pending else { return }
        pending = nil
        try await task.value
    }

    private mutating func write(_ sets: [ImportedSet]) async throws {
        try await finishPending()
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
        if let postgres = connection.postgres {
            try await copySets(postgres, sets, rows)
        } else if let plainInsert, let fullInsert {
            pending = Task { try Self.insertSets(sets, rows, plain: plainInsert, full: fullInsert) }
        }
        // While SQLite writes the sets: the days they make.
        for row in rows {
            days[row.exercise, default: [:]][row.day, default: ExerciseDay(day: LocalDate(dayNumber: row.day))].add(sets[row.index].set)
        }
    }

    private static let workoutColumns = [
        "id", "user_id", "started_at_ms", "utc_offset_s", "local_day", "name", "duration_s", "note",
        "source", "external_id", "import_id", "created_at_ms", "updated_at_ms", "version",
    ]
    private static let workoutConflict = " ON CONFLICT (user_id, external_id) WHERE deleted = 0 AND external_id IS NOT NULL DO NOTHING"

    /// Inserts the workouts that the first sets in `sets` carry, skipping external ids already there.
    private mutating func insertWorkouts(_ sets: [ImportedSet]) async throws {
        guard !sets.isEmpty else { return }
        let firstVersion = try await store.reserveVersions(connection.sql, user: batch.user, count: sets.count)
        if let workoutInsert {
            for (offset, imported) in sets.enumerated() {
                guard let workout = imported.newWorkout else { continue }
                let day = workout.localDate.dayNumber, id = ids.next(), startedAt = store.milliseconds(workout.startedAt)
                let rowID = try workoutInsert.insertRow { binder in
                    binder.bind(id)
                    binder.bind(Int(batch.user.rawValue))
                    binder.bind(Int(startedAt))
                    binder.bind(workout.utcOffsetSeconds)
                    binder.bind(day)
                    binder.bind(workout.name)
                    binder.bind(workout.durationSeconds)
                    binder.bind(workout.note)
                    binder.bind(batch.source)
                    binder.bind(workout.externalID)
                    binder.bind(Int(batch.importID))
                    binder.bind(Int(batch.createdAt))
                    binder.bind(Int(batch.createdAt))
                    binder.bind(Int(firstVersion) + offset)
                }
                let written: (rowID: Int64, day: Int)? = rowID.map { ($0, day) }
                workouts[imported.workout] = .some(written)
            }
            return
        }
        var byExternalID: [String: (number: Int, day: Int)] = [:]
        var query = SQLQueryString("INSERT INTO workouts (" + Self.workoutColumns.joined(separator: ", ") + ") VALUES")
        for (offset, imported) in sets.enumerated() {
            guard let workout = imported.newWorkout else { continue }
            let day = workout.localDate.dayNumber
            byExternalID[workout.externalID] = (imported.workout, day)
            workouts[imported.workout] = .some(nil)
            let id = ids.next(), version = firstVersion + Int64(offset), startedAt = store.milliseconds(workout.startedAt)
            query +=
                (offset == 0 ? " " : ", ") + """
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

    /// The columns of a set, and the first six: most sets (reps and weight, no time, distance,
    /// RPE or note) need only those, and SQLite writes a row faster without five columns of NULL.
    private static let allColumns = [
        "workout_id", "position", "exercise_id", "reps", "weight_kg", "kind",
        "duration_s", "distance_m", "rpe", "rir", "note", "load_multiplier",
    ]
    private static let plainColumns = 6

    /// Whether a set has nothing beyond the first six columns.
    private static func isPlain(_ set: WorkoutSet) -> Bool {
        set.durationSeconds == nil && set.distanceMetres == nil && set.rpe == nil && set.rir == nil && set.note == nil
            && set.loadMultiplier == nil
    }

    /// The SQLite bulk path: `rows` through the prepared INSERTs, the plain sets in six columns, the rest in all twelve.
    private static func insertSets(_ sets: [ImportedSet], _ rows: [SetRow], plain: SQLiteBulkInsert, full: SQLiteBulkInsert) throws {
        let plainRows = rows.filter { isPlain(sets[$0.index].set) }
        let fullRows = plainRows.count == rows.count ? [] : rows.filter { !isPlain(sets[$0.index].set) }
        for (insert, rows) in [(plain, plainRows), (full, fullRows)] where !rows.isEmpty {
            let wide = insert === full
            try insert.insert(count: rows.count) { n, binder in
                let row = rows[n], set = sets[row.index].set
                binder.bind(Int(row.workout))
                binder.bind(sets[row.index].position)
                binder.bind(Int(row.exercise))
                binder.bind(set.reps)
                binder.bind(set.weight?.kilograms)
                binder.bind(set.kind.storageCode)
                guard wide else { return }
                binder.bind(set.durationSeconds)
                binder.bind(set.distanceMetres)
                binder.bind(set.rpe)
                binder.bind(set.rir)
                binder.bind(set.note)
                binder.bind(set.loadMultiplier)
            }
        }
    }

    /// The PostgreSQL bulk path: the batch's sets in one text-format `COPY`.
    private func copySets(_ postgres: PostgresConnection, _ sets: [ImportedSet], _ rows: [SetRow]) async throws {
        guard !rows.isEmpty else { return }
        try await postgres.copyFrom(
            table: "workout_sets",
            columns: [
                "workout_id", "position", "exercise_id", "reps", "weight_kg", "duration_s", "distance_m", "kind",
                "rpe", "rir", "load_multiplier", "note",
            ],
            logger: store.logger
        ) { writer in
            var buffer = ByteBuffer()
            func optional<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "\\N" }
            for row in rows {
                let set = sets[row.index].set
                buffer.writeString("\(row.workout)\t\(sets[row.index].position)\t\(row.exercise)\t\(optional(set.reps))\t")
                buffer.writeString(
                    "\(optional(set.weight?.kilograms))\t\(optional(set.durationSeconds))\t\(optional(set.distanceMetres))\t")
                buffer.writeString("\(set.kind.storageCode)\t\(optional(set.rpe))\t\(optional(set.rir))\t\(optional(set.loadMultiplier))\t")
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
        if let row = try await db.raw(
            """
            SELECT row_id FROM exercises WHERE user_id = \(bind: user.rawValue) AND name_key = \(bind: key)
            """
        ).first() {
            return try row.decode(column: "row_id", as: Int64.self)
        }
        let version = try await reserveVersions(db, user: user)
        guard
            let row = try await db.raw(
                """
                INSERT INTO exercises (id, user_id, name, name_key, created_at_ms, updated_at_ms, version)
                VALUES (\(bind: bind(UUID.v7())), \(bind: user.rawValue), \(bind: name), \(bind: key), \(bind: createdAt), \(bind: createdAt),
                    \(bind: version))
                RETURNING row_id
                """
            ).first()
        else { throw CinnError(.internal, "the exercise could not be saved") }
        return try row.decode(column: "row_id", as: Int64.self)
    }
}
