import CinnCore
import Foundation

/// Reads the values MyFitnessPal writes in its CSV cells; each throws an error naming the column.
enum MyFitnessPalField {
    /// `YYYY-MM-DD`.
    static func date(_ row: CSVRow, _ column: Int, header: String = "Date") throws(CinnError) -> LocalDate {
        let text = row.text(column)
        guard !text.isEmpty else { throw .invalid(header, "the date is missing") }
        guard let date = LocalDate(iso: text) else {
            throw .invalid(header, "\(header) \"\(text)\" is not a date; MyFitnessPal writes YYYY-MM-DD")
        }
        return date
    }

    /// A number that is not negative (`518.0`); nil when the cell is blank or the column absent.
    static func amount(_ row: CSVRow, _ column: Int?, header: String) throws(CinnError) -> Double? {
        guard let column else { return nil }
        let bytes = row.field(column)
        if bytes.isEmpty { return nil }
        guard let value = DecimalNumber.parse(bytes, decimalComma: false), value.isFinite else {
            throw .invalid(header, "\(header) \"\(TextDecoding.string(bytes))\" is not a number")
        }
        guard value >= 0 else {
            throw .invalid(header, "\(header) must not be negative, not \(TextDecoding.string(bytes))")
        }
        return value
    }

    /// A whole number that is not negative (`8`, or `8.0`); nil when blank or absent.
    static func count(_ row: CSVRow, _ column: Int?, header: String) throws(CinnError) -> Int? {
        guard let value = try amount(row, column, header: header), let column else { return nil }
        guard value == value.rounded(), value <= Double(Int32.max) else {
            throw .invalid(header, "\(header) \"\(row.text(column))\" is not a whole number")
        }
        return Int(value)
    }

    /// The text of a cell, or nil when it is blank or the column absent.
    static func text(_ row: CSVRow, _ column: Int?) -> String? {
        column.flatMap(row.nonEmptyText)
    }

    /// Seconds since midnight of a 12-hour time (`7:42 AM`, `12:05 am`, `2:05:10 PM`) or a 24-hour one (`19:05`).
    static func secondsOfDay(_ text: String) -> Int? {
        var clock = Substring(text.trimmingCharacters(in: .whitespaces))
        let suffix = clock.suffix(2).uppercased()
        guard suffix == "AM" || suffix == "PM" else { return ReadingTime.secondsOfDay(String(clock)) }
        clock = clock.dropLast(2)
        while clock.last == " " { clock = clock.dropLast() }
        guard let seconds = ReadingTime.secondsOfDay(String(clock)) else { return nil }
        let hour = seconds / 3600
        guard (1...12).contains(hour) else { return nil }
        return seconds - hour * 3600 + (hour % 12 + (suffix == "PM" ? 12 : 0)) * 3600
    }
}

/// External ids for the rows of one file: `mfp:` + a hash of the row's values + `#n`, where n counts
/// the identical rows before it. Identical rows stay separate entries, and a second import of the
/// same file gives every row the id it had the first time.
struct MyFitnessPalRowIdentities {
    private let seed: ContentHash
    private var seen: [UInt64: Int] = [:]

    /// `kind` keeps equal values in different files apart; `salt` adds what the row does not say (a unit).
    init(kind: MyFitnessPalExport.FileKind, salt: String = "") {
        var hash = ContentHash()
        var prefix = kind.rawValue + "\u{1F}" + salt
        prefix.withUTF8 { hash.combine($0) }
        hash.combine(0xFF)
        seed = hash
    }

    /// The id of `row`, hashing the cells of `columns` (trimmed, in that order).
    mutating func next(_ row: CSVRow, columns: [Int]) -> String {
        var hash = seed
        for column in columns {
            hash.combine(row.field(column))
            hash.combine(0xFF)
        }
        let occurrence = seen[hash.value, default: 0]
        seen[hash.value] = occurrence + 1
        return "mfp:\(hash.hex)#\(occurrence)"
    }
}
