import CinnCore
import Foundation

/// The share of energy from protein, carbohydrate and fat, as an SVG donut with a legend of percentages and grams.
///
/// Energy per macronutrient uses the Atwater general factors: 4 kcal per gram of protein, 4 kcal per gram of
/// carbohydrate and 9 kcal per gram of fat. The shares are of the energy those give, which can differ from the logged
/// energy (alcohol, fibre and label rounding are not in it). The middle shows the logged energy, the number the page
/// shows beside the chart; only without one does it show the macros' own total, marked as estimated ("≈").
/// Percentages are whole and add up to 100.
public struct MacroSplitChart: Sendable {
    /// One macronutrient's part of the split.
    struct Share: Sendable {
        let nutrient: Nutrient
        /// The logged amount in grams, or nil when no entry said.
        let grams: Double?
        /// `grams` times the Atwater factor.
        let kilocalories: Double
        /// Whole percent of the macros' energy; the shares add up to 100.
        let percent: Int

        var className: StaticString {
            switch nutrient.key {
            case "protein": "protein"
            case "carbohydrate": "carbohydrate"
            default: "fat"
            }
        }
    }

    /// The Atwater general factors, kcal per gram.
    static let kilocaloriesPerGram: [(nutrient: Nutrient, factor: Double)] = [
        (.protein, 4), (.carbohydrate, 4), (.fat, 9),
    ]

    static let height = 170.0
    static let centre = (x: 85.0, y: 85.0)
    static let outerRadius = 72.0
    static let innerRadius = 48.0
    /// Degrees left empty between two segments.
    static let gapDegrees = 2.0

    let nutrients: Nutrients
    let title: String
    let energyUnit: EnergyUnit

    /// - Parameters:
    ///   - nutrients: amounts, of which protein, carbohydrate and fat in grams make the split, and energy the middle.
    ///   - title: the chart's accessible name.
    ///   - energyUnit: the unit of the energy in the middle.
    public init(nutrients: Nutrients, title: String = "Energy from protein, carbohydrate and fat", energyUnit: EnergyUnit = .kilocalories) {
        self.nutrients = nutrients
        self.title = title
        self.energyUnit = energyUnit
    }

    /// The energy in the middle, in `energyUnit`: the logged energy, else `macroKcal`, the macros' own total, marked "≈".
    func centreEnergy(macroKcal: Double) -> String {
        guard let logged = nutrients.energy, logged.isFinite, logged > 0 else {
            return "≈\(ChartCanvas.number(energyUnit.value(kilocalories: macroKcal), decimals: 0))"
        }
        return ChartCanvas.number(energyUnit.value(kilocalories: logged), decimals: 0)
    }

    /// Protein, carbohydrate and fat in that order, or nil when together they give no energy (all absent or zero).
    var shares: [Share]? {
        let energies = Self.kilocaloriesPerGram.map { entry in
            let grams = nutrients[entry.nutrient].flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            return (entry.nutrient, grams, (grams ?? 0) * entry.factor)
        }
        let total = energies.map(\.2).reduce(0, +)
        guard total > 0, total.isFinite else { return nil }
        // Largest remainder: floor every share, then give the points left to the largest fractions.
        let exact = energies.map { $0.2 / total * 100 }
        var percents = exact.map { Int($0.rounded(.down)) }
        let order = exact.indices.sorted { (exact[$0] - exact[$0].rounded(.down), $1) > (exact[$1] - exact[$1].rounded(.down), $0) }
        for index in order.prefix(100 - percents.reduce(0, +)) { percents[index] += 1 }
        return energies.indices.map { index in
            Share(nutrient: energies[index].0, grams: energies[index].1, kilocalories: energies[index].2, percent: percents[index])
        }
    }

    /// A complete `<svg>` element, for inline HTML and for a standalone `.svg` file.
    public func svg() -> String {
        guard let shares else { return emptySVG() }
        var out = Markup(capacity: 4_096)
        out.openChart(id: "macro-chart", height: Self.height, title: title, description: summary(shares), style: Self.style)
        drawDonut(&out, shares)
        drawLegend(&out, shares)
        out.append("</svg>\n")
        return out.string
    }

    /// Colours for light and dark mode, told apart by people with the common colour-vision deficiencies (Okabe–Ito).
    static let style: StaticString = """
        #macro-chart:root{color:#1e293b}\
        #macro-chart:root .background{fill:#ffffff}\
        #macro-chart .protein{fill:#0072b2}\
        #macro-chart .carbohydrate{fill:#e69f00}\
        #macro-chart .fat{fill:#cc79a7}\
        @media (prefers-color-scheme:dark){\
        #macro-chart:root{color:#e2e8f0}\
        #macro-chart:root .background{fill:#0f172a}\
        #macro-chart .protein{fill:#56b4e9}\
        #macro-chart .carbohydrate{fill:#f0b429}\
        #macro-chart .fat{fill:#e5a0c6}\
        }
        """

    /// Segments clockwise from the top, in the order of the legend; the energy in the middle (`centreEnergy(macroKcal:)`).
    private func drawDonut(_ out: inout Markup, _ shares: [Share]) {
        let total = shares.map(\.kilocalories).reduce(0, +)
        let drawn = shares.filter { $0.kilocalories > 0 }
        out.append("<g class=\"segments\" fill=\"currentColor\">\n")
        var start = 0.0
        for share in drawn {
            let sweep = share.kilocalories / total * 360
            let gap = drawn.count > 1 ? min(Self.gapDegrees, sweep / 4) : 0
            out.append("<path class=\"segment ")
            out.append(share.className)
            out.append("\" data-nutrient=\"")
            out.append(escaping: share.nutrient.key)
            out.append("\" data-percent=\"")
            out.append(integer: share.percent)
            out.append("\" data-kcal=\"")
            out.append(share.kilocalories, decimals: 0)
            out.append("\" fill-rule=\"evenodd\" d=\"")
            appendRingSegment(&out, from: start + gap / 2, to: start + sweep - gap / 2)
            out.append("\"><title>")
            out.append(escaping: "\(share.nutrient.name): \(share.percent)%")
            out.append("</title></path>\n")
            start += sweep
        }
        out.append("</g>\n<text class=\"total\" fill=\"currentColor\" text-anchor=\"middle\" font-weight=\"600\" font-size=\"18\" x=\"")
        out.append(Self.centre.x)
        out.append("\" y=\"")
        out.append(Self.centre.y + 2)
        out.append("\">")
        out.append(escaping: centreEnergy(macroKcal: total))
        out.append("</text>\n<text class=\"total-unit\" fill=\"currentColor\" fill-opacity=\"0.75\" text-anchor=\"middle\" x=\"")
        out.append(Self.centre.x)
        out.append("\" y=\"")
        out.append(Self.centre.y + 18)
        out.append("\">")
        out.append(escaping: energyUnit.rawValue)
        out.append("</text>\n")
    }

    /// Appends the path of the ring between `start` and `end` degrees, clockwise from the top; a whole ring as two circles.
    private func appendRingSegment(_ out: inout Markup, from start: Double, to end: Double) {
        let (cx, cy) = Self.centre
        let (outer, inner) = (Self.outerRadius, Self.innerRadius)
        func point(_ degrees: Double, _ radius: Double) -> (Double, Double) {
            let radians = degrees * .pi / 180
            return (cx + radius * sin(radians), cy - radius * cos(radians))
        }
        func move(_ command: StaticString, _ p: (Double, Double)) {
            out.append(command)
            out.append(p.0)
            out.append(" ")
            out.append(p.1)
        }
        func arc(_ radius: Double, large: Bool, clockwise: Bool, to p: (Double, Double)) {
            out.append("A")
            out.append(radius)
            out.append(" ")
            out.append(radius)
            out.append(large ? " 0 1 " : " 0 0 ")
            out.append(clockwise ? "1 " : "0 ")
            out.append(p.0)
            out.append(" ")
            out.append(p.1)
        }
        if end - start >= 359.99 {
            for radius in [outer, inner] {
                move("M", point(0, radius))
                arc(radius, large: true, clockwise: true, to: point(180, radius))
                arc(radius, large: true, clockwise: true, to: point(0, radius))
                out.append("Z")
            }
            return
        }
        let large = end - start > 180
        move("M", point(start, outer))
        arc(outer, large: large, clockwise: true, to: point(end, outer))
        move("L", point(end, inner))
        arc(inner, large: large, clockwise: false, to: point(start, inner))
        out.append("Z")
    }

    /// One row a macro: a swatch, its name and percent, and under them the grams and kcal, or that it was not logged.
    private func drawLegend(_ out: inout Markup, _ shares: [Share]) {
        let left = 190.0, right = ChartCanvas.width - 12
        let rowHeight = 44.0
        var top = Self.centre.y - rowHeight * 1.5
        out.append("<g class=\"legend\">\n")
        for share in shares {
            let baseline = top + 18
            out.append("<g class=\"legend-item")
            if share.grams == nil { out.append(" unknown") }
            out.append("\" data-nutrient=\"")
            out.append(escaping: share.nutrient.key)
            out.append("\">\n<rect class=\"legend-mark ")
            out.append(share.className)
            out.append(share.grams == nil ? "\" fill=\"currentColor\" fill-opacity=\"0.35" : "\" fill=\"currentColor")
            out.append("\" rx=\"2\" width=\"12\" height=\"12\" x=\"")
            out.append(left)
            out.append("\" y=\"")
            out.append(baseline - 11)
            out.append("\"/>\n<text class=\"name\" fill=\"currentColor\" font-size=\"14\" x=\"")
            out.append(left + 18)
            out.append("\" y=\"")
            out.append(baseline)
            out.append("\">")
            out.append(escaping: share.nutrient.name)
            out.append(
                "</text>\n<text class=\"percent\" fill=\"currentColor\" font-size=\"16\" font-weight=\"600\" text-anchor=\"end\" x=\"")
            out.append(right)
            out.append("\" y=\"")
            out.append(baseline)
            out.append("\">")
            out.append(escaping: share.grams == nil ? "—" : "\(share.percent)%")
            out.append("</text>\n<text class=\"amount\" fill=\"currentColor\" fill-opacity=\"0.75\" x=\"")
            out.append(left + 18)
            out.append("\" y=\"")
            out.append(baseline + 16)
            out.append("\">")
            if let grams = share.grams {
                out.append(escaping: "\(ChartCanvas.amount(grams)) g · \(ChartCanvas.number(share.kilocalories, decimals: 0)) kcal")
            } else {
                out.append("not logged")
            }
            out.append("</text>\n</g>\n")
            top += rowHeight
        }
        out.append("</g>\n")
    }

    private func emptySVG() -> String {
        var out = Markup(capacity: 2_048)
        out.openChart(
            id: "macro-chart", height: 100, title: title, description: "No protein, carbohydrate or fat logged.", style: Self.style)
        out.appendEmptyMessage(["No protein, carbs or fat logged", "Log food with its nutrition to see the split."], centredAt: 50)
        out.append("</svg>\n")
        return out.string
    }

    /// The text summary for screen readers: each macro's share, grams and what was not logged.
    func summary(_ shares: [Share]) -> String {
        let total = shares.map(\.kilocalories).reduce(0, +)
        let known = shares.filter { $0.grams != nil }
        var text = "About \(ChartCanvas.number(total, decimals: 0)) kcal from protein, carbohydrate and fat at 4, 4 and 9 kcal a gram: "
        text +=
            known.map { "\($0.nutrient.name.lowercased()) \($0.percent)% (\(ChartCanvas.amount($0.grams!)) g)" }
            .joined(separator: ", ") + "."
        let unknown = shares.filter { $0.grams == nil }.map { $0.nutrient.name.lowercased() }
        if !unknown.isEmpty { text += " Not logged: \(unknown.joined(separator: " and "))." }
        return text
    }
}
