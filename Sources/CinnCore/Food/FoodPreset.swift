import Foundation

/// A saved food or a saved meal of several foods, logged in one step.
public struct FoodPreset: Sendable, Hashable, Identifiable {
    /// One food of a preset, with its servings and a snapshot of its nutrients.
    public struct Item: Sendable, Hashable {
        public var foodID: UUID?
        public var name: String
        public var brand: String?
        public var servings: Double
        public var servingLabel: String
        public var servingAmount: Double?
        /// Nutrients of all `servings`.
        public var nutrients: Nutrients

        public init(
            foodID: UUID?, name: String, brand: String?, servings: Double, servingLabel: String,
            servingAmount: Double?, nutrients: Nutrients
        ) {
            self.foodID = foodID
            self.name = name
            self.brand = brand
            self.servings = servings
            self.servingLabel = servingLabel
            self.servingAmount = servingAmount
            self.nutrients = nutrients
        }

        /// The item an entry was logged as.
        public init(_ entry: FoodLogEntry) {
            self.init(
                foodID: entry.foodID, name: entry.name, brand: entry.brand, servings: entry.servings,
                servingLabel: entry.servingLabel, servingAmount: entry.servingAmount, nutrients: entry.nutrients)
        }
    }

    public var id: UUID
    public var name: String
    /// The meal it is usually logged into, if any.
    public var meal: Meal?
    public var items: [Item]

    public init(id: UUID = .v7(), name: String, meal: Meal? = nil, items: [Item]) {
        self.id = id
        self.name = name
        self.meal = meal
        self.items = items
    }

    /// Checked: a name and 1 to 100 items.
    public func validated() throws(CinnError) -> FoodPreset {
        var preset = self
        preset.name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !preset.name.isEmpty else { throw .invalid("name", "a preset needs a name") }
        guard preset.name.count <= 100 else { throw .invalid("name", "a preset name must be at most 100 characters") }
        try ValidValues.plainText(preset.name, field: "name", allowingLineBreaks: false)
        guard !items.isEmpty else { throw .invalid("items", "a preset needs at least one food") }
        guard items.count <= 100 else { throw .invalid("items", "a preset holds at most 100 foods") }
        for (index, item) in items.enumerated() {
            _ = try FoodLogEntry.validatedServings(item.servings, field: "items[\(index)].servings")
            if let grams = item.servingAmount, !(grams.isFinite && grams > 0 && grams <= 100_000) {
                throw .invalid("items[\(index)].serving.grams", "a serving must weigh more than 0 g and at most 100 kg")
            }
            guard !item.name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, item.name.count <= 200 else {
                throw .invalid("items[\(index)].name", "a food needs a name of at most 200 characters")
            }
            try ValidValues.plainText(item.name, field: "items[\(index)].name", allowingLineBreaks: false)
        }
        return preset
    }

    public var nutrients: Nutrients { items.reduce(into: Nutrients()) { $0 += $1.nutrients } }

    /// Entries for eating this preset `times` times (1 = as saved), into `meal`, at `eatenAt`.
    public func entries(times: Double = 1, meal: Meal, eatenAt: Date, utcOffsetSeconds: Int) throws(CinnError) -> [FoodLogEntry] {
        let times = try FoodLogEntry.validatedServings(times, field: "times")
        return try items.map { item throws(CinnError) in
            let servings = item.servings * times
            guard FoodLogEntry.servingsRange.contains(servings) else {
                throw .invalid("times", "\(item.name) would be \(servings) servings; an entry holds from 0.001 to 10000")
            }
            return FoodLogEntry(
                foodID: item.foodID, name: item.name, brand: item.brand, meal: meal, eatenAt: eatenAt,
                utcOffsetSeconds: utcOffsetSeconds, servings: servings, servingLabel: item.servingLabel,
                servingAmount: item.servingAmount, nutrients: item.nutrients.scaled(by: times))
        }
    }
}
