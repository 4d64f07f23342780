import Foundation

/// Demo data for the glucose pages: a continuous glucose monitor's readings every five minutes answering the demo food
/// log's meals, a bolus before each meal and basal insulin at night. Each meal raises glucose by its carbohydrate, later
/// and longer with more fat, so the rankings have something to find. Deterministic for a seed.
public struct DemoGlucose: Sendable {
    public var readings: [GlucoseReading]
    public var doses: [InsulinDose]

    /// A meal's rise (mg/dL) and the minutes to its peak.
    struct Shape {
        let rise: Double
        let peakMinutes: Double
    }

    /// `days` ending with `last` (whole days), in a time zone `utcOffsetSeconds` from UTC, up to `now`; glucose answers
    /// the meals of the food log's `entries` (`DiaryMeals`).
    public static func make(
        days: Int, last: LocalDate, utcOffsetSeconds: Int, now: Date, entries: [FoodLogEntry],
        seed: UInt64 = 42
    ) -> DemoGlucose {
        var random = SplitMix64(seed: seed)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + (range.upperBound - range.lowerBound) * random.nextDouble()
        }
        var doses: [InsulinDose] = [], effects: [(at: Date, shape: Shape)] = []
        let first = last.adding(days: -(days - 1))
        func instant(_ day: LocalDate, _ minutes: Double) -> Date {
            LocalDateTime(date: day, secondsOfDay: minutes * 60, utcOffsetSeconds: utcOffsetSeconds).resolved(
                in: TimeZone(secondsFromGMT: utcOffsetSeconds)!
            ).instant
        }
        let start = instant(first, 0), end = min(instant(last.adding(days: 1), 0), now)
        let byID = Dictionary(entries.map { ($0.id, $0) }) { first, _ in first }
        for (event, _) in DiaryMeals.events(entries) where event.eatenAt >= start && event.eatenAt < end {
            let carbohydrate = event.carbohydrateGrams ?? 0
            let fat = event.entryIDs.compactMap { byID[$0]?.nutrients[.fat] }.reduce(0, +)
            // About 1.2 mg/dL a gram of carbohydrate; fat slows the meal down.
            effects.append((event.eatenAt, Shape(rise: carbohydrate * uniform(1.0...1.4), peakMinutes: min(120, 35 + fat * 1.5))))
            let bolus = (carbohydrate / 10 * 2).rounded() / 2
            let bolusAt = event.eatenAt.addingTimeInterval(-10 * 60)
            if bolus >= 0.5 {
                doses.append(
                    InsulinDose(
                        id: .v7(at: bolusAt), takenAt: bolusAt, utcOffsetSeconds: utcOffsetSeconds, units: bolus, kind: .bolus,
                        insulin: "Humalog", source: "demo"))
            }
        }
        for offset in 0..<days {
            let basalAt = instant(first.adding(days: offset), 22 * 60)
            if basalAt <= now {
                doses.append(
                    InsulinDose(
                        id: .v7(at: basalAt), takenAt: basalAt, utcOffsetSeconds: utcOffsetSeconds, units: 18, kind: .basal,
                        insulin: "Lantus", source: "demo"))
            }
        }
        var readings: [GlucoseReading] = []
        var drift = 0.0
        var at = start
        while at < end {
            let local = LocalDateTime(instant: at, utcOffsetSeconds: utcOffsetSeconds)
            let hour = local.secondsOfDay / 3600
            drift = drift * 0.97 + uniform(-2...2)
            // Dawn: up to +20 mg/dL between 4 and 8 o'clock.
            let dawn = hour >= 4 && hour < 8 ? 20 * sin((hour - 4) / 4 * .pi) : 0
            var mg = 105 + drift + dawn
            for effect in effects {
                let minutes = at.timeIntervalSince(effect.at) / 60
                guard minutes > 0, minutes < 300 else { continue }
                // A gamma-like curve: peaks at peakMinutes, back near the baseline after about three peak times.
                let t = minutes / effect.shape.peakMinutes
                mg += effect.shape.rise * t * t * exp(2 * (1 - t))
            }
            readings.append(
                GlucoseReading(
                    id: .v7(at: at), measuredAt: at, utcOffsetSeconds: utcOffsetSeconds,
                    glucose: Glucose(milligramsPerDeciliter: (max(45, mg + uniform(-3...3))).rounded()),
                    source: "demo", externalID: "demo:\(at.millisecondsSince1970 / 1000)", sensor: true))
            at = at.addingTimeInterval(300)
        }
        return DemoGlucose(readings: readings, doses: doses)
    }
}
