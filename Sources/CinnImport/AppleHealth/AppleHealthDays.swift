import CinnCore

/// Sums up the records that are not journal data (steps, heart rate, active energy, sleep…) per type and local
/// day (docs/FORMATS.md §1): count, sum, minimum and maximum. Energy is summed in kcal, distances in m, masses in
/// kg and heights in cm whatever unit each record has; a category sample counts its duration in minutes under
/// its value (asleep, in bed…).
struct HealthDayCollector {
    /// The days summed up, in the order they first came.
    private(set) var days: [HealthDaySummary] = []
    private var positions: [HealthDaySummary.Key: Int] = [:]
    /// The last day added to: an export lists a type's records in time order, so most records add to it.
    private var last: (key: HealthDaySummary.Key, position: Int)?
    /// The last type and unit read, with its `conversion`: a type's records come together.
    private var lastUnit: (type: String, unit: String, factor: Double, kept: String)?

    /// Adds a quantity record or, when `category`, a category sample.
    mutating func add(_ record: HealthRecord, category: Bool) throws {
        let day = LocalDate(instant: record.start.date, utcOffsetSeconds: record.utcOffsetSeconds)
        let key: HealthDaySummary.Key
        let amount: Double
        if category {
            key = HealthDaySummary.Key(type: record.type, category: record.value ?? "", unit: "min", day: day)
            amount = Double(max(record.end.milliseconds - record.start.milliseconds, 0)) / 60_000
        } else {
            guard let text = record.value, let value = Double(text), value.isFinite else {
                throw CinnError.invalid(
                    "value", "\(record.type) needs a number as its value, not \(record.value.map { "\"\($0)\"" } ?? "none")")
            }
            let unit = record.unit ?? ""
            let conversion: (factor: Double, kept: String)
            if let lastUnit, lastUnit.unit == unit, lastUnit.type == record.type {
                conversion = (lastUnit.factor, lastUnit.kept)
            } else {
                conversion = Self.conversion(unit: unit, type: record.type)
                lastUnit = (record.type, unit, conversion.factor, conversion.kept)
            }
            key = HealthDaySummary.Key(type: record.type, unit: conversion.kept, day: day)
            amount = try HealthSample.validatedValue(value * conversion.factor, field: "value")
        }
        if let last, last.key == key {
            days[last.position].add(amount)
        } else if let position = positions[key] {
            days[position].add(amount)
            last = (key, position)
        } else {
            positions[key] = days.count
            last = (key, days.count)
            days.append(HealthDaySummary(key: key, value: amount))
        }
    }

    /// The unit Cinn keeps a type's values in, so that a day's samples from sources writing different units add up,
    /// and the factor a value in `unit` is multiplied by to be in it.
    static func conversion(unit: String, type: String) -> (factor: Double, kept: String) {
        if let kcal = HealthUnit.kilocalories(1, unit) { return (kcal, "kcal") }
        if let meters = HealthUnit.meters(1, unit) {
            return type == HealthDataType.height.identifier ? (meters * 100, "cm") : (meters, "m")
        }
        if let mass = MassUnit(spelling: unit) { return (Mass(1, mass).kilograms, "kg") }
        return (1, unit)
    }
}
