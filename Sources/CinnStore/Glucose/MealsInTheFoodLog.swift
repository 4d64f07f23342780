import CinnCore
import Foundation
import SQLKit

// One meal log (docs/DESIGN.md "One meal log"): an everyday meal definition (kind common, made by a person, with
// foods or a carbohydrate estimate) is a preset, and an event of it is that preset logged into the food log. The
// definitions and events stay, linked to what they became, for sync clients that still send them.

extension Store {
    /// Makes each everyday meal definition a person made without a preset into one (of every user: the migration).
    func moveMealsToPresets(_ db: any SQLDatabase) async throws {
        let users = try await db.raw(
            """
            SELECT DISTINCT user_id FROM meals WHERE kind = 'common' AND preset_id IS NULL AND import_id IS NULL AND deleted = 0
            """
        ).all().map { UserID(try $0.decode(column: "user_id", as: Int64.self)) }
        for user in users {
            try await mapMealsToPresets(db, user: user, condition: "m.preset_id IS NULL")
        }
    }

    /// Keeps the presets of the user's meal definitions that meet `condition` (on alias `m`, deleted ones included)
    /// as the definitions are: an everyday meal without a preset gets one (its foods, their nutrients as the foods
    /// have them now, by weight, a food no longer there by its name alone; without foods, one item of its
    /// carbohydrate estimate); a changed one changes its preset's name and items; a deleted one deletes its preset.
    /// A preset the person deleted stays deleted. A meal an import made (Nightscout's carbohydrate by food type)
    /// stays a meal: its import can be undone, and it has neither foods nor an estimate to make a preset of.
    func mapMealsToPresets(_ db: any SQLDatabase, user: UserID, condition: SQLQueryString) async throws {
        var query: SQLQueryString = """
            SELECT id, deleted, import_id, preset_id FROM meals m WHERE m.user_id = \(bind: user.rawValue) AND m.kind = 'common' AND
            """
        query += " "
        query += condition
        var deleted: [UUID] = [], live: [UUID] = []
        for row in try await db.raw(query).all() where try row.decode(column: "import_id", as: Int64?.self) == nil {
            let presetID = try row.decodeNil(column: "preset_id") ? nil : try decodeUUID(row, "preset_id")
            if try row.decode(column: "deleted", as: Int.self) == 1 {
                if let presetID { deleted.append(presetID) }
            } else {
                live.append(try decodeUUID(row, "id"))
            }
        }
        if !deleted.isEmpty {
            let version = try await reserveVersions(db, user: user)
            try await db.raw(
                """
                UPDATE presets SET deleted = 1, version = \(bind: version), updated_at_ms = \(bind: milliseconds(now()))
                WHERE user_id = \(bind: user.rawValue) AND deleted = 0 AND id IN (\(binds: deleted.map { bind($0) }))
                """
            ).run()
        }
        guard !live.isEmpty else { return }
        let meals = try await meals(db, user: user, condition: "m.id IN (\(binds: live.map { bind($0) }))")
        let linked = meals.compactMap(\.presetID)
        let presets =
            linked.isEmpty
            ? [:]
            : Dictionary(
                try await presets(db, user: user, condition: "p.id IN (\(binds: linked.map { bind($0) }))").map { ($0.id, $0) }
            ) { a, _ in a }
        for meal in meals where !meal.foods.isEmpty || meal.carbohydrateGrams != nil {
            let items = try await presetItems(db, of: meal, user: user)
            guard let presetID = meal.presetID else {
                let preset = FoodPreset(id: .v7(at: now()), name: meal.name, items: items)
                try await insertPreset(db, preset, user: user)
                try await db.raw("UPDATE meals SET preset_id = \(bind: bind(preset.id)) WHERE id = \(bind: bind(meal.id))").run()
                continue
            }
            guard let preset = presets[presetID], preset.name != meal.name || !Self.sameFoods(preset.items, items) else { continue }
            try await replacePreset(db, FoodPreset(id: preset.id, name: meal.name, meal: preset.meal, items: items), user: user)
        }
    }

    /// What a meal definition's preset holds.
    private func presetItems(_ db: any SQLDatabase, of meal: MealDefinition, user: UserID) async throws -> [FoodPreset.Item] {
        var items: [FoodPreset.Item] = []
        for item in meal.foods {
            let serving = ServingSize(label: "\(JSONText.compactNumber(item.grams)) g", amount: item.grams)
            if let food = try? await food(db, id: item.foodID, user: user) {
                let entry = try FoodLogEntry.logging(food, servings: 1, of: serving, meal: .lunch, eatenAt: now(), utcOffsetSeconds: 0)
                items.append(FoodPreset.Item(entry))
            } else {
                items.append(
                    FoodPreset.Item(
                        foodID: item.foodID, name: item.name, brand: nil, servings: 1, servingLabel: serving.label,
                        servingAmount: item.grams, nutrients: Nutrients()))
            }
        }
        guard items.isEmpty else { return items }
        var nutrients = Nutrients()
        nutrients[.carbohydrate] = meal.carbohydrateGrams
        return [
            FoodPreset.Item(
                foodID: nil, name: meal.name, brand: nil, servings: 1, servingLabel: "1 meal", servingAmount: nil,
                nutrients: nutrients)
        ]
    }

    /// Whether two lists of items hold the same foods in the same amounts (what a meal definition says of them).
    private static func sameFoods(_ a: [FoodPreset.Item], _ b: [FoodPreset.Item]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { x, y in
                x.foodID == y.foodID && x.name == y.name && x.servingAmount == y.servingAmount
                    && x.nutrients[.carbohydrate] == y.nutrients[.carbohydrate]
            }
    }

    /// Rewrites a preset's name and items, as a new version.
    private func replacePreset(_ db: any SQLDatabase, _ preset: FoodPreset, user: UserID) async throws {
        let version = try await reserveVersions(db, user: user)
        guard
            let row = try await db.raw(
                """
                UPDATE presets SET name = \(bind: preset.name), version = \(bind: version), updated_at_ms = \(bind: milliseconds(now()))
                WHERE id = \(bind: bind(preset.id)) AND user_id = \(bind: user.rawValue) RETURNING row_id
                """
            ).first()
        else { return }
        let presetRow = try row.decode(column: "row_id", as: Int64.self)
        try await db.raw("DELETE FROM preset_items WHERE preset_id = \(bind: presetRow)").run()
        try await insertPresetItems(db, preset.items, presetRow: presetRow)
    }

    /// Keeps the food log entries of these meal events (deleted ones included) as the events are: an event of a meal
    /// that became a preset is the preset logged `portion` times at the event's time (into the preset's meal, or the
    /// usual one at that hour); an event moved or changed gets new entries; a deleted one loses them. An event whose
    /// entries are already the ones it would get (a client that logged them itself) is left alone. The entries name
    /// their event (`meal_event_id`), so the glucose report reads them as the food log's meal, and not the event again.
    func logMealEventsToFoodLog(_ db: any SQLDatabase, user: UserID, ids: [UUID]) async throws {
        guard !ids.isEmpty else { return }
        for chunk in ids.chunks(of: Self.insertChunkRows) {
            let binds = chunk.map { bind($0) }
            let events = try await db.raw(
                """
                SELECT e.id, e.deleted, e.eaten_at_ms, e.utc_offset_s, e.portion, m.preset_id
                FROM meal_events e JOIN meals m ON m.row_id = e.meal_id
                WHERE e.user_id = \(bind: user.rawValue) AND e.id IN (\(binds: binds))
                """
            ).all()
            var logged: [UUID: [FoodLogEntry]] = [:]
            for row in try await db.raw(
                """
                SELECT \(unsafeRaw: Self.entryColumns), meal_event_id FROM food_entries
                WHERE user_id = \(bind: user.rawValue) AND deleted = 0 AND meal_event_id IN (\(binds: binds))
                """
            ).all() {
                logged[try decodeUUID(row, "meal_event_id"), default: []].append(try decodeEntry(row))
            }
            let presetIDs = try events.compactMap { row in try row.decodeNil(column: "preset_id") ? nil : try decodeUUID(row, "preset_id") }
            let presets =
                presetIDs.isEmpty
                ? [:]
                : Dictionary(
                    try await presets(db, user: user, condition: "p.id IN (\(binds: presetIDs.map { bind($0) }))").map { ($0.id, $0) }
                ) { a, _ in a }
            var stale: [UUID] = [], fresh: [(event: UUID, entries: [FoodLogEntry])] = []
            for row in events {
                let id = try decodeUUID(row, "id")
                var wanted: [FoodLogEntry] = []
                if try row.decode(column: "deleted", as: Int.self) == 0, !(try row.decodeNil(column: "preset_id")),
                    let preset = presets[try decodeUUID(row, "preset_id")]
                {
                    let at = date(milliseconds: try row.decode(column: "eaten_at_ms", as: Int64.self))
                    let offset = try row.decode(column: "utc_offset_s", as: Int.self)
                    let meal = preset.meal ?? Meal.usual(atSecondsOfDay: LocalDateTime(instant: at, utcOffsetSeconds: offset).secondsOfDay)
                    wanted = try preset.entries(
                        times: try row.decode(column: "portion", as: Double.self), meal: meal, eatenAt: at,
                        utcOffsetSeconds: offset)
                }
                let present = logged[id] ?? []
                guard Self.loggedKey(present) != Self.loggedKey(wanted) else { continue }
                stale += present.map(\.id)
                if !wanted.isEmpty { fresh.append((id, wanted)) }
            }
            if !stale.isEmpty {
                let version = try await reserveVersions(db, user: user)
                try await db.raw(
                    """
                    UPDATE food_entries SET deleted = 1, version = \(bind: version), updated_at_ms = \(bind: milliseconds(now()))
                    WHERE user_id = \(bind: user.rawValue) AND id IN (\(binds: stale.map { bind($0) }))
                    """
                ).run()
            }
            try await insertEntries(
                db, fresh.flatMap(\.entries), user: user,
                mealEvents: fresh.flatMap { event, entries in entries.map { _ in event } })
        }
    }

    /// What makes two sets of a meal event's entries the same: each food, how much of it, and when.
    private static func loggedKey(_ entries: [FoodLogEntry]) -> [String] {
        entries.map { entry in
            "\(entry.foodID?.lowercasedString ?? "-") \(entry.name) \((entry.servings * 1000).rounded()) \(entry.eatenAt.timeIntervalSince1970)"
        }.sorted()
    }
}
