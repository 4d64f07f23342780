import Foundation

/// Realistic demo foods and four weeks of meals, so a newcomer sees a full food log. Nutrients per
/// 100 g are rounded from USDA FoodData Central (SR Legacy) for the plain foods named.
public struct DemoFoodLog: Sendable {
    public let foods: [Food]
    public let entries: [FoodLogEntry]
    /// A recipe made of the demo's foods: banana porridge, two servings.
    public let recipes: [Recipe]
    /// Presets of the meals the demo eats most, so the glucose rankings show their names.
    public let presets: [FoodPreset]

    private static let catalogue: [(name: String, serving: String, grams: Double, nutrients: [String: Double])] = [
        (
            "Oats, rolled, dry", "1/2 cup", 40,
            [
                "energy": 379, "protein": 13.2, "carbohydrate": 67.7, "fat": 6.5, "fiber": 10.1,
                "sugars": 1, "iron": 4.3, "magnesium": 138, "potassium": 362, "zinc": 3.6,
            ]
        ),
        (
            "Milk, 2% fat", "1 cup", 244,
            [
                "energy": 50, "protein": 3.3, "carbohydrate": 4.8, "fat": 2, "saturated_fat": 1.3,
                "sugars": 5.1, "calcium": 120, "sodium": 47, "vitamin_d": 1.2, "potassium": 140,
            ]
        ),
        (
            "Banana, raw", "1 medium", 118,
            [
                "energy": 89, "protein": 1.1, "carbohydrate": 22.8, "fat": 0.3, "fiber": 2.6,
                "sugars": 12.2, "potassium": 358, "vitamin_c": 8.7, "vitamin_b6": 0.4,
            ]
        ),
        (
            "Yogurt, Greek, plain, nonfat", "1 container", 170,
            [
                "energy": 59, "protein": 10.2, "carbohydrate": 3.6, "fat": 0.4,
                "sugars": 3.2, "calcium": 110, "sodium": 36, "vitamin_b12": 0.8,
            ]
        ),
        (
            "Bread, whole wheat", "1 slice", 32,
            [
                "energy": 252, "protein": 12.5, "carbohydrate": 42.7, "fat": 3.5, "fiber": 6,
                "sugars": 4.4, "sodium": 450, "iron": 2.5, "magnesium": 82,
            ]
        ),
        (
            "Peanut butter, smooth", "2 tbsp", 32,
            [
                "energy": 588, "protein": 25, "carbohydrate": 20, "fat": 50, "saturated_fat": 10.3,
                "fiber": 6, "sugars": 9.2, "sodium": 459, "magnesium": 154, "vitamin_e": 9,
            ]
        ),
        (
            "Chicken breast, roasted", "1 breast", 140,
            [
                "energy": 165, "protein": 31, "fat": 3.6, "saturated_fat": 1,
                "cholesterol": 85, "sodium": 74, "niacin": 13.7, "vitamin_b6": 0.6,
            ]
        ),
        (
            "Rice, brown, cooked", "1 cup", 195,
            [
                "energy": 123, "protein": 2.7, "carbohydrate": 25.6, "fat": 1, "fiber": 1.6,
                "magnesium": 39, "manganese": 1,
            ]
        ),
        (
            "Broccoli, cooked", "1 cup", 156,
            [
                "energy": 35, "protein": 2.4, "carbohydrate": 7.2, "fat": 0.4, "fiber": 3.3,
                "vitamin_c": 64.9, "vitamin_k": 141, "folate": 108, "potassium": 293,
            ]
        ),
        (
            "Salmon, Atlantic, cooked", "1 fillet", 154,
            [
                "energy": 206, "protein": 22.1, "fat": 12.4, "saturated_fat": 2.5,
                "cholesterol": 63, "sodium": 61, "vitamin_d": 13.1, "vitamin_b12": 2.8,
            ]
        ),
        (
            "Pasta, cooked", "1 cup", 140,
            [
                "energy": 158, "protein": 5.8, "carbohydrate": 30.9, "fat": 0.9, "fiber": 1.8,
                "iron": 1.3,
            ]
        ),
        (
            "Tomato sauce", "1/2 cup", 122,
            [
                "energy": 24, "protein": 1.2, "carbohydrate": 5.3, "fat": 0.3, "fiber": 1.5,
                "sodium": 474, "vitamin_c": 7, "potassium": 297,
            ]
        ),
        (
            "Cheese, cheddar", "1 slice", 28,
            [
                "energy": 403, "protein": 24.9, "carbohydrate": 1.3, "fat": 33.1,
                "saturated_fat": 21.1, "cholesterol": 105, "sodium": 621, "calcium": 721,
            ]
        ),
        (
            "Apple, raw", "1 medium", 182,
            [
                "energy": 52, "protein": 0.3, "carbohydrate": 13.8, "fat": 0.2, "fiber": 2.4,
                "sugars": 10.4, "vitamin_c": 4.6, "potassium": 107,
            ]
        ),
        (
            "Almonds", "1 oz", 28,
            [
                "energy": 579, "protein": 21.2, "carbohydrate": 21.6, "fat": 49.9, "fiber": 12.5,
                "vitamin_e": 25.6, "magnesium": 270, "calcium": 269,
            ]
        ),
        (
            "Egg, whole, scrambled", "2 eggs", 122,
            [
                "energy": 149, "protein": 10, "carbohydrate": 1.6, "fat": 11,
                "cholesterol": 277, "sodium": 145, "vitamin_d": 2, "choline": 240,
            ]
        ),
    ]

    /// The demo's presets: a name and the meal of `meals` (slot, choice) it saves.
    private static let presetMeals: [(name: String, slot: Int, choice: Int)] = [
        ("Oats with milk and banana", 0, 0), ("Chicken, rice and broccoli", 1, 0), ("Salmon, rice and broccoli", 2, 0),
        ("Pasta with tomato sauce", 2, 1),
    ]

    /// Meals of the demo: which foods (by position in the catalogue) and how many servings.
    private static let meals: [(meal: Meal, minute: Int, choices: [[(Int, Double)]])] = [
        (.breakfast, 7 * 60 + 30, [[(0, 1), (1, 1), (2, 1)], [(3, 1), (2, 1)], [(4, 2), (5, 1)], [(15, 1), (4, 1)]]),
        (.lunch, 12 * 60 + 30, [[(6, 1), (7, 1), (8, 1)], [(10, 1.5), (11, 1), (12, 1)], [(4, 2), (12, 2), (13, 1)]]),
        (.dinner, 19 * 60, [[(9, 1), (7, 1), (8, 1)], [(10, 2), (11, 1)], [(6, 1), (10, 1), (8, 1)]]),
        (.snacks, 15 * 60 + 30, [[(13, 1)], [(14, 1)], [(3, 1)], [(2, 1), (14, 0.5)]]),
    ]

    /// - Parameters:
    ///   - today: the last day of the demo (it has only breakfast so far).
    ///   - timeZone: where the meals are eaten.
    ///   - seed: the same seed gives the same log.
    public init(endingOn today: LocalDate, timeZone: TimeZone, seed: UInt64 = 2024) {
        var random = SplitMix64(seed: seed)
        foods = Self.catalogue.map { item in
            Food(
                id: .v7(at: today.noon(in: timeZone).instant, using: &random), name: item.name,
                nutrients: try! Nutrients(keyed: item.nutrients), servings: [ServingSize(label: item.serving, amount: item.grams)])
        }
        var entries: [FoodLogEntry] = []
        for offset in (0..<28).reversed() {
            let date = today.adding(days: -offset)
            for plan in Self.meals {
                if offset == 0 && plan.meal != .breakfast { continue }
                if plan.meal == .snacks && random.nextDouble() < 0.3 { continue }
                let choice = plan.choices[Int(random.nextDouble() * Double(plan.choices.count))]
                let minute = plan.minute + Int(random.nextDouble() * 40) - 20
                let time = LocalDateTime(date: date, secondsOfDay: Double(minute * 60)).resolved(in: timeZone)
                for (index, servings) in choice {
                    let food = foods[index]
                    var entry = try! FoodLogEntry.logging(
                        food, servings: servings, of: food.servings[0], meal: plan.meal,
                        eatenAt: time.instant, utcOffsetSeconds: time.utcOffsetSeconds,
                        id: .v7(at: time.instant, using: &random))
                    entry.source = "demo"
                    entries.append(entry)
                }
            }
        }
        self.entries = entries
        let foods = self.foods
        let porridge: [(food: Int, servings: Double)] = [(0, 2), (1, 1), (2, 1)]
        let ingredients = porridge.enumerated().map { index, item in
            try! RecipeIngredient.of(
                foods[item.food], servings: item.servings, of: foods[item.food].servings[0],
                field: "ingredients[\(index)]")
        }
        recipes = [
            try! Recipe.make(
                id: .v7(at: today.noon(in: timeZone).instant, using: &random), name: "Banana porridge",
                ingredients: ingredients, servings: 2, cookedGrams: nil)
        ]
        presets = Self.presetMeals.map { item in
            let plan = Self.meals[item.slot]
            return FoodPreset(
                id: .v7(at: today.noon(in: timeZone).instant, using: &random), name: item.name, meal: plan.meal,
                items: plan.choices[item.choice].map { index, servings in
                    let food = foods[index]
                    let entry = try! FoodLogEntry.logging(
                        food, servings: servings, of: food.servings[0], meal: plan.meal,
                        eatenAt: today.noon(in: timeZone).instant, utcOffsetSeconds: 0)
                    return FoodPreset.Item(entry)
                })
        }
    }
}
