/// Readings a person types that are valid but look like slips of the finger: 8.03 kg for 80.3, a mmol/L value in a
/// mg/dL field. One reading entered by a person (a form, the REST API, the CLI) that looks like one is saved only once
/// they confirm it; imports, sync pushes and automatic uploads are never questioned. This is not validation: a
/// confirmed reading is saved as it is.
public enum TypoGuard {
    /// How far from the trend (as a fraction of it) a weigh-in may be before it is questioned.
    public static let trendTolerance = 0.10
    /// A trend older than this many days before the reading says little about it: the plausible range decides.
    public static let trendDays = 60
    /// Without a recent trend, adult body weights outside this range are questioned.
    public static let plausibleKilograms: ClosedRange<Double> = 30...250
    /// mg/dL values at or below this are in mmol/L's range (meters read down to about 20 mg/dL, 1.1 mmol/L).
    public static let lowestLikelyMilligrams = 30.0
    /// mmol/L values at or above this are in mg/dL's range (meters read up to about 600 mg/dL, 33.3 mmol/L).
    public static let highestLikelyMillimoles = 35.0

    /// Why a weigh-in of `weight` on `day` needs confirming, or nil. `trend`: the last trend point on or before `day`.
    public static func weighIn(_ weight: Mass, on day: LocalDate, trend: TrendPoint?, unit: MassUnit) -> CinnError? {
        if let trend, trend.date <= day, trend.date.distance(to: day) <= trendDays {
            let reference = trend.trend.kilograms
            let off = abs(weight.kilograms - reference) / reference
            guard off > trendTolerance else { return nil }
            let percent = Int((off * 100).rounded())
            return CinnError(
                .needsConfirmation,
                "\(typed(weight, unit)) is \(percent) % away from your trend, "
                    + "\(trend.trend.formatted(in: unit)): is that right?", field: "weight")
        }
        guard !plausibleKilograms.contains(weight.kilograms) else { return nil }
        return CinnError(
            .needsConfirmation, "\(typed(weight, unit)) is not a usual adult body weight: is that right?",
            field: "weight")
    }

    /// The weight as it was likely typed, with the one decimal more a scale may show: "8.03 kg", "80.3 kg", not "8.0 kg".
    static func typed(_ weight: Mass, _ unit: MassUnit) -> String {
        var text = Mass.format(weight.value(in: unit), decimals: unit.displayDecimals + 1)
        if text.hasSuffix("0") { text.removeLast() }
        return "\(text) \(unit.rawValue)"
    }

    /// Why a glucose value of `value` in `unit` needs confirming (it looks like the other unit), or nil.
    /// Values no unit makes a reading (negative, zero, over 1000) are left to validation, which names the field.
    public static func glucose(_ value: Double, _ unit: GlucoseUnit, field: String = "value") -> CinnError? {
        guard value.isFinite, value > 0, value <= 1000 else { return nil }
        let other: GlucoseUnit
        switch unit {
        case .milligramsPerDeciliter where value <= lowestLikelyMilligrams: other = .millimolesPerLiter
        case .millimolesPerLiter where value >= highestLikelyMillimoles: other = .milligramsPerDeciliter
        default: return nil
        }
        let typed = "\(Mass.format(value, decimals: value == value.rounded() ? 0 : 1)) \(unit.rawValue)"
        let meant = Glucose(value, other)
        return CinnError(
            .needsConfirmation,
            "\(typed) looks like \(other.rawValue): did you mean \(meant.formatted(other)) = "
                + "\(meant.formatted(unit))?", field: field)
    }
}
