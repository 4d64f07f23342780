import CinnCore

/// Calories eaten per day as bars against the day's target, as an SVG chart.
///
/// The target is one dashed line when every logged day has the same one, else a short mark over each day that has
/// one. Days over their target are drawn in another colour (class `over`, and named in the legend); days with nothing
/// logged are gaps, not zero bars.
public struct CalorieChart: Sendable {
    /// A logged day: kcal eaten and, if the user set one, the day's target in kcal.
    struct Day: Sendable {
        let date: LocalDate
        let energy: Double
        let target: Double?

        /// Over the target in whole kcal, as the numbers are shown.
        var isOver: Bool { target.map { energy.rounded() > $0.rounded() } ?? false }
    }

    /// How the targets are drawn.
    enum TargetMarks: Equatable {
        case none
        /// Every logged day has this target.
        case line(Double)
        /// Targets differ, or some days have none.
        case perDay
    }

    /// The logged days in the range, in date order, one per date.
    let days: [Day]
    let first: LocalDate?, last: LocalDate?
    /// Whether the days shown were asked for, rather than taken from the first and last logged day.
    let rangeGiven: Bool
    let title: String

    /// - Parameters:
    ///   - days: kcal eaten per logged day and the day's target in kcal, in any order; a later entry for a date
    ///     replaces an earlier one; amounts that are not finite and not negative are left out, as are targets not above zero.
    ///   - range: the days shown, logged or not; by default from the first to the last logged day.
    ///   - title: the chart's accessible name.
    public init(
        days: [(date: LocalDate, energy: Double, target: Double?)], in range: ClosedRange<LocalDate>? = nil,
        title: String = "Calories per day"
    ) {
        var byDate = [LocalDate: Day]()
        for day in days where day.energy.isFinite && day.energy >= 0 && range.map({ $0.contains(day.date) }) ?? true {
            let target = day.target.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
            byDate[day.date] = Day(date: day.date, energy: day.energy, target: target)
        }
        self.days = byDate.values.sorted { $0.date < $1.date }
        first = range?.lowerBound ?? self.days.first?.date
        last = range?.upperBound ?? self.days.last?.date
        rangeGiven = range != nil
        self.title = title
    }

    /// The days of the food log in `range`: their energy totals and targets. Days without entries, or whose entries
    /// say nothing about energy, are gaps.
    public init(foodLog days: some Sequence<DayNutrition>, in range: ClosedRange<LocalDate>? = nil, title: String = "Calories per day") {
        let logged = days.compactMap { day -> (date: LocalDate, energy: Double, target: Double?)? in
            guard !day.entries.isEmpty, let energy = day.totals.energy else { return nil }
            return (day.date, energy, day.energyTargetKcal)
        }
        self.init(days: logged, in: range, title: title)
    }

    var targetMarks: TargetMarks {
        let targets = Set(days.map { $0.target?.rounded() })
        if targets == [nil] || targets.isEmpty { return .none }
        if targets.count == 1, let target = days[0].target { return .line(target) }
        return .perDay
    }

    /// A complete `<svg>` element, for inline HTML and for a standalone `.svg` file.
    public func svg() -> String {
        guard let first, let last, !days.isEmpty else { return emptySVG() }
        let marks = targetMarks
        var legend = [BarLayout.LegendItem]()
        switch marks {
        case .none: break
        case .line(let target): legend.append(.init(mark: .dashedLine, className: "target", label: "target \(Self.kcal(target))"))
        case .perDay: legend.append(.init(mark: .line, className: "target-mark", label: "daily target"))
        }
        if days.contains(where: \.isOver) { legend.append(.init(mark: .swatch, className: "over", label: "over target")) }
        let highest = days.map { max($0.energy, $0.target ?? 0) }.max() ?? 0
        let layout = BarLayout(from: first, through: last, highest: max(highest, 500), axisTitle: "Calories (kcal)", legend: legend)

        var out = Markup(capacity: 4_096 + days.count * 256)
        out.openChart(id: "calorie-chart", height: BarLayout.height, title: title, description: summary(), style: Self.style)
        layout.drawHeader(&out)
        layout.drawValueAxis(&out)
        drawBars(&out, layout)
        drawTargets(&out, layout, marks)
        layout.drawDateAxis(&out)
        out.append("</svg>\n")
        return out.string
    }

    /// Colours for light and dark mode: inline, text and grid take the page's text colour; standalone, the chart brings its own background.
    static let style: StaticString = """
        #calorie-chart:root{color:#1e293b}\
        #calorie-chart:root .background{fill:#ffffff}\
        #calorie-chart .day{fill:#2563eb}\
        #calorie-chart .over{fill:#dc2626}\
        #calorie-chart .target,#calorie-chart .target-mark{stroke:#15803d}\
        @media (prefers-color-scheme:dark){\
        #calorie-chart:root{color:#e2e8f0}\
        #calorie-chart:root .background{fill:#0f172a}\
        #calorie-chart .day{fill:#60a5fa}\
        #calorie-chart .over{fill:#f87171}\
        #calorie-chart .target,#calorie-chart .target-mark{stroke:#4ade80}\
        }
        """

    private func drawBars(_ out: inout Markup, _ layout: BarLayout) {
        out.append("<g class=\"days\" fill=\"currentColor\">\n")
        for day in days {
            var label = "\(day.date.weekdayName) \(day.date.dayMonth): \(Self.kcal(day.energy))"
            if let target = day.target {
                let difference = (day.energy - target).rounded()
                label +=
                    difference > 0
                    ? ", \(Self.kcal(difference)) over the target of \(Self.kcal(target))"
                    : ", target \(Self.kcal(target))"
            }
            layout.drawDayBar(
                &out, date: day.date, kcal: day.energy, className: day.isOver ? "day over" : "day",
                target: day.target, title: label)
        }
        out.append("</g>\n")
    }

    private func drawTargets(_ out: inout Markup, _ layout: BarLayout, _ marks: TargetMarks) {
        switch marks {
        case .none:
            return
        case .line(let target):
            let y = layout.y(target)
            out.append("<line class=\"target\" data-kcal=\"")
            out.append(target, decimals: 0)
            out.append("\" stroke=\"currentColor\" stroke-width=\"1.5\" stroke-dasharray=\"6 4")
            out.appendHorizontalLine(from: layout.left, to: layout.right, at: y)
        case .perDay:
            out.append("<g class=\"target-marks\" stroke=\"currentColor\" stroke-width=\"2\" stroke-linecap=\"round\">\n")
            for day in days {
                guard let target = day.target else { continue }
                let bar = layout.bar(from: day.date, through: day.date)
                let overhang = min(3, layout.dayWidth - bar.width) / 2
                let y = layout.y(target)
                out.append("<line class=\"target-mark\" data-date=\"")
                out.append(day.date)
                out.append("\" data-kcal=\"")
                out.append(target, decimals: 0)
                out.append("\" x1=\"")
                out.append(bar.x - overhang)
                out.append("\" x2=\"")
                out.append(bar.x + bar.width + overhang)
                out.append("\" y1=\"")
                out.append(y)
                out.append("\" y2=\"")
                out.append(y)
                out.append("\"/>\n")
            }
            out.append("</g>\n")
        }
    }

    private func emptySVG() -> String {
        var out = Markup(capacity: 2_048)
        let message =
            if rangeGiven, let first, let last {
                first == last ? "No food logged on \(first.dayMonthYear)" : "No food logged from \(first.dayMonth) to \(last.dayMonthYear)"
            } else {
                "No food logged yet"
            }
        out.openChart(id: "calorie-chart", height: 100, title: title, description: message + ".", style: Self.style)
        out.appendEmptyMessage([message, "Log a meal to see calories per day."], centredAt: 50)
        out.append("</svg>\n")
        return out.string
    }

    /// The text summary for screen readers: the period, how many days were logged, the average and range, and the days over target.
    func summary() -> String {
        guard let first, let last, !days.isEmpty else { return "No food logged." }
        let energies = days.map(\.energy)
        let dayCount = first.distance(to: last) + 1
        var text: String
        if dayCount == 1 {
            text = "On \(first.dayMonthYear): \(Self.kcal(energies[0]))."
        } else {
            text =
                "From \(first.dayMonthYear) to \(last.dayMonthYear): food logged on \(days.count) of \(dayCount) days, "
                + "\(Self.kcal(energies.reduce(0, +) / Double(days.count))) a day on average"
            text += days.count == 1 ? "." : ", from \(ChartCanvas.number(energies.min()!, decimals: 0)) to \(Self.kcal(energies.max()!))."
        }
        let over = days.count(where: \.isOver)
        switch targetMarks {
        case .none:
            break
        case .line(let target):
            text += " Target \(Self.kcal(target)); "
            text += over == 0 ? "no day over it." : "\(Self.days(over)) over it."
        case .perDay:
            let withTarget = days.count { $0.target != nil }
            text += " \(over) of \(Self.days(withTarget)) with a target \(over == 1 ? "was" : "were") over it."
        }
        return text
    }

    /// "1850 kcal": whole kcal.
    static func kcal(_ value: Double) -> String {
        "\(ChartCanvas.number(value, decimals: 0)) kcal"
    }

    /// "1 day", "3 days".
    static func days(_ count: Int) -> String {
        count == 1 ? "1 day" : "\(count) days"
    }
}

extension LocalDate {
    static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// "Mon".
    public var weekdayName: String { Self.weekdayNames[weekday - 1] }
}
