import CinnCore
import Foundation
import Testing

/// The food diary's meals as meal events: grouped by slot, day and time, named by their foods or their preset.
@Suite struct DiaryMealsTests {
    let noon = Date(timeIntervalSince1970: 1_710_417_600)  // 2024-03-14T12:00:00Z

    func entry(
        _ name: String, food: UUID? = UUID(), minutes: Double = 0, meal: Meal = .lunch, carbohydrate: Double? = 30,
        imported: Bool = false
    ) -> FoodLogEntry {
        var nutrients = Nutrients()
        nutrients[.carbohydrate] = carbohydrate
        return FoodLogEntry(
            foodID: food, name: name, meal: meal, eatenAt: noon.addingTimeInterval(minutes * 60), utcOffsetSeconds: 0,
            servings: 2, servingLabel: "1 cup (40 g)", servingAmount: 40, nutrients: nutrients, importID: imported ? 7 : nil)
    }

    @Test func aSlotsEntriesWithinHalfAnHourAreOneMeal() throws {
        let oats = entry("Rolled oats"), banana = entry("Banana", minutes: 30, carbohydrate: 27)
        let late = entry("Apple", minutes: 61, carbohydrate: 14)
        let dinner = entry("Rice", minutes: 10, meal: .dinner)
        let meals = DiaryMeals.events([late, banana, dinner, oats])
        #expect(meals.count == 3)
        let lunch = try #require(meals.first)
        #expect(lunch.event.id == oats.id && lunch.event.eatenAt == noon && lunch.event.diaryMeal == .lunch)
        #expect(lunch.event.entryIDs == [oats.id, banana.id])
        #expect(lunch.event.carbohydrateGrams == 57 && lunch.meal.carbohydrateGrams == 57)
        #expect(lunch.meal.name == "Rolled oats, Banana")
        #expect(lunch.meal.foods.map(\.grams) == [80, 80], "2 servings of 40 g")
        #expect(meals.map(\.meal.name) == ["Rolled oats, Banana", "Rice", "Apple"], "61 minutes after the first is a meal of its own")
    }

    @Test func theSameFoodsAreTheSameMealAndAPresetNamesThem() throws {
        let oats = UUID(), banana = UUID()
        let monday = DiaryMeals.events([entry("Rolled oats", food: oats), entry("Banana", food: banana)])
        let tuesday = DiaryMeals.events([entry("Banana", food: banana, minutes: 1440), entry("Rolled oats", food: oats, minutes: 1445)])
        #expect(monday[0].meal.id == tuesday[0].meal.id, "the set of foods, in any order, is the key")
        let preset = FoodPreset(
            id: UUID(), name: "Usual breakfast", meal: nil,
            items: [
                FoodPreset.Item(
                    foodID: banana, name: "Banana", brand: nil, servings: 1, servingLabel: "1 medium", servingAmount: 118,
                    nutrients: Nutrients()),
                FoodPreset.Item(
                    foodID: oats, name: "Rolled oats", brand: nil, servings: 1, servingLabel: "1 cup", servingAmount: 40,
                    nutrients: Nutrients()),
            ])
        let named = DiaryMeals.events([entry("Rolled oats", food: oats), entry("Banana", food: banana)], presets: [preset])
        #expect(named[0].meal.id == preset.id && named[0].meal.name == "Usual breakfast")
        // A quick add counts as a food by its name.
        let quick = DiaryMeals.events([entry("Lunch out", food: nil), entry("lunch out", food: nil, minutes: 1440)])
        #expect(quick[0].meal.foods[0].foodID == quick[1].meal.foods[0].foodID)
    }

    @Test func importedEntriesAreNotMealsAndCarbohydrateMayBeUnknown() {
        #expect(DiaryMeals.events([entry("Breakfast (MyFitnessPal)", imported: true)]).isEmpty)
        let unknown = DiaryMeals.events([entry("Mystery", carbohydrate: nil)])
        #expect(unknown[0].event.carbohydrateGrams == nil)
    }

    @Test func nameBasedIdsAreStableVersion8() {
        let id = UUID.v8(name: "meal a b")
        #expect(id == UUID.v8(name: "meal a b") && id != UUID.v8(name: "meal a c"))
        #expect(id.lowercasedString.dropFirst(14).first == "8", "the version nibble")
        #expect("89ab".contains(id.lowercasedString.dropFirst(19).first!), "the RFC 9562 variant")
    }
}
