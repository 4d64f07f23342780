import CinnCore
import Foundation

/// Reads the values MyFitnessPal writes in its CSV cells; each throws an error naming the column.
enum MyFitnessPalField {
    /// `YYYY-MM-DD` as MyFitnessPal writes it, or as a spreadsheet saved it again: `1/13/2023` (`order` says whether
    /// the day or the month comes first), `13.01.23`, `2023/01/13`, with a time after it at times (`1/13/2023 0:00`).
    static func date(
        _ row: CSVRow, _ column: Int, header: String = "Date",
        order: MyFitnessPalExport.DateOrder?
    ) throws(CinnError) -> LocalDate {
        let text = row.text(column)
        guard !text.isEmpty else { throw .invalid(header, "the date is missing") }
        if let date = LocalDate(iso: text) { return date }
        guard let parts = spreadsheetDate(text) else {
            throw .invalid(header, "\(header) \"\(text)\" is not a date; MyFitnessPal writes YYYY-MM-DD")
        }
        let (month, day) = parts.yearFirst || order == .monthFirst ? (parts.first, parts.second) : (parts.second, parts.first)
        // A file's dates are MyFitnessPal's or a spreadsheet's, whose order `MyFitnessPalExport.dateOrder` settled: one such
        // date among MyFitnessPal's is read when it reads the same either way.
        guard parts.yearFirst || order != nil || parts.first == parts.second else {
            throw .invalid(
                header,
                "\(header) \"\(text)\" is not a date as MyFitnessPal writes it (YYYY-MM-DD), and does not say whether "
                    + "the day or the month comes first")
        }
        guard let date = LocalDate(year: parts.year, month: month, day: day) else {
            throw .invalid(
                header,
                "\(header) \"\(text)\" is not a date (read \(parts.yearFirst ? "year first" : order == .monthFirst ? "month first" : "day first"))"
            )
        }
        return date
    }

    /// The numbers of a date as a spreadsheet writes it: the two before the year (or after it, `yearFirst`), in the
    /// order written; a two-digit year is 2000–2069 or 1970–1999. Nil for text that is not such a date.
    static func spreadsheetDate(_ text: String) -> (first: Int, second: Int, year: Int, yearFirst: Bool)? {
        let date = text.split(separator: " ").first ?? ""
        let parts = date.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "." || $0 == "-" }
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCII) }),
            let a = Int(parts[0]), let b = Int(parts[1]), let c = Int(parts[2])
        else { return nil }
        if parts[0].count == 4 { return (b, c, a, true) }
        guard parts[2].count == 4 || parts[2].count == 2, parts[0].count <= 2, parts[1].count <= 2 else { return nil }
        let year = parts[2].count == 4 ? c : c < 70 ? 2000 + c : 1900 + c
        return (a, b, year, false)
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

    /// The id of `row`, hashing the cells of `columns` (trimmed, in that order), its date as MyFitnessPal writes it (so
    /// that a file a spreadsheet saved again gives its rows the ids they had).
    mutating func next(_ row: CSVRow, columns: [Int], date: (column: Int, value: LocalDate?)) -> String {
        var hash = seed
        for column in columns {
            if column == date.column, let value = date.value {
                var iso = value.iso
                iso.withUTF8 { hash.combine($0) }
            } else {
                hash.combine(row.field(column))
            }
            hash.combine(0xFF)
        }
        let occurrence = seen[hash.value, default: 0]
        seen[hash.value] = occurrence + 1
        return "mfp:\(hash.hex)#\(occurrence)"
    }
}
