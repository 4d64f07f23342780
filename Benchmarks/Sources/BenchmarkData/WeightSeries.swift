/// Deterministic, realistic body-weight data for the benchmarks and the load test.
///
/// No dependency on Cinn, so the load test's generator builds in seconds and the data cannot
/// accidentally be shaped by the code it measures.

import Foundation

/// SplitMix64 (named apart from CinnCore's copy, which the benchmarks also import): small, fast, and the same sequence on every platform for the same seed.
public struct SeriesRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// A normally distributed value (Box–Muller).
    public mutating func gaussian(sd: Double) -> Double {
        let u1 = max(unit(), 1e-12), u2 = unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2) * sd
    }
}

/// One day that has at least one reading.
public struct SeriesDay: Sendable {
    /// Days since 1970-01-01.
    public var dayNumber: Int
    /// The body's "true" weight that day (before scale noise), kg.
    public var bodyKilograms: Double
}

/// A person's body weight over many years: phases of losing, gaining and holding (each 1–8
/// months, −0.8…+0.4 kg a week, kept within 60–130 kg), a winter-holiday gain most years, and
/// days without a weigh-in (~10%: single missed days plus trips of 3–14 days). The last 120
/// days lose about 0.5 kg a week, and the last 7 days all have a weigh-in, so a goal below the
/// end gives a "yes" verdict with a forecast (the full verdict path runs).
public struct WeightSeries: Sendable {
    public let days: [SeriesDay]

    /// The weight at the end of the series, where the trend will be (about).
    public var finalKilograms: Double { days.last?.bodyKilograms ?? 0 }

    /// - Parameters:
    ///   - weighInDays: how many days with a weigh-in to produce.
    ///   - endDay: the last day (days since 1970-01-01); the series is generated backwards from it.
    public init(weighInDays: Int, endDay: Int, seed: UInt64 = 42) {
        var random = SeriesRandom(seed: seed)
        // Walk the calendar forwards from a start far enough back, then keep the last days.
        // First decide which days are weighed (walking backwards from the end, so the end is fixed).
        var weighed = [Int]()
        weighed.reserveCapacity(weighInDays)
        var day = endDay
        var tripLeft = 0
        while weighed.count < weighInDays {
            let recent = endDay - day < 7
            if tripLeft > 0 {
                tripLeft -= 1
            } else if !recent && random.unit() < 1.0 / 160 {
                tripLeft = 2 + Int(random.unit() * 12)  // away 3–14 days
            } else if recent || random.unit() >= 0.04 {
                weighed.append(day)
            }
            day -= 1
        }
        weighed.reverse()
        let startDay = weighed[0]

        // Then the body's weight, day by day.
        var kilograms = 88 + random.unit() * 12
        var ratePerDay = 0.0
        var phaseLeft = 0
        var result = [SeriesDay]()
        result.reserveCapacity(weighInDays)
        var next = 0
        for current in startDay...endDay {
            let toEnd = endDay - current
            if toEnd < 120 {
                ratePerDay = -0.5 / 7
            } else if phaseLeft == 0 {
                let perWeek = [-0.8, -0.5, -0.3, 0, 0, 0.1, 0.2, 0.4][Int(random.unit() * 8)]
                ratePerDay = perWeek / 7
                phaseLeft = 30 + Int(random.unit() * 210)
            }
            phaseLeft = max(0, phaseLeft - 1)
            if kilograms > 130 { ratePerDay = -abs(ratePerDay) - 0.02 }
            if kilograms < 60 { ratePerDay = abs(ratePerDay) + 0.02 }
            kilograms += ratePerDay
            // Winter holidays (roughly 20 Dec – 3 Jan): about +1.5 kg, lost again in the phases after.
            let (_, month, dayOfMonth) = CivilCalendar.civil(fromDays: current)
            if (month == 12 && dayOfMonth >= 20) || (month == 1 && dayOfMonth <= 3) {
                kilograms += 0.1
            }
            if next < weighed.count && weighed[next] == current {
                result.append(SeriesDay(dayNumber: current, bodyKilograms: kilograms))
                next += 1
            }
        }
        days = result
    }
}

/// What the bathroom scale shows: body weight plus water and food noise, to 0.1 kg.
public func scaleReading(_ bodyKilograms: Double, hourOfDay: Int, random: inout SeriesRandom) -> Double {
    let evening = hourOfDay >= 17 ? 0.6 : (hourOfDay >= 11 ? 0.3 : 0)
    let value = bodyKilograms + evening + random.gaussian(sd: 0.5)
    return (value * 10).rounded() / 10
}

/// Civil calendar arithmetic (Howard Hinnant's public-domain algorithms).
public enum CivilCalendar {
    public static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `YYYY-MM-DD`.
    public static func iso(_ dayNumber: Int) -> String {
        let (y, m, d) = civil(fromDays: dayNumber)
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2)
    }

    /// Parses `YYYY-MM-DD` (no checks beyond the shape).
    public static func dayNumber(iso text: String) -> Int? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        return days(fromCivil: y, m, d)
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

/// Writes a generic weight CSV, `date,weight`, with ISO 8601 local times (no offset, so the
/// importing user's time zone decides) and kilograms to one decimal, oldest first.
public enum WeightCSV {
    /// A file of exactly `rows` readings ending on `endDay`.
    ///
    /// - Parameters:
    ///   - rows: data rows to write.
    ///   - endDay: the last day (days since 1970-01-01).
    ///   - readingsPerDay: `.daily` is one reading each weighed morning; `.frequent` is 4–8 a day
    ///     between 06:00 and 23:00, 6 on average, so that 100,000 rows fit in ~50 years and every
    ///     reading is after 1970 (UUIDv7 ids carry Unix milliseconds; Cinn clamps earlier times to
    ///     0, which would make the id index insert in random order).
    public static func make(rows: Int, endDay: Int, readingsPerDay: Readings = .frequent, seed: UInt64 = 42) -> String {
        // Enough weighed days for any draw of readings per day.
        let series = WeightSeries(weighInDays: readingsPerDay == .daily ? rows : rows / 4 + 8, endDay: endDay, seed: seed)
        return write(series.days, rows: rows, readingsPerDay: readingsPerDay, seed: seed)
    }

    /// A file covering the `spanDays` calendar days ending on `endDay` (about 90% of them weighed).
    public static func make(spanDays: Int, endDay: Int, readingsPerDay: Readings = .daily, seed: UInt64 = 42) -> String {
        let series = WeightSeries(weighInDays: spanDays, endDay: endDay, seed: seed)
        let days = series.days.filter { $0.dayNumber > endDay - spanDays }
        return write(days, rows: Int.max, readingsPerDay: readingsPerDay, seed: seed)
    }

    private static func write(_ days: [SeriesDay], rows: Int, readingsPerDay: Readings, seed: UInt64) -> String {
        var random = SeriesRandom(seed: seed &+ 1)
        var plan = [(day: SeriesDay, count: Int)]()
        plan.reserveCapacity(days.count)
        var total = 0
        // Walk backwards so the file ends on the last day; take at most `rows` readings.
        for day in days.reversed() where total < rows {
            var count = 1
            if readingsPerDay == .frequent { count = 4 + Int(random.unit() * 5) }
            count = min(count, rows - total)
            plan.append((day, count))
            total += count
        }
        precondition(rows == Int.max || total == rows, "not enough days generated")
        var text = "date,weight\n"
        text.reserveCapacity(min(total, 10_000_000) * 26 + 16)
        for (day, count) in plan.reversed() {
            let date = CivilCalendar.iso(day.dayNumber)
            // The first reading between 06 and 08 h; any others spread over the day up to 22 h.
            var hours = [6 + Int(random.unit() * 3)]
            let step = count > 1 ? 14 / (count - 1) : 0
            for index in 1..<max(1, count) { hours.append(min(22, 8 + index * step - Int(random.unit() * 2))) }
            for hour in hours {
                let minute = Int(random.unit() * 60), second = Int(random.unit() * 60)
                let kilograms = scaleReading(day.bodyKilograms, hourOfDay: hour, random: &random)
                text += date + "T" + CivilCalendar.pad(hour, 2) + ":" + CivilCalendar.pad(minute, 2) + ":" + CivilCalendar.pad(second, 2)
                text += "," + oneDecimal(kilograms) + "\n"
            }
        }
        return text
    }

    public enum Readings: Sendable {
        case daily, frequent
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return String(tenths / 10) + "." + String(tenths % 10)
    }
}
