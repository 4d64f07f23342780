import CinnCore
import Foundation
import Testing

/// The field of the `invalidInput` error `body` throws; nil when it does not throw, and a
/// description of anything else it throws, so a wrong error fails the comparison visibly.
func invalidField<Result>(_ body: () throws -> Result) -> String? {
    do {
        _ = try body()
        return nil
    } catch let error as CinnError {
        return error.code == .invalidInput ? error.field ?? "(no field)" : "code \(error.code)"
    } catch {
        return "not a CinnError: \(error)"
    }
}

/// The catalogue nutrient with this key; fails the test (and crashes) for a key the catalogue lacks.
func nutrientNamed(_ key: String) -> Nutrient {
    guard let nutrient = Nutrient.named(key) else { fatalError("no nutrient \(key)") }
    return nutrient
}

@Suite struct NutrientCatalogueTests {
    /// docs/FORMATS.md §9: US FDA Daily Values, 2016 rule, adults and children ≥ 4.
    static let dailyValues: [(key: String, dailyValue: Double, unit: NutrientUnit)] = [
        ("fat", 78, .grams), ("saturated_fat", 20, .grams), ("cholesterol", 300, .milligrams),
        ("sodium", 2300, .milligrams), ("carbohydrate", 275, .grams), ("fiber", 28, .grams),
        ("added_sugars", 50, .grams), ("protein", 50, .grams),
        ("vitamin_a", 900, .micrograms), ("vitamin_c", 90, .milligrams), ("vitamin_d", 20, .micrograms),
        ("vitamin_e", 15, .milligrams), ("vitamin_k", 120, .micrograms), ("thiamin", 1.2, .milligrams),
        ("riboflavin", 1.3, .milligrams), ("niacin", 16, .milligrams), ("vitamin_b6", 1.7, .milligrams),
        ("folate", 400, .micrograms), ("vitamin_b12", 2.4, .micrograms), ("biotin", 30, .micrograms),
        ("pantothenic_acid", 5, .milligrams), ("choline", 550, .milligrams),
        ("calcium", 1300, .milligrams), ("iron", 18, .milligrams), ("potassium", 4700, .milligrams),
        ("phosphorus", 1250, .milligrams), ("magnesium", 420, .milligrams), ("zinc", 11, .milligrams),
        ("copper", 0.9, .milligrams), ("manganese", 2.3, .milligrams), ("iodine", 150, .micrograms),
        ("selenium", 55, .micrograms), ("chromium", 35, .micrograms), ("molybdenum", 45, .micrograms),
        ("chloride", 2300, .milligrams),
    ]

    @Test(arguments: dailyValues)
    func dailyValueMatchesTheFDATable(_ row: (key: String, dailyValue: Double, unit: NutrientUnit)) throws {
        let nutrient = try #require(Nutrient.named(row.key))
        #expect(nutrient.dailyValue == row.dailyValue)
        #expect(nutrient.unit == row.unit)
    }

    @Test func onlyTheFDATableHasDailyValues() {
        #expect(Self.dailyValues.count == 35)
        let withDailyValue = Set(Nutrient.all.filter { $0.dailyValue != nil }.map(\.key))
        #expect(withDailyValue == Set(Self.dailyValues.map(\.key)))
        #expect(Nutrient.named("trans_fat")?.dailyValue == nil)
        #expect(Nutrient.named("sugars")?.dailyValue == nil)
        #expect(Nutrient.energy.dailyValue == nil)
    }

    @Test func keysAreUniqueAndIndexesArePositions() {
        #expect(Set(Nutrient.all.map(\.key)).count == Nutrient.all.count)
        #expect(Nutrient.all.map(\.index) == Array(Nutrient.all.indices))
        // Presence is a 64-bit mask.
        #expect(Nutrient.all.count <= 64)
        for nutrient in Nutrient.all {
            #expect(Nutrient.named(nutrient.key) == nutrient)
            #expect(nutrient.id == nutrient.key)
            #expect(nutrient.key.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") })
        }
    }

    @Test func namedShortcutsAreTheRightNutrients() {
        #expect(Nutrient.energy.key == "energy")
        #expect(Nutrient.energy.unit == .kilocalories)
        #expect(Nutrient.protein.key == "protein")
        #expect(Nutrient.carbohydrate.key == "carbohydrate")
        #expect(Nutrient.fat.key == "fat")
        #expect(Nutrient.saturatedFat.key == "saturated_fat")
        #expect(Nutrient.sugars.key == "sugars")
        #expect(Nutrient.fiber.key == "fiber")
        #expect(Nutrient.sodium.key == "sodium")
        #expect(Nutrient.macros.map(\.key) == ["energy", "protein", "carbohydrate", "fat"])
    }

    /// The Nutrition Shortcut food object's keys and the catalogue nutrient each one lands in.
    @Test(arguments: [
        ("Calories", "energy"), ("Carbs", "carbohydrate"), ("Fat", "fat"), ("Protein", "protein"),
        ("Sugar", "sugars"), ("Fiber", "fiber"), ("Monounsaturated", "monounsaturated_fat"),
        ("Polyunsaturated", "polyunsaturated_fat"), ("Saturated", "saturated_fat"), ("Trans", "trans_fat"),
        ("Sodium", "sodium"), ("Cholesterol", "cholesterol"), ("Potassium", "potassium"),
        ("VitA", "vitamin_a"), ("VitC", "vitamin_c"), ("Calcium", "calcium"), ("Iron", "iron"),
    ])
    func everyShortcutKeyHasANutrient(_ shortcutKey: String, _ key: String) {
        #expect(Nutrient.named(key) != nil, "\(shortcutKey) → \(key)")
    }

    @Test func unknownKeyIsAnErrorNamingTheField() {
        #expect(Nutrient.named("glitter") == nil)
        #expect(invalidField { try Nutrient.parse("glitter") } == "nutrients.glitter")
        #expect(invalidField { try Nutrient.parse("glitter", field: "food.nutrients") } == "food.nutrients.glitter")
        #expect(throws: Never.self) { try Nutrient.parse("iron") }
    }
}

@Suite struct DailyValueTests {
    @Test(arguments: [
        ("iron", 10.0, 1.8), ("calcium", 20, 260), ("vitamin_d", 25, 5), ("sodium", 100, 2300),
        ("vitamin_c", 0, 0), ("fat", 50, 39),
    ])
    func percentAndAmountBothWays(_ key: String, _ percent: Double, _ amount: Double) {
        let nutrient = nutrientNamed(key)
        #expect(nutrient.amount(percentDailyValue: percent) == amount)
        #expect(nutrient.percentDailyValue(of: amount) == percent)
    }

    @Test func percentOverAHundredAndFractions() throws {
        #expect(nutrientNamed("vitamin_c").amount(percentDailyValue: 150) == 135)
        let percent = try #require(nutrientNamed("iron").percentDailyValue(of: 1.5))
        #expect(percent.isClose(to: 8.333333333333334))
    }

    @Test(arguments: ["trans_fat", "sugars", "energy", "omega3_dha"])
    func noDailyValueGivesNil(_ key: String) {
        #expect(nutrientNamed(key).amount(percentDailyValue: 10) == nil)
        #expect(nutrientNamed(key).percentDailyValue(of: 1) == nil)
    }
}

@Suite struct NutrientUnitConversionTests {
    @Test(arguments: [
        ("vitamin_d", 1.0, "mg", 1000.0),  // mg → µg
        ("vitamin_a", 0.9, "mg", 900),
        ("sodium", 1, "g", 1000),  // g → mg
        ("sodium", 2.3, "g", 2300),
        ("iron", 500, "µg", 0.5),  // µg → mg
        ("fat", 1500, "mg", 1.5),  // mg → g
        ("protein", 260_000, "µg", 0.26),  // µg → g
        ("vitamin_b12", 5, "g", 5_000_000),  // g → µg
        ("calcium", 120, "mg", 120),
        ("vitamin_b12", 2.4, "mcg", 2.4),
        ("vitamin_b12", 2.4, "μg", 2.4),  // Greek mu, not the micro sign
        ("vitamin_b12", 2.4, "ug", 2.4),
        ("vitamin_k", 1, "Milligrams", 1000),
        ("fat", 3, " G ", 3),
        ("iron", 1.8, "MG", 1.8),
    ])
    func massUnitsConvertExactly(_ key: String, _ value: Double, _ unit: String, _ expected: Double) throws {
        #expect(try nutrientNamed(key).amount(value, in: unit, field: "x") == expected)
    }

    @Test(arguments: [
        (418.4, "kJ", 100.0), (836.8, "kj", 200), (2092, "kilojoules", 500), (4.184, "KJ", 1),
        (250, "kcal", 250), (250, "Calories", 250), (0, "kJ", 0),
    ])
    func energyInKilojoulesIsDividedBy4184(_ value: Double, _ unit: String, _ kilocalories: Double) throws {
        #expect(try Nutrient.energy.amount(value, in: unit, field: "energy") == kilocalories)
        #expect(Nutrient.kilojoulesPerKilocalorie == 4.184)
    }

    @Test(arguments: [
        ("iron", "oz"), ("iron", "kcal"), ("iron", ""), ("energy", "g"), ("energy", "kcalories"),
        ("vitamin_d", "IU"), ("fat", "kg"),
    ])
    func unknownUnitsAreRejectedNamingTheField(_ key: String, _ unit: String) {
        #expect(invalidField { try nutrientNamed(key).amount(1, in: unit, field: "nutrients.\(key)") } == "nutrients.\(key)")
    }

    @Test func storageUnitsKnowTheirGrams() {
        #expect(NutrientUnit.grams.grams == 1)
        #expect(NutrientUnit.milligrams.grams == 0.001)
        #expect(NutrientUnit.micrograms.grams == 0.000_001)
        #expect(NutrientUnit.kilocalories.grams == nil)
        #expect(NutrientUnit.micrograms.rawValue == "µg")
    }
}

@Suite struct NutrientsTests {
    @Test func absentIsNotZero() throws {
        let nutrients = try Nutrients([.energy: 52, .fat: 0])
        #expect(nutrients[.energy] == 52)
        #expect(nutrients[.fat] == 0)
        #expect(nutrients[.protein] == nil)
        #expect(!nutrients.isEmpty)
        #expect(nutrients != (try Nutrients([.energy: 52])))

        let onlyZero = try Nutrients([.fat: 0])
        #expect(!onlyZero.isEmpty)
        #expect(Nutrients().isEmpty)
        #expect(Nutrients().energy == nil)
    }

    @Test func settingNilForgetsTheAmount() throws {
        let iron = nutrientNamed("iron")
        var nutrients = try Nutrients([.energy: 52, iron: 1])
        nutrients[iron] = nil
        #expect(nutrients[iron] == nil)
        #expect(nutrients == (try Nutrients([.energy: 52])))
        nutrients[.energy] = nil
        #expect(nutrients.isEmpty)
        #expect(nutrients == Nutrients())
    }

    @Test func amountsAreInCatalogueOrder() throws {
        let nutrients = try Nutrients(keyed: ["iron": 1, "energy": 2, "vitamin_c": 3, "fat": 4])
        #expect(nutrients.amounts.map(\.nutrient.key) == ["energy", "fat", "iron", "vitamin_c"])
        #expect(nutrients.amounts.map(\.amount) == [2, 4, 1, 3])
    }

    @Test func sumKeepsTheUnionOfWhatIsKnown() throws {
        let apple = try Nutrients([.energy: 95, .fat: 0, .fiber: 4.4])
        let tea = try Nutrients([.energy: 2, .protein: 0.1])
        let sum = apple + tea
        #expect(sum[.energy] == 97)
        #expect(sum[.fat] == 0)
        #expect(sum[.fiber] == 4.4)
        #expect(sum[.protein] == 0.1)
        #expect(sum[.carbohydrate] == nil)

        var total = Nutrients()
        total += apple
        total += tea
        #expect(total == sum)
        #expect(Nutrients() + Nutrients() == Nutrients())
        #expect(apple + Nutrients() == apple)
    }

    @Test func scaledMultipliesKnownAmountsOnly() throws {
        let nutrients = try Nutrients([.energy: 52, .protein: 0.26, .fat: 0])
        let scaled = nutrients.scaled(by: 2.5)
        #expect(scaled[.energy] == 130)
        #expect(scaled[.protein] == 0.65)
        #expect(scaled[.fat] == 0)
        #expect(scaled[nutrientNamed("iron")] == nil)
        #expect(nutrients.scaled(by: 1) == nutrients)
        #expect(nutrients.scaled(by: 0)[.energy] == 0)
        #expect(nutrients.scaled(by: 0)[nutrientNamed("iron")] == nil)
    }

    @Test func scalingByInfinityLeavesAbsentNutrientsOutOfLaterSums() throws {
        // Before the fix, absent amounts (stored as 0) became NaN and poisoned the next sum.
        let scaled = try Nutrients([.energy: 1]).scaled(by: .infinity)
        let iron = nutrientNamed("iron")
        let sum = scaled + (try Nutrients([iron: 2]))
        #expect(sum[iron] == 2)
        #expect(sum[.energy] == .infinity)
    }

    @Test(arguments: [-1, -0.001, Double.nan, .infinity, -.infinity, 1e9 + 1, 1e19])
    func badAmountsAreRejectedNamingTheNutrient(_ amount: Double) {
        #expect(invalidField { try Nutrients([nutrientNamed("iron"): amount]) } == "nutrients.iron")
        #expect(invalidField { try Nutrients(keyed: ["iron": amount]) } == "nutrients.iron")
        #expect(invalidField { try Nutrients(keyed: ["iron": amount], field: "food.nutrients") } == "food.nutrients.iron")
        var nutrients = Nutrients()
        #expect(invalidField { try nutrients.set(nutrientNamed("iron"), amount, field: "iron") } == "iron")
        #expect(nutrients.isEmpty)
    }

    @Test func unknownKeyIsRejectedNamingIt() {
        #expect(invalidField { try Nutrients(keyed: ["energy": 1, "glitter": 2]) } == "nutrients.glitter")
        #expect(invalidField { try Nutrients(keyed: ["Energy": 1]) } == "nutrients.Energy")
    }

    @Test func theSameBadInputAlwaysNamesTheSameField() {
        // Dictionaries iterate in a random order; the first error must not depend on it.
        for _ in 0..<20 {
            #expect(invalidField { try Nutrients(keyed: ["zinc": -1, "energy": -1, "iron": .nan]) } == "nutrients.energy")
            #expect(
                invalidField { try Nutrients([nutrientNamed("zinc"): -1, .energy: -1, nutrientNamed("iron"): .nan]) }
                    == "nutrients.energy")
        }
    }

    @Test func zeroIsAcceptedAndLargeAmountsToo() throws {
        let nutrients = try Nutrients(keyed: ["energy": 0, "sodium": 1e9])
        #expect(nutrients[.energy] == 0)
        #expect(nutrients[.sodium] == 1e9)
    }
}

@Suite struct NutrientsStorageTextTests {
    @Test func writesAFlatObjectInCatalogueOrder() throws {
        #expect(Nutrients().storageText == "{}")
        let apple = try Nutrients(keyed: ["protein": 0.26, "energy": 52])
        #expect(apple.storageText == #"{"energy":52,"protein":0.26}"#)
        #expect(try Nutrients([.fat: 0]).storageText == #"{"fat":0}"#)
        #expect(try Nutrients([.energy: 1e-7]).storageText == #"{"energy":1e-07}"#)
        // Beyond what `set` accepts, as the storage format must still write whatever it holds.
        for (amount, text) in [(1e15, "1000000000000000"), (1e16, "1e+16"), (999_999_999_999_999, "999999999999999")] {
            var huge = Nutrients()
            huge[.energy] = amount
            #expect(huge.storageText == #"{"energy":\#(text)}"#)
        }
    }

    @Test(arguments: [
        0, 52, 0.26, 0.1 + 0.2, 1.0 / 3, 1e-7, .leastNonzeroMagnitude, 2.2250738585072014e-308, 123_456_789.123,
        1e15, 1e15 - 1, 1e20, 9_007_199_254_740_994, 1.7976931348623157e308,
    ])
    func roundTripsExactly(_ amount: Double) throws {
        var nutrients = Nutrients()
        nutrients[nutrientNamed("vitamin_b12")] = amount
        nutrients[.energy] = 1
        let read = try #require(Nutrients(storageText: nutrients.storageText), "\(nutrients.storageText)")
        #expect(read == nutrients)
        #expect(read[nutrientNamed("vitamin_b12")] == amount)
    }

    @Test func everyNutrientRoundTrips() throws {
        var nutrients = Nutrients()
        for nutrient in Nutrient.all { nutrients[nutrient] = (Double(nutrient.index) + 0.5) / 7 }
        let text = nutrients.storageText
        #expect(try #require(Nutrients(storageText: text)) == nutrients)
        #expect(nutrients.amounts.count == Nutrient.all.count)
        // The storage text is JSON that Foundation reads too.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Double])
        #expect(Set(object.keys) == Set(Nutrient.all.map(\.key)))
    }

    @Test func readsSpacesAndNewlinesBetweenTokens() throws {
        let read = try #require(Nutrients(storageText: " {\n  \"energy\" : 52 ,\n  \"fat\":\t0.2\n}\n"))
        #expect(read == (try Nutrients([.energy: 52, .fat: 0.2])))
        #expect(Nutrients(storageText: "{ }") == Nutrients())
    }

    @Test func skipsUnknownKeys() throws {
        let read = try #require(Nutrients(storageText: #"{"energy":52,"glitter":3,"omega9":0.5}"#))
        #expect(read == (try Nutrients([.energy: 52])))
        #expect(Nutrients(storageText: #"{"glitter":3}"#) == Nutrients())
    }

    @Test(arguments: [
        "", " ", "null", "[]", "52", "{", "}", #"{"energy":}"#, #"{"energy":"52"}"#, #"{"energy":52,}"#,
        "{energy:52}", #"{"energy" 52}"#, #"{"energy":52"#, #"{"energy":52}x"#, #"{"energy":52}{}"#,
        #"{"energy":-1}"#, #"{"energy":nan}"#, #"{"energy":inf}"#, #"{"energy":1e999}"#, #"{"energy":5 2}"#,
        #"{"energy":null}"#, #"{"energy":{"a":1}}"#, #"{"energy":[1]}"#, #"{"energy":true}"#,
    ])
    func rejectsGarbage(_ text: String) {
        #expect(Nutrients(storageText: text) == nil)
    }
}

@Suite struct NutrientsCodableTests {
    @Test func encodesAsAnObjectOfAmounts() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(try Nutrients(keyed: ["protein": 0.26, "energy": 52, "fat": 0]))
        #expect(String(decoding: data, as: UTF8.self) == #"{"energy":52,"fat":0,"protein":0.26}"#)
        #expect(String(decoding: try encoder.encode(Nutrients()), as: UTF8.self) == "{}")
    }

    @Test func roundTripsEveryNutrient() throws {
        var nutrients = Nutrients()
        for nutrient in Nutrient.all { nutrients[nutrient] = Double(nutrient.index) * 1.25 }
        let decoded = try JSONDecoder().decode(Nutrients.self, from: JSONEncoder().encode(nutrients))
        #expect(decoded == nutrients)
    }

    @Test(arguments: [#"{"glitter":1}"#, #"{"energy":-5}"#, #"{"energy":"52"}"#, "[52]", "null"])
    func rejectsWhatTheCheckedInitRejects(_ json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Nutrients.self, from: Data(json.utf8)) }
    }
}
