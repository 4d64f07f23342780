import CinnCore
import Testing

@testable import CinnCharts

@Suite("Terminal chart")
struct TerminalChartTests {
    @Test(
        "rows, axis and dates; labels carry the unit; first and last date shown",
        arguments: [(7, MassUnit.kilograms), (60, .pounds), (365, .kilograms), (3_650, .stones)])
    func layout(days: Int, unit: MassUnit) {
        let trend = sampleTrend(days: days, start: 90, perDay: -0.01)
        let lines = TerminalChart(points: trend.points, unit: unit, width: 60, height: 12).render()
            .split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 14)
        let labelled = lines.prefix(12).filter { $0.contains("┤") }
        #expect(labelled.count >= 4)
        #expect(labelled.allSatisfy { $0.contains(" \(unit.rawValue) ┤") })
        #expect(lines[12].hasSuffix("└" + String(repeating: "─", count: 60)))
        #expect(lines[13].contains(trend.firstDate!.iso) && lines[13].hasSuffix(trend.lastDate!.iso))
        // The trend is one mark in every column of the plot.
        let plot = lines.prefix(12).map { line in
            let cells = Array(
                line.split(separator: "┤", maxSplits: 1, omittingEmptySubsequences: false).last!
                    .split(separator: "│", maxSplits: 1, omittingEmptySubsequences: false).last!)
            return cells + Array(repeating: " ", count: max(0, 60 - cells.count))
        }
        #expect(plot.allSatisfy { $0.count == 60 })
        for column in 0..<60 {
            #expect(plot.count { $0[column] == "*" } == 1)
        }
    }

    @Test("more days than columns are averaged per column")
    func downsampling() {
        let trend = sampleTrend(days: 120)
        let chart = TerminalChart(points: trend.points, unit: .kilograms, width: 30)
        let columns = chart.columns()
        #expect(columns.trend.count == 30)
        let firstFour = trend.points.prefix(4).map(\.trend.kilograms).reduce(0, +) / 4
        #expect(abs(columns.trend[0] - firstFour) < 1e-9)
        let measured = trend.points.prefix(4).compactMap { $0.measured?.kilograms }
        #expect(abs(columns.weighIns[0]! - measured.reduce(0, +) / Double(measured.count)) < 1e-9)
    }

    @Test("one day shows one mark and its date; no days say so")
    func edges() {
        let day = LocalDate(year: 2024, month: 3, day: 4)!
        let trend = WeightTrend(days: [DailyWeight(date: day, weight: Mass(kilograms: 72.4))])
        let text = TerminalChart(points: trend.points, unit: .kilograms).render()
        #expect(text.count { $0 == "*" } == 1)
        #expect(text.hasSuffix("2024-03-04"))
        #expect(TerminalChart(points: [TrendPoint](), unit: .kilograms).render() == "No weigh-ins yet")
    }
}
