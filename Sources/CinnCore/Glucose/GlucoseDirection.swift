import Foundation

/// Where a CGM says glucose is heading: Nightscout's directions (its `direction` field), the arrows CGM apps show.
/// Sent by the sensor's uploader; for readings without one, worked out from the reading before (`between`), with
/// Dexcom's bands of mg/dL per minute, which Nightscout and xDrip+ use too.
public enum GlucoseDirection: String, CaseIterable, Sendable, Codable {
    case doubleUp = "DoubleUp"
    case singleUp = "SingleUp"
    case fortyFiveUp = "FortyFiveUp"
    case flat = "Flat"
    case fortyFiveDown = "FortyFiveDown"
    case singleDown = "SingleDown"
    case doubleDown = "DoubleDown"
    case none = "NONE"
    case notComputable = "NOT COMPUTABLE"
    case rateOutOfRange = "RATE OUT OF RANGE"

    /// The arrow a person sees.
    public var arrow: String {
        switch self {
        case .doubleUp: "⇈"
        case .singleUp: "↑"
        case .fortyFiveUp: "↗"
        case .flat: "→"
        case .fortyFiveDown: "↘"
        case .singleDown: "↓"
        case .doubleDown: "⇊"
        case .none, .notComputable, .rateOutOfRange: "–"
        }
    }

    /// Words for it, for screen readers and the glance.
    public var words: String {
        switch self {
        case .doubleUp: "rising fast"
        case .singleUp: "rising"
        case .fortyFiveUp: "rising slowly"
        case .flat: "steady"
        case .fortyFiveDown: "falling slowly"
        case .singleDown: "falling"
        case .doubleDown: "falling fast"
        case .none, .notComputable, .rateOutOfRange: "no direction"
        }
    }

    /// Nightscout's trend number (its `/pebble` and v3 `trend`): 1 DoubleUp … 7 DoubleDown, 0 none, 8 not computable,
    /// 9 rate out of range.
    public var trend: Int {
        switch self {
        case .none: 0
        case .doubleUp: 1
        case .singleUp: 2
        case .fortyFiveUp: 3
        case .flat: 4
        case .fortyFiveDown: 5
        case .singleDown: 6
        case .doubleDown: 7
        case .notComputable: 8
        case .rateOutOfRange: 9
        }
    }

    /// The direction of a rate of change in mg/dL per minute, the same both ways: steady under 1, slowly from 1,
    /// rising or falling from 2, fast from 3.
    public init(milligramsPerDeciliterPerMinute rate: Double) {
        let rising = rate > 0
        switch abs(rate) {
        case 3...: self = rising ? .doubleUp : .doubleDown
        case 2..<3: self = rising ? .singleUp : .singleDown
        case 1..<2: self = rising ? .fortyFiveUp : .fortyFiveDown
        default: self = .flat
        }
    }

    /// How far apart two samples may be for their difference to say where glucose is heading.
    public static let longestGap: TimeInterval = 15 * 60

    /// The direction from the sample before to this one; nil when there is none close enough before it.
    public static func between(_ earlier: GlucosePoint, _ later: GlucosePoint) -> GlucoseDirection? {
        let minutes = later.at.timeIntervalSince(earlier.at) / 60
        guard minutes > 0, minutes * 60 <= longestGap else { return nil }
        return GlucoseDirection(
            milligramsPerDeciliterPerMinute: (later.glucose.milligramsPerDeciliter - earlier.glucose.milligramsPerDeciliter) / minutes)
    }
}
