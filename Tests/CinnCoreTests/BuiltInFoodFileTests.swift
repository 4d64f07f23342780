import Foundation
import Testing

@testable import CinnCore

@Suite struct BuiltInFoodFileTests {
    static let apple = ImportedFood(
        food: Food(
            id: UUID(uuidString: "0f905197-df79-5e9c-a507-a2f213e6c9bd")!, name: "Apples, raw, with skin", source: .usda,
            nutrients: try! Nutrients(keyed: ["energy": 52.123456, "protein": 0.26, "vitamin_c": 4.6, "potassium": 107]),
            servings: [ServingSize(label: "1 medium", amount: 182)], category: "Fruits and Fruit Juices"),
        externalID: "usda:be32358827ca5d4b", line: 3, isGeneric: true)

    @Test func foodsRoundTripWithFourSignificantDigits() throws {
        let text = BuiltInFoodFile.encode([Self.apple], source: "test")
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3 && lines[0] == "cinn-built-in-foods\t1\ttest")
        let foods = try Array(text.utf8).withUnsafeBytes { try BuiltInFoodFile.decode($0) }
        var expected = Self.apple
        expected.food.nutrients[.energy] = 52.12
        #expect(foods == [expected])
    }

    @Test func roundingKeepsFourSignificantDigitsAtEveryScale() {
        #expect(BuiltInFoodFile.number(189.05353728489484) == "189.1")
        #expect(BuiltInFoodFile.number(0.0012345) == "0.001235" || BuiltInFoodFile.number(0.0012345) == "0.001234")
        #expect(BuiltInFoodFile.number(12_345) == "12350")
        #expect(BuiltInFoodFile.number(884) == "884")
        #expect(BuiltInFoodFile.number(0) == "0")
    }

    @Test func aDamagedFileNamesTheLineAndColumn() {
        func decode(_ text: String) throws -> [ImportedFood] {
            try Array(text.utf8).withUnsafeBytes { try BuiltInFoodFile.decode($0) }
        }
        let good = BuiltInFoodFile.encode([Self.apple], source: "test")
        #expect(throws: CinnError.invalid("line 1", "not a built-in food file of format 1")) { try decode("id\tname\nx\n") }
        let badAmount = good.replacingOccurrences(of: "\t107\t", with: "\tlots\t")
        #expect(throws: CinnError.invalid("line 3, potassium", "\"lots\" is not an amount")) { try decode(badAmount) }
        let shortLine = good + "x\ty\n"
        #expect(throws: CinnError.invalid("line 4", "2 fields where the header has \(6 + Nutrient.all.count)")) { try decode(shortLine) }
    }
}

@Suite struct BuiltInPortionsTests {
    static func decode(_ text: String) throws(CinnError) -> [String: [ServingSize]] {
        let result = Array(text.utf8).withUnsafeBytes { bytes in
            Result { () throws(CinnError) in try BuiltInFoodFile.decodePortions(bytes) }
        }
        return try result.get()
    }

    @Test func portionsBecomeTheServingsTheUsualOneFirst() throws {
        let portions = try Self.decode(
            """
            cinn-food-portions\t1\ttest
            name\tportions
            Apples, raw, with skin\t1 medium (3" dia)\t182\t1 cup slices\t109\t1 medium\t180

            """)
        #expect(
            portions == [
                "Apples, raw, with skin": [
                    ServingSize(label: "1 medium (3\" dia)", amount: 182),
                    ServingSize(label: "1 cup slices", amount: 109),
                    ServingSize(label: "1 medium", amount: 180),
                ]
            ])
        let foods = BuiltInFoodFile.withPortions([BuiltInFoodFileTests.apple], portions)
        #expect(
            foods[0].food.servings.map(\.label) == ["1 medium (3\" dia)", "1 cup slices", "1 medium"],
            "the food's own serving of a label it already has is not repeated")
        #expect(foods[0].food.defaultServing.amount == 182)
    }

    @Test(arguments: [
        ("cinn-built-in-foods\t1\nname\tportions\n", "line 1"),
        ("cinn-food-portions\t1\tx\nname\tportions\nApple\t1 medium\n", "line 3"),
        ("cinn-food-portions\t1\tx\nname\tportions\nApple\t1 medium\tlots\n", "line 3, portion 1.grams"),
        ("cinn-food-portions\t1\tx\nname\tportions\nApple\t1 medium\t-5\n", "line 3, portion 1.grams"),
        ("cinn-food-portions\t1\tx\nname\tportions\nApple\t1 \u{202E}medium\t5\n", "line 3, portion 1.label"),
        ("cinn-food-portions\t1\tx\nname\tportions\nApple\t1 medium\t5\nApple\t1 large\t6\n", "line 4"),
    ])
    func aDamagedPortionsFileNamesTheLine(_ text: String, _ field: String) {
        #expect(throws: CinnError.self) { try Self.decode(text) }
        do {
            _ = try Self.decode(text)
        } catch {
            #expect(error.field == field, "\(error)")
        }
    }
}
