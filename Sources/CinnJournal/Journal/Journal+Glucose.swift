import CinnCore
import CinnImport
import CinnStore
import Foundation

extension Journal {
    /// Imports a Nightscout export or `mongoexport` backup (entries or treatments) as one batch: readings, insulin doses,
    /// carbohydrate as food-log entries named by their food, and the treatments as sent, made as an uploader's are
    /// (docs/nightscout.md), so that the file and an uploader's resend make each record once.
    public func importNightscout(at url: URL, fileName: String?, mode: ImportMode) async throws -> ImportReport {
        let settings = try await settings()
        return try await store.importNightscout(user: user, fileName: fileName ?? url.lastPathComponent, mode: mode) { write in
            let data = try await NightscoutParser.read(url: url, timeZone: settings.timeZone) { batch in
                try await write(
                    NightscoutRecords(readings: batch.readings, doses: batch.doses, entries: batch.entries),
                    nightscoutDocuments(batch.documents, .treatments))
            }
            var report = ImportReport(
                format: "nightscout", rowsRead: data.rowsRead, skipped: data.skipped, rejected: data.rejected,
                rejectedCount: data.rejectedCount)
            report.repeatedInFile = data.duplicates
            return report
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
    public func addGlucose(
        id: UUID? = nil, value: Double, unit: GlucoseUnit?, time: String?, timing: MealTiming?, note: String?,
        confirm: Bool = false
    ) async throws -> GlucoseReading {
        let settings = try await settings()
        if !confirm, let question = TypoGuard.glucose(value, unit ?? settings.glucoseUnit) { throw question }
        let glucose = try Glucose.validated(value, unit ?? settings.glucoseUnit, field: "value")
        let at = try readingTime(time, settings: settings, field: "time")
        let reading = GlucoseReading(
            id: id ?? .v7(at: now()), measuredAt: at.instant, utcOffsetSeconds: at.utcOffsetSeconds, glucose: glucose,
            timing: timing, note: try Note.validated(note))
        try await store.addGlucoseReadings([reading], user: user)
        return reading
    }

    public func addInsulin(id: UUID? = nil, units: Double, kind: InsulinKind, insulin: String?, time: String?, note: String?) async throws
        -> InsulinDose
    {
        let settings = try await settings()
        let at = try readingTime(time, settings: settings, field: "time")
        let dose = InsulinDose(
            id: id ?? .v7(at: now()), takenAt: at.instant, utcOffsetSeconds: at.utcOffsetSeconds,
            units: try InsulinDose.validatedUnits(units), kind: kind,
            insulin: try Note.validated(insulin, field: "insulin", maximumLength: 100), note: try Note.validated(note))
        try await store.addInsulinDoses([dose], user: user)
        return dose
    }

    /// Makes a meal definition from a name, a kind, a carbohydrate estimate and foods of the journal (by id, in grams).
    public func addMeal(
        id: UUID? = nil, name: String, kind: MealKind, carbohydrateGrams: Double?, foods: [(id: UUID, grams: Double)],
        note: String?
    ) async throws -> MealDefinition {
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
        let meal = MealDefinition(
            id: id ?? .v7(at: now()), name: checked.name, kind: kind, carbohydrateGrams: checked.carbohydrateGrams,
            foods: items, note: try Note.validated(note))
        try await store.addMeal(meal, user: user)
        return meal
    }

    /// Logs that a meal was eaten.
    public func logMeal(id: UUID? = nil, mealID: UUID, time: String?, portion: Double?, carbohydrateGrams: Double?, note: String?)
        async throws -> MealEvent
    {
        let settings = try await settings()
        let at = try readingTime(time, settings: settings, field: "time")
        if let carbohydrateGrams, !(carbohydrateGrams.isFinite && (0...1000).contains(carbohydrateGrams)) {
            throw CinnError.invalid("carbohydrate_g", "a meal's carbohydrate is between 0 and 1000 g")
        }
        let event = MealEvent(
            id: id ?? .v7(at: now()), mealID: mealID, eatenAt: at.instant, utcOffsetSeconds: at.utcOffsetSeconds,
            portion: try MealEvent.validatedPortion(portion ?? 1), carbohydrateGrams: carbohydrateGrams, note: try Note.validated(note))
        try await store.addMealEvent(event, user: user)
        return event
    }

    /// What logging a meal by its name did: an everyday meal that became a preset went into the food log; any other
    /// meal was logged as a meal event.
    public enum MealLogged: Sendable {
        case foodLog(MealDefinition, [FoodLogEntry])
        case event(MealDefinition, MealEvent)
    }

    /// Logs the meal named `name` (any case) as eaten: into the food log when it became a preset, else as a meal event.
    public func logMeal(named name: String, time: String?, portion: Double?) async throws -> MealLogged {
        let meals = try await store.meals(user: user)
        guard let meal = meals.first(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) else {
            throw CinnError.invalid("name", "no meal named \(name); your meals: \(meals.map(\.name).joined(separator: ", "))")
        }
        if let preset = meal.presetID {
            return .foodLog(meal, try await logPreset(id: preset, times: portion ?? 1, meal: nil, time: time))
        }
        return .event(meal, try await logMeal(mealID: meal.id, time: time, portion: portion, carbohydrateGrams: nil, note: nil))
    }

    /// Reports a meal event with a reason (1–200 characters), or clears the report with nil.
    public func reportMealEvent(id: UUID, reason: String?) async throws {
        if let reason {
            guard let clean = Self.clean(reason), clean.count <= 200 else {
                throw CinnError.invalid("reason", "a report's reason has 1 to 200 characters")
            }
            try await store.reportMealEvent(id: id, user: user, reason: clean)
        } else {
            try await store.reportMealEvent(id: id, user: user, reason: nil)
        }
    }

    /// The report of local days `from...to` (default: the 30 days to today); `settings` when the caller has read them.
    public func glucoseReport(days: Int = 30, to: LocalDate? = nil, settings known: UserSettings? = nil) async throws -> GlucoseReport {
        guard (1...366).contains(days) else { throw CinnError.invalid("days", "a report covers 1 to 366 days") }
        let settings = if let known { known } else { try await settings() }
        let last = to ?? today(settings), first = last.adding(days: -(days - 1))
        // Kept while the journal is unchanged (`Store.computed`): a report is its records' alone, never the clock's.
        return try await store.computed("glucose-report", user: user, parameters: Self.parameters(first, last, settings)) {
            let records = try await records(from: dayStart(first, settings), to: dayStart(last.adding(days: 1), settings))
            return GlucoseReport(from: first, to: last, unit: settings.glucoseUnit, records: records) { dayStart($0, settings) }
        }
    }

    /// What a kept glucose report or profile depends on besides the journal's records: its days, and the settings
    /// that place and show them.
    static func parameters(_ first: LocalDate, _ last: LocalDate, _ settings: UserSettings) -> String {
        "\(first.iso) \(last.iso) \(settings.glucoseUnit.rawValue) \(settings.timeZone.identifier)"
    }

    /// The ambulatory glucose profile of the last `days` local days, today the last (7 to 90; the consensus asks for 14).
    public func glucoseProfile(days: Int = GlucoseCoverage.recommendedDays, to: LocalDate? = nil) async throws
        -> (profile: AmbulatoryGlucoseProfile, from: LocalDate, to: LocalDate, unit: GlucoseUnit)
    {
        guard (7...90).contains(days) else { throw CinnError.invalid("days", "a glucose profile covers 7 to 90 days") }
        let settings = try await settings()
        let last = to ?? today(settings), first = last.adding(days: -(days - 1))
        let profile = try await store.computed("glucose-profile", user: user, parameters: Self.parameters(first, last, settings)) {
            let readings = try await store.localGlucosePoints(
                user: user, from: dayStart(first, settings), to: dayStart(last.adding(days: 1), settings),
                limit: days * 1440)
            return AmbulatoryGlucoseProfile(readings: readings, days: days)
        }
        return (profile, first, last, settings.glucoseUnit)
    }

    /// One local day: its readings, doses and meal events with their responses.
    public func glucoseDay(_ date: LocalDate) async throws -> GlucoseDay {
        let settings = try await settings()
        let start = dayStart(date, settings), end = dayStart(date.adding(days: 1), settings)
        async let day = store.glucoseReadings(user: user, from: date, to: date, limit: 2000)
        let records = try await records(from: start, to: end)
        return GlucoseDay(
            date: date, unit: settings.glucoseUnit, start: start, end: end,
            utcOffsetSeconds: settings.timeZone.secondsFromGMT(for: start), readings: Array(try await day.reversed()),
            records: records)
    }

    /// What a report of `start..<end` reads, concurrently (each query on a connection of its own): the readings
    /// and doses around the period, and its meal events with their meals: those logged as meal events, and the food
    /// diary's meals.
    private func records(from start: Date, to end: Date) async throws -> GlucoseRecords {
        async let points = store.glucosePoints(
            user: user, from: start.addingTimeInterval(-MealResponse.baselineBefore),
            to: end.addingTimeInterval(MealResponse.peakWindow))
        async let doses = store.insulinDoses(
            user: user, from: start.addingTimeInterval(-MealResponse.bolusBefore),
            to: end.addingTimeInterval(MealResponse.bolusAfter))
        let (events, meals) = try await mealsEaten(from: start, to: end)
        return GlucoseRecords(points: try await points, doses: try await doses, events: events, meals: meals)
    }

    /// The meal events of `start..<end` in time order, with their meals: those logged as meal events, and the food
    /// diary's meals.
    func mealsEaten(from start: Date, to end: Date) async throws -> (events: [MealEvent], meals: [MealDefinition]) {
        let (events, meals, _) = try await mealRecords(from: start, to: end)
        return (events, meals)
    }

    /// `mealsEaten`, with the food-log entries the diary's meals were made of; `namedByPresets` false leaves the presets
    /// unread (a diary meal is then named by its foods), for what needs only when and how much.
    func mealRecords(from start: Date, to end: Date, namedByPresets: Bool = true) async throws
        -> (events: [MealEvent], meals: [MealDefinition], entries: [FoodLogEntry])
    {
        async let events = store.mealEvents(user: user, from: start, to: end, inFoodLog: false)
        async let definitions = store.mealsOfEvents(user: user, from: start, to: end)
        async let entries = store.loggedFoodEntries(user: user, from: start, to: end)
        let presets = namedByPresets ? try await store.presets(user: user) : []
        let logged = try await entries
        let diary = DiaryMeals.events(logged, presets: presets)
        return (
            (try await events + diary.map(\.event)).sorted { $0.eatenAt < $1.eatenAt }, try await definitions + diary.map(\.meal), logged
        )
    }
}
