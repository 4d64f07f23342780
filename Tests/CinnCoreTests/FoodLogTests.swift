import CinnCore
import Foundation
import Testing

/// The instant of a local wall-clock time on `date` at `utcOffsetSeconds`.
func instant(_ date: String, _ hour: Int, _ minute: Int, offset utcOffsetSeconds: Int = 0) -> Date {
    let local = day(date).dayNumber * 86_400 + hour * 3600 + minute * 60
    return Date(timeIntervalSince1970: Double(local - utcOffsetSeconds))
}

/// An entry of `energy` kcal (plus any `other` amounts) at a local time on 2024-03-09, UTC+1.
func loggedEntry(
    _ name: String, _ meal: Meal, at hour: Int, _ minute: Int = 0, energy: Double,
    other: [String: Double] = [:], id: UUID = .v7()
) throws -> FoodLogEntry {
    var amounts = other
    amounts["energy"] = energy
    return FoodLogEntry(
        id: id, foodID: nil, name: name, meal: meal, eatenAt: instant("2024-03-09", hour, minute, offset: 3600),
        utcOffsetSeconds: 3600, servings: 1, servingLabel: "1 serving", servingAmount: nil,
        nutrients: try Nutrients(keyed: amounts))
}

@Suite struct MealTests {
    @Test(arguments: [
        ("Breakfast", Meal.breakfast), ("  LUNCH ", .lunch), ("dinner", .dinner), ("snack", .snacks),
        ("Snacks", .snacks), ("SNACK", .snacks),
    ])
    func usualFourInAnyCase(_ text: String, _ meal: Meal) throws {
        #expect(try Meal.parse(text) == meal)
        #expect(try Meal.parse(text).isStandard)
    }

    @Test func customNamesKeepTheirSpelling() throws {
        let meal = try Meal.parse("  Pre-workout ")
        #expect(meal.name == "Pre-workout")
        #expect(meal.title == "Pre-workout")
        #expect(!meal.isStandard)
        #expect(try Meal.parse("Brunch") != Meal.parse("brunch"))
        #expect(try Meal.parse(String(repeating: "é", count: 40)).name.count == 40)
    }

    @Test(arguments: ["", "   ", "\n", String(repeating: "x", count: 41)])
    func emptyOrLongNamesAreRejected(_ text: String) {
        #expect(invalidField { try Meal.parse(text) } == "meal")
        #expect(invalidField { try Meal.parse(text, field: "entries[2].meal") } == "entries[2].meal")
    }

    @Test func titles() {
        #expect(Meal.standard.map(\.title) == ["Breakfast", "Lunch", "Dinner", "Snacks"])
        #expect(Meal.standard.map(\.description) == ["breakfast", "lunch", "dinner", "snacks"])
    }

    @Test func standardFourFirstThenCustomByName() throws {
        let meals = try ["tea", "snacks", "Brunch", "breakfast", "Dinner", "afternoon", "lunch", "Tea"].map { try Meal.parse($0) }
        #expect(meals.sorted().map(\.name) == ["breakfast", "lunch", "dinner", "snacks", "afternoon", "Brunch", "Tea", "tea"])
        #expect(Meal.breakfast < .lunch)
        #expect(!(Meal.snacks < .dinner))
        #expect(try Meal.snacks < Meal.parse("Aardvark hour"))
        #expect(!(Meal.lunch < .lunch))
    }

    static let usualMeals: [(seconds: Double, meal: Meal)] = [
        (0, .snacks), (4 * 3600 - 1, .snacks), (4 * 3600, .breakfast), (8 * 3600, .breakfast),
        (11 * 3600 - 1, .breakfast), (11 * 3600, .lunch), (15 * 3600 - 1, .lunch), (15 * 3600, .snacks),
        (17 * 3600 - 1, .snacks), (17 * 3600, .dinner), (21 * 3600 - 1, .dinner), (21 * 3600, .snacks),
        (86_399.9, .snacks), (86_400, .snacks), (86_400 + 8 * 3600, .breakfast), (-3600, .snacks),
        (-20 * 3600, .breakfast), (.nan, .snacks), (.infinity, .snacks),
    ]

    @Test(arguments: usualMeals)
    func usualMealAtTimeOfDay(_ seconds: Double, _ meal: Meal) {
        #expect(Meal.usual(atSecondsOfDay: seconds) == meal)
    }
}

@Suite struct FoodLogEntryTests {
    @Test func loggingSnapshotsScaledNutrients() throws {
        var food = try apple()
        food.brand = "Orchard"
        let eatenAt = instant("2024-03-09", 15, 30, offset: -5 * 3600)
        let entry = try FoodLogEntry.logging(
            food, servings: 1.5, of: food.servings[0], meal: .snacks, eatenAt: eatenAt,
            utcOffsetSeconds: -5 * 3600, note: "crisp")
        #expect(entry.foodID == food.id)
        #expect(entry.name == "Apple")
        #expect(entry.brand == "Orchard")
        #expect(entry.meal == .snacks)
        #expect(entry.servings == 1.5)
        #expect(entry.servingLabel == "1 medium (182 g)")
        #expect(entry.servingAmount == 182)
        #expect(entry.note == "crisp")
        #expect(entry.source == "manual")
        #expect(entry.energy.isClose(to: 141.96))
        #expect(try #require(entry.nutrients[.protein]).isClose(to: 0.26 * 1.82 * 1.5))
        #expect(entry.nutrients[.fat] == nil)
        #expect(entry.localTimeOfDay == "15:30")
        #expect(entry.localDate == day("2024-03-09"))

        // Editing the food afterwards does not change the entry.
        food.nutrients[.energy] = 1000
        #expect(entry.energy.isClose(to: 141.96))
    }

    @Test(arguments: [0, -1, Double.nan, .infinity, -.infinity, 10_000.001, 10_001])
    func badServingsAreRejected(_ count: Double) throws {
        let food = try apple()
        #expect(
            invalidField {
                try FoodLogEntry.logging(food, servings: count, of: food.defaultServing, meal: .lunch, eatenAt: .now, utcOffsetSeconds: 0)
            } == "servings")
        let logged = try FoodLogEntry.logging(
            food, servings: 1, of: food.defaultServing, meal: .lunch, eatenAt: .now,
            utcOffsetSeconds: 0)
        #expect(invalidField { try logged.withServings(count) } == "servings")
    }

    @Test func tenThousandServingsIsTheLimit() throws {
        let food = try apple()
        let entry = try FoodLogEntry.logging(
            food, servings: 10_000, of: .hundred(.grams), meal: .lunch, eatenAt: .now,
            utcOffsetSeconds: 0)
        #expect(entry.energy == 520_000)
        #expect(try FoodLogEntry.validatedServings(0.001) == 0.001)
        #expect(invalidField { try FoodLogEntry.validatedServings(0, field: "items[0].servings") } == "items[0].servings")
    }

    @Test func withServingsScalesTheSnapshot() throws {
        let food = try apple()
        let entry = try FoodLogEntry.logging(
            food, servings: 1.5, of: food.servings[0], meal: .snacks, eatenAt: .now,
            utcOffsetSeconds: 0)
        let triple = try entry.withServings(3)
        #expect(triple.servings == 3)
        #expect(triple.energy.isClose(to: 283.92))
        #expect(try #require(triple.nutrients[.fiber]).isClose(to: 2.4 * 1.82 * 3))
        #expect(triple.nutrients[.fat] == nil)
        #expect(triple.id == entry.id)
        #expect(triple.servingLabel == entry.servingLabel)
        #expect(try triple.withServings(1.5).energy.isClose(to: 141.96))
    }

    @Test func withServingsNeedsAServingsCountToScaleFrom() throws {
        // An entry built by hand (or read from an old row) with 0 servings cannot be rescaled;
        // before the fix its nutrients became infinite.
        var entry = try loggedEntry("Tea", .breakfast, at: 8, energy: 2)
        entry.servings = 0
        #expect(invalidField { try entry.withServings(2) } == "servings")
    }

    @Test(arguments: [
        ("2024-03-10", 3, 30, -5 * 3600, "22:30"),  // UTC 03:30 is 22:30 the evening before in UTC−5
        ("2024-03-09", 18, 35, 5 * 3600 + 1800, "00:05"),
        ("2024-03-09", 0, 0, 0, "00:00"),
        ("2024-03-09", 23, 59, -12 * 3600, "11:59"),
        ("2024-03-09", 7, 5, 14 * 3600, "21:05"),
        ("1969-12-31", 23, 59, 0, "23:59"),
        ("1970-01-01", 2, 0, -3 * 3600, "23:00"),
    ])
    func localTimeOfDay(_ date: String, _ utcHour: Int, _ utcMinute: Int, _ offset: Int, _ expected: String) throws {
        var entry = try loggedEntry("Tea", .breakfast, at: 8, energy: 2)
        entry.eatenAt = instant(date, utcHour, utcMinute)
        entry.utcOffsetSeconds = offset
        #expect(entry.localTimeOfDay == expected)
    }

    @Test func localTimeRoundsPartialSecondsDown() throws {
        var entry = try loggedEntry("Tea", .breakfast, at: 8, energy: 2)
        entry.eatenAt = Date(timeIntervalSince1970: -0.5)
        entry.utcOffsetSeconds = 0
        #expect(entry.localTimeOfDay == "23:59")
        #expect(entry.localDate == day("1969-12-31"))
    }

    @Test(arguments: [
        ("2024-03-09", 23, 30, 3600, "2024-03-10"),
        ("2024-03-09", 22, 59, 3600, "2024-03-09"),
        ("2024-03-09", 23, 30, -5 * 3600, "2024-03-09"),
        ("2024-03-10", 2, 0, -5 * 3600, "2024-03-09"),
        ("2024-03-10", 5, 0, -5 * 3600, "2024-03-10"),
        ("2024-03-10", 4, 59, -5 * 3600, "2024-03-09"),
        ("2024-03-09", 10, 0, 14 * 3600, "2024-03-10"),
        ("2024-03-09", 11, 0, -12 * 3600, "2024-03-08"),
        ("2024-12-31", 23, 0, 3600, "2025-01-01"),
    ])
    func localDateNearMidnight(_ date: String, _ utcHour: Int, _ utcMinute: Int, _ offset: Int, _ expected: String) throws {
        var entry = try loggedEntry("Tea", .breakfast, at: 8, energy: 2)
        entry.eatenAt = instant(date, utcHour, utcMinute)
        entry.utcOffsetSeconds = offset
        #expect(entry.localDate == day(expected))
    }
}

@Suite struct DayNutritionTests {
    @Test func entriesAreGroupedByMealInTimeOrder() throws {
        let coffee = try loggedEntry("Coffee", .breakfast, at: 7, 30, energy: 5)
        let oats = try loggedEntry("Oats", .breakfast, at: 8, energy: 300, other: ["fat": 6])
        let cookie = try loggedEntry("Cookie", .snacks, at: 15, 30, energy: 150, other: ["sugars": 12])
        let shake = try loggedEntry("Shake", Meal.parse("Pre-workout"), at: 17, energy: 200, other: ["protein": 25])
        let bar = try loggedEntry("Bar", Meal.parse("Afternoon"), at: 16, energy: 100)
        let diary = DayNutrition(date: day("2024-03-09"), entries: [cookie, shake, oats, bar, coffee], energyTargetKcal: 2000)

        #expect(diary.meals.map(\.meal.name) == ["breakfast", "lunch", "dinner", "snacks", "Afternoon", "Pre-workout"])
        #expect(diary.meals[0].entries.map(\.name) == ["Coffee", "Oats"])
        #expect(diary.meals[1].entries.isEmpty)
        #expect(diary.meals[1].totals.isEmpty)
        #expect(diary.meals[0].totals == (try Nutrients(keyed: ["energy": 305, "fat": 6])))
        #expect(diary.meals[3].totals == (try Nutrients(keyed: ["energy": 150, "sugars": 12])))
        #expect(diary.entries.map(\.name) == ["Coffee", "Oats", "Cookie", "Bar", "Shake"])

        #expect(diary.totals == (try Nutrients(keyed: ["energy": 755, "fat": 6, "sugars": 12, "protein": 25])))
        #expect(diary.totals[.carbohydrate] == nil)
        #expect(diary.energy == 755)
        #expect(diary.energyRemainingKcal == 1245)
        #expect(diary.date == day("2024-03-09"))
    }

    @Test func entriesAtTheSameTimeKeepAStableOrder() throws {
        let first = try loggedEntry("A", .lunch, at: 12, energy: 1, id: UUID(uuidString: "00000000-0000-7000-8000-000000000001")!)
        let second = try loggedEntry("B", .lunch, at: 12, energy: 1, id: UUID(uuidString: "00000000-0000-7000-8000-000000000002")!)
        let target: Double? = nil
        #expect(
            DayNutrition(date: day("2024-03-09"), entries: [second, first], energyTargetKcal: target).meals[1].entries.map(\.name)
                == ["A", "B"])
        #expect(
            DayNutrition(date: day("2024-03-09"), entries: [first, second], energyTargetKcal: target).meals[1].entries.map(\.name)
                == ["A", "B"])
    }

    @Test func emptyDayHasTheFourMeals() {
        let empty = DayNutrition(date: day("2024-03-09"), entries: [], energyTargetKcal: 1800)
        #expect(empty.meals.map(\.meal) == Meal.standard)
        #expect(empty.meals.allSatisfy { $0.entries.isEmpty && $0.totals.isEmpty })
        #expect(empty.totals.isEmpty)
        #expect(empty.energy == 0)
        #expect(empty.energyRemainingKcal == 1800)
    }

    @Test func energyRemainingIsNegativeWhenOverAndNilWithoutTarget() throws {
        let feast = try loggedEntry("Feast", .dinner, at: 19, energy: 2600)
        #expect(DayNutrition(date: day("2024-03-09"), entries: [feast], energyTargetKcal: 2000).energyRemainingKcal == -600)
        #expect(DayNutrition(date: day("2024-03-09"), entries: [feast], energyTargetKcal: 2600).energyRemainingKcal == 0)
        #expect(DayNutrition(date: day("2024-03-09"), entries: [feast], energyTargetKcal: nil).energyRemainingKcal == nil)
    }

    @Test func entriesWithoutEnergyCountAsNothingEaten() throws {
        var water = try loggedEntry("Water", .lunch, at: 12, energy: 0)
        water.nutrients = try Nutrients(keyed: ["sodium": 5])
        #expect(water.energy == 0)
        let diary = DayNutrition(date: day("2024-03-09"), entries: [water], energyTargetKcal: 2000)
        #expect(diary.totals.energy == nil)
        #expect(diary.energy == 0)
        #expect(diary.energyRemainingKcal == 2000)
    }
}

@Suite struct NutritionPeriodTests {
    @Test func knownWeekdays() {
        #expect(day("2026-11-21").weekday == 6)  // Saturday
        #expect(day("2026-11-16").weekday == 1)  // Monday
        #expect(day("1970-01-01").weekday == 4)  // Thursday
    }

    @Test(arguments: ["2026-11-16", "2026-11-18", "2026-11-21", "2026-11-22"])
    func weekIsMondayToSunday(_ date: String) {
        let (start, end) = NutritionPeriod.bounds(of: day(date), length: .week)
        #expect(start == day("2026-11-16"))
        #expect(end == day("2026-11-22"))
    }

    @Test(arguments: [
        ("2026-11-23", "2026-11-23", "2026-11-29"), ("2026-01-01", "2025-12-29", "2026-01-04"),
        ("2024-02-29", "2024-02-26", "2024-03-03"), ("1969-12-31", "1969-12-29", "1970-01-04"),
    ])
    func weeksAcrossMonthsAndYears(_ date: String, _ start: String, _ end: String) {
        let bounds = NutritionPeriod.bounds(of: day(date), length: .week)
        #expect(bounds.start == day(start))
        #expect(bounds.end == day(end))
    }

    @Test(arguments: [
        ("2024-02-10", "2024-02-01", "2024-02-29"), ("2023-02-28", "2023-02-01", "2023-02-28"),
        ("2000-02-01", "2000-02-01", "2000-02-29"), ("2100-02-15", "2100-02-01", "2100-02-28"),
        ("2026-12-31", "2026-12-01", "2026-12-31"), ("2026-12-01", "2026-12-01", "2026-12-31"),
        ("2026-01-31", "2026-01-01", "2026-01-31"), ("2026-04-15", "2026-04-01", "2026-04-30"),
        ("9999-12-15", "9999-12-01", "9999-12-31"), ("0001-01-31", "0001-01-01", "0001-01-31"),
    ])
    func monthIsTheCalendarMonth(_ date: String, _ start: String, _ end: String) {
        let bounds = NutritionPeriod.bounds(of: day(date), length: .month)
        #expect(bounds.start == day(start))
        #expect(bounds.end == day(end))
    }

    @Test func dayIsItself() {
        let bounds = NutritionPeriod.bounds(of: day("2026-11-21"), length: .day)
        #expect(bounds.start == day("2026-11-21"))
        #expect(bounds.end == day("2026-11-21"))
    }

    @Test func weeksCountOnlyLoggedDaysAndAverageOverThem() throws {
        let days: [(date: LocalDate, totals: Nutrients)] = [
            (day("2026-11-23"), try Nutrients(keyed: ["energy": 1500])),
            (day("2026-11-16"), try Nutrients(keyed: ["energy": 2000, "fat": 60])),
            (day("2026-11-18"), try Nutrients(keyed: ["energy": 1000])),
        ]
        let weeks = NutritionPeriod.periods(of: days, length: .week)
        #expect(weeks.map(\.start) == [day("2026-11-16"), day("2026-11-23")])
        #expect(weeks.map(\.end) == [day("2026-11-22"), day("2026-11-29")])
        #expect(weeks.map(\.length) == [.week, .week])
        #expect(weeks.map(\.daysLogged) == [2, 1])
        #expect(weeks[0].totals == (try Nutrients(keyed: ["energy": 3000, "fat": 60])))
        // The mean is over the two logged days, not the seven of the week.
        #expect(weeks[0].dailyAverage == (try Nutrients(keyed: ["energy": 1500, "fat": 30])))
        #expect(weeks[1].dailyAverage == (try Nutrients(keyed: ["energy": 1500])))
    }

    @Test func monthsAndDays() throws {
        let days: [(date: LocalDate, totals: Nutrients)] = [
            (day("2024-02-29"), try Nutrients(keyed: ["energy": 1800])),
            (day("2024-03-01"), try Nutrients(keyed: ["energy": 2200])),
            (day("2024-02-01"), try Nutrients(keyed: ["energy": 2000])),
        ]
        let months = NutritionPeriod.periods(of: days, length: .month)
        #expect(months.map(\.start) == [day("2024-02-01"), day("2024-03-01")])
        #expect(months.map(\.end) == [day("2024-02-29"), day("2024-03-31")])
        #expect(months.map(\.daysLogged) == [2, 1])
        #expect(months[0].dailyAverage?.energy == 1900)

        let each = NutritionPeriod.periods(of: days, length: .day)
        #expect(each.map(\.start) == [day("2024-02-01"), day("2024-02-29"), day("2024-03-01")])
        #expect(each.map(\.daysLogged) == [1, 1, 1])
        #expect(each.map { $0.start == $0.end } == [true, true, true])
        #expect(NutritionPeriod.periods(of: [], length: .month).isEmpty)
    }

    @Test func aDateGivenTwiceIsOneLoggedDay() throws {
        // Before the fix, the second row counted as another day and halved the average.
        let days: [(date: LocalDate, totals: Nutrients)] = [
            (day("2026-11-16"), try Nutrients(keyed: ["energy": 1200])),
            (day("2026-11-16"), try Nutrients(keyed: ["energy": 800])),
            (day("2026-11-17"), try Nutrients(keyed: ["energy": 1000])),
        ]
        let week = try #require(NutritionPeriod.periods(of: days, length: .week).first)
        #expect(week.daysLogged == 2)
        #expect(week.totals.energy == 3000)
        #expect(week.dailyAverage?.energy == 1500)
    }
}
