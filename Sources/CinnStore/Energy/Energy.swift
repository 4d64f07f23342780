import CinnCore
import Foundation
import SQLKit

/// Everything an energy read needs, read on one connection.
public struct EnergyInputs: Sendable {
    public var settings: UserSettings
    public var goal: Goal?
    public var days: [DailyWeight]
    /// kcal eaten per logged day.
    public var intakeKcal: [LocalDate: Double]
    public var dayStatuses: [LocalDate: DayStatus]
    public var latestBodyFat: BodyFatReading?
    /// Exercise energy per day, where known.
    public var exerciseKcal: [LocalDate: Double]

    /// The intake of the days marked complete (a complete day without entries ate nothing).
    public var completeDayIntakeKcal: [LocalDate: Double] { DayStatus.completeDayIntake(intakeKcal, statuses: dayStatuses) }
}

extension Store {
    /// - Parameters:
    ///   - from: the first day whose intake, marks and exercise are read (all when nil); the weigh-ins
    ///     are always read whole, since the trend starts at the first.
    ///   - to: the last such day (all when nil).
    public func energyInputs(user: UserID, from: LocalDate? = nil, to: LocalDate? = nil) async throws -> EnergyInputs {
        let first = from?.dayNumber ?? Int.min
        let last = to?.dayNumber ?? Int.max
        return try await withRawConnection { connection in
            let db = connection.sql
            let range = [Int(user.rawValue), first, last]
            var intake: [LocalDate: Double] = [:]
            for (day, value) in try await dayRows(
                connection,
                """
                SELECT local_day, SUM(energy_kcal) AS value FROM food_entries
                WHERE user_id = ? AND deleted = 0 AND local_day >= ? AND local_day <= ? GROUP BY local_day
                """, range)
            {
                if let kcal = value.number { intake[day] = kcal }
            }
            var exercise: [LocalDate: Double] = [:]
            for (day, value) in try await dayRows(
                connection,
                """
                SELECT local_day, SUM(energy_kcal) AS value FROM exercise_entries
                WHERE user_id = ? AND deleted = 0 AND energy_kcal IS NOT NULL AND local_day >= ? AND local_day <= ? GROUP BY local_day
                """, range)
            {
                if let kcal = value.number { exercise[day] = kcal }
            }
            return EnergyInputs(
                settings: try await settings(db, user: user), goal: try await goal(db, user: user),
                days: try await dailyWeights(connection, user: user), intakeKcal: intake,
                dayStatuses: try await dayStatuses(connection, user: user, from: first, to: last),
                latestBodyFat: try await latestBodyFat(db, user: user), exerciseKcal: exercise)
        }
    }

    /// A value of `dayRows`: a number or a text.
    struct DayValue {
        var number: Double?
        var text: String?
    }

    /// The rows of a query whose columns are `local_day` and `value`, with `?` for each of `binds`. On
    /// SQLite they are collected on its thread without SQLKit's decoding (energy reads run on every
    /// dashboard and day view, over hundreds of days).
    func dayRows(_ connection: Connection, _ sql: String, _ binds: [Int]) async throws -> [(LocalDate, DayValue)] {
        if let sqlite = connection.sqlite {
            return try await rows(sqlite, sql, binds.map { .integer($0) }).compactMap { row in
                guard let day = row.column("local_day")?.integer, let value = row.column("value") else { return nil }
                return (LocalDate(dayNumber: day), DayValue(number: value.double, text: value.string))
            }
        }
        return try await connection.sql.raw(Self.query(sql, binds)).all().map { row in
            let day = LocalDate(dayNumber: try row.decode(column: "local_day", as: Int.self))
            return (
                day,
                DayValue(
                    number: try? row.decode(column: "value", as: Double?.self),
                    text: try? row.decode(column: "value", as: String?.self))
            )
        }
    }

    /// `sql` with each `?` bound to the next of `binds`, for SQLKit (the SQLite fast paths take `?` themselves).
    static func query(_ sql: String, _ binds: [Int]) -> SQLQueryString {
        let parts = sql.split(separator: "?", omittingEmptySubsequences: false)
        var query = SQLQueryString(String(parts[0]))
        for (bind, part) in zip(binds, parts.dropFirst()) { query += "\(bind: bind)" + SQLQueryString(String(part)) }
        return query
    }

    // MARK: - Day status

    /// Marks a day complete or partial; nil clears the mark.
    public func setDayStatus(_ status: DayStatus?, on day: LocalDate, user: UserID) async throws {
        try await transaction { db in
            let version = try await reserveVersions(db, user: user)
            let time = milliseconds(now())
            guard let status else {
                try await db.raw(
                    """
                    UPDATE food_days SET deleted = 1, version = \(bind: version), updated_at_ms = \(bind: time)
                    WHERE user_id = \(bind: user.rawValue) AND local_day = \(bind: day.dayNumber) AND deleted = 0
                    """
                ).run()
                return
            }
            try await db.raw(
                """
                INSERT INTO food_days (id, user_id, local_day, status, created_at_ms, updated_at_ms, version)
                VALUES (\(bind: bind(.v7(at: now()))), \(bind: user.rawValue), \(bind: day.dayNumber), \(bind: status.rawValue),
                        \(bind: time), \(bind: time), \(bind: version))
                ON CONFLICT (user_id, local_day) DO UPDATE SET status = excluded.status, deleted = 0,
                    version = excluded.version, updated_at_ms = excluded.updated_at_ms
                """
            ).run()
        }
    }

    /// The marked days in `from...to` (or all).
    public func dayStatuses(user: UserID, from: LocalDate? = nil, to: LocalDate? = nil) async throws -> [LocalDate: DayStatus] {
        try await withRawConnection { connection in
            try await dayStatuses(connection, user: user, from: from?.dayNumber ?? Int.min, to: to?.dayNumber ?? Int.max)
        }
    }

    func dayStatuses(_ connection: Connection, user: UserID, from: Int, to: Int) async throws -> [LocalDate: DayStatus] {
        var statuses: [LocalDate: DayStatus] = [:]
        for (day, value) in try await dayRows(
            connection,
            """
            SELECT local_day, status AS value FROM food_days
            WHERE user_id = ? AND deleted = 0 AND local_day >= ? AND local_day <= ?
            """, [Int(user.rawValue), from, to])
        {
            if let status = value.text.flatMap(DayStatus.init(rawValue:)) { statuses[day] = status }
        }
        return statuses
    }

    // MARK: - Body fat

    public func addBodyFat(_ reading: BodyFatReading, user: UserID) async throws {
        try await transaction { db in
            let version = try await reserveVersions(db, user: user)
            let time = milliseconds(now())
            try await db.raw(
                """
                INSERT INTO body_fat_readings (id, user_id, measured_at_ms, utc_offset_s, local_day, fraction, source,
                    created_at_ms, updated_at_ms, version)
                VALUES (\(bind: bind(reading.id)), \(bind: user.rawValue), \(bind: milliseconds(reading.measuredAt)),
                        \(bind: reading.utcOffsetSeconds), \(bind: reading.localDate.dayNumber), \(bind: reading.fraction), 'manual',
                        \(bind: time), \(bind: time), \(bind: version))
                """
            ).run()
        }
    }

    public func latestBodyFat(user: UserID) async throws -> BodyFatReading? {
        try await withConnection { try await latestBodyFat($0, user: user) }
    }

    func latestBodyFat(_ db: any SQLDatabase, user: UserID) async throws -> BodyFatReading? {
        guard
            let row = try await db.raw(
                """
                SELECT id, measured_at_ms, utc_offset_s, fraction FROM body_fat_readings
                WHERE user_id = \(bind: user.rawValue) AND deleted = 0 ORDER BY measured_at_ms DESC, row_id DESC LIMIT 1
                """
            ).first()
        else { return nil }
        return BodyFatReading(
            id: try decodeUUID(row, "id"),
            measuredAt: date(milliseconds: try row.decode(column: "measured_at_ms", as: Int64.self)),
            utcOffsetSeconds: try row.decode(column: "utc_offset_s", as: Int.self),
            fraction: try row.decode(column: "fraction", as: Double.self))
    }

    // MARK: - Exercise

    /// The exercise entries of the days in `from...to`, in time order.
    public func exerciseEntries(user: UserID, from: LocalDate, to: LocalDate) async throws -> [ExerciseEntry] {
        try await withConnection { db in
            try await db.raw(
                """
                SELECT id, performed_at_ms, utc_offset_s, name, kind, energy_kcal, minutes, sets, reps_per_set, weight_kg, steps,
                    note, source, external_id, import_id
                FROM exercise_entries
                WHERE user_id = \(bind: user.rawValue) AND deleted = 0
                  AND local_day >= \(bind: from.dayNumber) AND local_day <= \(bind: to.dayNumber)
                ORDER BY performed_at_ms, row_id
                """
            ).all().map { row in
                ExerciseEntry(
                    id: try decodeUUID(row, "id"),
                    performedAt: date(milliseconds: try row.decode(column: "performed_at_ms", as: Int64.self)),
                    utcOffsetSeconds: try row.decode(column: "utc_offset_s", as: Int.self),
                    name: try row.decode(column: "name", as: String.self),
                    kind: ExerciseKind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .cardio,
                    energyKcal: try row.decode(column: "energy_kcal", as: Double?.self),
                    minutes: try row.decode(column: "minutes", as: Double?.self),
                    sets: try row.decode(column: "sets", as: Int?.self),
                    repsPerSet: try row.decode(column: "reps_per_set", as: Int?.self),
                    weight: try row.decode(column: "weight_kg", as: Double?.self).map(Mass.init(kilograms:)),
                    steps: try row.decode(column: "steps", as: Int?.self),
                    note: try row.decode(column: "note", as: String?.self),
                    source: try row.decode(column: "source", as: String.self),
                    externalID: try row.decode(column: "external_id", as: String?.self),
                    importID: try row.decode(column: "import_id", as: Int64?.self))
            }
        }
    }

    func insertExercises(_ db: any SQLDatabase, _ entries: [ExerciseEntry], user: UserID) async throws {
        guard !entries.isEmpty else { return }
        let firstVersion = try await reserveVersions(db, user: user, count: entries.count)
        let time = milliseconds(now())
        try await insertRows(
            db, into: "exercise_entries",
            columns: [
                "id", "user_id", "performed_at_ms", "utc_offset_s", "local_day", "name", "kind", "energy_kcal", "minutes", "sets",
                "reps_per_set", "weight_kg", "steps", "note", "source", "external_id", "import_id", "created_at_ms", "updated_at_ms",
                "version",
            ],
            entries.enumerated().map { offset, entry in
                [
                    bind(entry.id), user.rawValue, milliseconds(entry.performedAt), entry.utcOffsetSeconds, entry.localDate.dayNumber,
                    entry.name, entry.kind.rawValue, entry.energyKcal, entry.minutes, entry.sets, entry.repsPerSet, entry.weight?.kilograms,
                    entry.steps, entry.note, entry.source, entry.externalID, entry.importID, time, time, firstVersion + Int64(offset),
                ]
            })
    }

    // MARK: - MyFitnessPal

    /// Imports a MyFitnessPal export as one batch (`journalImport`: on SQLite staged outside the write lock): food entries,
    /// weigh-ins and exercise entries whose external id this journal does not already hold. `read` reads the export,
    /// handing its values to `write` batch by batch, and returns the parse report. Undo removes all three.
    public func importMyFitnessPal(
        user: UserID, format: String, fileName: String?, mode: ImportMode,
        read: (_ write: (_ entries: [FoodLogEntry], _ weighIns: [ImportedWeighIn], _ exercises: [ExerciseEntry]) async throws -> Void)
            async throws -> ImportReport
    ) async throws -> ImportReport {
        try await journalImport(user: user, format: format, fileName: fileName, mode: mode) { writer in
            var ids = SplitMix64()
            let report = try await read { entries, weighIns, exercises in
                try await writer.insert(
                    .foodEntries,
                    entries.map { entry in
                        JournalRowWriter.Row(
                            id: entry.id, at: entry.eatenAt, utcOffsetSeconds: entry.utcOffsetSeconds,
                            values: Self.entryValues(entry), externalID: entry.externalID)
                    })
                try await writer.insert(
                    .exerciseEntries,
                    exercises.map { entry in
                        JournalRowWriter.Row(
                            id: entry.id, at: entry.performedAt, utcOffsetSeconds: entry.utcOffsetSeconds,
                            values: [
                                .text(entry.name), .text(entry.kind.rawValue), .real(entry.energyKcal), .real(entry.minutes),
                                .integer(entry.sets),
                                .integer(entry.repsPerSet), .real(entry.weight?.kilograms), .integer(entry.steps), .text(entry.note),
                            ],
                            externalID: entry.externalID)
                    })
                try await writer.insert(.weighIns, weighIns.map { .weighIn($0, ids: &ids) })
            }
            return (report, ())
        } finish: { _, _, _, _ in
        }
    }
}
