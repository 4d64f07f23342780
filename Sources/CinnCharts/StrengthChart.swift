import CinnCore

/// An exercise's best estimated one-rep max of each day, as an SVG line chart. Each point's title
/// names the set the estimate came from.
public struct StrengthChart: Sendable {
    let history: [EstimatedMax]
    let unit: MassUnit
    let title: String

    /// Points get a dot (and a title naming the set) while there are at most this many.
    static let maximumDots = 400

    /// - Parameter history: the best estimate of each day, oldest first (`ExerciseReport.history`).
    public init(history: [EstimatedMax], unit: MassUnit, title: String = "Estimated one-rep max") {
        self.history = history
        self.unit = unit
        self.title = title
    }

    public func svg() -> String {
        guard let first = history.first, let last = history.last else {
            var out = Markup(capacity: 1_024)
            out.openChart(id: "strength-chart", height: 100, title: title, description: "No estimate yet.", style: Self.style)
            out.appendEmptyMessage(["No estimate yet", "Sets of 1 to 10 reps with a weight give one."], centredAt: 50)
            out.append("</svg>\n")
            return out.string
        }
        let values = history.map { $0.oneRepMax.estimate.value(in: unit) }
        let low = values.min() ?? 0, high = values.max() ?? 0
        let margin = max((high - low) * 0.1, high * 0.02, 1)
        let layout = BarLayout(
            from: first.day, through: last.day, lowest: max(0, low - margin), highest: high + margin,
            axisTitle: "\(title) (\(unit.rawValue))",
            legend: [.init(mark: .line, className: "estimate", label: "best of the day")])
        var out = Markup(capacity: 4_096 + history.count * (history.count <= Self.maximumDots ? 220 : 24))
        out.openChart(id: "strength-chart", height: BarLayout.height, title: title, description: summary(), style: Self.style)
        layout.drawHeader(&out)
        layout.drawValueAxis(&out)
        out.append("<path class=\"estimate\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\" stroke-linejoin=\"round\" d=\"")
        for (index, (point, value)) in zip(history, values).enumerated() {
            out.append(index == 0 ? "M" : " L")
            out.append(layout.x(point.day) + layout.dayWidth / 2)
            out.append(" ")
            out.append(layout.y(value))
        }
        out.append("\"/>\n")
        if history.count <= Self.maximumDots {
            out.append("<g class=\"estimate dots\" fill=\"currentColor\">\n")
            for (point, value) in zip(history, values) {
                out.append("<circle r=\"3.5\" cx=\"")
                out.append(layout.x(point.day) + layout.dayWidth / 2)
                out.append("\" cy=\"")
                out.append(layout.y(value))
                out.append("\"><title>")
                out.append(escaping: Self.describe(point, unit: unit))
                out.append("</title></circle>\n")
            }
            out.append("</g>\n")
        }
        layout.drawDateAxis(&out)
        out.append("</svg>\n")
        return out.string
    }

    /// "Tue, Mar 5: 116 kg, from 110 kg × 3".
    public static func describe(_ estimate: EstimatedMax, unit: MassUnit) -> String {
        "\(estimate.day.weekdayName) \(estimate.day.dayMonth): \(estimate.oneRepMax.formatted(in: unit)), from \(lifted(estimate.set, unit: unit))"
    }

    /// "110 kg × 3" (the weight to a tenth; whole numbers without a decimal).
    public static func lifted(_ set: LiftedSet, unit: MassUnit) -> String {
        "\(weight(set.weight, unit: unit)) × \(set.reps)"
    }

    /// "110 kg", "61.2 kg": to a tenth, whole numbers without a decimal.
    public static func weight(_ mass: Mass, unit: MassUnit) -> String {
        let tenths = (mass.value(in: unit) * 10).rounded() / 10
        return "\(Mass.format(tenths, decimals: tenths == tenths.rounded() ? 0 : 1)) \(unit.rawValue)"
    }

    static let style: StaticString = """
        #strength-chart:root{color:#1e293b}\
        #strength-chart:root .background{fill:#ffffff}\
        #strength-chart .estimate{stroke:#2563eb;color:#2563eb}\
        @media (prefers-color-scheme:dark){\
        #strength-chart:root{color:#e2e8f0}\
        #strength-chart:root .background{fill:#0f172a}\
        #strength-chart .estimate{stroke:#60a5fa;color:#60a5fa}\
        }
        """

    /// For screen readers: the period, the first and latest estimates and the best.
    func summary() -> String {
        guard let first = history.first, let last = history.last,
            let best = history.max(by: { $0.oneRepMax.estimate.kilograms < $1.oneRepMax.estimate.kilograms })
        else { return "No estimate yet." }
        return "From \(first.day.dayMonthYear) to \(last.day.dayMonthYear), \(history.count) days: "
            + "\(first.oneRepMax.formatted(in: unit)) at first, \(last.oneRepMax.formatted(in: unit)) latest, "
            + "best \(best.oneRepMax.formatted(in: unit)) on \(best.day.dayMonthYear)."
    }
}
