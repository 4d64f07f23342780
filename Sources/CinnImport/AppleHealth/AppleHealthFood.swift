import CinnCore
import Foundation

/// Dietary records become food log entries (docs/FORMATS.md §1.9): one per Food correlation, named by its
/// `HKFoodType`, with its nutrients; the top-level copies of a correlation's records are not counted again;
/// dietary records outside any correlation become entries of their own, one per source and time (what a
/// food-logging app wrote together). Correlations come after the records in an export, so top-level dietary
/// records are kept (compactly) until the end.
struct HealthFoodCollector {
    /// A top-level dietary record.
    private struct Item {
        let key: UInt64
        let nutrient: Nutrient
        let amount: Double
        let source: String
        let start: HealthDate
        let end: HealthDate
        let offset: Int
        let line: Int
    }

    /// A Food correlation with its nutrients and the keys of its records.
    private struct Food {
        var name: String?
        let source: String
        let start: HealthDate
        let end: HealthDate
        let offset: Int
        var nutrients: [Nutrient: Double] = [:]
        var keys: [UInt64] = []
    }

    private var items: [Item] = []
    private var foods: [Food] = []
    private var current: Food?

    /// Cinn's nutrient for an HK dietary type; nil for those Cinn does not keep in the food log (water, caffeine).
    static func nutrient(_ type: String) -> Nutrient? {
        guard type.hasPrefix("HKQuantityTypeIdentifierDietary") else { return nil }
        return byType[String(type.dropFirst("HKQuantityTypeIdentifierDietary".count))]
    }

    private static let byType: [String: Nutrient] = {
        let keys = [
            "EnergyConsumed": "energy", "Protein": "protein", "Carbohydrates": "carbohydrate", "FatTotal": "fat",
            "FatSaturated": "saturated_fat", "FatMonounsaturated": "monounsaturated_fat", "FatPolyunsaturated": "polyunsaturated_fat",
            "Cholesterol": "cholesterol", "Fiber": "fiber", "Sugar": "sugars", "Sodium": "sodium", "Potassium": "potassium",
            "Calcium": "calcium", "Iron": "iron", "Magnesium": "magnesium", "Phosphorus": "phosphorus", "Zinc": "zinc",
            "Copper": "copper", "Manganese": "manganese", "Selenium": "selenium", "Iodine": "iodine", "Chloride": "chloride",
            "Chromium": "chromium", "Molybdenum": "molybdenum", "VitaminA": "vitamin_a", "VitaminC": "vitamin_c",
            "VitaminD": "vitamin_d", "VitaminE": "vitamin_e", "VitaminK": "vitamin_k", "Thiamin": "thiamin",
            "Riboflavin": "riboflavin", "Niacin": "niacin", "PantothenicAcid": "pantothenic_acid", "VitaminB6": "vitamin_b6",
            "Biotin": "biotin", "Folate": "folate", "VitaminB12": "vitamin_b12",
        ]
        return keys.compactMapValues(Nutrient.named)
    }()

    /// What makes a dietary record the same record in a correlation and at top level.
    static func key(_ record: HealthRecord) -> UInt64 {
        ContentHash.of([record.type, record.sourceName, record.start.text, record.value ?? ""]).value
    }

    /// Keeps a top-level dietary record of `nutrient`.
    mutating func add(_ record: HealthRecord, _ nutrient: Nutrient) throws {
        items.append(
            Item(
                key: Self.key(record), nutrient: nutrient, amount: try Self.amount(record, nutrient), source: record.sourceName,
                start: record.start, end: record.end, offset: record.utcOffsetSeconds, line: record.line))
    }

    mutating func startCorrelation(source: String, start: HealthDate, end: HealthDate, offset: Int) {
        current = Food(source: source, start: start, end: end, offset: offset)
    }

    mutating func correlationName(_ name: String) { current?.name = name }

    /// A record inside the open correlation.
    mutating func addToCorrelation(_ record: HealthRecord) {
        guard current != nil else { return }
        current?.keys.append(Self.key(record))
        if let nutrient = Self.nutrient(record.type), let amount = try? Self.amount(record, nutrient) {
            current?.nutrients[nutrient, default: 0] += amount
        }
    }

    mutating func endCorrelation() {
        if let food = current, !food.nutrients.isEmpty { foods.append(food) }
        current = nil
    }

    private static func amount(_ record: HealthRecord, _ nutrient: Nutrient) throws -> Double {
        guard let text = record.value, let value = Double(text), value.isFinite, value >= 0 else {
            throw CinnError.invalid("value", "\(record.type) needs an amount, not \(record.value.map { "\"\($0)\"" } ?? "none")")
        }
        // Energy by HKUnit's case-sensitive spelling (`cal` is a calorie, `Cal` a kilocalorie), the rest by Cinn's.
        if nutrient == .energy {
            guard let kilocalories = HealthUnit.kilocalories(value, record.unit ?? "") else {
                throw CinnError.invalid("unit", "energy must be in kcal, Cal, cal or kJ, not \"\(record.unit ?? "")\"")
            }
            return try ValidValues.entryAmount(kilocalories, of: nutrient, field: "value")
        }
        return try ValidValues.entryAmount(try nutrient.amount(value, in: record.unit ?? "", field: "unit"), of: nutrient, field: "value")
    }

    /// The entries: the correlations', then the other records' grouped by source and time.
    func entries() throws -> [FoodLogEntry] {
        let inCorrelations = Set(foods.flatMap(\.keys))
        var entries = try foods.map { food in
            try Self.entry(
                name: food.name ?? "Food", source: food.source, start: food.start, end: food.end, offset: food.offset,
                nutrients: food.nutrients, kind: "HKCorrelationTypeIdentifierFood")
        }
        var groups: [String: (first: Item, nutrients: [Nutrient: Double])] = [:]
        var order: [String] = []
        for item in items where !inCorrelations.contains(item.key) {
            let group = "\(item.source)\u{1F}\(item.start.milliseconds)\u{1F}\(item.end.milliseconds)"
            if groups[group] == nil {
                groups[group] = (item, [:])
                order.append(group)
            }
            groups[group]!.nutrients[item.nutrient, default: 0] += item.amount
        }
        for group in order {
            let (first, nutrients) = groups[group]!
            entries.append(
                try Self.entry(
                    name: "Food from \(first.source.isEmpty ? "Apple Health" : first.source)", source: first.source,
                    start: first.start, end: first.end, offset: first.offset, nutrients: nutrients, kind: "dietary"))
        }
        return entries
    }

    private static func entry(
        name: String, source: String, start: HealthDate, end: HealthDate, offset: Int,
        nutrients amounts: [Nutrient: Double], kind: String
    ) throws -> FoodLogEntry {
        let nutrients = try Nutrients(amounts)
        let hash = ContentHash.of([kind, name, source, start.text, end.text, nutrients.storageText])
        let at = start.date
        return FoodLogEntry(
            foodID: nil, name: String(name.prefix(200)), meal: meal(at: at, offset: offset), eatenAt: at, utcOffsetSeconds: offset,
            servings: 1, servingLabel: "serving", servingAmount: nil, nutrients: nutrients, source: "apple-health",
            externalID: "apple:" + hash.hex)
    }

    /// The meal a time of day falls in: breakfast before 10:30, lunch before 15:00, dinner before 21:00, else snacks.
    static func meal(at instant: Date, offset: Int) -> Meal {
        let seconds = Int((instant.timeIntervalSince1970 + Double(offset)).truncatingRemainder(dividingBy: 86_400) + 86_400) % 86_400
        switch seconds {
        case ..<(10 * 3600 + 1800): return .breakfast
        case ..<(15 * 3600): return .lunch
        case ..<(21 * 3600): return .dinner
        default: return .snacks
        }
    }
}
