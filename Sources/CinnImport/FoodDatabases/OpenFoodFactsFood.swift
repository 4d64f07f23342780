import CinnCore
import Foundation

/// Turns one Open Food Facts product into a food, the same way for the API and both dumps.
enum OpenFoodFactsFood {
    /// A product read: a food and its barcode, or what it lacks to be one, which the dumps skip.
    enum Reading {
        case food(Food, Barcode)
        /// No name, no energy or impossible amounts; the error says which.
        case incomplete(CinnError)
    }

    /// Throws, naming the field, when the product is unusable: a bad barcode, a negative or non-numeric amount.
    static func read(_ fields: some OpenFoodFactsProductFields, using generator: inout some RandomNumberGenerator) throws(CinnError)
        -> Reading
    {
        guard let name = fields.text(.productName) ?? fields.text(.productNameEnglish) ?? fields.text(.genericName) else {
            return .incomplete(.invalid(fields.name(.productName), "the product has no name"))
        }
        var nutrients = Nutrients()
        for nutrient in OpenFoodFactsNutrient.energyKeys {
            try fill(&nutrients, nutrient, fields)
        }
        guard nutrients.energy != nil else {
            return .incomplete(.invalid(fields.name(OpenFoodFactsNutrient.energyKilocalories), "the product has no energy value"))
        }
        guard let code = fields.text(.code) else { throw .invalid(fields.name(.code), "the product has no barcode") }
        let barcode: Barcode
        do {
            barcode = try Barcode.validated(code, field: fields.name(.code))
        } catch {
            throw .invalid(fields.name(.code), "\"\(code)\" is not a barcode: \(error.message)")
        }
        for nutrient in OpenFoodFactsNutrient.otherKeys {
            try fill(&nutrients, nutrient, fields)
        }
        let food = Food(
            id: .v7(at: Date(), using: &generator), name: name, brand: firstBrand(fields), barcode: barcode.digits, source: .openFoodFacts,
            basis: basis(fields), nutrients: nutrients, servings: serving(fields).map { [$0] } ?? [])
        // Impossible amounts (a kJ value in the kcal field, grams typed as milligrams) leave nothing usable.
        if let problem = food.implausibleNutrient {
            return .incomplete(.invalid(fields.name(.productName), problem.reason))
        }
        return .food(try food.validated(), barcode)
    }

    /// The first of the comma-separated `brands`.
    static func firstBrand(_ fields: some OpenFoodFactsProductFields) -> String? {
        fields.text(.brands)?.split(separator: ",").lazy.map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
    }

    /// Sets the nutrient's amount unless an earlier, preferred key has set it (energy in kcal before kJ, sodium before salt).
    private static func fill(
        _ nutrients: inout Nutrients, _ nutrient: OpenFoodFactsNutrient, _ fields: some OpenFoodFactsProductFields
    ) throws(CinnError) {
        let value: Double
        switch fields.amount(nutrient) {
        case .absent:
            return
        case .invalid(let text):
            throw .invalid(fields.name(nutrient), "\"\(text)\" is not a number")
        case .value(let amount):
            value = amount
        }
        guard value.isFinite else { throw .invalid(fields.name(nutrient), "\(nutrient.key) must be a finite number") }
        guard value >= 0 else {
            throw .invalid(fields.name(nutrient), "\(nutrient.key) must not be negative, not \(value)")
        }
        let catalogue = Nutrient.all[nutrient.nutrientIndex]
        if nutrients[catalogue] == nil { nutrients[catalogue] = value * nutrient.factor }
    }

    /// Per 100 ml when `nutrition_data_per` or the quantity names a volume ("100ml", "12 fl oz (355 ml)", "75 cl").
    private static func basis(_ fields: some OpenFoodFactsProductFields) -> FoodBasis {
        if fields.text(.nutritionDataPer)?.lowercased().contains("ml") == true { return .milliliters }
        guard let quantity = fields.text(.quantity) else { return .grams }
        let words = quantity.lowercased().utf8.split { !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
        return words.contains { volumeUnits.contains(String(decoding: $0, as: UTF8.self)) } ? .milliliters : .grams
    }

    private static let volumeUnits: Set = ["ml", "cl", "dl", "l", "lt", "ltr", "litre", "litres", "liter", "liters", "fl"]

    /// The serving `serving_size` names and `serving_quantity` weighs; nil without a usable weight.
    private static func serving(_ fields: some OpenFoodFactsProductFields) -> ServingSize? {
        guard let text = fields.text(.servingQuantity), let amount = DecimalNumber.parse(text, decimalComma: false),
            amount > 0
        else { return nil }
        return try? ServingSize.validated(label: fields.text(.servingSize) ?? "1 serving", amount: amount)
    }
}
