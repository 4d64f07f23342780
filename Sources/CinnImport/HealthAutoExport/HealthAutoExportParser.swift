import CinnCore
import Foundation

/// What one Health Auto Export delivery holds for the journal (docs/health-auto-export.md).
public struct HealthAutoExportDelivery: Sendable {
    /// Weigh-ins, body fat, glucose, insulin, food and workouts.
    public var records = ImportedHealthRecords()
    /// The other metrics' samples, summed up per day.
    public var samples: [HealthSample] = []
    /// Data points and workouts read.
    public var rowsRead = 0
    /// Metrics Cinn does not know, with how many points each had.
    public var unknownMetrics: [String: Int] = [:]
    /// Points that could not be read, each with its JSON path as its field (the first
    /// `ImportReport.maximumListedRejections`), and how many there were.
    public var rejected: [RejectedRow] = []
    public var rejectedCount = 0

    public init() {}
}

/// Reads the JSON that the iPhone app Health Auto Export posts to a REST API automation (export version 2, and
/// version 1's workouts): `data.metrics[]`, each a `name`, its `units` and `data[]` points with a `date` such as
/// `2024-06-01 07:00:00 -0700` and a `qty` (heart rate: `Min`, `Avg`, `Max`; blood pressure: `systolic`, `diastolic`;
/// sleep: a night's hours by stage, or one stage's span), and `data.workouts[]`.
///
/// Each point becomes what the Apple Health import makes of the same HealthKit type (`HealthRecord`), converted from
/// the units it is sent in; each local day is the point's own offset's.
public enum HealthAutoExportParser {
    public static let format = "health-auto-export"

    /// JSON values in a delivery at most (a point is about five), counted while parsing.
    public static let maximumValues = 4_000_000

    /// The largest file of the app's own "Export" (JSON, the delivery's schema) read, since it is read whole: a year of
    /// everything by the day, or a few weeks by the minute.
    public static let maximumFileBytes = 64 << 20

    /// Whether the file starts like the app's JSON: an object whose `data` holds `metrics` or `workouts`.
    public static func recognises(url: URL) -> Bool {
        guard let (prefix, _) = try? FileStart.read(url, count: 4096) else { return false }
        let text = String(decoding: prefix, as: UTF8.self)
        guard text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).first == "{" else { return false }
        return text.contains("\"data\"") && (text.contains("\"metrics\"") || text.contains("\"workouts\""))
    }

    /// Reads a file of the app's "Export" as JSON: the same schema as its deliveries, at most `maximumFileBytes`.
    public static func read(url: URL) throws(CinnError) -> HealthAutoExportDelivery {
        let (_, size) = try FileStart.read(url, count: 0)
        guard size <= maximumFileBytes else {
            throw .invalid(
                "file",
                "\(url.lastPathComponent) is \(size >> 20) MB; Cinn reads Health Auto Export files of at most "
                    + "\(maximumFileBytes >> 20) MB: export a shorter range, or by the day, or send it with a REST API automation")
        }
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: url))
        } catch {
            throw .invalid("file", "cannot read \(url.lastPathComponent): \(error.localizedDescription)")
        }
        return try parse(bytes, file: true)
    }

    /// Reads a delivery's bytes: not JSON is a malformed request (400), more than `maximumValues` values too large (413);
    /// then as `parse(_:)`.
    public static func parse(body: [UInt8]) throws(CinnError) -> HealthAutoExportDelivery {
        try parse(body, file: false)
    }

    /// JSON of at most `maximumValues` values, its syntax errors said as a file's (naming the line) or a request's.
    private static func parse(_ bytes: [UInt8], file: Bool) throws(CinnError) -> HealthAutoExportDelivery {
        let json: JSONValue
        do throws(JSONSyntaxError) {
            json = try JSONParser.parse(bytes, maximumValues: maximumValues, finiteNumbers: true)
        } catch {
            throw file ? error.fileError : error.requestError
        }
        return try parse(json)
    }

    /// Reads a delivery. The body's shape (an object with `data`, arrays where arrays belong, metrics with a name) must
    /// hold, or the delivery is refused naming the JSON path; a point that cannot be read is rejected alone.
    public static func parse(_ body: JSONValue) throws(CinnError) -> HealthAutoExportDelivery {
        guard case .object(let root) = body else { throw .invalid("$", "the body is a JSON object with \"data\"") }
        guard case .object(let data)? = root["data"] else {
            throw .invalid("data", "the body needs \"data\", an object with \"metrics\" and \"workouts\"")
        }
        var delivery = HealthAutoExportDelivery()
        var journal = JournalMapping()
        for (index, metric) in try array(data["metrics"], "data.metrics").enumerated() {
            let path = "data.metrics[\(index)]"
            guard case .object(let fields) = metric else { throw .invalid(path, "a metric is an object with name, units and data") }
            guard let name = fields["name"]?.string, !name.isEmpty else { throw .invalid(path + ".name", "a metric needs its name") }
            let units = fields["units"]?.string ?? ""
            let points = try array(fields["data"], path + ".data")
            delivery.rowsRead += points.count
            guard let kind = Metric(name: name) else {
                if !points.isEmpty { delivery.unknownMetrics[name, default: 0] += points.count }
                continue
            }
            for (pointIndex, point) in points.enumerated() {
                let pointPath = "\(path).data[\(pointIndex)]"
                do throws(CinnError) {
                    guard case .object(let values) = point else { throw .invalid("", "a point is an object with a date") }
                    try read(values, of: kind, units: units, into: &delivery, journal: &journal)
                } catch {
                    reject(&delivery, path: pointPath, error)
                }
            }
        }
        for (index, workout) in try array(data["workouts"], "data.workouts").enumerated() {
            delivery.rowsRead += 1
            do throws(CinnError) {
                delivery.records.workouts.append(try self.workout(workout))
            } catch {
                reject(&delivery, path: "data.workouts[\(index)]", error)
            }
        }
        do {
            delivery.records.foodEntries = try journal.food.entries().map { entry in
                // The bucket is the entry's time and name (its source): a later delivery's other total replaces it.
                var entry = entry
                let bucket = ContentHash.of(["food", entry.name, String(entry.eatenAt.millisecondsSince1970)]).hex
                entry.externalID = "hae:\(bucket):" + ContentHash.of([entry.nutrients.storageText]).hex
                entry.source = format
                return entry
            }
        } catch {
            throw CinnError.invalid(
                "data.metrics", "the food in this delivery cannot be read: \((error as? CinnError)?.message ?? "\(error)")")
        }
        return delivery
    }

    /// What mapping a journal record carries from point to point.
    struct JournalMapping {
        var food = HealthFoodCollector()
        var memo = HealthRecord.Memo()
        /// Journal records never reach these; `HealthRecord.map` takes them all the same.
        var days = HealthDayCollector()
        var skipped: [String: Int] = [:]
    }

    private static func reject(_ delivery: inout HealthAutoExportDelivery, path: String, _ error: CinnError) {
        delivery.rejectedCount += 1
        guard delivery.rejected.count < ImportReport.maximumListedRejections else { return }
        let field = error.field.map { $0.isEmpty ? path : "\(path).\($0)" } ?? path
        delivery.rejected.append(RejectedRow(line: 0, field: field, reason: error.message))
    }

    private static func array(_ value: JSONValue?, _ path: String) throws(CinnError) -> [JSONValue] {
        switch value {
        case nil, .null?: return []
        case .array(let items)?: return items
        default: throw .invalid(path, "\(path) is a list")
        }
    }

    /// What Cinn makes of a metric.
    enum Metric {
        /// A journal record's HealthKit type (weight, body fat, glucose, insulin, a nutrient).
        case journal(String)
        /// Another quantity type, summed up per day (a percentage, sent from 0 to 100, kept as HealthKit's fraction).
        case quantity(String)
        /// Heart rate: a bucket's `Min`, `Avg` and `Max` (or one `qty`).
        case heartRate(String)
        case bloodPressure
        case sleep
        /// A category type whose samples are minutes (mindful minutes).
        case minutes(String)

        init?(name: String) {
            let name = name.lowercased()
            if let type = HealthAutoExportParser.journalTypes[name] {
                self = .journal(type)
            } else if let type = HealthAutoExportParser.quantityTypes[name] {
                self = .quantity(type)
            } else {
                switch name {
                case "heart_rate": self = .heartRate("HKQuantityTypeIdentifierHeartRate")
                case "blood_pressure": self = .bloodPressure
                case "sleep_analysis": self = .sleep
                case "mindful_minutes": self = .minutes("HKCategoryTypeIdentifierMindfulSession")
                default: return nil
                }
            }
        }
    }

    /// Metrics that are journal records, by their HealthKit types.
    static let journalTypes: [String: String] = {
        var types = [
            "weight_body_mass": "BodyMass", "body_fat_percentage": "BodyFatPercentage", "blood_glucose": "BloodGlucose",
            "insulin_delivery": "InsulinDelivery",
        ].mapValues { "HKQuantityTypeIdentifier" + $0 }
        let dietary = [
            "dietary_energy": "EnergyConsumed", "protein": "Protein", "carbohydrates": "Carbohydrates", "total_fat": "FatTotal",
            "saturated_fat": "FatSaturated", "monosaturated_fat": "FatMonounsaturated", "monounsaturated_fat": "FatMonounsaturated",
            "polyunsaturated_fat": "FatPolyunsaturated", "cholesterol": "Cholesterol", "fiber": "Fiber", "dietary_sugar": "Sugar",
            "sodium": "Sodium", "potassium": "Potassium", "calcium": "Calcium", "iron": "Iron", "magnesium": "Magnesium",
            "phosphorus": "Phosphorus", "zinc": "Zinc", "copper": "Copper", "manganese": "Manganese", "selenium": "Selenium",
            "iodine": "Iodine", "chloride": "Chloride", "chromium": "Chromium", "molybdenum": "Molybdenum", "vitamin_a": "VitaminA",
            "vitamin_c": "VitaminC", "vitamin_d": "VitaminD", "vitamin_e": "VitaminE", "vitamin_k": "VitaminK", "thiamin": "Thiamin",
            "riboflavin": "Riboflavin", "niacin": "Niacin", "pantothenic_acid": "PantothenicAcid", "vitamin_b6": "VitaminB6",
            "biotin": "Biotin", "folate": "Folate", "vitamin_b12": "VitaminB12",
        ]
        for (name, type) in dietary { types[name] = "HKQuantityTypeIdentifierDietary" + type }
        return types
    }()

    /// Metrics summed up per day, by their HealthKit types (names as the app spells them, with the other spellings
    /// real deliveries use).
    static let quantityTypes: [String: String] = [
        "step_count": "StepCount", "active_energy": "ActiveEnergyBurned", "basal_energy_burned": "BasalEnergyBurned",
        "resting_energy": "BasalEnergyBurned", "resting_heart_rate": "RestingHeartRate",
        "walking_heart_rate_average": "WalkingHeartRateAverage", "walking_heart_rate": "WalkingHeartRateAverage",
        "heart_rate_variability": "HeartRateVariabilitySDNN", "blood_oxygen_saturation": "OxygenSaturation",
        "respiratory_rate": "RespiratoryRate", "walking_running_distance": "DistanceWalkingRunning",
        "cycling_distance": "DistanceCycling", "swimming_distance": "DistanceSwimming", "wheelchair_distance": "DistanceWheelchair",
        "flights_climbed": "FlightsClimbed", "apple_exercise_time": "AppleExerciseTime", "apple_stand_time": "AppleStandTime",
        "apple_move_time": "AppleMoveTime", "vo2_max": "VO2Max", "vo2max": "VO2Max", "body_mass_index": "BodyMassIndex",
        "lean_body_mass": "LeanBodyMass", "height": "Height", "waist_circumference": "WaistCircumference",
        "time_in_daylight": "TimeInDaylight", "physical_effort": "PhysicalEffort",
        "environmental_audio_exposure": "EnvironmentalAudioExposure", "environmental_audio": "EnvironmentalAudioExposure",
        "headphone_audio_exposure": "HeadphoneAudioExposure", "headphone_audio": "HeadphoneAudioExposure",
        "walking_speed": "WalkingSpeed", "walking_step_length": "WalkingStepLength",
        "walking_asymmetry_percentage": "WalkingAsymmetryPercentage", "walking_double_support_percentage": "WalkingDoubleSupportPercentage",
        "stair_speed_up": "StairAscentSpeed", "stair_speed_down": "StairDescentSpeed",
        "six_minute_walking_test_distance": "SixMinuteWalkTestDistance", "cardio_recovery": "HeartRateRecoveryOneMinute",
        "apple_sleeping_wrist_temperature": "AppleSleepingWristTemperature", "body_temperature": "BodyTemperature",
        "basal_body_temperature": "BasalBodyTemperature", "dietary_water": "DietaryWater", "caffeine": "DietaryCaffeine",
        "dietary_caffeine": "DietaryCaffeine", "number_of_times_fallen": "NumberOfTimesFallen", "push_count": "PushCount",
        "swimming_stroke_count": "SwimmingStrokeCount", "uv_exposure": "UVExposure", "blood_alcohol_content": "BloodAlcoholContent",
        "peripheral_perfusion_index": "PeripheralPerfusionIndex", "electrodermal_activity": "ElectrodermalActivity",
        "forced_vital_capacity": "ForcedVitalCapacity", "inhaler_usage": "InhalerUsage",
    ].mapValues { "HKQuantityTypeIdentifier" + $0 }

    /// Sleep stages: an aggregated night's keys and a segment's `value`, with HealthKit's category values.
    static let sleepStages: [(key: String, value: String, category: String)] = [
        ("core", "Core", "AsleepCore"), ("deep", "Deep", "AsleepDeep"), ("rem", "REM", "AsleepREM"),
        ("asleep", "Asleep", "AsleepUnspecified"), ("awake", "Awake", "Awake"), ("inBed", "In Bed", "InBed"),
    ]
    static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"

    private static func read(
        _ point: [String: JSONValue], of kind: Metric, units: String, into delivery: inout HealthAutoExportDelivery,
        journal: inout JournalMapping
    ) throws(CinnError) {
        let source = (point["source"]?.string ?? "").split(separator: "|").first.map { String($0.prefix(200)) } ?? ""
        switch kind {
        case .journal(let type):
            let date = try self.date(point, "date")
            var record = HealthRecord(
                type: type, unit: units, value: try number(point, "qty").text, sourceName: source, start: date, end: date)
            record.bucket = ContentHash.of([type, date.text, source]).hex
            switch point["mealTime"]?.string {
            case "Before Meal": record.mealTime = "1"
            case "After Meal": record.mealTime = "2"
            default: break
            }
            if type.hasSuffix("InsulinDelivery") {
                switch point["reason"]?.string?.lowercased() {
                case "basal": record.insulinReason = "1"
                case "bolus": record.insulinReason = "2"
                case let other?: throw .invalid("reason", "insulin is delivered as Bolus or Basal, not \"\(other)\"")
                case nil: throw .invalid("reason", "insulin delivery needs its reason, Bolus or Basal")
                }
            }
            do {
                try record.map(
                    HealthRecord.Kind(type), into: &delivery.records, food: &journal.food, days: &journal.days,
                    skipped: &journal.skipped, memo: &journal.memo)
            } catch let error as CinnError {
                // The value is the point's qty; the unit is the metric's units.
                throw error.field == "value"
                    ? CinnError.invalid("qty", error.message) : error.field == "unit" ? CinnError.invalid("units", error.message) : error
            } catch {
                throw .invalid("qty", "\(error)")
            }
        case .quantity(let type):
            let date = try self.date(point, "date")
            var value = try number(point, "qty").double
            var unit = units
            if unit == "%" {
                // HealthKit keeps a percentage as a fraction; Health Auto Export sends it from 0 to 100.
                value /= 100
            } else {
                let conversion = HealthDayCollector.conversion(unit: unit, type: type)
                value *= conversion.factor
                unit = conversion.kept
            }
            delivery.samples.append(
                HealthSample(
                    type: type, unit: unit, start: date.date, end: date.date, day: date.day, source: source,
                    value: try HealthSample.validatedValue(value, field: "qty")))
        case .heartRate(let type):
            let date = try self.date(point, "date")
            let average = try point["Avg"] != nil ? number(point, "Avg").double : number(point, "qty").double
            let minimum = try point["Min"] != nil ? number(point, "Min").double : average
            let maximum = try point["Max"] != nil ? number(point, "Max").double : average
            guard minimum <= average, average <= maximum else {
                throw .invalid("Avg", "the average \(average) is not between Min \(minimum) and Max \(maximum)")
            }
            _ = try HealthSample.validatedValue(minimum, field: "Min")
            _ = try HealthSample.validatedValue(maximum, field: "Max")
            delivery.samples.append(
                HealthSample(
                    type: type, unit: "count/min", start: date.date, end: date.date, day: date.day, source: source,
                    value: average, minimum: minimum, maximum: maximum))
        case .bloodPressure:
            let date = try self.date(point, "date")
            for (key, type) in [("systolic", "BloodPressureSystolic"), ("diastolic", "BloodPressureDiastolic")] {
                delivery.samples.append(
                    HealthSample(
                        type: "HKQuantityTypeIdentifier" + type, unit: "mmHg", start: date.date, end: date.date,
                        day: date.day, source: source, value: try HealthSample.validatedValue(number(point, key).double, field: key)))
            }
        case .minutes(let type):
            let date = try self.date(point, "date")
            let minutes = try minutes(try number(point, "qty").double, units)
            delivery.samples.append(
                HealthSample(type: type, unit: "min", start: date.date, end: date.date, day: date.day, source: source, value: minutes))
        case .sleep:
            try sleep(point, units: units, source: source, into: &delivery)
        }
    }

    private static func sleep(_ point: [String: JSONValue], units: String, source: String, into delivery: inout HealthAutoExportDelivery)
        throws(CinnError)
    {
        if point["startDate"] != nil {
            // One stage's span (the automation's "Summarize Data" off).
            let start = try date(point, "startDate"), end = try date(point, "endDate")
            guard end.milliseconds >= start.milliseconds else { throw .invalid("endDate", "a sleep stage ends after it starts") }
            let value = point["value"]?.string ?? ""
            guard
                let stage = sleepStages.first(where: { $0.value.caseInsensitiveCompare(value) == .orderedSame })
                    ?? (value == "Unspecified" ? sleepStages[3] : nil)
            else {
                throw .invalid("value", "a sleep stage is Core, Deep, REM, Asleep, Awake or In Bed, not \"\(value)\"")
            }
            let minutes =
                point["qty"] != nil
                ? try minutes(try number(point, "qty").double, units) : Double(end.milliseconds - start.milliseconds) / 60_000
            delivery.samples.append(
                HealthSample(
                    type: sleepType, category: "HKCategoryValueSleepAnalysis" + stage.category, unit: "min",
                    start: start.date, end: end.date, day: start.day, source: source, value: minutes))
            return
        }
        // A night (the automation's "Summarize Data" on): hours by stage, counted on the day it ends (`date`).
        let night = try date(point, "date")
        let start = point["sleepStart"] != nil ? try date(point, "sleepStart") : night
        let end = point["sleepEnd"] != nil ? try date(point, "sleepEnd") : night
        for stage in sleepStages where point[stage.key] != nil {
            let minutes = try minutes(try number(point, stage.key).double, units)
            guard minutes > 0 else { continue }
            delivery.samples.append(
                HealthSample(
                    type: sleepType, category: "HKCategoryValueSleepAnalysis" + stage.category, unit: "min",
                    start: start.date, end: end.date, day: night.day, source: source, value: minutes))
        }
    }

    private static func minutes(_ value: Double, _ units: String) throws(CinnError) -> Double {
        guard let seconds = HealthUnit.seconds(value, units.isEmpty ? "hr" : units) else {
            throw .invalid("units", "a duration in hr, min or s, not \"\(units)\"")
        }
        guard seconds >= 0, seconds <= 86_400 else { throw .invalid("qty", "\(value) \(units) is not a span within a day") }
        return seconds / 60
    }

    static func number(_ point: [String: JSONValue], _ key: String) throws(CinnError) -> JSONNumber {
        switch point[key] {
        case .number(let number)? where number.double.isFinite: return number
        case .string(let text)?:
            if let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite { return JSONNumber(value) }
            throw .invalid(key, "\"\(text)\" is not a number")
        case nil, .null?: throw .invalid(key, "the point has no \(key)")
        default: throw .invalid(key, "\(key) is a number")
        }
    }

    static func date(_ point: [String: JSONValue], _ key: String) throws(CinnError) -> HealthDate {
        guard let text = point[key]?.string else { throw .invalid(key, "the point needs its \(key), such as 2024-06-01 07:00:00 -0700") }
        guard let date = HealthDate(healthAutoExport: text) else {
            throw .invalid(key, "\"\(text)\" is not a time such as 2024-06-01 07:00:00 -0700")
        }
        guard ValidValues.years.contains(date.day.year) else { throw .invalid(key, "\(key) must be a time from 1900 to 2199") }
        return date
    }

    /// A workout: version 2's `id`, `name`, `start`, `end`, `duration` (seconds), `distance` and `activeEnergyBurned`;
    /// version 1's `activeEnergy` and no id (its name and start are its identity).
    static func workout(_ value: JSONValue) throws(CinnError) -> ImportedHealthWorkout {
        guard case .object(let fields) = value else { throw .invalid("", "a workout is an object with name, start and end") }
        guard let name = fields["name"]?.string?.trimmingCharacters(in: .whitespaces), !name.isEmpty else {
            throw .invalid("name", "a workout needs its name")
        }
        let start = try date(fields, "start"), end = try date(fields, "end")
        guard end.milliseconds >= start.milliseconds else { throw .invalid("end", "a workout ends after it starts") }
        var duration = Double(end.milliseconds - start.milliseconds) / 1000
        if fields["duration"] != nil {
            duration = try number(fields, "duration").double
            guard ValidValues.workoutDurationSeconds.contains(duration) else {
                throw .invalid("duration", "\(duration) s is not a workout's length")
            }
        }
        func quantity(_ key: String) throws(CinnError) -> (value: Double, units: String)? {
            guard case .object(let quantity)? = fields[key] else { return nil }
            return (try number(quantity, "qty").double, quantity["units"]?.string ?? "")
        }
        var distance: Double?
        if let sent = try quantity("distance") {
            guard let meters = HealthUnit.meters(sent.value, sent.units), meters >= 0 else {
                throw .invalid("distance.units", "a distance in km, mi, m, yd or ft, not \"\(sent.units)\"")
            }
            distance = meters
        }
        var energy: Double?
        var sentEnergy = try quantity("activeEnergyBurned")
        if sentEnergy == nil { sentEnergy = try quantity("activeEnergy") }
        if let sent = sentEnergy {
            guard let kilocalories = HealthUnit.kilocalories(sent.value, sent.units), kilocalories >= 0 else {
                throw .invalid("activeEnergyBurned.units", "energy in kcal or kJ, not \"\(sent.units)\"")
            }
            energy = kilocalories
        }
        let identity = fields["id"]?.string.map { $0.lowercased() } ?? ContentHash.of([name, start.text]).hex
        return try ImportedHealthWorkout(
            startedAt: start.date, utcOffsetSeconds: start.utcOffsetSeconds, name: String(name.prefix(200)),
            durationSeconds: duration, distanceMeters: distance, energyKcal: energy,
            externalID: "hae-workout:" + identity
        ).validated(distanceField: "distance.qty", energyField: "activeEnergyBurned.qty")
    }
}

extension HealthDate {
    /// A time as Health Auto Export writes it, `2024-06-01 07:00:00 -0700`; also its 12-hour form (`2024-06-01 7:00:00 pm
    /// -0700`, with the narrow no-break space iOS puts before am and pm) and a day alone (`2024-06-01`, at midnight UTC).
    init?(healthAutoExport text: String) {
        let parts = text.replacingOccurrences(of: "\u{202F}", with: " ").replacingOccurrences(of: "\u{00A0}", with: " ")
            .split(separator: " ", omittingEmptySubsequences: true)
        guard let day = parts.first.flatMap({ LocalDate(iso: String($0)) }) else { return nil }
        guard parts.count > 1 else {
            self.init(milliseconds: Int64(day.dayNumber) * 86_400_000, utcOffsetSeconds: 0)
            return
        }
        var rest = parts.dropFirst()
        let clock = rest.removeFirst().split(separator: ":")
        var meridiem: String?
        if let next = rest.first, ["am", "pm"].contains(next.lowercased()) {
            meridiem = next.lowercased()
            rest.removeFirst()
        }
        guard clock.count == 3 || clock.count == 2, let offsetText = rest.first, rest.count == 1,
            var hour = Int(clock[0]), let minute = Int(clock[1]), let second = clock.count == 3 ? Int(clock[2]) : 0,
            (0..<60).contains(minute), (0...60).contains(second)
        else { return nil }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
        }
        guard (0..<24).contains(hour), offsetText.count == 5, let sign = offsetText.first, sign == "+" || sign == "-",
            let hours = Int(offsetText.dropFirst().prefix(2)), let minutes = Int(offsetText.suffix(2)), hours <= 18, minutes < 60
        else { return nil }
        let offset = (hours * 3600 + minutes * 60) * (sign == "-" ? -1 : 1)
        let local = Int64(day.dayNumber) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        self.init(milliseconds: (local - Int64(offset)) * 1000, utcOffsetSeconds: offset)
    }

    /// The local day in the offset it was written in.
    var day: LocalDate { LocalDate(instant: date, utcOffsetSeconds: utcOffsetSeconds) }
}
