import Foundation

/// A search typed by a person, split into the words a food name is matched on.
public struct FoodSearchQuery: Sendable, Hashable {
    /// Lowercased words without accents or punctuation; the last may be half typed.
    public let tokens: [String]

    /// Nil when the text has no letters or digits.
    public init?(_ text: String) {
        let tokens = FoodSearchQuery.searchKey(String(text.prefix(200))).split(separator: " ").map(String.init)
        guard !tokens.isEmpty else { return nil }
        self.tokens = Array(tokens.prefix(8))
    }

    /// The words joined by one space: what `searchKey` of a name equal to the query is.
    public var key: String { tokens.joined(separator: " ") }

    /// A name or brand as search compares it: lowercase, accents dropped, anything but letters
    /// and digits turned into single spaces. "Crème Fraîche, 30%" → "creme fraiche 30".
    public static func searchKey(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        var key = ""
        key.reserveCapacity(folded.utf8.count)
        var pendingSpace = false
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                if pendingSpace, !key.isEmpty { key.append(" ") }
                pendingSpace = false
                key.unicodeScalars.append(scalar)
            } else {
                pendingSpace = true
            }
        }
        return key
    }

    /// An SQLite FTS5 query: every word as a quoted prefix ("greek"* "yog"*).
    public var fts5: String { tokens.map { "\"\($0)\"*" }.joined(separator: " ") }

    /// A PostgreSQL `to_tsquery('simple', …)` text: every word as a prefix (greek:* & yog:*).
    public var tsquery: String { tokens.map { "\($0):*" }.joined(separator: " & ") }
}

/// A food found by search, with what ranking needs to know about it.
public struct FoodSearchCandidate: Sendable, Hashable {
    public var id: UUID
    public var name: String
    public var brand: String?
    public var source: FoodSource
    public var basis: FoodBasis
    /// A USDA food that is not a branded product ("Apple, raw").
    public var isGeneric: Bool
    /// Made or cached by this user.
    public var isMine: Bool
    /// When this user last logged it, if among the recent foods.
    public var lastUsed: Date?
    public var energyPer100: Double?
    public var defaultServing: ServingSize?

    public init(id: UUID, name: String, brand: String?, source: FoodSource, basis: FoodBasis, isGeneric: Bool,
                isMine: Bool, lastUsed: Date?, energyPer100: Double?, defaultServing: ServingSize?) {
        self.id = id
        self.name = name
        self.brand = brand
        self.source = source
        self.basis = basis
        self.isGeneric = isGeneric
        self.isMine = isMine
        self.lastUsed = lastUsed
        self.energyPer100 = energyPer100
        self.defaultServing = defaultServing
    }
}

/// One line of search results: a food, and how many other foods look the same (same name and brand).
public struct FoodSearchResult: Sendable, Hashable {
    public var food: FoodSearchCandidate
    /// Other foods with the same name and brand, folded into this line.
    public var otherVersions: Int
}

extension FoodSearchQuery {
    /// Orders candidates and folds look-alikes: the user's own and recent foods first; then generic
    /// foods whose name matches (a raw apple before apple products); then exact and prefix name
    /// matches, other name matches, brand-only matches; shorter names first.
    public func rank(_ candidates: [FoodSearchCandidate], limit: Int) -> [FoodSearchResult] {
        var seen = Set<UUID>()
        let scored = candidates.compactMap { candidate -> (score: Double, candidate: FoodSearchCandidate, key: String)? in
            guard seen.insert(candidate.id).inserted else { return nil }
            let nameKey = Self.searchKey(candidate.name)
            guard let score = score(nameKey: nameKey, brandKey: candidate.brand.map(Self.searchKey), candidate) else { return nil }
            return (score, candidate, nameKey + "|" + (candidate.brand.map(Self.searchKey) ?? ""))
        }.sorted { $0.score != $1.score ? $0.score > $1.score : $0.candidate.name.count < $1.candidate.name.count }
        var results: [FoodSearchResult] = []
        var groups: [String: Int] = [:]
        for item in scored {
            if let index = groups[item.key] {
                results[index].otherVersions += 1
            } else if results.count < limit {
                groups[item.key] = results.count
                results.append(FoodSearchResult(food: item.candidate, otherVersions: 0))
            }
        }
        return results
    }

    /// Words USDA puts on the plain form of a food ("Apple, raw", "Oatmeal, NFS": not further specified).
    static let plainFormWords: Set<Substring> = ["raw", "nfs", "plain"]

    /// Higher is better; nil when the food does not match every word.
    public func score(nameKey: String, brandKey: String?, _ candidate: FoodSearchCandidate) -> Double? {
        let nameWords = nameKey.split(separator: " ")
        let brandWords = brandKey?.split(separator: " ") ?? []
        var wholeWords = 0
        var inBrandOnly = 0
        for token in tokens {
            if nameWords.contains(where: { $0 == token }) {
                wholeWords += 1
            } else if nameWords.contains(where: { $0.hasPrefix(token) }) {
                continue
            } else if brandWords.contains(where: { $0.hasPrefix(token) }) {
                inBrandOnly += 1
            } else {
                return nil
            }
        }
        var score = 0.0
        if candidate.isMine || candidate.lastUsed != nil { score += 1000 }
        let match: Double
        if inBrandOnly == tokens.count {
            match = 0
        } else if nameKey == key {
            match = 60
        } else if nameKey.hasPrefix(key) {
            match = 45
        } else if inBrandOnly == 0, wholeWords == tokens.count {
            match = 30
        } else {
            match = 15 - Double(inBrandOnly) * 5
        }
        score += match
        if candidate.isGeneric, inBrandOnly == 0 { score += 100 }
        if let first = nameWords.first, first == tokens[0] { score += 8 }
        if nameWords.contains(where: { Self.plainFormWords.contains($0) }) { score += 2 }
        score += Double(wholeWords) * 3
        score -= Double(nameWords.count) * 1.5
        return score
    }
}
