import Foundation

/// A meal in the study's sense: a common meal people log again and again, or a test meal of the protocol.
public enum MealKind: String, CaseIterable, Sendable, Codable {
    case common, test
}

/// A food in a meal definition, by weight.
public struct MealFood: Sendable, Hashable, Codable {
    public var foodID: UUID
    public var name: String
    public var grams: Double

    public init(foodID: UUID, name: String, grams: Double) {
        self.foodID = foodID
        self.name = name
        self.grams = grams
    }
}

/// A meal definition: its name, and its foods or a carbohydrate estimate (or both).
public struct MealDefinition: Sendable, Identifiable, Hashable {
    public var id: UUID
    public var name: String
    public var kind: MealKind
    public var carbohydrateGrams: Double?
    public var foods: [MealFood]
    public var note: String?
    /// The preset an everyday meal became (schema migration 16): it is logged into the food log as that preset, and its
    /// past events rank with the preset's meals.
    public var presetID: UUID?

    public init(
        id: UUID = .v7(), name: String, kind: MealKind = .common, carbohydrateGrams: Double? = nil,
        foods: [MealFood] = [], note: String? = nil, presetID: UUID? = nil
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.carbohydrateGrams = carbohydrateGrams
        self.foods = foods
        self.note = note
        self.presetID = presetID
    }

    /// A name of 1–80 characters and a carbohydrate estimate of 0–1000 g, when given.
    public static func validated(name: String, carbohydrateGrams: Double?) throws(CinnError) -> (name: String, carbohydrateGrams: Double?) {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...80).contains(name.count) else { throw .invalid("name", "a meal's name has 1 to 80 characters") }
        try ValidValues.plainText(name, field: "name", allowingLineBreaks: false)
        if let carbohydrateGrams, !(carbohydrateGrams.isFinite && (0...1000).contains(carbohydrateGrams)) {
            throw .invalid("carbohydrate_g", "a meal's carbohydrate is between 0 and 1000 g")
        }
        return (name, carbohydrateGrams)
    }
}

/// A meal eaten: which meal, when, how much of it.
public struct MealEvent: Sendable, Identifiable, Hashable {
    public var id: UUID
    public var mealID: UUID
    public var eatenAt: Date
    public var utcOffsetSeconds: Int
    /// How much of the meal: 1 is the whole meal as defined.
    public var portion: Double
    /// The carbohydrate eaten, when counted for this event (a pump's or app's carb entry); else the meal's estimate × portion.
    public var carbohydrateGrams: Double?
    public var note: String?
    /// Reported: flagged by the participant or the team (wrong meal, not finished, sick…), with the reason.
    public var reportReason: String?
    public var source: String
    public var externalID: String?
    public var importID: Int64?
    /// For a meal of the food diary (`DiaryMeals`): its slot and its entries; nil and empty for a logged meal event.
    public var diaryMeal: Meal?
    public var entryIDs: [UUID] = []

    public init(
        id: UUID = .v7(), mealID: UUID, eatenAt: Date, utcOffsetSeconds: Int, portion: Double = 1, carbohydrateGrams: Double? = nil,
        note: String? = nil, reportReason: String? = nil, source: String = "manual", externalID: String? = nil, importID: Int64? = nil
    ) {
        self.id = id
        self.mealID = mealID
        self.eatenAt = eatenAt
        self.utcOffsetSeconds = utcOffsetSeconds
        self.portion = portion
        self.carbohydrateGrams = carbohydrateGrams
        self.note = note
        self.reportReason = reportReason
        self.source = source
        self.externalID = externalID
        self.importID = importID
    }

    public var isReported: Bool { reportReason != nil }
    public var localDate: LocalDate { LocalDate(instant: eatenAt, utcOffsetSeconds: utcOffsetSeconds) }

    /// A portion from a tenth to ten times the meal.
    public static func validatedPortion(_ portion: Double) throws -> Double {
        guard portion.isFinite, (0.1...10).contains(portion) else {
            throw CinnError.invalid("portion", "a portion is between 0.1 and 10 times the meal")
        }
        return portion
    }
}
