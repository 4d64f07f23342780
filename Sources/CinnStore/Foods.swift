import CinnCore
import Foundation
import SQLKit

extension Store {
    static let foodColumns = """
        id, user_id, name, brand, barcode, source, basis, category, nutrients, servings
        """

    func decodeFood(_ row: any SQLRow) throws -> Food {
        let nutrientsText = try row.decode(column: "nutrients", as: String.self)
        let servingsText = try row.decode(column: "servings", as: String.self)
        guard let nutrients = Nutrients(storageText: nutrientsText),
              let servings = ServingSize.servings(storageText: servingsText) else {
            throw CinnError(.internal, "a stored food is damaged")
        }
        return Food(id: try decodeUUID(row, "id"), name: try row.decode(column: "name", as: String.self),
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
            let version = try await reserveVersions(db, user: user)
            let time = milliseconds(now())
            try await db.raw("""
                INSERT INTO foods (id, user_id, name, brand, barcode, source, basis, generic, category, nutrients, energy_kcal,
                    servings, name_key, external_id, created_at_ms, updated_at_ms, version)
                VALUES (\(bind: bind(food.id)), \(bind: user.rawValue), \(bind: food.name), \(bind: food.brand),
                    \(bind: food.barcode), \(bind: food.source.rawValue), \(bind: food.basis.rawValue), 0, \(bind: food.category),
                    \(bind: food.nutrients.storageText), \(bind: food.nutrients.energy),
                    \(bind: ServingSize.storageText(food.servings)), \(bind: FoodSearchQuery.searchKey(food.name)),
                    \(bind: externalID), \(bind: time), \(bind: time), \(bind: version))
                """).run()
            return food
        }
    }

    /// A food the user may see (theirs or the shared database's); anything else is "not found".
    public func food(id: UUID, user: UserID) async throws -> Food {
        try await withConnection { try await food($0, id: id, user: user) }
    }

    func food(_ db: any SQLDatabase, id: UUID, user: UserID) async throws -> Food {
        guard let row = try await db.raw("""
            SELECT \(unsafeRaw: Self.foodColumns) FROM foods WHERE id = \(bind: bind(id)) AND \(Self.visible(to: user))
            """).first() else { throw CinnError.notFound("no food with id \(id)") }
        return try decodeFood(row)
    }

    /// Whether the food is the user's own (and so theirs to edit or delete).
    public func isOwnFood(id: UUID, user: UserID) async throws -> Bool {
        try await withConnection { db in
            try await db.raw("""
                SELECT 1 AS one FROM foods WHERE id = \(bind: bind(id)) AND user_id = \(bind: user.rawValue) AND deleted = 0
                """).first() != nil
        }
    }

    /// Replaces one of the user's own foods. Entries logged from it keep their snapshot.
    @discardableResult
    public func updateFood(_ food: Food, user: UserID) async throws -> Food {
        try await transaction { db in
            let version = try await reserveVersions(db, user: user)
            let rows = try await db.raw("""
                UPDATE foods SET name = \(bind: food.name), brand = \(bind: food.brand), barcode = \(bind: food.barcode),
                    basis = \(bind: food.basis.rawValue), category = \(bind: food.category),
                    nutrients = \(bind: food.nutrients.storageText), energy_kcal = \(bind: food.nutrients.energy),
                    servings = \(bind: ServingSize.storageText(food.servings)), name_key = \(bind: FoodSearchQuery.searchKey(food.name)),
                    updated_at_ms = \(bind: milliseconds(now())), version = \(bind: version)
                WHERE id = \(bind: bind(food.id)) AND user_id = \(bind: user.rawValue) AND deleted = 0 RETURNING row_id
                """).all()
            guard !rows.isEmpty else { throw CinnError.notFound("no food of yours with id \(food.id)") }
            return food
        }
    }

    /// Deletes one of the user's own foods; past entries keep their snapshot.
    public func deleteFood(id: UUID, user: UserID) async throws {
        try await transaction { db in
            let version = try await reserveVersions(db, user: user)
            let rows = try await db.raw("""
                UPDATE foods SET deleted = 1, updated_at_ms = \(bind: milliseconds(now())), version = \(bind: version)
                WHERE id = \(bind: bind(id)) AND user_id = \(bind: user.rawValue) AND deleted = 0 RETURNING row_id
                """).all()
            guard !rows.isEmpty else { throw CinnError.notFound("no food of yours with id \(id)") }
            try await db.raw("""
                DELETE FROM recent_foods WHERE user_id = \(bind: user.rawValue) AND food_id = \(bind: bind(id))
                """).run()
        }
    }

    /// The user's own foods, by name.
    public func ownFoods(user: UserID, limit: Int = 500, offset: Int = 0) async throws -> [Food] {
        try await withConnection { db in
            try await db.raw("""
                SELECT \(unsafeRaw: Self.foodColumns) FROM foods WHERE user_id = \(bind: user.rawValue) AND deleted = 0
                ORDER BY name_key, row_id LIMIT \(bind: limit) OFFSET \(bind: offset)
                """).all().map(decodeFood)
        }
    }

    /// The food with this barcode: the user's own first, then the shared database's.
    public func food(barcode: String, user: UserID) async throws -> Food? {
        try await withConnection { db in
            try await db.raw("""
                SELECT \(unsafeRaw: Self.foodColumns) FROM foods WHERE barcode = \(bind: barcode) AND \(Self.visible(to: user))
                ORDER BY user_id IS NULL, row_id DESC LIMIT 1
                """).first().map(decodeFood)
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
    /// Candidates fetched per search branch before ranking; look-alikes fold into one result.
    static let searchCandidates = 60

    /// Foods matching every word of `query` (the last may be half typed), ranked by
    /// `FoodSearchQuery.rank`: the user's own and recent foods, then generic foods and exact or
    /// prefix name matches, then the rest.
    public func searchFoods(_ query: FoodSearchQuery, user: UserID, limit: Int = 20) async throws -> [FoodSearchResult] {
        try await withConnection { db in
            var candidates = try await recentFoodCandidates(db, user: user, limit: 30).filter { candidate in
                query.score(nameKey: FoodSearchQuery.searchKey(candidate.name),
                            brandKey: candidate.brand.map(FoodSearchQuery.searchKey), candidate) != nil
            }
            let recent = Dictionary(candidates.map { ($0.id, $0.lastUsed) }, uniquingKeysWith: { first, _ in first })
            for branch in searchBranches(query, user: user) {
                for row in try await db.raw(branch).all() {
                    var candidate = try decodeCandidate(row, user: user)
                    if let used = recent[candidate.id] { candidate.lastUsed = used }
                    candidates.append(candidate)
                }
            }
            return query.rank(candidates, limit: limit)
        }
    }

    static let candidateColumns = "f.id, f.user_id, f.name, f.brand, f.source, f.basis, f.generic, f.energy_kcal, f.servings"

    /// The queries whose results are ranked together: the user's own and generic foods (a small
    /// set, fetched whole), branded products whose name starts with the first word, then branded
    /// products matching anywhere.
    func searchBranches(_ query: FoodSearchQuery, user: UserID) -> [SQLQueryString] {
        let columns = SQLQueryString(Self.candidateColumns)
        let limit = Self.searchCandidates
        if isSQLite {
            return [
                """
                SELECT \(columns) FROM foods_search_common s JOIN foods f ON f.row_id = s.rowid
                WHERE foods_search_common MATCH \(bind: query.fts5) AND (f.user_id IS NULL OR f.user_id = \(bind: user.rawValue))
                LIMIT 500
                """,
                """
                SELECT \(columns) FROM foods_search_branded s JOIN foods f ON f.row_id = s.rowid
                WHERE foods_search_branded MATCH \(bind: Self.anchoredMatch(query)) LIMIT \(bind: limit)
                """,
                """
                SELECT \(columns) FROM foods_search_branded s JOIN foods f ON f.row_id = s.rowid
                WHERE foods_search_branded MATCH \(bind: query.fts5) LIMIT \(bind: limit)
                """,
            ]
        }
        return [
            """
            SELECT \(columns) FROM foods f
            WHERE f.search @@ to_tsquery('simple', \(bind: query.tsquery)) AND f.deleted = 0
                AND (f.generic = 1 OR f.user_id IS NOT NULL) AND (f.user_id IS NULL OR f.user_id = \(bind: user.rawValue))
            LIMIT 500
            """,
            """
            SELECT \(columns) FROM foods f
            WHERE f.search @@ to_tsquery('simple', \(bind: query.tsquery)) AND f.deleted = 0 AND f.generic = 0
                AND f.user_id IS NULL AND f.name_key LIKE \(bind: Self.likePrefix(query.tokens[0]))
            LIMIT \(bind: limit)
            """,
            """
            SELECT \(columns) FROM foods f
            WHERE f.search @@ to_tsquery('simple', \(bind: query.tsquery)) AND f.deleted = 0 AND f.generic = 0
                AND f.user_id IS NULL
            LIMIT \(bind: limit)
            """,
        ]
    }

    /// An FTS5 query whose first word must start the name: name : ^"greek"* "yog"*.
    static func anchoredMatch(_ query: FoodSearchQuery) -> String {
        (["name : ^\"\(query.tokens[0])\"*"] + query.tokens.dropFirst().map { "\"\($0)\"*" }).joined(separator: " ")
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
            energyPer100: try row.decode(column: "energy_kcal", as: Double?.self),
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
        try await db.raw("""
            SELECT \(unsafeRaw: Self.candidateColumns), r.last_used_ms FROM recent_foods r
            JOIN foods f ON f.id = r.food_id AND (f.user_id IS NULL OR f.user_id = \(bind: user.rawValue)) AND f.deleted = 0
            WHERE r.user_id = \(bind: user.rawValue) ORDER BY r.last_used_ms DESC LIMIT \(bind: limit)
            """).all().map { row in
            try decodeCandidate(row, user: user,
                                lastUsed: date(milliseconds: try row.decode(column: "last_used_ms", as: Int64.self)))
        }
    }

    /// Records that the user just logged these foods.
    func touchRecentFoods(_ db: any SQLDatabase, foodIDs: [UUID], user: UserID) async throws {
        let time = milliseconds(now())
        for id in Set(foodIDs) {
            try await db.raw("""
                INSERT INTO recent_foods (user_id, food_id, last_used_ms) VALUES (\(bind: user.rawValue), \(bind: bind(id)), \(bind: time))
                ON CONFLICT (user_id, food_id) DO UPDATE SET last_used_ms = excluded.last_used_ms
                """).run()
        }
    }
}
