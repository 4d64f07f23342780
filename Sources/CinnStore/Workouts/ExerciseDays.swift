import CinnCore
import Foundation
import NIOCore
import SQLKit
import SQLiteNIO

/// `exercise_days` holds each exercise's days as `ExerciseDay`s: derived from `workout_sets`, so an
/// exercise page reads a row per day instead of every set. Whatever writes sets keeps it up to date:
/// an import merges its days in, a deletion computes the days it touched again from their sets.
extension Store {
    /// The stored days of exercises `rows` (on or after `from`; only those with lifts when `withLiftsOnly`), oldest first.
    public func exerciseDays(exerciseRows rows: [Int64], from: LocalDate? = nil, withLiftsOnly: Bool = false) async throws -> [Int64:
        [ExerciseDay]]
    {
        guard !rows.isEmpty else { return [:] }
        return try await withRawConnection { connection in
            try await exerciseDays(
                connection, exerciseRows: rows, days: (from?.dayNumber ?? Self.firstDay)...Self.lastDay,
                withLiftsOnly: withLiftsOnly)
        }
    }

    /// Computes the days of `user`'s `exercises` within `days` again from their sets (every exercise of
    /// every user when both are nil). `loadMultipliers`: false for a schema older than migration 25, whose sets have none.
    func refreshExerciseDays(
        _ connection: Connection, user: UserID?, exercises: [Int64]?,
        days: ClosedRange<Int> = firstDay...lastDay, loadMultipliers: Bool = true
    ) async throws {
        if let exercises, exercises.isEmpty { return }
        let groups = try await setGroups(connection, user: user, exerciseRows: exercises, days: days, loadMultipliers: loadMultipliers)
        var delete = SQLQueryString(
            "DELETE FROM exercise_days WHERE local_day BETWEEN \(bind: days.lowerBound) AND \(bind: days.upperBound)")
        if let exercises {
            let list = exercises.map(String.init).joined(separator: ",")
            delete += SQLQueryString(" AND exercise_id IN (\(unsafeRaw: list))")
        }
        try await connection.sql.raw(delete).run()
        try await writeExerciseDays(
            connection,
            groups.flatMap { exercise, groups in
                ExerciseDay.days(from: groups).map { (exercise, $0) }
            })
    }

    /// Adds `days` (an import's, by exercise row) to the stored days.
    func mergeExerciseDays(_ connection: Connection, _ days: [Int64: [Int: ExerciseDay]]) async throws {
        guard !days.isEmpty else { return }
        let dayNumbers = days.values.flatMap(\.keys)
        guard let first = dayNumbers.min(), let last = dayNumbers.max() else { return }
        var merged = days
        for (exercise, stored) in try await exerciseDays(connection, exerciseRows: Array(days.keys), days: first...last) {
            for day in stored { merged[exercise]?[day.day.dayNumber]?.merge(day) }
        }
        // In key order, so that SQLite appends to the table's B-tree instead of splitting pages all over it.
        try await writeExerciseDays(
            connection,
            merged.sorted { $0.key < $1.key }.flatMap { exercise, days in
                days.sorted { $0.key < $1.key }.map { (exercise, $0.value) }
            })
    }

    static let firstDay = Int(Int32.min)
    static let lastDay = Int(Int32.max)

    private func exerciseDays(
        _ connection: Connection, exerciseRows rows: [Int64], days: ClosedRange<Int>,
        withLiftsOnly: Bool = false
    ) async throws -> [Int64: [ExerciseDay]] {
        let sql = """
            SELECT exercise_id, local_day, sets, work_sets, volume_kg, lifts FROM exercise_days
            WHERE exercise_id IN (\(rows.map(String.init).joined(separator: ","))) AND local_day BETWEEN ? AND ?\(withLiftsOnly ? " AND length(lifts) > 0" : "")
            ORDER BY exercise_id, local_day
            """
        var result: [Int64: [ExerciseDay]] = [:]
        func add(_ exercise: Int64, _ day: Int, _ sets: Int, _ workSets: Int, _ volume: Double, _ lifts: UnsafeRawBufferPointer) {
            let date = LocalDate(dayNumber: day)
            result[exercise, default: []].append(
                ExerciseDay(
                    day: date, sets: sets, workSets: workSets, volume: Mass(kilograms: volume),
                    lifts: Self.lifts(lifts, day: date)))
        }
        if let sqlite = connection.sqlite {
            for row in try await self.rows(sqlite, sql, [.integer(days.lowerBound), .integer(days.upperBound)]) {
                let columns = row.columns
                guard case .blob(let lifts) = columns[5].data else { throw CinnError(.internal, "a stored exercise day is damaged") }
                lifts.withUnsafeReadableBytes { lifts in
                    add(
                        Int64(columns[0].data.integer ?? 0), columns[1].data.integer ?? 0, columns[2].data.integer ?? 0,
                        columns[3].data.integer ?? 0, columns[4].data.double ?? 0, lifts)
                }
            }
        } else {
            for row in try await connection.sql.raw(Self.query(sql, [days.lowerBound, days.upperBound])).all() {
                let exercise = try row.decode(column: "exercise_id", as: Int64.self),
                    day = try row.decode(column: "local_day", as: Int.self)
                let sets = try row.decode(column: "sets", as: Int.self), workSets = try row.decode(column: "work_sets", as: Int.self)
                let volume = try row.decode(column: "volume_kg", as: Double.self)
                try row.decode(column: "lifts", as: Data.self).withUnsafeBytes { add(exercise, day, sets, workSets, volume, $0) }
            }
        }
        return result
    }

    /// Rows per statement on PostgreSQL (six values each) and per prepared statement on SQLite.
    private static let dayRowsPerStatement = 500, sqliteDayRowsPerStatement = 50

    /// Writes `days`, replacing those stored for the same exercise and day: on SQLite through prepared
    /// statements (`SQLiteBulkInsert`), as an import writes a day for every exercise and day it holds.
    private func writeExerciseDays(_ connection: Connection, _ days: [(exercise: Int64, day: ExerciseDay)]) async throws {
        let columns = ["exercise_id", "local_day", "sets", "work_sets", "volume_kg", "lifts"]
        let conflict = """
             ON CONFLICT (exercise_id, local_day) DO UPDATE SET sets = excluded.sets, work_sets = excluded.work_sets,
                volume_kg = excluded.volume_kg, lifts = excluded.lifts
            """
        if let sqlite = connection.sqlite {
            let insert = try SQLiteBulkInsert(
                sqlite, table: "exercise_days", columns: columns,
                rowsPerStatement: Self.sqliteDayRowsPerStatement, suffix: conflict)
            defer { insert.finish() }
            try insert.insert(count: days.count) { n, binder in
                let (exercise, day) = days[n]
                binder.bind(Int(exercise))
                binder.bind(day.day.dayNumber)
                binder.bind(day.sets)
                binder.bind(day.workSets)
                binder.bind(day.volume.kilograms)
                binder.bind(bytes: Self.liftBytes(day.lifts))
            }
            return
        }
        for start in stride(from: 0, to: days.count, by: Self.dayRowsPerStatement) {
            var query = SQLQueryString("INSERT INTO exercise_days (" + columns.joined(separator: ", ") + ") VALUES ")
            for (index, row) in days[start..<min(start + Self.dayRowsPerStatement, days.count)].enumerated() {
                let day = row.day
                query +=
                    (index == 0 ? "" : ", ") + """
                        (\(bind: row.exercise), \(bind: day.day.dayNumber), \(bind: day.sets), \(bind: day.workSets), \(bind: day.volume.kilograms),
                        \(bind: Data(Self.liftBytes(day.lifts))))
                        """
            }
            query += SQLQueryString(conflict)
            try await connection.sql.raw(query).run()
        }
    }

    /// A day's lifts as stored: 11 bytes each, little-endian: reps (16 bits), kind (8 bits, as in
    /// `workout_sets.kind`) and kilograms (a 64-bit float). Read back without parsing text, as an
    /// exercise page reads a row for each of thousands of days.
    static func liftBytes(_ lifts: [LiftedSet]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lifts.count * 11)
        for lift in lifts {
            let reps = UInt16(clamping: lift.reps)
            bytes += [UInt8(truncatingIfNeeded: reps), UInt8(truncatingIfNeeded: reps >> 8), UInt8(lift.kind.storageCode)]
            withUnsafeBytes(of: lift.weight.kilograms.bitPattern.littleEndian) { bytes += $0 }
        }
        return bytes
    }

    static func lifts(_ bytes: UnsafeRawBufferPointer, day: LocalDate) -> [LiftedSet] {
        var lifts: [LiftedSet] = []
        lifts.reserveCapacity(bytes.count / 11)
        for offset in stride(from: 0, to: bytes.count - 10, by: 11) {
            guard let kind = SetKind(storageCode: Int(bytes[offset + 2])) else { continue }
            let reps = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
            let bits = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 3, as: UInt64.self))
            lifts.append(LiftedSet(day: day, weight: Mass(kilograms: Double(bitPattern: bits)), reps: reps, kind: kind))
        }
        return lifts
    }
}
