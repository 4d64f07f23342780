import Foundation

/// The food diary's meals as the glucose report's meal events, so a meal is logged once: its time, its carbohydrate
/// from the entries, its foods.
///
/// A diary meal is the entries a person logged (imported entries are left out: their times are a file's, not a meal's)
/// in one slot of one local day, each within `gap` of the meal's first entry; it is eaten at that first entry's time.
/// Its definition is keyed by the set of its foods, so the same foods eaten together rank as one meal, and named by
/// them; when a preset has exactly those foods, it is that preset (its id and name).
public enum DiaryMeals {
    /// Entries of a slot further apart than this are two meals (a morning and an afternoon snack).
    public static let gap: TimeInterval = 30 * 60

    /// `entries` in any order; each meal with its definition, named by the preset of the same foods among `presets`.
    public static func events(_ entries: [FoodLogEntry], presets: [FoodPreset] = []) -> [(event: MealEvent, meal: MealDefinition)] {
        var meals: [[FoodLogEntry]] = []
        var open: [String: Int] = [:]
        for entry in entries.filter({ $0.importID == nil }).sorted(by: { $0.eatenAt < $1.eatenAt }) {
            let key = "\(entry.localDate.iso) \(entry.meal.name)"
            if let index = open[key], entry.eatenAt.timeIntervalSince(meals[index][0].eatenAt) <= gap {
                meals[index].append(entry)
            } else {
                open[key] = meals.count
                meals.append([entry])
            }
        }
        var byFoods: [String: FoodPreset] = [:]
        for preset in presets where !preset.items.isEmpty {
            let key = foodKey(preset.items.map { foodID($0.foodID, name: $0.name) })
            if byFoods[key] == nil { byFoods[key] = preset }
        }
        return meals.map { event($0, presets: byFoods) }
    }

    /// The set of foods as text: sorted, without repeats.
    static func foodKey(_ ids: [UUID]) -> String { Set(ids.map(\.lowercasedString)).sorted().joined(separator: " ") }

    /// The food a diary entry counts as in the rankings: its food, or (quick add, a food since deleted) its name.
    static func foodID(_ entry: FoodLogEntry) -> UUID { foodID(entry.foodID, name: entry.name) }

    static func foodID(_ id: UUID?, name: String) -> UUID { id ?? .v8(name: "food " + name.lowercased()) }

    static func event(_ entries: [FoodLogEntry], presets: [String: FoodPreset]) -> (event: MealEvent, meal: MealDefinition) {
        let first = entries[0]
        // Grams as logged (0 when the serving had no weight).
        let foods = entries.map { MealFood(foodID: foodID($0), name: $0.name, grams: ($0.servingAmount ?? 0) * $0.servings) }
        let key = foodKey(foods.map(\.foodID))
        let carbohydrate = entries.compactMap { $0.nutrients[.carbohydrate] }
        let names = foods.map(\.name).withoutRepeats()
        let name = names.count <= 3 ? names.joined(separator: ", ") : names.prefix(3).joined(separator: ", ") + " + \(names.count - 3) more"
        let preset = presets[key]
        let meal = MealDefinition(
            id: preset?.id ?? .v8(name: "meal " + key), name: preset?.name ?? String(name.prefix(200)),
            carbohydrateGrams: carbohydrate.isEmpty ? nil : carbohydrate.reduce(0, +), foods: foods)
        var event = MealEvent(
            id: first.id, mealID: meal.id, eatenAt: first.eatenAt, utcOffsetSeconds: first.utcOffsetSeconds,
            carbohydrateGrams: meal.carbohydrateGrams, source: "diary")
        event.diaryMeal = first.meal
        event.entryIDs = entries.map(\.id)
        return (event, meal)
    }
}
