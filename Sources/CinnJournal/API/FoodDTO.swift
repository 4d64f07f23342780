import CinnCore
import Foundation

/// Nutrients as the API shows them: `{"energy": 52, "protein": 0.3}`, catalogue keys, canonical units.
struct NutrientsDTO: Encodable {
    let nutrients: Nutrients

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (nutrient, amount) in nutrients.amounts {
            try container.encode((amount * 10_000).rounded() / 10_000, forKey: Key(nutrient.key))
        }
    }

    struct Key: CodingKey {
        let stringValue: String
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}

/// One nutrient of a total, with its share of the Daily Value.
struct NutrientTotalDTO: Encodable {
    let key: String
    let name: String
    let amount: Double
    let unit: String
    @Nullable var percentDailyValue: Double?

    enum CodingKeys: String, CodingKey {
        case key, name, amount, unit
        case percentDailyValue = "percent_daily_value"
    }

    /// With `percentDailyValue` only for a day's amount (a week's total has none).
    init(_ nutrient: Nutrient, _ amount: Double, isDaily: Bool = true) {
        key = nutrient.key
        name = nutrient.name
        self.amount = (amount * 1000).rounded() / 1000
        unit = nutrient.unit.rawValue
        percentDailyValue = isDaily ? nutrient.percentDailyValue(of: amount).map { ($0 * 10).rounded() / 10 } : nil
    }

    static func list(_ nutrients: Nutrients, isDaily: Bool = true) -> [NutrientTotalDTO] {
        nutrients.amounts.map { NutrientTotalDTO($0.nutrient, $0.amount, isDaily: isDaily) }
    }
}

struct ServingDTO: Codable {
    let label: String
    let grams: Double?
}

package struct FoodDTO: Encodable {
    let id: String
    let name: String
    @Nullable var brand: String?
    @Nullable var barcode: String?
    let source: String
    let basis: String
    @Nullable var category: String?
    let mine: Bool
    let nutrientsPer100: NutrientsDTO
    let servings: [ServingDTO]

    package init(_ food: Food, mine: Bool) {
        id = food.id.lowercasedString
        name = food.name
        brand = food.brand
        barcode = food.barcode
        source = food.source.rawValue
        basis = food.basis.rawValue
        category = food.category
        self.mine = mine
        nutrientsPer100 = NutrientsDTO(nutrients: food.nutrients)
        servings = food.servingChoices.map { ServingDTO(label: $0.label, grams: $0.amount) }
    }

    enum CodingKeys: String, CodingKey {
        case id, name, brand, barcode, source, basis, category, mine, servings
        case nutrientsPer100 = "nutrients_per_100"
    }
}

/// A barcode lookup: where the food was found, and the food.
package struct BarcodeResultDTO: Encodable {
    let foundIn: String
    let food: FoodDTO

    enum CodingKeys: String, CodingKey {
        case food
        case foundIn = "found_in"
    }

    package init(foundIn: String, food: FoodDTO) {
        self.foundIn = foundIn
        self.food = food
    }
}

/// A search's answer: the results, and whether they are of a nearby search because the search as typed found nothing.
package struct FoodSearchDTO: Encodable {
    let results: [FoodSummaryDTO]
    let approximate: Bool

    package init(_ results: [FoodSearchResult]) {
        self.results = results.map { FoodSummaryDTO($0.food, otherVersions: $0.otherVersions) }
        approximate = !results.isEmpty && results.allSatisfy(\.isApproximate)
    }
}

/// A search result or a recent food: enough to show a line and log it.
package struct FoodSummaryDTO: Encodable {
    let id: String
    let name: String
    @Nullable var brand: String?
    let source: String
    let basis: String
    let mine: Bool
    @Nullable var energyKcalPer100: Double?
    @Nullable var defaultServing: ServingDTO?
    let otherVersions: Int
    @Nullable var lastUsed: String?

    package init(_ food: FoodSearchCandidate, otherVersions: Int = 0) {
        id = food.id.lowercasedString
        name = food.name
        brand = food.brand
        source = food.source.rawValue
        basis = food.basis.rawValue
        mine = food.isMine
        energyKcalPer100 = food.energyKcalPer100.map { ($0 * 10).rounded() / 10 }
        defaultServing = food.defaultServing.map { ServingDTO(label: $0.label, grams: $0.amount) }
        self.otherVersions = otherVersions
        lastUsed = food.lastUsed.map { ISO8601DateFormatter().string(from: $0) }
    }

    enum CodingKeys: String, CodingKey {
        case id, name, brand, source, basis, mine
        case energyKcalPer100 = "energy_kcal_per_100"
        case defaultServing = "default_serving"
        case otherVersions = "other_versions"
        case lastUsed = "last_used"
    }
}

package struct FoodEntryDTO: Encodable {
    let id: String
    @Nullable var foodID: String?
    let name: String
    @Nullable var brand: String?
    let meal: String
    let eatenAt: String
    let date: String
    let servings: Double
    let serving: ServingDTO
    let nutrients: NutrientsDTO
    @Nullable var note: String?
    let source: String

    enum CodingKeys: String, CodingKey {
        case id, name, brand, meal, date, servings, serving, nutrients, note, source
        case foodID = "food_id"
        case eatenAt = "eaten_at"
    }

    package init(_ entry: FoodLogEntry) {
        id = entry.id.lowercasedString
        foodID = entry.foodID?.lowercasedString
        name = entry.name
        brand = entry.brand
        meal = entry.meal.name
        eatenAt = WeighIn.isoString(instant: entry.eatenAt, utcOffsetSeconds: entry.utcOffsetSeconds)
        date = entry.localDate.iso
        servings = entry.servings
        serving = ServingDTO(label: entry.servingLabel, grams: entry.servingAmount)
        nutrients = NutrientsDTO(nutrients: entry.nutrients)
        note = entry.note
        source = entry.source
    }
}

package struct DayDTO: Encodable {
    package struct MealDTO: Encodable {
        let meal: String
        let title: String
        let energyKcal: Double
        let entries: [FoodEntryDTO]

        enum CodingKeys: String, CodingKey {
            case meal, title, entries
            case energyKcal = "energy_kcal"
        }
    }

    let date: String
    let energyKcal: Double
    @Nullable var energyTargetKcal: Double?
    @Nullable var maintenanceKcal: Double?
    @Nullable var exerciseKcal: Double?
    @Nullable var energyRemainingKcal: Double?
    let meals: [MealDTO]
    let totals: [NutrientTotalDTO]
    let targets: [NutrientGoalDTO]
    @Nullable var targetChange: TargetChangeDTO?

    enum CodingKeys: String, CodingKey {
        case date, meals, totals, targets
        case targetChange = "target_change"
        case energyKcal = "energy_kcal"
        case energyTargetKcal = "energy_target_kcal"
        case maintenanceKcal = "maintenance_kcal"
        case exerciseKcal = "exercise_kcal"
        case energyRemainingKcal = "energy_remaining_kcal"
    }

    /// - Parameter energyUnit: the unit of the target change's message.
    package init(_ day: DayNutrition, energyUnit: EnergyUnit = .kilocalories) {
        date = day.date.iso
        energyKcal = day.energy.rounded()
        energyTargetKcal = day.energyTargetKcal
        maintenanceKcal = day.maintenanceKcal
        exerciseKcal = day.exerciseKcal
        energyRemainingKcal = day.energyRemainingKcal.map { $0.rounded() }
        meals = day.meals.map {
            MealDTO(
                meal: $0.meal.name, title: $0.meal.title, energyKcal: ($0.totals.energy ?? 0).rounded(),
                entries: $0.entries.map(FoodEntryDTO.init))
        }
        totals = NutrientTotalDTO.list(day.totals)
        targets = day.progress.map { NutrientGoalDTO($0.goal, amount: $0.amount, standing: $0.standing) }
        targetChange = day.targetChange.map { TargetChangeDTO($0, unit: energyUnit) }
    }
}

/// A nutrition goal, with a day's amount and standing when it is a day's.
package struct NutrientGoalDTO: Encodable {
    let key: String
    let name: String
    let unit: String
    let target: Double
    @Nullable var minimum: Double?
    @Nullable var maximum: Double?
    let source: String
    let amount: Double?
    let standing: String?

    enum CodingKeys: String, CodingKey {
        case key, name, unit, target, minimum, maximum, source, amount, standing
    }

    package init(_ goal: NutrientGoal, amount: Double? = nil, standing: NutrientGoal.Standing? = nil) {
        key = goal.nutrient.key
        name = goal.nutrient.name
        unit = goal.nutrient.unit.rawValue
        func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
        target = rounded(goal.target)
        minimum = goal.minimum.map(rounded)
        maximum = goal.maximum.map(rounded)
        source = goal.source.rawValue
        self.amount = amount.map(rounded)
        self.standing = standing?.rawValue
    }
}

package struct PresetDTO: Encodable {
    struct Item: Encodable {
        let foodID: String?
        let name: String
        let brand: String?
        let servings: Double
        let serving: ServingDTO
        let nutrients: NutrientsDTO

        enum CodingKeys: String, CodingKey {
            case name, brand, servings, serving, nutrients
            case foodID = "food_id"
        }
    }

    let id: String
    let name: String
    let meal: String?
    let energyKcal: Double
    let items: [Item]

    enum CodingKeys: String, CodingKey {
        case id, name, meal, items
        case energyKcal = "energy_kcal"
    }

    package init(_ preset: FoodPreset) {
        id = preset.id.lowercasedString
        name = preset.name
        meal = preset.meal?.name
        energyKcal = (preset.nutrients.energy ?? 0).rounded()
        items = preset.items.map {
            Item(
                foodID: $0.foodID?.lowercasedString, name: $0.name, brand: $0.brand, servings: $0.servings,
                serving: ServingDTO(label: $0.servingLabel, grams: $0.servingAmount), nutrients: NutrientsDTO(nutrients: $0.nutrients))
        }
    }
}

package struct NutritionPeriodDTO: Encodable {
    let start: String
    let end: String
    let daysLogged: Int
    let totals: [NutrientTotalDTO]
    let dailyAverage: [NutrientTotalDTO]

    enum CodingKeys: String, CodingKey {
        case start, end, totals
        case daysLogged = "days_logged"
        case dailyAverage = "daily_average"
    }

    package init(_ period: NutritionPeriod) {
        start = period.start.iso
        end = period.end.iso
        daysLogged = period.daysLogged
        totals = NutrientTotalDTO.list(period.totals, isDaily: false)
        dailyAverage = NutrientTotalDTO.list(period.dailyAverage ?? Nutrients())
    }
}

package struct NutrientInfoDTO: Encodable {
    let key: String, name: String, unit: String, group: String
    @Nullable var dailyValue: Double?

    enum CodingKeys: String, CodingKey {
        case key, name, unit, group
        case dailyValue = "daily_value"
    }

    package init(key: String, name: String, unit: String, group: String, dailyValue: Double?) {
        (self.key, self.name, self.unit, self.group, self.dailyValue) = (key, name, unit, group, dailyValue)
    }
}

package struct FrequentFoodDTO: Encodable {
    let food: FoodSummaryDTO
    let count: Int

    package init(food: FoodSummaryDTO, count: Int) {
        self.food = food
        self.count = count
    }
}

package struct NutritionStatisticsDTO: Encodable {
    let period: String, from: String, to: String
    let periods: [NutritionPeriodDTO]

    package init(period: String, from: String, to: String, periods: [NutritionPeriodDTO]) {
        self.period = period
        self.from = from
        self.to = to
        self.periods = periods
    }
}

// MARK: - Requests

/// A food as a person makes it from a nutrition label: per serving, vitamins and minerals as
/// amounts or % Daily Value.
package struct FoodRequest: Decodable {
    let name: String
    let brand: String?
    let barcode: String?
    let basis: String?
    let serving: ServingDTO
    /// Per serving, in each nutrient's unit (energy in `energy_unit`).
    let nutrients: [String: LenientNumber]?
    /// Per serving, in percent of the Daily Value.
    let percentDailyValue: [String: LenientNumber]?
    let energyUnit: String?
    /// More portions besides `serving`.
    let otherServings: [ServingDTO]?

    enum CodingKeys: String, CodingKey {
        case name, brand, barcode, basis, serving, nutrients
        case percentDailyValue = "percent_daily_value"
        case energyUnit = "energy_unit"
        case otherServings = "other_servings"
    }

    package func label() throws -> NutritionLabel {
        var values: [Nutrient: NutritionLabel.Value] = [:]
        for (key, number) in nutrients ?? [:] {
            values[try Nutrient.parse(key)] = .amount(number.value)
        }
        for (key, number) in percentDailyValue ?? [:] {
            let nutrient = try Nutrient.parse(key, field: "percent_daily_value")
            guard values[nutrient] == nil else {
                throw CinnError.invalid("percent_daily_value.\(key)", "give \(nutrient.name) as an amount or as % Daily Value, not both")
            }
            values[nutrient] = .percentDailyValue(number.value)
        }
        let basis =
            try basis.map { text in
                guard let basis = FoodBasis(rawValue: text) else { throw CinnError.invalid("basis", "basis must be g or ml") }
                return basis
            } ?? .grams
        let kilojoules = try energyUnit.map { text in try EnergyUnit.parse(text) } == .kilojoules
        var label = NutritionLabel(
            name: name, brand: brand, barcode: barcode, basis: basis, servingLabel: serving.label,
            servingAmount: serving.grams, values: values, energyInKilojoules: kilojoules)
        label.percentDailyValueField = "percent_daily_value"
        label.otherServings = (otherServings ?? []).map { ServingSize(label: $0.label, amount: $0.grams ?? 0) }
        return label
    }
}

/// One entry of `POST /api/v1/food-entries`: a food (`food_id`, servings, serving) or a quick add (`energy_kcal` and
/// optional `protein_g`, `carbohydrate_g`, `fat_g` and `name`).
package struct FoodEntryRequest: Decodable {
    package let id: String?
    package let foodID: String?
    package let servings: LenientNumber?
    package let serving: String?
    package let meal: String?
    package let time: String?
    package let note: String?
    package let name: String?
    package let energyKcal: LenientNumber?
    package let proteinGrams: LenientNumber?
    package let carbohydrateGrams: LenientNumber?
    package let fatGrams: LenientNumber?

    enum CodingKeys: String, CodingKey {
        case id, servings, serving, meal, time, note, name
        case foodID = "food_id"
        case energyKcal = "energy_kcal"
        case proteinGrams = "protein_g"
        case carbohydrateGrams = "carbohydrate_g"
        case fatGrams = "fat_g"
    }

    /// The quick add this entry's amounts make, when it gives any (the journal refuses one with a `food_id` too); nil when
    /// it gives none.
    package func quickAdd(prefix: String) throws(CinnError) -> QuickAdd? {
        guard energyKcal != nil || proteinGrams != nil || carbohydrateGrams != nil || fatGrams != nil || name != nil else { return nil }
        return try QuickAdd.validated(
            name: name, energyKcal: energyKcal?.value, proteinGrams: proteinGrams?.value,
            carbohydrateGrams: carbohydrateGrams?.value, fatGrams: fatGrams?.value, prefix: prefix)
    }
}

package struct LogFoodsRequest: Decodable {
    package let entries: [FoodEntryRequest]
}

/// `PATCH /api/v1/food-entries/{id}`: absent fields stay; `"note": null` clears the note.
package struct UpdateFoodEntry: Decodable {
    package let servings: LenientNumber?
    package let meal: String?
    package let time: String?
    package let note: String??

    enum CodingKeys: String, CodingKey {
        case servings, meal, time, note
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        servings = try container.decodeIfPresent(LenientNumber.self, forKey: .servings)
        meal = try container.decodeIfPresent(String.self, forKey: .meal)
        time = try container.decodeIfPresent(String.self, forKey: .time)
        note = container.contains(.note) ? .some(try container.decodeIfPresent(String.self, forKey: .note)) : nil
    }
}

package struct CopyDayRequest: Decodable {
    package let to: String
    package let meal: String?
    package let toMeal: String?

    enum CodingKeys: String, CodingKey {
        case to, meal
        case toMeal = "to_meal"
    }
}

package struct PresetRequest: Decodable {
    package let name: String
    package let meal: String?
    /// Save a logged meal: the day it was logged.
    package let fromDate: String?
    /// Save one food.
    package let foodID: String?
    package let servings: LenientNumber?
    package let serving: String?

    enum CodingKeys: String, CodingKey {
        case name, meal, servings, serving
        case fromDate = "from_date"
        case foodID = "food_id"
    }
}

package struct LogPresetRequest: Decodable {
    package let times: LenientNumber?
    package let meal: String?
    package let time: String?
}

/// A recipe in the API: the food it is (logged by its id like any food), how it is made, and its ingredients.
package struct RecipeDTO: Encodable {
    struct Ingredient: Encodable {
        @Nullable var foodID: String?
        let name: String
        @Nullable var brand: String?
        let servings: Double
        let servingLabel: String
        let grams: Double
        let nutrients: NutrientsDTO

        enum CodingKeys: String, CodingKey {
            case name, brand, servings, grams, nutrients
            case foodID = "food_id"
            case servingLabel = "serving_label"
        }
    }

    let id: String
    let name: String
    let servings: Double
    @Nullable var cookedGrams: Double?
    let totalGrams: Double
    let servingGrams: Double
    let nutrientsPerServing: NutrientsDTO
    let nutrientsPer100: NutrientsDTO
    let ingredients: [Ingredient]

    package init(_ recipe: Recipe) {
        id = recipe.food.id.lowercasedString
        name = recipe.food.name
        servings = recipe.servingsCount
        cookedGrams = recipe.cookedGrams
        totalGrams = recipe.totalGrams
        servingGrams = recipe.totalGrams / recipe.servingsCount
        nutrientsPerServing = NutrientsDTO(nutrients: recipe.servingNutrients)
        nutrientsPer100 = NutrientsDTO(nutrients: recipe.food.nutrients)
        ingredients = recipe.ingredients.map {
            Ingredient(
                foodID: $0.foodID?.lowercasedString, name: $0.name, brand: $0.brand, servings: $0.servings,
                servingLabel: $0.servingLabel, grams: $0.grams, nutrients: NutrientsDTO(nutrients: $0.nutrients))
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, name, servings, ingredients
        case cookedGrams = "cooked_grams"
        case totalGrams = "total_grams"
        case servingGrams = "serving_grams"
        case nutrientsPerServing = "nutrients_per_serving"
        case nutrientsPer100 = "nutrients_per_100"
    }
}

/// `POST /api/v1/recipes` and `PUT /api/v1/recipes/{id}`.
package struct RecipeRequest: Decodable {
    package struct Ingredient: Decodable {
        /// Null for an ingredient whose food is gone, sent back as a GET gives it.
        package let foodID: String?
        package let servings: LenientNumber?
        package let serving: String?

        enum CodingKeys: String, CodingKey {
            case servings, serving
            case foodID = "food_id"
        }
    }

    package let name: String
    package let servings: LenientNumber?
    package let cookedGrams: LenientNumber?
    package let ingredients: [Ingredient]

    enum CodingKeys: String, CodingKey {
        case name, servings, ingredients
        case cookedGrams = "cooked_grams"
    }

    /// The ingredients as the journal takes them; a food id that is not a UUID names its ingredient.
    package func ingredientRequests() throws(CinnError) -> [RecipeIngredientRequest] {
        var requests: [RecipeIngredientRequest] = []
        for (index, item) in ingredients.enumerated() {
            guard let text = item.foodID else {
                requests.append(RecipeIngredientRequest(foodID: nil, servings: item.servings?.value ?? 1, serving: item.serving))
                continue
            }
            guard let id = UUID(text: text) else {
                throw .invalid("ingredients[\(index)].food_id", "ingredients[\(index)].food_id must be a UUID")
            }
            requests.append(RecipeIngredientRequest(foodID: id, servings: item.servings?.value ?? 1, serving: item.serving))
        }
        return requests
    }
}
