import CinnCore

extension CalorieChart {
    /// Eighths of a column, from one eighth to seven.
    static let partialBlocks: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// The chart as text for a terminal: a line a day with the date, a bar in eighths of a column, the kcal and, over
    /// the target, by how much; the target as `┆` where a bar does not cover it, named on the last line.
    ///
    ///     Mon 2024-03-04  ███████████████████████████▌    ┆     1850 kcal
    ///     Tue 2024-03-05  ████████████████████████████████▍ 2240 kcal  +240 over
    ///     Wed 2024-03-06                                  ┆          —
    ///                                                     ┆ target 2000 kcal
    ///
    /// - Parameter width: columns for the longest bar, at least 10. No trailing newline.
    public func text(width: Int = 40) -> String {
        guard let first, let last, !days.isEmpty else { return "No food logged yet" }
        let width = max(width, 10)
        let highest = days.map { max($0.energy, $0.target ?? 0) }.max()!
        let scale = highest > 0 && highest.isFinite ? Double(width) / highest : 0
        let byDate = Dictionary(uniqueKeysWithValues: days.map { ($0.date, $0) })
        let marks = targetMarks
        func column(_ kcal: Double) -> Int { min((kcal * scale).roundedInt ?? 0, width - 1) }
        let values = days.map { Self.kcal($0.energy) }
        let valueWidth = max(values.map(\.count).max()!, 1)

        var lines = [String]()
        for date in stride(from: first, through: last, by: 1) {
            var cells = [Character](repeating: " ", count: width)
            let day = byDate[date]
            var end = 0
            if let day {
                let eighths = max((day.energy * scale * 8).roundedInt ?? 0, 0)
                for index in 0..<min(eighths / 8, width) { cells[index] = "█" }
                end = eighths / 8
                if eighths % 8 > 0, end < width {
                    cells[end] = Self.partialBlocks[eighths % 8 - 1]
                    end += 1
                }
            }
            let target: Double? =
                switch marks {
                case .none: nil
                case .line(let target): target
                case .perDay: day?.target
                }
            if let target, column(target) >= end { cells[column(target)] = "┆" }
            var line = "\(date.weekdayName) \(date.iso)  " + String(cells) + " "
            let value = day.map { Self.kcal($0.energy) } ?? "—"
            line += String(repeating: " ", count: valueWidth - value.count) + value
            if let day, day.isOver, let dayTarget = day.target {
                line += "  +\(ChartCanvas.number(day.energy - dayTarget, decimals: 0)) over"
            }
            lines.append(String(line.reversed().drop { $0 == " " }.reversed()))
        }
        let indent = String(repeating: " ", count: "Mon 2024-03-04  ".count)
        switch marks {
        case .none:
            break
        case .line(let target):
            let key = "┆ target \(Self.kcal(target))"
            let start = column(target) + key.count <= width + valueWidth + 1 ? column(target) : 0
            lines.append(indent + String(repeating: " ", count: start) + key)
        case .perDay:
            lines.append(indent + "┆ daily target")
        }
        return lines.joined(separator: "\n")
    }
}
