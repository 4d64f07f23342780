import CinnCore
import Foundation
import Testing

/// An apple: 52 kcal, 0.26 g protein, 2.4 g fiber per 100 g; one medium weighs 182 g.
func apple() throws -> Food {
    Food(
        name: "Apple", nutrients: try Nutrients(keyed: ["energy": 52, "protein": 0.26, "fiber": 2.4]),
        servings: [ServingSize(label: "1 medium", amount: 182)])
}

@Suite struct NutritionLabelTests {
    /// The doc comment's example: a 40 g bar, 200 kcal and 10 % DV iron per bar.
    static let bar = NutritionLabel(
        name: "Granola bar", servingLabel: "1 bar", servingAmount: 40,
        values: [.energy: .amount(200), nutrientNamed("iron"): .percentDailyValue(10)])

    @Test func fortyGramBarBecomesPerHundredGrams() throws {
        let id = UUID.v7()
        let food = try Self.bar.food(id: id)
        #expect(food.id == id)
        #expect(food.name == "Granola bar")
        #expect(food.source == .mine)
        #expect(food.basis == .grams)
        #expect(food.nutrients[.energy] == 500)
        #expect(food.nutrients[nutrientNamed("iron")] == 4.5)
        #expect(food.nutrients.amounts.count == 2)
        #expect(food.servings == [ServingSize(label: "1 bar", amount: 40)])
        #expect(food.defaultServing == ServingSize(label: "1 bar", amount: 40))

        // And back: one bar is what the label says.
        let oneBar = food.nutrients(servings: 1, of: food.defaultServing)
        #expect(oneBar[.energy] == 200)
        #expect(try #require(oneBar[nutrientNamed("iron")]).isClose(to: 1.8))
    }

    @Test func energyInKilojoules() throws {
        var label = Self.bar
        label.values = [.energy: .amount(836.8), .fat: .amount(10)]
        label.energyInKilojoules = true
        let food = try label.food()
        #expect(food.nutrients[.energy] == 500)
        #expect(food.nutrients[.fat] == 25)  // only energy is in kJ
    }

    @Test func perHundredIsComputedWithoutNeedlessRounding() throws {
        // 35 kcal × (1 / 0.07) is 499.99999999999994; 35 × 100 / 7 is 500.
        let label = NutritionLabel(name: "Rice cake", servingLabel: "1 cake", servingAmount: 7, values: [.energy: .amount(35)])
        #expect(try label.food().nutrients[.energy] == 500)
    }

    @Test func millilitreBasis() throws {
        let label = NutritionLabel(
            name: "Oat drink", basis: .milliliters, servingLabel: "1 glass", servingAmount: 250,
            values: [.energy: .amount(105), nutrientNamed("calcium"): .percentDailyValue(20)])
        let food = try label.food(source: .openFoodFacts)
        #expect(food.basis == .milliliters)
        #expect(food.source == .openFoodFacts)
        #expect(food.nutrients[.energy] == 42)
        #expect(food.nutrients[nutrientNamed("calcium")] == 104)  // 20 % of 1300 mg = 260 mg per 250 ml
        #expect(food.defaultServing.description(basis: food.basis) == "1 glass (250 ml)")
    }

    @Test func nameBrandAndBarcodeAreCleanedUp() throws {
        let label = NutritionLabel(
            name: "  Granola  ", brand: "  ", barcode: "4006-3813 33931", servingLabel: " 1 bar ",
            servingAmount: 40, values: [:])
        let food = try label.food()
        #expect(food.name == "Granola")
        #expect(food.brand == nil)
        #expect(food.barcode == "4006381333931")
        #expect(food.servings == [ServingSize(label: "1 bar", amount: 40)])
        #expect(food.nutrients.isEmpty)
    }

    @Test(arguments: ["sugars", "trans_fat", "energy", "monounsaturated_fat"])
    func percentForANutrientWithoutDailyValueNamesTheField(_ key: String) {
        var label = Self.bar
        label.values[nutrientNamed(key)] = .percentDailyValue(5)
        #expect(invalidField { try label.food() } == "nutrients.\(key)")
    }

    @Test(arguments: [
        NutritionLabel.Value.percentDailyValue(-1), .percentDailyValue(.nan), .percentDailyValue(.infinity),
        .amount(-0.5), .amount(.nan), .amount(-.infinity),
    ])
    func badValuesNameTheField(_ value: NutritionLabel.Value) {
        var label = Self.bar
        label.values[.fat] = value
        #expect(invalidField { try label.food() } == "nutrients.fat")
    }

    @Test func theFirstBadValueIsTheSameEveryTime() {
        var label = Self.bar
        label.values = [nutrientNamed("zinc"): .amount(-1), .energy: .amount(-1), .sugars: .percentDailyValue(1)]
        for _ in 0..<20 { #expect(invalidField { try label.food() } == "nutrients.energy") }
    }

    @Test(arguments: [nil, 0, -40, Double.nan, .infinity, 100_001])
    func servingNeedsGrams(_ grams: Double?) {
        var label = Self.bar
        label.servingAmount = grams
        #expect(invalidField { try label.food() } == "serving.grams")
    }

    @Test func servingNeedsALabel() {
        var label = Self.bar
        label.servingLabel = "   "
        #expect(invalidField { try label.food() } == "serving.label")
    }

    @Test func foodChecksStillApply() {
        var label = Self.bar
        label.name = " "
        #expect(invalidField { try label.food() } == "name")
        label = Self.bar
        label.barcode = "12AB5678"
        #expect(invalidField { try label.food() } == "barcode")
    }
}

@Suite struct FoodValidationTests {
    @Test func trimsAndKeepsWhatIsFine() throws {
        var food = try apple()
        food.name = "  Apple, raw \n"
        food.brand = "  Orchard  "
        food.barcode = "  "
        let valid = try food.validated()
        #expect(valid.name == "Apple, raw")
        #expect(valid.brand == "Orchard")
        #expect(valid.barcode == nil)
        #expect(valid.nutrients == food.nutrients)
        #expect(valid.servings == food.servings)
        #expect(valid.id == food.id)
    }

    @Test(arguments: ["", "   ", "\n\t"])
    func emptyNameIsRejected(_ name: String) throws {
        var food = try apple()
        food.name = name
        #expect(invalidField { try food.validated() } == "name")
    }

    @Test func nameAndBrandAreAtMostTwoHundredCharacters() throws {
        var food = try apple()
        food.name = String(repeating: "é", count: 200)
        #expect(try food.validated().name.count == 200)
        food.name = String(repeating: "a", count: 201)
        #expect(invalidField { try food.validated() } == "name")
        food.name = "Apple"
        food.brand = String(repeating: "b", count: 201)
        #expect(invalidField { try food.validated() } == "brand")
    }

    @Test(arguments: [
        "40063813339A1", "4006381333931x", "12345-67", "1234567", "123456789012345", "---",
        "٤٠٠٦٣٨١٣٣٣٩٣١", "4006381333931\u{2013}",
    ])
    func badBarcodesAreRejected(_ barcode: String) throws {
        var food = try apple()
        food.barcode = barcode
        #expect(invalidField { try food.validated() } == "barcode")
    }

    @Test(arguments: [
        ("4006381333931", "4006381333931"), ("4006-3813-3393-1", "4006381333931"),
        (" 4 056489 123453 ", "4056489123453"), ("96385074", "96385074"),
        ("00012345600012", "00012345600012"),
    ])
    func barcodeDropsDashesAndSpaces(_ typed: String, _ digits: String) throws {
        var food = try apple()
        food.barcode = typed
        #expect(try food.validated().barcode == digits)
    }

    @Test func servingsAreCheckedByPosition() throws {
        var food = try apple()
        food.servings = [ServingSize(label: " 1 medium ", amount: 182), ServingSize(label: "1 cup", amount: 0)]
        #expect(invalidField { try food.validated() } == "servings[1].grams")
        food.servings = [ServingSize(label: "", amount: 100)]
        #expect(invalidField { try food.validated() } == "servings[0].label")
        food.servings = [ServingSize(label: " 1 medium ", amount: 182)]
        #expect(try food.validated().servings == [ServingSize(label: "1 medium", amount: 182)])
    }

    @Test func nutrientsSetWithoutChecksAreCaught() throws {
        var food = try apple()
        food.nutrients[.fat] = -1
        #expect(invalidField { try food.validated() } == "nutrients.fat")
        food.nutrients[.fat] = .nan
        #expect(invalidField { try food.validated() } == "nutrients.fat")
        food.nutrients[.fat] = 0
        #expect(throws: Never.self) { try food.validated() }
    }
}

@Suite struct BarcodeTests {
    @Test(arguments: ["4006381333931", "4056489123453", "036000291452", "96385074", "73513537", "00012345600012"])
    func realCodesHaveValidCheckDigits(_ code: String) throws {
        let barcode = try Barcode.validated(code)
        #expect(barcode.hasValidCheckDigit)
        #expect(barcode.digits == (code.count == 12 ? "0" + code : code))
        #expect(barcode.description == barcode.digits)
    }

    @Test(arguments: ["4006381333932", "4056489123454", "036000291453", "96385075", "12345678"])
    func wrongCheckDigitIsNoticedButAccepted(_ code: String) throws {
        let barcode = try Barcode.validated(code)
        #expect(!barcode.hasValidCheckDigit)
    }

    @Test func errorsNameTheGivenField() throws {
        #expect(invalidField { try Barcode.validated("abc") } == "barcode")
        #expect(invalidField { try Barcode.validated("", field: "code") } == "code")
        #expect(invalidField { try Barcode.validated("1234567", field: "code") } == "code")
        #expect(throws: Never.self) { try Barcode.validated("12345678") }
        #expect(throws: Never.self) { try Barcode.validated("12345678901234") }
        #expect(try Barcode.validated("036000291452").digits == "0036000291452", "UPC-A as its EAN-13")
        #expect(try Barcode.validated("0 36000 29145 2").digits == "0036000291452")
    }
}

@Suite struct ServingSizeTests {
    @Test func multiplierIsGramsOverAHundred() {
        #expect(ServingSize(label: "1 medium", amount: 182).multiplier == 1.82)
        #expect(ServingSize(label: "100 g", amount: 100).multiplier == 1)
        #expect(ServingSize.hundred(.grams) == ServingSize(label: "100 g", amount: 100))
        #expect(ServingSize.hundred(.milliliters) == ServingSize(label: "100 ml", amount: 100))
    }

    @Test func nutrientsOfServings() throws {
        let food = try apple()
        let medium = food.servings[0]
        let eaten = food.nutrients(servings: 1.5, of: medium)
        #expect(try #require(eaten[.energy]).isClose(to: 141.96))
        #expect(try #require(eaten[.fiber]).isClose(to: 2.4 * 1.82 * 1.5))
        #expect(eaten[.fat] == nil)
        #expect(food.nutrients(servings: 1, of: .hundred(.grams)) == food.nutrients)
        #expect(food.nutrients(servings: 30, of: ServingSize(label: "1 g", amount: 1))[.energy] == 15.6)
    }

    @Test func description() {
        #expect(ServingSize(label: "1 medium", amount: 182).description(basis: .grams) == "1 medium (182 g)")
        #expect(ServingSize(label: "1 oz", amount: 28.3495).description(basis: .grams) == "1 oz (28.3 g)")
        #expect(ServingSize.hundred(.grams).description(basis: .grams) == "100 g")
        #expect(ServingSize(label: "1 cup", amount: 240).description(basis: .milliliters) == "1 cup (240 ml)")
    }

    @Test func choicesAddHundredAndOneGramOnce() throws {
        let food = try apple()
        #expect(food.servingChoices.map(\.label) == ["1 medium", "100 g", "1 g"])
        var plain = food
        plain.servings = []
        #expect(plain.defaultServing == .hundred(.grams))
        #expect(plain.servingChoices.map(\.label) == ["100 g", "1 g"])
        plain.servings = [ServingSize(label: "100 g", amount: 100)]
        #expect(plain.servingChoices.map(\.label) == ["100 g", "1 g"])
    }

    @Test func validatedChecksLabelAndGrams() throws {
        #expect(try ServingSize.validated(label: " 1 cup ", amount: 240) == ServingSize(label: "1 cup", amount: 240))
        #expect(try ServingSize.validated(label: "1 crate", amount: 100_000).amount == 100_000)
        #expect(invalidField { try ServingSize.validated(label: "", amount: 240) } == "servings.label")
        #expect(
            invalidField { try ServingSize.validated(label: String(repeating: "x", count: 101), amount: 1) }
                == "servings.label")
        #expect(invalidField { try ServingSize.validated(label: "1 cup", amount: nil) } == "servings.grams")
        #expect(invalidField { try ServingSize.validated(label: "\u{0F}7 (0 g)", amount: 1) } == "servings.label")
        #expect(invalidField { try ServingSize.validated(label: "1 \u{202E}puc", amount: 1) } == "servings.label")
        #expect(invalidField { try ServingSize.validated(label: "1 cup", amount: 0, field: "serving") } == "serving.grams")
    }

    @Test func codableRoundTrip() throws {
        let serving = ServingSize(label: "1 medium", amount: 182)
        let decoded = try JSONDecoder().decode(ServingSize.self, from: JSONEncoder().encode(serving))
        #expect(decoded == serving)
    }

    @Test func sourcesAndBasesHaveStableRawValues() {
        #expect(FoodSource.allCases.map(\.rawValue) == ["mine", "usda", "off"])
        #expect(FoodSource.openFoodFacts.label == "Open Food Facts")
        #expect(FoodBasis.allCases.map(\.rawValue) == ["g", "ml"])
    }
}

@Suite struct ImplausibleFoodTests {
    func food(_ amounts: [String: Double], basis: FoodBasis = .grams) throws -> Food {
        Food(name: "X", basis: basis, nutrients: try Nutrients(keyed: amounts))
    }

    @Test func pureFatIsPossibleButMoreEnergyThanAnyFoodIsNot() throws {
        #expect(try food(["energy": 900, "fat": 100]).implausibleNutrient == nil)
        #expect(try food(["energy": 1000.5]).implausibleNutrient?.nutrient == .energy)
        #expect(invalidField { _ = try food(["energy": 4000]).validated() } == "nutrients.energy")
    }

    @Test func noNutrientOutweighsItsHundredGrams() throws {
        #expect(try food(["sodium": 39_000]).implausibleNutrient == nil, "table salt is 39 % sodium")
        #expect(try food(["sodium": 100_001]).implausibleNutrient?.nutrient == .sodium)
        #expect(try food(["vitamin_d": 1e8 + 1]).implausibleNutrient?.nutrient.key == "vitamin_d")
        #expect(try food(["sugars": 150], basis: .milliliters).implausibleNutrient == nil, "syrup is denser than water")
        #expect(try food(["sugars": 201], basis: .milliliters).implausibleNutrient?.nutrient == .sugars)
    }
}
