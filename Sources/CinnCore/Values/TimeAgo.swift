import Foundation

extension Date {
    /// How long before `now` this was: "just now", "5 min ago", "2 h ago", "3 days ago", "4 months ago".
    public func ago(now: Date) -> String {
        func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        let minutes = Int(max(0, now.timeIntervalSince(self)) / 60)
        switch minutes {
        case ..<1: return "just now"
        case ..<60: return "\(minutes) min ago"
        case ..<1440: return "\(minutes / 60) h ago"
        case ..<(60 * 1440): return plural(minutes / 1440, "day") + " ago"
        case ..<(730 * 1440): return plural(minutes / (30 * 1440), "month") + " ago"
        default: return plural(minutes / (365 * 1440), "year") + " ago"
        }
    }
}
