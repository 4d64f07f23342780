import CinnCore
import Foundation
import SQLKit
import SQLiteNIO

/// A workout in a list: when, what, how much.
public struct WorkoutSummary: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var startedAt: Date
    public var utcOffsetSeconds: Int
    public var name: String
    public var source: String
    public var durationSeconds: Double?
    /// A health export's totals for a workout without sets (a run, a ride).
    public var distanceMeters: Double?
    public var energyKcal: Double?
    public var setCount: Int
    /// Σ weight × reps of its sets, warm-ups left out.
    public var volume: Mass
    /// Its exercises in the order first done.
    public var exercises: [String]

    public var localDate: LocalDate { LocalDate(instant: startedAt, utcOffsetSeconds: utcOffsetSeconds) }
}

/// A stored workout with its sets.
public struct StoredWorkout: Sendable, Hashable {
    public var workout: Workout
    public var durationSeconds: Double?
    public var distanceMeters: Double?
    public var energyKcal: Double?
    public var note: String?
    /// Being logged: started and not yet finished.
    public var inProgress: Bool
    /// The exercises it still has to do (from a routine, or added and not yet done).
    public var plan: [PlannedExercise]

    public init(
        workout: Workout, durationSeconds: Double? = nil, distanceMeters: Double? = nil, energyKcal: Double? = nil,
        note: String? = nil, inProgress: Bool = false, plan: [PlannedExercise] = []
    ) {
        self.workout = workout
        self.durationSeconds = durationSeconds
        self.distanceMeters = distanceMeters
        self.energyKcal = energyKcal
        self.note = note
        self.inProgress = inProgress
        self.plan = plan
    }
}

extension Store {
    /// The user's exercises (aliases included), each with the last day it was done.
    public func exercises(user: UserID) async throws -> [StoredExercise] {
        try await withConnection { db in
            try await db.raw(
                """
                SELECT e.row_id, e.id, e.name, e.alias_of,
                    (SELECT MAX(d.local_day) FROM exercise_days d WHERE d.exercise_id = e.row_id) AS last_day
                FROM exercises e WHERE e.user_id = \(bind: user.rawValue) AND e.deleted = 0 ORDER BY e.name
                """
            ).all().map { row in
                StoredExercise(
                    rowID: try row.decode(column: "row_id", as: Int64.self), id: try decodeUUID(row, "id"),
                    name: try row.decode(column: "name", as: String.self),
                    aliasOf: try row.decode(column: "alias_of", as: Int64?.self),
                    lastDay: try row.decode(column: "last_day", as: Int?.self).map(LocalDate.init(dayNumber:)))
            }
        }
    }

    /// The sets of `user`'s exercises `rows` within `days`, grouped by day, reps and kind; every
    /// exercise of every user when both are nil. Read through the workouts of those days (the
    /// `workouts_day` index) and their sets.
    func setGroups(
        _ connection: Connection, user: UserID?, exerciseRows rows: [Int64]?, days: ClosedRange<Int>,
        loadMultipliers: Bool = true
    ) async throws -> [Int64: [SetGroup]] {
        let exercises = rows.map { " AND s.exercise_id IN (\($0.map(String.init).joined(separator: ",")))" } ?? ""
        let sql = """
            SELECT s.exercise_id, w.local_day, s.reps, s.kind, MAX(s.weight_kg) AS heaviest, COUNT(*) AS sets,
                SUM(COALESCE(s.weight_kg * s.reps\(loadMultipliers ? " * COALESCE(s.load_multiplier, 1)" : ""), 0)) AS volume
            FROM workouts w JOIN workout_sets s ON s.workout_id = w.row_id
            WHERE w.deleted = 0 AND w.local_day BETWEEN ? AND ?\(user == nil ? "" : " AND w.user_id = ?")\(exercises)
            GROUP BY s.exercise_id, w.local_day, s.reps, s.kind
            """
        let binds = [days.lowerBound, days.upperBound] + (user.map { [Int($0.rawValue)] } ?? [])
        var groups: [Int64: [SetGroup]] = [:]
        for row in try await numberRows(connection, sql, binds, columns: 7) {
            guard let exercise = row[0], let day = row[1], let kindCode = row[3], let kind = SetKind(storageCode: Int(kindCode)),
                let sets = row[5]
            else { continue }
            groups[Int64(exercise), default: []].append(
                SetGroup(
                    day: LocalDate(dayNumber: Int(day)), reps: row[2].map { Int($0) }, kind: kind,
                    heaviest: row[4].map(Mass.init(kilograms:)), sets: Int(sets), volume: Mass(kilograms: row[6] ?? 0)))
        }
        return groups
    }

    /// The rows of a query whose columns are all numbers (or NULL), by position. On SQLite they are
    /// collected on its thread without SQLKit's decoding.
    func numberRows(_ connection: Connection, _ sql: String, _ binds: [Int], columns: Int) async throws -> [[Double?]] {
        if let sqlite = connection.sqlite {
            return try await rows(sqlite, sql, binds.map { .integer($0) }).map { row in
                row.columns.prefix(columns).map { column in column.data.double }
            }
        }
        return try await connection.sql.raw(Self.query(sql, binds)).all().map { row in
            row.allColumns.prefix(columns).map { column in
                (try? row.decode(column: column, as: Double?.self)) ?? (try? row.decode(column: column, as: Int64?.self))?.map(Double.init)
            }
        }
    }

    /// The workout a lifted set of `user`'s exercises `rows` belongs to (the first such set), if any.
    public func workoutID(user: UserID, exerciseRows rows: [Int64], set: LiftedSet) async throws -> UUID? {
        guard !rows.isEmpty else { return nil }
        return try await withConnection { db in
            var query = SQLQueryString(
                """
                SELECT w.id FROM workouts w JOIN workout_sets s ON s.workout_id = w.row_id
                WHERE w.user_id = \(bind: user.rawValue) AND w.deleted = 0 AND w.local_day = \(bind: set.day.dayNumber) AND s.exercise_id IN (
                """)
            for (index, row) in rows.enumerated() { query += (index == 0 ? "" : ",") + "\(bind: row)" }
            query += """
                ) AND s.reps = \(bind: set.reps) AND s.weight_kg = \(bind: set.weight.kilograms) AND s.kind = \(bind: set.kind.storageCode)
                ORDER BY s.workout_id, s.position LIMIT 1
                """
            guard let row = try await db.raw(query).first() else { return nil }
            return try decodeUUID(row, "id")
        }
    }

    /// Makes exercise `alias` a name of exercise `target` (and of nothing else), so their sets count as one exercise.
    public func mergeExercise(_ alias: UUID, into target: UUID, user: UserID) async throws {
        try await transaction { db in
            let rows = try await db.raw(
                """
                SELECT row_id, id, alias_of FROM exercises WHERE user_id = \(bind: user.rawValue) AND deleted = 0
                    AND id IN (\(bind: bind(alias)), \(bind: bind(target)))
                """
            ).all()
            let byID = Dictionary(
                try rows.map {
                    (
                        try decodeUUID($0, "id"),
                        (
                            try $0.decode(column: "row_id", as: Int64.self),
                            try $0.decode(column: "alias_of", as: Int64?.self)
                        )
                    )
                },
                uniquingKeysWith: { first, _ in first })
            guard let aliasRow = byID[alias] else { throw CinnError.notFound("no exercise \(alias.lowercasedString)") }
            guard let targetRow = byID[target] else { throw CinnError.notFound("no exercise \(target.lowercasedString)") }
            guard alias != target else { throw CinnError.invalid("target", "an exercise cannot be an alias of itself") }
            // Merging into an alias merges into what it is an alias of.
            let root = targetRow.1 ?? targetRow.0
            guard root != aliasRow.0 else { throw CinnError.invalid("target", "that exercise is already an alias of this one") }
            let version = try await reserveVersions(db, user: user)
            let time = milliseconds(now())
            try await db.raw(
                """
                UPDATE exercises SET alias_of = \(bind: root), version = \(bind: version), updated_at_ms = \(bind: time)
                WHERE user_id = \(bind: user.rawValue) AND (row_id = \(bind: aliasRow.0) OR alias_of = \(bind: aliasRow.0))
                """
            ).run()
        }
    }

    /// Makes exercise `alias` its own exercise again.
    public func separateExercise(_ alias: UUID, user: UserID) async throws {
        try await transaction { db in
            let version = try await reserveVersions(db, user: user)
            let updated = try await db.raw(
                """
                UPDATE exercises SET alias_of = NULL, version = \(bind: version), updated_at_ms = \(bind: milliseconds(now()))
                WHERE user_id = \(bind: user.rawValue) AND id = \(bind: bind(alias)) AND deleted = 0 RETURNING row_id
                """
            ).all()
            guard !updated.isEmpty else { throw CinnError.notFound("no exercise \(alias.lowercasedString)") }
        }
    }

    /// The user's workouts, newest first, `limit` of them after skipping `offset`.
    public func workouts(user: UserID, limit: Int, offset: Int = 0) async throws -> [WorkoutSummary] {
        try await withConnection { db in
            let rows = try await db.raw(
                """
                WITH page AS (
                    SELECT row_id, id, started_at_ms, utc_offset_s, name, source, duration_s, distance_m, energy_kcal FROM workouts
                    WHERE user_id = \(bind: user.rawValue) AND deleted = 0
                    ORDER BY started_at_ms DESC, row_id DESC LIMIT \(bind: limit) OFFSET \(bind: offset))
                SELECT p.row_id, p.id, p.started_at_ms, p.utc_offset_s, p.name, p.source, p.duration_s, p.distance_m, p.energy_kcal,
                    COUNT(s.position) AS sets,
                    SUM(CASE WHEN s.kind = 1 THEN 0 ELSE COALESCE(s.weight_kg * s.reps * COALESCE(s.load_multiplier, 1), 0) END) AS volume
                FROM page p LEFT JOIN workout_sets s ON s.workout_id = p.row_id
                GROUP BY p.row_id, p.id, p.started_at_ms, p.utc_offset_s, p.name, p.source, p.duration_s, p.distance_m, p.energy_kcal
                ORDER BY p.started_at_ms DESC, p.row_id DESC
                """
            ).all()
            guard !rows.isEmpty else { return [] }
            var summaries: [Int64: WorkoutSummary] = [:]
            var order: [Int64] = []
            for row in rows {
                let rowID = try row.decode(column: "row_id", as: Int64.self)
                order.append(rowID)
                summaries[rowID] = WorkoutSummary(
                    id: try decodeUUID(row, "id"), startedAt: date(milliseconds: try row.decode(column: "started_at_ms", as: Int64.self)),
                    utcOffsetSeconds: try row.decode(column: "utc_offset_s", as: Int.self),
                    name: try row.decode(column: "name", as: String.self),
                    source: try row.decode(column: "source", as: String.self),
                    durationSeconds: try row.decode(column: "duration_s", as: Double?.self),
                    distanceMeters: try row.decode(column: "distance_m", as: Double?.self),
                    energyKcal: try row.decode(column: "energy_kcal", as: Double?.self),
                    setCount: try row.decode(column: "sets", as: Int.self),
                    volume: Mass(kilograms: try row.decode(column: "volume", as: Double?.self) ?? 0), exercises: [])
            }
            var query = SQLQueryString(
                """
                SELECT s.workout_id, e.name, MIN(s.position) AS first FROM workout_sets s JOIN exercises e ON e.row_id = s.exercise_id
                WHERE s.workout_id IN (
                """)
            for (index, rowID) in order.enumerated() { query += (index == 0 ? "" : ",") + "\(bind: rowID)" }
            query += ") GROUP BY s.workout_id, e.name ORDER BY s.workout_id, first"
            for row in try await db.raw(query).all() {
                summaries[try row.decode(column: "workout_id", as: Int64.self)]?.exercises.append(
                    try row.decode(column: "name", as: String.self))
            }
            return order.compactMap { summaries[$0] }
        }
    }

    /// How many workouts the user has.
    public func workoutCount(user: UserID) async throws -> Int {
        try await withConnection { db in
            try await db.raw("SELECT COUNT(*) AS n FROM workouts WHERE user_id = \(bind: user.rawValue) AND deleted = 0")
                .first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }

    /// One workout with its sets in order, or nil.
    public func workout(id: UUID, user: UserID) async throws -> StoredWorkout? {
        try await withConnection { db in try await workout(db, id: id, user: user) }
    }

    /// One workout with its sets, read on `db` (locked for the transaction's update on PostgreSQL when `forUpdate`).
    func workout(_ db: any SQLDatabase, id: UUID, user: UserID, forUpdate: Bool = false) async throws -> StoredWorkout? {
        guard
            let row = try await db.raw(
                """
                SELECT row_id, id, started_at_ms, utc_offset_s, name, duration_s, distance_m, energy_kcal, note, source, external_id, import_id,
                    in_progress, plan
                FROM workouts
                WHERE id = \(bind: bind(id)) AND user_id = \(bind: user.rawValue) AND deleted = 0\(unsafeRaw: forUpdate && !isSQLite ? " FOR UPDATE" : "")
                """
            ).first()
        else { return nil }
        let rowID = try row.decode(column: "row_id", as: Int64.self)
        let sets = try await workoutSets(db, workoutRow: rowID)
        let workout = Workout(
            id: try decodeUUID(row, "id"),
            startedAt: date(milliseconds: try row.decode(column: "started_at_ms", as: Int64.self)),
            utcOffsetSeconds: try row.decode(column: "utc_offset_s", as: Int.self),
            name: try row.decode(column: "name", as: String.self), sets: sets,
            source: try row.decode(column: "source", as: String.self),
            externalID: try row.decode(column: "external_id", as: String?.self),
            importID: try row.decode(column: "import_id", as: Int64?.self))
        return StoredWorkout(
            workout: workout, durationSeconds: try row.decode(column: "duration_s", as: Double?.self),
            distanceMeters: try row.decode(column: "distance_m", as: Double?.self),
            energyKcal: try row.decode(column: "energy_kcal", as: Double?.self),
            note: try row.decode(column: "note", as: String?.self),
            inProgress: try row.decode(column: "in_progress", as: Int?.self) == 1,
            plan: try row.decode(column: "plan", as: String?.self).flatMap(WorkoutPlan.plan(storageText:)) ?? [])
    }

    /// A workout's sets in order, or only those of exercise `rows`.
    func workoutSets(_ db: any SQLDatabase, workoutRow: Int64, exerciseRows rows: [Int64]? = nil) async throws -> [WorkoutSet] {
        let exercises = rows.map { " AND s.exercise_id IN (\($0.map(String.init).joined(separator: ",")))" } ?? ""
        return try await db.raw(
            """
            SELECT e.name, s.reps, s.weight_kg, s.duration_s, s.distance_m, s.kind, s.rpe, s.rir, s.note, s.load_multiplier
            FROM workout_sets s JOIN exercises e ON e.row_id = s.exercise_id
            WHERE s.workout_id = \(bind: workoutRow)\(unsafeRaw: exercises) ORDER BY s.position
            """
        ).all().map { set in
            WorkoutSet(
                exercise: try set.decode(column: "name", as: String.self), reps: try set.decode(column: "reps", as: Int?.self),
                weight: try set.decode(column: "weight_kg", as: Double?.self).map(Mass.init(kilograms:)),
                durationSeconds: try set.decode(column: "duration_s", as: Double?.self),
                distanceMetres: try set.decode(column: "distance_m", as: Double?.self),
                kind: SetKind(storageCode: try set.decode(column: "kind", as: Int.self)) ?? .normal,
                rpe: try set.decode(column: "rpe", as: Double?.self), rir: try set.decode(column: "rir", as: Int?.self),
                note: try set.decode(column: "note", as: String?.self),
                loadMultiplier: try set.decode(column: "load_multiplier", as: Double?.self))
        }
    }

    /// Deletes a workout (its sets go with it; a tombstone remains for sync).
    public func deleteWorkout(id: UUID, user: UserID) async throws {
        try await rawTransaction { connection in
            let db = connection.sql
            let version = try await reserveVersions(db, user: user)
            guard
                let row = try await db.raw(
                    """
                    UPDATE workouts SET deleted = 1, version = \(bind: version), updated_at_ms = \(bind: milliseconds(now()))
                    WHERE id = \(bind: bind(id)) AND user_id = \(bind: user.rawValue) AND deleted = 0 RETURNING row_id, local_day
                    """
                ).first()
            else { throw CinnError.notFound("no workout \(id.lowercasedString)") }
            let rowID = try row.decode(column: "row_id", as: Int64.self), day = try row.decode(column: "local_day", as: Int.self)
            let exercises = try await db.raw("DELETE FROM workout_sets WHERE workout_id = \(bind: rowID) RETURNING exercise_id").all()
                .map { try $0.decode(column: "exercise_id", as: Int64.self) }
            try await refreshExerciseDays(connection, user: user, exercises: Array(Set(exercises)), days: day...day)
        }
    }
}
