import Foundation

/// Realistic demo weigh-ins, so a newcomer sees a full dashboard: 18 months of mornings with daily
/// noise of about ±1 kg, missed days and a week away, a slow loss, a holiday gain, and a goal.
public struct DemoJournal: Sendable {
    public let weighIns: [WeighIn]
    public let goal: Goal
    /// The demo person: a lightly active woman, 170 cm, born in 1988.
    public static let profile = Profile(
        sex: .female, birthDate: LocalDate(year: 1988, month: 4, day: 12)!,
        height: Height(centimetres: 170), activity: .light)

    /// - Parameters:
    ///   - today: the last day of the demo.
    ///   - timeZone: where the mornings are.
    ///   - seed: the same seed gives the same journal.
    public init(endingOn today: LocalDate, timeZone: TimeZone, seed: UInt64 = 2024) {
        var random = SplitMix64(seed: seed)
        let days = 548
        let start = today.adding(days: -(days - 1))
        var readings: [WeighIn] = []
        for index in 0..<days {
            let date = start.adding(days: index)
            let skipped = random.nextDouble() < 0.12 || (200..<207).contains(index)
            if skipped && index != days - 1 { continue }
            let progress = Double(index)
            var underlying = 92 - 0.022 * progress
            let holiday = 340..<372
            if holiday.contains(index) { underlying += 0.09 * Double(index - holiday.lowerBound) }
            if index >= holiday.upperBound { underlying += 2.9 - 0.012 * Double(index - holiday.upperBound) }
            let noise = (random.nextDouble() + random.nextDouble() + random.nextDouble() - 1.5) * 0.9
            let kilograms = ((underlying + noise) * 10).rounded() / 10
            let minute = 6 * 60 + 30 + Int(random.nextDouble() * 70)
            let time = LocalDateTime(date: date, secondsOfDay: Double(minute * 60)).resolved(in: timeZone)
            readings.append(
                WeighIn(
                    id: .v7(at: time.instant), measuredAt: time.instant,
                    utcOffsetSeconds: time.utcOffsetSeconds, weight: Mass(kilograms: kilograms),
                    source: "demo"))
        }
        weighIns = readings
        goal = Goal(weight: Mass(kilograms: 75), plannedRate: Mass(kilograms: 0.25), setOn: start)
    }
}
