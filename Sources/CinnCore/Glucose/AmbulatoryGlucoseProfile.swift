import Foundation

/// The ambulatory glucose profile (AGP): the readings of several days (14 by the international consensus) laid over
/// one day by their local time, with the 5th, 25th, 50th, 75th and 95th percentiles at each time of day, and the
/// consensus statistics beside it (Battelino et al., "Clinical Targets for Continuous Glucose Monitoring Data
/// Interpretation: Recommendations From the International Consensus on Time in Range", Diabetes Care 2019;42:1593).
///
/// The day has 96 slots of 15 minutes. A slot's percentiles are those of the readings within 30 minutes either side of
/// its middle (across midnight too): an hour's readings, which smooths the curves as the AGP's do without a second pass.
/// Percentiles interpolate linearly between the closest ranks (`percentile`). A slot with fewer than
/// `minimumReadings` readings has none.
public struct AmbulatoryGlucoseProfile: Sendable, Equatable {
    public struct Slot: Sendable, Equatable {
        /// The slot's middle, in minutes after local midnight (7.5, 22.5, …).
        public var minute: Double
        public var readings: Int
        /// The 5th, 25th, 50th, 75th and 95th percentiles; nil with too few readings.
        public var percentiles: [Glucose]?
    }

    public static let slotMinutes = 15.0
    public static let windowMinutes = 30.0
    public static let percentileRanks = [5.0, 25, 50, 75, 95]
    public static let minimumReadings = 5

    public var slots: [Slot]
    public var statistics: GlucoseStatistics
    public var days: Int
    /// Whether the readings support the consensus metrics: days with readings, the share of time a CGM was active.
    public var coverage: GlucoseCoverage
    public var daysWithReadings: Int { coverage.daysWithReadings }
    public var activeShare: Double { coverage.activeShare }

    /// - Parameter readings: each reading's instant, its UTC offset (its local time of day) and its glucose.
    public init(readings: [(at: Date, utcOffsetSeconds: Int, glucose: Glucose)], days: Int) {
        self.days = days
        statistics = GlucoseStatistics.compute(readings.map(\.glucose))
        coverage = GlucoseCoverage(
            days: days, daysWithReadings: Set(readings.map { LocalDate(instant: $0.at, utcOffsetSeconds: $0.utcOffsetSeconds) }).count,
            readings: readings.count)
        let byMinute = readings.map { reading -> (minute: Double, value: Double) in
            let local = reading.at.timeIntervalSince1970 + Double(reading.utcOffsetSeconds)
            let seconds = local.truncatingRemainder(dividingBy: 86_400)
            return ((seconds < 0 ? seconds + 86_400 : seconds) / 60, reading.glucose.milligramsPerDeciliter)
        }.sorted { $0.minute < $1.minute }
        let count = Int(1440 / Self.slotMinutes)
        // The readings near a slot are one or two runs of the readings sorted by minute (two across midnight): each
        // run is found by binary search, a little wide, and its readings are then held to the window exactly.
        func firstIndex(from minute: Double) -> Int {
            var low = 0, high = byMinute.count
            while low < high {
                let middle = (low + high) / 2
                if byMinute[middle].minute < minute { low = middle + 1 } else { high = middle }
            }
            return low
        }
        func run(_ from: Double, _ to: Double) -> ArraySlice<(minute: Double, value: Double)> {
            let start = firstIndex(from: from - 0.001), end = firstIndex(from: to + 0.001)
            return byMinute[start..<max(start, end)]
        }
        slots = (0..<count).map { index in
            let middle = (Double(index) + 0.5) * Self.slotMinutes
            let low = middle - Self.windowMinutes, high = middle + Self.windowMinutes
            let near: ArraySlice<(minute: Double, value: Double)>
            if low < 0 {
                near = run(low + 1440, 1440) + run(0, high)
            } else if high >= 1440 {
                near = run(low, 1440) + run(0, high - 1440)
            } else {
                near = run(low, high)
            }
            let values = near.filter { reading in
                let distance = abs(reading.minute - middle)
                return min(distance, 1440 - distance) <= Self.windowMinutes
            }.map(\.value).sorted()
            return Slot(
                minute: middle, readings: values.count,
                percentiles: values.count >= Self.minimumReadings
                    ? Self.percentileRanks.map { Glucose(milligramsPerDeciliter: Self.percentile(values, $0)) } : nil)
        }
    }

    /// The `rank`th percentile (0–100) of sorted `values`, interpolating linearly between the closest ranks: the value
    /// at position (n − 1) · rank / 100, counting from 0 (Hyndman and Fan's type 7; NumPy's and spreadsheets'
    /// PERCENTILE.INC default). Of 15, 20, 35, 40, 50 the 40th percentile is 29.
    public static func percentile(_ values: [Double], _ rank: Double) -> Double {
        precondition(!values.isEmpty, "a percentile of no values")
        let position = Double(values.count - 1) * rank / 100
        let lower = Int(position.rounded(.down)), upper = min(lower + 1, values.count - 1)
        return values[lower] + (values[upper] - values[lower]) * (position - Double(lower))
    }
}
