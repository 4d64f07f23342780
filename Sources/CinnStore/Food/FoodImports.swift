import CinnCore
import Foundation
import NIOCore
import PostgresNIO
import SQLKit
import SQLiteNIO

extension Store {
    /// The columns an imported food brings, besides its id: staged (SQLite) or copied (PostgreSQL) in this order.
    private static let importedFoodColumns = [
        "name", "brand", "barcode", "source", "basis", "generic", "category", "nutrients", "energy_kcal", "servings",
        "name_key", "brand_key", "external_id",
    ]

    /// Moves the foods of `source` (the staging table or the COPY's temporary one, each row with an id and
    /// `importedFoodColumns`) into the shared food database in `order`, skipping external ids already there.
    private func moveImportedFoods(
        _ db: any SQLDatabase, from source: String, orderBy order: String, importID: Int64,
        createdAt: Int64
    ) async throws {
        let own = Self.importedFoodColumns.joined(separator: ", ")
        // The WHERE keeps SQLite from reading ON CONFLICT as a join's ON.
        try await db.raw(
            """
            INSERT INTO foods (id, user_id, \(unsafeRaw: own), import_id, created_at_ms, updated_at_ms, version)
            SELECT id, NULL, \(unsafeRaw: own), \(bind: importID), \(bind: createdAt), \(bind: createdAt), 0
            FROM \(unsafeRaw: source) WHERE true ORDER BY \(unsafeRaw: order)
            ON CONFLICT (external_id) WHERE user_id IS NULL AND deleted = 0 AND external_id IS NOT NULL DO NOTHING
            """
        ).run()
    }

    /// Imports foods into the shared food database as a batch the importing user can undo, all or nothing. Foods whose
    /// external id is already there are duplicates and skipped; the rejection and dry-run rules are those of
    /// `importWeighIns`.
    ///
    /// On SQLite the file is read into a staging database first (`ImportStaging`, with no lock on the journal), and one
    /// INSERT … SELECT then moves the foods in, search index and all. On PostgreSQL they go in by COPY, in the transaction.
    public func importFoods(
        user: UserID, format: String, fileName: String?, mode: ImportMode,
        read: (_ insert: ([ImportedFood]) async throws -> Void) async throws -> ImportReport
    ) async throws -> ImportReport {
        guard isSQLite else {
            return try await recordedImport(user: user, format: format, fileName: fileName, mode: mode) { connection, batch in
                guard let postgres = connection.postgres else { throw CinnError(.internal, "no database driver for the import") }
                var ids = ImportIDs(at: date(milliseconds: batch.createdAt))
                var (report, offered) = try await copyFoods(
                    postgres, connection.sql, importID: batch.importID,
                    createdAt: batch.createdAt, ids: &ids, read: read)
                report.imported =
                    try await connection.sql.raw("SELECT COUNT(*) AS n FROM foods WHERE import_id = \(bind: batch.importID)")
                    .first()?.decode(column: "n", as: Int.self) ?? 0
                report.duplicates = offered - report.imported
                return report
            }
        }
        return try await stagedImport(user: user, format: format, fileName: fileName, mode: mode) { staging in
            let insert = try await staging.table("foods", columns: ["id"] + Self.importedFoodColumns, rowsPerStatement: Self.stagedFoodRows)
            // The ids count up from now: the staging database's time stands in for the batch's, which is not made yet.
            var ids = ImportIDs(at: now())
            var offered = 0
            let report = try await read { foods in
                offered += foods.count
                try insert.insert(count: foods.count) { n, binder in
                    let imported = foods[n], food = imported.food
                    binder.bind(ids.next())
                    binder.bind(food.name)
                    binder.bind(food.brand)
                    binder.bind(food.barcode)
                    binder.bind(food.source.rawValue)
                    binder.bind(food.basis.rawValue)
                    binder.bind(imported.isGeneric ? 1 : 0)
                    binder.bind(food.category)
                    binder.bind(food.nutrients.storageText)
                    binder.bind(food.nutrients.energy)
                    binder.bind(ServingSize.storageText(food.servings))
                    binder.bind(FoodSearchQuery.searchKey(food.name))
                    binder.bind(food.brand.map(FoodSearchQuery.searchKey))
                    binder.bind(imported.externalID)
                }
            }
            return (report, offered)
        } merge: { connection, batch, report, offered in
            guard let sqlite = connection.sqlite else { throw CinnError(.internal, "no database driver for the import") }
            report.imported = try await withPageCache(sqlite, kibibytes: Self.foodImportCacheKiB) {
                try await moveImportedFoods(
                    connection.sql, from: "staging.foods", orderBy: "rowid", importID: batch.importID,
                    createdAt: batch.createdAt)
                return try await connection.sql.raw("SELECT changes() AS n").first()?.decode(column: "n", as: Int.self) ?? 0
            }
            report.duplicates = offered - report.imported
        }
    }

    /// Foods per prepared INSERT into the staging database.
    private static let stagedFoodRows = 50

    /// The page cache of a food import's connection: the unique indexes grow without spilling pages to the WAL.
    static let foodImportCacheKiB = 32 * 1024

    /// Runs `body` with a page cache of `kibibytes` on this connection, then gives the connection its old size back.
    func withPageCache<T>(_ sqlite: SQLiteConnection, kibibytes: Int, _ body: () async throws -> T) async throws -> T {
        let old = try await rows(sqlite, "PRAGMA cache_size", []).first?.column("cache_size")?.integer ?? -2000
        _ = try await sqlite.query("PRAGMA cache_size = \(-kibibytes)")
        do {
            let result = try await body()
            _ = try await sqlite.query("PRAGMA cache_size = \(old)")
            return result
        } catch {
            _ = try? await sqlite.query("PRAGMA cache_size = \(old)")
            throw error
        }
    }

    /// The PostgreSQL bulk path: one text `COPY` into a temporary table, then one INSERT … SELECT that skips duplicates.
    private func copyFoods(
        _ postgres: PostgresConnection, _ db: any SQLDatabase, importID: Int64, createdAt: Int64, ids: inout ImportIDs,
        read: (_ insert: ([ImportedFood]) async throws -> Void) async throws -> ImportReport
    ) async throws -> (ImportReport, offered: Int) {
        try await db.raw(
            """
            CREATE TEMPORARY TABLE import_foods (position BIGINT NOT NULL, id UUID NOT NULL, name TEXT NOT NULL, brand TEXT,
                barcode TEXT, source TEXT NOT NULL, basis TEXT NOT NULL, generic BIGINT NOT NULL, category TEXT,
                nutrients TEXT NOT NULL, energy_kcal DOUBLE PRECISION, servings TEXT NOT NULL, name_key TEXT NOT NULL,
                brand_key TEXT, external_id TEXT NOT NULL) ON COMMIT DROP
            """
        ).run()
        var offered = 0
        var report: ImportReport?
        var generator = ids
        try await postgres.copyFrom(
            table: "import_foods",
            columns: ["position", "id"] + Self.importedFoodColumns,
            logger: logger
        ) { writer in
            report = try await read { foods in
                var buffer = ByteBuffer()
                func field(_ value: String?) -> String { value.map(Self.copyText) ?? "\\N" }
                for imported in foods {
                    let food = imported.food
                    let id = generator.next()
                    let columns = [
                        String(offered), id.uuidString, field(food.name), field(food.brand), field(food.barcode),
                        food.source.rawValue, food.basis.rawValue, imported.isGeneric ? "1" : "0", field(food.category),
                        field(food.nutrients.storageText), food.nutrients.energy.map { "\($0)" } ?? "\\N",
                        field(ServingSize.storageText(food.servings)), field(FoodSearchQuery.searchKey(food.name)),
                        field(food.brand.map(FoodSearchQuery.searchKey)), field(imported.externalID),
                    ]
                    buffer.writeString(columns.joined(separator: "\t"))
                    buffer.writeString("\n")
                    offered += 1
                }
                try await writer.write(buffer)
            }
        }
        ids = generator
        guard let report else { throw CinnError(.internal, "the import did not finish") }
        try await moveImportedFoods(db, from: "import_foods", orderBy: "position", importID: importID, createdAt: createdAt)
        return (report, offered)
    }
}

extension Store {
    /// Imports a food journal file (the user's foods, entries and presets) as one batch. A record
    /// already in this journal (same id, or brought by an earlier import of it) is a duplicate; a
    /// record keeps its id (and its source, so a restored backup reads as the original) unless
    /// another journal on this server has the id. Entries point at the imported foods. Undo removes
    /// the foods, entries and presets it brought.
    public func importFoodJournal(
        user: UserID, fileName: String?, mode: ImportMode, foods: [Food], entries: [FoodLogEntry],
        presets: [FoodPreset], report: ImportReport
    ) async throws -> ImportReport {
        try await recordedImport(user: user, format: report.format, fileName: fileName, mode: mode) { connection, batch in
            let db = connection.sql
            var report = report
            var foodIDs: [UUID: UUID] = [:]
            var imported = 0
            for food in foods {
                if let existing = try await existingID(db, table: "foods", id: food.id, user: user) {
                    foodIDs[food.id] = existing
                    continue
                }
                var copy = food
                copy.id = try await freeID(db, table: "foods", food.id)
                foodIDs[food.id] = copy.id
                try await insertOwnFood(
                    db, copy, user: user, externalID: "cinn:\(food.id.lowercasedString)",
                    importID: batch.importID)
                imported += 1
            }
            var fresh: [FoodLogEntry] = []
            for entry in entries where try await existingID(db, table: "food_entries", id: entry.id, user: user) == nil {
                var copy = entry
                copy.id = try await freeID(db, table: "food_entries", entry.id)
                copy.foodID = entry.foodID.map { foodIDs[$0] ?? $0 }
                copy.externalID = "cinn:\(entry.id.lowercasedString)"
                copy.importID = batch.importID
                fresh.append(copy)
            }
            try await insertEntries(db, fresh, user: user)
            imported += fresh.count
            for preset in presets
            where try await db.raw(
                """
                SELECT 1 AS one FROM presets WHERE user_id = \(bind: user.rawValue) AND deleted = 0
                    AND (id = \(bind: bind(preset.id)) OR name = \(bind: preset.name))
                """
            ).first() == nil {
                var copy = preset
                copy.id = try await freeID(db, table: "presets", preset.id)
                copy.items = preset.items.map { item in
                    var item = item
                    item.foodID = item.foodID.map { foodIDs[$0] ?? $0 }
                    return item
                }
                try await insertPreset(db, copy, user: user, importID: batch.importID)
                imported += 1
            }
            report.imported = imported
            report.duplicates = foods.count + entries.count + presets.count - imported
            return report
        }
    }

    /// The id this user's journal already has for a record: the same id, or the copy an earlier import made of it.
    private func existingID(_ db: any SQLDatabase, table: String, id: UUID, user: UserID) async throws -> UUID? {
        try await db.raw(
            """
            SELECT id FROM \(unsafeRaw: table) WHERE user_id = \(bind: user.rawValue) AND deleted = 0
                AND (id = \(bind: bind(id)) OR external_id = \(bind: "cinn:\(id.lowercasedString)"))
            LIMIT 1
            """
        ).first().map { try decodeUUID($0, "id") }
    }

    /// `id` when no row of `table` has it (in any journal), else a new one.
    private func freeID(_ db: any SQLDatabase, table: String, _ id: UUID) async throws -> UUID {
        try await db.raw("SELECT 1 AS one FROM \(unsafeRaw: table) WHERE id = \(bind: bind(id))").first() == nil ? id : .v7(at: now())
    }
}

/// An import's row ids: UUIDv7s counting up by random steps (RFC 9562 §6.2), so the `id` index is appended to in order.
struct ImportIDs {
    private let high: UInt64
    private var low: UInt64
    private var random: SplitMix64

    init(at instant: Date) {
        random = SplitMix64()
        let first = UUID.v7(at: instant, using: &random).uuid
        high = withUnsafeBytes(of: first) { $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self).bigEndian }
        // The variant's 2 bits, then 62 random bits starting in the lower half, leaving room to count up
        // (random ids land all over the index: a page-cache miss per row, half the import's time).
        low = 0x8000_0000_0000_0000 | (random.next() & 0x1FFF_FFFF_FFFF_FFFF)
    }

    mutating func next() -> UUID {
        low += 1 + (random.next() & 0xFFFF)
        var bytes = (high.bigEndian, low.bigEndian)
        return withUnsafeBytes(of: &bytes) { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }
}
