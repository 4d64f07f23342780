import CinnCore

/// One health data type per day, as an SVG chart: a bar of the day's total for types whose samples add up (steps,
/// energy, distance, sleep), and for readings (heart rate, height) a line from the day's lowest to its highest
/// sample with a dot at the mean. Days without samples are gaps.
public struct HealthDayChart: Sendable {
    /// How values are shown: distances in km, counts as what they count (steps, bpm), the rest in the unit they are kept in.
    public struct DisplayUnit: Sendable, Hashable {
        /// Empty for a plain count.
        public let label: String
        /// Kept value × factor = shown value.
        public let factor: Double

        public init(kept unit: String, type: String, cumulative: Bool) {
            switch unit {
            case "m" where cumulative: (label, factor) = ("km", 0.001)
            case "count/min": (label, factor) = ("bpm", 1)
            case "count": (label, factor) = (Self.counted[type] ?? "", 1)
            default: (label, factor) = (unit, 1)
            }
        }

        private static let counted = [
            "HKQuantityTypeIdentifierStepCount": "steps", "HKQuantityTypeIdentifierFlightsClimbed": "floors",
            "HKQuantityTypeIdentifierPushCount": "pushes", "HKQuantityTypeIdentifierSwimmingStrokeCount": "strokes",
        ]

        /// The value in this unit with as many decimals as its size needs and its thousands grouped: "8,412", "3.2", "0.45".
        public func format(_ kept: Double) -> String {
            let value = kept * factor
            let decimals = abs(value) >= 100 ? 0 : abs(value) >= 10 ? 1 : 2
            let text = ChartCanvas.number(abs(value), decimals: decimals)
            let whole = text.prefix { $0 != "." }
            var grouped = value < 0 ? "-" : ""
            for (index, digit) in whole.enumerated() {
                if whole.count > 4, index > 0, (whole.count - index) % 3 == 0 { grouped.append(",") }
                grouped.append(digit)
            }
            return grouped + text.dropFirst(whole.count)
        }

        /// "8,412 steps", "72 bpm", "12": the value with its unit, if it has one.
        public func text(_ kept: Double) -> String { label.isEmpty ? format(kept) : "\(format(kept)) \(label)" }
    }

    let days: [HealthDaySummary]
    let first: LocalDate, last: LocalDate
    let cumulative: Bool
    let unit: DisplayUnit
    let name: String

    /// - Parameters:
    ///   - days: the type's day summaries, in any order; those outside `range` are left out.
    ///   - range: the days shown.
    ///   - name: what the values are ("Step count"), for the axis title and the accessible name.
    ///   - cumulative: bars of each day's total, rather than each day's range and mean.
    ///   - unit: how the values are shown.
    public init(days: [HealthDaySummary], in range: ClosedRange<LocalDate>, name: String, unit: DisplayUnit, cumulative: Bool) {
        self.days = days.filter { range.contains($0.key.day) && $0.count > 0 }.sorted { $0.key.day < $1.key.day }
        first = range.lowerBound
        last = range.upperBound
        self.cumulative = cumulative
        self.unit = unit
        self.name = name
    }

    /// A complete `<svg>` element.
    public func svg() -> String {
        let title = "\(name) per day"
        guard !days.isEmpty else {
            var out = Markup(capacity: 1_024)
            let message = "No \(name.lowercased()) from \(first.dayMonth) to \(last.dayMonthYear)"
            out.openChart(id: "health-day-chart", height: 100, title: title, description: message + ".", style: Self.style)
            out.appendEmptyMessage([message, "Import an Apple Health export to see it."], centredAt: 50)
            out.append("</svg>\n")
            return out.string
        }
        let highest = days.map { cumulative ? $0.sum : $0.maximum }.max()! * unit.factor
        let lowest = cumulative ? 0 : min(0, days.map(\.minimum).min()! * unit.factor)
        let layout = BarLayout(
            from: first, through: last, lowest: lowest, highest: highest, axisTitle: unit.label.isEmpty ? name : "\(name) (\(unit.label))",
            legend: cumulative
                ? []
                : [
                    .init(mark: .line, className: "range", label: "lowest–highest"),
                    .init(mark: .swatch, className: "mean", label: "mean"),
                ])
        var out = Markup(capacity: 4_096 + days.count * 200)
        out.openChart(id: "health-day-chart", height: BarLayout.height, title: title, description: summary(), style: Self.style)
        layout.drawHeader(&out)
        layout.drawValueAxis(&out)
        out.append("<g class=\"days\" fill=\"currentColor\" stroke=\"currentColor\">\n")
        for day in days {
            let bar = layout.bar(from: day.key.day, through: day.key.day)
            let label =
                "\(day.key.day.weekdayName) \(day.key.day.dayMonth): "
                + (cumulative
                    ? unit.text(day.sum)
                    : "mean \(unit.format(day.mean)), \(unit.format(day.minimum))–\(unit.text(day.maximum)), \(day.count) sample\(day.count == 1 ? "" : "s")")
            out.append("<g class=\"day\" data-date=\"")
            out.append(day.key.day)
            out.append("\" data-value=\"")
            out.append((cumulative ? day.sum : day.mean) * unit.factor, decimals: 2)
            out.append("\"><title>")
            out.append(escaping: label)
            out.append("</title>")
            if cumulative {
                let top = layout.y(day.sum * unit.factor)
                out.append("<rect class=\"total\" stroke=\"none\" x=\"")
                out.append(bar.x)
                out.append("\" y=\"")
                out.append(min(top, layout.bottom - 1))
                out.append("\" width=\"")
                out.append(bar.width)
                out.append("\" height=\"")
                out.append(max(layout.bottom - top, 1))
                out.append("\"/>")
            } else {
                let middle = bar.x + bar.width / 2
                out.append("<line class=\"range\" stroke-width=\"")
                out.append(min(max(bar.width / 3, 1), 4))
                out.append("\" stroke-linecap=\"round\" x1=\"")
                out.append(middle)
                out.append("\" x2=\"")
                out.append(middle)
                out.append("\" y1=\"")
                out.append(layout.y(day.minimum * unit.factor))
                out.append("\" y2=\"")
                out.append(layout.y(day.maximum * unit.factor))
                out.append("\"/><circle class=\"mean\" stroke=\"none\" cx=\"")
                out.append(middle)
                out.append("\" cy=\"")
                out.append(layout.y(day.mean * unit.factor))
                out.append("\" r=\"")
                out.append(min(max(bar.width / 2, 1.5), 4))
                out.append("\"/>")
            }
            out.append("</g>\n")
        }
        out.append("</g>\n")
        layout.drawDateAxis(&out)
        out.append("</svg>\n")
        return out.string
    }

    static let style: StaticString = """
        #health-day-chart .total{fill:#2563eb}\
        #health-day-chart .range{stroke:#93c5fd}\
        #health-day-chart .mean{fill:#1d4ed8}\
        @media (prefers-color-scheme:dark){\
        #health-day-chart .total{fill:#60a5fa}\
        #health-day-chart .range{stroke:#1e40af}\
        #health-day-chart .mean{fill:#93c5fd}\
        }
        """

    /// The text summary for screen readers: the period, the days with samples, and the average per day (totals) or the
    /// mean and the lowest and highest samples (readings).
    func summary() -> String {
        guard let average = days.meanDailyTotal, let samples = days.samples else { return "No \(name.lowercased())." }
        let span = first.distance(to: last) + 1
        let text = "From \(first.dayMonthYear) to \(last.dayMonthYear): \(name.lowercased()) on \(days.count) of \(span) days"
        return cumulative
            ? text + ", \(unit.text(average)) a day on average."
            : text + ", mean \(unit.text(samples.mean)), from \(unit.format(samples.minimum)) to \(unit.text(samples.maximum))."
    }
}
