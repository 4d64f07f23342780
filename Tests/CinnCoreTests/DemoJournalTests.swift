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
