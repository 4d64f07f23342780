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
    /// Insulin and carbs on board now, for a glucose user (one with that reading).
    public var onBoard: OnBoard?

    /// A reading older than this is no glucose user's current value.
    public static let glucoseWithin: TimeInterval = 24 * 3600
    /// A sensor reading older than this is shown as stale (a CGM reads every 5 minutes).
    public static let staleAfterMinutes = 15
}

/// The Glucose page's lead: the newest reading, and the last few hours' readings and insulin.
public struct LiveGlucose: Sendable {
    public var settings: UserSettings
    /// The newest reading of the last `Glance.glucoseWithin`, with its direction.
    public var latest: NightscoutEntry?
    public var minutesOld: Int?
    public var hours: Int
    public var start: Date
    public var end: Date
    /// The readings from `start` to `end`, oldest first.
    public var points: [GlucosePoint]
    public var doses: [InsulinDose]
    /// The meals eaten in the window, with their names, in time order.
    public var meals: [(at: Date, name: String)]
    /// Insulin and carbs on board now, with a reading of the last `Glance.glucoseWithin`.
    public var onBoard: OnBoard?

    /// The windows offered, in hours.
    public static let windows = [3, 6, 12, 24]
    /// Readings in a window at most: a day of a CGM every minute.
    static let maximumPoints = 1440
}

extension Journal {
    /// Today's glance, as of now.
    public func glance() async throws -> Glance {
        let (report, trend) = try await energyReportAndTrend(historyDays: 0)
        let (latest, minutes) = try await newestGlucose(at: now())
        return Glance(
            asOf: report.asOf, settings: report.settings, answer: report.answer, trend: trend.latest(onOrBefore: report.asOf)?.trend,
            weeklyChange: trend.answerRate(asOf: report.asOf), glucose: latest, glucoseMinutesOld: minutes,
            onBoard: latest == nil ? nil : try await onBoard())
    }

    /// The newest glucose reading and the last `hours` hours (3, 6, 12 or 24); `settings` when the caller has read them.
    public func liveGlucose(hours: Int, settings known: UserSettings? = nil) async throws -> LiveGlucose {
        guard LiveGlucose.windows.contains(hours) else {
            throw CinnError.invalid("hours", "the window is \(LiveGlucose.windows.map(String.init).joined(separator: ", ")) hours")
        }
        let settings = if let known { known } else { try await settings() }
        let end = now(), start = end.addingTimeInterval(-Double(hours) * 3600)
        let (latest, minutes) = try await newestGlucose(at: end)
        let readings = try await store.latestGlucoseReadings(
            user: user, from: start, to: end.addingTimeInterval(0.001), limit: LiveGlucose.maximumPoints)
        // The card's doses and meals and what is on board, from one read of each over the longer of their windows.
        let model = settings.insulinModel
        let doseReach = end.addingTimeInterval(-Double((model.delayMinutes + model.durationMinutes) * 60))
        let mealReach = end.addingTimeInterval(-Self.carbsOnBoardSeconds)
        let allDoses = try await store.insulinDoses(user: user, from: min(start, doseReach), to: end.addingTimeInterval(0.001))
        let (allEvents, definitions, _) = try await mealRecords(from: min(start, mealReach), to: end.addingTimeInterval(0.001))
        let names = Dictionary(definitions.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let onBoard = latest.map { _ in
            OnBoard(
                at: end, doses: allDoses.filter { $0.takenAt >= doseReach },
                carbs: Self.carbEntries(
                    allEvents.filter { $0.eatenAt >= mealReach },
                    Dictionary(definitions.map { ($0.id, $0) }) { first, _ in first }), model: model)
        }
        return LiveGlucose(
            settings: settings, latest: latest, minutesOld: minutes, hours: hours, start: start, end: end,
            points: readings.reversed().map { GlucosePoint(at: $0.measuredAt, glucose: $0.glucose) },
            doses: allDoses.filter { $0.takenAt >= start && $0.takenAt < end },
            meals: allEvents.filter { $0.eatenAt >= start && $0.eatenAt < end }.map { ($0.eatenAt, names[$0.mealID] ?? "Meal") },
            onBoard: onBoard)
    }

    /// The newest reading of the last `Glance.glucoseWithin` before `instant`, and how many whole minutes old it is.
    private func newestGlucose(at instant: Date) async throws -> (NightscoutEntry?, Int?) {
        let latest = try await nightscoutEntries(from: instant.addingTimeInterval(-Glance.glucoseWithin), to: nil, sensor: nil, count: 1)
            .first
        return (latest, latest.map { max(0, Int(instant.timeIntervalSince($0.reading.measuredAt) / 60)) })
    }
}
