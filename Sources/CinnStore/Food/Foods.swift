import CinnCore
import Foundation
import SQLKit
import SQLiteNIO

extension Store {
    static let foodColumns = """
        id, user_id, name, brand, barcode, source, basis, category, nutrients, servings
        """

    func decodeFood(_ row: any SQLRow) throws -> Food {
        let nutrientsText = try row.decode(column: "nutrients", as: String.self)
        let servingsText = try row.decode(column: "servings", as: String.self)
        guard let nutrients = Nutrients(storageText: nutrientsText),
            let servings = ServingSize.servings(storageText: servingsText)
        else {
            throw CinnError(.internal, "a stored food is damaged")
        }
        return Food(
            id: try decodeUUID(row, "id"), name: try row.decode(column: "name", as: String.self),
            brand: try row.decode(column: "brand", as: String?.self),
            barcode: try row.decode(column: "barcode", as: String?.self),
            source: FoodSource(rawValue: try row.decode(column: "source", as: String.self)) ?? .mine,
            basis: FoodBasis(rawValue: try row.decode(column: "basis", as: String.self)) ?? .grams,
            nutrients: nutrients, servings: servings,
            category: try row.decode(column: "category", as: String?.self))
    }

    /// Foods this user may see: the shared food database and their own.
    static func visible(to user: UserID) -> SQLQueryString {
        "(user_id IS NULL OR user_id = \(bind: user.rawValue)) AND deleted = 0"
    }

    /// Stores a food of the user's own (made by hand, or a barcode result they accepted). It must be validated.
    @discardableResult
    public func addFood(_ food: Food, user: UserID, externalID: String? = nil) async throws -> Food {
        try await transaction { db in
            try await insertOwnFood(db, food, user: user, externalID: externalID, importID: nil)
            return food
        }
    }

    func insertOwnFood(_ db: any SQLDatabase, _ food: Food, user: UserID, externalID: String?, importID: Int64?) async throws {
        let version = try await reserveVersions(db, user: user)
        let time = milliseconds(now())
        try await db.raw(
            """
            INSERT INTO foods (id, user_id, name, brand, barcode, source, basis, generic, category, nutrients, energy_kcal,
                servings, name_key, brand_key, external_id, import_id, created_at_ms, updated_at_ms, version)
            VALUES (\(bind: bind(food.id)), \(bind: user.rawValue), \(bind: food.name), \(bind: food.brand),
                \(bind: food.barcode), \(bind: food.source.rawValue), \(bind: food.basis.rawValue), 0, \(bind: food.category),
                \(bind: food.nutrients.storageText), \(bind: food.nutrients.energy),
                \(bind: ServingSize.storageText(food.servings)), \(bind: FoodSearchQuery.searchKey(food.name)),
                \(bind: food.brand.map(FoodSearchQuery.searchKey)), \(bind: externalID), \(bind: importID), \(bind: time), \(bind: time), \(bind: version))
            """
        ).run()
    }

    /// A food the user may see (theirs or the shared database's); anything else is "not found".
    public func food(id: UUID, user: UserID) async throws -> Food {
        try await withConnection { try await food($0, id: id, user: user) }
    }

    func food(_ db: any SQLDatabase, id: UUID, user: UserID) async throws -> Food {
        guard
            let row = try await db.raw(
                """
                SELECT \(unsafeRaw: Self.foodColumns) FROM foods WHERE id = \(bind: bind(id)) AND \(Self.visible(to: user))
                """
            ).first()
        else { throw CinnError.notFound("no food with id \(id)") }
        return try decodeFood(row)
    }

    /// Whether the food is the user's own (and so theirs to edit or delete).
    public func isOwnFood(id: UUID, user: UserID) async throws -> Bool {
        try await withConnection { db in
            try await db.raw(
                """
                SELECT 1 AS one FROM foods WHERE id = \(bind: bind(id)) AND user_id = \(bind: user.rawValue) AND deleted = 0
                """
            ).first() != nil
        }
    }

    /// Replaces one of the user's own foods. Entries logged from it keep their snapshot.
    @discardableResult
    public func updateFood(_ food: Food, user: UserID) async throws -> Food {
        try await transaction { db in
            let version = try await reserveVersions(db, user: user)
            let rows = try await db.raw(
                """
                UPDATE foods SET name = \(bind: food.name), brand = \(bind: food.brand), barcode = \(bind: food.barcode),
                    basis = \(bind: food.basis.rawValue), category = \(bind: food.category),
                    nutrients = \(bind: food.nutrients.storageText), energy_kcal = \(bind: food.nutrients.energy),
                    servings = \(bind: ServingSize.storageText(food.servings)), name_key = \(bind: FoodSearchQuery.searchKey(food.name)),
                    brand_key = \(bind: food.brand.map(FoodSearchQuery.searchKey)),
                    updated_at_ms = \(bind: milliseconds(now())), version = \(bind: version)
                WHERE id = \(bind: bind(food.id)) AND user_id = \(bind: user.rawValue) AND deleted = 0 AND recipe = 0 RETURNING row_id
                """
            ).all()
            guard !rows.isEmpty else {
                if try await db.raw(
                    """
                    SELECT 1 AS one FROM foods WHERE id = \(bind: bind(food.id)) AND user_id = \(bind: user.rawValue) AND deleted = 0
                    """
                ).first() != nil {
                    throw CinnError(.conflict, "this food is a recipe: its nutrients come from its ingredients, so edit the recipe")
                }
                throw CinnError.notFound("no food of yours with id \(food.id)")
            }
            return food
        }
    }

    /// Deletes one of the user's own foods; past entries keep their snapshot.
    public func deleteFood(id: UUID, user: UserID) async throws {
        try await transaction { db in
            let version = try await reserveVersions(db, user: user)
            let rows = try await db.raw(
                """
                UPDATE foods SET deleted = 1, updated_at_ms = \(bind: milliseconds(now())), version = \(bind: version)
                WHERE id = \(bind: bind(id)) AND user_id = \(bind: user.rawValue) AND deleted = 0 RETURNING row_id
                """
            ).all()
            guard !rows.isEmpty else { throw CinnError.notFound("no food of yours with id \(id)") }
            try await db.raw(
                """
                DELETE FROM recent_foods WHERE user_id = \(bind: user.rawValue) AND food_id = \(bind: bind(id))
                """
            ).run()
        }
    }

    /// The user's own foods, by name.
    public func ownFoods(user: UserID, limit: Int = 500, offset: Int = 0) async throws -> [Food] {
        try await withConnection { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: Self.foodColumns) FROM foods WHERE user_id = \(bind: user.rawValue) AND deleted = 0
                ORDER BY name_key, row_id LIMIT \(bind: limit) OFFSET \(bind: offset)
                """
            ).all().map(decodeFood)
        }
    }

    /// The food with this barcode: the user's own first, then the shared database's.
    public func food(barcode: String, user: UserID) async throws -> Food? {
        try await withConnection { db in
            try await db.raw(
                """
                SELECT \(unsafeRaw: Self.foodColumns) FROM foods WHERE barcode = \(bind: barcode) AND \(Self.visible(to: user))
                ORDER BY user_id IS NULL, row_id DESC LIMIT 1
                """
            ).first().map(decodeFood)
        }
    }

    /// Whether the shared food database holds any food beyond the built-in ones (an imported food database).
    public func hasImportedFoods() async throws -> Bool {
        try await withConnection { db in try await db.raw(SQLQueryString(Self.importedFoodsProbe)).first() != nil }
    }

    /// Imported shared foods have an import (the built-in ones none): the partial index foods_owner_import finds them.
    static let importedFoodsProbe = "SELECT 1 AS one FROM foods WHERE import_id IS NOT NULL AND user_id IS NULL AND deleted = 0 LIMIT 1"

    /// Whether `user` can find a branded product at all: a food with a brand, the person's or shared (one made, one
    /// found by its barcode).
    public func hasBrandedFoods(user: UserID) async throws -> Bool {
        try await withConnection { db in
            // Two probes of the partial index foods_branded, the shared foods' and the person's.
            try await db.raw(
                """
                SELECT 1 AS one WHERE EXISTS (SELECT 1 FROM foods WHERE brand IS NOT NULL AND deleted = 0 AND user_id IS NULL)
                    OR EXISTS (SELECT 1 FROM foods WHERE brand IS NOT NULL AND deleted = 0 AND user_id = \(bind: user.rawValue))
                """
            ).first() != nil
        }
    }

    /// How many foods the shared database holds.
    public func sharedFoodCount() async throws -> Int {
        try await withConnection { db in
            try await db.raw("SELECT COUNT(*) AS n FROM foods WHERE user_id IS NULL AND deleted = 0")
                .first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }
}

// MARK: - Search

extension Store {
    /// How many of the user's recent foods every search looks at.
    static let recentFoodsSearched = 30

    /// Candidates fetched per branded search branch before ranking; look-alikes fold into one result.
    static let searchCandidates = 60

    /// The queries whose results are ranked together.
    enum SearchBranch {
        /// The user's recent foods, their own foods and the generic foods (small sets, fetched whole,
        /// every word a prefix), in one statement: one round trip instead of three.
        case recentOwnAndCommon
        /// Branded products whose name starts with the first word.
        case brandedStart(FoodSearchQuery.WordMatch)
        /// Branded products matching anywhere.
        case branded(FoodSearchQuery.WordMatch)
    }

    /// At most how many branded products a word no built-in food has may match and still be taken for a typo.
    static let typoMatches = 5

    /// The words of the built-in foods' names, which a typo is corrected to.
    static let vocabulary = FoodSearchVocabulary(names: ((try? BuiltInFoodFile.decode(BuiltInFoods.bytes)) ?? []).map(\.food.name))

    /// Foods matching every word of `query` (the last may be half typed), ranked as `FoodSearchQuery.rank` ranks.
    /// When nothing matches, a typo is corrected ("brocoli"); when still nothing does, the foods matching all but one
    /// word are given, those of each word left out in turn ("tuna in water": tuna, then water). When only a few branded
    /// products match a word no generic food has, the generic foods of the corrected word follow the first two.
    public func searchFoods(_ query: FoodSearchQuery, user: UserID, limit: Int = 20) async throws -> [FoodSearchResult] {
        let found = try await matchingFoods(query, user: user, limit: limit)
        let corrected = query.corrected(by: Self.vocabulary)
        func nearby(_ results: [FoodSearchResult]) -> [FoodSearchResult] {
            results.map { FoodSearchResult(food: $0.food, otherVersions: $0.otherVersions, isApproximate: true) }
        }
        if !found.isEmpty {
            // Branded products can share a typo ("pinapple"): the corrected generic foods come after the first two. A word
            // that many products share is a name, not a typo ("coca cola"): only a few matches count as one.
            guard let corrected, found.count < Self.typoMatches,
                !found.contains(where: { $0.food.isGeneric || $0.food.isMine || $0.food.lastUsed != nil })
            else {
                return found
            }
            let ids = Set(found.map(\.food.id))
            let generic = try await matchingFoods(corrected, user: user, limit: 3).filter { $0.food.isGeneric && !ids.contains($0.food.id) }
            return Array((found.prefix(2) + nearby(generic) + found.dropFirst(2)).prefix(limit))
        }
        if let corrected {
            let found = try await matchingFoods(corrected, user: user, limit: limit)
            guard found.isEmpty else { return nearby(found) }
        }
        var lists: [[FoodSearchResult]] = []
        for fewer in (corrected ?? query).eachWordLeftOut {
            lists.append(try await matchingFoods(fewer, user: user, limit: limit))
        }
        var results: [FoodSearchResult] = []
        var seen = Set<UUID>()
        for rank in 0..<limit {
            for list in lists where rank < list.count && results.count < limit && seen.insert(list[rank].food.id).inserted {
                results.append(FoodSearchResult(food: list[rank].food, otherVersions: list[rank].otherVersions, isApproximate: true))
            }
        }
        return results
    }

    /// Foods matching every word of `query`, ranked.
    func matchingFoods(_ query: FoodSearchQuery, user: UserID, limit: Int) async throws -> [FoodSearchResult] {
        try await withRawConnection { connection in
            var ranking = FoodSearchRanking(query: query)
            var recent: [UUID: Date] = [:]
            // Servings are decoded for the results only: most candidates are ranked away.
            var servings: [UUID: String] = [:]
            func fetch(_ branch: SearchBranch) async throws -> Int {
                var found: [FoodSearchCandidate] = []
                if let sqlite = connection.sqlite {
                    let (sql, binds) = sqliteSearch(branch, query, user: user)
                    for row in try await rows(sqlite, sql, binds) {
                        var (candidate, servingsText) = try sqliteCandidate(row, user: user)
                        if let used = row.column("last_used_ms")?.integer { recent[candidate.id] = date(milliseconds: Int64(used)) }
                        candidate.lastUsed = recent[candidate.id]
                        found.append(candidate)
                        servings[candidate.id] = servingsText
                    }
                } else {
                    found = try await connection.sql.raw(postgresSearch(branch, query, user: user)).all().map { row in
                        var candidate = try decodeCandidate(row, user: user)
                        if case .recentOwnAndCommon = branch, let used = try row.decode(column: "last_used_ms", as: Int64?.self) {
                            recent[candidate.id] = date(milliseconds: used)
                        }
                        candidate.lastUsed = recent[candidate.id]
                        return candidate
                    }
                }
                ranking.add(found)
                return found.count
            }
            _ = try await fetch(.recentOwnAndCommon)
            // Branded products rank below the user's own and generic foods: fetch them only while the
            // list has room, cheapest match first (FTS5 merges the index lists of every word a prefix
            // begins): whole words, the last word as a prefix, every word as a prefix only if none.
            var branded = 0
            for match in FoodSearchQuery.WordMatch.allCases where ranking.lineCount < limit {
                if match == .prefixes, branded > 0 || query.tokens.count == 1 { break }
                let anywhere = try await fetch(.branded(match))
                // Fewer than the limit is every match, those at the start of the name included.
                if anywhere == Self.searchCandidates { _ = try await fetch(.brandedStart(match)) }
                branded += anywhere
            }
            var results = ranking.results(limit: limit)
            for index in results.indices {
                guard let text = servings[results[index].food.id] else { continue }
                results[index].food.defaultServing = ServingSize.servings(storageText: text)?.first
            }
            return results
        }
    }

    static let candidateColumns = "f.id, f.user_id, f.name, f.brand, f.source, f.basis, f.generic, f.energy_kcal, f.servings"

    /// A branch's query on SQLite, as SQL text and `SQLiteData` binds.
    func sqliteSearch(_ branch: SearchBranch, _ query: FoodSearchQuery, user: UserID) -> (String, [SQLiteData]) {
        let select = "SELECT \(Self.candidateColumns) FROM "
        let branded =
            select + """
                foods_search_branded s JOIN foods f ON f.row_id = s.rowid
                WHERE foods_search_branded MATCH ? LIMIT \(Self.searchCandidates)
                """
        let own =
            select + """
                foods_search_own s JOIN foods f ON f.row_id = s.rowid WHERE foods_search_own MATCH ? AND f.user_id = ? LIMIT 500
                """
        let common = select + "foods_search_common s JOIN foods f ON f.row_id = s.rowid WHERE foods_search_common MATCH ? LIMIT 500"
        let user = SQLiteData.integer(Int(user.rawValue))
        switch branch {
        case .recentOwnAndCommon:
            // Recent foods that do not match are ranked away; the first row of a food wins, so a recent one keeps its time.
            let recents = """
                SELECT \(Self.candidateColumns), r.last_used_ms FROM recent_foods r
                JOIN foods f ON f.id = r.food_id AND (f.user_id IS NULL OR f.user_id = ?) AND f.deleted = 0
                WHERE r.user_id = ? ORDER BY r.last_used_ms DESC LIMIT \(Self.recentFoodsSearched)
                """
            let sql = "SELECT * FROM (\(recents)) UNION ALL SELECT *, NULL FROM (\(own)) UNION ALL SELECT *, NULL FROM (\(common))"
            return (sql, [user, user, .text(query.fts5), user, .text(query.fts5)])
        case .brandedStart(let match):
            return (branded, [.text(Self.anchoredMatch(query, match))])
        case .branded(let match):
            return (branded, [.text(query.fts5(match))])
        }
    }

    /// A branch's query on PostgreSQL.
    func postgresSearch(_ branch: SearchBranch, _ query: FoodSearchQuery, user: UserID) -> SQLQueryString {
        let columns = SQLQueryString(Self.candidateColumns)
        let limit = Self.searchCandidates
        switch branch {
        case .recentOwnAndCommon:
            return """
                (SELECT \(columns), r.last_used_ms FROM recent_foods r
                    JOIN foods f ON f.id = r.food_id AND (f.user_id IS NULL OR f.user_id = \(bind: user.rawValue)) AND f.deleted = 0
                    WHERE r.user_id = \(bind: user.rawValue) ORDER BY r.last_used_ms DESC LIMIT \(bind: Self.recentFoodsSearched))
                UNION ALL
                (SELECT \(columns), NULL FROM foods f
                    WHERE f.search @@ to_tsquery('simple', \(bind: query.tsquery)) AND f.deleted = 0 AND f.user_id = \(bind: user.rawValue)
                    LIMIT 500)
                UNION ALL
                (SELECT \(columns), NULL FROM foods f
                    WHERE f.search @@ to_tsquery('simple', \(bind: query.tsquery)) AND f.deleted = 0 AND f.generic = 1
                        AND f.user_id IS NULL
                    LIMIT 500)
                """
        case .brandedStart(let match):
            return """
                SELECT \(columns) FROM foods f
                WHERE f.search @@ to_tsquery('simple', \(bind: query.tsquery(match))) AND f.deleted = 0
                    AND f.generic = 0 AND f.user_id IS NULL AND f.name_key LIKE \(bind: Self.likePrefix(query.tokens[0]))
                LIMIT \(bind: limit)
                """
        case .branded(let match):
            return """
                SELECT \(columns) FROM foods f
                WHERE f.search @@ to_tsquery('simple', \(bind: query.tsquery(match))) AND f.deleted = 0
                    AND f.generic = 0 AND f.user_id IS NULL
                LIMIT \(bind: limit)
                """
        }
    }

    /// A search row read from SQLite's values directly (SQLKit's `Decodable` path costs more than the query).
    func sqliteCandidate(_ row: SQLiteRow, user: UserID) throws -> (FoodSearchCandidate, servings: String) {
        guard case .blob(let idBytes)? = row.column("id"), idBytes.readableBytes == 16,
            let name = row.column("name")?.string, let source = row.column("source")?.string,
            let basis = row.column("basis")?.string, let servings = row.column("servings")?.string
        else {
            throw CinnError(.internal, "a stored food is damaged")
        }
        let id = idBytes.readableBytesView.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        let candidate = FoodSearchCandidate(
            id: id, name: name, brand: row.column("brand")?.string, source: FoodSource(rawValue: source) ?? .mine,
            basis: FoodBasis(rawValue: basis) ?? .grams, isGeneric: row.column("generic")?.integer == 1,
            isMine: row.column("user_id")?.integer.map(Int64.init) == user.rawValue, lastUsed: nil,
            energyKcalPer100: row.column("energy_kcal")?.double, defaultServing: nil)
        return (candidate, servings)
    }

    /// An FTS5 query whose first word must start the name: name_key : ^"greek" "yog"*.
    static func anchoredMatch(_ query: FoodSearchQuery, _ match: FoodSearchQuery.WordMatch) -> String {
        "name_key : ^" + query.typedFTS5(match)
    }

    static func likePrefix(_ token: String) -> String {
        token.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
    }

    func decodeCandidate(_ row: any SQLRow, user: UserID, lastUsed: Date? = nil) throws -> FoodSearchCandidate {
        let owner = try row.decode(column: "user_id", as: Int64?.self)
        return FoodSearchCandidate(
            id: try decodeUUID(row, "id"), name: try row.decode(column: "name", as: String.self),
            brand: try row.decode(column: "brand", as: String?.self),
            source: FoodSource(rawValue: try row.decode(column: "source", as: String.self)) ?? .mine,
            basis: FoodBasis(rawValue: try row.decode(column: "basis", as: String.self)) ?? .grams,
            isGeneric: try row.decode(column: "generic", as: Int.self) == 1,
            isMine: owner == user.rawValue, lastUsed: lastUsed,
            energyKcalPer100: try row.decode(column: "energy_kcal", as: Double?.self),
            defaultServing: ServingSize.servings(storageText: try row.decode(column: "servings", as: String.self))?.first)
    }
}

// MARK: - Recents

extension Store {
    /// The foods the user logged last, most recent first, with when.
    public func recentFoods(user: UserID, limit: Int = 30) async throws -> [FoodSearchCandidate] {
        try await withConnection { try await recentFoodCandidates($0, user: user, limit: limit) }
    }

    func recentFoodCandidates(_ db: any SQLDatabase, user: UserID, limit: Int) async throws -> [FoodSearchCandidate] {
        try await db.raw(
            """
            SELECT \(unsafeRaw: Self.candidateColumns), r.last_used_ms FROM recent_foods r
            JOIN foods f ON f.id = r.food_id AND (f.user_id IS NULL OR f.user_id = \(bind: user.rawValue)) AND f.deleted = 0
            WHERE r.user_id = \(bind: user.rawValue) ORDER BY r.last_used_ms DESC, f.name LIMIT \(bind: limit)
            """
        ).all().map { row in
            try decodeCandidate(
                row, user: user,
                lastUsed: date(milliseconds: try row.decode(column: "last_used_ms", as: Int64.self)))
        }
    }

    /// How many servings of which serving the user logged of `foodID` last time, if ever.
    public func lastLoggedAmount(foodID: UUID, user: UserID) async throws -> (servings: Double, servingLabel: String)? {
        try await withConnection { db in
            try await db.raw(
                """
                SELECT servings, serving_label FROM food_entries
                WHERE user_id = \(bind: user.rawValue) AND food_id = \(bind: bind(foodID)) AND deleted = 0
                ORDER BY eaten_at_ms DESC LIMIT 1
                """
            ).first().map { row in
                (try row.decode(column: "servings", as: Double.self), try row.decode(column: "serving_label", as: String.self))
            }
        }
    }

    /// Records that the user just logged these foods.
    func touchRecentFoods(_ db: any SQLDatabase, foodIDs: [UUID], user: UserID) async throws {
        let time = milliseconds(now())
        for id in Set(foodIDs) {
            try await db.raw(
                """
                INSERT INTO recent_foods (user_id, food_id, last_used_ms) VALUES (\(bind: user.rawValue), \(bind: bind(id)), \(bind: time))
                ON CONFLICT (user_id, food_id) DO UPDATE SET last_used_ms = excluded.last_used_ms
                """
            ).run()
        }
    }
}
