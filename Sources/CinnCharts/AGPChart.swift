import CinnCore
import Foundation

/// The ambulatory glucose profile as an SVG, drawn as the consensus AGP is: the 5th–95th percentile band, the
/// 25th–75th inside it, the median as a line, over one day from midnight to midnight, with the 70–180 mg/dL target
/// range marked. Where a time of day has too few readings the band and the line break.
public struct AGPChart: Sendable {
    let profile: AmbulatoryGlucoseProfile
    let unit: GlucoseUnit

    static let height = 240.0, left = 34.0, right = 392.0, top = 26.0, bottom = 206.0

    public init(profile: AmbulatoryGlucoseProfile, unit: GlucoseUnit) {
        self.profile = profile
        self.unit = unit
    }

    static func x(minute: Double) -> Double { left + (right - left) * minute / 1440 }

    public func svg() -> String {
        var out = Markup(capacity: 16_384)
        out.openChart(id: "agp-chart", height: Self.height, title: "Ambulatory glucose profile", description: summary(), style: Self.style)
        let highest = max(profile.slots.compactMap { $0.percentiles?.last?.milligramsPerDeciliter }.max() ?? 0, 250)
        let axis = ValueAxis(
            low: Glucose(milligramsPerDeciliter: 40).value(in: unit), high: Glucose(milligramsPerDeciliter: highest).value(in: unit),
            minimumSpan: 1)
        /// The height of a value in the chart's unit, and of a glucose.
        func y(_ value: Double) -> Double {
            Self.bottom - (Self.bottom - Self.top) * (value - axis.lower) / max(axis.upper - axis.lower, 1e-9)
        }
        func y(_ glucose: Glucose) -> Double { y(glucose.value(in: unit)) }
        // Legend.
        out.append("<g class=\"legend\" fill=\"currentColor\" fill-opacity=\"0.85\"><text x=\"")
        out.append(Self.left)
        out.append("\" y=\"14\">")
        out.append(escaping: unit.rawValue)
        out.append("</text><text x=\"")
        out.append(Self.right)
        out.append("\" y=\"14\" text-anchor=\"end\"><tspan class=\"outer\">■</tspan> 5–95 % <tspan class=\"inner\">■</tspan> 25–75 % ")
        out.append("<tspan class=\"median\">—</tspan> median</text></g>\n")
        // Value grid and ticks.
        out.append("<g class=\"grid\" stroke=\"currentColor\" stroke-opacity=\"0.15\">\n")
        for tick in axis.ticks {
            out.append("<line")
            out.appendHorizontalLine(from: Self.left, to: Self.right, at: y(tick))
        }
        out.append("</g>\n<g class=\"ticks\" fill=\"currentColor\" fill-opacity=\"0.75\" text-anchor=\"end\">\n")
        for tick in axis.ticks {
            out.append("<text x=\"")
            out.append(Self.left - 4)
            out.append("\" y=\"")
            out.append(y(tick) + 4)
            out.append("\">")
            out.append(tick, decimals: axis.decimals)
            out.append("</text>\n")
        }
        out.append("</g>\n")
        // The target range's limits.
        for limit in [GlucoseStatistics.rangeLow, GlucoseStatistics.rangeHigh] {
            out.append("<line class=\"target\" stroke-dasharray=\"4 3\"")
            out.appendHorizontalLine(from: Self.left, to: Self.right, at: y(Glucose(milligramsPerDeciliter: limit)))
        }
        // Runs of slots with percentiles: the bands and the line break between them.
        var runs: [[AmbulatoryGlucoseProfile.Slot]] = [[]]
        for slot in profile.slots {
            if slot.percentiles == nil {
                if !runs[runs.count - 1].isEmpty { runs.append([]) }
            } else {
                runs[runs.count - 1].append(slot)
            }
        }
        runs.removeAll { $0.isEmpty }
        for (className, low, high) in [("outer", 0, 4), ("inner", 1, 3)] {
            for run in runs {
                out.append("<path class=\"")
                out.append(escaping: className)
                out.append("\" d=\"")
                for (index, slot) in run.enumerated() {
                    out.append(index == 0 ? "M" : " L")
                    out.append(Self.x(minute: slot.minute))
                    out.append(" ")
                    out.append(y(slot.percentiles![high]))
                }
                for slot in run.reversed() {
                    out.append(" L")
                    out.append(Self.x(minute: slot.minute))
                    out.append(" ")
                    out.append(y(slot.percentiles![low]))
                }
                out.append(" Z\"/>\n")
            }
        }
        for run in runs {
            out.append("<path class=\"median\" fill=\"none\" stroke-width=\"2.5\" stroke-linejoin=\"round\" d=\"")
            for (index, slot) in run.enumerated() {
                out.append(index == 0 ? "M" : " L")
                out.append(Self.x(minute: slot.minute))
                out.append(" ")
                out.append(y(slot.percentiles![2]))
            }
            out.append("\"/>\n")
        }
        if runs.isEmpty {
            out.appendEmptyMessage(["Too few readings for a profile"], centredAt: (Self.top + Self.bottom) / 2)
        }
        // Hours.
        out.append("<g class=\"hours\" fill=\"currentColor\" fill-opacity=\"0.75\" text-anchor=\"middle\">\n")
        // Every four hours up to 20:00: at a phone's size, every three ran into each other, and so did a last
        // "00:00" at the right edge.
        for hour in stride(from: 0, through: 20, by: 4) {
            out.append("<text x=\"")
            out.append(Self.x(minute: Double(hour * 60)))
            out.append("\" y=\"")
            out.append(Self.bottom + 18)
            out.append("\">")
            out.append(integer: hour, digits: 2)
            out.append(":00</text>\n")
        }
        out.append("</g>\n</svg>\n")
        return out.string
    }

    func summary() -> String {
        let statistics = profile.statistics
        guard statistics.count > 0 else { return "No glucose readings in these \(profile.days) days." }
        let medians = profile.slots.compactMap { $0.percentiles?[2] }
        let range = medians.isEmpty ? "" : ", the median from \(medians.min()!.formatted(unit)) to \(medians.max()!.formatted(unit))"
        return "\(statistics.count) readings over \(profile.days) days\(range) across the day; "
            + "\((statistics.inRange * 100).wholeText) % in range 70–180 mg/dL."
    }

    static let style: StaticString = """
        #agp-chart:root{color:#1e293b}\
        #agp-chart:root .background{fill:#ffffff}\
        #agp-chart .outer{fill:#93c5fd;color:#93c5fd;fill-opacity:.55}\
        #agp-chart .inner{fill:#3b82f6;color:#3b82f6;fill-opacity:.6}\
        #agp-chart .median{stroke:#1e3a8a;color:#1e3a8a}\
        #agp-chart .target{stroke:#16a34a;stroke-width:1.5}\
        @media (prefers-color-scheme:dark){\
        #agp-chart:root{color:#e2e8f0}\
        #agp-chart:root .background{fill:#0f172a}\
        #agp-chart .outer{fill:#1e40af;color:#1e40af;fill-opacity:.6}\
        #agp-chart .inner{fill:#3b82f6;color:#3b82f6;fill-opacity:.7}\
        #agp-chart .median{stroke:#dbeafe;color:#dbeafe}\
        #agp-chart .target{stroke:#4ade80}\
        }
        """
}
