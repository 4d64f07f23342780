import CinnCore
import CinnStore
import Foundation

// Request and response payloads of the JSON API, kept apart from the domain values.

/// A weigh-in as the API shows it, in the requested unit.
package struct WeighInDTO: Encodable {
    let id: String
    let weight: Double
    let unit: String
    let date: String
    let measuredAt: String
    @Nullable var note: String?
    let source: String

    enum CodingKeys: String, CodingKey {
        case id, weight, unit, date, note, source
        case measuredAt = "measured_at"
    }

    package init(_ weighIn: WeighIn, unit: MassUnit) {
        id = weighIn.id.lowercasedString
        weight = weighIn.weight.value(in: unit)
        self.unit = unit.rawValue
        date = weighIn.localDate.iso
        measuredAt = weighIn.localTimeISO
        note = weighIn.note
        source = weighIn.source
    }
}

/// A number that may arrive as a JSON number or as a numeric string ("72.4").
package struct LenientNumber: Decodable {
    package let value: Double

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            value = number
        } else if let text = try? container.decode(String.self),
            let number = Double(text.trimmingCharacters(in: .whitespaces))
        {
            value = number
        } else {
            throw DecodingError.typeMismatch(Double.self, .init(codingPath: decoder.codingPath, debugDescription: "expected a number"))
        }
    }
}

/// `POST /api/v1/weigh-ins`.
package struct CreateWeighIn: Decodable {
    /// A client-generated UUID, for clients that make records offline; the server makes one otherwise.
    package let id: String?
    package let weight: LenientNumber
    package let unit: String?
    /// `YYYY-MM-DD` (today: now; an earlier day: local noon) or an ISO 8601 time.
    package let date: String?
    /// An ISO 8601 time, preferably with its offset.
    package let measuredAt: String?
    package let note: String?
    /// Save a weight that looks like a typo (`needs_confirmation`) as it is.
    package let confirm: Bool?

    enum CodingKeys: String, CodingKey {
        case id, weight, unit, date, note, confirm
        case measuredAt = "measured_at"
    }
}

/// `PATCH /api/v1/weigh-ins/{id}`: absent fields stay as they are; `"note": null` clears the note.
package struct UpdateWeighIn: Decodable {
    package let weight: LenientNumber?
    package let unit: String?
    package let date: String?
    package let measuredAt: String?
    package let note: String??
    /// Save a changed weight that looks like a typo (`needs_confirmation`) as it is.
    package let confirm: Bool?

    enum CodingKeys: String, CodingKey {
        case weight, unit, date, note, confirm
        case measuredAt = "measured_at"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        weight = try container.decodeIfPresent(LenientNumber.self, forKey: .weight)
        unit = try container.decodeIfPresent(String.self, forKey: .unit)
        date = try container.decodeIfPresent(String.self, forKey: .date)
        measuredAt = try container.decodeIfPresent(String.self, forKey: .measuredAt)
        confirm = try container.decodeIfPresent(Bool.self, forKey: .confirm)
        if container.contains(.note) {
            note = .some(try container.decodeNil(forKey: .note) ? nil : try container.decode(String.self, forKey: .note))
        } else {
            note = nil
        }
    }
}

/// The goal as the API shows it.
package struct GoalDTO: Encodable {
    let weight: Double
    let unit: String
    @Nullable var ratePerWeek: Double?
    let setOn: String

    enum CodingKeys: String, CodingKey {
        case weight, unit
        case ratePerWeek = "rate_per_week"
        case setOn = "set_on"
    }

    package init(_ goal: Goal, unit: MassUnit) {
        weight = goal.weight.value(in: unit)
        self.unit = unit.rawValue
        ratePerWeek = goal.plannedRate?.value(in: unit)
        setOn = goal.setOn.iso
    }
}

/// `PUT /api/v1/goal`.
package struct GoalRequest: Decodable {
    package let weight: LenientNumber
    package let unit: String?
    package let ratePerWeek: LenientNumber?

    enum CodingKeys: String, CodingKey {
        case weight, unit
        case ratePerWeek = "rate_per_week"
    }
}

/// The settings as the API shows them.
package struct SettingsDTO: Encodable {
    let unit: String
    let trendMethod: String
    let timeZone: String
    @Nullable var energyTargetKcal: Double?
    let energyUnit: String
    let glucoseUnit: String
    let insulinPeakMinutes: Double
    let insulinDurationMinutes: Double

    enum CodingKeys: String, CodingKey {
        case unit
        case trendMethod = "trend_method"
        case timeZone = "time_zone"
        case energyTargetKcal = "energy_target_kcal"
        case energyUnit = "energy_unit"
        case glucoseUnit = "glucose_unit"
        case insulinPeakMinutes = "insulin_peak_minutes"
        case insulinDurationMinutes = "insulin_duration_minutes"
    }

    package init(_ settings: UserSettings) {
        unit = settings.displayUnit.rawValue
        trendMethod = settings.trendMethod.rawValue
        timeZone = settings.timeZoneIdentifier ?? settings.timeZone.identifier
        energyTargetKcal = settings.energyTargetKcal
        energyUnit = settings.energyUnit.rawValue
        glucoseUnit = settings.glucoseUnit.rawValue
        insulinPeakMinutes = settings.insulinModel.peakMinutes
        insulinDurationMinutes = settings.insulinModel.durationMinutes
    }
}

/// `PUT /api/v1/settings`: absent fields stay as they are.
package struct SettingsRequest: Decodable {
    package let unit: String?
    package let trendMethod: String?
    package let timeZone: String?
    /// A number sets the target; `null` clears it.
    package let energyTargetKcal: LenientNumber??
    package let energyUnit: String?
    package let glucoseUnit: String?
    package let insulinPeakMinutes: LenientNumber?
    package let insulinDurationMinutes: LenientNumber?

    enum CodingKeys: String, CodingKey {
        case unit
        case trendMethod = "trend_method"
        case timeZone = "time_zone"
        case energyTargetKcal = "energy_target_kcal"
        case energyUnit = "energy_unit"
        case glucoseUnit = "glucose_unit"
        case insulinPeakMinutes = "insulin_peak_minutes"
        case insulinDurationMinutes = "insulin_duration_minutes"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        unit = try container.decodeIfPresent(String.self, forKey: .unit)
        trendMethod = try container.decodeIfPresent(String.self, forKey: .trendMethod)
        timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
        energyTargetKcal =
            container.contains(.energyTargetKcal)
            ? .some(try container.decodeIfPresent(LenientNumber.self, forKey: .energyTargetKcal)) : nil
        energyUnit = try container.decodeIfPresent(String.self, forKey: .energyUnit)
        glucoseUnit = try container.decodeIfPresent(String.self, forKey: .glucoseUnit)
        insulinPeakMinutes = try container.decodeIfPresent(LenientNumber.self, forKey: .insulinPeakMinutes)
        insulinDurationMinutes = try container.decodeIfPresent(LenientNumber.self, forKey: .insulinDurationMinutes)
    }
}

/// The trend: the same shape as `cinn trend --format json`.
public struct TrendDTO {
    struct Day {
        let date: String
        let weight: Double?
        let interpolated: Bool
        let value: Double
        let trend: Double
        let startsSeries: Bool
    }

    let unit: String
    let days: [Day]
    let ratePerWeek: Double?
    let energyBalancePerDay: Double?
    let forecastDate: String?
    let settlingDays: Int?
    let verdict: Verdict

    public init(_ report: TrendReport, unit: MassUnit) {
        self.unit = unit.rawValue
        days = report.days.map {
            Day(
                date: $0.date.iso, weight: $0.measured?.value(in: unit), interpolated: $0.interpolated,
                value: $0.value.value(in: unit), trend: $0.trend.value(in: unit), startsSeries: $0.startsSeries)
        }
        ratePerWeek = report.rate?.perWeek(in: unit)
        energyBalancePerDay = report.energyBalancePerDay?.kilocalories
        forecastDate = report.forecast?.iso
        settlingDays = report.settlingDays
        verdict = report.verdict
    }

    /// The days as CSV: `date,weight,interpolated,value,trend`.
    public var csv: String {
        var text = "date,weight,interpolated,value,trend\n"
        for day in days {
            text += "\(day.date),\(day.weight.map { String($0) } ?? ""),\(day.interpolated),\(day.value),\(day.trend)\n"
        }
        return text
    }

    /// One line of JSON, keys in the documented order. Written by hand: this is the hot path of every
    /// trend read (one object per day), and `JSONEncoder` cost as much as the rest of the request.
    public var json: String {
        var text = "{\"unit\":\"\(unit)\",\"days\":["
        text.reserveCapacity(64 + days.count * 100)
        for (index, day) in days.enumerated() {
            if index > 0 { text += "," }
            text += "{\"date\":\"\(day.date)\",\"weight\":\(JSONText.number(day.weight)),\"interpolated\":\(day.interpolated)"
            text += ",\"value\":\(day.value),\"trend\":\(day.trend),\"starts_series\":\(day.startsSeries)}"
        }
        text += "],\"rate_per_week\":\(JSONText.number(ratePerWeek)),\"energy_balance_per_day\":\(JSONText.number(energyBalancePerDay))"
        text += ",\"forecast_date\":" + JSONText.quoted(forecastDate.map { "\($0)" })
        text += ",\"settling_days\":" + (settlingDays.map(String.init) ?? "null")
        text += ",\"verdict\":{\"answer\":\"\(verdict.answer.rawValue)\",\"reason\":" + JSONText.quoted(verdict.reason) + "}}"
        return text
    }
}

/// An import's report as the API shows it.
package struct ImportReportDTO: Encodable {
    let report: ImportReport

    package init(report: ImportReport) {
        self.report = report
    }

    /// One type's day summaries in the report.
    struct HealthDays: Encodable {
        let type: String
        let category: String
        let name: String
        let unit: String
        let days: Int
        let samples: Int
        let written: Int
    }

    enum CodingKeys: String, CodingKey {
        case format, rejected, imported, duplicates, skipped
        case rowsRead = "rows_read"
        case rejectedCount = "rejected_count"
        case dryRun = "dry_run"
        case importID = "import_id"
        case healthDays = "health_days"
        case replaced, unknown
        case repeatedInFile = "repeated_in_file"
        case keptAsSent = "kept_as_sent"
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(report.format, forKey: .format)
        try container.encode(report.rowsRead, forKey: .rowsRead)
        try container.encode(report.imported, forKey: .imported)
        try container.encode(report.duplicates, forKey: .duplicates)
        try container.encode(report.repeatedInFile, forKey: .repeatedInFile)
        try container.encode(report.keptAsSent, forKey: .keptAsSent)
        try container.encode(report.skipped, forKey: .skipped)
        try container.encode(report.rejectedCount, forKey: .rejectedCount)
        try container.encode(report.rejected, forKey: .rejected)
        try container.encode(report.dryRun, forKey: .dryRun)
        try container.encode(report.importID, forKey: .importID)
        try container.encode(
            report.healthDays.map { days in
                HealthDays(
                    type: days.type, category: days.category, name: days.name, unit: days.unit, days: days.days, samples: days.samples,
                    written: days.written)
            }, forKey: .healthDays)
        try container.encode(report.replaced, forKey: .replaced)
        try container.encode(report.unknown, forKey: .unknown)
    }
}

/// A recorded import as the API shows it.
package struct ImportBatchDTO: Encodable {
    let id: Int64
    let format: String
    @Nullable var fileName: String?
    let createdAt: String
    let rowsRead: Int
    let imported: Int
    let duplicates: Int
    let rejected: Int
    @Nullable var undoneAt: String?

    enum CodingKeys: String, CodingKey {
        case id, format, imported, duplicates, rejected
        case fileName = "file_name"
        case createdAt = "created_at"
        case rowsRead = "rows_read"
        case undoneAt = "undone_at"
    }

    package init(_ batch: ImportBatch) {
        id = batch.id
        format = batch.format
        fileName = batch.fileName
        createdAt = WeighIn.isoString(instant: batch.createdAt, utcOffsetSeconds: 0)
        rowsRead = batch.rowsRead
        imported = batch.imported
        duplicates = batch.duplicates
        rejected = batch.rejected
        undoneAt = batch.undoneAt.map { WeighIn.isoString(instant: $0, utcOffsetSeconds: 0) }
    }
}
