import CinnCore
import CinnStore
import Foundation

/// One part of a meal about to be eaten: a food of the journal with its servings, or amounts as a quick add gives them.
public enum NomItem: Sendable, Hashable {
    case food(id: UUID, servings: Double, serving: String?)
    case amounts(QuickAdd, fiberGrams: Double?)
    /// A preset's foods, `times` over.
    case preset(id: UUID, times: Double)
}

/// Insulin and carbohydrate on board at an instant.
public struct OnBoard: Sendable, Equatable {
    public var insulinUnits: Double
    public var carbohydrateGrams: Double

    /// What `doses` and `carbs` leave on board at `instant`: by the person's insulin curve, and Loop's piecewise-linear
    /// absorption over its default time.
    init(at instant: Date, doses: [InsulinDose], carbs: [CarbEntry], model: ExponentialInsulinModel) {
        insulinUnits = model.unitsOnBoard(doses, at: instant)
        carbohydrateGrams = CarbAbsorption.piecewiseLinear.gramsOnBoard(carbs, at: instant)
    }
}

/// "Can I nom nom this?": what a meal about to be eaten leaves of the day's calories and does to the goal date, and
/// what it is expected to do to glucose from the person's own similar meals.
public struct NomAnswer: Sendable {
    public struct Energy: Sendable, Equatable {
        public var kcal: Double
        public var leftBefore: Double
        public var leftAfter: Double
        /// Days the goal date moves when the meal goes over the day's target: what it eats beyond the target over the
        /// planned daily deficit (later when losing, sooner when gaining); nil when it stays within the target or there
        /// is no goal to move.
        public var goalDateShiftDays: Double?
    }

    public var at: Date
    public var settings: UserSettings
    /// The meal's name, from its parts (with the foods already logged in it).
    public var name: String
    /// The whole meal's carbohydrate, the foods already logged in it too.
    public var carbohydrateGrams: Double
    /// The foods already logged in the meal being assembled, by name: the glucose part is about the whole meal.
    public var alreadyInTheMeal: [String] = []
    public var energy: Energy?
    public var forecast: MealForecast?
    /// Why there is no forecast, when there is none.
    public var glucoseReason: String?
    public var onBoard: OnBoard?
}

extension Journal {
    /// How far back the expectation looks for similar meals: insulin needs drift over months, and a bound keeps the work
    /// of one question small.
    public static let nomLookbackDays = 180
    /// A meal followed by another within this long is left out of the history: its peak is two meals'.
    static let nomQuietAfter: TimeInterval = 120 * 60

    /// What eating `items` at `time` (nil: now) with `bolusUnits` (nil: not said) would do (docs/glucose.md). With `meal`
    /// (a slot of the food log), what is already logged in that meal of the diary is part of it: the meal is being
    /// assembled, and glucose answers the whole of it.
    public func nom(_ items: [NomItem], time: String?, bolusUnits: Double?, meal slotName: String? = nil) async throws -> NomAnswer {
        guard !items.isEmpty else { throw CinnError.invalid("entries", "give at least one food or its amounts") }
        guard items.count <= 100 else { throw CinnError.invalid("entries", "at most 100 entries") }
        if let bolusUnits, !(bolusUnits.isFinite && (0...InsulinDose.unitsRange.upperBound).contains(bolusUnits)) {
            throw CinnError.invalid("bolus_units", "a bolus is between 0 and 100 units")
        }
        let settings = try await settings()
        let at = try readingTime(time, settings: settings, field: "at")
        let slot = try slotName.map { text in try Meal.parse(text, field: "meal") } ?? .snacks
        var entries: [FoodLogEntry] = []
        var fiberGiven = 0.0
        for (index, item) in items.enumerated() {
            let prefix = "entries[\(index)]."
            switch item {
            case .food(let id, let servings, let serving):
                let food: Food
                do { food = try await store.food(id: id, user: user) } catch let error as CinnError where error.code == .notFound {
                    throw CinnError.invalid(prefix + "food_id", "no food with id \(id)")
                }
                let choice = try servingChoice(serving, of: food, field: prefix + "serving")
                do {
                    entries.append(
                        try FoodLogEntry.logging(
                            food, servings: servings, of: choice, meal: slot, eatenAt: at.instant, utcOffsetSeconds: at.utcOffsetSeconds)
                    )
                } catch {
                    throw CinnError.invalid(prefix + (error.field ?? "servings"), error.message)
                }
            case .amounts(let quick, let fiber):
                entries.append(FoodLogEntry.logging(quick, meal: slot, eatenAt: at.instant, utcOffsetSeconds: at.utcOffsetSeconds))
                fiberGiven += fiber ?? 0
            case .preset(let id, let times):
                let preset = try await store.preset(id: id, user: user)
                do {
                    entries += try preset.entries(times: times, meal: slot, eatenAt: at.instant, utcOffsetSeconds: at.utcOffsetSeconds)
                } catch {
                    throw CinnError.invalid(prefix + (error.field ?? "times"), error.message)
                }
            }
        }
        let kcal = entries.reduce(0) { $0 + ($1.nutrients[.energy] ?? 0) }
        // The meal being assembled: the diary's meal the new entries would join (`DiaryMeals`), from the entries of the
        // slot logged in the gap before.
        guard let firstNew = entries.first else { throw CinnError.invalid("entries", "nothing to eat: the preset is empty") }
        var already: [FoodLogEntry] = []
        if slotName != nil {
            let logged = try await store.loggedFoodEntries(
                user: user, from: at.instant.addingTimeInterval(-DiaryMeals.gap), to: at.instant.addingTimeInterval(0.001)
            ).filter { $0.meal == slot && $0.eatenAt <= at.instant }
            let joined = DiaryMeals.events(logged + entries).first { $0.event.entryIDs.contains(firstNew.id) }
            let ids = Set(joined?.event.entryIDs ?? [])
            already = logged.filter { ids.contains($0.id) }
        }
        let whole = already + entries
        func total(_ nutrient: Nutrient) -> Double? {
            let values = whole.compactMap { $0.nutrients[nutrient] }
            return values.isEmpty ? nil : values.reduce(0, +)
        }
        let fiber = total(.fiber).map { $0 + fiberGiven } ?? (fiberGiven > 0 ? fiberGiven : nil)
        let names = whole.map(\.name).withoutRepeats()
        let start = already.map(\.eatenAt).min() ?? at.instant
        let meal = MealCircumstances(
            carbohydrateGrams: total(.carbohydrate) ?? 0, fiberGrams: fiber, fatGrams: total(.fat), proteinGrams: total(.protein),
            foods: Set(names.map { $0.lowercased() }),
            minuteOfDay: Double(LocalDateTime(instant: start, utcOffsetSeconds: at.utcOffsetSeconds).secondsOfDay) / 60,
            bolusUnits: bolusUnits)
        var answer = NomAnswer(
            at: at.instant, settings: settings, name: names.joined(separator: ", "), carbohydrateGrams: meal.carbohydrateGrams,
            energy: try await nomEnergy(kcal: kcal, on: LocalDate(instant: at.instant, utcOffsetSeconds: at.utcOffsetSeconds)))
        answer.alreadyInTheMeal = already.map(\.name).withoutRepeats()
        try await expectGlucose(meal, mealStart: start, asked: at.instant, settings: settings, into: &answer)
        return answer
    }

    /// The energy part: nil without a calorie target.
    private func nomEnergy(kcal: Double, on day: LocalDate) async throws -> NomAnswer.Energy? {
        let report = try await energyReport(asOf: day, historyDays: 0)
        guard let target = report.targetKcal else { return nil }
        let before = target - report.eatenKcal, after = before - kcal
        var shift: Double?
        let over = max(0, -after) - max(0, -before)
        if over > 0, report.goal != nil, let maintenance = report.maintenanceKcal {
            let deficit = maintenance - target
            if abs(deficit) >= 50 { shift = over / deficit }
        }
        return NomAnswer.Energy(kcal: kcal, leftBefore: before, leftAfter: after, goalDateShiftDays: shift)
    }

    /// The glucose part: the forecast for a meal started at `mealStart` from the meals of the lookback before it, and
    /// what is on board when `asked`.
    private func expectGlucose(
        _ candidate: MealCircumstances, mealStart at: Date, asked: Date, settings: UserSettings, into answer: inout NomAnswer
    ) async throws {
        let start = at.addingTimeInterval(-Double(Self.nomLookbackDays) * 86400)
        let model = settings.insulinModel
        let insulinReach = (model.delayMinutes + model.durationMinutes) * 60
        async let points = store.glucosePoints(user: user, from: start.addingTimeInterval(-MealResponse.baselineBefore), to: at)
        async let dosesRead = store.insulinDoses(user: user, from: start.addingTimeInterval(-insulinReach), to: asked)
        let (events, meals, entries) = try await mealRecords(from: start.addingTimeInterval(-4 * 3600), to: asked)
        let readings = try await points, given = try await dosesRead
        guard !readings.isEmpty else {
            answer.glucoseReason = "no glucose readings in the last \(Self.nomLookbackDays) days"
            return
        }
        let definitions = Dictionary(meals.map { ($0.id, $0) }) { first, _ in first }
        let carbs = Self.carbEntries(events, definitions).sorted { $0.eatenAt < $1.eatenAt }
        let carbTimes = carbs.map(\.eatenAt)
        let doses = given.sorted { $0.takenAt < $1.takenAt }
        let doseTimes = doses.map(\.takenAt)
        // Each past meal reads only the doses and meals that can touch it (two years hold thousands of each).
        let carbReach = (CarbAbsorption.delayMinutes + CarbAbsorption.defaultAbsorptionMinutes) * 60
        let onBoard = { (instant: Date, excluding: Date?) -> OnBoard in
            // Doses of the last half hour are the meal's bolus, not insulin on board.
            let earlier = Self.window(doses, doseTimes, from: instant - insulinReach, to: instant - MealResponse.bolusBefore)
            let eaten = Self.window(carbs, carbTimes, from: instant - carbReach, to: instant + 0.001).filter { $0.eatenAt != excluding }
            return OnBoard(at: instant, doses: Array(earlier), carbs: eaten, model: model)
        }
        var candidate = candidate
        // On board at the meal's start, the meal itself (a diary meal begun then) left out.
        let before = onBoard(at, at)
        answer.onBoard = OnBoard(at: asked, doses: given, carbs: carbs, model: model)
        candidate.insulinOnBoard = before.insulinUnits
        candidate.carbsOnBoard = before.carbohydrateGrams
        let recentBolus = given.filter { $0.kind == .bolus && at.timeIntervalSince($0.takenAt) <= MealResponse.bolusBefore }
            .reduce(0) { $0 + $1.units }
        if candidate.bolusUnits != nil || recentBolus > 0 { candidate.bolusUnits = (candidate.bolusUnits ?? 0) + recentBolus }
        (candidate.glucoseBefore, candidate.glucosePerMinute) = MealCircumstances.glucose(before: at, points: readings)

        let entryByID = Dictionary(entries.map { ($0.id, $0) }) { first, _ in first }
        var history: [PastMeal] = []
        for (index, event) in events.enumerated() where event.eatenAt >= start && !event.isReported {
            guard event.eatenAt.addingTimeInterval(MealResponse.peakWindow) <= at, let grams = Self.carbohydrate(of: event, definitions)
            else { continue }
            if let next = events[(index + 1)...].first(where: { ($0.carbohydrateGrams ?? 1) > 0 }),
                next.eatenAt.timeIntervalSince(event.eatenAt) < Self.nomQuietAfter
            {
                continue
            }
            let bolus = Self.window(
                doses, doseTimes, from: event.eatenAt - MealResponse.bolusBefore, to: event.eatenAt + MealResponse.bolusAfter + 0.001)
            guard let response = MealResponse.around(event, points: readings, doses: Array(bolus)), response.isComplete else { continue }
            let meal = definitions[event.mealID]
            let parts = event.entryIDs.compactMap { entryByID[$0] }
            func sum(_ nutrient: Nutrient) -> Double? {
                let values = parts.compactMap { $0.nutrients[nutrient] }
                return values.isEmpty ? nil : values.reduce(0, +)
            }
            let foods = parts.isEmpty ? (meal?.foods.map(\.name) ?? []) : parts.map(\.name)
            let glucose = MealCircumstances.glucose(before: event.eatenAt, points: readings)
            let board = onBoard(event.eatenAt, event.eatenAt)
            history.append(
                PastMeal(
                    eatenAt: event.eatenAt, name: meal?.name ?? "Meal",
                    circumstances: MealCircumstances(
                        carbohydrateGrams: grams, fiberGrams: sum(.fiber), fatGrams: sum(.fat), proteinGrams: sum(.protein),
                        foods: Set((foods.isEmpty ? [meal?.name ?? ""] : foods).map { $0.lowercased() }),
                        minuteOfDay: Double(LocalDateTime(instant: event.eatenAt, utcOffsetSeconds: event.utcOffsetSeconds).secondsOfDay)
                            / 60,
                        glucoseBefore: glucose.value, glucosePerMinute: glucose.perMinute, bolusUnits: response.bolusUnits,
                        insulinOnBoard: board.insulinUnits, carbsOnBoard: board.carbohydrateGrams),
                    riseMgPerDl: response.rise, minutesToPeak: response.minutesToPeak))
        }
        let forecast = MealPredictor.expect(candidate, history: history)
        answer.forecast = forecast
        if case .tooFewSimilarMeals(let found, let needed) = forecast {
            answer.glucoseReason = "\(found) similar meal\(found == 1 ? "" : "s") with readings so far; \(needed) are needed"
        }
    }

    /// Insulin and carbohydrate on board now, by the person's insulin curve and Loop's carb absorption.
    /// How far back the carbohydrate on board looks: the meals of the last four hours.
    static let carbsOnBoardSeconds: TimeInterval = 4 * 3600

    public func onBoard() async throws -> OnBoard {
        let settings = try await settings()
        let at = now()
        let model = settings.insulinModel
        let reach = (model.delayMinutes + model.durationMinutes) * 60
        let doses = try await store.insulinDoses(user: user, from: at.addingTimeInterval(-reach), to: at.addingTimeInterval(0.001))
        // Only the carbohydrate counts here: the meals are not named by their presets.
        let (events, meals, _) = try await mealRecords(
            from: at.addingTimeInterval(-Self.carbsOnBoardSeconds), to: at.addingTimeInterval(0.001), namedByPresets: false)
        let definitions = Dictionary(meals.map { ($0.id, $0) }) { first, _ in first }
        return OnBoard(at: at, doses: doses, carbs: Self.carbEntries(events, definitions), model: model)
    }

    /// The items of `sorted` (in time order, `times` their instants) from `from` up to, not including, `to`.
    static func window<Item>(_ sorted: [Item], _ times: [Date], from: Date, to: Date) -> ArraySlice<Item> {
        func first(notBefore instant: Date) -> Int {
            var low = 0, high = times.count
            while low < high {
                let middle = (low + high) / 2
                if times[middle] < instant { low = middle + 1 } else { high = middle }
            }
            return low
        }
        let lower = first(notBefore: from), upper = max(lower, first(notBefore: to))
        return sorted[lower..<upper]
    }

    /// A meal event's carbohydrate: counted for the event, else its meal's estimate times the portion.
    static func carbohydrate(of event: MealEvent, _ meals: [UUID: MealDefinition]) -> Double? {
        event.carbohydrateGrams ?? meals[event.mealID]?.carbohydrateGrams.map { $0 * event.portion }
    }

    static func carbEntries(_ events: [MealEvent], _ meals: [UUID: MealDefinition]) -> [CarbEntry] {
        events.compactMap { event in carbohydrate(of: event, meals).map { CarbEntry(eatenAt: event.eatenAt, grams: $0) } }
    }
}

extension NomAnswer {
    /// The energy part in a sentence: "Leaves 340 kcal." or "Puts you 230 kcal over; your goal date moves about a day
    /// later."; nil without a calorie target.
    public var energySentence: String? {
        guard let energy else { return nil }
        let unit = settings.energyUnit
        guard energy.leftAfter < 0 else { return "Leaves \(unit.format(kilocalories: energy.leftAfter)) of today's target." }
        var sentence = "Puts you \(unit.format(kilocalories: -energy.leftAfter)) over today's target"
        if let days = energy.goalDateShiftDays {
            let whole = abs(days).rounded()
            let moves =
                whole < 1
                ? "by less than a day" : "about \(whole == 1 ? "a day" : "\(whole.wholeText) days") \(days > 0 ? "later" : "sooner")"
            sentence += "; your goal date moves \(moves)"
        }
        return sentence + "."
    }

    /// The glucose part in sentences, in the person's unit: the expectation and the meals it rests on (their days
    /// written by `day`), or why there is none.
    public func glucoseSentences(day written: (LocalDate) -> String = \.iso) -> [String] {
        let unit = settings.glucoseUnit
        func rise(_ mgPerDl: Double) -> String {
            let text = Glucose(milligramsPerDeciliter: abs(mgPerDl)).formatted(unit, withUnit: false)
            return (mgPerDl < 0 ? "−" : "+") + text
        }
        guard case .expected(let expectation) = forecast else {
            return glucoseReason.map { ["Not sure yet about glucose: \($0)."] } ?? []
        }
        let zone = settings.timeZone
        // The most similar meals by name (two names at most), each with up to three of its rises and days.
        var names: [String] = []
        var seen: [String: [String]] = [:]
        for meal in expectation.basedOn {
            let day = LocalDate(instant: meal.eatenAt, utcOffsetSeconds: zone.secondsFromGMT(for: meal.eatenAt))
            if seen[meal.name] == nil {
                guard names.count < 2 else { continue }
                names.append(meal.name)
            }
            if seen[meal.name, default: []].count < 3 {
                seen[meal.name, default: []].append("\(rise(meal.riseMgPerDl)) on \(written(day))")
            }
        }
        let meals = names.map { "“\($0)” (\(seen[$0, default: []].joined(separator: ", ")))" }
        let whole = alreadyInTheMeal.isEmpty ? "" : "With \(alreadyInTheMeal.joined(separator: ", ")) already in this meal: "
        return [
            (whole.isEmpty ? "Expected" : whole + "expected")
                + " rise \(rise(expectation.riseMgPerDl)) \(unit.rawValue), 80 % likely between \(rise(expectation.lowMgPerDl)) and "
                + "\(rise(expectation.highMgPerDl)); peak after about \(expectation.minutesToPeak.wholeText) min.",
            "From \(expectation.similarMeals) similar meal\(expectation.similarMeals == 1 ? "" : "s") of yours, like "
                + meals.joined(separator: "; ") + ". An estimate from your own history, not advice.",
        ]
    }

    /// What is on board, in a sentence; nil without glucose readings.
    public var onBoardSentence: String? {
        onBoard.map { "On board: \(Mass.format($0.insulinUnits, upTo: 2)) U insulin, \($0.carbohydrateGrams.wholeText) g carbs." }
    }
}
