import Foundation

/// Where a food's data came from.
public enum FoodSource: String, Sendable, Codable, CaseIterable {
    /// Made by the user.
    case mine
    /// USDA FoodData Central.
    case usda
    /// Open Food Facts (a dump or the product API).
    case openFoodFacts = "off"

    public var label: String {
        switch self {
        case .mine: "My food"
        case .usda: "USDA"
        case .openFoodFacts: "Open Food Facts"
        }
    }
}

/// Whether a food's nutrients are per 100 g or per 100 ml.
public enum FoodBasis: String, Sendable, Codable, CaseIterable {
    case grams = "g"
    case milliliters = "ml"
}

/// A named portion of a food: "1 medium" weighing 182 g. Its multiplier (the origin
/// document's `nutrition_multiplier`) is derived: the nutrients of one serving are the food's
/// per-100 values times `amount / 100`.
public struct ServingSize: Sendable, Hashable, Codable {
    public var label: String
    /// Grams (or millilitres, for a food measured per 100 ml) in one serving.
    public var amount: Double

    public init(label: String, amount: Double) {
        self.label = label
        self.amount = amount
    }

    /// Checked: a label and a finite amount above zero.
    public static func validated(label: String, amount: Double?, field: @autoclosure () -> String = "servings") throws(CinnError)
        -> ServingSize
    {
        let label = label.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !label.isEmpty else { throw .invalid("\(field()).label", "a serving needs a name, like \"1 cup\"") }
        guard label.count <= 100 else { throw .invalid("\(field()).label", "a serving name must be at most 100 characters") }
        try ValidValues.plainText(label, field: "\(field()).label", allowingLineBreaks: false)
        guard let amount else { throw .invalid("\(field()).grams", "the serving \"\(label)\" needs its weight in grams") }
        guard amount.isFinite, amount > 0 else {
            throw .invalid("\(field()).grams", "the serving \"\(label)\" must weigh more than 0 g")
        }
        guard amount <= 100_000 else { throw .invalid("\(field()).grams", "the serving \"\(label)\" must weigh at most 100 kg") }
        return ServingSize(label: label, amount: amount)
    }

    /// The factor applied to per-100 values for one serving.
    public var multiplier: Double { amount / 100 }

    /// 100 g (or 100 ml): the serving every food has.
    public static func hundred(_ basis: FoodBasis) -> ServingSize {
        ServingSize(label: "100 \(basis.rawValue)", amount: 100)
    }

    /// "1 medium (182 g)".
    public func description(basis: FoodBasis) -> String {
        let grams = "\(JSONText.compactNumber((amount * 10).rounded() / 10)) \(basis.rawValue)"
        return label == grams ? label : "\(label) (\(grams))"
    }
}

/// A food: what it is, where it came from, its nutrients per 100 g (or 100 ml) and its servings.
public struct Food: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var name: String
    public var brand: String?
    public var barcode: String?
    public var source: FoodSource
    public var basis: FoodBasis
    /// Per 100 g, or per 100 ml when `basis` is `.milliliters`.
    public var nutrients: Nutrients
    /// Named portions, the default first. Logging by weight uses `ServingSize.hundred` or grams.
    public var servings: [ServingSize]
    public var category: String?

    public init(
        id: UUID = .v7(), name: String, brand: String? = nil, barcode: String? = nil, source: FoodSource = .mine,
        basis: FoodBasis = .grams, nutrients: Nutrients, servings: [ServingSize] = [], category: String? = nil
    ) {
        self.id = id
        self.name = name
        self.brand = brand
        self.barcode = barcode
        self.source = source
        self.basis = basis
        self.nutrients = nutrients
        self.servings = servings
        self.category = category
    }

    /// The default serving: the first named one, else 100 g.
    public var defaultServing: ServingSize { servings.first ?? .hundred(basis) }

    /// Every serving a person can pick: the named ones, then 100 g and 1 g.
    public var servingChoices: [ServingSize] {
        var choices = servings
        for serving in [ServingSize.hundred(basis), ServingSize(label: "1 \(basis.rawValue)", amount: 1)]
        where !choices.contains(where: { $0.label == serving.label }) {
            choices.append(serving)
        }
        return choices
    }

    /// The nutrients of `count` servings of `serving`.
    public func nutrients(servings count: Double, of serving: ServingSize) -> Nutrients {
        nutrients.scaled(by: serving.multiplier * count)
    }

    /// Checks what a person or a file gave: a name, a sane barcode, servings with grams.
    public func validated() throws(CinnError) -> Food {
        var food = self
        food.name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !food.name.isEmpty else { throw .invalid("name", "a food needs a name") }
        guard food.name.count <= 200 else { throw .invalid("name", "a food name must be at most 200 characters") }
        try ValidValues.plainText(food.name, field: "name", allowingLineBreaks: false)
        food.brand = brand?.trimmingCharacters(in: .whitespacesAndNewlines)
        if food.brand?.isEmpty == true { food.brand = nil }
        if let brand = food.brand, brand.count > 200 { throw .invalid("brand", "a brand must be at most 200 characters") }
        if let brand = food.brand { try ValidValues.plainText(brand, field: "brand", allowingLineBreaks: false) }
        if let barcode {
            let trimmed = barcode.trimmingCharacters(in: .whitespaces)
            food.barcode = trimmed.isEmpty ? nil : try Barcode.validated(trimmed).digits
        }
        // The subscript setter does not check, so a food built in code may hold NaN or a negative.
        for (nutrient, amount) in nutrients.amounts {
            try Nutrients.check(nutrient, amount, field: "nutrients.\(nutrient.key)")
        }
        if let problem = implausibleNutrient { throw .invalid("nutrients.\(problem.nutrient.key)", problem.reason) }
        food.servings = []
        for (index, serving) in servings.enumerated() {
            food.servings.append(try ServingSize.validated(label: serving.label, amount: serving.amount, field: "servings[\(index)]"))
        }
        return food
    }
}

extension Food {
    /// The most energy 100 g can hold: pure fat has about 900 kcal.
    public static let maximumEnergyPer100 = 1000.0

    /// The first per-100 amount no food can have, and why: more than 1000 kcal, or more of one
    /// nutrient than the 100 g it is in (200 g per 100 ml, for syrups and other dense liquids).
    public var implausibleNutrient: (nutrient: Nutrient, reason: String)? {
        let limitGrams: Double = basis == .grams ? 100 : 200
        for (nutrient, amount) in nutrients.amounts {
            if nutrient == .energy {
                if amount > Self.maximumEnergyPer100 {
                    return (
                        nutrient,
                        "\(JSONText.compactNumber(amount)) kcal per 100 \(basis.rawValue) is more than any food has (at most 1000)"
                    )
                }
            } else if let grams = nutrient.unit.grams, amount * grams > limitGrams {
                return (nutrient, "\(nutrient.name) per 100 \(basis.rawValue) cannot weigh more than \(Int(limitGrams)) g")
            }
        }
        return nil
    }
}

/// A product barcode (EAN-13, EAN-8, UPC-A or another GTIN), digits only.
public struct Barcode: Sendable, Hashable, CustomStringConvertible {
    public let digits: String

    /// Accepts 8 to 14 digits; spaces and dashes people type are dropped, and a 12-digit UPC-A gets
    /// the leading 0 of its EAN-13. The check digit is not enforced, because stores print in-house
    /// codes that fail it.
    public static func validated(_ text: String, field: String = "barcode") throws(CinnError) -> Barcode {
        let digits = text.filter { $0 != " " && $0 != "-" }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .invalid(field, "a barcode has only digits")
        }
        guard (8...14).contains(digits.count) else { throw .invalid(field, "a barcode has 8 to 14 digits") }
        // A 12-digit UPC-A is the EAN-13 with a leading 0, as Open Food Facts and most databases write it.
        return Barcode(digits: digits.count == 12 ? "0" + digits : digits)
    }

    private init(digits: String) { self.digits = digits }

    /// Whether the last digit is the GS1 check digit of the others.
    public var hasValidCheckDigit: Bool {
        let numbers = digits.compactMap(\.wholeNumberValue)
        let body = numbers.dropLast().reversed()
        let sum = body.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 3 : 1) }
        return (10 - sum % 10) % 10 == numbers.last
    }

    public var description: String { digits }
}

/// A food read from a database file, with the identity that makes a second import skip it.
public struct ImportedFood: Sendable, Hashable {
    public var food: Food
    /// The source's own id (an Open Food Facts barcode) or a hash of the row's content (USDA).
    public var externalID: String
    /// The line (or JSON Lines record) the food came from, 1-based.
    public var line: Int
    /// A plain food rather than a branded product, such as USDA's non-branded "Bananas, raw".
    public var isGeneric: Bool

    public init(food: Food, externalID: String, line: Int, isGeneric: Bool = false) {
        self.food = food
        self.externalID = externalID
        self.line = line
        self.isGeneric = isGeneric
    }
}

extension ServingSize {
    /// Servings as the store keeps them: `[{"label":"1 medium","grams":182}]`.
    public static func storageText(_ servings: [ServingSize]) -> String {
        "["
            + servings.map { "{\"label\":\(JSONText.quoted($0.label)),\"grams\":\(JSONText.compactNumber($0.amount))}" }
            .joined(separator: ",") + "]"
    }

    /// Reads `storageText`; nil when it is not that shape.
    public static func servings(storageText text: String) -> [ServingSize]? {
        guard case .array(let items)? = try? JSONParser.parse(text.utf8) else { return nil }
        var servings: [ServingSize] = []
        for item in items {
            guard case .object(let members) = item, let label = members["label"]?.string, let grams = members["grams"]?.number else {
                return nil
            }
            servings.append(ServingSize(label: label, amount: grams))
        }
        return servings
    }
}
