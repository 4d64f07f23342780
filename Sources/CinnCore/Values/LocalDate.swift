import Foundation

/// A calendar day in the user's local time: "2024-03-09". Stored as days since 1970-01-01,
/// so arithmetic and comparison are integer operations.
public struct LocalDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible, Strideable {
    /// Days since 1970-01-01.
    public var dayNumber: Int

    public init(dayNumber: Int) { self.dayNumber = dayNumber }

    /// A day from its parts, or nil when the day does not exist (2023-02-29, 2024-13-01).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= LocalDate.daysIn(month: month, year: year),
            (1...9999).contains(year)
        else { return nil }
        self.dayNumber = LocalDate.days(fromCivil: year, month, day)
    }

    /// The local day of an instant recorded at a UTC offset.
    public init(instant: Date, utcOffsetSeconds: Int) {
        let local = LocalDate.seconds(instant) + utcOffsetSeconds
        self.dayNumber = Int((Double(local) / 86_400).rounded(.down))
    }

    /// An instant's whole seconds since 1970. An instant beyond the years 1 to 9999 (one an older version computed from
    /// a value out of range) is taken at their edge rather than trap (docs/SECURITY.md).
    static func seconds(_ instant: Date) -> Int {
        let seconds = instant.timeIntervalSince1970
        guard seconds.isFinite else { return seconds > 0 ? latestSecond : earliestSecond }
        return Int(min(max(seconds, Double(earliestSecond)), Double(latestSecond)).rounded(.down))
    }

    /// 0001-01-01T00:00:00Z and 9999-12-30T00:00:00Z (a day short of the end, so that an offset keeps the year), in
    /// seconds since 1970.
    static let earliestSecond = -62_135_596_800, latestSecond = 253_402_128_000

    /// Parses exactly `YYYY-MM-DD`; nil for anything else, including impossible days.
    public init?(iso text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 10, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"),
            let year = Self.digits(utf8[0..<4]), let month = Self.digits(utf8[5..<7]),
            let day = Self.digits(utf8[8..<10])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Parses `YYYY-MM-DD` with an error naming the field.
    public static func parse(_ text: String, field: String = "date") throws -> LocalDate {
        guard let date = LocalDate(iso: text) else {
            throw CinnError.invalid(field, "\"\(text)\" is not a date; use YYYY-MM-DD")
        }
        return date
    }

    public var parts: (year: Int, month: Int, day: Int) { LocalDate.civil(fromDays: dayNumber) }
    public var year: Int { parts.year }
    public var month: Int { parts.month }
    public var day: Int { parts.day }

    /// 1 = Monday ... 7 = Sunday (ISO 8601).
    public var weekday: Int { ((dayNumber % 7) + 7 + 3) % 7 + 1 }

    /// `YYYY-MM-DD`.
    public var iso: String {
        String(unsafeUninitializedCapacity: 10) { buffer in
            var out = buffer
            write(into: &out)
            return 10
        }
    }

    /// Writes `iso`'s ten bytes at the start of `bytes`.
    func write<Bytes: MutableCollection<UInt8>>(into bytes: inout Bytes) where Bytes.Index == Int {
        let (year, month, day) = parts
        Self.write(year, digits: 4, into: &bytes, at: 0)
        bytes[4] = UInt8(ascii: "-")
        bytes[7] = UInt8(ascii: "-")
        Self.write(month, digits: 2, into: &bytes, at: 5)
        Self.write(day, digits: 2, into: &bytes, at: 8)
    }

    static func write<Bytes: MutableCollection<UInt8>>(_ value: Int, digits: Int, into bytes: inout Bytes, at start: Int)
    where Bytes.Index == Int {
        var rest = Swift.max(value, 0)
        for index in stride(from: start + digits - 1, through: start, by: -1) {
            bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    public var description: String { iso }

    public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

    public func distance(to other: LocalDate) -> Int { other.dayNumber - dayNumber }
    public func advanced(by n: Int) -> LocalDate { adding(days: n) }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    /// The instant of this day's local noon in `timeZone`, and the UTC offset in force then.
    public func noon(in timeZone: TimeZone) -> (instant: Date, utcOffsetSeconds: Int) {
        LocalDateTime(date: self, secondsOfDay: 12 * 3600).resolved(in: timeZone)
    }

    /// Today in `timeZone` at `now`.
    public static func today(in timeZone: TimeZone, now: Date) -> LocalDate {
        LocalDate(instant: now, utcOffsetSeconds: timeZone.secondsFromGMT(for: now))
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = LocalDate(iso: text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "\"\(text)\" is not a date; use YYYY-MM-DD"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso)
    }

    static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days (public domain algorithms).
    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int) -> (Int, Int, Int) {
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
}

/// A wall-clock time on a local day, with the UTC offset if the source gave one.
public struct LocalDateTime: Sendable, Hashable {
    public var date: LocalDate
    public var secondsOfDay: Double
    public var utcOffsetSeconds: Int?

    public init(date: LocalDate, secondsOfDay: Double, utcOffsetSeconds: Int? = nil) {
        self.date = date
        self.secondsOfDay = secondsOfDay
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The wall-clock time of `instant` where the UTC offset is `utcOffsetSeconds` (whole seconds).
    public init(instant: Date, utcOffsetSeconds: Int) {
        let local = LocalDate.seconds(instant) + utcOffsetSeconds
        let day = Int((Double(local) / 86_400).rounded(.down))
        self.init(date: LocalDate(dayNumber: day), secondsOfDay: Double(local - day * 86_400), utcOffsetSeconds: utcOffsetSeconds)
    }

    /// "08:05".
    public var clock: String {
        let seconds = Int(secondsOfDay)
        let hours = seconds / 3600, minutes = seconds % 3600 / 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
    }

    /// The instant and the UTC offset to store with it (docs/DESIGN.md "Days"):
    /// - a time with a non-zero offset (`-0500`) keeps it: the source said where it was;
    /// - a UTC time (`Z`, `+00:00`) is an instant whose offset comes from `timeZone`: "Z" says how the
    ///   time was written (Libra, Google Health, JavaScript's `toISOString`), not where the person was;
    /// - a time without an offset is wall-clock time in `timeZone`.
    public func resolved(in timeZone: TimeZone) -> (instant: Date, utcOffsetSeconds: Int) {
        let wall = Double(date.dayNumber) * 86_400 + secondsOfDay
        if let utcOffsetSeconds {
            let instant = Date(timeIntervalSince1970: wall - Double(utcOffsetSeconds))
            return (instant, utcOffsetSeconds == 0 ? timeZone.secondsFromGMT(for: instant) : utcOffsetSeconds)
        }
        // Guess with the offset at the wall time read as UTC, then correct once (DST edges).
        var offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wall))
        offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wall - Double(offset)))
        return (Date(timeIntervalSince1970: wall - Double(offset)), offset)
    }

    /// Parses ISO 8601 dates and times as people and files write them:
    /// `2024-03-09`, `2024-03-09T07:41`, `2024-03-09 07:41:03`, `2024-03-09T07:41:03.250Z`,
    /// `2024-03-09T07:41:03+01:00`, `2024-03-09 07:41:03 -0500`. Nil when it is not one, or
    /// names a day or time that does not exist.
    public init?(iso text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, let date = LocalDate(iso: String(decoding: bytes[0..<10], as: UTF8.self)) else {
            return nil
        }
        self.date = date
        self.secondsOfDay = 0
        self.utcOffsetSeconds = nil
        var index = 10
        if index == bytes.count { return }
        guard bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: " ") else { return nil }
        index += 1
        guard index + 5 <= bytes.count, bytes[index + 2] == UInt8(ascii: ":"),
            let hour = LocalDate.digits(bytes[index..<index + 2]),
            let minute = LocalDate.digits(bytes[index + 3..<index + 5]), hour < 24, minute < 60
        else { return nil }
        var seconds = Double(hour * 3600 + minute * 60)
        index += 5
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            guard index + 3 <= bytes.count, let second = LocalDate.digits(bytes[index + 1..<index + 3]),
                second < 61
            else { return nil }
            seconds += Double(second)
            index += 3
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
                index += 1
                var scale = 0.1
                let start = index
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                    seconds += Double(bytes[index] - UInt8(ascii: "0")) * scale
                    scale /= 10
                    index += 1
                }
                guard index > start else { return nil }
            }
        }
        self.secondsOfDay = seconds
        if index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        if index == bytes.count { return }
        if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") {
            guard index + 1 == bytes.count else { return nil }
            self.utcOffsetSeconds = 0
            return
        }
        guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return nil }
        let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
        let rest = Array(bytes[(index + 1)...])
        let hh: Int?, mm: Int?
        switch rest.count {
        case 2: (hh, mm) = (LocalDate.digits(rest[0..<2]), 0)
        case 4: (hh, mm) = (LocalDate.digits(rest[0..<2]), LocalDate.digits(rest[2..<4]))
        case 5 where rest[2] == UInt8(ascii: ":"): (hh, mm) = (LocalDate.digits(rest[0..<2]), LocalDate.digits(rest[3..<5]))
        default: return nil
        }
        guard let hh, let mm, hh <= 14, mm < 60 else { return nil }
        self.utcOffsetSeconds = sign * (hh * 3600 + mm * 60)
    }
}

extension WeighIn {
    /// The local time of the reading with its offset: `2024-03-09T07:41:03-05:00`.
    public var localTimeISO: String { Self.isoString(instant: measuredAt, utcOffsetSeconds: utcOffsetSeconds) }

    public static func isoString(instant: Date, utcOffsetSeconds: Int) -> String {
        let local = LocalDate.seconds(instant) + utcOffsetSeconds
        let day = LocalDate(dayNumber: Int((Double(local) / 86_400).rounded(.down)))
        let seconds = local - day.dayNumber * 86_400
        let offset = abs(utcOffsetSeconds)
        guard offset < 100 * 3600 else {
            return String(
                format: "%@T%02d:%02d:%02d%@%02d:%02d", day.iso, seconds / 3600, seconds % 3600 / 60, seconds % 60,
                utcOffsetSeconds < 0 ? "-" : "+", offset / 3600, offset % 3600 / 60)
        }
        // Byte by byte: String(format:) was a tenth of a page listing weigh-ins.
        return String(unsafeUninitializedCapacity: 25) { buffer in
            var bytes = buffer
            day.write(into: &bytes)
            for (index, value) in [
                (11, seconds / 3600), (14, seconds % 3600 / 60), (17, seconds % 60), (20, offset / 3600), (23, offset % 3600 / 60),
            ] {
                LocalDate.write(value, digits: 2, into: &bytes, at: index)
            }
            bytes[10] = UInt8(ascii: "T")
            bytes[13] = UInt8(ascii: ":")
            bytes[16] = UInt8(ascii: ":")
            bytes[19] = UInt8(ascii: utcOffsetSeconds < 0 ? "-" : "+")
            bytes[22] = UInt8(ascii: ":")
            return 25
        }
    }
}

extension Date {
    /// Milliseconds since 1970, rounded. An instant no calendar holds (one computed from a value out of range) is
    /// taken at ±10^15 ms, some 31,000 years away, rather than trap.
    public var millisecondsSince1970: Int64 {
        let milliseconds = timeIntervalSince1970 * 1000
        guard milliseconds.isFinite else { return milliseconds > 0 ? 1_000_000_000_000_000 : -1_000_000_000_000_000 }
        return Int64(min(max(milliseconds, -1e15), 1e15).rounded())
    }

    /// The instant `milliseconds` after 1970: the inverse of `millisecondsSince1970`, Cinn's one conversion each way.
    public init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
