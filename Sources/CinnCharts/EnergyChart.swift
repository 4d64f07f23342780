import CinnCore

/// Intake per day as bars, with the formula's and the adaptive expenditure as lines, as an SVG chart.
///
/// Complete days are solid bars; other logged days are pale (class `partial`), since the adaptive
/// estimate leaves them out. A line breaks where its estimate does not exist.
public struct EnergyChart: Sendable {
    let days: [EnergyDay]
    let title: String

    /// - Parameter days: consecutive days, oldest first (`EnergyReport.history`).
    public init(days: [EnergyDay], title: String = "Intake and expenditure per day") {
        self.days = days
        self.title = title
    }

    public func svg() -> String {
        let logged = days.filter { $0.intakeKcal != nil }
        guard let first = days.first?.date, let last = days.last?.date,
            !logged.isEmpty || days.contains(where: { $0.formulaKcal != nil || $0.adaptiveKcal != nil })
        else {
            var out = Markup(capacity: 1_024)
            out.openChart(id: "energy-chart", height: 100, title: title, description: "Nothing logged yet.", style: Self.style)
            out.appendEmptyMessage(["Nothing to show yet", "Log food and weigh in to see intake and expenditure."], centredAt: 50)
            out.append("</svg>\n")
            return out.string
        }
        var legend = [BarLayout.LegendItem(mark: .swatch, className: "complete", label: "eaten")]
        if days.contains(where: { $0.formulaKcal != nil }) {
            legend.append(.init(mark: .dashedLine, className: "formula", label: "formula"))
        }
        if days.contains(where: { $0.adaptiveKcal != nil }) { legend.append(.init(mark: .line, className: "adaptive", label: "adaptive")) }
        let highest = days.map { max($0.intakeKcal ?? 0, $0.formulaKcal ?? 0, $0.adaptiveKcal ?? 0) }.max() ?? 0
        let layout = BarLayout(from: first, through: last, highest: max(highest, 500), axisTitle: "Energy (kcal a day)", legend: legend)
        var out = Markup(capacity: 4_096 + days.count * 200)
        out.openChart(id: "energy-chart", height: BarLayout.height, title: title, description: summary(), style: Self.style)
        layout.drawHeader(&out)
        layout.drawValueAxis(&out)
        out.append("<g class=\"intake\" fill=\"currentColor\">\n")
        for day in logged {
            guard let kcal = day.intakeKcal else { continue }
            let title =
                "\(day.date.weekdayName) \(day.date.dayMonth): \(CalorieChart.kcal(kcal)) eaten"
                + (day.status == .complete ? "" : day.status == .partial ? ", marked partial" : ", not marked complete")
            layout.drawDayBar(&out, date: day.date, kcal: kcal, className: day.status == .complete ? "complete" : "partial", title: title)
        }
        out.append("</g>\n")
        drawLine(&out, layout, className: "formula", dashed: true) { $0.formulaKcal }
        drawLine(&out, layout, className: "adaptive", dashed: false) { $0.adaptiveKcal }
        layout.drawDateAxis(&out)
        out.append("</svg>\n")
        return out.string
    }

    private func drawLine(
        _ out: inout Markup, _ layout: BarLayout, className: StaticString, dashed: Bool,
        value: (EnergyDay) -> Double?
    ) {
        guard days.contains(where: { value($0) != nil }) else { return }
        out.append("<path class=\"")
        out.append(className)
        out.append("\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\" stroke-linejoin=\"round\"")
        if dashed { out.append(" stroke-dasharray=\"6 4\"") }
        out.append(" d=\"")
        var drawing = false
        for day in days {
            guard let kcal = value(day) else {
                drawing = false
                continue
            }
            out.append(drawing ? " L" : " M")
            out.append(layout.x(day.date) + layout.dayWidth / 2)
            out.append(" ")
            out.append(layout.y(kcal))
            drawing = true
        }
        out.append("\"/>\n")
    }

    static let style: StaticString = """
        #energy-chart:root{color:#1e293b}\
        #energy-chart:root .background{fill:#ffffff}\
        #energy-chart .complete{fill:#2563eb}\
        #energy-chart .partial{fill:#2563eb;fill-opacity:.35}\
        #energy-chart .formula{stroke:#b45309}\
        #energy-chart .adaptive{stroke:#15803d}\
        @media (prefers-color-scheme:dark){\
        #energy-chart:root{color:#e2e8f0}\
        #energy-chart:root .background{fill:#0f172a}\
        #energy-chart .complete,#energy-chart .partial{fill:#60a5fa}\
        #energy-chart .formula{stroke:#fbbf24}\
        #energy-chart .adaptive{stroke:#4ade80}\
        }
        """

    /// For screen readers: the period, the mean intake of the logged days and the latest estimates.
    func summary() -> String {
        guard let first = days.first?.date, let last = days.last?.date else { return "Nothing logged." }
        let intakes = days.compactMap(\.intakeKcal)
        var text = "From \(first.dayMonthYear) to \(last.dayMonthYear): "
        text +=
            intakes.isEmpty
            ? "no food logged."
            : "food logged on \(intakes.count) days, \(CalorieChart.kcal(intakes.reduce(0, +) / Double(intakes.count))) a day on average."
        if let formula = days.last(where: { $0.formulaKcal != nil })?.formulaKcal {
            text += " Formula expenditure \(CalorieChart.kcal(formula))."
        }
        if let adaptive = days.last(where: { $0.adaptiveKcal != nil })?.adaptiveKcal {
            text += " Adaptive expenditure \(CalorieChart.kcal(adaptive))."
        }
        return text
    }
}
