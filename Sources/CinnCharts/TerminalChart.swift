import CinnCore

/// The weight trend as a small text chart for a terminal: values with the unit on the left, the trend as `*`, weigh-ins as `.`.
public struct TerminalChart: Sendable {
    /// The days drawn, in date order.
    let points: [TrendPoint]
    let unit: MassUnit
    /// Columns of the plot, not counting the labels.
    let width: Int
    /// Rows of the plot, not counting the axis and the dates.
    let height: Int

    /// - Parameters:
    ///   - points: the days to draw, in date order, one per day.
    ///   - width: columns for the plot, at least 22 (room for the first and last date); days are averaged when there are more.
    ///   - height: rows for the plot, at least 4.
    public init(points: some Collection<TrendPoint>, unit: MassUnit, width: Int = 60, height: Int = 12) {
        self.points = Array(points)
        self.unit = unit
        self.width = max(width, 22)
        self.height = max(height, 4)
    }

    /// The chart: `height` rows, the axis and a line with the first and last date; no trailing newline.
    public func render() -> String {
        guard let first = points.first, let last = points.last else { return "No weigh-ins yet" }
        let (trend, weighIns) = columns()
        let values = trend + weighIns.compactMap { $0 }
        let axis = ValueAxis(low: values.min()!, high: values.max()!, minimumSpan: Mass(kilograms: 2).value(in: unit))
        func row(_ value: Double) -> Int {
            min(max((((axis.upper - value) / (axis.upper - axis.lower)) * Double(height - 1)).roundedInt ?? 0, 0), height - 1)
        }
        var grid = [[Character]](repeating: [Character](repeating: " ", count: width), count: height)
        for (column, value) in weighIns.enumerated() {
            if let value { grid[row(value)][column] = "." }
        }
        for (column, value) in trend.enumerated() {
            grid[row(value)][column] = "*"
        }
        var labels = [Int: String]()
        for tick in axis.ticks {
            labels[row(tick)] = "\(Mass.format(tick, decimals: axis.decimals)) \(unit.rawValue)"
        }
        let labelWidth = labels.values.map(\.count).max() ?? 0
        func padded(_ text: String) -> String { String(repeating: " ", count: labelWidth - text.count) + text }
        var lines = [String]()
        for (index, cells) in grid.enumerated() {
            let line = padded(labels[index] ?? "") + (labels[index] == nil ? " │" : " ┤") + String(cells)
            lines.append(String(line.reversed().drop { $0 == " " }.reversed()))
        }
        lines.append(padded("") + " └" + String(repeating: "─", count: width))
        var dates = padded("") + "  " + first.date.iso
        if points.count > 1 {
            dates += String(repeating: " ", count: width - 2 * first.date.iso.count) + last.date.iso
        }
        lines.append(dates)
        return lines.joined(separator: "\n")
    }

    /// The trend and weigh-in of each column: days averaged when more than the columns, else spread over the width.
    func columns() -> (trend: [Double], weighIns: [Double?]) {
        let count = points.count
        let trendValues = points.map { $0.trend.value(in: unit) }
        guard count > 1 else { return (trendValues, [points[0].measured?.value(in: unit)]) }
        var trend = [Double](repeating: 0, count: width)
        var weighIns = [Double?](repeating: nil, count: width)
        if count > width {
            for column in 0..<width {
                let days = (column * count / width)..<((column + 1) * count / width)
                trend[column] = trendValues[days].reduce(0, +) / Double(days.count)
                let measured = points[days].compactMap { $0.measured?.value(in: unit) }
                if !measured.isEmpty { weighIns[column] = measured.reduce(0, +) / Double(measured.count) }
            }
        } else {
            let daysPerColumn = Double(count - 1) / Double(width - 1)
            for column in 0..<width {
                let position = Double(column) * daysPerColumn
                let day = min(Int(position), count - 2)
                let fraction = position - Double(day)
                trend[column] = trendValues[day] + (trendValues[day + 1] - trendValues[day]) * fraction
            }
            for (day, point) in points.enumerated() {
                if let measured = point.measured {
                    weighIns[Int((Double(day) / daysPerColumn).rounded())] = measured.value(in: unit)
                }
            }
        }
        return (trend, weighIns)
    }
}
