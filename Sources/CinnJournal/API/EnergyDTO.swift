import CinnCore
import Foundation

/// `GET /api/v1/profile`: the profile, units and target choices.
package struct ProfileDTO: Encodable {
    @Nullable var sex: String?
    @Nullable var birthDate: String?
    @Nullable var heightCm: Double?
    @Nullable var height: String?
    @Nullable var activity: String?
    @Nullable var activityFactor: Double?
    let complete: Bool
    let onboarded: Bool
    let massUnit: String
    let lengthUnit: String
    let energyUnit: String
    let timeZone: String
    @Nullable var goalWeight: Double?
    @Nullable var goalRatePerWeek: Double?
    let targetBasis: String
    @Nullable var energyFloorKcal: Double?
    @Nullable var energyTargetKcal: Double?

    enum CodingKeys: String, CodingKey {
        case sex, height, activity, complete, onboarded
        case birthDate = "birth_date"
        case heightCm = "height_cm"
        case activityFactor = "activity_factor"
        case massUnit = "mass_unit"
        case lengthUnit = "length_unit"
        case energyUnit = "energy_unit"
        case timeZone = "time_zone"
        case goalWeight = "goal_weight"
        case goalRatePerWeek = "goal_rate_per_week"
        case targetBasis = "target_basis"
        case energyFloorKcal = "energy_floor_kcal"
        case energyTargetKcal = "energy_target_kcal"
    }

    package init(_ settings: UserSettings, goal: Goal?) {
        let profile = settings.profile
        sex = profile?.sex.rawValue
        birthDate = profile?.birthDate.iso
        heightCm = profile?.height.centimetres
        height = profile?.height.formatted(in: settings.lengthUnit)
        activity = profile?.activity.rawValue
        activityFactor = profile?.activity.factor
        complete = profile != nil
        onboarded = settings.onboarded
        massUnit = settings.displayUnit.rawValue
        lengthUnit = settings.lengthUnit.rawValue
        energyUnit = settings.energyUnit.rawValue
        timeZone = settings.timeZoneIdentifier ?? settings.timeZone.identifier
        goalWeight = goal.map { $0.weight.value(in: settings.displayUnit) }
        goalRatePerWeek = goal?.plannedRate.map { $0.value(in: settings.displayUnit) }
        targetBasis = settings.targetBasis.rawValue
        energyFloorKcal = settings.energyFloorKcal
        energyTargetKcal = settings.energyTargetKcal
    }
}

/// `PUT /api/v1/profile`: absent fields stay as they are; `null` clears the floor or the manual target.
package struct ProfileRequest: Decodable {
    package let update: ProfileUpdate

    enum CodingKeys: String, CodingKey {
        case sex, height, activity, onboarded
        case birthDate = "birth_date"
        case heightCm = "height_cm"
        case massUnit = "mass_unit"
        case lengthUnit = "length_unit"
        case energyUnit = "energy_unit"
        case timeZone = "time_zone"
        case goalWeight = "goal_weight"
        case goalRatePerWeek = "goal_rate_per_week"
        case targetBasis = "target_basis"
        case energyFloorKcal = "energy_floor_kcal"
        case energyTargetKcal = "energy_target_kcal"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func clearable(_ key: CodingKeys) throws -> Double?? {
            container.contains(key) ? .some(try container.decodeIfPresent(LenientNumber.self, forKey: key)?.value) : nil
        }
        let heightCm = try container.decodeIfPresent(LenientNumber.self, forKey: .heightCm)
        if heightCm != nil && container.contains(.height) {
            throw CinnError.invalid("height", "give height or height_cm, not both")
        }
        update = ProfileUpdate(
            sex: try container.decodeIfPresent(String.self, forKey: .sex),
            birthDate: try container.decodeIfPresent(String.self, forKey: .birthDate),
            height: try heightCm.map { "\($0.value) cm" } ?? container.decodeIfPresent(String.self, forKey: .height),
            activity: try container.decodeIfPresent(String.self, forKey: .activity),
            lengthUnit: try container.decodeIfPresent(String.self, forKey: .lengthUnit),
            massUnit: try container.decodeIfPresent(String.self, forKey: .massUnit),
            energyUnit: try container.decodeIfPresent(String.self, forKey: .energyUnit),
            timeZone: try container.decodeIfPresent(String.self, forKey: .timeZone),
            goalWeight: try container.decodeIfPresent(LenientNumber.self, forKey: .goalWeight)?.value,
            goalRatePerWeek: try container.decodeIfPresent(LenientNumber.self, forKey: .goalRatePerWeek)?.value,
            targetBasis: try container.decodeIfPresent(String.self, forKey: .targetBasis),
            energyFloorKcal: try clearable(.energyFloorKcal),
            energyTargetKcal: try clearable(.energyTargetKcal),
            onboarded: try container.decodeIfPresent(Bool.self, forKey: .onboarded))
    }
}

/// A date range from an uncertain rate.
struct ETADTO: Encodable {
    @Nullable var date: String?
    @Nullable var earliest: String?
    @Nullable var latest: String?
    let ratePerWeek: Double
    let rateUncertaintyPerWeek: Double

    init(_ eta: GoalETA, unit: MassUnit) {
        date = eta.date?.iso
        earliest = eta.earliest?.iso
        latest = eta.latest?.iso
        ratePerWeek = eta.speedTowards.perWeek(in: unit)
        rateUncertaintyPerWeek = eta.speedUncertainty.perWeek(in: unit)
    }

    enum CodingKeys: String, CodingKey {
        case date, earliest, latest
        case ratePerWeek = "rate_towards_goal_per_week"
        case rateUncertaintyPerWeek = "rate_sd_per_week"
    }
}

/// The week summary.
struct CheckInDTO: Encodable {
    let start: String
    let end: String
    let daysLogged: Int
    let completeDays: Int
    @Nullable var meanIntakeKcal: Double?
    @Nullable var trendChange: Double?
    @Nullable var expenditureKcal: Double?
    @Nullable var targetKcal: Double?
    @Nullable var daysOnTarget: Int?

    enum CodingKeys: String, CodingKey {
        case start, end
        case daysLogged = "days_logged"
        case completeDays = "complete_days"
        case meanIntakeKcal = "mean_intake_kcal"
        case trendChange = "trend_change"
        case expenditureKcal = "expenditure_kcal"
        case targetKcal = "target_kcal"
        case daysOnTarget = "days_on_target"
    }

    init(_ week: WeeklyCheckIn, unit: MassUnit) {
        start = week.start.iso
        end = week.end.iso
        daysLogged = week.daysLogged
        completeDays = week.completeDays
        meanIntakeKcal = week.meanIntakeKcal
        trendChange = week.trendChange?.value(in: unit)
        expenditureKcal = week.expenditureKcal
        targetKcal = week.targetKcal
        daysOnTarget = week.daysOnTarget
    }
}

/// The daily answer.
package struct TodayDTO: Encodable {
    let date: String
    let answer: String
    let message: String
    @Nullable var remainingKcal: Int?
    let eatenKcal: Double
    @Nullable var targetKcal: Double?
    @Nullable var maintenanceKcal: Double?
    @Nullable var dayStatus: String?
    let trendVerdict: String
    let trendReason: String

    enum CodingKeys: String, CodingKey {
        case date, answer, message
        case remainingKcal = "remaining_kcal"
        case eatenKcal = "eaten_kcal"
        case targetKcal = "target_kcal"
        case maintenanceKcal = "maintenance_kcal"
        case dayStatus = "day_status"
        case trendVerdict = "trend_verdict"
        case trendReason = "trend_reason"
    }

    package init(_ report: EnergyReport) {
        date = report.asOf.iso
        answer = report.answer.answer.rawValue
        message = report.answer.message
        remainingKcal = report.answer.remainingKcal
        eatenKcal = report.eatenKcal
        targetKcal = report.targetKcal
        maintenanceKcal = report.maintenanceKcal
        dayStatus = report.dayStatus?.rawValue
        trendVerdict = report.verdict.answer.rawValue
        trendReason = report.verdict.reason
    }
}

/// `GET /api/v1/energy`.
package struct EnergyDTO: Encodable {
    struct Formula: Encodable {
        let equation: String
        let restingKcal: Double
        let activityFactor: Double
        let expenditureKcal: Double
        @Nullable var bodyFatPercent: Double?

        enum CodingKeys: String, CodingKey {
            case equation
            case restingKcal = "resting_kcal"
            case activityFactor = "activity_factor"
            case expenditureKcal = "expenditure_kcal"
            case bodyFatPercent = "body_fat_percent"
        }
    }

    struct Adaptive: Encodable {
        let asOf: String
        let held: Bool
        let windowDays: Int
        let completeDays: Int
        let meanIntakeKcal: Double
        let trendChange: Double
        let expenditureKcal: Double
        let sdKcal: Double
        let low: Double
        let high: Double

        enum CodingKeys: String, CodingKey {
            case held
            case low = "range_low_kcal"
            case high = "range_high_kcal"
            case asOf = "as_of"
            case windowDays = "window_days"
            case completeDays = "complete_days"
            case meanIntakeKcal = "mean_intake_kcal"
            case trendChange = "trend_change"
            case expenditureKcal = "expenditure_kcal"
            case sdKcal = "sd_kcal"
        }
    }

    struct Target: Encodable {
        let kcal: Double
        let source: String
        let basis: String
        @Nullable var maintenanceKcal: Double?
        @Nullable var maintenanceSource: String?
        @Nullable var maintenanceAsOf: String?
        let adjustmentKcal: Double
        let floorKcal: Double
        let floored: Bool
        @Nullable var change: TargetChangeDTO?

        enum CodingKeys: String, CodingKey {
            case kcal, source, basis, floored, change
            case maintenanceKcal = "maintenance_kcal"
            case adjustmentKcal = "adjustment_kcal"
            case floorKcal = "floor_kcal"
            case maintenanceSource = "maintenance_source"
            case maintenanceAsOf = "maintenance_as_of"
        }

        init(_ report: EnergyReport, _ target: EnergyTarget) {
            kcal = target.kcal
            source = target.source.rawValue
            basis = report.settings.targetBasis.rawValue
            maintenanceKcal = target.maintenanceKcal
            maintenanceSource = target.source == .computed ? report.targetExpenditure?.source.rawValue : nil
            maintenanceAsOf = target.source == .computed ? report.targetExpenditure?.asOf.iso : nil
            adjustmentKcal = target.adjustmentKcal
            floorKcal = target.floorKcal
            floored = target.floored
            change = report.targetChange.map { TargetChangeDTO($0, unit: report.settings.energyUnit) }
        }
    }

    struct Day: Encodable {
        let date: String
        @Nullable var intakeKcal: Double?
        @Nullable var status: String?
        @Nullable var formulaKcal: Double?
        @Nullable var adaptiveKcal: Double?
        @Nullable var trend: Double?

        enum CodingKeys: String, CodingKey {
            case date, status, trend
            case intakeKcal = "intake_kcal"
            case formulaKcal = "formula_kcal"
            case adaptiveKcal = "adaptive_kcal"
        }
    }

    let date: String
    let massUnit: String
    @Nullable var trend: Double?
    @Nullable var formula: Formula?
    @Nullable var adaptive: Adaptive?
    @Nullable var adaptiveStatus: String?
    @Nullable var blendedKcal: Double?
    @Nullable var blendedSdKcal: Double?
    let adaptiveWeight: Double
    @Nullable var maintenanceKcal: Double?
    @Nullable var target: Target?
    let today: TodayDTO
    @Nullable var timeToGoalPlanned: ETADTO?
    @Nullable var timeToGoalTrend: ETADTO?
    let goalReached: Bool
    let thisWeek: CheckInDTO
    let lastWeek: CheckInDTO
    let days: [Day]

    enum CodingKeys: String, CodingKey {
        case date, trend, formula, adaptive, target, today, days
        case massUnit = "mass_unit"
        case adaptiveStatus = "adaptive_status"
        case blendedKcal = "blended_kcal"
        case blendedSdKcal = "blended_sd_kcal"
        case adaptiveWeight = "adaptive_weight"
        case maintenanceKcal = "maintenance_kcal"
        case timeToGoalPlanned = "time_to_goal_planned"
        case timeToGoalTrend = "time_to_goal_trend"
        case goalReached = "goal_reached"
        case thisWeek = "this_week"
        case lastWeek = "last_week"
    }

    package init(_ report: EnergyReport) {
        let unit = report.settings.displayUnit
        date = report.asOf.iso
        massUnit = unit.rawValue
        trend = report.trend?.value(in: unit)
        let estimate = report.expenditure
        formula =
            estimate.formula.map {
                Formula(
                    equation: $0.equation.rawValue, restingKcal: $0.restingKcal, activityFactor: $0.activity.factor,
                    expenditureKcal: $0.expenditureKcal, bodyFatPercent: $0.bodyFatFraction.map { $0 * 100 })
            }
        adaptive =
            estimate.adaptive.map {
                Adaptive(
                    asOf: $0.asOf.iso, held: estimate.isHeld, windowDays: $0.windowDays, completeDays: $0.completeDays,
                    meanIntakeKcal: $0.meanIntakeKcal, trendChange: $0.trendChange.value(in: unit), expenditureKcal: $0.estimateKcal,
                    sdKcal: $0.uncertaintyKcal, low: $0.range.lowerBound, high: $0.range.upperBound)
            }
        adaptiveStatus = estimate.shortfall?.message
        blendedKcal = estimate.blendedKcal
        blendedSdKcal = estimate.blendedUncertaintyKcal
        adaptiveWeight = estimate.adaptiveWeight
        maintenanceKcal = report.maintenanceKcal
        target = report.target.map { Target(report, $0) }
        today = TodayDTO(report)
        timeToGoalPlanned = report.timeline?.atPlannedRate.map { ETADTO($0, unit: unit) }
        timeToGoalTrend = report.timeline?.atTrendRate.map { ETADTO($0, unit: unit) }
        goalReached = report.timeline?.reached ?? false
        thisWeek = CheckInDTO(report.thisWeek, unit: unit)
        lastWeek = CheckInDTO(report.lastWeek, unit: unit)
        days = report.history.map {
            Day(
                date: $0.date.iso, intakeKcal: $0.intakeKcal, status: $0.status?.rawValue,
                formulaKcal: $0.formulaKcal, adaptiveKcal: $0.adaptiveKcal, trend: $0.trend?.value(in: unit))
        }
    }
}

/// How a calorie target following the data moved this week.
struct TargetChangeDTO: Encodable {
    let fromKcal: Double
    let toKcal: Double
    let since: String
    let reason: String
    let message: String

    enum CodingKeys: String, CodingKey {
        case since, reason, message
        case fromKcal = "from_kcal"
        case toKcal = "to_kcal"
    }

    init(_ change: TargetChange, unit: EnergyUnit) {
        fromKcal = change.fromKcal
        toKcal = change.toKcal
        since = change.since.iso
        reason = change.reason
        message = change.message(in: unit)
    }
}

/// The daily calorie target in `GET /api/v1/targets`: what it is today and what it follows.
package struct CalorieTargetDTO: Encodable {
    @Nullable var kcal: Double?
    /// "adaptive" (the data), "formula", or "own" (the person's number).
    let follows: String
    @Nullable var ownKcal: Double?
    @Nullable var floorKcal: Double?
    @Nullable var change: TargetChangeDTO?

    enum CodingKeys: String, CodingKey {
        case kcal, follows, change
        case ownKcal = "own_kcal"
        case floorKcal = "floor_kcal"
    }

    package init(_ report: EnergyReport) {
        let settings = report.settings
        kcal = report.targetKcal
        follows = settings.energyTargetKcal != nil ? "own" : settings.targetBasis.rawValue
        ownKcal = settings.energyTargetKcal
        floorKcal = report.target?.floorKcal ?? settings.energyFloorKcal
        change = report.targetChange.map { TargetChangeDTO($0, unit: settings.energyUnit) }
    }
}

/// The API's JSON, for the CLI's `--format json`.
public enum EnergyJSON {
    public static func energy(_ report: EnergyReport) throws(CinnError) -> String { try jsonString(EnergyDTO(report)) }
    public static func today(_ report: EnergyReport) throws(CinnError) -> String { try jsonString(TodayDTO(report)) }
    public static func profile(_ settings: UserSettings, goal: Goal?) throws(CinnError) -> String {
        try jsonString(ProfileDTO(settings, goal: goal))
    }
}
