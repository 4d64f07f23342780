import Foundation

/// What a person copies from a nutrition label to make a food by hand: the serving it states
/// and, per serving, each nutrient as an amount or as a % Daily Value.
public struct NutritionLabel: Sendable, Hashable {
    public enum Value: Sendable, Hashable {
        /// In the nutrient's unit (kcal for energy, unless `energyInKilojoules`).
        case amount(Double)
        /// Percent of the FDA Daily Value.
        case percentDailyValue(Double)
    }

    public var name: String
    public var brand: String?
    public var barcode: String?
    public var basis: FoodBasis
    public var servingLabel: String
    /// Grams (or ml) in the labelled serving.
    public var servingAmount: Double?
    public var values: [Nutrient: Value]
    /// Energy was entered in kJ.
    public var energyInKilojoules: Bool
    /// What errors about % Daily Value entries are named under: `percent_daily_value.iron` when a
    /// form keeps them apart from amounts, `nutrients.iron` (the default) when one field holds either.
    public var percentDailyValueField = "nutrients"
    /// More portions besides the labelled one ("1 tbsp", 15 g).
    public var otherServings: [ServingSize] = []

    public init(
        name: String, brand: String? = nil, barcode: String? = nil, basis: FoodBasis = .grams,
        servingLabel: String, servingAmount: Double?, values: [Nutrient: Value], energyInKilojoules: Bool = false
    ) {
        self.name = name
        self.brand = brand
        self.barcode = barcode
        self.basis = basis
        self.servingLabel = servingLabel
        self.servingAmount = servingAmount
        self.values = values
        self.energyInKilojoules = energyInKilojoules
    }

    /// The food this label describes, with nutrients per 100 g (or ml) and the labelled serving.
    ///
    /// A 40 g bar at 200 kcal and 10 % DV iron becomes 500 kcal and 4.5 mg iron per 100 g
    /// (10 % of 18 mg is 1.8 mg per bar).
    public func food(id: UUID = .v7(), source: FoodSource = .mine) throws -> Food {
        let serving = try ServingSize.validated(label: servingLabel, amount: servingAmount, field: "serving")
        // Per 100 g computed per value as `amount × 100 / grams`, with fewer roundings than scaling
        // by 1 / multiplier: 35 kcal in a 7 g serving is 500 kcal, not 499.99999999999994.
        var nutrients = Nutrients()
        for nutrient in Nutrient.all {  // catalogue order, so the first bad value reported is always the same
            guard let value = values[nutrient] else { continue }
            let field = "nutrients.\(nutrient.key)"
            let perServing: Double
            switch value {
            case .amount(let amount):
                perServing = nutrient == .energy && energyInKilojoules ? Nutrient.kilocalories(kilojoules: amount) : amount
            case .percentDailyValue(let percent):
                let field = "\(percentDailyValueField).\(nutrient.key)"
                guard percent.isFinite, percent >= 0 else { throw CinnError.invalid(field, "% Daily Value must be a number, 0 or more") }
                guard let amount = nutrient.amount(percentDailyValue: percent) else {
                    throw CinnError.invalid(field, "\(nutrient.name) has no Daily Value; enter the amount in \(nutrient.unit.rawValue)")
                }
                perServing = amount
            }
            try nutrients.set(nutrient, perServing * 100 / serving.amount, field: field)
        }
        var servings = [serving]
        for (index, other) in otherServings.enumerated() {
            let checked = try ServingSize.validated(label: other.label, amount: other.amount, field: "other_servings[\(index)]")
            guard !servings.contains(where: { $0.label.caseInsensitiveCompare(checked.label) == .orderedSame }) else {
                throw CinnError.invalid("other_servings[\(index)].label", "there is already a serving called \"\(checked.label)\"")
            }
            servings.append(checked)
        }
        let food = Food(
            id: id, name: name, brand: brand, barcode: barcode, source: source, basis: basis,
            nutrients: nutrients, servings: servings)
        return try food.validated()
    }
}
