import CinnCore
import Foundation

/// A `<Workout>` being read (docs/FORMATS.md §1.5): its attributes, then its children's time zone and statistics;
/// totals from `<WorkoutStatistics>` are preferred to the older `totalDistance`/`totalEnergyBurned` attributes.
struct HealthWorkoutBuilder {
    let activity: String
    let source: String
    let start: HealthDate
    let end: HealthDate
    let line: Int
    var durationSeconds: Double?
    var distanceMeters: Double?
    var energyKcal: Double?
    var statisticsDistance: Double?
    var statisticsEnergy: Double?
    var timeZone: String?

    init(_ tag: HealthXMLScanner.Tag) throws {
        guard let activity = tag.value("workoutActivityType") else {
            throw CinnError.invalid(
                "export.xml", "export.xml line \(tag.line), column \(tag.column): a <Workout> without its workoutActivityType")
        }
        let times = try HealthRecord.dates(tag)
        self.activity = activity
        source = tag.value("sourceName") ?? ""
        start = times.start
        end = times.end
        line = tag.line
        durationSeconds = Self.number(tag.value("duration")).flatMap { HealthUnit.seconds($0, tag.value("durationUnit") ?? "min") }
        distanceMeters = Self.number(tag.value("totalDistance")).flatMap { HealthUnit.meters($0, tag.value("totalDistanceUnit") ?? "m") }
        energyKcal = Self.number(tag.value("totalEnergyBurned")).flatMap {
            HealthUnit.kilocalories($0, tag.value("totalEnergyBurnedUnit") ?? "kcal")
        }
    }

    /// A `<WorkoutStatistics>` child: distances add up, active energy is the workout's energy.
    mutating func addStatistics(_ tag: HealthXMLScanner.Tag) {
        guard let type = tag.value("type"), let sum = Self.number(tag.value("sum")) else { return }
        let unit = tag.value("unit") ?? ""
        if type.hasPrefix("HKQuantityTypeIdentifierDistance"), let meters = HealthUnit.meters(sum, unit) {
            statisticsDistance = (statisticsDistance ?? 0) + meters
        } else if type == "HKQuantityTypeIdentifierActiveEnergyBurned", let kcal = HealthUnit.kilocalories(sum, unit) {
            statisticsEnergy = kcal
        }
    }

    /// "HKWorkoutActivityTypeTraditionalStrengthTraining" → "Traditional Strength Training".
    var name: String {
        let bare = activity.hasPrefix("HKWorkoutActivityType") ? String(activity.dropFirst("HKWorkoutActivityType".count)) : activity
        var words = ""
        for character in bare {
            if character.isUppercase, let last = words.last, !last.isUppercase, last != " " { words.append(" ") }
            words.append(character)
        }
        return words.isEmpty ? "Workout" : words
    }

    var workout: ImportedHealthWorkout {
        var offset = start.utcOffsetSeconds
        if let zone = timeZone.flatMap(TimeZone.init(identifier:)) { offset = zone.secondsFromGMT(for: start.date) }
        let hash = ContentHash.of(["HKWorkout", activity, start.text, end.text, source])
        return ImportedHealthWorkout(
            startedAt: start.date, utcOffsetSeconds: offset, name: name,
            durationSeconds: durationSeconds ?? Double(end.milliseconds - start.milliseconds) / 1000,
            distanceMeters: statisticsDistance ?? distanceMeters, energyKcal: statisticsEnergy ?? energyKcal,
            externalID: "apple:" + hash.hex)
    }

    static func number(_ text: String?) -> Double? {
        guard let text, let value = Double(text), value.isFinite, value >= 0 else { return nil }
        return value
    }
}

/// HKUnit spellings (docs/FORMATS.md §1.3) of the units Cinn reads from workouts, dietary energy and day summaries.
enum HealthUnit {
    static func seconds(_ value: Double, _ unit: String) -> Double? {
        switch unit {
        case "s": value
        case "min": value * 60
        case "hr", "h": value * 3600
        case "ms": value / 1000
        case "d": value * 86_400
        default: nil
        }
    }

    static func meters(_ value: Double, _ unit: String) -> Double? {
        switch unit {
        case "m": value
        case "km": value * 1000
        case "cm": value / 100
        case "mi": value * 1609.344
        case "yd": value * 0.9144
        case "ft": value * 0.3048
        case "in": value * 0.0254
        default: nil
        }
    }

    /// Energy in kilocalories, by HKUnit's spelling: `Cal` is a kilocalorie, `cal` a calorie.
    static func kilocalories(_ value: Double, _ unit: String) -> Double? {
        switch unit {
        case "kcal", "Cal": value
        case "kJ": Nutrient.kilocalories(kilojoules: value)
        case "cal": value / 1000
        default: nil
        }
    }
}
