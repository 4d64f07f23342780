import CinnCore

/// The product fields Cinn reads, named as in the API, the JSON Lines dump and the CSV dump's header.
enum OpenFoodFactsField: Int, CaseIterable {
    case code, productName, productNameEnglish, genericName, brands, quantity, servingSize, servingQuantity, nutritionDataPer

    var key: String {
        switch self {
        case .code: "code"
        case .productName: "product_name"
        case .productNameEnglish: "product_name_en"
        case .genericName: "generic_name"
        case .brands: "brands"
        case .quantity: "quantity"
        case .servingSize: "serving_size"
        case .servingQuantity: "serving_quantity"
        case .nutritionDataPer: "nutrition_data_per"
        }
    }
}

/// An Open Food Facts `_100g` nutrient and the catalogue nutrient it fills.
struct OpenFoodFactsNutrient: Sendable {
    /// Position in `all`.
    let index: Int
    /// The key in `nutriments` and the CSV dump's header: `saturated-fat_100g`.
    let key: String
    /// The position of the catalogue nutrient in `Nutrient.all`.
    let nutrientIndex: Int
    /// From grams (kcal or kJ for energy) to the catalogue unit.
    let factor: Double

    /// Every nutrient read: energy and sodium (with their substitutes) first, then the rest in catalogue order.
    static let all: [OpenFoodFactsNutrient] = {
        let rows: [(id: String, catalogueKey: String, factor: Double?)] = [
            ("energy-kcal", "energy", 1),
            ("energy-kj", "energy", 1 / Nutrient.kilojoulesPerKilocalorie),
            ("energy", "energy", 1 / Nutrient.kilojoulesPerKilocalorie),
            ("sodium", "sodium", nil),
            // Sodium is about salt ÷ 2.5.
            ("salt", "sodium", 1000 / 2.5),
            ("proteins", "protein", nil),
            ("carbohydrates", "carbohydrate", nil),
            ("fat", "fat", nil),
            ("saturated-fat", "saturated_fat", nil),
            ("monounsaturated-fat", "monounsaturated_fat", nil),
            ("polyunsaturated-fat", "polyunsaturated_fat", nil),
            ("trans-fat", "trans_fat", nil),
            ("cholesterol", "cholesterol", nil),
            ("alpha-linolenic-acid", "omega3_ala", nil),
            ("eicosapentaenoic-acid", "omega3_epa", nil),
            ("docosahexaenoic-acid", "omega3_dha", nil),
            ("fiber", "fiber", nil),
            ("sugars", "sugars", nil),
            ("added-sugars", "added_sugars", nil),
            ("potassium", "potassium", nil),
            ("calcium", "calcium", nil),
            ("iron", "iron", nil),
            ("magnesium", "magnesium", nil),
            ("phosphorus", "phosphorus", nil),
            ("zinc", "zinc", nil),
            ("copper", "copper", nil),
            ("manganese", "manganese", nil),
            ("selenium", "selenium", nil),
            ("iodine", "iodine", nil),
            ("chloride", "chloride", nil),
            ("chromium", "chromium", nil),
            ("molybdenum", "molybdenum", nil),
            ("vitamin-a", "vitamin_a", nil),
            ("vitamin-c", "vitamin_c", nil),
            ("vitamin-d", "vitamin_d", nil),
            ("vitamin-e", "vitamin_e", nil),
            ("vitamin-k", "vitamin_k", nil),
            ("vitamin-b1", "thiamin", nil),
            ("vitamin-b2", "riboflavin", nil),
            ("vitamin-pp", "niacin", nil),
            ("pantothenic-acid", "pantothenic_acid", nil),
            ("vitamin-b6", "vitamin_b6", nil),
            ("biotin", "biotin", nil),
            ("vitamin-b9", "folate", nil),
            ("folates", "folate", nil),
            ("vitamin-b12", "vitamin_b12", nil),
            ("choline", "choline", nil),
        ]
        return rows.enumerated().map { index, row in
            let nutrient = Nutrient.named(row.catalogueKey)!
            // `_100g` amounts are in grams whatever unit the label used.
            let factor = row.factor ?? Self.perGram(nutrient.unit)
            return OpenFoodFactsNutrient(index: index, key: row.id + "_100g", nutrientIndex: nutrient.index, factor: factor)
        }
    }()

    /// How many of `unit` make one gram, exactly (1 / 0.000001 is not quite a million in binary).
    static func perGram(_ unit: NutrientUnit) -> Double {
        switch unit {
        case .kilocalories, .grams: 1
        case .milligrams: 1000
        case .micrograms: 1_000_000
        }
    }

    /// The keys of energy, kcal first; a product without any of them has nothing to import.
    static let energyKeys = all[..<3]
    /// The keys after energy, from sodium on.
    static let otherKeys = all[3...]
    static let energyKilocalories = all[0]
}

/// A `_100g` amount as a product gives it, before it is checked.
enum OpenFoodFactsAmount {
    case absent
    case value(Double)
    /// Not a number; the text as written.
    case invalid(String)
}

/// One product's fields, from a JSON object or a row of the CSV dump.
protocol OpenFoodFactsProductFields {
    /// The field's text, trimmed; nil when missing or blank.
    func text(_ field: OpenFoodFactsField) -> String?
    func amount(_ nutrient: OpenFoodFactsNutrient) -> OpenFoodFactsAmount
    /// How a rejection names the field: `product_name`, `nutriments.fat_100g`.
    func name(_ field: OpenFoodFactsField) -> String
    func name(_ nutrient: OpenFoodFactsNutrient) -> String
}
