/// A tiny line chart of a few values, such as the last 7 days of the trend, drawn in the text colour.
public struct Sparkline: Sendable {
    let values: [Double]
    let title: String

    static let width = 120.0
    static let height = 32.0
    /// Room kept around the line so its ends and the last dot are not cut off.
    static let inset = 4.0

    /// - Parameters:
    ///   - values: the values from oldest to newest; values that are not finite are left out.
    ///   - title: the sparkline's accessible name, such as "Trend, last 7 days: down 0.4 kg".
    public init(values: [Double], title: String) {
        self.values = values.filter(\.isFinite)
        self.title = title
    }

    /// A `<svg>` element sized by `viewBox` only; the line keeps its stroke width at any size.
    public func svg() -> String {
        var out = Markup(capacity: 512 + values.count * 16)
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"sparkline\" viewBox=\"0 0 ")
        out.append(Self.width)
        out.append(" ")
        out.append(Self.height)
        out.append("\" preserveAspectRatio=\"xMidYMid meet\" role=\"img\"><title>")
        out.append(escaping: title)
        out.append("</title>")
        if let low = values.min(), let high = values.max() {
            let span = high - low
            let step = values.count > 1 ? (Self.width - 2 * Self.inset) / Double(values.count - 1) : 0
            func x(_ index: Int) -> Double { values.count > 1 ? Self.inset + Double(index) * step : Self.width / 2 }
            func y(_ value: Double) -> Double {
                span > 0 ? Self.height - Self.inset - (value - low) / span * (Self.height - 2 * Self.inset) : Self.height / 2
            }
            out.append("<path fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\" stroke-linejoin=\"round\" stroke-linecap=\"round\" vector-effect=\"non-scaling-stroke\" d=\"")
            for (index, value) in values.enumerated() {
                out.append(index == 0 ? "M" : "L")
                out.append(x(index))
                out.append(" ")
                out.append(y(value))
            }
            out.append("\"/><circle fill=\"currentColor\" r=\"3\" cx=\"")
            out.append(x(values.count - 1))
            out.append("\" cy=\"")
            out.append(y(values[values.count - 1]))
            out.append("\"/>")
        }
        out.append("</svg>")
        return out.string
    }
}
