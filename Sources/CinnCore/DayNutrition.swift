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
    /// The day's calorie target in kcal, if the user set one.
    public var energyTarget: Double?

    /// Groups `entries` (of one day) by meal, each meal in time order.
    public init(date: LocalDate, entries: [FoodLogEntry], energyTarget: Double?) {
        self.date = date
        self.energyTarget = energyTarget
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

    public var energy: Double { totals.energy ?? 0 }

    /// Target minus eaten, in kcal; negative when over.
    public var energyRemaining: Double? { energyTarget.map { $0 - energy } }
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
            let start = LocalDate(year: date.year, month: date.month, day: 1)!
            let next = date.month == 12 ? LocalDate(year: date.year + 1, month: 1, day: 1)! : LocalDate(year: date.year, month: date.month + 1, day: 1)!
            return (start, next.adding(days: -1))
        }
    }

    /// Groups daily totals into periods, oldest first. Days with no entries are simply absent
    /// from `days`; they count neither as logged nor as zero.
    public static func periods(of days: [(date: LocalDate, totals: Nutrients)], length: Length) -> [NutritionPeriod] {
        var periods: [LocalDate: NutritionPeriod] = [:]
        for day in days {
            let (start, end) = bounds(of: day.date, length: length)
            periods[start, default: NutritionPeriod(length: length, start: start, end: end, daysLogged: 0, totals: Nutrients())]
                .add(day.totals)
        }
        return periods.values.sorted { $0.start < $1.start }
    }

    private mutating func add(_ dayTotals: Nutrients) {
        daysLogged += 1
        totals += dayTotals
    }
}
