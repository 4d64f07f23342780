import CinnCore
import Foundation
import Testing

@testable import CinnCharts

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("Trend chart")
struct TrendChartTests {
    @Test("measured days are filled dots, days without a weigh-in hollow ones, one for each day")
    func weighInDots() {
        let trend = sampleTrend(days: 30)
        let svg = TrendChart(points: trend.points, unit: .kilograms).svg()
        let measured = elements(svg, "circle", class: "weigh-in")
        let interpolated = elements(svg, "circle", class: "weigh-in interpolated")
        #expect(measured.count == trend.points.count { !$0.interpolated })
        #expect(interpolated.count == trend.points.count { $0.interpolated })
        #expect(interpolated.count > 0)
        #expect(measured.map { $0["data-date"] } == trend.points.filter { !$0.interpolated }.map { $0.date.iso })
        #expect(interpolated.map { $0["data-date"] } == trend.points.filter(\.interpolated).map { $0.date.iso })
    }

    @Test("beyond 120 days, days without a weigh-in are left out and dots are small")
    func denseDots() {
        let trend = sampleTrend(days: 400)
        let svg = TrendChart(points: trend.points, unit: .kilograms).svg()
        let measured = elements(svg, "circle", class: "weigh-in")
        #expect(measured.count == trend.points.count { !$0.interpolated })
        #expect(elements(svg, "circle", class: "weigh-in interpolated").isEmpty)
        #expect(measured.allSatisfy { $0.number("r")! <= 1.5 })
    }

    @Test("the trend is one path with one point per day, left to right, drawn strongest")
    func trendPath() throws {
        let trend = sampleTrend(days: 45)
        let svg = TrendChart(points: trend.points, unit: .kilograms).svg()
        let paths = elements(svg, "path", class: "trend")
        try #require(paths.count == 1)
        let points = pathPoints(paths[0]["d"]!)
        #expect(points.count == 45)
        #expect(zip(points, points.dropFirst()).allSatisfy { $0.x < $1.x })
        let axis = DrawnValueAxis(svg)
        for (drawn, day) in zip(points, trend.points) {
            #expect(abs(axis.value(atY: drawn.y) - day.trend.kilograms) < 0.01)
        }
        let dotRadius = elements(svg, "circle", class: "weigh-in").map { $0.number("r")! }.max()!
        #expect(paths[0].number("stroke-width")! > dotRadius / 2)
    }

    @Test("the goal line sits where the goal value maps on the value axis, labelled with the goal")
    func goalLine() throws {
        let trend = sampleTrend(days: 60, start: 82, perDay: -0.06)
        let svg = TrendChart(points: trend.points, unit: .kilograms, goal: Mass(kilograms: 80)).svg()
        let line = try #require(elements(svg, "line", class: "goal").first)
        #expect(line["y1"] == line["y2"])
        #expect(abs(DrawnValueAxis(svg).value(atY: line.number("y1")!) - 80) < 0.01)
        #expect(elements(svg, "text", class: "goal-label").map(\.text) == ["goal 80.0 kg"])
    }

    @Test("a goal just outside the weights widens the value axis to show it")
    func goalNearTheWeights() throws {
        let trend = sampleTrend(days: 60, start: 82, perDay: -0.05)
        let lowest = trend.points.map { min($0.value.kilograms, $0.trend.kilograms) }.min()!
        let svg = TrendChart(points: trend.points, unit: .kilograms, goal: Mass(kilograms: lowest - 0.4)).svg()
        let axis = DrawnValueAxis(svg)
        #expect(axis.ticks[0].value <= lowest - 0.4)
        let line = try #require(elements(svg, "line", class: "goal").first)
        #expect(abs(axis.value(atY: line.number("y1")!) - (lowest - 0.4)) < 0.01)
    }

    @Test("a goal far from the weights is an arrow at the edge with the goal value, and no line")
    func goalFarAway() throws {
        let trend = sampleTrend(days: 60, start: 90, perDay: -0.05)
        let svg = TrendChart(points: trend.points, unit: .kilograms, goal: Mass(kilograms: 70)).svg()
        #expect(elements(svg, "line", class: "goal").isEmpty)
        #expect(elements(svg, "path", class: "goal-arrow").count == 1)
        #expect(elements(svg, "text", class: "goal-label").map(\.text) == ["goal 70.0 kg"])
        #expect(DrawnValueAxis(svg).ticks[0].value > 80)
    }

    @Test(
        "value ticks are 4 to 6 round numbers, evenly spaced, covering the weights, labelled with the unit",
        arguments: [MassUnit.kilograms, .pounds, .stones])
    func valueTicks(unit: MassUnit) {
        for days in [1, 7, 30, 200] {
            let trend = sampleTrend(days: days, start: 95, perDay: -0.04)
            let svg = TrendChart(points: trend.points, unit: unit).svg()
            let ticks = DrawnValueAxis(svg).ticks.map(\.value)
            #expect((4...6).contains(ticks.count))
            let step = ticks[1] - ticks[0]
            #expect(zip(ticks, ticks.dropFirst()).allSatisfy { abs($1 - $0 - step) < 1e-9 })
            #expect(isRound(step))
            #expect(ticks.allSatisfy { abs(($0 / step).rounded() * step - $0) < 1e-9 })
            let values = trend.points.flatMap { [$0.value.value(in: unit), $0.trend.value(in: unit)] }
            #expect(ticks.first! <= values.min()! && ticks.last! >= values.max()!)
            let labels = elements(svg, "text", class: "y-tick").map(\.text)
            #expect(labels.count == ticks.count)
            #expect(labels.allSatisfy { $0.hasSuffix(" \(unit.rawValue)") })
        }
    }

    @Test("the value axis picks 4 to 6 round ticks for any span")
    func valueAxisForAnySpan() {
        var seed: UInt64 = 7
        for _ in 0..<2_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let low = Double(seed >> 40) / Double(1 << 24) * 300
            let span = pow(10, Double((seed >> 8) & 0xFFFF) / 65_536 * 4 - 2)
            let axis = ValueAxis(low: low, high: low + span, minimumSpan: 0.5)
            #expect((4...6).contains(axis.ticks.count))
            #expect(axis.lower <= low + 1e-9 && axis.upper >= low + span - 1e-9)
            #expect(isRound(axis.ticks[1] - axis.ticks[0]))
        }
    }

    @Test(
        "date ticks are few, real days at calendar boundaries, labelled by the span",
        arguments: [
            (7, "^[0-9]{1,2} [A-Z][a-z]{2}$"), (30, "^[0-9]{1,2} [A-Z][a-z]{2}$"),
            (548, "^[A-Z][a-z]{2}( [0-9]{4})?$"), (3_650, "^[0-9]{4}$"),
        ])
    func dateTicks(days: Int, labelPattern: String) throws {
        let trend = sampleTrend(days: days, perDay: -0.002)
        let svg = TrendChart(points: trend.points, unit: .kilograms, projection: MassRate(kilogramsPerWeek: -0.2)).svg()
        let ticks = elements(svg, "text", class: "x-tick")
        #expect((1...8).contains(ticks.count))
        let first = trend.firstDate!, last = trend.lastDate!.adding(days: 7)
        let dates = try ticks.map { try #require(LocalDate(iso: $0["data-date"]!)) }
        #expect(dates.allSatisfy { $0 >= first && $0 <= last })
        #expect(zip(dates, dates.dropFirst()).allSatisfy { $0 < $1 })
        let pattern = try Regex(labelPattern)
        #expect(ticks.allSatisfy { $0.text.wholeMatch(of: pattern) != nil })
        if days > 60 { #expect(dates.allSatisfy { $0.day == 1 }) }
        // Labels do not overlap: each label's estimated extent ends before the next begins.
        let extents = ticks.map { ($0.number("x")!, TrendChart.textWidth($0.text) / 2) }
        #expect(zip(extents, extents.dropFirst()).allSatisfy { $0.0 + $0.1 < $1.0 - $1.1 })
    }

    @Test("the projection continues from the last trend value at the rate for the given days")
    func projection() throws {
        let trend = sampleTrend(days: 40)
        let rate = MassRate(kilogramsPerWeek: -0.6)
        let svg = TrendChart(points: trend.points, unit: .kilograms, projection: rate, projectionDays: 10).svg()
        let line = try #require(elements(svg, "path", class: "projection").first)
        let projected = pathPoints(line["d"]!)
        let trendPoints = pathPoints(elements(svg, "path", class: "trend")[0]["d"]!)
        try #require(projected.count == 2)
        #expect(projected[0].x == trendPoints.last!.x && projected[0].y == trendPoints.last!.y)
        let dayWidth = (trendPoints.last!.x - trendPoints[0].x) / 39
        #expect(abs(projected[1].x - (trendPoints.last!.x + 10 * dayWidth)) < 0.1)
        let expected = trend.points.last!.trend.kilograms + rate.kilogramsPerWeek * 10 / 7
        #expect(abs(DrawnValueAxis(svg).value(atY: projected[1].y) - expected) < 0.01)
        #expect(elements(svg, "path", class: "projection").count == 1)
        #expect(elements(TrendChart(points: trend.points, unit: .kilograms).svg(), "path", class: "projection").isEmpty)
    }

    @Test("a goal or rate that is not a number is left out")
    func notANumber() {
        let trend = sampleTrend(days: 20)
        let svg = TrendChart(
            points: trend.points, unit: .kilograms, goal: Mass(kilograms: .nan),
            projection: MassRate(kilogramsPerWeek: .infinity)
        ).svg()
        #expect(elements(svg, "path", class: "projection").isEmpty)
        #expect(elements(svg, "text", class: "goal-label").isEmpty)
        #expect(pathPoints(elements(svg, "path", class: "trend")[0]["d"]!).count == 20)
    }

    @Test("the svg scales by its viewBox, names itself for screen readers and summarises the trend")
    func accessibleAndScalable() throws {
        let trend = sampleTrend(days: 30, start: 80, perDay: -0.1)
        let svg = TrendChart(points: trend.points, unit: .kilograms, goal: Mass(kilograms: 70)).svg()
        let root = try #require(elements(svg, "svg").first)
        #expect(root["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(root["viewBox"]?.split(separator: " ").count == 4)
        #expect(root["height"] == nil)
        #expect(root["width"] == nil || root["width"] == "100%")
        #expect(!root.attributes.values.contains { $0.hasSuffix("px") })
        #expect(root["id"] == "trend-chart" && root["role"] == "img")
        let title = try #require(elements(svg, "title").first)
        let desc = try #require(elements(svg, "desc").first)
        #expect(root["aria-labelledby"] == "\(title["id"]!) \(desc["id"]!)")
        #expect(title.text == "Weight trend")
        let first = trend.points.first!.trend.formatted(in: .kilograms)
        let last = trend.points.last!.trend.formatted(in: .kilograms)
        let change = Mass.format(trend.points.first!.trend.kilograms - trend.points.last!.trend.kilograms, decimals: 1)
        #expect(desc.text.contains("4 Mar 2024") && desc.text.contains("2 Apr 2024"))
        #expect(desc.text.contains(first) && desc.text.contains(last) && desc.text.contains("down \(change) kg"))
        #expect(desc.text.contains("Goal 70.0 kg"))
        #expect(svg.contains("@media (prefers-color-scheme:dark)"))
    }

    @Test("text is escaped and the result is well-formed XML")
    func escaping() throws {
        let trend = sampleTrend(days: 20)
        let svg = TrendChart(points: trend.points, unit: .kilograms, title: "Sam's \"weight\" <b>&\u{1} more").svg()
        #expect(elements(svg, "title").first?.text == "Sam&apos;s &quot;weight&quot; &lt;b&gt;&amp; more")
        #expect(!svg.contains("<b>"))
        #expect(isWellFormed(svg))
        #expect(isWellFormed(TrendChart(points: [], unit: .kilograms, title: "a<b").svg()))
    }

    @Test("with no weigh-ins the chart says so")
    func empty() throws {
        let svg = TrendChart(points: [TrendPoint](), unit: .kilograms).svg()
        let root = try #require(elements(svg, "svg").first)
        #expect(root["viewBox"] != nil && root["height"] == nil && root["role"] == "img")
        #expect(elements(svg, "text").map(\.text) == ["No weigh-ins yet"])
        #expect(elements(svg, "title").count == 1)
        #expect(elements(svg, "circle").isEmpty)
    }

    @Test("one weigh-in is a single dot with its value")
    func singlePoint() throws {
        let day = LocalDate(year: 2024, month: 3, day: 4)!
        let trend = WeightTrend(days: [DailyWeight(date: day, weight: Mass(kilograms: 72.4))])
        let svg = TrendChart(points: trend.points, unit: .kilograms).svg()
        let dots = elements(svg, "circle", class: "weigh-in")
        try #require(dots.count == 1)
        #expect(dots[0]["data-date"] == "2024-03-04")
        #expect(elements(svg, "circle", class: "trend-point").count == 1)
        #expect(pathPoints(elements(svg, "path", class: "trend")[0]["d"]!).count == 1)
        #expect(elements(svg, "text", class: "point-label").map(\.text) == ["72.4 kg"])
        #expect(abs(DrawnValueAxis(svg).value(atY: dots[0].number("cy")!) - 72.4) < 0.01)
        #expect(elements(svg, "text", class: "x-tick").map(\.text) == ["4 Mar"])
    }

    @Test("every dot and trend point says its day, weight and trend in its title; a dense chart's dots say the trend")
    func dotsAndTrendPointsCarryTheirValues() throws {
        let start = LocalDate(year: 2024, month: 3, day: 1)!
        let trend = WeightTrend(days: [
            DailyWeight(date: start, weight: Mass(kilograms: 80)),
            DailyWeight(date: start.adding(days: 2), weight: Mass(kilograms: 81)),
        ])
        let svg = TrendChart(points: trend.points, unit: .kilograms).svg()
        #expect(
            elements(svg, "circle", class: "weigh-in").map(\.text) == [
                "<title>1 Mar 2024: 80.0 kg, trend 80.00 kg</title>",
                "<title>3 Mar 2024: 81.0 kg, trend 80.15 kg</title>",
            ])
        // 80 + (81 − 80) × 0.1 = 80.1 on the empty day (interpolated 80.5: +0.05), then + (81 − 80.05) × 0.1 = 80.145.
        #expect(svg.contains("<title>3 Mar 2024: 81.0 kg, trend 80.15 kg</title>"), "\(svg)")
        #expect(svg.contains("2 Mar 2024: no weigh-in (80.5 kg between the days around it), trend 80.05 kg"))
        let trendPoints = elements(svg, "circle", class: "trend-point")
        #expect(trendPoints.map { $0["data-date"] } == ["2024-03-01", "2024-03-02", "2024-03-03"])
        let long = WeightTrend(days: (0..<200).map { DailyWeight(date: start.adding(days: $0), weight: Mass(kilograms: 80)) })
        let dense = TrendChart(points: long.points, unit: .kilograms).svg()
        #expect(elements(dense, "circle", class: "trend-point").isEmpty)
        #expect(elements(dense, "circle", class: "weigh-in").allSatisfy { $0.text.contains(", trend 80.00 kg</title>") })
    }

    @Test("ten years of days render quickly with one trend point per day")
    func tenYears() {
        let trend = sampleTrend(days: 3_650, perDay: -0.001)
        let chart = TrendChart(
            points: trend.points, unit: .pounds, goal: Mass(kilograms: 75),
            projection: MassRate(kilogramsPerWeek: -0.3))
        var svg = ""
        let elapsed = ContinuousClock().measure { svg = chart.svg() }
        #expect(pathPoints(elements(svg, "path", class: "trend")[0]["d"]!).count == 3_650)
        #expect(elapsed < .seconds(1))
    }

    @Test("coordinates are written with one decimal, without trailing zeros")
    func numbers() {
        func written(_ value: Double, decimals: Int = 1) -> String {
            var out = Markup(capacity: 16)
            out.append(value, decimals: decimals)
            return out.string
        }
        #expect(written(12) == "12")
        #expect(written(12.34) == "12.3")
        #expect(written(12.35) == "12.4")
        #expect(written(0.96) == "1")
        #expect(written(-0.04) == "0")
        #expect(written(-0.05) == "-0.1")
        #expect(written(-123.45) == "-123.5")
        #expect(written(1_234_567.89) == "1234567.9")
        #expect(written(0.05, decimals: 2) == "0.05")
        #expect(written(7.50, decimals: 2) == "7.5")
        #expect(written(.nan) == "0")
        var out = Markup(capacity: 16)
        out.append(LocalDate(year: 987, month: 1, day: 5)!)
        #expect(out.string == "0987-01-05")
    }
}

/// Whether `step` is 1, 2, 2.5 or 5 times a power of ten.
func isRound(_ step: Double) -> Bool {
    let mantissa = step / pow(10, log10(step).rounded(.down))
    return [1, 2, 2.5, 5, 10].contains { abs(mantissa - $0) < 1e-6 }
}

/// Whether Foundation's XML parser reads `markup` without an error.
func isWellFormed(_ markup: String) -> Bool {
    XMLParser(data: Data(markup.utf8)).parse()
}
