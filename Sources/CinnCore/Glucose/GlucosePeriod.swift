import Foundation

/// A meal event with its meal and how glucose answered it (nil without readings around it).
public struct MealEventResponse: Sendable {
    public var event: MealEvent
    public var meal: MealDefinition?
    public var response: MealResponse?

    public init(event: MealEvent, meal: MealDefinition?, response: MealResponse?) {
        self.event = event
        self.meal = meal
        self.response = response
    }
}

/// What a glucose report or a day is made from: readings and doses a little around the period (a meal late on
/// the last day has its response after midnight), and the period's meal events with their meals.
public struct GlucoseRecords: Sendable {
    /// Readings in time order, from `MealResponse.baselineBefore` before the period to `peakWindow` after it.
    public var points: [GlucosePoint]
    public var doses: [InsulinDose]
    public var events: [MealEvent]
    public var meals: [MealDefinition]

    public init(points: [GlucosePoint], doses: [InsulinDose], events: [MealEvent], meals: [MealDefinition]) {
        self.points = points
        self.doses = doses
        self.events = events
        self.meals = meals
    }

    /// Each meal event with its meal and its response.
    public var responses: [MealEventResponse] {
        let definitions = Dictionary(meals.map { ($0.id, $0) }) { first, _ in first }
        return events.map { event in
            MealEventResponse(
                event: event, meal: definitions[event.mealID], response: MealResponse.around(event, points: points, doses: doses))
        }
    }
}

extension MealResponse {
    /// A meal event's response from `points` in time order, read around the meal only: a month of CGM is
    /// thousands of readings, a response needs a few dozen.
    public static func around(_ event: MealEvent, points: [GlucosePoint], doses: [InsulinDose]) -> MealResponse? {
        let from = firstIndex(in: points, notBefore: event.eatenAt.addingTimeInterval(-baselineBefore))
        let to = firstIndex(in: points, notBefore: event.eatenAt.addingTimeInterval(peakWindow + 1))
        return compute(eatenAt: event.eatenAt, readings: Array(points[from..<to]), doses: doses)
    }

    /// The index of the first point at or after `instant` in points in time order (binary search).
    static func firstIndex(in points: [GlucosePoint], notBefore instant: Date) -> Int {
        var low = 0, high = points.count
        while low < high {
            let middle = (low + high) / 2
            if points[middle].at < instant { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// A period's glucose report: the consensus metrics, each day, the meal events' responses, and the
/// rankings by meal and by food.
public struct GlucoseReport: Sendable {
    public var from: LocalDate
    public var to: LocalDate
    public var unit: GlucoseUnit
    public var statistics: GlucoseStatistics
    /// Whether the period's readings support the consensus metrics.
    public var coverage: GlucoseCoverage
    public var days: [Day]
    public var events: [MealEventResponse]
    public var byMeal: [ResponseRanking]
    public var byFood: [ResponseRanking]
    public var bolusUnits: Double
    public var basalUnits: Double

    public struct Day: Sendable {
        public var date: LocalDate
        public var statistics: GlucoseStatistics
    }

    /// The report of local days `from...to`; `dayStart` gives the instant a local day starts at.
    public init(
        from first: LocalDate, to last: LocalDate, unit: GlucoseUnit, records: GlucoseRecords,
        dayStart: (LocalDate) -> Date
    ) {
        let start = dayStart(first), end = dayStart(last.adding(days: 1))
        let inPeriod = records.points.filter { $0.at >= start && $0.at < end }
        // Each day's readings, by walking the day boundaries along the readings (in time order).
        var byDay: [LocalDate: [Glucose]] = [:]
        var index = 0
        for offset in 0...first.distance(to: last) {
            let day = first.adding(days: offset), dayEnd = dayStart(day.adding(days: 1))
            while index < inPeriod.count, inPeriod[index].at < dayEnd {
                byDay[day, default: []].append(inPeriod[index].glucose)
                index += 1
            }
        }
        let events = records.responses
        let counted: [(meal: MealDefinition, event: MealEvent, response: MealResponse)] = events.compactMap { item in
            guard let response = item.response else { return nil }
            // A meal deleted since it was eaten is still a meal; one that became a preset ranks with the preset's meals.
            var meal = item.meal ?? MealDefinition(id: item.event.mealID, name: "Meal")
            if let preset = meal.presetID { meal.id = preset }
            return (meal, item.event, response)
        }
        let doses = records.doses.filter { $0.takenAt >= start && $0.takenAt < end }
        self.from = first
        self.to = last
        self.unit = unit
        statistics = GlucoseStatistics.compute(inPeriod.map(\.glucose))
        coverage = GlucoseCoverage(days: first.distance(to: last) + 1, daysWithReadings: byDay.count, readings: inPeriod.count)
        days = byDay.keys.sorted().map { Day(date: $0, statistics: GlucoseStatistics.compute(byDay[$0] ?? [])) }
        self.events = Array(events.reversed())
        byMeal = ResponseRanking.byMeal(counted)
        byFood = ResponseRanking.byFood(counted)
        bolusUnits = doses.filter { $0.kind == .bolus }.reduce(0.0) { $0 + $1.units }
        basalUnits = doses.filter { $0.kind == .basal }.reduce(0.0) { $0 + $1.units }
    }
}

/// One day of glucose, insulin and meals: what the day chart draws.
public struct GlucoseDay: Sendable {
    public var date: LocalDate
    public var unit: GlucoseUnit
    public var start: Date
    public var end: Date
    /// The offset the day's hours are shown in: the user's time zone's at the day's start.
    public var utcOffsetSeconds: Int
    public var readings: [GlucoseReading]
    public var doses: [InsulinDose]
    public var events: [MealEventResponse]
    public var statistics: GlucoseStatistics

    /// The day `date`, from `start` to `end`, with its `readings` in time order.
    public init(
        date: LocalDate, unit: GlucoseUnit, start: Date, end: Date, utcOffsetSeconds: Int, readings: [GlucoseReading],
        records: GlucoseRecords
    ) {
        self.date = date
        self.unit = unit
        self.start = start
        self.end = end
        self.utcOffsetSeconds = utcOffsetSeconds
        self.readings = readings
        doses = records.doses.filter { $0.takenAt >= start && $0.takenAt < end }
        events = records.responses
        statistics = .compute(readings.map(\.glucose))
    }
}
