import Foundation

/// How a person sets a macronutrient's daily target.
public enum MacroTarget: Sendable, Hashable {
    /// Grams a day.
    case grams(Double)
    /// A share of the day's calorie target, in percent (protein and carbohydrate 4 kcal a gram, fat 9).
    case percentOfEnergy(Double)
    /// Grams per kilogram of body weight (the trend), for protein.
    case gramsPerKilogram(Double)

    /// The grams it comes to; nil when what it needs (a calorie target, a weight) is missing.
    public func grams(of nutrient: Nutrient, energyTargetKcal: Double?, bodyWeight: Mass?) -> Double? {
        switch self {
        case .grams(let grams): grams
        case .percentOfEnergy(let percent):
            energyTargetKcal.map { $0 * percent / 100 / NutrientTargets.kilocaloriesPerGram(nutrient) }
        case .gramsPerKilogram(let perKilogram): bodyWeight.map { $0.kilograms * perKilogram }
        }
    }

    /// "150 g", "30 % of energy", "1.8 g/kg".
    public var description: String {
        switch self {
        case .grams(let grams): "\(JSONText.compactNumber(grams)) g"
        case .percentOfEnergy(let percent): "\(JSONText.compactNumber(percent)) % of energy"
        case .gramsPerKilogram(let perKilogram): "\(JSONText.compactNumber(perKilogram)) g/kg"
        }
    }
}

/// A lower and an upper bound on a nutrient's daily amount, in the nutrient's unit; either may be absent.
public struct NutrientLimit: Sendable, Hashable {
    public var minimum: Double?
    public var maximum: Double?

    public init(minimum: Double? = nil, maximum: Double? = nil) {
        self.minimum = minimum
        self.maximum = maximum
    }
}

/// A person's daily nutrition targets: the three macronutrients, and per-nutrient minimums and maximums over the
/// defaults (the FDA Daily Values: a minimum for what to get enough of, a maximum for what to limit).
public struct NutrientTargets: Sendable, Hashable {
    public var protein: MacroTarget?
    public var carbohydrate: MacroTarget?
    public var fat: MacroTarget?
    /// The user's own bounds by nutrient key; a nutrient here replaces its default.
    public var limits: [String: NutrientLimit]

    public init(
        protein: MacroTarget? = nil, carbohydrate: MacroTarget? = nil, fat: MacroTarget? = nil,
        limits: [String: NutrientLimit] = [:]
    ) {
        self.protein = protein
        self.carbohydrate = carbohydrate
        self.fat = fat
        self.limits = limits
    }

    /// kcal in a gram: 4 for protein and carbohydrate, 9 for fat (Atwater).
    public static func kilocaloriesPerGram(_ nutrient: Nutrient) -> Double { nutrient == .fat ? 9 : 4 }

    /// A macro target counts as met within 10 % of it either way.
    public static let macroTolerance = 0.1

    /// The nutrients a day's summary shows besides the person's own goals (the day view's bars, `cinn targets`).
    public static let shownByDefault: Set<String> = ["fiber", "sodium"]

    /// The nutrients the FDA asks people to limit: their Daily Value is a maximum (21 CFR 101.9(c)).
    public static let limitedByDefault: Set<String> = ["saturated_fat", "cholesterol", "sodium", "added_sugars"]

    /// The default bound of a nutrient: its Daily Value, as a maximum for the four to limit and a minimum for the rest.
    /// Energy and the three macronutrients have none (their targets are the calorie target and the macro targets).
    public static func defaultLimit(_ nutrient: Nutrient) -> NutrientLimit? {
        guard !Nutrient.macros.contains(nutrient), let value = nutrient.dailyValue else { return nil }
        return limitedByDefault.contains(nutrient.key) ? NutrientLimit(maximum: value) : NutrientLimit(minimum: value)
    }

    /// Every goal of a day, in catalogue order: the macros the person set (as grams, with the tolerance), then every
    /// nutrient with a bound of theirs or a default one.
    public func goals(energyTargetKcal: Double?, bodyWeight: Mass?) -> [NutrientGoal] {
        var goals: [NutrientGoal] = []
        for (nutrient, target) in [(Nutrient.protein, protein), (.carbohydrate, carbohydrate), (.fat, fat)] {
            guard let target, let grams = target.grams(of: nutrient, energyTargetKcal: energyTargetKcal, bodyWeight: bodyWeight) else {
                continue
            }
            goals.append(
                NutrientGoal(
                    nutrient: nutrient, target: grams, minimum: grams * (1 - Self.macroTolerance),
                    maximum: grams * (1 + Self.macroTolerance), source: .mine, macro: target))
        }
        for nutrient in Nutrient.all where !Nutrient.macros.contains(nutrient) {
            if let mine = limits[nutrient.key] {
                guard mine.minimum != nil || mine.maximum != nil else { continue }
                goals.append(
                    NutrientGoal(
                        nutrient: nutrient, target: mine.minimum ?? mine.maximum ?? 0, minimum: mine.minimum,
                        maximum: mine.maximum, source: .mine, macro: nil))
            } else if let limit = Self.defaultLimit(nutrient) {
                goals.append(
                    NutrientGoal(
                        nutrient: nutrient, target: limit.minimum ?? limit.maximum ?? 0, minimum: limit.minimum,
                        maximum: limit.maximum, source: .dailyValue, macro: nil))
            }
        }
        return goals
    }

    /// Checks what a person gave; errors name the field (`protein`, `nutrients.sodium.max`).
    public func validated() throws(CinnError) -> NutrientTargets {
        for (nutrient, target) in [(Nutrient.protein, protein), (.carbohydrate, carbohydrate), (.fat, fat)] {
            guard let target else { continue }
            let field = nutrient.key
            switch target {
            case .grams(let grams):
                guard grams.isFinite, grams > 0, grams <= 1000 else {
                    throw .invalid(field, "\(nutrient.name) must be more than 0 and at most 1000 g a day")
                }
            case .percentOfEnergy(let percent):
                guard percent.isFinite, percent > 0, percent <= 100 else {
                    throw .invalid(field, "\(nutrient.name) must be more than 0 and at most 100 % of energy")
                }
            case .gramsPerKilogram(let perKilogram):
                guard nutrient == .protein else { throw .invalid(field, "only protein is set per kilogram of body weight") }
                guard perKilogram.isFinite, perKilogram > 0, perKilogram <= 5 else {
                    throw .invalid(field, "protein must be more than 0 and at most 5 g/kg")
                }
            }
        }
        let percent = [protein, carbohydrate, fat].reduce(0.0) { sum, target in
            if case .percentOfEnergy(let value)? = target { sum + value } else { sum }
        }
        guard percent <= 100.5 else {
            throw .invalid("fat", "protein, carbohydrate and fat add up to \(JSONText.compactNumber(percent)) % of energy, more than 100 %")
        }
        for (key, limit) in limits {
            guard let nutrient = Nutrient.named(key), !Nutrient.macros.contains(nutrient) else {
                throw .invalid("nutrients.\(key)", "no nutrient \"\(key)\" takes a minimum or maximum; see GET /api/v1/nutrients")
            }
            for (bound, value) in [("min", limit.minimum), ("max", limit.maximum)] {
                guard let value else { continue }
                guard value.isFinite, value >= 0, value <= Nutrients.maximumAmount else {
                    throw .invalid(
                        "nutrients.\(key).\(bound)", "\(nutrient.name)'s \(bound == "min" ? "minimum" : "maximum") must be 0 or more")
                }
            }
            if let minimum = limit.minimum, let maximum = limit.maximum, minimum > maximum {
                throw .invalid("nutrients.\(key).max", "\(nutrient.name)'s maximum is below its minimum")
            }
        }
        return self
    }
}

/// One goal of a day: a macro target, a bound of the user's, or a Daily Value.
public struct NutrientGoal: Sendable, Hashable {
    public enum Source: String, Sendable {
        /// Set by the person.
        case mine
        /// The FDA Daily Value, by default.
        case dailyValue = "daily_value"
    }

    /// How a day's amount stands against the goal.
    public enum Standing: String, Sendable {
        case under, met, over
    }

    public var nutrient: Nutrient
    /// Whether a day's summary shows it: the person's own, or one of `NutrientTargets.shownByDefault`.
    public var isShownByDefault: Bool { source == .mine || NutrientTargets.shownByDefault.contains(nutrient.key) }

    /// What the bar fills towards: the macro's grams, else the minimum, else the maximum.
    public var target: Double
    public var minimum: Double?
    public var maximum: Double?
    public var source: Source
    /// The macro target it came from, for a macronutrient.
    public var macro: MacroTarget?

    public func standing(_ amount: Double) -> Standing {
        if let minimum, amount < minimum { return .under }
        if let maximum, amount > maximum { return .over }
        return .met
    }

    /// How full the bar is: the amount over the target, 0 to 1 (and beyond when over).
    public func fraction(_ amount: Double) -> Double { target > 0 ? amount / target : 0 }
}

/// How often a goal was met over a span: the days that met it of the days logged.
public struct GoalRecord: Sendable, Hashable {
    public var goal: NutrientGoal
    public var daysMet: Int
    public var daysLogged: Int

    /// Each goal's record over `days` (each logged day's totals); an amount nothing logged says counts as 0.
    public static func records(_ goals: [NutrientGoal], days: [(date: LocalDate, totals: Nutrients)]) -> [GoalRecord] {
        records(goals, days: days) { _ in goals }
    }

    /// The records of `goals` (today's, which name the lines) with each day judged by its own goal for the nutrient,
    /// `goalsOn(day)`: a share of energy or grams per kg comes to other grams on a day with another calorie target or
    /// trend. A day without that goal (no calorie target yet) did not meet it.
    public static func records(
        _ goals: [NutrientGoal], days: [(date: LocalDate, totals: Nutrients)],
        goalsOn: (LocalDate) -> [NutrientGoal]
    ) -> [GoalRecord] {
        var met = [Int](repeating: 0, count: goals.count)
        for day in days {
            let own = goalsOn(day.date)
            for (index, goal) in goals.enumerated() {
                guard let mine = own.first(where: { $0.nutrient == goal.nutrient }) else { continue }
                if mine.standing(day.totals[goal.nutrient] ?? 0) == .met { met[index] += 1 }
            }
        }
        return goals.enumerated().map { index, goal in GoalRecord(goal: goal, daysMet: met[index], daysLogged: days.count) }
    }
}

// MARK: - Storage text

extension NutrientTargets {
    /// The JSON the store keeps and the API speaks:
    /// `{"protein":{"grams":150},"carbohydrate":{"percent":40},"fat":{"percent":30},"nutrients":{"sodium":{"max":2000}}}`.
    public var storageText: String {
        var members: [String] = []
        for (key, target) in [("protein", protein), ("carbohydrate", carbohydrate), ("fat", fat)] {
            guard let target else { continue }
            let (name, value): (String, Double) =
                switch target {
                case .grams(let grams): ("grams", grams)
                case .percentOfEnergy(let percent): ("percent", percent)
                case .gramsPerKilogram(let perKilogram): ("per_kg", perKilogram)
                }
            members.append("\"\(key)\":{\"\(name)\":\(JSONText.compactNumber(value))}")
        }
        let limits = self.limits.sorted { $0.key < $1.key }.map { key, limit in
            let bounds = [("min", limit.minimum), ("max", limit.maximum)].compactMap { name, value in
                value.map { "\"\(name)\":\(JSONText.compactNumber($0))" }
            }
            return "\(JSONText.quoted(key)):{\(bounds.joined(separator: ","))}"
        }
        if !limits.isEmpty { members.append("\"nutrients\":{\(limits.joined(separator: ","))}") }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// Reads `storageText` (or the API's body of the same shape), unchecked; the error names the field.
    public init(json value: JSONValue) throws(CinnError) {
        guard case .object(let members) = value else { throw .invalid("targets", "targets must be a JSON object") }
        self.init()
        for (key, member) in members {
            switch key {
            case "protein", "carbohydrate", "fat":
                let target = try Self.macro(member, field: key)
                switch key {
                case "protein": protein = target
                case "carbohydrate": carbohydrate = target
                default: fat = target
                }
            case "nutrients":
                guard case .object(let nutrients) = member else {
                    throw .invalid("nutrients", "nutrients must be an object of {\"min\", \"max\"}")
                }
                for (nutrient, bounds) in nutrients {
                    guard case .object(let values) = bounds else {
                        throw .invalid("nutrients.\(nutrient)", "give {\"min\": …, \"max\": …}")
                    }
                    var limit = NutrientLimit()
                    for (bound, number) in values {
                        guard bound == "min" || bound == "max" else { throw .invalid("nutrients.\(nutrient).\(bound)", "use min or max") }
                        if case .null = number { continue }
                        guard let amount = number.number else { throw .invalid("nutrients.\(nutrient).\(bound)", "must be a number") }
                        if bound == "min" { limit.minimum = amount } else { limit.maximum = amount }
                    }
                    limits[nutrient] = limit
                }
            default:
                throw .invalid(key, "unknown target \"\(key)\"; use protein, carbohydrate, fat or nutrients")
            }
        }
    }

    private static func macro(_ value: JSONValue, field: String) throws(CinnError) -> MacroTarget? {
        if case .null = value { return nil }
        guard case .object(let members) = value, members.count == 1, let (kind, number) = members.first else {
            throw .invalid(field, "give one of {\"grams\": …}, {\"percent\": …} or {\"per_kg\": …}")
        }
        guard let amount = number.number else { throw .invalid(field, "\(field).\(kind) must be a number") }
        switch kind {
        case "grams": return .grams(amount)
        case "percent": return .percentOfEnergy(amount)
        case "per_kg": return .gramsPerKilogram(amount)
        default: throw .invalid(field, "unknown kind \"\(kind)\"; use grams, percent or per_kg")
        }
    }

    /// Reads `storageText`; nil when it is damaged.
    public init?(storageText text: String) {
        guard let value = try? JSONParser.parse(text.utf8), let targets = try? NutrientTargets(json: value) else { return nil }
        self = targets
    }
}
