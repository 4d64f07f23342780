import Foundation

/// A unit of body mass the user can see and enter. Cinn stores kilograms.
public enum MassUnit: String, CaseIterable, Sendable, Codable {
    case kilograms = "kg"
    case pounds = "lb"
    case stones = "st"

    /// Exact by definition: 1 lb = 0.45359237 kg, 1 st = 14 lb.
    public var kilogramsPerUnit: Double {
        switch self {
        case .kilograms: 1
        case .pounds: 0.45359237
        case .stones: 6.35029318
        }
    }

    /// Parses the spellings people and files use: kg, kgs, kilogram(s), lb, lbs, pound(s), st, stone(s).
    public init?(spelling: String) {
        switch spelling.trimmingCharacters(in: .whitespaces).lowercased() {
        case "kg", "kgs", "kilo", "kilos", "kilogram", "kilograms": self = .kilograms
        case "lb", "lbs", "pound", "pounds": self = .pounds
        case "st", "stone", "stones": self = .stones
        default: return nil
        }
    }

    /// Parses a unit given by a person, with an error naming the field.
    public static func parse(_ text: String, field: String = "unit") throws -> MassUnit {
        guard let unit = MassUnit(spelling: text) else {
            throw CinnError.invalid(field, "unknown unit \"\(text)\"; use kg, lb or st")
        }
        return unit
    }

    /// Decimal places people expect for a body weight in this unit.
    public var displayDecimals: Int {
        switch self {
        case .kilograms, .pounds: 1
        case .stones: 2
        }
    }
}

/// A mass, stored in kilograms.
public struct Mass: Sendable, Hashable, Comparable, Codable {
    public var kilograms: Double

    public init(kilograms: Double) { self.kilograms = kilograms }

    public init(_ value: Double, _ unit: MassUnit) {
        self.kilograms = value * unit.kilogramsPerUnit
    }

    public func value(in unit: MassUnit) -> Double {
        kilograms / unit.kilogramsPerUnit
    }

    public static func < (lhs: Mass, rhs: Mass) -> Bool { lhs.kilograms < rhs.kilograms }

    /// The body weights Cinn keeps, in kg, wherever they come from (REST, forms, imports, sync).
    public static let bodyWeightRange: ClosedRange<Double> = 0.1...700
    /// Heaviest body weight Cinn accepts.
    public static let maximumBodyWeight = Mass(kilograms: bodyWeightRange.upperBound)

    /// A body weight entered by a person or read from a file, checked: finite, at least 0.1 kg and at most 700 kg.
    public static func bodyWeight(_ value: Double, _ unit: MassUnit, field: String = "weight") throws(CinnError) -> Mass {
        guard value.isFinite else { throw .invalid(field, "weight must be a number") }
        guard value > 0 else { throw .invalid(field, "weight must be above zero") }
        let mass = Mass(value, unit)
        guard mass.kilograms >= bodyWeightRange.lowerBound else { throw .invalid(field, "weight must be at least 0.1 kg") }
        guard mass <= maximumBodyWeight else {
            throw .invalid(field, "weight must be at most 700 kg")
        }
        return mass
    }

    /// The value in `unit`, rounded to the unit's usual decimals, with the unit: "72.4 kg".
    public func formatted(in unit: MassUnit, decimals: Int? = nil) -> String {
        "\(Self.format(value(in: unit), decimals: decimals ?? unit.displayDecimals)) \(unit.rawValue)"
    }

    /// Formats a number with at most `decimals` decimals, half away from zero, without trailing zeros or locale:
    /// "102.5", "100", "1.25".
    /// A number that is not finite, or beyond ±10^15, is "—": it cannot be a real amount (docs/SECURITY.md).
    public static func format(_ value: Double, upTo decimals: Int) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "—" }
        let scale = pow(10, Double(decimals))
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return "\(rounded)"
    }

    /// Formats a number with a fixed count of decimals, half away from zero, without locale.
    public static func format(_ value: Double, decimals: Int) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "—" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (abs(value) * scale).rounded(.toNearestOrAwayFromZero) / scale
        let negative = value < 0 && rounded != 0
        var whole = Int(rounded)
        var fraction = Int(((rounded - Double(whole)) * scale).rounded())
        if fraction >= Int(scale) {
            whole += 1
            fraction -= Int(scale)
        }
        var text = (negative ? "-" : "") + String(whole)
        if decimals > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return text
    }
}

/// A rate of change of body mass; negative is losing.
public struct MassRate: Sendable, Hashable, Codable {
    public var kilogramsPerWeek: Double

    public init(kilogramsPerWeek: Double) { self.kilogramsPerWeek = kilogramsPerWeek }

    public func perWeek(in unit: MassUnit) -> Double { kilogramsPerWeek / unit.kilogramsPerUnit }

    /// The energy balance this rate implies per day: 7700 kcal per kg of body weight.
    public var energyBalancePerDay: Energy {
        Energy(kilocalories: kilogramsPerWeek * Energy.kilocaloriesPerKilogramOfBodyWeight / 7)
    }
}

/// An amount of energy, stored in kilocalories.
/// A unit of food energy people see: kcal, or kJ (1 kcal = 4.184 kJ exactly).
public enum EnergyUnit: String, Sendable, Codable, CaseIterable {
    case kilocalories = "kcal"
    case kilojoules = "kJ"

    public static func parse(_ text: String, field: String = "energy_unit") throws -> EnergyUnit {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "kcal", "cal", "calories": return .kilocalories
        case "kj", "kilojoules": return .kilojoules
        default: throw CinnError.invalid(field, "unknown energy unit \"\(text)\"; use kcal or kJ")
        }
    }

    /// An amount of kcal in this unit.
    public func value(kilocalories: Double) -> Double {
        self == .kilojoules ? kilocalories * 4.184 : kilocalories
    }

    /// What is left of a target, as the difference of the two whole numbers shown beside it: "379 eaten of 1815"
    /// leaves 1436 (1815 − 378.5 rounded on its own would say 1437). Negative when over.
    public func remaining(targetKcal: Double, eatenKcal: Double) -> Int {
        (value(kilocalories: targetKcal).roundedInt ?? 0) - (value(kilocalories: eatenKcal).roundedInt ?? 0)
    }

    /// A whole number with the unit: "1850 kcal", "7740 kJ".
    public func format(kilocalories: Double) -> String {
        "\((value(kilocalories: kilocalories)).wholeText) \(rawValue)"
    }
}

public struct Energy: Sendable, Hashable, Codable {
    public var kilocalories: Double
    public init(kilocalories: Double) { self.kilocalories = kilocalories }

    /// Energy of one kilogram of body-weight change, used in every display unit.
    public static let kilocaloriesPerKilogramOfBodyWeight = 7700.0
}
