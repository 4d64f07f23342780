import CinnCore
import Foundation

/// One element of a rendered chart: its attributes and the text directly inside it.
struct Element {
    let name: String
    let attributes: [String: String]
    let text: String

    subscript(_ attribute: String) -> String? { attributes[attribute] }

    func number(_ attribute: String) -> Double? { attributes[attribute].flatMap(Double.init) }
}

/// The `name` elements of `markup`, in document order; with `className`, only those whose class is exactly that.
func elements(_ markup: String, _ name: String, class className: String? = nil) -> [Element] {
    var found = [Element]()
    var rest = markup[...]
    while let open = rest.range(of: "<\(name)") {
        guard let close = rest[open.upperBound...].firstIndex(of: ">") else { break }
        defer { rest = rest[close...] }
        guard [" ", ">", "/"].contains(rest[open.upperBound]) else { continue }
        let attributes = parseAttributes(rest[open.upperBound..<close])
        var text = ""
        if rest[rest.index(before: close)] != "/", let end = rest[close...].range(of: "</\(name)>") {
            text = String(rest[rest.index(after: close)..<end.lowerBound])
        }
        if className == nil || attributes["class"] == className {
            found.append(Element(name: name, attributes: attributes, text: text))
        }
    }
    return found
}

private func parseAttributes(_ tag: Substring) -> [String: String] {
    var attributes = [String: String]()
    var rest = tag
    while let equals = rest.range(of: "=\"") {
        let name = rest[..<equals.lowerBound].trimmingCharacters(in: .whitespaces)
        guard let quote = rest[equals.upperBound...].firstIndex(of: "\"") else { break }
        attributes[name] = String(rest[equals.upperBound..<quote])
        rest = rest[rest.index(after: quote)...]
    }
    return attributes
}

/// The points of a path made of `M` and `L` commands.
func pathPoints(_ d: String) -> [(x: Double, y: Double)] {
    d.split(whereSeparator: { $0 == "M" || $0 == "L" }).map { pair in
        let numbers = pair.split(separator: " ").compactMap { Double($0) }
        return (numbers[0], numbers[1])
    }
}

/// The value axis as drawn: tick values and the y of their grid lines, from the bottom up.
struct DrawnValueAxis {
    let ticks: [(value: Double, y: Double)]

    init(_ svg: String) {
        ticks = elements(svg, "line", class: "grid").compactMap { line in
            guard let value = line.number("data-value"), let y = line.number("y1") else { return nil }
            return (value, y)
        }
    }

    /// The value a y coordinate stands for, read off the lowest and highest ticks.
    func value(atY y: Double) -> Double {
        let low = ticks[0], high = ticks[ticks.count - 1]
        return low.value + (y - low.y) / (high.y - low.y) * (high.value - low.value)
    }
}

/// A deterministic journal: `days` days from 2024-03-04, drifting `perDay` kg from `start` with a small
/// wobble, weighed on the days `weighed` accepts (the first and last day always).
func sampleTrend(
    days: Int, start: Double = 80, perDay: Double = -0.05,
    weighed: (Int) -> Bool = { $0 % 3 != 1 }
) -> WeightTrend {
    let first = LocalDate(year: 2024, month: 3, day: 4)!
    let wobble = [0.3, -0.2, 0.1, -0.4, 0.2]
    let daily = (0..<days).filter { $0 == 0 || $0 == days - 1 || weighed($0) }.map { day in
        DailyWeight(date: first.adding(days: day), weight: Mass(kilograms: start + perDay * Double(day) + wobble[day % 5]))
    }
    return WeightTrend(days: daily)
}
