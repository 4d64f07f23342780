import CinnCore
import Foundation
import Testing

@Suite struct DemoJournalTests {
    let today = day("2026-11-21")
    let demo = DemoJournal(endingOn: LocalDate(iso: "2026-11-21")!, timeZone: TimeZone(identifier: "Europe/Berlin")!)

    @Test func eighteenMonthsOfMorningsWithGapsEndingToday() {
        let trend = WeightTrend(days: DailyWeight.means(of: demo.weighIns))
        #expect(trend.lastDate == today)
        #expect(trend.points.count == 548)
        let interpolated = trend.points.filter(\.interpolated).count
        #expect(interpolated > 30 && interpolated < 120)
        #expect(demo.weighIns.allSatisfy { $0.utcOffsetSeconds == 3600 || $0.utcOffsetSeconds == 7200 })
    }

    @Test func noiseIsAboutAKilogramAroundTheTrend() {
        let trend = WeightTrend(days: DailyWeight.means(of: demo.weighIns))
        let deviations = trend.points.compactMap { point in point.measured.map { abs($0.kilograms - point.trend.kilograms) } }
        #expect(deviations.max()! < 2.5)
        #expect(deviations.reduce(0, +) / Double(deviations.count) > 0.2)
    }

    @Test func thereIsAHolidayGainAndAGoal() {
        let trend = WeightTrend(days: DailyWeight.means(of: demo.weighIns))
        let trends = trend.points.map(\.trend.kilograms)
        let biggestMonthlyGain = (30..<trends.count).map { trends[$0] - trends[$0 - 30] }.max()!
        #expect(biggestMonthlyGain > 1.5)
        #expect(trends.last! < trends.first!)
        #expect(demo.goal.weight < Mass(kilograms: trends.last!))
        #expect(trend.verdict(goal: demo.goal, asOf: today, unit: .kilograms).answer != .unknown)
    }

    @Test func theSameSeedGivesTheSameJournal() {
        let again = DemoJournal(endingOn: today, timeZone: TimeZone(identifier: "Europe/Berlin")!)
        #expect(again.weighIns.map(\.weight) == demo.weighIns.map(\.weight))
        #expect(again.weighIns.map(\.measuredAt) == demo.weighIns.map(\.measuredAt))
    }
}

@Suite struct DemoFoodLogTests {
    let today = LocalDate(iso: "2026-11-21")!
    let zone = TimeZone(identifier: "Europe/Berlin")!

    @Test func fourWeeksOfPlausibleDaysEndingWithTodaysBreakfast() {
        let demo = DemoFoodLog(endingOn: today, timeZone: zone)
        let days = Dictionary(grouping: demo.entries, by: \.localDate)
        #expect(days.count == 28)
        #expect(days.keys.min() == today.adding(days: -27))
        #expect(Set(days[today]!.map(\.meal)) == [.breakfast])
        for (date, entries) in days where date != today {
            let energy = entries.reduce(0) { $0 + $1.energy }
            #expect(energy > 1100 && energy < 3200, "\(date): \(energy) kcal")
            #expect(Set(entries.map(\.meal)).isSuperset(of: [.breakfast, .lunch, .dinner]))
        }
        #expect(demo.entries.allSatisfy { entry in demo.foods.contains { $0.id == entry.foodID } && entry.source == "demo" })
        #expect(demo.foods.allSatisfy { (try? $0.validated()) == $0 })
    }

    @Test func theSameSeedGivesTheSameLog() {
        #expect(DemoFoodLog(endingOn: today, timeZone: zone).entries == DemoFoodLog(endingOn: today, timeZone: zone).entries)
        #expect(DemoFoodLog(endingOn: today, timeZone: zone, seed: 1).entries != DemoFoodLog(endingOn: today, timeZone: zone).entries)
    }

    @Test func energyAgreesWithTheMacrosByAtwater() {
        for food in DemoFoodLog(endingOn: today, timeZone: zone).foods {
            let atwater = 4 * (food.nutrients[.protein] ?? 0) + 4 * (food.nutrients[.carbohydrate] ?? 0) + 9 * (food.nutrients[.fat] ?? 0)
            let energy = food.nutrients.energy ?? 0
            #expect(abs(atwater - energy) / energy < 0.25, "\(food.name): \(energy) kcal vs \(atwater) by 4/4/9")
        }
    }
}

@Suite struct DemoWorkoutsTests {
    let today = LocalDate(iso: "2026-11-21")!  // a Saturday
    let zone = TimeZone(identifier: "Europe/Berlin")!

    @Test func sixteenWeeksOfThreeWorkoutsWithRisingWeights() throws {
        let demo = DemoWorkouts(endingBefore: today, timeZone: zone)
        let workouts = demo.sets.compactMap(\.newWorkout)
        #expect(workouts.count == 48)
        #expect(Set(workouts.map(\.externalID)).count == 48)
        #expect(workouts.map(\.localDate).allSatisfy { $0 < today && [1, 3, 5].contains($0.weekday) })
        #expect(workouts.last?.localDate == LocalDate(iso: "2026-11-20"))
        #expect(workouts.allSatisfy { Calendar.current.dateComponents(in: zone, from: $0.startedAt).hour == 18 })
        for (number, sets) in Dictionary(grouping: demo.sets, by: \.workout) {
            #expect(sets.map(\.position) == Array(0..<sets.count), "workout \(number) numbers its sets in order")
            #expect(sets.first?.newWorkout != nil && sets.dropFirst().allSatisfy { $0.newWorkout == nil })
        }
        var days: [LocalDate: ExerciseDay] = [:]
        for set in demo.sets where set.set.exercise == "Back Squat" {
            let day = try #require(demo.sets.first { $0.workout == set.workout }?.newWorkout?.localDate)
            days[day, default: ExerciseDay(day: day)].add(set.set)
        }
        let report = ExerciseReport.compute(days: Array(days.values), today: today)
        let first = try #require(report.history.first), current = try #require(report.current)
        #expect(current.oneRepMax.estimate.kilograms > first.oneRepMax.estimate.kilograms + 20, "the squat rises over 16 weeks")
        #expect(report.history.count == 48, "squats in every workout")
        #expect(demo.sets.contains { $0.set.kind == .failure } && demo.sets.contains { $0.set.kind == .warmUp })
        #expect(DemoWorkouts(endingBefore: today, timeZone: zone).sets == demo.sets, "the same seed gives the same workouts")
    }
}
