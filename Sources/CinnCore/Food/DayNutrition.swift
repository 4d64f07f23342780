import Foundation

/// A day of the food log: entries by meal, the day's totals and what is left of the calorie target.
public struct DayNutrition: Sendable, Hashable {
    public struct MealGroup: Sendable, Hashable {
        public var meal: Meal
        public var entries: [FoodLogEntry]
        public var totals: Nutrients
    }

    public var date: LocalDate
    /// Meals in the order of a day; the usual four are always present, empty or not.
    public var meals: [MealGroup]
    public var totals: Nutrients
    /// The day's calorie target in kcal: the user's own or the one computed from the profile.
    public var energyTargetKcal: Double?
    /// Calories to maintain the current weight, when the profile (or the adaptive estimate) gives one.
    public var maintenanceKcal: Double?
    /// Energy of the day's exercise entries (imported from MyFitnessPal), when any say.
    public var exerciseKcal: Double?
    /// The day's nutrition goals (`NutrientTargets.goals`): the macro targets and the nutrients' bounds.
    public var goals: [NutrientGoal] = []
    /// How a calorie target following the data moved in the day's week, when it did.
    public var targetChange: TargetChange?

    /// Groups `entries` (of one day) by meal, each meal in time order.
    public init(
        date: LocalDate, entries: [FoodLogEntry], energyTargetKcal: Double?, maintenanceKcal: Double? = nil,
        exerciseKcal: Double? = nil
    ) {
        self.date = date
        self.energyTargetKcal = energyTargetKcal
        self.maintenanceKcal = maintenanceKcal
        self.exerciseKcal = exerciseKcal
        var byMeal: [Meal: [FoodLogEntry]] = [:]
        for entry in entries { byMeal[entry.meal, default: []].append(entry) }
        for meal in Meal.standard where byMeal[meal] == nil { byMeal[meal] = [] }
        meals = byMeal.keys.sorted().map { meal in
            let entries = byMeal[meal]!.sorted { ($0.eatenAt, $0.id.uuidString) < ($1.eatenAt, $1.id.uuidString) }
            return MealGroup(meal: meal, entries: entries, totals: entries.reduce(into: Nutrients()) { $0 += $1.nutrients })
        }
        totals = meals.reduce(into: Nutrients()) { $0 += $1.totals }
    }

    public var entries: [FoodLogEntry] { meals.flatMap(\.entries) }

    /// Eaten, in kcal.
    public var energy: Double { totals.energy ?? 0 }

    /// Each goal with the day's amount of its nutrient (0 when nothing logged says) and how it stands.
    public var progress: [(goal: NutrientGoal, amount: Double, standing: NutrientGoal.Standing)] {
        goals.map { goal in
            let amount = totals[goal.nutrient] ?? 0
            return (goal, amount, goal.standing(amount))
        }
    }

    /// Target minus eaten, in kcal; negative when over.
    public var energyRemainingKcal: Double? { energyTargetKcal.map { $0 - energy } }

    /// What is left as pages show it, in `unit` (`EnergyUnit.remaining`); nil without a target.
    public func energyRemaining(in unit: EnergyUnit) -> Int? {
        energyTargetKcal.map { unit.remaining(targetKcal: $0, eatenKcal: energy) }
    }
}

/// Totals and averages of the food log over a day, week or month.
public struct NutritionPeriod: Sendable, Hashable {
    public enum Length: String, Sendable, CaseIterable, Codable {
        case day, week, month
    }

    public var length: Length
    public var start: LocalDate
    /// The last day of the period (inclusive).
    public var end: LocalDate
    /// Days with at least one entry.
    public var daysLogged: Int
    public var totals: Nutrients

    /// The mean of each nutrient over the logged days, nil when none was logged.
    public var dailyAverage: Nutrients? {
        daysLogged == 0 ? nil : totals.scaled(by: 1 / Double(daysLogged))
    }

    /// The period `date` falls in: the day, its week (Monday to Sunday, ISO 8601) or its calendar month.
    public static func bounds(of date: LocalDate, length: Length) -> (start: LocalDate, end: LocalDate) {
        switch length {
        case .day:
            return (date, date)
        case .week:
            let start = date.adding(days: 1 - date.weekday)
            return (start, start.adding(days: 6))
        case .month:
            // Day arithmetic, not `LocalDate(year:month:day:)!`, which traps past 9999-12 (and before year 1).
            let (year, month, day) = date.parts
            let start = date.adding(days: 1 - day)
            return (start, start.adding(days: LocalDate.daysIn(month: month, year: year) - 1))
        }
    }

    /// Groups daily totals into periods, oldest first. Days with no entries are simply absent
    /// from `days`; they count neither as logged nor as zero.
    public static func periods(of days: [(date: LocalDate, totals: Nutrients)], length: Length) -> [NutritionPeriod] {
        var periods: [LocalDate: NutritionPeriod] = [:]
        var seen: Set<LocalDate> = []
        for day in days {
            let (start, end) = bounds(of: day.date, length: length)
            // A date given twice (say, totals per UTC offset) is one logged day, not two.
            let isNewDay = seen.insert(day.date).inserted
            periods[start, default: NutritionPeriod(length: length, start: start, end: end, daysLogged: 0, totals: Nutrients())]
                .add(day.totals, isNewDay: isNewDay)
        }
        return periods.values.sorted { $0.start < $1.start }
    }

    private mutating func add(_ dayTotals: Nutrients, isNewDay: Bool) {
        if isNewDay { daysLogged += 1 }
        totals += dayTotals
    }
}
