import CinnCore
import CinnStore
import Foundation

/// The study's records and reports in the API. Glucose comes in the unit asked for (`value`, `unit`) and
/// always in mg/dL (`mg_dl`); times are local ISO 8601 with their offset.
package struct GlucoseReadingDTO: Encodable {
    let id: String
    let time: String
    let date: String
    let value: Double
    let unit: String
    let mgDl: Double
    @Nullable var timing: String?
    @Nullable var note: String?
    let source: String

    enum CodingKeys: String, CodingKey {
        case id, time, date, value, unit, timing, note, source
        case mgDl = "mg_dl"
    }

    package init(_ reading: GlucoseReading, unit: GlucoseUnit) {
        id = reading.id.lowercasedString
        time = WeighIn.isoString(instant: reading.measuredAt, utcOffsetSeconds: reading.utcOffsetSeconds)
        date = reading.localDate.iso
        value = GlucoseDTO.rounded(reading.glucose, unit)
        self.unit = unit.rawValue
        mgDl = reading.glucose.milligramsPerDeciliter
        timing = reading.timing?.rawValue
        note = reading.note
        source = reading.source
    }
}

package struct InsulinDoseDTO: Encodable {
    let id: String
    let time: String
    let date: String
    let units: Double
    let kind: String
    @Nullable var insulin: String?
    @Nullable var note: String?
    let source: String

    package init(_ dose: InsulinDose) {
        id = dose.id.lowercasedString
        time = WeighIn.isoString(instant: dose.takenAt, utcOffsetSeconds: dose.utcOffsetSeconds)
        date = dose.localDate.iso
        units = dose.units
        kind = dose.kind.rawValue
        insulin = dose.insulin
        note = dose.note
        source = dose.source
    }
}

package struct MealDTO: Encodable {
    struct Food: Encodable {
        let foodID: String
        let name: String
        let grams: Double

        enum CodingKeys: String, CodingKey {
            case name, grams
            case foodID = "food_id"
        }
    }

    let id: String
    let name: String
    let kind: String
    @Nullable var carbohydrateG: Double?
    let foods: [Food]
    @Nullable var note: String?

    enum CodingKeys: String, CodingKey {
        case id, name, kind, foods, note
        case carbohydrateG = "carbohydrate_g"
    }

    package init(_ meal: MealDefinition) {
        id = meal.id.lowercasedString
        name = meal.name
        kind = meal.kind.rawValue
        carbohydrateG = meal.carbohydrateGrams
        foods = meal.foods.map { Food(foodID: $0.foodID.lowercasedString, name: $0.name, grams: $0.grams) }
        note = meal.note
    }
}

struct MealResponseDTO: Encodable {
    let baseline: Double
    let peak: Double
    let rise: Double
    let minutesToPeak: Double
    let incrementalAreaMgDlMin: Double
    let complete: Bool
    let bolusUnits: Double

    enum CodingKeys: String, CodingKey {
        case baseline, peak, rise, complete
        case minutesToPeak = "minutes_to_peak"
        case incrementalAreaMgDlMin = "incremental_area_mg_dl_min"
        case bolusUnits = "bolus_units"
    }

    init(_ response: MealResponse, unit: GlucoseUnit) {
        baseline = GlucoseDTO.rounded(response.baseline.glucose, unit)
        peak = GlucoseDTO.rounded(response.peak.glucose, unit)
        rise = GlucoseDTO.rounded(Glucose(milligramsPerDeciliter: response.rise), unit)
        minutesToPeak = response.minutesToPeak.rounded()
        incrementalAreaMgDlMin = response.incrementalArea.rounded()
        complete = response.isComplete
        bolusUnits = response.bolusUnits
    }
}

package struct MealEventDTO: Encodable {
    let id: String
    let mealID: String
    @Nullable var meal: String?
    let time: String
    let date: String
    let portion: Double
    @Nullable var carbohydrateG: Double?
    @Nullable var note: String?
    let reported: Bool
    @Nullable var reportReason: String?
    @Nullable var response: MealResponseDTO?
    /// "diary" for a meal of the food diary, "meal_event" for one logged as a meal event.
    let source: String
    /// A diary meal's slot (breakfast, lunch…) and entries.
    @Nullable var diaryMeal: String?
    let entryIDs: [String]?

    package init(_ event: MealEvent, meal: MealDefinition?, response: MealResponse?, unit: GlucoseUnit) {
        id = event.id.lowercasedString
        mealID = event.mealID.lowercasedString
        self.meal = meal?.name
        time = WeighIn.isoString(instant: event.eatenAt, utcOffsetSeconds: event.utcOffsetSeconds)
        date = event.localDate.iso
        portion = event.portion
        carbohydrateG = event.carbohydrateGrams
        note = event.note
        reported = event.isReported
        reportReason = event.reportReason
        self.response = response.map { MealResponseDTO($0, unit: unit) }
        source = event.diaryMeal == nil ? "meal_event" : "diary"
        diaryMeal = event.diaryMeal?.name
        entryIDs = event.diaryMeal == nil ? nil : event.entryIDs.map(\.lowercasedString)
    }

    init(_ item: MealEventResponse, unit: GlucoseUnit) {
        self.init(item.event, meal: item.meal, response: item.response, unit: unit)
    }

    enum CodingKeys: String, CodingKey {
        case id, meal, time, date, portion, note, reported, response, source
        case mealID = "meal_id"
        case carbohydrateG = "carbohydrate_g"
        case reportReason = "report_reason"
        case diaryMeal = "diary_meal"
        case entryIDs = "entry_ids"
    }
}

struct GlucoseStatisticsDTO: Encodable {
    let readings: Int
    @Nullable var mean: Double?
    @Nullable var standardDeviation: Double?
    @Nullable var coefficientOfVariationPercent: Double?
    @Nullable var gmiPercent: Double?
    @Nullable var gmiMmolPerMol: Double?
    let percentVeryLow: Double, percentLow: Double, percentInRange: Double, percentHigh: Double, percentVeryHigh: Double

    /// `statistics`; GMI and CV only when `coverage` supports them (never for a single day).
    init(_ statistics: GlucoseStatistics, unit: GlucoseUnit, coverage: GlucoseCoverage?) {
        let enough = coverage?.isEnough == true
        readings = statistics.count
        mean = statistics.mean.map { GlucoseDTO.rounded($0, unit) }
        standardDeviation = statistics.standardDeviation.map { GlucoseDTO.rounded(Glucose(milligramsPerDeciliter: $0), unit) }
        coefficientOfVariationPercent = enough ? statistics.coefficientOfVariation.map { ($0 * 10).rounded() / 10 } : nil
        gmiPercent = enough ? statistics.gmiPercent.map { ($0 * 10).rounded() / 10 } : nil
        gmiMmolPerMol = enough ? statistics.gmiMillimolesPerMole.map { $0.rounded() } : nil
        func percent(_ share: Double) -> Double { (share * 1000).rounded() / 10 }
        percentVeryLow = percent(statistics.veryLow)
        percentLow = percent(statistics.low)
        percentInRange = percent(statistics.inRange)
        percentHigh = percent(statistics.high)
        percentVeryHigh = percent(statistics.veryHigh)
    }

    enum CodingKeys: String, CodingKey {
        case readings, mean
        case standardDeviation = "standard_deviation"
        case coefficientOfVariationPercent = "cv_percent"
        case gmiPercent = "gmi_percent"
        case gmiMmolPerMol = "gmi_mmol_per_mol"
        case percentVeryLow = "percent_below_54"
        case percentLow = "percent_54_69"
        case percentInRange = "percent_70_180"
        case percentHigh = "percent_181_250"
        case percentVeryHigh = "percent_above_250"
    }
}

struct RankingDTO: Encodable {
    let id: String
    let name: String
    let events: Int
    let counted: Int
    @Nullable var meanIncrementalArea: Double?
    @Nullable var meanRise: Double?
    @Nullable var meanMinutesToPeak: Double?
    @Nullable var meanBolusUnits: Double?

    init(_ ranking: ResponseRanking, unit: GlucoseUnit) {
        id = ranking.id.lowercasedString
        name = ranking.name
        events = ranking.events
        counted = ranking.counted
        meanIncrementalArea = ranking.meanArea?.rounded()
        meanRise = ranking.meanRise.map { GlucoseDTO.rounded(Glucose(milligramsPerDeciliter: $0), unit) }
        meanMinutesToPeak = ranking.meanMinutesToPeak?.rounded()
        meanBolusUnits = ranking.meanBolusUnits.map { ($0 * 100).rounded() / 100 }
    }

    enum CodingKeys: String, CodingKey {
        case id, name, events, counted
        case meanIncrementalArea = "mean_incremental_area_mg_dl_min"
        case meanRise = "mean_rise"
        case meanMinutesToPeak = "mean_minutes_to_peak"
        case meanBolusUnits = "mean_bolus_units"
    }
}

/// `GET /api/v1/glucose/report`.
package struct GlucoseReportDTO: Encodable {
    struct Day: Encodable {
        let date: String
        let statistics: GlucoseStatisticsDTO
    }

    /// Whether the period's readings support the consensus metrics, and what is missing.
    struct Coverage: Encodable {
        let days: Int
        let daysWithReadings: Int
        let cgmActivePercent: Double
        let enough: Bool
        @Nullable var missing: String?

        enum CodingKeys: String, CodingKey {
            case days, enough, missing
            case daysWithReadings = "days_with_readings"
            case cgmActivePercent = "cgm_active_percent"
        }
    }

    let from: String
    let to: String
    let unit: String
    let statistics: GlucoseStatisticsDTO
    let coverage: Coverage
    let days: [Day]
    let mealEvents: [MealEventDTO]
    let meals: [RankingDTO]
    let foods: [RankingDTO]
    let bolusUnits: Double
    let basalUnits: Double

    enum CodingKeys: String, CodingKey {
        case from, to, unit, statistics, coverage, days, meals, foods
        case mealEvents = "meal_events"
        case bolusUnits = "bolus_units"
        case basalUnits = "basal_units"
    }

    package init(_ report: GlucoseReport) {
        from = report.from.iso
        to = report.to.iso
        unit = report.unit.rawValue
        statistics = GlucoseStatisticsDTO(report.statistics, unit: report.unit, coverage: report.coverage)
        coverage = Coverage(
            days: report.coverage.days, daysWithReadings: report.coverage.daysWithReadings,
            cgmActivePercent: (report.coverage.activeShare * 1000).rounded() / 10, enough: report.coverage.isEnough,
            missing: report.coverage.missing)
        days = report.days.map { Day(date: $0.date.iso, statistics: GlucoseStatisticsDTO($0.statistics, unit: report.unit, coverage: nil)) }
        mealEvents = report.events.map { MealEventDTO($0, unit: report.unit) }
        meals = report.byMeal.map { RankingDTO($0, unit: report.unit) }
        foods = report.byFood.map { RankingDTO($0, unit: report.unit) }
        bolusUnits = (report.bolusUnits * 100).rounded() / 100
        basalUnits = (report.basalUnits * 100).rounded() / 100
    }
}

/// `GET /api/v1/glucose/days/{date}`.
package struct GlucoseDayDTO: Encodable {
    let date: String
    let unit: String
    let statistics: GlucoseStatisticsDTO
    let readings: [GlucoseReadingDTO]
    let insulin: [InsulinDoseDTO]
    let mealEvents: [MealEventDTO]

    enum CodingKeys: String, CodingKey {
        case date, unit, statistics, readings, insulin
        case mealEvents = "meal_events"
    }

    package init(_ day: GlucoseDay) {
        date = day.date.iso
        unit = day.unit.rawValue
        statistics = GlucoseStatisticsDTO(day.statistics, unit: day.unit, coverage: nil)
        readings = day.readings.map { GlucoseReadingDTO($0, unit: day.unit) }
        insulin = day.doses.map(InsulinDoseDTO.init)
        mealEvents = day.events.map { MealEventDTO($0, unit: day.unit) }
    }
}

enum GlucoseDTO {
    /// A glucose value in `unit` to its display precision (whole mg/dL, tenths of mmol/L).
    static func rounded(_ glucose: Glucose, _ unit: GlucoseUnit) -> Double {
        let scale = unit == .milligramsPerDeciliter ? 1.0 : 10.0
        return (glucose.value(in: unit) * scale).rounded() / scale
    }
}

/// The JSON the CLI prints with `--format json`: the API's shapes.
public enum GlucoseJSON {
    public static func report(_ report: GlucoseReport) throws(CinnError) -> String { try jsonString(GlucoseReportDTO(report)) }
    public static func day(_ day: GlucoseDay) throws(CinnError) -> String { try jsonString(GlucoseDayDTO(day)) }
    public static func meals(_ meals: [MealDefinition]) throws(CinnError) -> String { try jsonString(["meals": meals.map(MealDTO.init)]) }
    /// `cinn nom --format json`: as `POST /api/v1/nom` answers.
    public static func nom(_ answer: NomAnswer) throws(CinnError) -> String { try jsonString(NomDTO(answer)) }
}
