import CinnCore
import CinnFoodData
import Foundation
import SQLKit

/// The generic foods built into the binary (`CinnFoodData`, in `BuiltInFoodFile`'s format).
public enum BuiltInFoods {
    /// The embedded file's bytes.
    public static var bytes: UnsafeRawBufferPointer {
        var count = 0
        let start = cinn_built_in_foods(&count)
        return UnsafeRawBufferPointer(start: start, count: count)
    }

    /// The embedded portions file's bytes.
    public static var portionBytes: UnsafeRawBufferPointer {
        var count = 0
        let start = cinn_built_in_portions(&count)
        return UnsafeRawBufferPointer(start: start, count: count)
    }

    /// The set's version: a hash (FNV-1a, 64 bits) of the foods' bytes and then the portions', so any change to
    /// either file is a new version.
    public static let version: String = {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        for byte in portionBytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return String(hash, radix: 16)
    }()

    /// The foods of the file, each with its household portions.
    public static func foods() throws(CinnError) -> [ImportedFood] {
        BuiltInFoodFile.withPortions(try BuiltInFoodFile.decode(bytes), try BuiltInFoodFile.decodePortions(portionBytes))
    }
}

/// What `Store.installBuiltInFoods` did.
public struct BuiltInFoodsInstall: Sendable, Hashable {
    /// Foods of the set the database did not have.
    public var added = 0
    /// Built-in foods that differed from the binary's set (or were deleted), brought up to it.
    public var updated = 0
    /// Built-in foods the binary no longer has, marked deleted (past entries keep their snapshot).
    public var removed = 0
    /// Foods of the set a food database import already holds (the same USDA row): not added twice.
    public var alreadyImported = 0
}

extension Store {
    /// Puts the binary's built-in foods into the shared food database unless this set (by `BuiltInFoods.version`) is
    /// there already; nil when it was. Each food keeps its stable id; only foods that differ from the set are written.
    /// One transaction; instances starting together on PostgreSQL take turns (an advisory lock), and the later ones
    /// find the set installed.
    @discardableResult
    public func installBuiltInFoods(force: Bool = false) async throws -> BuiltInFoodsInstall? {
        let version = BuiltInFoods.version
        if !force, try await installedBuiltInVersion() == version { return nil }
        let foods = try BuiltInFoods.foods()
        return try await rawTransaction { connection -> BuiltInFoodsInstall? in
            let db = connection.sql
            if !isSQLite { try await db.raw("SELECT pg_advisory_xact_lock(7415002)").run() }
            if !force, try await installedBuiltInVersion(db) == version { return nil }
            var install = BuiltInFoodsInstall()
            // Every built-in food the database has: whether it is deleted, and what it holds.
            var existing: [UUID: (deleted: Bool, content: String)] = [:]
            for row in try await db.raw(
                """
                SELECT id, deleted, name, category, nutrients, servings, external_id FROM foods WHERE builtin = 1
                """
            ).all() {
                let content = try Self.builtInContent(
                    name: row.decode(column: "name", as: String.self), category: row.decode(column: "category", as: String?.self),
                    nutrients: row.decode(column: "nutrients", as: String.self), servings: row.decode(column: "servings", as: String.self),
                    externalID: row.decode(column: "external_id", as: String?.self))
                existing[try decodeUUID(row, "id")] = (try row.decode(column: "deleted", as: Int.self) == 1, content)
            }
            let time = milliseconds(now())
            var fresh: [ImportedFood] = []
            for imported in foods {
                let food = imported.food
                guard let stored = existing[food.id] else {
                    fresh.append(imported)
                    continue
                }
                let nutrients = food.nutrients.storageText, servings = ServingSize.storageText(food.servings)
                let content = Self.builtInContent(
                    name: food.name, category: food.category, nutrients: nutrients,
                    servings: servings, externalID: imported.externalID)
                if !stored.deleted, stored.content == content { continue }
                try await db.raw(
                    """
                    UPDATE foods SET name = \(bind: food.name), category = \(bind: food.category), nutrients = \(bind: nutrients),
                        energy_kcal = \(bind: food.nutrients.energy), servings = \(bind: servings),
                        name_key = \(bind: FoodSearchQuery.searchKey(food.name)), external_id = \(bind: imported.externalID),
                        deleted = 0, updated_at_ms = \(bind: time)
                    WHERE id = \(bind: bind(food.id)) AND builtin = 1
                    """
                ).run()
                install.updated += 1
            }
            let kept = Set(foods.map(\.food.id))
            for (id, stored) in existing where !stored.deleted && !kept.contains(id) {
                try await db.raw(
                    """
                    UPDATE foods SET deleted = 1, updated_at_ms = \(bind: time) WHERE id = \(bind: bind(id))
                    """
                ).run()
                install.removed += 1
            }
            try await insertBuiltIn(fresh, connection, time: time)
            if !fresh.isEmpty {
                let present =
                    try await db.raw("SELECT COUNT(*) AS n FROM foods WHERE builtin = 1 AND deleted = 0")
                    .first()?.decode(column: "n", as: Int.self) ?? 0
                install.added = present - install.updated
                install.alreadyImported = fresh.count - install.added
            }
            try await db.raw(
                """
                INSERT INTO builtin_foods (id, version, food_count, installed_at_ms)
                VALUES (1, \(bind: version), \(bind: foods.count), \(bind: time))
                ON CONFLICT (id) DO UPDATE SET version = excluded.version, food_count = excluded.food_count,
                    installed_at_ms = excluded.installed_at_ms
                """
            ).run()
            return install
        }
    }

    /// Adds `foods` as built-in foods; a food database import may hold the same USDA row (the same external id): that
    /// food stays. On SQLite through prepared statements (`SQLiteBulkInsert`): a new journal adds all 7,000 at once.
    private func insertBuiltIn(_ foods: [ImportedFood], _ connection: Connection, time: Int64) async throws {
        let columns = [
            "id", "user_id", "name", "source", "basis", "generic", "builtin", "category", "nutrients", "energy_kcal",
            "servings", "name_key", "external_id", "created_at_ms", "updated_at_ms", "version",
        ]
        if let sqlite = connection.sqlite {
            let insert = try SQLiteBulkInsert(
                sqlite, table: "foods", columns: columns, rowsPerStatement: Self.sqliteBuiltInRowsPerStatement,
                suffix: " ON CONFLICT DO NOTHING")
            defer { insert.finish() }
            try insert.insert(count: foods.count) { n, binder in
                let food = foods[n].food
                binder.bind(food.id)
                binder.bind(Int?.none)
                binder.bind(food.name)
                binder.bind(food.source.rawValue)
                binder.bind(food.basis.rawValue)
                binder.bind(1)
                binder.bind(1)
                binder.bind(food.category)
                binder.bind(food.nutrients.storageText)
                binder.bind(food.nutrients.energy)
                binder.bind(ServingSize.storageText(food.servings))
                binder.bind(FoodSearchQuery.searchKey(food.name))
                binder.bind(foods[n].externalID)
                binder.bind(Int(time))
                binder.bind(Int(time))
                binder.bind(0)
            }
            return
        }
        for chunk in foods.chunks(of: Self.insertChunkRows) {
            let insert = connection.sql.insert(into: SQLIdentifier("foods")).columns(columns)
            for imported in chunk {
                let food = imported.food
                insert.values(
                    [
                        bind(food.id), Int64?.none, food.name, food.source.rawValue, food.basis.rawValue, 1, 1, food.category,
                        food.nutrients.storageText, food.nutrients.energy, ServingSize.storageText(food.servings),
                        FoodSearchQuery.searchKey(food.name), imported.externalID, time, time, 0,
                    ] as [any Encodable & Sendable])
            }
            try await insert.ignoringConflicts().run()
        }
    }

    /// Built-in foods to a prepared statement on SQLite (16 values each).
    private static let sqliteBuiltInRowsPerStatement = 50

    /// What a built-in food's row holds that an install compares.
    static func builtInContent(name: String, category: String?, nutrients: String, servings: String, externalID: String?) -> String {
        [name, category ?? "", nutrients, servings, externalID ?? ""].joined(separator: "\u{1F}")
    }

    /// The version of the built-in set the database holds; nil before the first install.
    public func installedBuiltInVersion() async throws -> String? {
        try await withConnection { try await installedBuiltInVersion($0) }
    }

    func installedBuiltInVersion(_ db: any SQLDatabase) async throws -> String? {
        try await db.raw("SELECT version FROM builtin_foods WHERE id = 1").first()?.decode(column: "version", as: String.self)
    }
}
