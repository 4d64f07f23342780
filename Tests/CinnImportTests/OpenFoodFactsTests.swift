import CinnCore
import CinnImport
import Foundation
import Testing

/// Checks the granola product the fixtures share, per 100 g.
func expectGranola(_ food: Food) {
    #expect(food.name == "Knusper-Granola Beere")
    #expect(food.brand == "Hügelhof")
    #expect(food.barcode == "4056489123453")
    #expect(food.source == .openFoodFacts)
    #expect(food.basis == .grams)
    #expect(food.servings == [ServingSize(label: "45 g", amount: 45)])
    #expect(food.nutrients.energy == 439, "energy-kcal_100g wins over energy_100g in kJ")
    #expect(food.nutrients[.fat] == 16.4)
    #expect(food.nutrients[.saturatedFat] == 2.7)
    #expect(food.nutrients[.carbohydrate] == 61.2)
    #expect(food.nutrients[.sugars] == 18.9)
    #expect(food.nutrients[.protein] == 9.6)
    #expect(near(food.nutrients[.sodium], 32), "sodium_100g 0.032 g is 32 mg")
    #expect(near(food.nutrients[Nutrient.named("iron")!], 3.6), "iron_100g 0.0036 g is 3.6 mg")
    #expect(food.nutrients[Nutrient.named("cholesterol")!] == nil, "a missing key is unknown, not 0")
}

@Suite struct OpenFoodFactsReaderTests {
    @Test func readsTheJSONLinesDump() async throws {
        let url = try fixture("openfoodfacts-products.SUBSET.jsonl")
        #expect(try OpenFoodFactsReader(url: url).layout == .jsonLines)
        let result = try await readOpenFoodFacts(url)
        #expect(result.summary == FoodFileSummary(rowsRead: 2, skipped: 1, rejected: [], rejectedCount: 0))
        let granola = try result.food(line: 1)
        #expect(granola.externalID == "off:4056489123453")
        #expect(!granola.isGeneric)
        #expect(granola.food.nutrients[.fiber] == 7.8)
        expectGranola(granola.food)
    }

    @Test func readsTheCSVDump() async throws {
        let url = try fixture("en.openfoodfacts.org.products.SUBSET.csv")
        #expect(try OpenFoodFactsReader(url: url).layout == .csv)
        let result = try await readOpenFoodFacts(url)
        #expect(result.summary == FoodFileSummary(rowsRead: 3, skipped: 1, rejected: [], rejectedCount: 0), "the bread has no nutrients")
        #expect(result.foods.map(\.line) == [2, 3])
        let granola = try result.food(line: 2)
        #expect(granola.externalID == "off:4056489123453")
        expectGranola(granola.food)

        let water = try result.food(line: 3)
        #expect(water.food.name == "Sparkling Water, Lime")
        #expect(water.food.brand == "Fizzco")
        #expect(water.food.barcode == "0012345000065")
        #expect(water.externalID == "off:0012345000065")
        #expect(water.food.basis == .milliliters, "the quantity is 12 fl oz (355 ml)")
        #expect(water.food.servings == [ServingSize(label: "1 can (355 ml)", amount: 355)])
        #expect(water.food.nutrients.energy == 0, "0 kcal is known, not missing")
        #expect(water.food.nutrients[.sodium] == 0)
        #expect(water.food.nutrients[.fiber] == nil, "an empty cell is unknown")
    }

    @Test func fallsBackToKilojoulesSaltAndOtherNames() async throws {
        let lines = [
            #"{"code":"40111445","product_name_en":"Apple juice","brands":" , Saftladen","quantity":"1 l","nutriments":{"energy_100g":"192","salt_100g":0.01,"vitamin-c_100g":"0.035","sugars_100g":"10.1"}}"#,
            #"{"code":"40111452","generic_name":"Oat drink","nutrition_data_per":"100ml","nutriments":{"energy-kj_100g":184,"energy_100g":999,"selenium_100g":0.000002}}"#,
        ]
        let result = try await readOpenFoodFacts(temporaryFile(lines.joined(separator: "\n"), name: "products.jsonl"))
        #expect(result.summary.rejectedCount == 0)
        let juice = try result.food(line: 1)
        #expect(juice.food.name == "Apple juice")
        #expect(juice.food.brand == "Saftladen")
        #expect(juice.food.basis == .milliliters)
        #expect(near(juice.food.nutrients.energy, 192 / 4.184))
        #expect(near(juice.food.nutrients[.sodium], 4), "0.01 g salt is 4 mg sodium")
        #expect(near(juice.food.nutrients[Nutrient.named("vitamin_c")!], 35))
        #expect(juice.food.nutrients[.sugars] == 10.1)
        let oat = try result.food(line: 2)
        #expect(oat.food.name == "Oat drink")
        #expect(oat.food.basis == .milliliters)
        #expect(near(oat.food.nutrients.energy, 184 / 4.184), "energy-kj_100g comes before energy_100g")
        #expect(near(oat.food.nutrients[Nutrient.named("selenium")!], 2), "µg")
        #expect(oat.food.servings.isEmpty)
    }

    @Test func rejectsBadProductsWithTheirLines() async throws {
        let lines = [
            #"{"code":"40111445","product_name":"Fine","nutriments":{"energy-kcal_100g":50}}"#,
            #"{"code":"123","product_name":"Short code","nutriments":{"energy-kcal_100g":50}}"#,
            #"{"code":"40111452","product_name":"Negative","nutriments":{"energy-kcal_100g":50,"fat_100g":-1.5}}"#,
            "",
            #"{"code":"40111469","product_name":"Words","nutriments":{"energy-kcal_100g":"lots"}}"#,
            #"{"code":"40111476","product_name":"Cut off","nutriments":{"#,
            #"{"product_name":"No code","nutriments":{"energy-kcal_100g":50}}"#,
            #"{"code":"40111483","product_name":"Huge","nutriments":{"energy-kcal_100g":1e999}}"#,
            #"{"code":"40111490","nutriments":{"energy-kcal_100g":50}}"#,
        ]
        let result = try await readOpenFoodFacts(temporaryFile(lines.joined(separator: "\n"), name: "products.jsonl"))
        #expect(result.foods.map(\.line) == [1])
        #expect(result.summary.skipped == 1, "the product without a name")
        #expect(result.summary.rowsRead == 8)
        #expect(
            result.summary.rejected == [
                RejectedRow(line: 2, field: "code", reason: "\"123\" is not a barcode: a barcode has 8 to 14 digits"),
                RejectedRow(line: 3, field: "nutriments.fat_100g", reason: "fat_100g must not be negative, not -1.5"),
                RejectedRow(line: 5, field: "nutriments.energy-kcal_100g", reason: "\"lots\" is not a number"),
                RejectedRow(line: 6, field: "product", reason: "the line is not a JSON object"),
                RejectedRow(line: 7, field: "code", reason: "the product has no barcode"),
                RejectedRow(line: 8, field: "nutriments.energy-kcal_100g", reason: "energy-kcal_100g must be a finite number"),
            ])
    }

    @Test func rejectsABadBarcodeInTheCSVDump() async throws {
        let text = "code\tproduct_name\tenergy-kcal_100g\tfat_100g\n12AB\tOdd\t100\t1\n40111445\tGood\t100\t-2\n"
        let result = try await readOpenFoodFacts(temporaryFile(text, name: "products.csv"))
        #expect(result.foods.isEmpty)
        #expect(
            result.summary.rejected == [
                RejectedRow(line: 2, field: "code", reason: "\"12AB\" is not a barcode: a barcode has only digits"),
                RejectedRow(line: 3, field: "fat_100g", reason: "fat_100g must not be negative, not -2.0"),
            ])
    }

    @Test func keepsQuotesInTheTabSeparatedDump() async throws {
        let text = "code\tproduct_name\tenergy-kcal_100g\n40111445\t\"Bio\" Müsli\t380\n40111452\tPlain\t100\n"
        let result = try await readOpenFoodFacts(temporaryFile(text, name: "products.csv"))
        #expect(result.foods.map(\.food.name) == ["\"Bio\" Müsli", "Plain"])
    }

    @Test func namesTheColumnsOfAnUnknownLayout() throws {
        let url = try temporaryFile("barcode\tname\tkcal\n40111445\tOats\t379\n", name: "products.csv")
        let error = try #require(openingError { () throws(CinnError) in _ = try OpenFoodFactsReader(url: url) })
        #expect(error.field == "file")
        #expect(
            error.message
                == "products.csv is not an Open Food Facts CSV dump: the columns code, product_name, energy-kcal_100g or energy-kj_100g or energy_100g are missing; its columns are \"barcode\", \"name\", \"kcal\""
        )
    }

    @Test func rejectsFilesItCannotRead() throws {
        let cases: [(text: String, message: String)] = [
            ("", "cannot import products.jsonl: the file is empty"),
            ("[{\"code\":\"40111445\"}]", "products.jsonl holds a JSON array; Cinn reads the JSON Lines dump, one product per line"),
            (
                "{\n  \"code\": \"40111445\"\n}\n",
                "products.jsonl holds one JSON document over many lines; Cinn reads the JSON Lines dump, one product per line"
            ),
        ]
        for (text, message) in cases {
            let url = try temporaryFile(text, name: "products.jsonl")
            let error = try #require(openingError { () throws(CinnError) in _ = try OpenFoodFactsReader(url: url) })
            #expect(error == CinnError(.invalidInput, message, field: "file"))
        }
    }
}

@Suite struct OpenFoodFactsProductTests {
    func body(_ name: String) throws -> Data {
        try Data(contentsOf: fixture(name))
    }

    @Test func readsAFoundProduct() throws {
        guard case .found(let food) = try OpenFoodFactsProduct(responseBody: body("product_4056489123453.json")) else {
            Issue.record("the product is found")
            return
        }
        expectGranola(food)
    }

    @Test func tellsNotFoundAndInvalidCodeApart() throws {
        #expect(try OpenFoodFactsProduct(responseBody: body("product_not_found_4056489999997.json")) == .notFound)
        #expect(try OpenFoodFactsProduct(responseBody: body("product_invalid_code.json")) == .invalidCode)
    }

    @Test func takesTheBarcodeFromTheEnvelopeWhenTheProductHasNone() throws {
        let text = #"{"code":"40111445","status":1,"product":{"product_name":"Oats","nutriments":{"energy-kcal_100g":379}}}"#
        guard case .found(let food) = try OpenFoodFactsProduct(responseBody: Data(text.utf8)) else {
            Issue.record("the product is found")
            return
        }
        #expect(food.barcode == "40111445")
        #expect(food.nutrients.energy == 379)
    }

    @Test(arguments: [
        ("<html>Service unavailable</html>", "body"),
        ("[1, 2]", "body"),
        (#"{"code":"40111445","product":{}}"#, "status"),
        (#"{"status":"success"}"#, "status"),
        (#"{"status":2}"#, "status"),
        (#"{"status":1,"status_verbose":"product found"}"#, "product"),
        (
            #"{"code":"40111445","status":1,"product":{"product_name":"Oats","nutriments":{"energy-kcal_100g":379,"proteins_100g":-13}}}"#,
            "product.nutriments.proteins_100g"
        ),
        (#"{"code":"4011","status":1,"product":{"product_name":"Oats","nutriments":{"energy-kcal_100g":379}}}"#, "product.code"),
    ])
    func rejectsAMalformedBodyNamingTheField(text: String, field: String) {
        let error = openingError { () throws(CinnError) in _ = try OpenFoodFactsProduct(responseBody: Data(text.utf8)) }
        #expect(error?.code == .invalidInput)
        #expect(error?.field == field)
    }

    @Test func aProductWithoutNameOrEnergyIsOneToMakeByHand() throws {
        let noEnergy = #"{"code":"40111445","status":1,"product":{"product_name":"Oats","brands":"Mill, Other","nutriments":{}}}"#
        #expect(try OpenFoodFactsProduct(responseBody: Data(noEnergy.utf8)) == .withoutNutrition(name: "Oats", brand: "Mill"))
        let noName = #"{"code":"40111445","status":1,"product":{"nutriments":{"energy-kcal_100g":379}}}"#
        #expect(try OpenFoodFactsProduct(responseBody: Data(noName.utf8)) == .withoutNutrition(name: nil, brand: nil))
    }
}
