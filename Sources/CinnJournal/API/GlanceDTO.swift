import CinnCore
import Foundation

/// `GET /api/v1/glance`: what a watch face or a widget shows.
package struct GlanceDTO: Encodable {
    let date: String
    /// `yes`, `careful`, `no` or `unknown`.
    let answer: String
    let message: String
    @Nullable var kcalLeft: Int?
    @Nullable var trend: Trend?
    @Nullable var glucose: GlucoseNow?

    struct Trend: Encodable {
        let weight: Double
        let unit: String
        /// The trend's change a week, in `unit`; nil until it has one.
        @Nullable var weeklyChange: Double?

        enum CodingKeys: String, CodingKey {
            case weight, unit
            case weeklyChange = "weekly_change"
        }
    }

    struct GlucoseNow: Encodable {
        let value: Double
        let unit: String
        let mgDL: Double
        @Nullable var direction: String?
        @Nullable var arrow: String?
        let minutesOld: Int
        let stale: Bool
        let measuredAt: String
        let sensor: Bool
        let insulinOnBoardUnits: Double
        let carbsOnBoardGrams: Double

        enum CodingKeys: String, CodingKey {
            case value, unit, direction, arrow, stale, sensor
            case mgDL = "mg_dl"
            case minutesOld = "minutes_old"
            case measuredAt = "measured_at"
            case insulinOnBoardUnits = "insulin_on_board_units"
            case carbsOnBoardGrams = "carbs_on_board_g"
        }
    }

    enum CodingKeys: String, CodingKey {
        case date, answer, message, trend, glucose
        case kcalLeft = "kcal_left"
    }

    package init(_ glance: Glance) {
        let settings = glance.settings
        date = glance.asOf.iso
        answer = glance.answer.answer.rawValue
        message = glance.answer.message
        kcalLeft = glance.answer.remainingKcal
        let unit = settings.displayUnit
        trend = glance.trend.map { mass in
            Trend(
                weight: (mass.value(in: unit) * 100).rounded() / 100, unit: unit.rawValue,
                weeklyChange: glance.weeklyChange.map { ($0.perWeek(in: unit) * 100).rounded() / 100 })
        }
        glucose = glance.glucose.map { entry in
            let reading = entry.reading, glucoseUnit = settings.glucoseUnit
            let scale = pow(10, Double(glucoseUnit.displayDecimals))
            let minutes = glance.glucoseMinutesOld ?? 0
            return GlucoseNow(
                value: (reading.glucose.value(in: glucoseUnit) * scale).rounded() / scale, unit: glucoseUnit.rawValue,
                mgDL: reading.glucose.milligramsPerDeciliter.rounded(), direction: entry.direction?.rawValue,
                arrow: entry.direction?.arrow, minutesOld: minutes, stale: minutes > Glance.staleAfterMinutes,
                measuredAt: WeighIn.isoString(instant: reading.measuredAt, utcOffsetSeconds: reading.utcOffsetSeconds),
                sensor: reading.sensor, insulinOnBoardUnits: ((glance.onBoard?.insulinUnits ?? 0) * 100).rounded() / 100,
                carbsOnBoardGrams: (glance.onBoard?.carbohydrateGrams ?? 0).rounded())
        }
    }
}
