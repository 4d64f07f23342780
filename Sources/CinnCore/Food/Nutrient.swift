import Foundation

/// The unit a nutrient is stored and shown in.
public enum NutrientUnit: String, Sendable, Codable, CaseIterable {
    case kilocalories = "kcal"
    case grams = "g"
    case milligrams = "mg"
    case micrograms = "µg"

    /// How many grams one of this unit is (energy has none).
    public var grams: Double? {
        switch self {
        case .kilocalories: nil
        case .grams: 1
        case .milligrams: 0.001
        case .micrograms: 0.000_001
        }
    }
}

/// One entry of the nutrient catalogue: a stable key, a name, a canonical unit and, when the
/// FDA sets one, the Daily Value for adults and children ≥ 4 (21 CFR 101.9, 2016 rule).
public struct Nutrient: Sendable, Hashable, Identifiable, CustomStringConvertible {
    public enum Group: String, Sendable, CaseIterable {
        case energy, macronutrients, fats, carbohydrates, vitamins, minerals
    }

    /// Stable key used in JSON, CSV and the database: `saturated_fat`.
    public let key: String
    public let name: String
    public let unit: NutrientUnit
    /// FDA Daily Value in `unit`, or nil when the FDA sets none (trans fat, total sugars).
    public let dailyValue: Double?
    public let group: Group
    /// Position in the catalogue, the order nutrients are shown in.
    public let index: Int

    public var id: String { key }
    public var description: String { key }
}

extension Nutrient {
    /// Every nutrient Cinn knows, in display order: the Nutrition Shortcut food object's keys,
    /// the USDA FoodData Central set, and the rest of the FDA label.
    public static let all: [Nutrient] = {
        let rows: [(String, String, NutrientUnit, Double?, Group)] = [
            ("energy", "Energy", .kilocalories, nil, .energy),
            ("protein", "Protein", .grams, 50, .macronutrients),
            ("carbohydrate", "Carbohydrate", .grams, 275, .macronutrients),
            ("fat", "Fat", .grams, 78, .macronutrients),
            ("saturated_fat", "Saturated fat", .grams, 20, .fats),
            ("monounsaturated_fat", "Monounsaturated fat", .grams, nil, .fats),
            ("polyunsaturated_fat", "Polyunsaturated fat", .grams, nil, .fats),
            ("trans_fat", "Trans fat", .grams, nil, .fats),
            ("cholesterol", "Cholesterol", .milligrams, 300, .fats),
            ("omega3_ala", "Omega-3 ALA", .grams, nil, .fats),
            ("omega3_epa", "Omega-3 EPA", .grams, nil, .fats),
            ("omega3_dha", "Omega-3 DHA", .grams, nil, .fats),
            ("fiber", "Fiber", .grams, 28, .carbohydrates),
            ("sugars", "Sugars", .grams, nil, .carbohydrates),
            ("added_sugars", "Added sugars", .grams, 50, .carbohydrates),
            ("sodium", "Sodium", .milligrams, 2300, .minerals),
            ("potassium", "Potassium", .milligrams, 4700, .minerals),
            ("calcium", "Calcium", .milligrams, 1300, .minerals),
            ("iron", "Iron", .milligrams, 18, .minerals),
            ("magnesium", "Magnesium", .milligrams, 420, .minerals),
            ("phosphorus", "Phosphorus", .milligrams, 1250, .minerals),
            ("zinc", "Zinc", .milligrams, 11, .minerals),
            ("copper", "Copper", .milligrams, 0.9, .minerals),
            ("manganese", "Manganese", .milligrams, 2.3, .minerals),
            ("selenium", "Selenium", .micrograms, 55, .minerals),
            ("iodine", "Iodine", .micrograms, 150, .minerals),
            ("chloride", "Chloride", .milligrams, 2300, .minerals),
            ("chromium", "Chromium", .micrograms, 35, .minerals),
            ("molybdenum", "Molybdenum", .micrograms, 45, .minerals),
            ("vitamin_a", "Vitamin A (RAE)", .micrograms, 900, .vitamins),
            ("vitamin_c", "Vitamin C", .milligrams, 90, .vitamins),
            ("vitamin_d", "Vitamin D", .micrograms, 20, .vitamins),
            ("vitamin_e", "Vitamin E", .milligrams, 15, .vitamins),
            ("vitamin_k", "Vitamin K", .micrograms, 120, .vitamins),
            ("thiamin", "Thiamin (B1)", .milligrams, 1.2, .vitamins),
            ("riboflavin", "Riboflavin (B2)", .milligrams, 1.3, .vitamins),
            ("niacin", "Niacin (B3)", .milligrams, 16, .vitamins),
            ("pantothenic_acid", "Pantothenic acid (B5)", .milligrams, 5, .vitamins),
            ("vitamin_b6", "Vitamin B6", .milligrams, 1.7, .vitamins),
            ("biotin", "Biotin (B7)", .micrograms, 30, .vitamins),
            // Labels state µg DFE; USDA gives total folate, the same for foods without added folic acid.
            ("folate", "Folate", .micrograms, 400, .vitamins),
            ("vitamin_b12", "Vitamin B12", .micrograms, 2.4, .vitamins),
            ("choline", "Choline", .milligrams, 550, .vitamins),
        ]
        // `Nutrients` keeps which amounts are known in one 64-bit mask.
        precondition(rows.count <= 64, "the nutrient catalogue outgrew Nutrients' presence mask")
        return rows.enumerated().map { index, row in
            Nutrient(key: row.0, name: row.1, unit: row.2, dailyValue: row.3, group: row.4, index: index)
        }
    }()

    private static let byKey: [String: Nutrient] = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })

    /// The nutrient with this key, or nil.
    public static func named(_ key: String) -> Nutrient? { byKey[key] }

    /// The nutrient with this key, or an error naming the field.
    public static func parse(_ key: String, field: String = "nutrients") throws(CinnError) -> Nutrient {
        guard let nutrient = byKey[key] else {
            throw .invalid("\(field).\(key)", "unknown nutrient \"\(key)\"")
        }
        return nutrient
    }

    public static let energy = all[0]
    public static let protein = all[1]
    public static let carbohydrate = all[2]
    public static let fat = all[3]
    public static let saturatedFat = named("saturated_fat")!
    public static let sugars = named("sugars")!
    public static let fiber = named("fiber")!
    public static let sodium = named("sodium")!

    /// The four numbers people look at first.
    public static let macros: [Nutrient] = [energy, protein, carbohydrate, fat]

    /// Kilojoules in one kilocalorie (thermochemical calorie, exact).
    public static let kilojoulesPerKilocalorie = 4.184

    /// The amount that is `percent` % of the Daily Value, or nil when the nutrient has none.
    public func amount(percentDailyValue percent: Double) -> Double? {
        dailyValue.map { $0 * percent / 100 }
    }

    /// The share of the Daily Value `amount` is, in percent, or nil when the nutrient has none.
    public func percentDailyValue(of amount: Double) -> Double? {
        dailyValue.map { amount / $0 * 100 }
    }

    /// Converts an amount given in `unit` (a mass unit, or kJ/kcal for energy) to this nutrient's unit.
    public func amount(_ value: Double, in unit: String, field: String) throws(CinnError) -> Double {
        let spelled = unit.trimmingCharacters(in: .whitespaces).lowercased()
        if self.unit == .kilocalories {
            switch spelled {
            case "kcal", "cal", "calories", "kilocalories": return value
            case "kj", "kilojoules": return Self.kilocalories(kilojoules: value)
            default: throw .invalid(field, "energy must be in kcal or kJ, not \"\(unit)\"")
            }
        }
        let given: NutrientUnit
        switch spelled {
        case "g", "grams", "gram": given = .grams
        case "mg", "milligrams", "milligram": given = .milligrams
        case "µg", "μg", "mcg", "ug", "micrograms", "microgram": given = .micrograms
        default: throw .invalid(field, "\(name) must be in g, mg or µg, not \"\(unit)\"")
        }
        // One multiplication or division by an exact power of 1000, so 1 mg is exactly 1000 µg.
        let steps = given.thousandsPerGram - self.unit.thousandsPerGram
        let factor = steps == 0 ? 1 : steps == 1 || steps == -1 ? 1000.0 : 1_000_000.0
        return steps > 0 ? value / factor : value * factor
    }

    /// Kilocalories in `kilojoules`. Dividing by the integer 4184 J rather than by 4.184 (not exact
    /// in binary) makes label values come out whole: 418.4 kJ is 100 kcal, 836.8 kJ is 200.
    public static func kilocalories(kilojoules: Double) -> Double {
        kilojoules * 1000 / 4184
    }
}

extension NutrientUnit {
    /// How many thousandfold steps this mass unit is below the gram: g 0, mg 1, µg 2.
    fileprivate var thousandsPerGram: Int {
        switch self {
        case .kilocalories, .grams: 0
        case .milligrams: 1
        case .micrograms: 2
        }
    }
}
