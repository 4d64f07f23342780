import CinnCore
import Foundation
import Testing

@Suite struct WeightLogTests {
    static let start = LocalDate(year: 2024, month: 2, day: 27)!

    static func weighIn(_ offset: Int, _ kilograms: Double) -> WeighIn {
        let day = start.adding(days: offset)
        return WeighIn(measuredAt: day.noon(in: .gmt).instant, utcOffsetSeconds: 0, weight: Mass(kilograms: kilograms), source: "manual")
    }

    @Test func rowsCarryTheTrendTheChangeAndTheWeeksTrendChange() {
        let weighIns = (0..<10).map { Self.weighIn($0, 80 - Double($0) * 0.1) }
        let trend = WeightTrend(days: weighIns.map { DailyWeight(date: $0.localDate, weight: $0.weight) })
        let newestFirst = Array(weighIns.reversed())
        let rows = WeightLogRow.rows(Array(newestFirst.prefix(3)), before: newestFirst[3], trend: trend)
        #expect(rows.count == 3)
        #expect(abs((rows[0].change?.kilograms ?? 0) + 0.1) < 1e-9, "each weigh-in is 0.1 kg under the one before")
        #expect(abs((rows[2].change?.kilograms ?? 0) + 0.1) < 1e-9, "the page's last row changes from the next page's first")
        let points = trend.points
        #expect(rows[0].trend == points[9].trend)
        #expect(abs((rows[0].weekTrendChange?.kilograms ?? 0) - (points[9].trend.kilograms - points[2].trend.kilograms)) < 1e-12)
        let first = WeightLogRow.rows([weighIns[0]], before: nil, trend: trend)[0]
        #expect(first.change == nil && first.weekTrendChange == nil)
    }

    @Test func aMonthListsItsDaysAndTheTrendsChangeFromTheMonthBefore() throws {
        // 27 Feb to 7 Mar 2024: 2024 is a leap year, so March starts after 29 Feb.
        let weighIns = [Self.weighIn(0, 80), Self.weighIn(2, 80.4), Self.weighIn(9, 79.6)]
        let trend = WeightTrend(days: weighIns.map { DailyWeight(date: $0.localDate, weight: $0.weight) })
        let march = WeightLogMonth(trend: trend, year: 2024, month: 3)
        #expect(march.days.map(\.point.date.iso) == (1...7).map { String(format: "2024-03-%02d", $0) })
        let february = try #require(trend.points.first { $0.date.iso == "2024-02-29" })
        #expect(march.trendStart == february.trend, "the month starts from the last day of February's trend")
        #expect(march.trendEnd == trend.points.last?.trend)
        #expect(march.days.filter { $0.variance != nil }.count == 1, "7 Mar is the only weigh-in of March")
        let variance = try #require(march.days.last?.variance)
        #expect(abs(variance.kilograms - (79.6 - (trend.points.last?.trend.kilograms ?? 0))) < 1e-12)
        let change = try #require(march.trendChange?.kilograms), rate = try #require(march.weeklyRate?.kilograms)
        #expect(abs(rate - change) < 1e-12, "seven days, from 29 Feb to 7 Mar: the week's change is the month's")
        #expect(WeightLogMonth(trend: trend, year: 2024, month: 5).days.isEmpty)
    }
}
