import CinnCore
import CinnImport
import CinnStore
import Foundation

/// A meal event with its meal and how glucose answered it (nil without readings around it).
public struct MealEventResponse: Sendable {
    public var event: MealEvent
    public var meal: MealDefinition?
    public var response: MealResponse?
}

/// A period's glucose report: the consensus metrics, each day, the meal events' responses, and the
/// rankings by meal and by food.
public struct GlucoseReport: Sendable {
    public var from: LocalDate
    public var to: LocalDate
    public var unit: GlucoseUnit
    public var statistics: GlucoseStatistics
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
}

extension Journal {
    /// Imports a Nightscout export (entries or treatments JSON): readings, insulin doses and carbohydrate
    /// (meal events of meals named by their food type), deduplicated by id and then by time, as one batch.
    public func importNightscout(at url: URL, fileName: String?, mode: ImportMode) async throws -> ImportReport {
        let settings = try await settings()
        return try await store.importGlucoseRecords(user: user, format: "nightscout", fileName: fileName ?? url.lastPathComponent,
                                                    mode: mode) { write in
            var carbs: [ImportedCarbs] = []
            let data = try await NightscoutParser.read(url: url, timeZone: settings.timeZone) { batch in
                try await write(batch.readings, batch.doses)
                carbs += batch.carbs.map { ImportedCarbs(at: $0.at, utcOffsetSeconds: $0.utcOffsetSeconds, grams: $0.grams, mealName: $0.name,
                                                         note: $0.note, externalID: $0.externalID) }
            }
            return (ImportReport(format: "nightscout", rowsRead: data.rowsRead, duplicates: data.duplicates, skipped: data.skipped,
                                 rejected: data.rejected, rejectedCount: data.rejectedCount), carbs)
        }
    }

    /// The instant a local day starts, in the user's time zone.
    package func dayStart(_ day: LocalDate, _ settings: UserSettings) -> Date {
        LocalDateTime(date: day, secondsOfDay: 0).resolved(in: settings.timeZone).instant
    }

    static func clean(_ text: String?) -> String? {
        let text = text?.trimmingCharacters(in: .whitespacesAndNewlines)
        return text?.isEmpty == false ? text : nil
    }

    /// Records a glucose reading as a person enters it (in their glucose unit unless `unit` says otherwise). Unless
    /// `confirm`, a value that looks like the other unit (`TypoGuard`) is refused with `needsConfirmation`.
    public func addGlucose(id: UUID? = nil, value: Double, unit: GlucoseUnit?, time: String?, timing: MealTiming?, note: String?,
                           confirm: Bool = false) async throws -> GlucoseReading {
        let settings = try await settings()
        if !confirm, let question = TypoGuard.glucose(value, unit ?? settings.glucoseUnit) { throw question }
        let glucose = try Glucose.validated(value, unit ?? settings.glucoseUnit, field: "value")
        let at = try readingTime(time, settings: settings, field: "time")
        let reading = GlucoseReading(id: id ?? .v7(at: now()), measuredAt: at.instant, utcOffsetSeconds: at.utcOffsetSeconds, glucose: glucose,
                                     timing: timing, note: try Note.validated(note))
        try await store.addGlucoseReadings([reading], user: user)
        return reading
    }

    public func addInsulin(id: UUID? = nil, units: Double, kind: InsulinKind, insulin: String?, time: String?, note: String?) async throws -> InsulinDose {
        let settings = try await settings()
        let at = try readingTime(time, settings: settings, field: "time")
        let dose = InsulinDose(id: id ?? .v7(at: now()), takenAt: at.instant, utcOffsetSeconds: at.utcOffsetSeconds,
                               units: try InsulinDose.validatedUnits(units), kind: kind, insulin: try Note.validated(insulin, field: "insulin", maximumLength: 100), note: try Note.validated(note))
        try await store.addInsulinDoses([dose], user: user)
        return dose
    }

    /// Makes a meal definition from a name, a kind, a carbohydrate estimate and foods of the journal (by id, in grams).
    public func addMeal(id: UUID? = nil, name: String, kind: MealKind, carbohydrateGrams: Double?, foods: [(id: UUID, grams: Double)],
                        note: String?) async throws -> MealDefinition {
        let checked = try MealDefinition.validated(name: name, carbohydrateGrams: carbohydrateGrams)
        var items: [MealFood] = []
        for (index, item) in foods.enumerated() {
            guard item.grams.isFinite, (0.1...5000).contains(item.grams) else {
                throw CinnError.invalid("foods[\(index)].grams", "a food's amount is between 0.1 and 5000 g")
            }
            let food: Food
            do {
                food = try await store.food(id: item.id, user: user)
            } catch let error as CinnError where error.code == .notFound {
                throw CinnError.invalid("foods[\(index)].food_id", "no food with id \(item.id)")
            }
            items.append(MealFood(foodID: item.id, name: food.name, grams: item.grams))
        }
        guard checked.carbohydrateGrams != nil || !items.isEmpty else {
            throw CinnError.invalid("carbohydrate_g", "give the meal's foods or its carbohydrate estimate")
        }
        let meal = MealDefinition(id: id ?? .v7(at: now()), name: checked.name, kind: kind, carbohydrateGrams: checked.carbohydrateGrams,
                                  foods: items, note: try Note.validated(note))
        try await store.addMeal(meal, user: user)
        return meal
    }

    /// Logs that a meal was eaten.
    public func logMeal(id: UUID? = nil, mealID: UUID, time: String?, portion: Double?, carbohydrateGrams: Double?, note: String?) async throws -> MealEvent {
        let settings = try await settings()
        let at = try readingTime(time, settings: settings, field: "time")
        if let carbohydrateGrams, !(carbohydrateGrams.isFinite && (0...1000).contains(carbohydrateGrams)) {
            throw CinnError.invalid("carbohydrate_g", "a meal's carbohydrate is between 0 and 1000 g")
        }
        let event = MealEvent(id: id ?? .v7(at: now()), mealID: mealID, eatenAt: at.instant, utcOffsetSeconds: at.utcOffsetSeconds,
                              portion: try MealEvent.validatedPortion(portion ?? 1), carbohydrateGrams: carbohydrateGrams, note: try Note.validated(note))
        try await store.addMealEvent(event, user: user)
        return event
    }

    /// Reports a meal event with a reason (1–200 characters), or clears the report with nil.
    public func reportMealEvent(id: UUID, reason: String?) async throws {
        if let reason {
            guard let clean = Self.clean(reason), clean.count <= 200 else { throw CinnError.invalid("reason", "a report's reason has 1 to 200 characters") }
            try await store.reportMealEvent(id: id, user: user, reason: clean)
        } else {
            try await store.reportMealEvent(id: id, user: user, reason: nil)
        }
    }

    /// The report of local days `from...to` (default: the 30 days to today).
    public func glucoseReport(days: Int = 30, to: LocalDate? = nil) async throws -> GlucoseReport {
        guard (1...366).contains(days) else { throw CinnError.invalid("days", "a report covers 1 to 366 days") }
        let settings = try await settings()
        let last = to ?? today(settings), first = last.adding(days: -(days - 1))
        let start = dayStart(first, settings), end = dayStart(last.adding(days: 1), settings)
        // Readings a little beyond the period: a meal late on the last day has its response after midnight.
        let (points, doses, meals) = try await records(from: start, to: end)
        let inPeriod = points.filter { $0.at >= start && $0.at < end }
        // Each day's readings, by walking the day boundaries along the readings (in time order).
        var byDay: [LocalDate: [Glucose]] = [:]
        var index = 0
        for offset in 0..<days {
            let day = first.adding(days: offset), dayEnd = dayStart(day.adding(days: 1), settings)
            while index < inPeriod.count, inPeriod[index].at < dayEnd {
                byDay[day, default: []].append(inPeriod[index].glucose)
                index += 1
            }
        }
        let events = responses(meals, points: points, doses: doses)
        let counted: [(meal: MealDefinition, event: MealEvent, response: MealResponse)] = events.compactMap { item in
            guard let response = item.response else { return nil }
            return (item.meal ?? Self.unknownMeal(item.event), item.event, response)
        }
        let periodDoses = doses.filter { $0.takenAt >= start && $0.takenAt < end }
        let dayReports = byDay.keys.sorted().map { GlucoseReport.Day(date: $0, statistics: GlucoseStatistics.compute(byDay[$0] ?? [])) }
        let bolus = periodDoses.filter { $0.kind == .bolus }.reduce(0.0) { $0 + $1.units }
        let basal = periodDoses.filter { $0.kind == .basal }.reduce(0.0) { $0 + $1.units }
        return GlucoseReport(from: first, to: last, unit: settings.glucoseUnit, statistics: GlucoseStatistics.compute(inPeriod.map(\.glucose)),
                             days: dayReports, events: Array(events.reversed()), byMeal: ResponseRanking.byMeal(counted),
                             byFood: ResponseRanking.byFood(counted), bolusUnits: bolus, basalUnits: basal)
    }

    /// One local day: its readings, doses and meal events with their responses.
    public func glucoseDay(_ date: LocalDate) async throws -> GlucoseDay {
        let settings = try await settings()
        let start = dayStart(date, settings), end = dayStart(date.adding(days: 1), settings)
        async let day = store.glucoseReadings(user: user, from: date, to: date, limit: 2000)
        let (points, doses, meals) = try await records(from: start, to: end)
        let readings = try await day.reversed()
        return GlucoseDay(date: date, unit: settings.glucoseUnit, start: start, end: end,
                          utcOffsetSeconds: settings.timeZone.secondsFromGMT(for: start), readings: Array(readings),
                          doses: doses.filter { $0.takenAt >= start && $0.takenAt < end },
                          events: responses(meals, points: points, doses: doses), statistics: .compute(readings.map(\.glucose)))
    }

    /// What a report of `start..<end` reads, concurrently (each query on a connection of its own): the readings
    /// and doses around the period, and its meal events with their meals.
    private func records(from start: Date, to end: Date) async throws
        -> (points: [GlucosePoint], doses: [InsulinDose], meals: (events: [MealEvent], definitions: [MealDefinition])) {
        async let points = store.glucosePoints(user: user, from: start.addingTimeInterval(-MealResponse.baselineBefore),
                                               to: end.addingTimeInterval(MealResponse.peakWindow))
        async let doses = store.insulinDoses(user: user, from: start.addingTimeInterval(-MealResponse.bolusBefore),
                                             to: end.addingTimeInterval(MealResponse.bolusAfter))
        async let events = store.mealEvents(user: user, from: start, to: end)
        async let definitions = store.mealsOfEvents(user: user, from: start, to: end)
        return (try await points, try await doses, (try await events, try await definitions))
    }

    private func responses(_ meals: (events: [MealEvent], definitions: [MealDefinition]), points: [GlucosePoint],
                           doses: [InsulinDose]) -> [MealEventResponse] {
        let definitions = Dictionary(meals.definitions.map { ($0.id, $0) }) { first, _ in first }
        return meals.events.map { event in
            MealEventResponse(event: event, meal: definitions[event.mealID], response: Self.response(to: event, points: points, doses: doses))
        }
    }

    /// A meal event's response from `points` in time order, read around the meal only: a month of CGM is
    /// thousands of readings, a response needs a few dozen.
    static func response(to event: MealEvent, points: [GlucosePoint], doses: [InsulinDose]) -> MealResponse? {
        let from = firstIndex(in: points, notBefore: event.eatenAt.addingTimeInterval(-MealResponse.baselineBefore))
        let to = firstIndex(in: points, notBefore: event.eatenAt.addingTimeInterval(MealResponse.peakWindow + 1))
        return MealResponse.compute(eatenAt: event.eatenAt, readings: Array(points[from..<to]), doses: doses)
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

    static func unknownMeal(_ event: MealEvent) -> MealDefinition {
        MealDefinition(id: event.mealID, name: "Meal")
    }
}
