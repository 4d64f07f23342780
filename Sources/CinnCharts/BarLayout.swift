import CinnCore

/// Bars over calendar days, up from zero: a header with the axis title and a legend, a value axis on the left and a
/// date axis below. Each day has a slot of equal width; a bar covers the slots of its day or period.
struct BarLayout {
    /// A key to one kind of mark, in the header.
    struct LegendItem {
        enum Mark { case line, dashedLine, swatch }
        let mark: Mark
        /// The class of what the mark stands for, so it takes the same colour.
        let className: StaticString
        let label: String

        var width: Double { (mark == .swatch ? 10 : 16) + 5 + ChartCanvas.textWidth(label) }
    }

    static let height = 250.0
    static let maximumDateTicks = 8
    static let headerRowHeight = 18.0
    static let legendSpacing = 14.0
    /// The widest bar, so one day on a wide chart is not a slab.
    static let maximumBarWidth = 48.0

    let first: LocalDate, last: LocalDate
    let valueAxis: ValueAxis
    let valueLabels: [String]
    let dateAxis: DateAxis
    let axisTitle: String
    let legend: [LegendItem]
    /// Whether the legend has a row of its own under the axis title, because they do not fit side by side.
    let legendOnOwnRow: Bool
    let left: Double, right: Double, top: Double, bottom: Double

    /// - Parameters:
    ///   - first: the first day shown.
    ///   - last: the last day shown, not before `first`.
    ///   - highest: the highest value to show (bars and reference lines); the value axis runs from `lowest` (zero unless
    ///     given, as bars need) to a round tick above it.
    ///   - axisTitle: what the values are, with their unit: "Calories (kcal)".
    ///   - period: what a bar covers; a date tick sits under the middle of the bar its date falls in.
    init(
        from first: LocalDate, through last: LocalDate, lowest: Double = 0, highest: Double, axisTitle: String, legend: [LegendItem],
        period: NutritionPeriod.Length = .day
    ) {
        self.first = first
        self.last = max(first, last)
        self.axisTitle = axisTitle
        self.legend = legend
        let valueAxis = ValueAxis(low: lowest, high: highest.isFinite && highest > lowest ? highest : lowest + 1, minimumSpan: 0)
        self.valueAxis = valueAxis
        valueLabels = valueAxis.ticks.map { Mass.format($0, decimals: valueAxis.decimals) }
        left = max(valueLabels.map { ChartCanvas.textWidth($0) }.max() ?? 0, 14).rounded(.up) + 10
        right = ChartCanvas.width - 12
        let legendWidth = legend.map(\.width).reduce(0, +) + Self.legendSpacing * Double(max(legend.count - 1, 0))
        legendOnOwnRow = !legend.isEmpty && 2 + ChartCanvas.textWidth(axisTitle) + Self.legendSpacing > right - legendWidth
        top = (legendOnOwnRow ? 2 : 1) * Self.headerRowHeight + 12
        bottom = Self.height - 26
        let (left, last, dayWidth) = (left, self.last, (right - left) / Double(first.distance(to: self.last) + 1))
        dateAxis = DateAxis(
            from: first, to: last, maximumCount: Self.maximumDateTicks,
            position: { date in
                let (start, end) = NutritionPeriod.bounds(of: date, length: period)
                let days = Double(first.distance(to: max(start, first)) + first.distance(to: min(end, last)) + 1)
                return left + days / 2 * dayWidth
            },
            labelWidth: { ChartCanvas.textWidth($0) }, bounds: 2...(ChartCanvas.width - 2), gap: 10)
    }

    /// The width of one day's slot.
    var dayWidth: Double { (right - left) / Double(first.distance(to: last) + 1) }

    /// The left edge of a day's slot.
    func x(_ date: LocalDate) -> Double {
        left + Double(first.distance(to: date)) * dayWidth
    }

    func y(_ value: Double) -> Double {
        bottom - (value - valueAxis.lower) / (valueAxis.upper - valueAxis.lower) * (bottom - top)
    }

    /// The left edge and width of a bar over `start...end` (clamped to the days shown): centred in its slots with a
    /// gap to its neighbours while they are wide enough; when narrow, a little wider than its slots, so neighbours
    /// overlap rather than leave anti-aliased seams.
    func bar(from start: LocalDate, through end: LocalDate) -> (x: Double, width: Double) {
        let slotLeft = x(max(start, first)), slotRight = x(min(end, last)) + dayWidth
        let slot = slotRight - slotLeft
        let width = slot >= 4 ? min(slot * 0.72, Self.maximumBarWidth) : slot + 0.4
        return (slotLeft + (slot - width) / 2, width)
    }

    /// A bar of one day from zero up to `kcal`, at least a hairline (a logged day of nothing differs from a
    /// day not logged), with its date, kcal (and target) as data attributes and `title` as its tooltip.
    func drawDayBar(
        _ out: inout Markup, date: LocalDate, kcal: Double, className: StaticString, target: Double? = nil,
        title: String
    ) {
        let bar = bar(from: date, through: date)
        let height = max(bottom - y(kcal), 1)
        out.append("<rect class=\"")
        out.append(className)
        out.append("\" data-date=\"")
        out.append(date)
        out.append("\" data-kcal=\"")
        out.append(kcal, decimals: 0)
        if let target {
            out.append("\" data-target=\"")
            out.append(target, decimals: 0)
        }
        out.append("\" x=\"")
        out.append(bar.x)
        out.append("\" y=\"")
        out.append(bottom - height)
        out.append("\" width=\"")
        out.append(bar.width)
        out.append("\" height=\"")
        out.append(height)
        out.append("\"><title>")
        out.append(escaping: title)
        out.append("</title></rect>\n")
    }

    func drawHeader(_ out: inout Markup) {
        let titleBaseline = Self.headerRowHeight - 4
        out.append("<text class=\"axis-title\" fill=\"currentColor\" fill-opacity=\"0.75\" x=\"2\" y=\"")
        out.append(titleBaseline)
        out.append("\">")
        out.append(escaping: axisTitle)
        out.append("</text>\n")
        guard !legend.isEmpty else { return }
        let baseline = titleBaseline + (legendOnOwnRow ? Self.headerRowHeight : 0)
        var x = right - legend.map(\.width).reduce(0, +) - Self.legendSpacing * Double(legend.count - 1)
        out.append("<g class=\"legend\">\n")
        for item in legend {
            switch item.mark {
            case .line, .dashedLine:
                out.append("<line class=\"legend-mark ")
                out.append(item.className)
                out.append("\" stroke=\"currentColor\" stroke-width=\"")
                out.append(item.mark == .line ? "2\"" : "1.5\" stroke-dasharray=\"5 3\"")
                out.append(" x1=\"")
                out.append(x)
                out.append("\" x2=\"")
                out.append(x + 16)
                out.append("\" y1=\"")
                out.append(baseline - 4)
                out.append("\" y2=\"")
                out.append(baseline - 4)
                out.append("\"/>\n")
            case .swatch:
                out.append("<rect class=\"legend-mark ")
                out.append(item.className)
                out.append("\" fill=\"currentColor\" rx=\"2\" width=\"10\" height=\"10\" x=\"")
                out.append(x)
                out.append("\" y=\"")
                out.append(baseline - 9)
                out.append("\"/>\n")
            }
            out.append("<text class=\"legend-label\" fill=\"currentColor\" fill-opacity=\"0.75\" x=\"")
            out.append(x + (item.mark == .swatch ? 15 : 21))
            out.append("\" y=\"")
            out.append(baseline)
            out.append("\">")
            out.append(escaping: item.label)
            out.append("</text>\n")
            x += item.width + Self.legendSpacing
        }
        out.append("</g>\n")
    }

    func drawValueAxis(_ out: inout Markup) {
        out.append("<g class=\"value-grid\" stroke=\"currentColor\" stroke-opacity=\"0.15\" stroke-width=\"1\">\n")
        for tick in valueAxis.ticks.dropFirst() {
            out.append("<line class=\"grid\" data-value=\"")
            out.append(tick, decimals: valueAxis.decimals)
            out.appendHorizontalLine(from: left, to: right, at: y(tick))
        }
        out.append("</g>\n<g class=\"value-labels\" fill=\"currentColor\" fill-opacity=\"0.75\" text-anchor=\"end\">\n")
        for (tick, label) in zip(valueAxis.ticks, valueLabels) {
            out.append("<text class=\"y-tick\" data-value=\"")
            out.append(tick, decimals: valueAxis.decimals)
            out.append("\" x=\"")
            out.append(left - 6)
            out.append("\" y=\"")
            out.append(y(tick) + ChartCanvas.fontSize * 0.35)
            out.append("\">")
            out.append(escaping: label)
            out.append("</text>\n")
        }
        out.append("</g>\n")
    }

    /// The zero line, drawn over the feet of the bars, and the date ticks and labels under it.
    func drawDateAxis(_ out: inout Markup) {
        out.append("<line class=\"axis\" stroke=\"currentColor\" stroke-opacity=\"0.45\" data-value=\"0")
        out.appendHorizontalLine(from: left, to: right, at: bottom)
        out.append("<g class=\"date-ticks\" stroke=\"currentColor\" stroke-opacity=\"0.45\">\n")
        for tick in dateAxis.ticks {
            out.append("<line class=\"tick\" data-date=\"")
            out.append(tick.date)
            out.append("\" x1=\"")
            out.append(tick.x)
            out.append("\" x2=\"")
            out.append(tick.x)
            out.append("\" y1=\"")
            out.append(bottom)
            out.append("\" y2=\"")
            out.append(bottom + 4)
            out.append("\"/>\n")
        }
        out.append("</g>\n<g class=\"date-labels\" fill=\"currentColor\" fill-opacity=\"0.75\" text-anchor=\"middle\">\n")
        for tick in dateAxis.ticks {
            out.append("<text class=\"x-tick\" data-date=\"")
            out.append(tick.date)
            out.append("\" x=\"")
            out.append(tick.labelX)
            out.append("\" y=\"")
            out.append(bottom + 18)
            out.append("\">")
            out.append(escaping: tick.label)
            out.append("</text>\n")
        }
        out.append("</g>\n")
    }
}
