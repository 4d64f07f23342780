import CinnCore
import Foundation
import Testing

@Suite struct TimeAgoTests {
    @Test func howLongAgo() {
        let now = Date(timeIntervalSince1970: 1_710_504_000)
        #expect(now.addingTimeInterval(-20).ago(now: now) == "just now")
        #expect(now.addingTimeInterval(-5 * 60).ago(now: now) == "5 min ago")
        #expect(now.addingTimeInterval(-2 * 3600 - 60).ago(now: now) == "2 h ago")
        #expect(now.addingTimeInterval(-86_400 - 60).ago(now: now) == "1 day ago")
        #expect(now.addingTimeInterval(-3 * 86_400).ago(now: now) == "3 days ago")
        #expect(now.addingTimeInterval(-90 * 86_400).ago(now: now) == "3 months ago")
        #expect(now.addingTimeInterval(60).ago(now: now) == "just now", "a clock a little ahead")
    }
}
