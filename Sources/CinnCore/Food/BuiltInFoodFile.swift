import Foundation

/// The text format of the generic foods built into Cinn: tab-separated UTF-8, one food a line.
///
/// The first line names the format and where the foods came from; the second names the columns:
/// `id`, `external_id`, `name`, `category`, `serving`, `serving_g`, then one column per nutrient key
/// (amounts per 100 g, in the catalogue's units, empty when the source has none). `docs/FOODS.md`
/// says how the file is made.
public enum BuiltInFoodFile {
    /// The first field of the first line.
    public static let signature = "cinn-built-in-foods"
    public static let formatVersion = 1

    /// Columns before the nutrients.
    static let fixedColumns = ["id", "external_id", "name", "category", "serving", "serving_g"]

    /// Significant digits an amount keeps: far finer than a food's analysis, and a third of the file's size.
    public static let significantDigits = 4

    /// The file's text: `foods` (each with its stable id in `food.id`) in the order given.
    public static func encode(_ foods: [ImportedFood], source: String) -> String {
        let nutrients = Nutrient.all
        var text = "\(signature)\t\(formatVersion)\t\(clean(source))\n"
        text += (fixedColumns + nutrients.map(\.key)).joined(separator: "\t") + "\n"
        for imported in foods {
            let food = imported.food
            let serving = food.servings.first
            var fields = [
                food.id.uuidString.lowercased(), imported.externalID, clean(food.name), clean(food.category ?? ""),
                clean(serving?.label ?? ""), serving.map { number($0.amount) } ?? "",
            ]
            fields += nutrients.map { food.nutrients[$0].map(number) ?? "" }
            text += fields.joined(separator: "\t") + "\n"
        }
        return text
    }

    /// `value` rounded to `significantDigits` and written as briefly as it reads back.
    static func number(_ value: Double) -> String {
        guard value != 0, value.isFinite else { return "0" }
        let exponent = significantDigits - 1 - Int(Foundation.floor(Foundation.log10(Swift.abs(value))))
        let power = Foundation.pow(10, Double(Swift.abs(exponent)))
        return JSONText.compactNumber(exponent >= 0 ? (value * power).rounded() / power : (value / power).rounded() * power)
    }

    /// Tabs and line breaks would split a field: none of the source's names has one, and none may.
    static func clean(_ text: String) -> String {
        text.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\r", with: " ")
    }

    /// The foods of a file's bytes, as generic USDA foods per 100 g; the error names the line and column at fault.
    // Byte by byte: splitting a String into lines and fields by Character costs ten times as much.
    public static func decode(_ bytes: UnsafeRawBufferPointer) throws(CinnError) -> [ImportedFood] {
        let buffer = bytes.bindMemory(to: UInt8.self)
        var lines = buffer.split(separator: 0x0A, omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard lines.count >= 2 else { throw .invalid("line 1", "the built-in food file is empty") }
        func fields(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> [Slice<UnsafeBufferPointer<UInt8>>] {
            line.split(separator: 0x09, omittingEmptySubsequences: false)
        }
        func text(_ field: Slice<UnsafeBufferPointer<UInt8>>) -> String { String(decoding: field, as: UTF8.self) }
        let first = fields(lines[0]).map(text)
        guard first.first == signature, first.count >= 2, Int(first[1]) == formatVersion else {
            throw .invalid("line 1", "not a built-in food file of format \(formatVersion)")
        }
        let header = fields(lines[1]).map(text)
        guard Array(header.prefix(fixedColumns.count)) == fixedColumns else {
            throw .invalid("line 2", "the columns must start with \(fixedColumns.joined(separator: ", "))")
        }
        var nutrientColumns: [(index: Int, nutrient: Nutrient)] = []
        for (index, key) in header.enumerated().dropFirst(fixedColumns.count) {
            guard let nutrient = Nutrient.named(key) else { throw .invalid("line 2", "unknown nutrient \"\(key)\"") }
            nutrientColumns.append((index, nutrient))
        }
        var foods: [ImportedFood] = []
        foods.reserveCapacity(lines.count - 2)
        for (offset, line) in lines.enumerated().dropFirst(2) {
            let lineNumber = offset + 1
            let row = fields(line)
            guard row.count == header.count else {
                throw .invalid("line \(lineNumber)", "\(row.count) fields where the header has \(header.count)")
            }
            guard let id = UUID(uuidString: text(row[0])) else { throw .invalid("line \(lineNumber), id", "not a UUID") }
            var nutrients = Nutrients()
            for (index, nutrient) in nutrientColumns where !row[index].isEmpty {
                guard let amount = Double(text(row[index])), amount.isFinite, amount >= 0 else {
                    throw .invalid("line \(lineNumber), \(nutrient.key)", "\"\(text(row[index]))\" is not an amount")
                }
                nutrients[nutrient] = amount
            }
            var servings: [ServingSize] = []
            if !row[5].isEmpty {
                guard let grams = Double(text(row[5])), grams.isFinite, grams > 0 else {
                    throw .invalid("line \(lineNumber), serving_g", "\"\(text(row[5]))\" is not a weight")
                }
                servings = [ServingSize(label: row[4].isEmpty ? "1 serving" : text(row[4]), amount: grams)]
            }
            let food = Food(
                id: id, name: text(row[2]), source: .usda, basis: .grams, nutrients: nutrients,
                servings: servings, category: row[3].isEmpty ? nil : text(row[3]))
            foods.append(ImportedFood(food: food, externalID: text(row[1]), line: lineNumber, isGeneric: true))
        }
        return foods
    }

    /// The first field of the portions file's first line.
    public static let portionsSignature = "cinn-food-portions"

    /// The household portions of the built-in foods, by food name, the usual one first: after two header lines
    /// (the signature, the format version and the source; the columns), one food a line: its name, then a label and
    /// its grams, a label and its grams... `docs/FOODS.md` says how the file is made. Each portion is checked as
    /// every serving is (`ServingSize.validated`); the error names the line.
    public static func decodePortions(_ bytes: UnsafeRawBufferPointer) throws(CinnError) -> [String: [ServingSize]] {
        let buffer = bytes.bindMemory(to: UInt8.self)
        var lines = buffer.split(separator: 0x0A, omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        func text(_ field: Slice<UnsafeBufferPointer<UInt8>>) -> String { String(decoding: field, as: UTF8.self) }
        let first = lines.first.map { $0.split(separator: 0x09, omittingEmptySubsequences: false).map(text) } ?? []
        guard first.first == portionsSignature, first.count >= 2, Int(first[1]) == formatVersion, lines.count >= 2 else {
            throw .invalid("line 1", "not a built-in portions file of format \(formatVersion)")
        }
        var portions: [String: [ServingSize]] = [:]
        portions.reserveCapacity(lines.count - 2)
        for (offset, line) in lines.enumerated().dropFirst(2) {
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
            guard fields.count >= 3, fields.count % 2 == 1, !fields[0].isEmpty else {
                throw .invalid("line \(offset + 1)", "a food's name, then pairs of a portion and its grams")
            }
            var servings: [ServingSize] = []
            servings.reserveCapacity(fields.count / 2)
            for index in stride(from: 1, to: fields.count, by: 2) {
                servings.append(
                    try ServingSize.validated(
                        label: text(fields[index]), amount: Double(text(fields[index + 1])),
                        field: "line \(offset + 1), portion \(index / 2 + 1)"))
            }
            let name = text(fields[0])
            guard portions.updateValue(servings, forKey: name) == nil else {
                throw .invalid("line \(offset + 1)", "\(name) has portions on an earlier line")
            }
        }
        return portions
    }

    /// `foods` with their household portions: a food named in `portions` takes them as its servings, the usual one
    /// first; the serving it had stays after them unless one of them has its label.
    public static func withPortions(_ foods: [ImportedFood], _ portions: [String: [ServingSize]]) -> [ImportedFood] {
        foods.map { imported in
            guard let servings = portions[imported.food.name] else { return imported }
            var imported = imported
            imported.food.servings = servings + imported.food.servings.filter { old in !servings.contains { $0.label == old.label } }
            return imported
        }
    }
}
