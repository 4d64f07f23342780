import CinnCore
import Foundation
import Testing

@testable import CinnCharts

/// Hour labels of the glucose charts never run into each other at a phone's label size (15 of 400 units).
@Suite struct GlucoseChartLabelTests {
    /// The x of each hour label of the `<g class="hours">` group of `svg`.
    func hourLabels(_ svg: String) throws -> [(x: Double, text: String)] {
        let start = try #require(svg.range(of: #"<g class="hours""#))
        let group = svg[start.lowerBound...]
        let end = try #require(group.range(of: "</g>"))
        return elements(String(group[..<end.upperBound]), "text").map { ($0.number("x") ?? .nan, $0.text) }
    }

    func assertApart(_ labels: [(x: Double, text: String)], _ what: String) {
        for (left, right) in zip(labels, labels.dropFirst()) {
            // Centred labels: half of each on either side of the gap; 4 units between them at least.
            let room =
                ChartCanvas.textWidth(left.text, fontSize: ChartCanvas.phoneFontSize) / 2
                + ChartCanvas.textWidth(right.text, fontSize: ChartCanvas.phoneFontSize) / 2 + 4
            #expect(right.x - left.x >= room, "\(what): \(left.text) at \(left.x) and \(right.text) at \(right.x)")
        }
    }

    @Test func theProfilesHoursStandApart() throws {
        let readings = (0..<(14 * 96)).map { index in
            (
                at: Date(timeIntervalSince1970: 1_710_000_000 + Double(index) * 900), utcOffsetSeconds: 0,
                glucose: Glucose(milligramsPerDeciliter: 120)
            )
        }
        let svg = AGPChart(profile: AmbulatoryGlucoseProfile(readings: readings, days: 14), unit: .milligramsPerDeciliter).svg()
        let labels = try hourLabels(svg)
        #expect(labels.map(\.text) == ["00:00", "04:00", "08:00", "12:00", "16:00", "20:00"])
        assertApart(labels, "AGP")
    }

    @Test(arguments: [3, 6, 12, 24])
    func theDayChartsHoursStandApart(_ hours: Int) throws {
        let end = Date(timeIntervalSince1970: 1_710_504_000), start = end.addingTimeInterval(-Double(hours) * 3600)
        let svg = GlucoseDayChart(
            start: start, end: end, utcOffsetSeconds: 0, points: [], meals: [], doses: [],
            unit: .milligramsPerDeciliter, span: "in the last \(hours) hours"
        ).svg()
        let labels = try hourLabels(svg)
        #expect(labels.count >= 3, "\(hours) h: \(labels.map(\.text))")
        assertApart(labels, "\(hours) h")
    }
}

/// Chart labels are drawn at 12 of the 400 units everywhere but on a phone, where the page's style sheet makes them 15:
/// at 390 px the chart is about 330 px wide, and 15 × 330 / 400 ≈ 12.4 px.
@Suite struct ChartLabelSizeTests {
    @Test func aPhoneDrawsLabelsAtFifteenUnits() {
        #expect(ChartCanvas.phoneFontSize * 326 / ChartCanvas.width >= 12, "a 390 px screen less the page's and card's padding")
        #expect(ChartCanvas.textWidth("00:00") == 5 * 15 * 0.6, "labels are spaced for the phone's size")
    }
}
