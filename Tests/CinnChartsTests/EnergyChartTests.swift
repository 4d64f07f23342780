import CinnCharts
import CinnCore
import Foundation
import Testing

@Suite struct EnergyChartTests {
    let start = LocalDate(iso: "2024-03-01")!

    func day(_ offset: Int, intake: Double?, status: DayStatus? = .complete, formula: Double? = 2400, adaptive: Double? = nil) -> EnergyDay
    {
        EnergyDay(
            date: start.adding(days: offset), intakeKcal: intake, status: status, formulaKcal: formula, adaptiveKcal: adaptive,
            trend: Mass(kilograms: 80))
    }

    @Test func barsLinesAndGaps() {
        let svg = EnergyChart(days: [
            day(0, intake: 2100), day(1, intake: 1900, status: .partial), day(2, intake: nil, adaptive: 2500),
            day(3, intake: 0, status: nil, adaptive: nil), day(4, intake: 2000, adaptive: 2450),
        ]).svg()
        #expect(svg.contains(#"id="energy-chart""#))
        #expect(svg.components(separatedBy: #"<rect class="complete""#).count - 1 == 2)
        #expect(svg.components(separatedBy: #"<rect class="partial""#).count - 1 == 2)
        #expect(svg.contains(#"data-date="2024-03-02" data-kcal="1900""#))
        #expect(svg.contains("marked partial") && svg.contains("not marked complete"))
        // The formula runs through all five days; the adaptive line breaks where it has no estimate.
        // Each path's drawing only: the text after it ("4 Mar") has " M"s of its own.
        let paths = svg.components(separatedBy: "<path ").dropFirst().map { $0.prefix { $0 != ">" } }
        let formula = paths.first { $0.hasPrefix(#"class="formula""#) }!
        let adaptive = paths.first { $0.hasPrefix(#"class="adaptive""#) }!
        #expect(formula.components(separatedBy: " M").count - 1 == 1 && formula.components(separatedBy: " L").count - 1 == 4)
        #expect(adaptive.components(separatedBy: " M").count - 1 == 2 && adaptive.components(separatedBy: " L").count - 1 == 0)
        #expect(svg.contains("food logged on 4 days, 1500 kcal a day on average"))
        #expect(svg.contains("Adaptive expenditure 2450 kcal."))
    }

    @Test func emptyWithoutAnything() {
        let svg = EnergyChart(days: [day(0, intake: nil, formula: nil)]).svg()
        #expect(svg.contains("Nothing to show yet"))
        #expect(!svg.contains("<rect class=\"complete\""))
    }
}
