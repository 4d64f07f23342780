import CinnCore
import Foundation
import SQLKit
import SQLiteNIO

extension Store {
    static let weighInColumns = """
        id, measured_at_ms, utc_offset_s, weight_kg, note, source, external_id, import_id
        """

    func decodeWeighIn(_ row: any SQLRow) throws -> WeighIn {
        WeighIn(
            id: try decodeUUID(row, "id"),
            measuredAt: date(milliseconds: try row.decode(column: "measured_at_ms", as: Int64.self)),
            utcOffsetSeconds: try row.decode(column: "utc_offset_s", as: Int.self),
            weight: Mass(kilograms: try row.decode(column: "weight_kg", as: Double.self)),
            note: try row.decode(column: "note", as: String?.self),
            source: try row.decode(column: "source", as: String.self),
            externalID: try row.decode(column: "external_id", as: String?.self),
            importID: try row.decode(column: "import_id", as: Int64?.self))
    }

    /// Stores a new weigh-in. Its weight must already be checked (`Mass.bodyWeight`).
    @discardableResult
    public func addWeighIn(_ weighIn: WeighIn, user: UserID) async throws -> WeighIn {
        try await transaction { db in
            let version = try await reserveVersions(db, user: user)
            let time = milliseconds(now())
            try await db.raw(
                """
                INSERT INTO weigh_ins (id, user_id, measured_at_ms, utc_offset_s, local_day, weight_kg, note, source,
                    external_id, import_id, created_at_ms, updated_at_ms, version)
                VALUES (\(bind: bind(weighIn.id)), \(bind: user.rawValue), \(bind: milliseconds(weighIn.measuredAt)),
                    \(bind: weighIn.utcOffsetSeconds), \(bind: weighIn.localDate.dayNumber), \(bind: weighIn.weight.kilograms),
                    \(bind: weighIn.note), \(bind: weighIn.source), \(bind: weighIn.externalID), \(bind: weighIn.importID),
                    \(bind: time), \(bind: time), \(bind: version))
                """
            ).run()
            return weighIn
        }
    }

    /// One weigh-in of this user; another user's is "not found".
    public func weighIn(id: UUID, user: UserID) async throws -> WeighIn {
        try await withConnection { try await weighIn($0, id: id, user: user) }
    }

    func weighIn(_ db: any SQLDatabase, id: UUID, user: UserID) async throws -> WeighIn {
        guard
            let row = try await db.raw(
                """
                SELECT \(unsafeRaw: Self.weighInColumns) FROM weigh_ins
                WHERE id = \(bind: bind(id)) AND user_id = \(bind: user.rawValue) AND deleted = 0
                """
            ).first()
        else { throw CinnError.notFound("no weigh-in with id \(id)") }
        return try decodeWeighIn(row)
    }

    /// Changes a weigh-in's weight, time or note; nil leaves a part as it is. The read and the write
    /// are one transaction, so a concurrent edit of another part is not lost.
    @discardableResult
    public func updateWeighIn(
        id: UUID, user: UserID, weight: Mass? = nil,
        measuredAt: (instant: Date, utcOffsetSeconds: Int)? = nil,
        note: String?? = nil
    ) async throws -> WeighIn {
        try await transaction { db in
            var updated = try await weighIn(db, id: id, user: user)
            if let weight { updated.weight = weight }
            if let measuredAt {
                updated.measuredAt = measuredAt.instant
                updated.utcOffsetSeconds = measuredAt.utcOffsetSeconds
            }
            if let note { updated.note = note }
            let version = try await reserveVersions(db, user: user)
            try await db.raw(
                """
                UPDATE weigh_ins SET weight_kg = \(bind: updated.weight.kilograms),
                    measured_at_ms = \(bind: milliseconds(updated.measuredAt)), utc_offset_s = \(bind: updated.utcOffsetSeconds),
                    local_day = \(bind: updated.localDate.dayNumber), note = \(bind: updated.note),
                    updated_at_ms = \(bind: milliseconds(now())), version = \(bind: version)
                WHERE id = \(bind: bind(id)) AND user_id = \(bind: user.rawValue) AND deleted = 0
                """
            ).run()
            return updated
        }
    }

    /// Deletes one weigh-in (a tombstone remains for sync).
    public func deleteWeighIn(id: UUID, user: UserID) async throws {
        let count = try await tombstone("weigh_ins", user: user, condition: "id = \(bind: bind(id))")
        guard count > 0 else { throw CinnError.notFound("no weigh-in with id \(id)") }
    }

    /// Deletes every weigh-in of a local day and returns how many there were.
    @discardableResult
    public func deleteWeighIns(on date: LocalDate, user: UserID) async throws -> Int {
        try await tombstone("weigh_ins", user: user, condition: "local_day = \(bind: date.dayNumber)")
    }

    /// Weigh-ins of local days `from...to` (either end open), newest first.
    public func weighIns(
        user: UserID, from: LocalDate? = nil, to: LocalDate? = nil,
        limit: Int = 100, offset: Int = 0
    ) async throws -> [WeighIn] {
        try await withConnection { db in
            var query: SQLQueryString = """
                SELECT \(unsafeRaw: Self.weighInColumns) FROM weigh_ins WHERE user_id = \(bind: user.rawValue) AND deleted = 0
                """
            if let from { query += " AND local_day >= \(bind: from.dayNumber)" }
            if let to { query += " AND local_day <= \(bind: to.dayNumber)" }
            query += " ORDER BY measured_at_ms DESC, row_id DESC LIMIT \(bind: limit) OFFSET \(bind: offset)"
            return try await db.raw(query).all().map(decodeWeighIn)
        }
    }

    /// How many weigh-ins the user has.
    public func weighInCount(user: UserID) async throws -> Int {
        try await withConnection { db in
            try await db.raw("SELECT COUNT(*) AS n FROM weigh_ins WHERE user_id = \(bind: user.rawValue) AND deleted = 0")
                .first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }

    /// The mean weight of every local day with a weigh-in, in date order: the trend's input.
    public func dailyWeights(user: UserID) async throws -> [DailyWeight] {
        try await withRawConnection { try await dailyWeights($0, user: user) }
    }

    /// The daily means' query, around its one parameter (the user).
    static let dailyWeightsSQL = (
        "SELECT local_day, AVG(weight_kg) AS kg FROM weigh_ins WHERE user_id = ",
        " AND deleted = 0 GROUP BY local_day ORDER BY local_day"
    )

    /// On SQLite the rows are read without SQLKit's decoding: this runs on every trend read, over
    /// every day of the journal.
    func dailyWeights(_ connection: Connection, user: UserID) async throws -> [DailyWeight] {
        if let sqlite = connection.sqlite {
            let rows = try await sqlite.query(
                Self.dailyWeightsSQL.0 + "?" + Self.dailyWeightsSQL.1,
                [.integer(Int(user.rawValue))])
            return try rows.map { row in
                guard let day = row.column("local_day")?.integer, let kilograms = row.column("kg")?.double else {
                    throw CinnError(.internal, "a stored weigh-in is damaged")
                }
                return DailyWeight(date: LocalDate(dayNumber: day), weight: Mass(kilograms: kilograms))
            }
        }
        let query = SQLQueryString(Self.dailyWeightsSQL.0) + "\(bind: user.rawValue)" + SQLQueryString(Self.dailyWeightsSQL.1)
        return try await connection.sql.raw(query).all().map {
            DailyWeight(
                date: LocalDate(dayNumber: try $0.decode(column: "local_day", as: Int.self)),
                weight: Mass(kilograms: try $0.decode(column: "kg", as: Double.self)))
        }
    }

    /// Everything a trend read needs, from one connection: the settings, the goal and the daily means.
    public func trendInputs(user: UserID) async throws -> (settings: UserSettings, goal: Goal?, days: [DailyWeight]) {
        try await withRawConnection { connection in
            (
                try await settings(connection.sql, user: user), try await goal(connection.sql, user: user),
                try await dailyWeights(connection, user: user)
            )
        }
    }

    /// Every weigh-in, oldest first, handed over in batches so memory stays flat.
    public func forEachWeighIn(
        user: UserID, batchSize: Int = 5000,
        _ body: ([WeighIn]) async throws -> Void
    ) async throws {
        var after: (Int64, Int64) = (Int64.min, Int64.min)
        while true {
            let rows: [(WeighIn, Int64)] = try await withConnection { db in
                try await db.raw(
                    """
                    SELECT row_id, \(unsafeRaw: Self.weighInColumns) FROM weigh_ins
                    WHERE user_id = \(bind: user.rawValue) AND deleted = 0
                      AND (measured_at_ms > \(bind: after.0) OR (measured_at_ms = \(bind: after.0) AND row_id > \(bind: after.1)))
                    ORDER BY measured_at_ms, row_id LIMIT \(bind: batchSize)
                    """
                ).all().map { (try decodeWeighIn($0), try $0.decode(column: "row_id", as: Int64.self)) }
            }
            guard let last = rows.last else { return }
            try await body(rows.map(\.0))
            after = (milliseconds(last.0.measuredAt), last.1)
            if rows.count < batchSize { return }
        }
    }
}
