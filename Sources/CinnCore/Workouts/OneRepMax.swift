import Foundation

/// A formula that estimates the heaviest single from a set of `reps` at a weight (docs/FORMATS.md §10.2).
public enum OneRepMaxFormula: String, Sendable, Codable, CaseIterable {
    /// w × 36 / (37 − r), exact: the origin document's choice and Cinn's default.
    case brzycki
    /// w × (1 + r / 30).
    case epley
    /// w × r^0.10.
    case lombardi
    /// 100 w / (52.2 + 41.9 e^(−0.055 r)).
    case mayhew
    /// w × (1 + 0.025 r).
    case oConner = "oconner"
    /// 100 w / (48.8 + 53.8 e^(−0.075 r)).
    case wathan
    /// 100 w / (101.3 − 2.67123 r).
    case lander

    public static let `default` = OneRepMaxFormula.brzycki

    public var title: String {
        switch self {
        case .brzycki: "Brzycki"
        case .epley: "Epley"
        case .lombardi: "Lombardi"
        case .mayhew: "Mayhew et al."
        case .oConner: "O'Conner et al."
        case .wathan: "Wathan"
        case .lander: "Lander"
        }
    }

    public static func parse(_ text: String, field: String = "formula") throws -> OneRepMaxFormula {
        let key = text.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "'", with: "")
        if let formula = OneRepMaxFormula(rawValue: key) ?? (key == "wathen" ? .wathan : key == "landers" ? .lander : nil) {
            return formula
        }
        throw CinnError.invalid(field, "unknown formula \"\(text)\"; use one of \(allCases.map(\.rawValue).joined(separator: ", "))")
    }

    /// The formula's value for `reps` at `weight`, without the rules of `OneRepMax.estimate`.
    public func value(weight: Double, reps: Int) -> Double {
        let w = weight, r = Double(reps)
        switch self {
        case .brzycki: return w * 36 / (37 - r)
        case .epley: return w * (1 + r / 30)
        case .lombardi: return w * pow(r, 0.10)
        case .mayhew: return 100 * w / (52.2 + 41.9 * exp(-0.055 * r))
        case .oConner: return w * (1 + 0.025 * r)
        case .wathan: return 100 * w / (48.8 + 53.8 * exp(-0.075 * r))
        case .lander: return 100 * w / (101.3 - 2.67123 * r)
        }
    }
}

/// An estimated one-rep max and how far to trust it.
public struct OneRepMax: Sendable, Hashable {
    public var estimate: Mass
    /// Sets above 10 reps: the formulas are fitted for 10 or fewer; left out by default.
    public var lowConfidence: Bool

    /// Reps above this make an estimate low-confidence.
    public static let confidentReps = 10
    /// From this many reps there is no estimate (Brzycki divides by zero at 37).
    public static let noEstimateReps = 37

    /// The estimate for a set, or nil: warm-ups, sets without reps or weight, and 37 reps or more
    /// have none. A single is its weight, whatever the formula.
    public static func estimate(
        weight: Mass, reps: Int, isWarmUp: Bool = false,
        formula: OneRepMaxFormula = .default
    ) -> OneRepMax? {
        guard !isWarmUp, reps >= 1, reps < noEstimateReps, weight.kilograms > 0, weight.kilograms.isFinite else { return nil }
        let kilograms = reps == 1 ? weight.kilograms : formula.value(weight: weight.kilograms, reps: reps)
        return OneRepMax(estimate: Mass(kilograms: kilograms), lowConfidence: reps > confidentReps)
    }

    /// As the origin document shows it: a whole number in `unit`, truncated ("112 kg" for 112.5). The value
    /// is first rounded to millionths, so 225 lb stored as kilograms and read back as 224.99999999997 shows 225.
    public func formatted(in unit: MassUnit) -> String {
        let value = (estimate.value(in: unit) * 1_000_000).rounded() / 1_000_000
        return "\(value.rounded(.towardZero).wholeText) \(unit.rawValue)"
    }
}
