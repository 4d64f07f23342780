import CinnCore
import Foundation

/// Glucose over a day (or the last few hours) as an SVG: the readings as a line over the 70–180 mg/dL target band,
/// meals as markers on the time axis, insulin doses as bars under it (bolus and basal apart). Each mark's title
/// says what it is, for hovering and for screen readers.
public struct GlucoseDayChart: Sendable {
    public struct MealMark: Sendable {
        public var at: Date
        public var label: String
        public init(at: Date, label: String) {
            self.at = at
            self.label = label
        }
    }

    let start: Date
    let end: Date
    let utcOffsetSeconds: Int
    let points: [GlucosePoint]
    let meals: [MealMark]
    let doses: [InsulinDose]
    let unit: GlucoseUnit
    /// What the chart says without readings, and what its summary calls its span.
    let span: String

    /// Readings further apart than this are not joined by the line.
    static let gap: TimeInterval = 30 * 60
    /// Readings get a dot while there are at most this many (finger sticks, not a CGM's every five minutes).
    static let maximumDots = 60

    static let height = 250.0, left = 34.0, right = 392.0, top = 26.0, plotBottom = 176.0, insulinTop = 184.0, insulinBottom = 214.0

    /// - Parameters: the day's (or the window's) `start` and `end` instants and the offset its hours are labelled in;
    ///   `points` in time order; `span` as the summary names it ("this day", "in the last 6 hours").
    public init(
        start: Date, end: Date, utcOffsetSeconds: Int, points: [GlucosePoint], meals: [MealMark], doses: [InsulinDose], unit: GlucoseUnit,
        span: String = "this day"
    ) {
        self.span = span
        self.start = start
        self.end = end
        self.utcOffsetSeconds = utcOffsetSeconds
        self.points = points.filter { $0.at >= start && $0.at < end }
        self.meals = meals
        self.doses = doses
        self.unit = unit
    }

    func x(_ instant: Date) -> Double {
        Self.left + (Self.right - Self.left) * instant.timeIntervalSince(start) / max(1, end.timeIntervalSince(start))
    }

    public func svg() -> String {
        var out = Markup(capacity: 8_192 + points.count * 24)
        out.openChart(id: "glucose-chart", height: Self.height, title: "Glucose", description: summary(), style: Self.style)
        let highest = max(points.map { $0.glucose.value(in: unit) }.max() ?? 0, Glucose(milligramsPerDeciliter: 250).value(in: unit))
        let axis = ValueAxis(low: Glucose(milligramsPerDeciliter: 40).value(in: unit), high: highest, minimumSpan: 1)
        /// The height of a value in the chart's unit, and of a glucose.
        func y(_ value: Double) -> Double {
            Self.plotBottom - (Self.plotBottom - Self.top) * (value - axis.lower) / max(axis.upper - axis.lower, 1e-9)
        }
        func y(_ glucose: Glucose) -> Double { y(glucose.value(in: unit)) }
        // Legend: the unit on the left, the marks on the right.
        out.append("<g class=\"legend\" fill=\"currentColor\" fill-opacity=\"0.85\"><text x=\"")
        out.append(Self.left)
        out.append("\" y=\"14\">")
        out.append(escaping: unit.rawValue)
        out.append("</text><text x=\"")
        out.append(Self.right)
        out.append("\" y=\"14\" text-anchor=\"end\"><tspan class=\"meal\">▲</tspan> meal <tspan class=\"bolus\">■</tspan> bolus ")
        out.append("<tspan class=\"basal\">■</tspan> basal</text></g>\n")
        // Target band.
        let bandTop = y(Glucose(milligramsPerDeciliter: GlucoseStatistics.rangeHigh)),
            bandBottom = y(Glucose(milligramsPerDeciliter: GlucoseStatistics.rangeLow))
        out.append("<rect class=\"range\" x=\"")
        out.append(Self.left)
        out.append("\" width=\"")
        out.append(Self.right - Self.left)
        out.append("\" y=\"")
        out.append(bandTop)
        out.append("\" height=\"")
        out.append(bandBottom - bandTop)
        out.append("\"/>\n")
        // Value axis.
        out.append("<g class=\"grid\" stroke=\"currentColor\" stroke-opacity=\"0.15\">\n")
        for tick in axis.ticks {
            let ty = y(tick)
            out.append("<line")
            out.appendHorizontalLine(from: Self.left, to: Self.right, at: ty)
        }
        out.append("</g>\n<g class=\"ticks\" fill=\"currentColor\" fill-opacity=\"0.75\" text-anchor=\"end\">\n")
        for tick in axis.ticks {
            let ty = y(tick)
            out.append("<text x=\"")
            out.append(Self.left - 4)
            out.append("\" y=\"")
            out.append(ty + 4)
            out.append("\">")
            out.append(tick, decimals: axis.decimals)
            out.append("</text>\n")
        }
        out.append("</g>\n")
        // The glucose line, broken at gaps.
        if !points.isEmpty {
            out.append("<path class=\"glucose\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\" stroke-linejoin=\"round\" d=\"")
            var previous: Date?
            for point in points {
                out.append(previous.map { point.at.timeIntervalSince($0) > Self.gap } ?? true ? "M" : " L")
                out.append(x(point.at))
                out.append(" ")
                out.append(y(point.glucose))
                previous = point.at
            }
            out.append("\"/>\n")
            if points.count <= Self.maximumDots {
                out.append("<g class=\"glucose\" fill=\"currentColor\">\n")
                for point in points {
                    out.append("<circle r=\"3\" cx=\"")
                    out.append(x(point.at))
                    out.append("\" cy=\"")
                    out.append(y(point.glucose))
                    out.append("\"><title>")
                    out.append(escaping: clock(point.at) + ": " + point.glucose.formatted(unit))
                    out.append("</title></circle>\n")
                }
                out.append("</g>\n")
            }
        } else {
            out.appendEmptyMessage(["No readings \(span)"], centredAt: (Self.top + Self.plotBottom) / 2)
        }
        // Meals.
        out.append("<g class=\"meal\" fill=\"currentColor\">\n")
        for meal in meals where meal.at >= start && meal.at < end {
            let mx = x(meal.at)
            out.append("<path d=\"M")
            out.append(mx)
            out.append(" ")
            out.append(Self.plotBottom - 9)
            out.append(" l-6 9 h12 z\"><title>")
            out.append(escaping: clock(meal.at) + ": " + meal.label)
            out.append("</title></path>\n")
        }
        out.append("</g>\n")
        // Insulin bars: 10 units fill the band's height.
        out.append("<line class=\"axis\" stroke=\"currentColor\" stroke-opacity=\"0.3\"")
        out.appendHorizontalLine(from: Self.left, to: Self.right, at: Self.insulinBottom)
        for dose in doses where dose.takenAt >= start && dose.takenAt < end {
            let barHeight = (Self.insulinBottom - Self.insulinTop) * min(dose.units, 10) / 10
            out.append("<rect class=\"")
            out.append(dose.kind == .bolus ? "bolus" : "basal")
            out.append("\" x=\"")
            out.append(x(dose.takenAt) - 2.5)
            out.append("\" width=\"5\" y=\"")
            out.append(Self.insulinBottom - barHeight)
            out.append("\" height=\"")
            out.append(barHeight)
            out.append("\"><title>")
            let name = dose.insulin.map { " (\($0))" } ?? ""
            out.append(escaping: clock(dose.takenAt) + ": " + ChartCanvas.amount(dose.units) + " U " + dose.kind.rawValue + name)
            out.append("</title></rect>\n")
        }
        // Hours: every fourth of a day, every hour of a few (whole hours of the local clock), never closer than a
        // label's width at a phone's size.
        out.append("<g class=\"hours\" fill=\"currentColor\" fill-opacity=\"0.75\" text-anchor=\"middle\">\n")
        let hours = end.timeIntervalSince(start) / 3600
        let step = hours <= 6 ? 1 : hours <= 12 ? 2 : 4
        let local = start.timeIntervalSince1970 + Double(utcOffsetSeconds)
        var hour = Int((local / 3600).rounded(.up))
        while hour % step != 0 { hour += 1 }
        while true {
            let instant = Date(timeIntervalSince1970: Double(hour) * 3600 - Double(utcOffsetSeconds))
            guard instant < end else { break }
            out.append("<text x=\"")
            out.append(x(instant))
            out.append("\" y=\"")
            out.append(Self.insulinBottom + 16)
            out.append("\">")
            out.append(integer: (hour % 24 + 24) % 24, digits: 2)
            out.append(":00</text>\n")
            hour += step
        }
        out.append("</g>\n</svg>\n")
        return out.string
    }

    /// "07:45" in the day's offset.
    func clock(_ instant: Date) -> String {
        LocalDateTime(instant: instant, utcOffsetSeconds: utcOffsetSeconds).clock
    }

    func summary() -> String {
        guard !points.isEmpty else { return "No glucose readings \(span)." }
        let statistics = GlucoseStatistics.compute(points.map(\.glucose))
        let inRange = Int((statistics.inRange * 100).rounded())
        let mean = statistics.mean.map { $0.formatted(unit) } ?? "–"
        return "\(points.count) readings, mean \(mean), \(inRange) % in range; \(meals.count) meals, \(doses.count) insulin doses."
    }

    static let style: StaticString = """
        #glucose-chart:root{color:#1e293b}\
        #glucose-chart:root .background{fill:#ffffff}\
        #glucose-chart .range{fill:#16a34a;fill-opacity:.12}\
        #glucose-chart .glucose{stroke:#2563eb;color:#2563eb}\
        #glucose-chart .meal{color:#b45309;fill:#b45309}\
        #glucose-chart .bolus{fill:#7c3aed}\
        #glucose-chart .basal{fill:#0891b2}\
        @media (prefers-color-scheme:dark){\
        #glucose-chart:root{color:#e2e8f0}\
        #glucose-chart:root .background{fill:#0f172a}\
        #glucose-chart .glucose{stroke:#60a5fa;color:#60a5fa}\
        #glucose-chart .meal{color:#fbbf24;fill:#fbbf24}\
        #glucose-chart .bolus{fill:#a78bfa}\
        #glucose-chart .basal{fill:#22d3ee}\
        }
        """
}
