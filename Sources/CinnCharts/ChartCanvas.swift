import CinnCore

/// What the nutrition charts share: the coordinate system, text measures and the `<svg>` element that opens each.
enum ChartCanvas {
    /// The width of the coordinate system: the chart scales to any width from it.
    static let width = 400.0
    static let fontSize = 12.0
    /// The size labels are drawn at on a phone: the page's style sheet sets 15 units there, so that a chart about
    /// 330 px wide (a 390 px screen) shows text of at least 12 px. Labels are spaced for it at every width.
    static let phoneFontSize = 15.0

    /// About how wide a label is drawn at its largest (on a phone): 0.6 em a character, generous for the usual
    /// sans-serif fonts.
    static func textWidth(_ text: String, fontSize: Double = phoneFontSize) -> Double {
        Double(text.count) * fontSize * 0.6
    }

    /// A number as people read it, without trailing zeros: whole from 10 up, one decimal from 1, else two (2140, 14.3 → 14, 2.4, 0.45).
    static func amount(_ value: Double) -> String {
        let magnitude = abs(value)
        return number(value, decimals: magnitude >= 10 ? 0 : magnitude >= 1 ? 1 : 2)
    }

    /// A number rounded to `decimals` places, without trailing zeros.
    static func number(_ value: Double, decimals: Int) -> String {
        var out = Markup(capacity: 16)
        out.append(value, decimals: decimals)
        return out.string
    }
}

extension Markup {
    /// Opens an `<svg>` that scales to its container's width by its viewBox, named by `title` and summarised by
    /// `description` for screen readers, with its colours for light and dark mode and a background for standalone files.
    mutating func openChart(id: StaticString, height: Double, title: String, description: String, style: StaticString) {
        append("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"")
        append(id)
        append("\" class=\"")
        append(id)
        append("\" viewBox=\"0 0 ")
        append(ChartCanvas.width)
        append(" ")
        append(height)
        append("\" width=\"100%\" preserveAspectRatio=\"xMidYMid meet\" role=\"img\" aria-labelledby=\"")
        append(id)
        append("-title ")
        append(id)
        append("-desc\" font-family=\"system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif\" font-size=\"")
        append(ChartCanvas.fontSize)
        append("\">\n<title id=\"")
        append(id)
        append("-title\">")
        append(escaping: title)
        append("</title>\n<desc id=\"")
        append(id)
        append("-desc\">")
        append(escaping: description)
        append("</desc>\n<style>")
        append(style)
        append("</style>\n<rect class=\"background\" width=\"100%\" height=\"100%\" fill=\"none\"/>\n")
    }

    /// Appends the message of an empty chart, `lines` centred one under the other around `y`, the first larger.
    mutating func appendEmptyMessage(_ lines: [String], centredAt y: Double) {
        let lineHeight = ChartCanvas.fontSize * 1.6
        var baseline = y - lineHeight * Double(lines.count - 1) / 2 + ChartCanvas.fontSize * 0.35
        for (index, line) in lines.enumerated() {
            append("<text class=\"empty\" fill=\"currentColor\" fill-opacity=\"")
            append(index == 0 ? 0.85 : 0.7, decimals: 2)
            append("\" text-anchor=\"middle\" x=\"")
            append(ChartCanvas.width / 2)
            append("\" y=\"")
            append(baseline)
            append("\" font-size=\"")
            append(index == 0 ? ChartCanvas.fontSize * 1.25 : ChartCanvas.fontSize)
            append("\">")
            append(escaping: line)
            append("</text>\n")
            baseline += lineHeight
        }
    }
}

/// The `<style>` of every chart, as it appears in the SVG: a page that embeds charts allows exactly these inline
/// styles (by their hashes, in its Content-Security-Policy) and no other.
public enum ChartStyles {
    public static let all: [String] = [
        AGPChart.style, CalorieChart.style, EnergyChart.style, GlucoseDayChart.style, HealthDayChart.style, MacroSplitChart.style,
        NutrientChart.style, StrengthChart.style, TrendChart.style,
    ].map { $0.description }
}
