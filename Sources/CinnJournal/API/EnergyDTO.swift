import CinnCore
import Foundation

/// An optional that encodes as JSON `null` rather than leaving its key out.
package struct OrNull<Value: Encodable>: Encodable {
    let value: Value?
    package init(_ value: Value?) { self.value = value }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}

/// `GET /api/v1/profile`: the profile, units and target choices.
package struct ProfileDTO: Encodable {
    let sex: OrNull<String>
    let birthDate: OrNull<String>
    let heightCm: OrNull<Double>
    let height: OrNull<String>
    let activity: OrNull<String>
    let activityFactor: OrNull<Double>
    let complete: Bool
    let onboarded: Bool
    let massUnit: String
    let lengthUnit: String
    let energyUnit: String
    let timeZone: String
    let goalWeight: OrNull<Double>
    let goalRatePerWeek: OrNull<Double>
    let targetBasis: String
    let energyFloorKcal: OrNull<Double>
    let energyTargetKcal: OrNull<Double>

    package init(_ settings: UserSettings, goal: Goal?) {
        let profile = settings.profile
        sex = OrNull(profile?.sex.rawValue)
        birthDate = OrNull(profile?.birthDate.iso)
        heightCm = OrNull(profile?.height.centimetres)
        height = OrNull(profile?.height.formatted(in: settings.lengthUnit))
        activity = OrNull(profile?.activity.rawValue)
        activityFactor = OrNull(profile?.activity.factor)
        complete = profile != nil
        onboarded = settings.onboarded
        massUnit = settings.displayUnit.rawValue
        lengthUnit = settings.lengthUnit.rawValue
        energyUnit = settings.energyUnit.rawValue
        timeZone = settings.timeZoneIdentifier ?? settings.timeZone.identifier
        goalWeight = OrNull(goal.map { $0.weight.value(in: settings.displayUnit) })
        goalRatePerWeek = OrNull(goal?.plannedRate.map { $0.value(in: settings.displayUnit) })
        targetBasis = settings.targetBasis.rawValue
        energyFloorKcal = OrNull(settings.energyFloorKcal)
        energyTargetKcal = OrNull(settings.energyTargetKcal)
    }

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
    let date: OrNull<String>
    let earliest: OrNull<String>
    let latest: OrNull<String>
    let ratePerWeek: Double
    let rateUncertaintyPerWeek: Double

    init(_ eta: GoalETA, unit: MassUnit) {
        date = OrNull(eta.date?.iso)
        earliest = OrNull(eta.earliest?.iso)
        latest = OrNull(eta.latest?.iso)
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
    let meanIntakeKcal: OrNull<Double>
    let trendChange: OrNull<Double>
    let expenditureKcal: OrNull<Double>
    let targetKcal: OrNull<Double>
    let daysOnTarget: OrNull<Int>

    init(_ week: WeeklyCheckIn, unit: MassUnit) {
        start = week.start.iso
        end = week.end.iso
        daysLogged = week.daysLogged
        completeDays = week.completeDays
        meanIntakeKcal = OrNull(week.meanIntakeKcal)
        trendChange = OrNull(week.trendChange?.value(in: unit))
        expenditureKcal = OrNull(week.expenditureKcal)
        targetKcal = OrNull(week.targetKcal)
        daysOnTarget = OrNull(week.daysOnTarget)
    }

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
}

/// The daily answer.
package struct TodayDTO: Encodable {
    let date: String
    let answer: String
    let message: String
    let remainingKcal: OrNull<Int>
    let eatenKcal: Double
    let targetKcal: OrNull<Double>
    let maintenanceKcal: OrNull<Double>
    let dayStatus: OrNull<String>
    let trendVerdict: String
    let trendReason: String

    package init(_ report: EnergyReport) {
        date = report.asOf.iso
        answer = report.answer.answer.rawValue
        message = report.answer.message
        remainingKcal = OrNull(report.answer.remainingKcal)
        eatenKcal = report.eatenKcal
        targetKcal = OrNull(report.targetKcal)
        maintenanceKcal = OrNull(report.maintenanceKcal)
        dayStatus = OrNull(report.dayStatus?.rawValue)
        trendVerdict = report.verdict.answer.rawValue
        trendReason = report.verdict.reason
    }

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
}

/// `GET /api/v1/energy`.
package struct EnergyDTO: Encodable {
    struct Formula: Encodable {
        let equation: String
        let restingKcal: Double
        let activityFactor: Double
        let expenditureKcal: Double
        let bodyFatPercent: OrNull<Double>

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
        let maintenanceKcal: OrNull<Double>
        let maintenanceSource: OrNull<String>
        let maintenanceAsOf: OrNull<String>
        let adjustmentKcal: Double
        let floorKcal: Double
        let floored: Bool
        let change: OrNull<TargetChangeDTO>

        init(_ report: EnergyReport, _ target: EnergyTarget) {
            kcal = target.kcal
            source = target.source.rawValue
            basis = report.settings.targetBasis.rawValue
            maintenanceKcal = OrNull(target.maintenanceKcal)
            maintenanceSource = OrNull(target.source == .computed ? report.targetExpenditure?.source.rawValue : nil)
            maintenanceAsOf = OrNull(target.source == .computed ? report.targetExpenditure?.asOf.iso : nil)
            adjustmentKcal = target.adjustmentKcal
            floorKcal = target.floorKcal
            floored = target.floored
            change = OrNull(report.targetChange.map { TargetChangeDTO($0, unit: report.settings.energyUnit) })
        }

        enum CodingKeys: String, CodingKey {
            case kcal, source, basis, floored, change
            case maintenanceKcal = "maintenance_kcal"
            case adjustmentKcal = "adjustment_kcal"
            case floorKcal = "floor_kcal"
            case maintenanceSource = "maintenance_source"
            case maintenanceAsOf = "maintenance_as_of"
        }
    }

    struct Day: Encodable {
        let date: String
        let intakeKcal: OrNull<Double>
        let status: OrNull<String>
        let formulaKcal: OrNull<Double>
        let adaptiveKcal: OrNull<Double>
        let trend: OrNull<Double>

        enum CodingKeys: String, CodingKey {
            case date, status, trend
            case intakeKcal = "intake_kcal"
            case formulaKcal = "formula_kcal"
            case adaptiveKcal = "adaptive_kcal"
        }
    }

    let date: String
    let massUnit: String
    let trend: OrNull<Double>
    let formula: OrNull<Formula>
    let adaptive: OrNull<Adaptive>
    let adaptiveStatus: OrNull<String>
    let blendedKcal: OrNull<Double>
    let blendedSdKcal: OrNull<Double>
    let adaptiveWeight: Double
    let maintenanceKcal: OrNull<Double>
    let target: OrNull<Target>
    let today: TodayDTO
    let timeToGoalPlanned: OrNull<ETADTO>
    let timeToGoalTrend: OrNull<ETADTO>
    let goalReached: Bool
    let thisWeek: CheckInDTO
    let lastWeek: CheckInDTO
    let days: [Day]

    package init(_ report: EnergyReport) {
        let unit = report.settings.displayUnit
        date = report.asOf.iso
        massUnit = unit.rawValue
        trend = OrNull(report.trend?.value(in: unit))
        let estimate = report.expenditure
        formula = OrNull(
            estimate.formula.map {
                Formula(
                    equation: $0.equation.rawValue, restingKcal: $0.restingKcal, activityFactor: $0.activity.factor,
                    expenditureKcal: $0.expenditureKcal, bodyFatPercent: OrNull($0.bodyFatFraction.map { $0 * 100 }))
            })
        adaptive = OrNull(
            estimate.adaptive.map {
                Adaptive(
                    asOf: $0.asOf.iso, held: estimate.isHeld, windowDays: $0.windowDays, completeDays: $0.completeDays,
                    meanIntakeKcal: $0.meanIntakeKcal, trendChange: $0.trendChange.value(in: unit), expenditureKcal: $0.estimateKcal,
                    sdKcal: $0.uncertaintyKcal, low: $0.range.lowerBound, high: $0.range.upperBound)
            })
        adaptiveStatus = OrNull(estimate.shortfall?.message)
        blendedKcal = OrNull(estimate.blendedKcal)
        blendedSdKcal = OrNull(estimate.blendedUncertaintyKcal)
        adaptiveWeight = estimate.adaptiveWeight
        maintenanceKcal = OrNull(report.maintenanceKcal)
        target = OrNull(report.target.map { Target(report, $0) })
        today = TodayDTO(report)
        timeToGoalPlanned = OrNull(report.timeline?.atPlannedRate.map { ETADTO($0, unit: unit) })
        timeToGoalTrend = OrNull(report.timeline?.atTrendRate.map { ETADTO($0, unit: unit) })
        goalReached = report.timeline?.reached ?? false
        thisWeek = CheckInDTO(report.thisWeek, unit: unit)
        lastWeek = CheckInDTO(report.lastWeek, unit: unit)
        days = report.history.map {
            Day(
                date: $0.date.iso, intakeKcal: OrNull($0.intakeKcal), status: OrNull($0.status?.rawValue),
                formulaKcal: OrNull($0.formulaKcal), adaptiveKcal: OrNull($0.adaptiveKcal), trend: OrNull($0.trend?.value(in: unit)))
        }
    }

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
}

/// How a calorie target following the data moved this week.
struct TargetChangeDTO: Encodable {
    let fromKcal: Double
    let toKcal: Double
    let since: String
    let reason: String
    let message: String

    init(_ change: TargetChange, unit: EnergyUnit) {
        fromKcal = change.fromKcal
        toKcal = change.toKcal
        since = change.since.iso
        reason = change.reason
        message = change.message(in: unit)
    }

    enum CodingKeys: String, CodingKey {
        case since, reason, message
        case fromKcal = "from_kcal"
        case toKcal = "to_kcal"
    }
}

/// The daily calorie target in `GET /api/v1/targets`: what it is today and what it follows.
package struct CalorieTargetDTO: Encodable {
    let kcal: OrNull<Double>
    /// "adaptive" (the data), "formula", or "own" (the person's number).
    let follows: String
    let ownKcal: OrNull<Double>
    let floorKcal: OrNull<Double>
    let change: OrNull<TargetChangeDTO>

    package init(_ report: EnergyReport) {
        let settings = report.settings
        kcal = OrNull(report.targetKcal)
        follows = settings.energyTargetKcal != nil ? "own" : settings.targetBasis.rawValue
        ownKcal = OrNull(settings.energyTargetKcal)
        floorKcal = OrNull(report.target?.floorKcal ?? settings.energyFloorKcal)
        change = OrNull(report.targetChange.map { TargetChangeDTO($0, unit: settings.energyUnit) })
    }

    enum CodingKeys: String, CodingKey {
        case kcal, follows, change
        case ownKcal = "own_kcal"
        case floorKcal = "floor_kcal"
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
