import CinnCore
import Foundation
import PostgresNIO
import SQLKit
import SQLiteNIO

/// Glucose readings, insulin doses, meal definitions and meal events: the study's records.
extension Store {
    // MARK: Glucose readings

    static let glucoseColumns =
        "id, measured_at_ms, utc_offset_s, mg_dl, timing, note, source, external_id, import_id, sensor, device, direction"

    func decodeGlucose(_ row: any SQLRow) throws -> GlucoseReading {
        GlucoseReading(
            id: try decodeUUID(row, "id"), measuredAt: date(milliseconds: try row.decode(column: "measured_at_ms", as: Int64.self)),
            utcOffsetSeconds: try row.decode(column: "utc_offset_s", as: Int.self),
            glucose: Glucose(milligramsPerDeciliter: try row.decode(column: "mg_dl", as: Double.self)),
            timing: try row.decode(column: "timing", as: String?.self).flatMap(MealTiming.init(rawValue:)),
            note: try row.decode(column: "note", as: String?.self), source: try row.decode(column: "source", as: String.self),
            externalID: try row.decode(column: "external_id", as: String?.self),
            importID: try row.decode(column: "import_id", as: Int64?.self), sensor: try row.decode(column: "sensor", as: Int.self) == 1,
            device: try row.decode(column: "device", as: String?.self),
            direction: try row.decode(column: "direction", as: String?.self).flatMap(GlucoseDirection.init(rawValue:)))
    }

    /// Stores readings (checked already) in one transaction.
    public func addGlucoseReadings(_ readings: [GlucoseReading], user: UserID) async throws {
        guard !readings.isEmpty else { return }
        try await transaction { db in
            let first = try await reserveVersions(db, user: user, count: readings.count)
            try await insertGlucoseReadings(db, readings, user: user, firstVersion: first, createdAt: milliseconds(now()))
        }
    }

    /// Rows built and written a chunk at a time: a year of CGM is 105,120 readings, and their rows as bind
    /// values would hold several times the readings' own memory.
    static let insertChunk = 5000

    /// Writes `readings` with the versions from `firstVersion` on (reserved by the caller), in `db`'s transaction.
    func insertGlucoseReadings(_ db: any SQLDatabase, _ readings: [GlucoseReading], user: UserID, firstVersion: Int64, createdAt: Int64)
        async throws
    {
        for start in stride(from: 0, to: readings.count, by: Self.insertChunk) {
            try await insertRows(
                db, into: "glucose_readings",
                columns: [
                    "id", "user_id", "measured_at_ms", "utc_offset_s", "local_day", "mg_dl", "timing", "note", "source", "external_id",
                    "import_id",
                    "sensor", "device", "direction", "created_at_ms", "updated_at_ms", "version",
                ],
                readings[start..<min(start + Self.insertChunk, readings.count)].enumerated().map { offset, reading in
                    [
                        bind(reading.id), user.rawValue, milliseconds(reading.measuredAt), reading.utcOffsetSeconds,
                        reading.localDate.dayNumber,
                        reading.glucose.milligramsPerDeciliter, reading.timing?.rawValue, reading.note, reading.source, reading.externalID,
                        reading.importID,
                        reading.sensor ? 1 : 0, reading.device, reading.direction?.rawValue, createdAt, createdAt,
                        firstVersion + Int64(start + offset),
                    ]
                })
        }
    }

    /// Readings of local days `from...to`, newest first.
    public func glucoseReadings(user: UserID, from: LocalDate? = nil, to: LocalDate? = nil, limit: Int = 100, offset: Int = 0) async throws
        -> [GlucoseReading]
    {
        try await withConnection { db in
            var query: SQLQueryString = """
                SELECT \(unsafeRaw: Self.glucoseColumns) FROM glucose_readings WHERE user_id = \(bind: user.rawValue) AND deleted = 0
                """
            if let from { query += " AND local_day >= \(bind: from.dayNumber)" }
            if let to { query += " AND local_day <= \(bind: to.dayNumber)" }
            query += " ORDER BY measured_at_ms DESC, row_id DESC LIMIT \(bind: limit) OFFSET \(bind: offset)"
            return try await db.raw(query).all().map(decodeGlucose)
        }
    }

    /// Every reading from `start` up to (not including) `end`, oldest first, as points: what reports and
    /// charts read. Both databases' rows are read without SQLKit's decoding: a month of CGM is 8,640 rows.
    public func glucosePoints(user: UserID, from start: Date, to end: Date) async throws -> [GlucosePoint] {
        try await withRawConnection { connection in
            let sql = """
                SELECT measured_at_ms, mg_dl FROM glucose_readings
                WHERE user_id = $1 AND deleted = 0 AND measured_at_ms >= $2 AND measured_at_ms < $3 ORDER BY measured_at_ms
                """
            if let sqlite = connection.sqlite {
                let rows = try await sqlite.query(
                    sql.replacingOccurrences(of: "$", with: "?"),
                    [.integer(Int(user.rawValue)), .integer(Int(milliseconds(start))), .integer(Int(milliseconds(end)))])
                return try rows.map { row in
                    let columns = row.columns
                    guard columns.count == 2, let at = columns[0].data.integer, let mg = columns[1].data.double else {
                        throw CinnError(.internal, "a stored glucose reading is damaged")
                    }
                    return GlucosePoint(at: date(milliseconds: Int64(at)), glucose: Glucose(milligramsPerDeciliter: mg))
                }
            }
            // PostgreSQL: the readings as two arrays in one row, decoded by postgres-nio in one go; a row per
            // reading cost more in the driver than the query did in the server (BENCHMARKS.md, "Glucose, insulin and meals").
            guard let postgres = connection.postgres else { throw CinnError(.internal, "no database connection") }
            let rows = try await postgres.query(
                """
                SELECT coalesce(array_agg(measured_at_ms ORDER BY measured_at_ms), '{}'), coalesce(array_agg(mg_dl ORDER BY measured_at_ms), '{}')
                FROM glucose_readings
                WHERE user_id = \(user.rawValue) AND deleted = 0 AND measured_at_ms >= \(milliseconds(start)) AND measured_at_ms < \(milliseconds(end))
                """, logger: logger)
            guard let row = try await rows.collect().first else { return [] }
            let (instants, values) = try row.decode(([Int64], [Double]).self)
            return zip(instants, values).map { GlucosePoint(at: date(milliseconds: $0), glucose: Glucose(milligramsPerDeciliter: $1)) }
        }
    }

    /// The latest `limit` readings from `start` up to (not including) `end`, each with its own UTC offset (its local
    /// time of day), in no particular order: what the glucose profile lays over one day. Read as `glucosePoints` reads.
    public func localGlucosePoints(
        user: UserID, from start: Date, to end: Date, limit: Int
    ) async throws -> [(at: Date, utcOffsetSeconds: Int, glucose: Glucose)] {
        try await withRawConnection { connection in
            if let sqlite = connection.sqlite {
                let rows = try await sqlite.query(
                    """
                    SELECT measured_at_ms, utc_offset_s, mg_dl FROM glucose_readings
                    WHERE user_id = ? AND deleted = 0 AND measured_at_ms >= ? AND measured_at_ms < ? ORDER BY measured_at_ms DESC LIMIT ?
                    """,
                    [
                        .integer(Int(user.rawValue)), .integer(Int(milliseconds(start))), .integer(Int(milliseconds(end))),
                        .integer(max(0, limit)),
                    ])
                return try rows.map { row in
                    let columns = row.columns
                    guard columns.count == 3, let at = columns[0].data.integer, let offset = columns[1].data.integer,
                        let mg = columns[2].data.double
                    else {
                        throw CinnError(.internal, "a stored glucose reading is damaged")
                    }
                    return (date(milliseconds: Int64(at)), offset, Glucose(milligramsPerDeciliter: mg))
                }
            }
            guard let postgres = connection.postgres else { throw CinnError(.internal, "no database connection") }
            let rows = try await postgres.query(
                """
                SELECT coalesce(array_agg(measured_at_ms), '{}'), coalesce(array_agg(utc_offset_s), '{}'), coalesce(array_agg(mg_dl), '{}')
                FROM (SELECT measured_at_ms, utc_offset_s, mg_dl FROM glucose_readings
                    WHERE user_id = \(user.rawValue) AND deleted = 0 AND measured_at_ms >= \(milliseconds(start))
                        AND measured_at_ms < \(milliseconds(end))
                    ORDER BY measured_at_ms DESC LIMIT \(max(0, limit))) latest
                """, logger: logger)
            guard let row = try await rows.collect().first else { return [] }
            let (instants, offsets, values) = try row.decode(([Int64], [Int64], [Double]).self)
            return zip(instants, zip(offsets, values)).map { at, reading in
                (date(milliseconds: at), Int(reading.0), Glucose(milligramsPerDeciliter: reading.1))
            }
        }
    }

    public func deleteGlucoseReading(id: UUID, user: UserID) async throws {
        guard try await tombstone("glucose_readings", user: user, condition: "id = \(bind: bind(id))") > 0 else {
            throw CinnError.notFound("no glucose reading with id \(id)")
        }
    }

    // MARK: Insulin doses

    static let insulinColumns = "id, taken_at_ms, utc_offset_s, units, kind, insulin, note, source, external_id, import_id"

    func decodeInsulin(_ row: any SQLRow) throws -> InsulinDose {
        InsulinDose(
            id: try decodeUUID(row, "id"), takenAt: date(milliseconds: try row.decode(column: "taken_at_ms", as: Int64.self)),
            utcOffsetSeconds: try row.decode(column: "utc_offset_s", as: Int.self), units: try row.decode(column: "units", as: Double.self),
            kind: InsulinKind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .bolus,
            insulin: try row.decode(column: "insulin", as: String?.self), note: try row.decode(column: "note", as: String?.self),
            source: try row.decode(column: "source", as: String.self), externalID: try row.decode(column: "external_id", as: String?.self),
            importID: try row.decode(column: "import_id", as: Int64?.self))
    }

    public func addInsulinDoses(_ doses: [InsulinDose], user: UserID) async throws {
        guard !doses.isEmpty else { return }
        try await transaction { db in
            let first = try await reserveVersions(db, user: user, count: doses.count)
            try await insertInsulinDoses(db, doses, user: user, firstVersion: first, createdAt: milliseconds(now()))
        }
    }

    /// Writes `doses` with the versions from `firstVersion` on (reserved by the caller), in `db`'s transaction.
    func insertInsulinDoses(_ db: any SQLDatabase, _ doses: [InsulinDose], user: UserID, firstVersion: Int64, createdAt: Int64) async throws
    {
        for start in stride(from: 0, to: doses.count, by: Self.insertChunk) {
            try await insertRows(
                db, into: "insulin_doses",
                columns: [
                    "id", "user_id", "taken_at_ms", "utc_offset_s", "local_day", "units", "kind", "insulin", "note", "source",
                    "external_id", "import_id",
                    "created_at_ms", "updated_at_ms", "version",
                ],
                doses[start..<min(start + Self.insertChunk, doses.count)].enumerated().map { offset, dose in
                    [
                        bind(dose.id), user.rawValue, milliseconds(dose.takenAt), dose.utcOffsetSeconds, dose.localDate.dayNumber,
                        dose.units,
                        dose.kind.rawValue, dose.insulin, dose.note, dose.source, dose.externalID, dose.importID, createdAt, createdAt,
                        firstVersion + Int64(start + offset),
                    ]
                })
        }
    }

    /// Doses taken from `start` up to (not including) `end`, oldest first.
    public func insulinDoses(user: UserID, from start: Date, to end: Date) async throws -> [InsulinDose] {
        try await withConnection { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: Self.insulinColumns) FROM insulin_doses
                WHERE user_id = \(bind: user.rawValue) AND deleted = 0
                    AND taken_at_ms >= \(bind: milliseconds(start)) AND taken_at_ms < \(bind: milliseconds(end))
                ORDER BY taken_at_ms
                """
            ).all().map(decodeInsulin)
        }
    }

    public func deleteInsulinDose(id: UUID, user: UserID) async throws {
        guard try await tombstone("insulin_doses", user: user, condition: "id = \(bind: bind(id))") > 0 else {
            throw CinnError.notFound("no insulin dose with id \(id)")
        }
    }

    // MARK: Meal definitions

    /// Stores a meal definition; a name the user already has is a conflict.
    public func addMeal(_ meal: MealDefinition, user: UserID, source: String = "manual") async throws {
        try await transaction { db in
            let version = try await reserveVersions(db, user: user)
            let time = milliseconds(now())
            guard
                let row = try await db.raw(
                    """
                    INSERT INTO meals (id, user_id, name, kind, carbohydrate_g, note, source, created_at_ms, updated_at_ms, version)
                    VALUES (\(bind: bind(meal.id)), \(bind: user.rawValue), \(bind: meal.name), \(bind: meal.kind.rawValue),
                        \(bind: meal.carbohydrateGrams), \(bind: meal.note), \(bind: source), \(bind: time), \(bind: time), \(bind: version))
                    ON CONFLICT (user_id, name) WHERE deleted = 0 DO NOTHING
                    RETURNING row_id
                    """
                ).first()
            else {
                throw CinnError(.conflict, "you already have a meal named \(meal.name)", field: "name")
            }
            let rowID = try row.decode(column: "row_id", as: Int64.self)
            for (position, food) in meal.foods.enumerated() {
                try await db.raw(
                    """
                    INSERT INTO meal_foods (meal_id, position, food_id, name, grams)
                    VALUES (\(bind: rowID), \(bind: position), \(bind: bind(food.foodID)), \(bind: food.name), \(bind: food.grams))
                    """
                ).run()
            }
        }
    }

    /// The user's meal definitions, by name, with their foods.
    public func meals(user: UserID) async throws -> [MealDefinition] {
        try await withConnection { db in try await meals(db, user: user, condition: "TRUE") }
    }

    public func meal(id: UUID, user: UserID) async throws -> MealDefinition {
        try await withConnection { db in
            guard let meal = try await meals(db, user: user, condition: "m.id = \(bind: bind(id))").first else {
                throw CinnError.notFound("no meal with id \(id)")
            }
            return meal
        }
    }

    func meals(_ db: any SQLDatabase, user: UserID, condition: SQLQueryString, includingDeleted: Bool = false) async throws
        -> [MealDefinition]
    {
        var query: SQLQueryString = """
            SELECT m.row_id, m.id, m.name, m.kind, m.carbohydrate_g, m.note, m.preset_id, f.food_id, f.name AS food_name, f.grams
            FROM meals m LEFT JOIN meal_foods f ON f.meal_id = m.row_id
            WHERE m.user_id = \(bind: user.rawValue) AND
            """
        query += includingDeleted ? " " : " m.deleted = 0 AND "
        query += condition
        query += " ORDER BY m.name, m.row_id, f.position"
        var meals: [MealDefinition] = []
        var last: Int64?
        for row in try await db.raw(query).all() {
            let rowID = try row.decode(column: "row_id", as: Int64.self)
            if rowID != last {
                meals.append(
                    MealDefinition(
                        id: try decodeUUID(row, "id"), name: try row.decode(column: "name", as: String.self),
                        kind: MealKind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .common,
                        carbohydrateGrams: try row.decode(column: "carbohydrate_g", as: Double?.self),
                        note: try row.decode(column: "note", as: String?.self),
                        presetID: try row.decodeNil(column: "preset_id") ? nil : try decodeUUID(row, "preset_id")))
                last = rowID
            }
            if let name = try row.decode(column: "food_name", as: String?.self) {
                meals[meals.count - 1].foods.append(
                    MealFood(
                        foodID: try decodeUUID(row, "food_id"), name: name,
                        grams: try row.decode(column: "grams", as: Double.self)))
            }
        }
        return meals
    }

    /// Deletes a meal definition; its events stay (and keep its name in reports).
    public func deleteMeal(id: UUID, user: UserID) async throws {
        try await transaction { db in
            guard try await tombstone(db, "meals", user: user, condition: "id = \(bind: bind(id))") > 0 else {
                throw CinnError.notFound("no meal with id \(id)")
            }
            try await mapMealsToPresets(db, user: user, condition: "m.id = \(bind: bind(id))")
        }
    }

    // MARK: Meal events

    static let mealEventColumns = """
        e.id, m.id AS meal_uuid, e.eaten_at_ms, e.utc_offset_s, e.portion, e.carbohydrate_g, e.note, e.report_reason, e.source,
        e.external_id, e.import_id
        """

    func decodeMealEvent(_ row: any SQLRow) throws -> MealEvent {
        MealEvent(
            id: try decodeUUID(row, "id"), mealID: try decodeUUID(row, "meal_uuid"),
            eatenAt: date(milliseconds: try row.decode(column: "eaten_at_ms", as: Int64.self)),
            utcOffsetSeconds: try row.decode(column: "utc_offset_s", as: Int.self),
            portion: try row.decode(column: "portion", as: Double.self),
            carbohydrateGrams: try row.decode(column: "carbohydrate_g", as: Double?.self),
            note: try row.decode(column: "note", as: String?.self),
            reportReason: try row.decode(column: "report_reason", as: String?.self),
            source: try row.decode(column: "source", as: String.self),
            externalID: try row.decode(column: "external_id", as: String?.self),
            importID: try row.decode(column: "import_id", as: Int64?.self))
    }

    /// Stores a meal event of one of the user's meals (a meal that is not theirs, or deleted, is not found).
    public func addMealEvent(_ event: MealEvent, user: UserID) async throws {
        try await transaction { db in
            guard
                let meal = try await db.raw(
                    """
                    SELECT row_id FROM meals WHERE id = \(bind: bind(event.mealID)) AND user_id = \(bind: user.rawValue) AND deleted = 0
                    """
                ).first()
            else { throw CinnError.invalid("meal_id", "no meal with id \(event.mealID)") }
            let version = try await reserveVersions(db, user: user)
            let time = milliseconds(now())
            try await db.raw(
                """
                INSERT INTO meal_events (id, user_id, meal_id, eaten_at_ms, utc_offset_s, local_day, portion, carbohydrate_g, note,
                    report_reason, reported_at_ms, source, external_id, import_id, created_at_ms, updated_at_ms, version)
                VALUES (\(bind: bind(event.id)), \(bind: user.rawValue), \(bind: try meal.decode(column: "row_id", as: Int64.self)),
                    \(bind: milliseconds(event.eatenAt)), \(bind: event.utcOffsetSeconds), \(bind: event.localDate.dayNumber), \(bind: event.portion),
                    \(bind: event.carbohydrateGrams), \(bind: event.note), \(bind: event.reportReason), \(bind: event.reportReason == nil ? nil : time),
                    \(bind: event.source), \(bind: event.externalID), \(bind: event.importID), \(bind: time), \(bind: time), \(bind: version))
                """
            ).run()
            try await logMealEventsToFoodLog(db, user: user, ids: [event.id])
        }
    }

    /// Meal events from `start` up to (not including) `end`, oldest first.
    /// - Parameter inFoodLog: whether to include the events logged into the food log (of meals that became presets):
    ///   a glucose report reads those as the food log's meals instead.
    public func mealEvents(user: UserID, from start: Date, to end: Date, inFoodLog: Bool = true) async throws -> [MealEvent] {
        let logged: SQLQueryString = inFoodLog ? "" : " AND NOT EXISTS (SELECT 1 FROM food_entries f WHERE f.meal_event_id = e.id)"
        return try await withConnection { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: Self.mealEventColumns) FROM meal_events e JOIN meals m ON m.row_id = e.meal_id
                WHERE e.user_id = \(bind: user.rawValue) AND e.deleted = 0
                    AND e.eaten_at_ms >= \(bind: milliseconds(start)) AND e.eaten_at_ms < \(bind: milliseconds(end))\(logged)
                ORDER BY e.eaten_at_ms
                """
            ).all().map(decodeMealEvent)
        }
    }

    /// The meal definitions of `events`, deleted ones included (their events still name them).
    public func mealsOfEvents(user: UserID, from start: Date, to end: Date) async throws -> [MealDefinition] {
        try await withConnection { db in
            try await meals(
                db, user: user,
                condition: """
                    m.row_id IN (SELECT meal_id FROM meal_events WHERE user_id = \(bind: user.rawValue) AND deleted = 0
                        AND eaten_at_ms >= \(bind: milliseconds(start)) AND eaten_at_ms < \(bind: milliseconds(end)))
                    """, includingDeleted: true)
        }
    }

    /// Reports a meal event (flags it, with the reason), or clears the report with nil.
    public func reportMealEvent(id: UUID, user: UserID, reason: String?) async throws {
        try await transaction { db in
            let version = try await reserveVersions(db, user: user)
            let time = milliseconds(now())
            guard
                try await db.raw(
                    """
                    UPDATE meal_events SET report_reason = \(bind: reason), reported_at_ms = \(bind: reason == nil ? nil : time),
                        updated_at_ms = \(bind: time), version = \(bind: version)
                    WHERE id = \(bind: bind(id)) AND user_id = \(bind: user.rawValue) AND deleted = 0 RETURNING row_id
                    """
                ).first() != nil
            else { throw CinnError.notFound("no meal event with id \(id)") }
        }
    }

    /// Deletes a meal event, and the food log entries it was logged as.
    public func deleteMealEvent(id: UUID, user: UserID) async throws {
        try await transaction { db in
            guard try await tombstone(db, "meal_events", user: user, condition: "id = \(bind: bind(id))") > 0 else {
                throw CinnError.notFound("no meal event with id \(id)")
            }
            try await logMealEventsToFoodLog(db, user: user, ids: [id])
        }
    }
}
