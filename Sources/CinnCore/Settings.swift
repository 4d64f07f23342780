import Foundation

/// How the trend is smoothed.
public enum TrendMethod: String, Sendable, Codable, CaseIterable {
    /// T = T' + (W − T') / 10, unrounded.
    case exact
    /// The Hacker's Diet pencil-and-paper rule: the increment rounded to 0.1 in the display unit.
    case pencil
}

/// A person's choices that change what they see.
public struct UserSettings: Sendable, Hashable {
    public var displayUnit: MassUnit
    public var trendMethod: TrendMethod
    /// IANA identifier; nil means the process's time zone.
    public var timeZoneIdentifier: String?

    /// The day's calorie target in kcal, if the user set one.
    public var energyTargetKcal: Double?
    /// How energy is shown.
    public var energyUnit: EnergyUnit

    public init(displayUnit: MassUnit = .kilograms, trendMethod: TrendMethod = .exact, timeZoneIdentifier: String? = nil,
                energyTargetKcal: Double? = nil, energyUnit: EnergyUnit = .kilocalories) {
        self.displayUnit = displayUnit
        self.trendMethod = trendMethod
        self.timeZoneIdentifier = timeZoneIdentifier
        self.energyTargetKcal = energyTargetKcal
        self.energyUnit = energyUnit
    }

    /// Checks a daily calorie target: 500 to 10 000 kcal.
    public static func validEnergyTarget(_ kcal: Double, field: String = "energy_target_kcal") throws(CinnError) -> Double {
        guard kcal.isFinite, (500...10_000).contains(kcal) else {
            throw .invalid(field, "a daily calorie target must be between 500 and 10000 kcal")
        }
        return kcal
    }

    /// The time zone that decides local days for readings without an offset of their own.
    public var timeZone: TimeZone {
        timeZoneIdentifier.flatMap(TimeZone.init(identifier:)) ?? .current
    }

    /// Checks an IANA time zone name.
    public static func validTimeZone(_ identifier: String, field: String = "time_zone") throws(CinnError) -> String {
        guard TimeZone(identifier: identifier) != nil else {
            throw .invalid(field, "unknown time zone \"\(identifier)\"; use an IANA name such as Europe/Berlin")
        }
        return identifier
    }
}

/// Where the person wants their weight to go.
public struct Goal: Sendable, Hashable {
    public var weight: Mass
    /// The planned amount per week towards the goal (always positive), if any.
    public var plannedRate: Mass?
    /// The local day the goal was set; the maintenance band's hysteresis is tracked from then.
    public var setOn: LocalDate

    public init(weight: Mass, plannedRate: Mass? = nil, setOn: LocalDate) {
        self.weight = weight
        self.plannedRate = plannedRate
        self.setOn = setOn
    }

    /// A goal as a person enters it, checked; errors about the rate name `rateField`.
    public static func validated(weight: Double, unit: MassUnit, ratePerWeek: Double?, setOn: LocalDate,
                                 rateField: String = "rate") throws(CinnError) -> Goal {
        let mass = try Mass.bodyWeight(weight, unit, field: "weight")
        var rate: Mass?
        if let ratePerWeek {
            guard ratePerWeek.isFinite, ratePerWeek > 0 else {
                throw .invalid(rateField, "the planned rate is an amount per week towards the goal, above zero")
            }
            let planned = Mass(ratePerWeek, unit)
            guard planned.kilograms <= 2 else { throw .invalid(rateField, "a planned rate above 2 kg a week is not safe to plan for") }
            rate = planned
        }
        return Goal(weight: mass, plannedRate: rate, setOn: setOn)
    }
}
