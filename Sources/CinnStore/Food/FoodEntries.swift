import CinnCore
import Foundation
import SQLKit

extension Store {
    static let entryColumns = """
        id, food_id, name, brand, meal, eaten_at_ms, utc_offset_s, servings, serving_label, serving_amount, nutrients, note,
        source, external_id, import_id
        """

    func decodeEntry(_ row: any SQLRow) throws -> FoodLogEntry {
        // Nutrients an older version stored out of range count as none rather than fail every page of the day
        // (docs/SECURITY.md, "Valid values").
        let nutrients = Nutrients(storageText: try row.decode(column: "nutrients", as: String.self)) ?? Nutrients()
        let foodID: UUID? = try row.decodeNil(column: "food_id") ? nil : try decodeUUID(row, "food_id")
        return FoodLogEntry(
            id: try decodeUUID(row, "id"), foodID: foodID, name: try row.decode(column: "name", as: String.self),
            brand: try row.decode(column: "brand", as: String?.self),
            meal: try Meal.parse(try row.decode(column: "meal", as: String.self)),
            eatenAt: date(milliseconds: try row.decode(column: "eaten_at_ms", as: Int64.self)),
            utcOffsetSeconds: try row.decode(column: "utc_offset_s", as: Int.self),
            servings: try row.decode(column: "servings", as: Double.self),
            servingLabel: try row.decode(column: "serving_label", as: String.self),
            servingAmount: try row.decode(column: "serving_amount", as: Double?.self),
            nutrients: nutrients, note: try row.decode(column: "note", as: String?.self),
            source: try row.decode(column: "source", as: String.self),
            externalID: try row.decode(column: "external_id", as: String?.self),
            importID: try row.decode(column: "import_id", as: Int64?.self))
    }

    /// Stores entries (one or several foods eaten, each at its own time) in one transaction,
    /// and marks their foods as recently used.
    @discardableResult
    public func addFoodEntries(_ entries: [FoodLogEntry], user: UserID) async throws -> [FoodLogEntry] {
        guard !entries.isEmpty else { return [] }
        return try await transaction { db in
            try await insertEntries(db, entries, user: user)
            try await touchRecentFoods(db, foodIDs: entries.compactMap(\.foodID), user: user)
            return entries
        }
    }

    /// - Parameter mealEvents: the meal event each entry was logged for (`logMealEventsToFoodLog`), when given.
    func insertEntries(_ db: any SQLDatabase, _ entries: [FoodLogEntry], user: UserID, mealEvents: [UUID]? = nil) async throws {
        guard !entries.isEmpty else { return }
        let firstVersion = try await reserveVersions(db, user: user, count: entries.count)
        let time = milliseconds(now())
        try await insertRows(
            db, into: "food_entries",
            columns: [
                "id", "user_id", "food_id", "name", "brand", "search_key", "meal", "eaten_at_ms", "utc_offset_s", "local_day",
                "servings", "serving_label", "serving_amount", "nutrients", "energy_kcal", "note", "source", "external_id", "import_id",
                "created_at_ms", "updated_at_ms", "version",
            ] + (mealEvents == nil ? [] : ["meal_event_id"]),
            entries.enumerated().map { offset, entry in
                [
                    bind(entry.id), user.rawValue, bind(entry.foodID), entry.name, entry.brand, Self.searchKey(entry.name, entry.brand),
                    entry.meal.name, milliseconds(entry.eatenAt), entry.utcOffsetSeconds, entry.localDate.dayNumber, entry.servings,
                    entry.servingLabel, entry.servingAmount, entry.nutrients.storageText, entry.energy, entry.note, entry.source,
                    entry.externalID, entry.importID, time, time, firstVersion + Int64(offset),
                ] + (mealEvents.map { [bind($0[offset])] } ?? [])
            })
    }

    /// What history search compares: the name and brand, folded as food search folds them.
    static func searchKey(_ name: String, _ brand: String?) -> String {
        FoodSearchQuery.searchKey(name + " " + (brand ?? ""))
    }

    /// One entry of this user; another user's is "not found".
    public func foodEntry(id: UUID, user: UserID) async throws -> FoodLogEntry {
        try await withConnection { try await foodEntry($0, id: id, user: user) }
    }

    func foodEntry(_ db: any SQLDatabase, id: UUID, user: UserID) async throws -> FoodLogEntry {
        guard
            let row = try await db.raw(
                """
                SELECT \(unsafeRaw: Self.entryColumns) FROM food_entries
                WHERE id = \(bind: bind(id)) AND user_id = \(bind: user.rawValue) AND deleted = 0
                """
            ).first()
        else { throw CinnError.notFound("no food entry with id \(id)") }
        return try decodeEntry(row)
    }

    /// Changes an entry's servings (nutrients scale), meal, time or note; nil leaves a part as it is.
    @discardableResult
    public func updateFoodEntry(
        id: UUID, user: UserID, servings: Double? = nil, meal: Meal? = nil,
        eatenAt: (instant: Date, utcOffsetSeconds: Int)? = nil,
        note: String?? = nil
    ) async throws -> FoodLogEntry {
        try await transaction { db in
            var entry = try await foodEntry(db, id: id, user: user)
            if let servings { entry = try entry.withServings(servings) }
            if let meal { entry.meal = meal }
            if let eatenAt {
                entry.eatenAt = eatenAt.instant
                entry.utcOffsetSeconds = eatenAt.utcOffsetSeconds
            }
            if let note { entry.note = note }
            let version = try await reserveVersions(db, user: user)
            try await db.raw(
                """
                UPDATE food_entries SET servings = \(bind: entry.servings), nutrients = \(bind: entry.nutrients.storageText),
                    energy_kcal = \(bind: entry.energy), meal = \(bind: entry.meal.name),
                    eaten_at_ms = \(bind: milliseconds(entry.eatenAt)), utc_offset_s = \(bind: entry.utcOffsetSeconds),
                    local_day = \(bind: entry.localDate.dayNumber), note = \(bind: entry.note),
                    updated_at_ms = \(bind: milliseconds(now())), version = \(bind: version)
                WHERE id = \(bind: bind(id)) AND user_id = \(bind: user.rawValue) AND deleted = 0
                """
            ).run()
            return entry
        }
    }

    /// Deletes one entry (a tombstone remains for sync).
    public func deleteFoodEntry(id: UUID, user: UserID) async throws {
        guard try await tombstone("food_entries", user: user, condition: "id = \(bind: bind(id))") > 0 else {
            throw CinnError.notFound("no food entry with id \(id)")
        }
    }

    /// Entries of local days `from...to`, in time order.
    public func foodEntries(user: UserID, from: LocalDate, to: LocalDate) async throws -> [FoodLogEntry] {
        try await withConnection { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: Self.entryColumns) FROM food_entries
                WHERE user_id = \(bind: user.rawValue) AND deleted = 0 AND local_day >= \(bind: from.dayNumber)
                    AND local_day <= \(bind: to.dayNumber)
                ORDER BY eaten_at_ms, row_id
                """
            ).all().map(decodeEntry)
        }
    }

    /// The entries a person logged (not imported) eaten in `start..<end`, in time order: the diary's meals for the
    /// glucose report. The local days bound the search to the index; the instants decide.
    public func loggedFoodEntries(user: UserID, from start: Date, to end: Date) async throws -> [FoodLogEntry] {
        let firstDay = LocalDate(instant: start, utcOffsetSeconds: 0).adding(days: -1).dayNumber
        let lastDay = LocalDate(instant: end, utcOffsetSeconds: 0).adding(days: 1).dayNumber
        return try await withConnection { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: Self.entryColumns) FROM food_entries
                WHERE user_id = \(bind: user.rawValue) AND deleted = 0 AND local_day >= \(bind: firstDay) AND local_day <= \(bind: lastDay)
                    AND eaten_at_ms >= \(bind: milliseconds(start)) AND eaten_at_ms < \(bind: milliseconds(end)) AND import_id IS NULL
                ORDER BY eaten_at_ms, row_id
                """
            ).all().map(decodeEntry)
        }
    }

    /// Every entry, newest first, optionally only those whose name or brand contains `search`.
    public func foodHistory(user: UserID, search: String? = nil, limit: Int = 50, offset: Int = 0) async throws -> [FoodLogEntry] {
        try await withConnection { db in
            var query: SQLQueryString = """
                SELECT \(unsafeRaw: Self.entryColumns) FROM food_entries WHERE user_id = \(bind: user.rawValue) AND deleted = 0
                """
            // Both databases compare the same folded keys ("Éclair" and "eclair" alike; "Straße" as "strasse"),
            // which hold only letters, digits and spaces: nothing LIKE treats specially.
            let key = FoodSearchQuery.searchKey(search ?? "")
            if !key.isEmpty { query += " AND search_key LIKE \(bind: "%" + key + "%")" }
            query += " ORDER BY eaten_at_ms DESC, row_id DESC LIMIT \(bind: limit) OFFSET \(bind: offset)"
            return try await db.raw(query).all().map(decodeEntry)
        }
    }

    /// Foods logged most often since `since`, with how many times.
    public func frequentFoods(user: UserID, since: Date, limit: Int = 30) async throws -> [(food: FoodSearchCandidate, count: Int)] {
        try await withConnection { db in
            // The user's counts first, then their foods: without MATERIALIZED, SQLite may walk the whole food
            // database looking each food up among the entries (300 ms per search page with USDA's 379,000 foods).
            try await db.raw(
                """
                WITH e AS MATERIALIZED (
                    SELECT food_id, COUNT(*) AS n FROM food_entries
                    WHERE user_id = \(bind: user.rawValue) AND deleted = 0 AND food_id IS NOT NULL
                        AND eaten_at_ms >= \(bind: milliseconds(since))
                    GROUP BY food_id)
                SELECT \(unsafeRaw: Self.candidateColumns), e.n FROM e
                JOIN foods f ON f.id = e.food_id AND (f.user_id IS NULL OR f.user_id = \(bind: user.rawValue)) AND f.deleted = 0
                ORDER BY e.n DESC, f.name LIMIT \(bind: limit)
                """
            ).all().map { row in
                (try decodeCandidate(row, user: user), try row.decode(column: "n", as: Int.self))
            }
        }
    }

    /// The summed nutrients of every logged day in `from...to`, in date order; days without entries are absent.
    public func dailyNutrition(user: UserID, from: LocalDate, to: LocalDate) async throws -> [(date: LocalDate, totals: Nutrients)] {
        try await withConnection { db in
            var days: [(date: LocalDate, totals: Nutrients)] = []
            for row in try await db.raw(
                """
                SELECT local_day, nutrients FROM food_entries
                WHERE user_id = \(bind: user.rawValue) AND deleted = 0 AND local_day >= \(bind: from.dayNumber)
                    AND local_day <= \(bind: to.dayNumber)
                ORDER BY local_day
                """
            ).all() {
                let day = LocalDate(dayNumber: try row.decode(column: "local_day", as: Int.self))
                let nutrients = Nutrients(storageText: try row.decode(column: "nutrients", as: String.self)) ?? Nutrients()
                if days.last?.date == day { days[days.count - 1].totals += nutrients } else { days.append((day, nutrients)) }
            }
            return days
        }
    }

    /// The first and last local day with an entry, if any.
    public func foodLogSpan(user: UserID) async throws -> ClosedRange<LocalDate>? {
        try await withConnection { db in
            guard
                let row = try await db.raw(
                    """
                    SELECT MIN(local_day) AS first, MAX(local_day) AS last FROM food_entries
                    WHERE user_id = \(bind: user.rawValue) AND deleted = 0
                    """
                ).first(), let first = try row.decode(column: "first", as: Int?.self),
                let last = try row.decode(column: "last", as: Int?.self)
            else { return nil }
            return LocalDate(dayNumber: first)...LocalDate(dayNumber: last)
        }
    }
}

// MARK: - Presets

extension Store {
    /// Saves a preset (validated) with its items.
    @discardableResult
    public func addPreset(_ preset: FoodPreset, user: UserID) async throws -> FoodPreset {
        try await transaction { db in
            try await insertPreset(db, preset, user: user)
            return preset
        }
    }

    func insertPreset(_ db: any SQLDatabase, _ preset: FoodPreset, user: UserID, importID: Int64? = nil) async throws {
        let version = try await reserveVersions(db, user: user)
        let time = milliseconds(now())
        guard
            let row = try await db.raw(
                """
                INSERT INTO presets (id, user_id, name, meal, import_id, created_at_ms, updated_at_ms, version)
                VALUES (\(bind: bind(preset.id)), \(bind: user.rawValue), \(bind: preset.name), \(bind: preset.meal?.name),
                    \(bind: importID), \(bind: time), \(bind: time), \(bind: version)) RETURNING row_id
                """
            ).first()
        else { throw CinnError(.internal, "the preset could not be saved") }
        try await insertPresetItems(db, preset.items, presetRow: try row.decode(column: "row_id", as: Int64.self))
    }

    func insertPresetItems(_ db: any SQLDatabase, _ items: [FoodPreset.Item], presetRow: Int64) async throws {
        for (position, item) in items.enumerated() {
            try await db.raw(
                """
                INSERT INTO preset_items (preset_id, position, food_id, name, brand, servings, serving_label, serving_amount, nutrients)
                VALUES (\(bind: presetRow), \(bind: position), \(bind: bind(item.foodID)), \(bind: item.name),
                    \(bind: item.brand), \(bind: item.servings), \(bind: item.servingLabel), \(bind: item.servingAmount),
                    \(bind: item.nutrients.storageText))
                """
            ).run()
        }
    }

    /// The user's presets, by name.
    public func presets(user: UserID) async throws -> [FoodPreset] {
        try await withConnection { db in try await presets(db, user: user) }
    }

    /// The user's presets that meet `condition` (on table alias `p`), by name.
    func presets(_ db: any SQLDatabase, user: UserID, condition: SQLQueryString = "TRUE") async throws -> [FoodPreset] {
        var query: SQLQueryString = """
            SELECT p.row_id AS preset_row, p.id AS preset_id, p.name AS preset_name, p.meal AS preset_meal,
                i.food_id, i.name, i.brand, i.servings, i.serving_label, i.serving_amount, i.nutrients
            FROM presets p JOIN preset_items i ON i.preset_id = p.row_id
            WHERE p.user_id = \(bind: user.rawValue) AND p.deleted = 0 AND
            """
        query += " "
        query += condition
        query += " ORDER BY LOWER(p.name), p.row_id, i.position"
        let rows = try await db.raw(query).all()
        var presets: [FoodPreset] = []
        var lastRow: Int64?
        for row in rows {
            let presetRow = try row.decode(column: "preset_row", as: Int64.self)
            if presetRow != lastRow {
                let meal = try row.decode(column: "preset_meal", as: String?.self)
                presets.append(
                    FoodPreset(
                        id: try decodeUUID(row, "preset_id"),
                        name: try row.decode(column: "preset_name", as: String.self),
                        meal: try meal.map { try Meal.parse($0) }, items: []))
                lastRow = presetRow
            }
            guard let nutrients = Nutrients(storageText: try row.decode(column: "nutrients", as: String.self)) else {
                throw CinnError(.internal, "a stored preset is damaged")
            }
            presets[presets.count - 1].items.append(
                FoodPreset.Item(
                    foodID: try row.decodeNil(column: "food_id") ? nil : try decodeUUID(row, "food_id"),
                    name: try row.decode(column: "name", as: String.self), brand: try row.decode(column: "brand", as: String?.self),
                    servings: try row.decode(column: "servings", as: Double.self),
                    servingLabel: try row.decode(column: "serving_label", as: String.self),
                    servingAmount: try row.decode(column: "serving_amount", as: Double?.self), nutrients: nutrients))
        }
        return presets
    }

    /// One preset of this user.
    public func preset(id: UUID, user: UserID) async throws -> FoodPreset {
        guard let preset = try await presets(user: user).first(where: { $0.id == id }) else {
            throw CinnError.notFound("no preset with id \(id)")
        }
        return preset
    }

    /// Deletes one preset (a tombstone remains for sync).
    public func deletePreset(id: UUID, user: UserID) async throws {
        guard try await tombstone("presets", user: user, condition: "id = \(bind: bind(id))") > 0 else {
            throw CinnError.notFound("no preset with id \(id)")
        }
    }
}
