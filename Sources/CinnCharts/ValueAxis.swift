import Foundation

/// A value axis with 4 to 6 round ticks (1, 2, 5 or, failing those, 2.5 times a power of ten) that span the values.
struct ValueAxis {
    /// The tick values, from the lowest (the axis' lower end) to the highest (its upper end).
    let ticks: [Double]
    /// Decimals the tick labels need.
    let decimals: Int

    /// The lowest and highest tick: the ends of the axis.
    let lower: Double, upper: Double

    /// An axis covering `low...high`; a span narrower than `minimumSpan` (above zero) is widened around its middle.
    init(low: Double, high: Double, minimumSpan: Double) {
        // A value no chart could hold (one stored before Cinn checked values) is drawn at the edge of ±10^12.
        func drawable(_ value: Double) -> Double { value.isFinite ? min(max(value, -1e12), 1e12) : 0 }
        var low = drawable(low), high = drawable(high)
        // Never narrower than a millionth of the values (nor than 10^-6): a span of a few subnormal numbers has no ticks.
        let span = max(minimumSpan.isFinite ? minimumSpan : 0, 1e-6 * max(1, abs(low), abs(high)))
        if high - low < span {
            let middle = (low + high) / 2
            low = middle - span / 2
            high = middle + span / 2
        }
        var best = (step: 1.0, first: 0, count: 0, cost: Double.infinity)
        let magnitude = Int(log10(high - low).rounded(.down))
        for exponent in (magnitude - 2)...(magnitude + 1) {
            for (mantissa, roundness) in [(1.0, 0.0), (2.0, 0.0), (5.0, 0.0), (2.5, 1.0)] {
                let step = mantissa * Self.power(exponent)
                let first = Int((low / step + 1e-9).rounded(.down))
                let last = Int((high / step - 1e-9).rounded(.up))
                let count = last - first + 1
                // Prefer 4–6 ticks, then the tightest fit, then steps of 1, 2 or 5 over 2.5.
                let outside = count < 4 ? Double(4 - count) : count > 6 ? Double(count - 6) : 0
                let waste = (Double(last - first) * step - (high - low)) / (Double(last - first) * step)
                let cost = outside * 10 + waste + roundness * 0.5
                if cost < best.cost { best = (step, first, count, cost) }
            }
        }
        var first = best.first, count = best.count
        while count < 4 {
            if count % 2 == 0 { first -= 1 }
            count += 1
        }
        ticks = (0..<count).map { Double(first + $0) * best.step }
        lower = ticks[0]
        upper = ticks[count - 1]
        decimals =
            (0...3).first { places in
                let scaled = best.step * Self.power(places)
                return abs(scaled - scaled.rounded()) < 1e-6
            } ?? 3
    }

    private static func power(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<abs(exponent) { result *= 10 }
        return exponent < 0 ? 1 / result : result
    }
}
