import Foundation

/// The meal an entry belongs to: one of the four usual ones or a name of the user's.
public struct Meal: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let name: String

    public static let breakfast = Meal(trusted: "breakfast")
    public static let lunch = Meal(trusted: "lunch")
    public static let dinner = Meal(trusted: "dinner")
    public static let snacks = Meal(trusted: "snacks")
    public static let standard: [Meal] = [.breakfast, .lunch, .dinner, .snacks]

    private init(trusted name: String) { self.name = name }

    /// A meal name: the usual four in any case ("Breakfast", "snack" → snacks), or the user's own, up to 40 characters.
    public static func parse(_ text: String, field: String = "meal") throws(CinnError) -> Meal {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalid(field, "choose a meal: breakfast, lunch, dinner, snacks or a name of yours") }
        guard trimmed.count <= 40 else { throw .invalid(field, "a meal name must be at most 40 characters") }
        switch trimmed.lowercased() {
        case "breakfast": return .breakfast
        case "lunch": return .lunch
        case "dinner": return .dinner
        case "snack", "snacks": return .snacks
        default: return Meal(trusted: trimmed)
        }
    }

    /// The meal a time of day usually is: breakfast 04:00–11:00, lunch 11:00–15:00, dinner
    /// 17:00–21:00, else snacks (the afternoon, late evening and night). Seconds outside one day
    /// wrap around.
    public static func usual(atSecondsOfDay seconds: Double) -> Meal {
        let wrapped = seconds.truncatingRemainder(dividingBy: 86_400)
        switch (wrapped < 0 ? wrapped + 86_400 : wrapped) / 3600 {
        case 4..<11: return .breakfast
        case 11..<15: return .lunch
        case 17..<21: return .dinner
        default: return .snacks
        }
    }

    public var isStandard: Bool { Meal.standard.contains(self) }

    /// "Breakfast", or the user's name as typed.
    public var title: String { isStandard ? name.prefix(1).uppercased() + name.dropFirst() : name }

    public var description: String { name }

    /// The usual four in the order of a day, then the user's own by name, ignoring case.
    public static func < (lhs: Meal, rhs: Meal) -> Bool {
        let left = standard.firstIndex(of: lhs) ?? standard.count
        let right = standard.firstIndex(of: rhs) ?? standard.count
        if left != right { return left < right }
        let (lower, otherLower) = (lhs.name.lowercased(), rhs.name.lowercased())
        return lower != otherLower ? lower < otherLower : lhs.name < rhs.name
    }
}

/// One thing eaten: a number of servings of a food, at a time, in a meal, with a snapshot of
/// its nutrients taken when logged, so editing or deleting the food never changes past days.
public struct FoodLogEntry: Sendable, Hashable, Identifiable {
    public var id: UUID
    /// The food it was logged from, if it still exists; the entry does not depend on it.
    public var foodID: UUID?
    public var name: String
    public var brand: String?
    public var meal: Meal
    public var eatenAt: Date
    public var utcOffsetSeconds: Int
    /// How many servings.
    public var servings: Double
    /// The serving, as it was when logged ("1 medium (182 g)"); nil amount when the source gave no weight.
    public var servingLabel: String
    public var servingAmount: Double?
    /// Nutrients of the whole entry (all servings), snapshot at log time.
    public var nutrients: Nutrients
    public var note: String?
    public var source: String
    public var externalID: String?
    public var importID: Int64?

    public init(
        id: UUID = .v7(), foodID: UUID?, name: String, brand: String? = nil, meal: Meal, eatenAt: Date,
        utcOffsetSeconds: Int, servings: Double, servingLabel: String, servingAmount: Double?,
        nutrients: Nutrients, note: String? = nil, source: String = "manual", externalID: String? = nil,
        importID: Int64? = nil
    ) {
        self.id = id
        self.foodID = foodID
        self.name = name
        self.brand = brand
        self.meal = meal
        self.eatenAt = eatenAt
        self.utcOffsetSeconds = utcOffsetSeconds
        self.servings = servings
        self.servingLabel = servingLabel
        self.servingAmount = servingAmount
        self.nutrients = nutrients
        self.note = note
        self.source = source
        self.externalID = externalID
        self.importID = importID
    }

    /// An entry of `count` servings of `serving` of `food`, eaten at `eatenAt`.
    public static func logging(
        _ food: Food, servings count: Double, of serving: ServingSize, meal: Meal,
        eatenAt: Date, utcOffsetSeconds: Int, note: String? = nil,
        id: UUID = .v7()
    ) throws(CinnError) -> FoodLogEntry {
        let count = try validatedServings(count)
        return FoodLogEntry(
            id: id, foodID: food.id, name: food.name, brand: food.brand, meal: meal, eatenAt: eatenAt,
            utcOffsetSeconds: utcOffsetSeconds, servings: count,
            servingLabel: serving.description(basis: food.basis), servingAmount: serving.amount,
            nutrients: food.nutrients(servings: count, of: serving), note: note)
    }

    /// The servings an entry may count: from a thousandth to 10,000 (sync's rule too).
    public static let servingsRange = 0.001...10_000

    /// A servings count: finite, at least a thousandth, at most 10 000.
    public static func validatedServings(_ count: Double, field: String = "servings") throws(CinnError) -> Double {
        guard count.isFinite else { throw .invalid(field, "servings must be a number") }
        guard count >= servingsRange.lowerBound else { throw .invalid(field, "servings must be at least 0.001") }
        guard count <= servingsRange.upperBound else { throw .invalid(field, "servings must be at most 10000") }
        return count
    }

    /// The same entry with a new servings count; nutrients scale with it.
    public func withServings(_ count: Double) throws -> FoodLogEntry {
        let count = try Self.validatedServings(count)
        guard servings.isFinite, servings > 0 else {
            throw CinnError.invalid("servings", "this entry has no servings count to scale its nutrients from")
        }
        var entry = self
        entry.nutrients = nutrients.scaled(by: count / servings)
        entry.servings = count
        return entry
    }

    public var localDate: LocalDate { LocalDate(instant: eatenAt, utcOffsetSeconds: utcOffsetSeconds) }

    /// "08:05", the local time of day.
    public var localTimeOfDay: String { LocalDateTime(instant: eatenAt, utcOffsetSeconds: utcOffsetSeconds).clock }

    /// The entry's energy in kcal; 0 when unknown.
    public var energy: Double { nutrients.energy ?? 0 }
}
