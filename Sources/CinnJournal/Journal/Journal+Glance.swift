import CinnCore
import CinnStore
import Foundation

/// What a watch face or a home-screen widget shows: today's answer, the trend and its weekly change, what is left of
/// the day's calories and, for a glucose user, the newest reading.
public struct Glance: Sendable {
    public var asOf: LocalDate
    public var settings: UserSettings
    public var answer: DailyAnswer
    /// Today's trend (or the last day's before today), nil before the first weigh-in.
    public var trend: Mass?
    public var weeklyChange: MassRate?
    /// The newest glucose reading of the last `Glance.glucoseWithin`, with its direction.
    public var glucose: NightscoutEntry?
    /// How old that reading is, in whole minutes.
    public var glucoseMinutesOld: Int?

    /// A reading older than this is no glucose user's current value.
    public static let glucoseWithin: TimeInterval = 24 * 3600
    /// A sensor reading older than this is shown as stale (a CGM reads every 5 minutes).
    public static let staleAfterMinutes = 15
}

extension Journal {
    /// Today's glance, as of now.
    public func glance() async throws -> Glance {
        let (report, trend) = try await energyReportAndTrend(historyDays: 0)
        let instant = now()
        let latest = try await nightscoutEntries(from: instant.addingTimeInterval(-Glance.glucoseWithin), to: nil, sensor: nil, count: 1).first
        return Glance(asOf: report.asOf, settings: report.settings, answer: report.answer, trend: trend.latest(onOrBefore: report.asOf)?.trend,
                      weeklyChange: trend.rate(asOf: report.asOf), glucose: latest,
                      glucoseMinutesOld: latest.map { max(0, Int(instant.timeIntervalSince($0.reading.measuredAt) / 60)) })
    }
}
