import Foundation

/// The equation resting energy came from.
public enum RestingEnergyEquation: String, Sendable, Codable {
    /// Mifflin, St Jeor et al., Am J Clin Nutr 1990;51:241–7: from weight, height, age and sex.
    case mifflinStJeor = "mifflin_st_jeor"
    /// Katch–McArdle: from lean body mass alone, used when a recent body-fat value exists.
    case katchMcArdle = "katch_mcardle"

    public var title: String {
        switch self {
        case .mifflinStJeor: "Mifflin–St Jeor"
        case .katchMcArdle: "Katch–McArdle"
        }
    }
}

/// Resting energy equations, in kcal per day.
public enum RestingEnergy {
    /// 10 × weight (kg) + 6.25 × height (cm) − 5 × age (years) + 5 for men, − 161 for women.
    public static func mifflinStJeorKcal(weight: Mass, height: Height, ageYears: Int, sex: Sex) -> Double {
        10 * weight.kilograms + 6.25 * height.centimetres - 5 * Double(ageYears) + (sex == .male ? 5 : -161)
    }

    /// 370 + 21.6 × lean body mass (kg), for both sexes.
    public static func katchMcArdleKcal(leanMass: Mass) -> Double {
        370 + 21.6 * leanMass.kilograms
    }
}

/// Expenditure from the equations: resting energy × the activity factor.
public struct FormulaExpenditure: Sendable, Hashable {
    public var equation: RestingEnergyEquation
    public var restingKcal: Double
    public var activity: ActivityLevel
    /// The body-fat fraction Katch–McArdle used, if it did.
    public var bodyFatFraction: Double?

    /// How long a body-fat value counts as recent for Katch–McArdle.
    public static let bodyFatRecentDays = 30
    /// One standard deviation of the equations' error, as a share of expenditure: Mifflin–St Jeor
    /// predicts within ±10 % for most non-obese adults (Frankenfield et al., J Am Diet Assoc 2005).
    public static let relativeUncertainty = 0.10

    public var expenditureKcal: Double { restingKcal * activity.factor }
    public var uncertaintyKcal: Double { expenditureKcal * Self.relativeUncertainty }

    /// - Parameters:
    ///   - weight: the current body weight (Cinn uses the trend, not the day's noisy reading).
    ///   - bodyFat: the latest body-fat value, if any; used when taken within 30 days of `date`.
    public init(profile: Profile, weight: Mass, bodyFat: BodyFatReading?, on date: LocalDate) {
        activity = profile.activity
        if let bodyFat, bodyFat.localDate <= date, bodyFat.localDate.distance(to: date) <= Self.bodyFatRecentDays {
            equation = .katchMcArdle
            bodyFatFraction = bodyFat.fraction
            restingKcal = RestingEnergy.katchMcArdleKcal(leanMass: Mass(kilograms: weight.kilograms * (1 - bodyFat.fraction)))
        } else {
            equation = .mifflinStJeor
            bodyFatFraction = nil
            restingKcal = RestingEnergy.mifflinStJeorKcal(
                weight: weight, height: profile.height,
                ageYears: profile.age(on: date), sex: profile.sex)
        }
    }
}

/// Which expenditure the daily calorie target follows.
public enum TargetBasis: String, Sendable, Codable, CaseIterable {
    /// The equations alone.
    case formula
    /// The best estimate: the adaptive estimate from intake and trend, blended with the equations.
    case adaptive

    public static func parse(_ text: String, field: String = "target_basis") throws -> TargetBasis {
        guard let basis = TargetBasis(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) else {
            throw CinnError.invalid(field, "unknown target basis \"\(text)\"; use formula or adaptive")
        }
        return basis
    }
}

/// The day's calorie target and how it was reached.
public struct EnergyTarget: Sendable, Hashable {
    public enum Source: String, Sendable, Codable {
        /// The user typed the target; it overrides everything.
        case manual
        /// Maintenance, plus or minus the planned rate, from the expenditure the user chose.
        case computed
    }

    public var kcal: Double
    public var source: Source
    /// Calories to maintain: the expenditure the target starts from (nil for a manual target without one).
    public var maintenanceKcal: Double?
    /// What the planned rate adds (surplus) or takes away (deficit) per day.
    public var adjustmentKcal: Double
    /// The lowest target the formula gives.
    public var floorKcal: Double
    /// True when the floor raised the target.
    public var floored: Bool

    /// The floor without the user's say: 1200 kcal for women, 1500 kcal for men.
    public static func defaultFloorKcal(_ sex: Sex) -> Double { sex == .female ? 1200 : 1500 }

    /// Checks a floor the user sets: 800 to 3000 kcal.
    public static func validFloor(_ kcal: Double, field: String = "energy_floor_kcal") throws -> Double {
        guard kcal.isFinite, (800...3000).contains(kcal) else {
            throw CinnError.invalid(field, "a calorie floor must be between 800 and 3000 kcal")
        }
        return kcal
    }

    /// The target, in order:
    /// 1. a manual target always wins;
    /// 2. without an expenditure there is none;
    /// 3. maintenance = `expenditureKcal`; without a goal, without a planned rate, without a trend,
    ///    or with the trend in the goal's maintenance band, the target is maintenance;
    /// 4. otherwise maintenance − planned rate × 7700 kcal/kg ÷ 7 when the goal is below the trend,
    ///    + when above;
    /// 5. never below the floor: the user's own (`floorKcal`) or 1200 kcal for women, 1500 kcal for men.
    public static func compute(
        manualKcal: Double?, expenditureKcal: Double?, sex: Sex, goal: Goal?,
        trend: Mass?, inMaintenanceBand: Bool, floorKcal: Double?
    ) -> EnergyTarget? {
        let floor = floorKcal ?? defaultFloorKcal(sex)
        if let manualKcal {
            return EnergyTarget(
                kcal: manualKcal, source: .manual, maintenanceKcal: expenditureKcal, adjustmentKcal: 0,
                floorKcal: floor, floored: false)
        }
        guard let maintenance = expenditureKcal else { return nil }
        var adjustment = 0.0
        if let goal, let rate = goal.plannedRate, let trend, !inMaintenanceBand, goal.weight != trend {
            let perDay = rate.kilograms * Energy.kilocaloriesPerKilogramOfBodyWeight / 7
            adjustment = goal.weight < trend ? -perDay : perDay
        }
        let raw = maintenance + adjustment
        return EnergyTarget(
            kcal: max(raw, floor), source: .computed, maintenanceKcal: maintenance, adjustmentKcal: adjustment,
            floorKcal: floor, floored: raw < floor)
    }
}
