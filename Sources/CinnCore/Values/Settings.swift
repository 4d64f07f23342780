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
    /// Sex, birth date, height and activity; nil until all four are given.
    public var profile: Profile?
    /// How heights are shown.
    public var lengthUnit: LengthUnit
    /// Which expenditure the computed target follows.
    public var targetBasis: TargetBasis
    /// The user's own calorie floor, replacing 1200/1500 kcal.
    public var energyFloorKcal: Double?
    /// True once the person finished or skipped the first-run onboarding.
    public var onboarded: Bool
    /// How one-rep maxes are estimated from sets.
    public var oneRepMaxFormula: OneRepMaxFormula
    /// How blood glucose is shown and entered.
    public var glucoseUnit: GlucoseUnit
    /// The bar and plates the person owns; nil for a gym's (`PlateSet.standard`) in the lifting unit.
    public var plateSet: PlateSet?
    /// Macro targets and nutrient bounds; empty means the Daily Values only.
    public var nutrientTargets = NutrientTargets()
    /// The person's rapid-acting insulin, as insulin on board counts it.
    public var insulinModel = ExponentialInsulinModel.rapidActingAdult

    public init(
        displayUnit: MassUnit = .kilograms, trendMethod: TrendMethod = .exact, timeZoneIdentifier: String? = nil,
        energyTargetKcal: Double? = nil, energyUnit: EnergyUnit = .kilocalories, profile: Profile? = nil,
        lengthUnit: LengthUnit = .centimetres, targetBasis: TargetBasis = .adaptive, energyFloorKcal: Double? = nil,
        onboarded: Bool = false, oneRepMaxFormula: OneRepMaxFormula = .default, glucoseUnit: GlucoseUnit = .milligramsPerDeciliter
    ) {
        self.displayUnit = displayUnit
        self.trendMethod = trendMethod
        self.timeZoneIdentifier = timeZoneIdentifier
        self.energyTargetKcal = energyTargetKcal
        self.energyUnit = energyUnit
        self.profile = profile
        self.lengthUnit = lengthUnit
        self.targetBasis = targetBasis
        self.energyFloorKcal = energyFloorKcal
        self.onboarded = onboarded
        self.oneRepMaxFormula = oneRepMaxFormula
        self.glucoseUnit = glucoseUnit
    }

    /// The bar and plates the plate calculator loads.
    public var plates: PlateSet { plateSet ?? .standard(displayUnit == .pounds ? .pounds : .kilograms) }

    /// Checks a daily calorie target: 500 to 10 000 kcal.
    public static func validEnergyTarget(_ kcal: Double, field: String = "energy_target_kcal") throws -> Double {
        guard kcal.isFinite, (500...10_000).contains(kcal) else {
            throw CinnError.invalid(field, "a daily calorie target must be between 500 and 10000 kcal")
        }
        return kcal
    }

    /// The time zone that decides local days for readings without an offset of their own.
    public var timeZone: TimeZone {
        timeZoneIdentifier.flatMap(TimeZone.init(identifier:)) ?? .current
    }

    /// Checks an IANA time zone name.
    public static func validTimeZone(_ identifier: String, field: String = "time_zone") throws -> String {
        guard TimeZone(identifier: identifier) != nil else {
            throw CinnError.invalid(field, "unknown time zone \"\(identifier)\"; use an IANA name such as Europe/Berlin")
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

    /// A goal as a person enters it, checked; errors name `weightField` and `rateField`.
    /// The planned rates Cinn keeps, in kg per week.
    public static let rateRange: ClosedRange<Double> = 0.01...2

    public static func validated(
        weight: Double, unit: MassUnit, ratePerWeek: Double?, setOn: LocalDate,
        weightField: String = "weight", rateField: String = "rate"
    ) throws -> Goal {
        let mass = try Mass.bodyWeight(weight, unit, field: weightField)
        var rate: Mass?
        if let ratePerWeek {
            guard ratePerWeek.isFinite, ratePerWeek > 0 else {
                throw CinnError.invalid(rateField, "the planned rate is an amount per week towards the goal, above zero")
            }
            let planned = Mass(ratePerWeek, unit)
            guard planned.kilograms >= Goal.rateRange.lowerBound else {
                throw CinnError.invalid(rateField, "the planned rate is at least 0.01 kg (10 g) a week")
            }
            guard planned.kilograms <= Goal.rateRange.upperBound else {
                throw CinnError.invalid(rateField, "a planned rate above 2 kg a week is not safe to plan for")
            }
            rate = planned
        }
        return Goal(weight: mass, plannedRate: rate, setOn: setOn)
    }
}
