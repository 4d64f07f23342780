import CinnCore

/// One nutrient over time as bars, a day's total or a week's or month's daily average each, with the nutrient's FDA
/// Daily Value as a dashed reference line when it has one, as an SVG chart. Days (or periods) with nothing logged are gaps.
public struct NutrientChart: Sendable {
    /// The amount a day over one day or period.
    struct Bar: Sendable {
        let start: LocalDate
        /// The last day of the period (inclusive).
        let end: LocalDate
        let amount: Double
    }

    let nutrient: Nutrient
    let period: NutritionPeriod.Length
    /// The periods with an amount in the range, in date order, one per period.
    let bars: [Bar]
    let first: LocalDate?, last: LocalDate?
    let rangeGiven: Bool
    let title: String

    /// - Parameters:
    ///   - nutrient: what is drawn; its unit labels the value axis and its Daily Value, if any, is the reference line.
    ///   - amounts: amounts a day in the nutrient's unit: each day's total or, with `period` `.week` or `.month`, the
    ///     period's daily average (`NutritionPeriod.dailyAverage`), dated by any day of it. A later amount for the same
    ///     period replaces an earlier one; amounts that are not finite and not negative are left out.
    ///   - period: the length each amount covers.
    ///   - range: the days shown; by default from the start of the first period to the end of the last.
    ///   - title: the chart's accessible name; by default the nutrient and the period ("Sodium per day").
    public init(
        nutrient: Nutrient, amounts: [(date: LocalDate, amount: Double)], period: NutritionPeriod.Length = .day,
        in range: ClosedRange<LocalDate>? = nil, title: String? = nil
    ) {
        self.nutrient = nutrient
        self.period = period
        var byStart = [LocalDate: Bar]()
        for entry in amounts where entry.amount.isFinite && entry.amount >= 0 {
            let (start, end) = NutritionPeriod.bounds(of: entry.date, length: period)
            if let range, end < range.lowerBound || start > range.upperBound { continue }
            byStart[start] = Bar(start: start, end: end, amount: entry.amount)
        }
        bars = byStart.values.sorted { $0.start < $1.start }
        first = range?.lowerBound ?? bars.first?.start
        last = range?.upperBound ?? bars.last?.end
        rangeGiven = range != nil
        self.title = title ?? Self.defaultTitle(nutrient, period)
    }

    static func defaultTitle(_ nutrient: Nutrient, _ period: NutritionPeriod.Length) -> String {
        switch period {
        case .day: "\(nutrient.name) per day"
        case .week: "\(nutrient.name) per day, weekly average"
        case .month: "\(nutrient.name) per day, monthly average"
        }
    }

    /// "Sodium (mg)"; "Vitamin A (RAE), µg" when the name has brackets of its own.
    var axisTitle: String {
        nutrient.name.contains("(") ? "\(nutrient.name), \(nutrient.unit.rawValue)" : "\(nutrient.name) (\(nutrient.unit.rawValue))"
    }

    /// A complete `<svg>` element, for inline HTML and for a standalone `.svg` file.
    public func svg() -> String {
        guard let first, let last, !bars.isEmpty else { return emptySVG() }
        let dailyValue = nutrient.dailyValue
        var legend = [BarLayout.LegendItem]()
        if let dailyValue {
            legend.append(.init(mark: .dashedLine, className: "daily-value", label: "Daily Value \(amount(dailyValue))"))
        }
        let highest = max(bars.map(\.amount).max() ?? 0, dailyValue ?? 0)
        let layout = BarLayout(
            from: first, through: last, highest: highest, axisTitle: axisTitle, legend: legend,
            period: period)

        var out = Markup(capacity: 4_096 + bars.count * 256)
        out.openChart(id: "nutrient-chart", height: BarLayout.height, title: title, description: summary(), style: Self.style)
        layout.drawHeader(&out)
        layout.drawValueAxis(&out)
        drawBars(&out, layout)
        if let dailyValue { drawDailyValue(&out, layout, dailyValue) }
        layout.drawDateAxis(&out)
        out.append("</svg>\n")
        return out.string
    }

    /// Colours for light and dark mode: inline, text, grid and the Daily Value take the page's text colour; standalone, the chart brings its own background.
    static let style: StaticString = """
        #nutrient-chart:root{color:#1e293b}\
        #nutrient-chart:root .background{fill:#ffffff}\
        #nutrient-chart .bar{fill:#0d9488}\
        @media (prefers-color-scheme:dark){\
        #nutrient-chart:root{color:#e2e8f0}\
        #nutrient-chart:root .background{fill:#0f172a}\
        #nutrient-chart .bar{fill:#2dd4bf}\
        }
        """

    private func drawBars(_ out: inout Markup, _ layout: BarLayout) {
        out.append("<g class=\"bars\" fill=\"currentColor\">\n")
        for bar in bars {
            let placed = layout.bar(from: bar.start, through: bar.end)
            let height = max(layout.bottom - layout.y(bar.amount), 1)
            out.append("<rect class=\"bar\" data-date=\"")
            out.append(bar.start)
            if period != .day {
                out.append("\" data-end=\"")
                out.append(bar.end)
            }
            out.append("\" data-amount=\"")
            out.append(bar.amount, decimals: 3)
            out.append("\" x=\"")
            out.append(placed.x)
            out.append("\" y=\"")
            out.append(layout.bottom - height)
            out.append("\" width=\"")
            out.append(placed.width)
            out.append("\" height=\"")
            out.append(height)
            out.append("\"><title>")
            var label = "\(periodName(bar)): \(amount(bar.amount))"
            if period != .day { label += " a day" }
            if let percent = nutrient.percentDailyValue(of: bar.amount) {
                label += " (\(ChartCanvas.number(percent, decimals: 0))% DV)"
            }
            out.append(escaping: label)
            out.append("</title></rect>\n")
        }
        out.append("</g>\n")
    }

    private func drawDailyValue(_ out: inout Markup, _ layout: BarLayout, _ dailyValue: Double) {
        let y = layout.y(dailyValue)
        out.append("<line class=\"daily-value\" data-amount=\"")
        out.append(dailyValue, decimals: 3)
        out.append("\" stroke=\"currentColor\" stroke-width=\"1.5\" stroke-dasharray=\"6 4")
        out.appendHorizontalLine(from: layout.left, to: layout.right, at: y)
    }

    private func emptySVG() -> String {
        var out = Markup(capacity: 2_048)
        let message = "\(nutrient.name): nothing logged \(rangeGiven ? "in these days" : "yet")"
        out.openChart(id: "nutrient-chart", height: 100, title: title, description: message + ".", style: Self.style)
        out.appendEmptyMessage([message, "Log food with its nutrition facts to see it here."], centredAt: 50)
        out.append("</svg>\n")
        return out.string
    }

    /// The text summary for screen readers: the period, how much of it was logged, the average against the Daily Value and the range.
    func summary() -> String {
        guard let first, let last, !bars.isEmpty else { return "\(nutrient.name): nothing logged." }
        let values = bars.map(\.amount)
        let average = values.reduce(0, +) / Double(values.count)
        let noun: String =
            switch period {
            case .day: "day"
            case .week: "week"
            case .month: "month"
            }
        var periods = 0
        var start = NutritionPeriod.bounds(of: first, length: period).start
        while start <= last {
            periods += 1
            start = NutritionPeriod.bounds(of: start, length: period).end.adding(days: 1)
        }
        var text =
            first == last
            ? "\(nutrient.name) on \(first.dayMonthYear): \(amount(average))"
            : "\(Self.defaultTitle(nutrient, period)) from \(first.dayMonthYear) to \(last.dayMonthYear): logged in "
                + "\(bars.count) of \(periods) \(noun)s, \(amount(average)) a day\(bars.count > 1 ? " on average" : "")"
        if let dailyValue = nutrient.dailyValue, let percent = nutrient.percentDailyValue(of: average) {
            text += " (\(ChartCanvas.number(percent, decimals: 0))% of the \(amount(dailyValue)) Daily Value)"
        }
        if bars.count > 1 { text += ", from \(ChartCanvas.amount(values.min()!)) to \(amount(values.max()!))" }
        text += "."
        if let dailyValue = nutrient.dailyValue {
            let above = values.count { $0 > dailyValue }
            text += " \(above) \(above == 1 ? noun : noun + "s") above the Daily Value."
        }
        return text
    }

    /// "2300 mg".
    func amount(_ value: Double) -> String {
        "\(ChartCanvas.amount(value)) \(nutrient.unit.rawValue)"
    }

    /// "Mon, Mar 4"; "Week of Mar 4"; "March 2024" as "Mar 2024".
    private func periodName(_ bar: Bar) -> String {
        switch period {
        case .day: "\(bar.start.weekdayName) \(bar.start.dayMonth)"
        case .week: "Week of \(bar.start.dayMonth)"
        case .month: "\(bar.start.monthName) \(bar.start.year)"
        }
    }
}
