import Foundation

/// Demo data for the glucose pages: a continuous glucose monitor's readings every five minutes, meals
/// from five definitions, a bolus before each meal and basal insulin at night. Each meal raises glucose
/// by its own amount and shape, so the rankings have something to find (pizza rises most and latest,
/// salad least). Deterministic for a seed.
public struct DemoGlucose: Sendable {
    public var meals: [MealDefinition]
    public var events: [MealEvent]
    public var readings: [GlucoseReading]
    public var doses: [InsulinDose]

    /// A meal's rise (mg/dL) and the minutes to its peak.
    struct Shape { let name: String; let carbs: Double; let rise: Double; let peakMinutes: Double }

    static let shapes = [
        Shape(name: "Porridge with berries", carbs: 45, rise: 55, peakMinutes: 45),
        Shape(name: "Ham sandwich", carbs: 40, rise: 45, peakMinutes: 40),
        Shape(name: "Chicken salad", carbs: 15, rise: 18, peakMinutes: 35),
        Shape(name: "Pasta bolognese", carbs: 70, rise: 80, peakMinutes: 60),
        Shape(name: "Pizza margherita", carbs: 85, rise: 95, peakMinutes: 95),
    ]

    /// `days` ending with `last` (whole days), in a time zone `utcOffsetSeconds` from UTC, up to `now`.
    public static func make(days: Int, last: LocalDate, utcOffsetSeconds: Int, now: Date, seed: UInt64 = 42) -> DemoGlucose {
        var random = SplitMix64(seed: seed)
        func uniform(_ range: ClosedRange<Double>) -> Double { range.lowerBound + (range.upperBound - range.lowerBound) * random.nextDouble() }
        let meals = shapes.map { MealDefinition(id: UUID.v7(at: Date(timeIntervalSince1970: 1_700_000_000 + Double(random.next() % 1_000_000))),
                                                name: $0.name, carbohydrateGrams: $0.carbs) }
        var events: [MealEvent] = [], doses: [InsulinDose] = [], effects: [(at: Date, shape: Shape)] = []
        let first = last.adding(days: -(days - 1))
        func instant(_ day: LocalDate, _ minutes: Double) -> Date {
            LocalDateTime(date: day, secondsOfDay: minutes * 60, utcOffsetSeconds: utcOffsetSeconds).resolved(in: TimeZone(secondsFromGMT: utcOffsetSeconds)!).instant
        }
        for offset in 0..<days {
            let day = first.adding(days: offset)
            let plan: [(minutes: Double, choices: [Int])] = [(450, [0, 1]), (750, [1, 2, 3]), (1140, [3, 4, 2])]
            for (minutes, choices) in plan {
                let index = choices[Int(random.next() % UInt64(choices.count))]
                let at = instant(day, minutes + uniform(-25...25))
                guard at <= now else { continue }
                let portion = [1.0, 1, 1, 0.5, 1.5][Int(random.next() % 5)]
                events.append(MealEvent(id: .v7(at: at), mealID: meals[index].id, eatenAt: at, utcOffsetSeconds: utcOffsetSeconds,
                                        portion: portion, source: "demo"))
                var shape = shapes[index]
                shape = Shape(name: shape.name, carbs: shape.carbs * portion, rise: shape.rise * portion * uniform(0.8...1.2), peakMinutes: shape.peakMinutes)
                effects.append((at, shape))
                let bolus = (shape.carbs / 10 * 2).rounded() / 2
                let bolusAt = at.addingTimeInterval(-10 * 60)
                if bolus >= 0.5 {
                    doses.append(InsulinDose(id: .v7(at: bolusAt), takenAt: bolusAt, utcOffsetSeconds: utcOffsetSeconds, units: bolus, kind: .bolus,
                                             insulin: "Humalog", source: "demo"))
                }
            }
            let basalAt = instant(day, 22 * 60)
            if basalAt <= now {
                doses.append(InsulinDose(id: .v7(at: basalAt), takenAt: basalAt, utcOffsetSeconds: utcOffsetSeconds, units: 18, kind: .basal,
                                         insulin: "Lantus", source: "demo"))
            }
        }
        var readings: [GlucoseReading] = []
        var drift = 0.0
        var at = instant(first, 0)
        let end = min(instant(last.adding(days: 1), 0), now)
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
            readings.append(GlucoseReading(id: .v7(at: at), measuredAt: at, utcOffsetSeconds: utcOffsetSeconds,
                                           glucose: Glucose(milligramsPerDeciliter: (max(45, mg + uniform(-3...3))).rounded()),
                                           source: "demo", externalID: "demo:\(Int(at.timeIntervalSince1970))"))
            at = at.addingTimeInterval(300)
        }
        return DemoGlucose(meals: meals, events: events, readings: readings, doses: doses)
    }
}
