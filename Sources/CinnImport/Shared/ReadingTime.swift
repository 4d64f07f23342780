import CinnCore
import Foundation

/// Turns the times files write into the instant and UTC offset Cinn stores (docs/DESIGN.md "Days").
enum ReadingTime {
    /// The instant of `time` and the offset to store with it (see `LocalDateTime.resolved(in:)`); a time
    /// without an offset is UTC when `assumingUTC` (Libra, Google Health), else wall-clock time.
    static func resolve(_ time: LocalDateTime, in timeZone: TimeZone, assumingUTC: Bool = false) -> (instant: Date, utcOffsetSeconds: Int) {
        var time = time
        if time.utcOffsetSeconds == nil, assumingUTC { time.utcOffsetSeconds = 0 }
        return time.resolved(in: timeZone)
    }

    /// Whole milliseconds since 1970, for dedup keys.
    static func epochMilliseconds(_ instant: Date) -> Int64 {
        instant.millisecondsSince1970
    }

    /// Seconds since midnight of a clock time `H:MM`, `HH:MM` or `HH:MM:SS`; nil for anything else.
    static func secondsOfDay(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), (1...2).contains(parts[0].count),
            parts.dropFirst().allSatisfy({ $0.count == 2 })
        else { return nil }
        let numbers = parts.compactMap { part in part.allSatisfy { $0.isASCII && $0.isNumber } ? Int(part) : nil }
        guard numbers.count == parts.count, numbers[0] < 24, numbers[1] < 60, numbers.count == 2 || numbers[2] < 60 else {
            return nil
        }
        return numbers[0] * 3600 + numbers[1] * 60 + (numbers.count == 3 ? numbers[2] : 0)
    }
}
