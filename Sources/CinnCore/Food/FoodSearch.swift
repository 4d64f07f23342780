import Foundation

/// A search typed by a person, split into the words a food name is matched on.
public struct FoodSearchQuery: Sendable, Hashable {
    /// Lowercased words without accents or punctuation, amounts and measures left out ("2 slices of bread" → "bread");
    /// the last may be half typed.
    public let tokens: [String]
    /// Each token and the other words it also matches, the token first: British spellings and synonyms ("yoghurt",
    /// "yogurt"), and the correction of a typo (`corrected(by:)`).
    public let alternatives: [[String]]
    /// The alternatives without their plural endings (`singular`).
    let singularAlternatives: [[Substring]]

    /// Nil when the text has no letters or digits.
    public init?(_ text: String) {
        var words = FoodSearchQuery.searchKey(String(text.prefix(200))).split(separator: " ").map(String.init)
        // A number is an amount ("2 eggs") unless it is a percentage ("2% milk").
        let percentages = text.contains("%")
        let kept = words.filter { !Self.amountWords.contains($0) && (percentages || !$0.allSatisfy(\.isNumber)) }
        if !kept.isEmpty { words = kept }
        guard !words.isEmpty else { return nil }
        let tokens = Array(words.prefix(8))
        self.init(tokens: tokens, alternatives: tokens.map { Self.synonyms(of: $0, among: tokens) })
    }

    init(tokens: [String], alternatives: [[String]]) {
        self.tokens = tokens
        self.alternatives = alternatives
        singularAlternatives = alternatives.map { $0.map { Self.singular(Substring($0)) } }
    }

    /// The words joined by one space: what `searchKey` of a name equal to the query is.
    public var key: String { tokens.joined(separator: " ") }

    /// Words of amounts and measures typed with a food ("a medium apple", "cup of coffee", "2 slices of bread"), and
    /// the words that join them: left out of a search unless nothing else is left.
    static let amountWords: Set<String> = [
        "a", "an", "the", "of", "some", "and", "with", "in", "my",
        "cup", "cups", "mug", "mugs", "glass", "glasses", "bowl", "bowls", "plate", "plates", "slice", "slices",
        "piece", "pieces", "serving", "servings", "portion", "portions", "handful", "handfuls",
        "small", "medium", "large", "big", "tbsp", "tsp", "tablespoon", "tablespoons", "teaspoon", "teaspoons",
        "g", "gram", "grams", "kg", "oz", "ounce", "ounces", "ml", "lb", "lbs",
    ]

    /// Other words a food word is written with: British spellings and names ("courgette" → "zucchini"), short forms
    /// ("coke" → "cola") and what USDA calls a food ("porridge" → "oatmeal"). A rule with a context applies only when
    /// the query also has that word ("black" coffee is brewed coffee; "spring" onions are green onions).
    static let synonymTable: [String: [(words: [String], context: Set<String>?)]] = [
        "yoghurt": [(["yogurt"], nil)], "porridge": [(["oatmeal"], nil)], "aubergine": [(["eggplant"], nil)],
        "courgette": [(["zucchini"], nil)], "coriander": [(["cilantro"], nil)], "prawn": [(["shrimp"], nil)],
        "rocket": [(["arugula"], nil)], "beetroot": [(["beets"], nil)], "crisp": [(["chips"], nil)],
        "sweetcorn": [(["corn"], nil)], "wholemeal": [(["wheat"], nil)], "mince": [(["ground"], nil)],
        "minced": [(["ground"], nil)], "omelette": [(["omelet"], nil)], "donut": [(["doughnut"], nil)],
        "jello": [(["gelatin"], nil)], "coke": [(["cola"], nil)], "lasagne": [(["lasagna"], nil)],
        "mayo": [(["mayonnaise"], nil)], "spaghetti": [(["pasta"], nil)], "cornflakes": [(["flakes"], nil)], "toast": [(["toasted"], nil)],
        "soda": [(["soft"], nil)], "fizzy": [(["soft"], nil)], "pop": [(["soft"], ["drink"])],
        "garbanzo": [(["chickpeas"], nil)], "scallion": [(["green"], nil)], "biscuit": [(["cookie"], nil)],
        "burger": [(["hamburger"], nil)], "mac": [(["macaroni"], nil)], "oj": [(["orange"], nil)],
        "skimmed": [(["skim"], nil), (["fat"], ["semi"])], "semi": [(["reduced"], ["skimmed"])],
        "spring": [(["green"], ["onion", "onions"])], "jacket": [(["baked"], ["potato", "potatoes"])],
        "black": [(["brewed"], ["coffee"])], "shake": [(["powder"], ["protein"])],
        "milk": [(["leche", "latte"], ["coffee"])],
    ]

    /// `token`, its other number ("eggs": "egg"; "strawberry": "strawberries", which a prefix of the word does not
    /// reach) and its synonyms among the words of `tokens`.
    static func synonyms(of token: String, among tokens: [String]) -> [String] {
        var words = numbers(of: token)
        for rule in synonymTable[String(singular(Substring(token)))] ?? synonymTable[token] ?? []
        where rule.context.map({ context in tokens.contains { context.contains($0) } }) ?? true {
            words += rule.words.filter { !words.contains($0) }
        }
        return words
    }

    /// `word`, its singular when it is a plural, and the plural in "ies" of a word in "y" after a consonant.
    static func numbers(of word: String) -> [String] {
        var words = [word]
        let one = String(singular(Substring(word)))
        if one != word { words.append(one) }
        if one.count > 3, one.hasSuffix("y"), let before = one.dropLast().last, !"aeiou".contains(before) {
            let plural = String(one.dropLast()) + "ies"
            if !words.contains(plural) { words.append(plural) }
        }
        return words
    }

    /// This query with each word no name in `vocabulary` holds (nor, for the last, begins) also matching the nearest
    /// word that one does; nil when no word needed one. For a search that found nothing: "brocoli" → "broccoli".
    public func corrected(by vocabulary: FoodSearchVocabulary) -> FoodSearchQuery? {
        var alternatives = alternatives
        var changed = false
        for index in tokens.indices {
            let known = alternatives[index].contains { word in
                vocabulary.contains(word) || (index == tokens.count - 1 && vocabulary.hasWord(startingWith: word))
            }
            guard !known, let correction = vocabulary.correction(of: tokens[index]) else { continue }
            alternatives[index] += Self.numbers(of: correction).filter { !alternatives[index].contains($0) }
            changed = true
        }
        return changed ? FoodSearchQuery(tokens: tokens, alternatives: alternatives) : nil
    }

    /// The queries of all but one word, for a search of several words that found nothing ("tuna in water"); the last
    /// word is left out first, since the food is usually named first ("tuna", then "water").
    public var eachWordLeftOut: [FoodSearchQuery] {
        guard tokens.count > 1 else { return [] }
        return tokens.indices.reversed().map { left in
            FoodSearchQuery(
                tokens: tokens.enumerated().filter { $0.offset != left }.map(\.element),
                alternatives: alternatives.enumerated().filter { $0.offset != left }.map(\.element))
        }
    }

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

    /// An SQLite FTS5 query of quoted words, as `match` says; a word with alternatives is a group of them joined by OR
    /// (FTS5 joins a group to the rest only by an explicit AND).
    public func fts5(_ match: WordMatch) -> String {
        let groups = alternatives.contains { $0.count > 1 }
        return tokens.indices.map { index in
            let words = alternatives[index].map { "\"\($0)\"" + (isPrefix(index, match) ? "*" : "") }
            return words.count == 1 ? words[0] : "(" + words.joined(separator: " OR ") + ")"
        }.joined(separator: groups ? " AND " : " ")
    }

    /// An SQLite FTS5 query of the typed words alone, as `match` says (for a column filter, which takes no groups).
    public func typedFTS5(_ match: WordMatch) -> String {
        tokens.indices.map { index in "\"\(tokens[index])\"" + (isPrefix(index, match) ? "*" : "") }.joined(separator: " ")
    }

    /// A PostgreSQL `to_tsquery('simple', …)` text, as `match` says.
    public func tsquery(_ match: WordMatch) -> String {
        tokens.indices.map { index in
            let words = alternatives[index].map { $0 + (isPrefix(index, match) ? ":*" : "") }
            return words.count == 1 ? words[0] : "(" + words.joined(separator: " | ") + ")"
        }.joined(separator: " & ")
    }

    func isPrefix(_ index: Int, _ match: WordMatch) -> Bool {
        match == .prefixes || (match == .lastAsPrefix && index == tokens.count - 1)
    }
}

/// The words of the built-in foods' names, for correcting a typo in a search that found nothing.
public struct FoodSearchVocabulary: Sendable {
    /// Each word and how many names hold it.
    private let counts: [String: Int]
    private let sorted: [String]
    /// The words by their first letter, as bytes: a typo seldom changes the first letter, and this keeps a correction
    /// to a few hundred comparisons.
    private let byFirstLetter: [UInt8: [(word: String, bytes: [UInt8], count: Int)]]

    /// The words of `names` (as `FoodSearchQuery.searchKey` splits them).
    public init(names: some Sequence<String>) {
        var counts: [String: Int] = [:]
        for name in names {
            for word in FoodSearchQuery.searchKey(name).split(separator: " ") where word.count > 2 && !word.allSatisfy(\.isNumber) {
                counts[String(word), default: 0] += 1
            }
        }
        self.counts = counts
        sorted = counts.keys.sorted()
        var byFirstLetter: [UInt8: [(word: String, bytes: [UInt8], count: Int)]] = [:]
        for word in sorted {
            let bytes = Array(word.utf8)
            byFirstLetter[bytes[0], default: []].append((word, bytes, counts[word] ?? 0))
        }
        self.byFirstLetter = byFirstLetter
    }

    public func contains(_ word: String) -> Bool { counts[word] != nil }

    /// Whether some word begins with `prefix`.
    public func hasWord(startingWith prefix: String) -> Bool {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < prefix { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && sorted[low].hasPrefix(prefix)
    }

    /// The word nearest `word` by edits (a letter added, dropped, changed, or two swapped) among those with its first
    /// letter: one edit for words of 4–6 letters, two for longer ones, none for shorter; the word more names hold on a
    /// tie. Nil when none is that near.
    public func correction(of word: String) -> String? {
        let letters = Array(word.utf8)
        guard letters.count >= 4, let candidates = byFirstLetter[letters[0]] else { return nil }
        let allowed = letters.count >= 7 ? 2 : 1
        var best: (word: String, distance: Int, count: Int)?
        for candidate in candidates where abs(candidate.bytes.count - letters.count) <= allowed {
            guard let distance = Self.distance(letters, candidate.bytes, within: allowed) else { continue }
            if best == nil || distance < best!.distance || (distance == best!.distance && candidate.count > best!.count) {
                best = (candidate.word, distance, candidate.count)
            }
        }
        return best?.word
    }

    /// The optimal string alignment distance of `a` and `b` when at most `limit`, else nil.
    static func distance(_ a: [UInt8], _ b: [UInt8], within limit: Int) -> Int? {
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) <= limit ? max(a.count, b.count) : nil }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var smallest = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], before[j - 2] + 1) }
                smallest = min(smallest, current[j])
            }
            guard smallest <= limit else { return nil }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
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

    public init(
        id: UUID, name: String, brand: String?, source: FoodSource, basis: FoodBasis, isGeneric: Bool,
        isMine: Bool, lastUsed: Date?, energyKcalPer100: Double?, defaultServing: ServingSize?
    ) {
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
    /// Found for a nearby search (a typo corrected, or a word left out) because the search as typed found nothing.
    public var isApproximate = false

    public init(food: FoodSearchCandidate, otherVersions: Int, isApproximate: Bool = false) {
        self.food = food
        self.otherVersions = otherVersions
        self.isApproximate = isApproximate
    }
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

    /// What an everyday food (`EverydayFoods`) adds to its score: more than a generic food gains by starting with the
    /// query or by a shorter name, so "rice" finds cooked rice before rice cakes and fried rice.
    static let everydayBonus = 30.0

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
        for (words, singularWords) in zip(alternatives, singularAlternatives) {
            if nameWords.contains(where: { word in
                words.contains { word == $0 } || singularWords.contains(Self.singular(word))
            }) {
                wholeWords += 1
            } else if nameWords.contains(where: { word in words.contains { word.hasPrefix($0) } }) {
                continue
            } else if brandWords.contains(where: { word in words.contains { word.hasPrefix($0) } }) {
                inBrandOnly += 1
            } else {
                return nil
            }
        }
        // The name's first words are the query's, plural or not: "Apples, raw" for "apple".
        let afterGroup = nameWords.first.map { Self.groupFirstWords.contains($0) } ?? false
        let foodWords = afterGroup && !tokens.contains("fish") ? nameWords.dropFirst() : nameWords[...]
        let startsWithQuery =
            foodWords.count >= tokens.count
            && zip(foodWords, singularAlternatives).allSatisfy { word, words in words.contains(Self.singular(word)) }
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
        // A name typed whole comes before a look-alike the everyday foods would put first ("Bananas, raw").
        if candidate.isGeneric, nameKey == key { score += Self.everydayBonus + 10 }
        if candidate.isGeneric, inBrandOnly == 0 { score += 100 }
        if candidate.isGeneric, inBrandOnly == 0, EverydayFoods.names.contains(candidate.name) { score += Self.everydayBonus }
        if let first = foodWords.first {
            if singularAlternatives[0].contains(Self.singular(first)) { score += 8 }
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
