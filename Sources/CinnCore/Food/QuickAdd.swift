import Foundation

/// Energy, and optionally protein, carbohydrate and fat, logged straight into a meal without a food: "lunch out,
/// about 700 kcal". Without energy it is counted from the macronutrients at 4, 4 and 9 kcal a gram (Atwater).
public struct QuickAdd: Sendable, Hashable {
    public static let defaultName = "Quick add"
    /// The most one quick add may hold: a very large day's eating.
    public static let maximumEnergyKcal = 10_000.0
    public static let maximumGrams = 2_000.0

    public var name: String
    public var energyKcal: Double
    public var proteinGrams: Double?
    public var carbohydrateGrams: Double?
    public var fatGrams: Double?
    /// Energy was counted from the macronutrients, not given.
    public var energyIsCounted: Bool

    /// Checks what a person typed; `prefix` goes before each field's name in errors (`entries[0].`).
    public static func validated(
        name: String?, energyKcal: Double?, proteinGrams: Double?, carbohydrateGrams: Double?,
        fatGrams: Double?, prefix: String = ""
    ) throws(CinnError) -> QuickAdd {
        let trimmed = name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard trimmed.count <= 200 else { throw .invalid(prefix + "name", "a quick add's name must be at most 200 characters") }
        try ValidValues.plainText(trimmed, field: prefix + "name", allowingLineBreaks: false)
        func grams(_ value: Double?, _ field: String, _ title: String) throws(CinnError) -> Double? {
            guard let value else { return nil }
            guard value.isFinite, value >= 0 else { throw .invalid(prefix + field, "\(title) must be 0 g or more") }
            guard value <= maximumGrams else { throw .invalid(prefix + field, "\(title) must be at most 2000 g") }
            return value
        }
        let protein = try grams(proteinGrams, "protein_g", "protein")
        let carbohydrate = try grams(carbohydrateGrams, "carbohydrate_g", "carbohydrate")
        let fat = try grams(fatGrams, "fat_g", "fat")
        let energy: Double
        if let energyKcal {
            guard energyKcal.isFinite, energyKcal >= 0 else { throw .invalid(prefix + "energy_kcal", "energy must be 0 kcal or more") }
            guard energyKcal <= maximumEnergyKcal else {
                throw .invalid(prefix + "energy_kcal", "energy must be at most 10000 kcal in one quick add")
            }
            energy = energyKcal
        } else if protein != nil || carbohydrate != nil || fat != nil {
            energy = 4 * (protein ?? 0) + 4 * (carbohydrate ?? 0) + 9 * (fat ?? 0)
        } else {
            throw .invalid(prefix + "energy_kcal", "a quick add needs its energy, or protein, carbohydrate or fat to count it from")
        }
        return QuickAdd(
            name: trimmed.isEmpty ? defaultName : trimmed, energyKcal: energy, proteinGrams: protein,
            carbohydrateGrams: carbohydrate, fatGrams: fat, energyIsCounted: energyKcal == nil)
    }

    public var nutrients: Nutrients {
        var nutrients = Nutrients()
        nutrients[.energy] = energyKcal
        nutrients[.protein] = proteinGrams
        nutrients[.carbohydrate] = carbohydrateGrams
        nutrients[.fat] = fatGrams
        return nutrients
    }
}

extension FoodLogEntry {
    /// The source of a quick add's entry, and its serving label.
    public static let quickAddSource = "quick-add"
    public static let quickAddServing = "quick add"

    /// An entry of a quick add: no food, one serving holding its amounts.
    public static func logging(
        _ quick: QuickAdd, meal: Meal, eatenAt: Date, utcOffsetSeconds: Int, note: String? = nil,
        id: UUID = .v7()
    ) -> FoodLogEntry {
        FoodLogEntry(
            id: id, foodID: nil, name: quick.name, meal: meal, eatenAt: eatenAt, utcOffsetSeconds: utcOffsetSeconds,
            servings: 1, servingLabel: quickAddServing, servingAmount: nil, nutrients: quick.nutrients, note: note,
            source: quickAddSource)
    }

    /// What a Nightscout treatment's carbohydrate (a carb correction, a meal bolus's carbs) is in the food log, whichever
    /// way it arrived (a file, an uploader): a quick add of `grams` of carbohydrate named `name` (else "Carbs"), its energy
    /// counted at 4 kcal a gram (so said in its note), in the usual meal for its local time.
    public static func carbohydrateTreatment(
        grams: Double, name: String?, note: String?, eatenAt: Date, utcOffsetSeconds: Int,
        source: String, externalID: String
    ) throws(CinnError) -> FoodLogEntry {
        let quick = try QuickAdd.validated(
            name: name ?? "Carbs", energyKcal: nil, proteinGrams: nil, carbohydrateGrams: grams, fatGrams: nil)
        let local = LocalDateTime(instant: eatenAt, utcOffsetSeconds: utcOffsetSeconds)
        var entry = logging(
            quick, meal: Meal.usual(atSecondsOfDay: local.secondsOfDay), eatenAt: eatenAt, utcOffsetSeconds: utcOffsetSeconds,
            note: ([note].compactMap { $0 } + [carbohydrateEnergyNote]).joined(separator: "; "), id: .v7(at: eatenAt))
        entry.source = source
        entry.externalID = externalID
        return entry
    }

    /// The note of an entry whose energy was counted from its carbohydrate alone.
    public static let carbohydrateEnergyNote = "energy estimated from carbohydrate, 4 kcal a gram"

    /// Whether the entry is a quick add rather than a food, whoever made it (a person, an import, an uploader).
    public var isQuickAdd: Bool { foodID == nil && servingLabel == Self.quickAddServing }
}
