@testable import CinnCore
import Foundation
import Testing

@Suite struct BuiltInFoodFileTests {
    static let apple = ImportedFood(
        food: Food(id: UUID(uuidString: "0f905197-df79-5e9c-a507-a2f213e6c9bd")!, name: "Apples, raw, with skin", source: .usda,
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
