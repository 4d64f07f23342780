import CinnCore
import Foundation

/// A product as a JSON object: a line of the JSON Lines dump, or the API's `product`.
struct OpenFoodFactsJSONProduct: OpenFoodFactsProductFields {
    let members: [String: JSONValue]
    let nutriments: [String: JSONValue]
    /// Put before every field name in errors: "product." for the API's envelope.
    let fieldPrefix: String

    init(members: [String: JSONValue], fieldPrefix: String) {
        self.members = members
        if case .object(let nutriments)? = members["nutriments"] {
            self.nutriments = nutriments
        } else {
            nutriments = [:]
        }
        self.fieldPrefix = fieldPrefix
    }

    func text(_ field: OpenFoodFactsField) -> String? {
        switch members[field.key] {
        case .string(let text)?:
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        case .number(let number)?:
            return number.text
        default:
            return nil
        }
    }

    /// The amount; legacy products write numbers as strings ("2.2"), which count the same.
    func amount(_ nutrient: OpenFoodFactsNutrient) -> OpenFoodFactsAmount {
        switch nutriments[nutrient.key] {
        case nil, .null?:
            return .absent
        case .number(let number)?:
            return .value(number.double)
        case .string(let text)?:
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { return .absent }
            return DecimalNumber.parse(trimmed, decimalComma: false).map(OpenFoodFactsAmount.value) ?? .invalid(text)
        case .bool(let flag)?:
            return .invalid(String(flag))
        case .array?:
            return .invalid("[…]")
        case .object?:
            return .invalid("{…}")
        }
    }

    func name(_ field: OpenFoodFactsField) -> String { fieldPrefix + field.key }
    func name(_ nutrient: OpenFoodFactsNutrient) -> String { fieldPrefix + "nutriments." + nutrient.key }
}

/// A row of the CSV dump, read through the columns its header names.
struct OpenFoodFactsCSVProduct: OpenFoodFactsProductFields {
    let row: CSVRow
    let columns: OpenFoodFactsColumns

    func text(_ field: OpenFoodFactsField) -> String? {
        columns.fields[field.rawValue].flatMap(row.nonEmptyText)
    }

    func amount(_ nutrient: OpenFoodFactsNutrient) -> OpenFoodFactsAmount {
        guard let column = columns.nutrients[nutrient.index] else { return .absent }
        let bytes = row.field(column)
        if bytes.isEmpty { return .absent }
        return DecimalNumber.parse(bytes, decimalComma: false).map(OpenFoodFactsAmount.value) ?? .invalid(TextDecoding.string(bytes))
    }

    func name(_ field: OpenFoodFactsField) -> String { field.key }
    func name(_ nutrient: OpenFoodFactsNutrient) -> String { nutrient.key }
}

/// Which columns of the CSV dump hold the fields and nutrients Cinn reads, found by header name.
struct OpenFoodFactsColumns: Sendable {
    /// By `OpenFoodFactsField.rawValue`.
    let fields: [Int?]
    /// By `OpenFoodFactsNutrient.index`.
    let nutrients: [Int?]

    /// The columns `header` names; throws naming the required columns it lacks and the columns it has.
    init(header: [String], fileName: String) throws(CinnError) {
        fields = OpenFoodFactsField.allCases.map { header.firstIndex(of: $0.key) }
        nutrients = OpenFoodFactsNutrient.all.map { header.firstIndex(of: $0.key) }
        var missing = [OpenFoodFactsField.code, .productName].filter { fields[$0.rawValue] == nil }.map(\.key)
        if OpenFoodFactsNutrient.energyKeys.allSatisfy({ nutrients[$0.index] == nil }) {
            missing.append(OpenFoodFactsNutrient.energyKeys.map(\.key).joined(separator: " or "))
        }
        guard missing.isEmpty else {
            let columns = missing.count == 1 ? "column \(missing[0]) is" : "columns \(missing.joined(separator: ", ")) are"
            throw .invalid(
                "file", "\(fileName) is not an Open Food Facts CSV dump: the \(columns) missing; its columns are \(FoodFile.listed(header))"
            )
        }
    }
}
