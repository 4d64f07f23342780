import CinnCore

/// The weight trend as an SVG chart: weigh-ins as dots, the trend as the strongest line, the goal and a short projection.
public struct TrendChart: Sendable {
    /// The days drawn, in date order.
    let points: [TrendPoint]
    let unit: MassUnit
    let goal: Mass?
    let projection: MassRate?
    let projectionDays: Int
    let title: String

    /// With more days than this, days without a weigh-in are not drawn and weigh-in dots are small.
    static let denseDays = 120
    /// The coordinate system: the chart scales to any width from it.
    static let width = 400.0
    static let height = 250.0
    static let fontSize = 12.0
    /// A goal this far outside the values, as a share of their span, still widens the value axis to show it.
    static let goalReach = 0.15
    /// Most date ticks on the time axis.
    static let maximumDateTicks = 8

    /// - Parameters:
    ///   - points: the days to draw, in date order, as `WeightTrend` and `TrendReport` give them.
    ///   - unit: the unit of the value axis and the labels.
    ///   - goal: the goal weight, drawn as a dashed line (or an arrow at the edge when far off).
    ///   - projection: the trend's rate; the trend is continued at it for `projectionDays` after the last day.
    ///   - title: the chart's accessible name.
    public init(
        points: some Collection<TrendPoint>, unit: MassUnit, goal: Mass? = nil, projection: MassRate? = nil,
        projectionDays: Int = 7, title: String = "Weight trend"
    ) {
        self.points = Array(points)
        self.unit = unit
        self.goal = goal
        self.projection = projection
        self.projectionDays = projectionDays
        self.title = title
    }

    /// A complete `<svg>` element, for inline HTML and for a standalone `.svg` file.
    public func svg() -> String {
        guard let layout = Layout(self) else { return emptySVG() }
        var out = Markup(capacity: 4_096 + points.count * 400)
        openSVG(&out, height: Self.height, description: summary(layout))
        drawValueAxis(&out, layout)
        drawDateAxis(&out, layout)
        drawWeighIns(&out, layout)
        drawProjection(&out, layout)
        drawTrend(&out, layout)
        drawTrendPoints(&out, layout)
        drawGoal(&out, layout)
        if points.count == 1 { drawPointLabel(&out, layout) }
        out.append("</svg>\n")
        return out.string
    }

    /// Everything placed: the axes and the mapping from days and values to coordinates.
    struct Layout {
        let valueAxis: ValueAxis
        let valueLabels: [String]
        let dateAxis: DateAxis
        let left: Double, right: Double, top: Double, bottom: Double
        let firstDay: Double, lastDay: Double
        let dense: Bool
        /// The last day of the projection and the trend value it reaches.
        let projectionEnd: (date: LocalDate, value: Double)?
        /// The goal in the display unit, and whether it lies on the value axis.
        let goal: (value: Double, onAxis: Bool)?

        init?(_ chart: TrendChart) {
            guard let first = chart.points.first, let last = chart.points.last else { return nil }
            let unit = chart.unit
            dense = chart.points.count > TrendChart.denseDays
            var low = Double.infinity, high = -Double.infinity
            for point in chart.points {
                let trend = point.trend.value(in: unit)
                low = min(low, trend)
                high = max(high, trend)
                if !dense || !point.interpolated {
                    let value = point.value.value(in: unit)
                    low = min(low, value)
                    high = max(high, value)
                }
            }
            var lastDate = last.date
            let projected = chart.projection.map { rate in
                last.trend.value(in: unit) + rate.perWeek(in: unit) * Double(chart.projectionDays) / 7
            }
            if let value = projected, value.isFinite, chart.projectionDays > 0 {
                lastDate = last.date.adding(days: chart.projectionDays)
                projectionEnd = (lastDate, value)
                low = min(low, value)
                high = max(high, value)
            } else {
                projectionEnd = nil
            }
            let minimumSpan = Mass(kilograms: 2).value(in: unit)
            if let goalMass = chart.goal, goalMass.kilograms.isFinite {
                let value = goalMass.value(in: unit)
                let reach = max(high - low, minimumSpan) * TrendChart.goalReach
                let onAxis = value >= low - reach && value <= high + reach
                if onAxis {
                    low = min(low, value)
                    high = max(high, value)
                }
                goal = (value, onAxis)
            } else {
                goal = nil
            }
            let valueAxis = ValueAxis(low: low, high: high, minimumSpan: minimumSpan)
            let valueLabels = valueAxis.ticks.map { "\(Mass.format($0, decimals: valueAxis.decimals)) \(unit.rawValue)" }
            self.valueAxis = valueAxis
            self.valueLabels = valueLabels
            let widestLabel = valueLabels.map(TrendChart.textWidth).max() ?? 0
            left = (widestLabel + 10).rounded(.up)
            right = TrendChart.width - 12
            top = 10
            bottom = TrendChart.height - 26
            if first.date == lastDate {
                firstDay = Double(first.date.dayNumber - 1)
                lastDay = Double(first.date.dayNumber + 1)
            } else {
                firstDay = Double(first.date.dayNumber)
                lastDay = Double(lastDate.dayNumber)
            }
            let (left, right, firstDay, lastDay) = (left, right, firstDay, lastDay)
            dateAxis = DateAxis(
                from: first.date, to: lastDate, maximumCount: TrendChart.maximumDateTicks,
                position: { left + (Double($0.dayNumber) - firstDay) / (lastDay - firstDay) * (right - left) },
                labelWidth: TrendChart.textWidth, bounds: 2...(TrendChart.width - 2), gap: 10)
        }

        func x(_ date: LocalDate) -> Double {
            left + (Double(date.dayNumber) - firstDay) / (lastDay - firstDay) * (right - left)
        }

        func y(_ value: Double) -> Double {
            bottom - (value - valueAxis.lower) / (valueAxis.upper - valueAxis.lower) * (bottom - top)
        }

        /// The width of one day on the time axis.
        var dayWidth: Double { (right - left) / (lastDay - firstDay) }
    }

    /// About how wide a label is drawn: 0.6 em a character, generous for the usual sans-serif fonts.
    static func textWidth(_ text: String) -> Double {
        ChartCanvas.textWidth(text)
    }

    private func openSVG(_ out: inout Markup, height: Double, description: String) {
        out.openChart(id: "trend-chart", height: height, title: title, description: description, style: Self.style)
    }

    /// Colours for light and dark mode: inline, text, grid and dots take the page's text colour; standalone, the chart brings its own background.
    static let style: StaticString = """
        #trend-chart:root{color:#1e293b}\
        #trend-chart:root .background{fill:#ffffff}\
        #trend-chart .trend,#trend-chart .projection{stroke:#2563eb}\
        #trend-chart .goal{stroke:#15803d}\
        #trend-chart .goal-label,#trend-chart .goal-arrow{fill:#15803d}\
        @media (prefers-color-scheme:dark){\
        #trend-chart:root{color:#e2e8f0}\
        #trend-chart:root .background{fill:#0f172a}\
        #trend-chart .trend,#trend-chart .projection{stroke:#60a5fa}\
        #trend-chart .goal{stroke:#4ade80}\
        #trend-chart .goal-label,#trend-chart .goal-arrow{fill:#4ade80}\
        }
        """

    private func drawValueAxis(_ out: inout Markup, _ layout: Layout) {
        out.append("<g class=\"value-grid\" stroke=\"currentColor\" stroke-opacity=\"0.15\" stroke-width=\"1\">\n")
        for tick in layout.valueAxis.ticks {
            let y = layout.y(tick)
            out.append("<line class=\"grid\" data-value=\"")
            out.append(tick, decimals: layout.valueAxis.decimals)
            out.appendHorizontalLine(from: layout.left, to: layout.right, at: y)
        }
        out.append("</g>\n<g class=\"value-labels\" fill=\"currentColor\" fill-opacity=\"0.75\" text-anchor=\"end\">\n")
        for (tick, label) in zip(layout.valueAxis.ticks, layout.valueLabels) {
            out.append("<text class=\"y-tick\" data-value=\"")
            out.append(tick, decimals: layout.valueAxis.decimals)
            out.append("\" x=\"")
            out.append(layout.left - 6)
            out.append("\" y=\"")
            out.append(layout.y(tick) + Self.fontSize * 0.35)
            out.append("\">")
            out.append(escaping: label)
            out.append("</text>\n")
        }
        out.append("</g>\n")
    }

    private func drawDateAxis(_ out: inout Markup, _ layout: Layout) {
        out.append("<g class=\"date-grid\" stroke=\"currentColor\" stroke-opacity=\"0.1\" stroke-width=\"1\">\n")
        for tick in layout.dateAxis.ticks {
            out.append("<line class=\"grid\" data-date=\"")
            out.append(tick.date)
            out.append("\" x1=\"")
            out.append(tick.x)
            out.append("\" x2=\"")
            out.append(tick.x)
            out.append("\" y1=\"")
            out.append(layout.top)
            out.append("\" y2=\"")
            out.append(layout.bottom + 4)
            out.append("\"/>\n")
        }
        out.append("</g>\n<line class=\"axis\" stroke=\"currentColor\" stroke-opacity=\"0.4")
        out.appendHorizontalLine(from: layout.left, to: layout.right, at: layout.bottom)
        out.append("<g class=\"date-labels\" fill=\"currentColor\" fill-opacity=\"0.75\" text-anchor=\"middle\">\n")
        for tick in layout.dateAxis.ticks {
            out.append("<text class=\"x-tick\" data-date=\"")
            out.append(tick.date)
            out.append("\" x=\"")
            out.append(tick.labelX)
            out.append("\" y=\"")
            out.append(layout.bottom + 18)
            out.append("\">")
            out.append(escaping: tick.label)
            out.append("</text>\n")
        }
        out.append("</g>\n")
    }

    private func drawWeighIns(_ out: inout Markup, _ layout: Layout) {
        let radius = layout.dense ? 1.2 : min(3.5, max(2, layout.dayWidth * 0.4))
        if !layout.dense {
            out.append(
                "<g class=\"interpolated-days\" fill=\"none\" stroke=\"currentColor\" stroke-opacity=\"0.6\" stroke-width=\"0.8\">\n")
            for point in points where point.interpolated {
                out.append("<circle class=\"weigh-in interpolated\" data-date=\"")
                appendDot(&out, point, layout.x(point.date), layout.y(point.value.value(in: unit)), radius - 0.4)
            }
            out.append("</g>\n")
        }
        out.append("<g class=\"measured-days\" fill=\"currentColor\" fill-opacity=\"0.45\">\n")
        for point in points {
            guard let measured = point.measured else { continue }
            out.append("<circle class=\"weigh-in\" data-date=\"")
            appendDot(&out, point, layout.x(point.date), layout.y(measured.value(in: unit)), radius)
        }
        out.append("</g>\n")
    }

    /// Appends the rest of a `<circle>` after its `data-date="`, with the day's weight and trend as its `<title>` (what a
    /// screen reader, a hover and the page's script say).
    private func appendDot(_ out: inout Markup, _ point: TrendPoint, _ x: Double, _ y: Double, _ radius: Double) {
        out.append(point.date)
        out.append("\" cx=\"")
        out.append(x)
        out.append("\" cy=\"")
        out.append(y)
        out.append("\" r=\"")
        out.append(radius)
        out.append("\"><title>")
        out.append(escaping: Self.describe(point, unit: unit))
        out.append("</title></circle>\n")
    }

    /// "4 Mar 2024: 80.3 kg, trend 80.61 kg", or for a day without a weigh-in "4 Mar 2024: no weigh-in (80.3 kg between
    /// the days around it), trend 80.61 kg".
    static func describe(_ point: TrendPoint, unit: MassUnit) -> String {
        let weight = point.value.formatted(in: unit)
        let trend = point.trend.formatted(in: unit, decimals: unit.displayDecimals + 1)
        return point.interpolated
            ? "\(point.date.dayMonthYear): no weigh-in (\(weight) between the days around it), trend \(trend)"
            : "\(point.date.dayMonthYear): \(weight), trend \(trend)"
    }

    /// A point on the trend line for each day, invisible, with the day's trend as its title (the line itself is one
    /// path). Not on a dense chart (more than `denseDays`): there each weigh-in's dot says its trend, and a point for
    /// every one of ten years of days would make the page megabytes.
    private func drawTrendPoints(_ out: inout Markup, _ layout: Layout) {
        guard !layout.dense else { return }
        out.append("<g class=\"trend-points\" fill=\"transparent\">\n")
        for point in points {
            out.append("<circle class=\"trend-point\" data-date=\"")
            appendDot(&out, point, layout.x(point.date), layout.y(point.trend.value(in: unit)), 3)
        }
        out.append("</g>\n")
    }

    private func drawTrend(_ out: inout Markup, _ layout: Layout) {
        out.append(
            "<path class=\"trend\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2.5\" stroke-linejoin=\"round\" stroke-linecap=\"round\" d=\""
        )
        var command: StaticString = "M"
        for point in points {
            // A series that starts again after a gap the trend does not bridge is a line of its own: the break shows.
            if point.startsSeries { command = "M" }
            out.append(command)
            out.append(layout.x(point.date))
            out.append(" ")
            out.append(layout.y(point.trend.value(in: unit)))
            command = "L"
        }
        out.append("\"/>\n")
    }

    private func drawProjection(_ out: inout Markup, _ layout: Layout) {
        guard let end = layout.projectionEnd, let last = points.last else { return }
        out.append(
            "<path class=\"projection\" fill=\"none\" stroke=\"currentColor\" stroke-opacity=\"0.7\" stroke-width=\"2\" stroke-dasharray=\"4 4\" stroke-linecap=\"round\" d=\"M"
        )
        out.append(layout.x(last.date))
        out.append(" ")
        out.append(layout.y(last.trend.value(in: unit)))
        out.append("L")
        out.append(layout.x(end.date))
        out.append(" ")
        out.append(layout.y(end.value))
        out.append("\"/>\n")
    }

    private func drawGoal(_ out: inout Markup, _ layout: Layout) {
        guard let goal, let placement = layout.goal else { return }
        let label = "goal \(goal.formatted(in: unit))"
        let width = Self.textWidth(label)
        let starts = [layout.left + 6, layout.right - 6 - width - (placement.onAxis ? 0 : 12)]
        guard placement.onAxis else {
            // The goal is far off the weights: an arrow at the edge it lies beyond, with its value.
            let above = placement.value > layout.valueAxis.upper
            let tip = above ? layout.top + 2 : layout.bottom - 2
            let base = above ? tip + 7 : tip - 7
            let baseline = (tip + base) / 2 + Self.fontSize * 0.35
            let spot = quietestSpot(starts.map { ($0, baseline) }, width: width + 12, layout)
            out.append("<g class=\"goal-off-scale\">\n<path class=\"goal-arrow\" fill=\"currentColor\" d=\"M")
            out.append(spot.x + 4)
            out.append(" ")
            out.append(tip)
            out.append("L")
            out.append(spot.x + 8)
            out.append(" ")
            out.append(base)
            out.append("L")
            out.append(spot.x)
            out.append(" ")
            out.append(base)
            out.append("Z\"/>\n<text class=\"goal-label\" fill=\"currentColor\" x=\"")
            out.append(spot.x + 12)
            out.append("\" y=\"")
            out.append(baseline)
            out.append("\">")
            out.append(escaping: label)
            out.append("</text>\n</g>\n")
            return
        }
        let y = layout.y(placement.value)
        out.append("<line class=\"goal\" data-value=\"")
        out.append(placement.value, decimals: 2)
        out.append("\" stroke=\"currentColor\" stroke-width=\"1.5\" stroke-dasharray=\"6 4")
        out.appendHorizontalLine(from: layout.left, to: layout.right, at: y)
        // Below or above the line where there is room, away from the middle first; then where the fewest points are.
        let room = Self.fontSize + 4
        let below = y + Self.fontSize + 1, above = y - 5
        let sides = (y > (layout.top + layout.bottom) / 2 ? [below, above] : [above, below]).filter { baseline in
            baseline == below ? layout.bottom - y >= room : y - layout.top >= room
        }
        let spot = quietestSpot(starts.flatMap { x in sides.map { (x, $0) } }, width: width, layout)
        out.append("<text class=\"goal-label\" fill=\"currentColor\" x=\"")
        out.append(spot.x)
        out.append("\" y=\"")
        out.append(spot.baseline)
        out.append("\">")
        out.append(escaping: label)
        out.append("</text>\n")
    }

    /// Of the places for a label (its left end and baseline), the first with the fewest dots and trend points under it.
    private func quietestSpot(_ spots: [(x: Double, baseline: Double)], width: Double, _ layout: Layout) -> (x: Double, baseline: Double) {
        var best = spots[0], fewest = Int.max
        for spot in spots {
            let top = spot.baseline - Self.fontSize - 1, bottom = spot.baseline + 3
            var count = 0
            for point in points {
                let x = layout.x(point.date)
                if x > spot.x + width + 2 { break }
                guard x >= spot.x - 2 else { continue }
                let trendY = layout.y(point.trend.value(in: unit)), dotY = layout.y(point.value.value(in: unit))
                if trendY >= top && trendY <= bottom { count += 1 }
                if dotY >= top && dotY <= bottom && !(layout.dense && point.interpolated) { count += 1 }
            }
            if count < fewest {
                best = spot
                fewest = count
            }
        }
        return best
    }

    private func drawPointLabel(_ out: inout Markup, _ layout: Layout) {
        let point = points[0]
        out.append("<text class=\"point-label\" fill=\"currentColor\" text-anchor=\"middle\" x=\"")
        out.append(layout.x(point.date))
        out.append("\" y=\"")
        out.append(layout.y(point.value.value(in: unit)) - 9)
        out.append("\">")
        out.append(escaping: point.value.formatted(in: unit))
        out.append("</text>\n")
    }

    private func emptySVG() -> String {
        var out = Markup(capacity: 2_048)
        openSVG(&out, height: 100, description: "No weigh-ins yet.")
        out.append("<text class=\"empty\" fill=\"currentColor\" fill-opacity=\"0.75\" text-anchor=\"middle\" x=\"")
        out.append(Self.width / 2)
        out.append("\" y=\"")
        out.append(50 + Self.fontSize * 0.35)
        out.append("\" font-size=\"")
        out.append(Self.fontSize * 1.25)
        out.append("\">No weigh-ins yet</text>\n</svg>\n")
        return out.string
    }

    /// The text summary for screen readers, of a chart with at least one day: the period, the first and last trend value and the change.
    func summary(_ layout: Layout) -> String {
        let first = points[0], last = points[points.count - 1]
        var text: String
        if points.count == 1 {
            text = "On \(first.date.dayMonthYear): \(first.value.formatted(in: unit))."
        } else {
            let change = last.trend.value(in: unit) - first.trend.value(in: unit)
            let amount = Mass.format(abs(change), decimals: unit.displayDecimals)
            let direction = Double(amount) == 0 ? "no change" : "\(change < 0 ? "down" : "up") \(amount) \(unit.rawValue)"
            text =
                "From \(first.date.dayMonthYear) to \(last.date.dayMonthYear) the trend went from "
                + "\(first.trend.formatted(in: unit)) to \(last.trend.formatted(in: unit)), \(direction). "
                + "\(points.count { !$0.interpolated }) of \(points.count) days have a weigh-in."
        }
        if let goal, layout.goal != nil { text += " Goal \(goal.formatted(in: unit))." }
        if let end = layout.projectionEnd, let rate = projection {
            let perWeek = rate.perWeek(in: unit)
            let amount = Mass.format(abs(perWeek), decimals: unit.displayDecimals)
            let pace = Double(amount) == 0 ? "holding steady" : "\(perWeek < 0 ? "losing" : "gaining") \(amount) \(unit.rawValue) a week"
            text +=
                " At the current rate (\(pace)) the trend reaches about "
                + "\(Mass(end.value, unit).formatted(in: unit)) by \(end.date.dayMonthYear)."
        }
        return text
    }
}
