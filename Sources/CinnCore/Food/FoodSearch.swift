import Foundation

/// A search typed by a person, split into the words a food name is matched on.
public struct FoodSearchQuery: Sendable, Hashable {
    /// Lowercased words without accents or punctuation; the last may be half typed.
    public let tokens: [String]
    /// The tokens without their plural endings (`singular`).
    let singularTokens: [Substring]

    /// Nil when the text has no letters or digits.
    public init?(_ text: String) {
        let tokens = FoodSearchQuery.searchKey(String(text.prefix(200))).split(separator: " ").map(String.init)
        guard !tokens.isEmpty else { return nil }
        self.tokens = Array(tokens.prefix(8))
        singularTokens = self.tokens.map { Self.singular(Substring($0)) }
    }

    /// The words joined by one space: what `searchKey` of a name equal to the query is.
    public var key: String { tokens.joined(separator: " ") }

    /// A name or brand as search compares it: lowercase, accents dropped, anything but letters
    /// and digits turned into single spaces. "Crème Fraîche, 30%" → "creme fraiche 30".
    public static func searchKey(_ text: String) -> String {
        if let key = asciiSearchKey(text) { return key }
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

    /// `searchKey` of an ASCII text, byte by byte (search ranks hundreds of names a keystroke); nil for other text.
    static func asciiSearchKey(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var key: [UInt8] = []
            key.reserveCapacity(bytes.count)
            var pendingSpace = false
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                let lower = byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0)
                if (lower >= 0x61 && lower <= 0x7A) || (byte >= 0x30 && byte <= 0x39) {
                    if pendingSpace, !key.isEmpty { key.append(0x20) }
                    pendingSpace = false
                    key.append(lower)
                } else {
                    pendingSpace = true
                }
            }
            return String(decoding: key, as: UTF8.self)
        }
    }

    /// An SQLite FTS5 query: every word as a quoted prefix ("greek"* "yog"*).
    public var fts5: String { fts5(.prefixes) }

    /// A PostgreSQL `to_tsquery('simple', …)` text: every word as a prefix (greek:* & yog:*).
    public var tsquery: String { tsquery(.prefixes) }

    /// How much of each word a search matches; whole words are cheapest (a prefix gathers every word it begins).
    public enum WordMatch: Sendable, CaseIterable {
        /// "greek" "yogurt"
        case whole
        /// "greek" "yog"*: the last word may be half typed.
        case lastAsPrefix
        /// "greek"* "yog"*
        case prefixes
    }

    /// An SQLite FTS5 query of quoted words, as `match` says.
    public func fts5(_ match: WordMatch) -> String {
        tokens.indices.map { index in "\"\(tokens[index])\"" + (isPrefix(index, match) ? "*" : "") }.joined(separator: " ")
    }

    /// A PostgreSQL `to_tsquery('simple', …)` text, as `match` says.
    public func tsquery(_ match: WordMatch) -> String {
        tokens.indices.map { index in tokens[index] + (isPrefix(index, match) ? ":*" : "") }.joined(separator: " & ")
    }

    func isPrefix(_ index: Int, _ match: WordMatch) -> Bool {
        match == .prefixes || (match == .lastAsPrefix && index == tokens.count - 1)
    }
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
    public var energyKcalPer100: Double?
    public var defaultServing: ServingSize?

    public init(id: UUID, name: String, brand: String?, source: FoodSource, basis: FoodBasis, isGeneric: Bool,
                isMine: Bool, lastUsed: Date?, energyKcalPer100: Double?, defaultServing: ServingSize?) {
        self.id = id
        self.name = name
        self.brand = brand
        self.source = source
        self.basis = basis
        self.isGeneric = isGeneric
        self.isMine = isMine
        self.lastUsed = lastUsed
        self.energyKcalPer100 = energyKcalPer100
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
        var ranking = FoodSearchRanking(query: self)
        ranking.add(candidates)
        return ranking.results(limit: limit)
    }

    /// Words USDA puts on the plain form of a food ("Apple, raw", "Oatmeal, NFS": not further specified).
    static let plainFormWords: Set<Substring> = ["raw", "nfs", "plain"]

    /// First words of USDA names for food made for someone else or somewhere else: baby food, fast food, restaurant
    /// dishes. They rank below the plain food unless the query names them.
    static let specialFirstWords: Set<Substring> = ["babyfood", "fast", "restaurant"]

    /// First words USDA puts before a food as its group ("Fish, salmon, raw", "Beverages, coffee, brewed"): the food
    /// after them counts as the start of the name.
    static let groupFirstWords: Set<Substring> = ["fish", "crustaceans", "mollusks", "beverages", "spices", "nuts", "seeds", "cereals"]

    /// Whether a name starts with a chain's name in capitals, as USDA writes restaurant dishes ("McDONALD'S, Hamburger").
    // ASCII letters only, byte by byte: search ranks hundreds of names a keystroke.
    static func startsWithChain(_ name: String) -> Bool {
        var upper = 0, lower = 0
        for byte in name.utf8 {
            if byte == 0x2C { break }
            if byte >= 0x41 && byte <= 0x5A { upper += 1 } else if byte >= 0x61 && byte <= 0x7A { lower += 1 }
        }
        return upper >= 3 && upper > lower
    }

    /// A word without its plural ending, so "apples" matches "apple" and "tomatoes" "tomato": the English rules
    /// food names need, not a stemmer.
    // Search keys are lowercase words, so their last bytes are compared (most words do not end in "s").
    static func singular(_ word: Substring) -> Substring {
        let bytes = word.utf8
        guard bytes.last == 0x73, bytes.count > 3 else { return word }
        func ends(_ ending: StaticString) -> Bool {
            let suffix = UnsafeBufferPointer(start: ending.utf8Start, count: ending.utf8CodeUnitCount)
            return bytes.count >= suffix.count && bytes.suffix(suffix.count).elementsEqual(suffix)
        }
        if ends("oes") || ends("ches") || ends("shes") || ends("xes") || ends("sses") { return word.dropLast(2) }
        if ends("ss") || ends("us") || ends("is") { return word }
        return word.dropLast()
    }

    /// Higher is better; nil when the food does not match every word.
    public func score(nameKey: String, brandKey: String?, _ candidate: FoodSearchCandidate) -> Double? {
        let nameWords = nameKey.split(separator: " ")
        let brandWords = brandKey?.split(separator: " ") ?? []
        var wholeWords = 0
        var inBrandOnly = 0
        for (token, singularToken) in zip(tokens, singularTokens) {
            if nameWords.contains(where: { $0 == token || Self.singular($0) == singularToken }) {
                wholeWords += 1
            } else if nameWords.contains(where: { $0.hasPrefix(token) }) {
                continue
            } else if brandWords.contains(where: { $0.hasPrefix(token) }) {
                inBrandOnly += 1
            } else {
                return nil
            }
        }
        // The name's first words are the query's, plural or not: "Apples, raw" for "apple".
        let afterGroup = nameWords.first.map { Self.groupFirstWords.contains($0) } ?? false
        let foodWords = afterGroup && !tokens.contains("fish") ? nameWords.dropFirst() : nameWords[...]
        let startsWithQuery = foodWords.count >= tokens.count
            && zip(foodWords, singularTokens).allSatisfy { Self.singular($0) == $1 }
        // The user's own and recent foods score 985 or more, generic ones 100 or more, branded ones at
        // most 82 (an exact name of 8 whole words): a store may stop fetching branded products once
        // the others fill the list. Whole words before a half-typed word ("Fish, salmon, raw" before
        // "Salmonberries" for "salmon").
        var score = 0.0
        if candidate.isMine || candidate.lastUsed != nil { score += 1000 }
        let match: Double
        if inBrandOnly == tokens.count {
            match = 0
        } else if nameKey == key || (startsWithQuery && foodWords.count == tokens.count) {
            match = 60
        } else if nameKey.hasPrefix(key + " ") || startsWithQuery {
            match = 45
        } else if inBrandOnly == 0, wholeWords == tokens.count {
            match = 30
        } else if nameKey.hasPrefix(key) {
            match = 25
        } else {
            match = 15 - Double(inBrandOnly) * 5
        }
        score += match
        if candidate.isGeneric, inBrandOnly == 0 { score += 100 }
        if let first = foodWords.first {
            if Self.singular(first) == singularTokens[0] { score += 8 }
            let special = Self.specialFirstWords.contains(first) || Self.startsWithChain(candidate.name)
            if special, !tokens.contains(where: { first.hasPrefix($0) }) { score -= 20 }
        }
        if nameWords.contains(where: { Self.plainFormWords.contains($0) }) { score += 2 }
        score += Double(wholeWords) * 3
        score -= Double(min(nameWords.count, 10)) * 1.5
        return score
    }
}

/// `FoodSearchQuery.rank` in steps: candidates are scored as they come, so a store can stop fetching once the list is full.
public struct FoodSearchRanking: Sendable {
    public let query: FoodSearchQuery
    private var scored: [(score: Double, length: Int, candidate: FoodSearchCandidate, key: String)] = []
    private var seen = Set<UUID>()
    private var keys = Set<String>()

    public init(query: FoodSearchQuery) {
        self.query = query
    }

    /// How many result lines the matching candidates so far make (look-alikes folded).
    public var lineCount: Int { keys.count }

    /// Scores and keeps the candidates that match; a candidate already added is ignored.
    public mutating func add(_ candidates: [FoodSearchCandidate]) {
        for candidate in candidates where seen.insert(candidate.id).inserted {
            let nameKey = FoodSearchQuery.searchKey(candidate.name)
            let brandKey = candidate.brand.map(FoodSearchQuery.searchKey)
            guard let score = query.score(nameKey: nameKey, brandKey: brandKey, candidate) else { continue }
            let key = nameKey + "|" + (brandKey ?? "")
            keys.insert(key)
            scored.append((score, candidate.name.utf8.count, candidate, key))
        }
    }

    /// The best `limit` lines, each with how many look-alikes it folds.
    public func results(limit: Int) -> [FoodSearchResult] {
        var results: [FoodSearchResult] = []
        var groups: [String: Int] = [:]
        for item in scored.sorted(by: { $0.score != $1.score ? $0.score > $1.score : $0.length < $1.length }) {
            if let index = groups[item.key] {
                results[index].otherVersions += 1
            } else if results.count < limit {
                groups[item.key] = results.count
                results.append(FoodSearchResult(food: item.candidate, otherVersions: 0))
            }
        }
        return results
    }
}
