import CinnCore
import Foundation

/// FitNotes' Body Tracker export (docs/FORMATS.md §3.3): `Date,Time,Measurement,Value,Unit,Comment`, one measurement a
/// row. Body weight becomes weigh-ins and body fat body-fat readings; the other measurements (waist, chest…) are
/// skipped, counted. A reading is known by its instant and kind, so the same file imported again adds nothing.
public enum FitNotesBodyTracker {
    public static let format = "fitnotes-body"

    /// The largest file read (it is read whole): decades of daily measurements are a few MB.
    static let maximumBytes = 64 << 20

    /// Whether the file's first line is the Body Tracker's header.
    public static func recognises(url: URL) -> Bool {
        guard let (prefix, _) = try? FileStart.read(url, count: 4096) else { return false }
        return columns(FileStart.firstLine(prefix).split(separator: ",").map { CSVColumns.normalized(String($0)) }) != nil
    }

    /// Where the columns are, when `names` (normalised) hold the Body Tracker's.
    static func columns(_ names: [String]) -> (date: Int, time: Int, measurement: Int, value: Int, unit: Int, comment: Int?)? {
        guard let date = names.firstIndex(of: "date"), let time = names.firstIndex(of: "time"),
            let measurement = names.firstIndex(of: "measurement"), let value = names.firstIndex(of: "value"),
            let unit = names.firstIndex(of: "unit")
        else { return nil }
        return (date, time, measurement, value, unit, names.firstIndex(of: "comment"))
    }

    /// What a file holds: the records, and the report's counts and rejections (each naming its line and column).
    public struct Contents: Sendable {
        public var records = ImportedHealthRecords()
        public var rowsRead = 0
        /// Rows of measurements Cinn does not keep (waist, chest, arms…).
        public var skipped = 0
        public var rejected: [RejectedRow] = []
        public var rejectedCount = 0
    }

    /// Reads the file; local dates and times are read in `timeZone`.
    public static func read(url: URL, timeZone: TimeZone) throws(CinnError) -> Contents {
        let (prefix, size) = try FileStart.read(url, count: 4096)
        try TextCheck.check(prefix: prefix, contents: "CSV files")
        guard size <= maximumBytes else {
            throw .invalid(
                "file",
                "\(url.lastPathComponent) is \(size >> 20) MB; a FitNotes Body Tracker export of more than \(maximumBytes >> 20) MB is not one"
            )
        }
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: url))
        } catch {
            throw .invalid("file", "cannot read \(url.lastPathComponent): \(error.localizedDescription)")
        }
        var contents = Contents()
        var layout: (date: Int, time: Int, measurement: Int, value: Int, unit: Int, comment: Int?)?
        let scanner = CSVScanner(bytes: bytes, delimiter: .comma)
        while try scanner.next({ row throws(CinnError) in
            guard let columns = layout else {
                layout = columns((0..<row.count).map { CSVColumns.normalized(row.text($0)) })
                guard layout != nil else {
                    throw .invalid(
                        "file", "line \(row.line): a FitNotes Body Tracker export starts with Date,Time,Measurement,Value,Unit,Comment")
                }
                return
            }
            guard row.count > 1 || !row.text(0).isEmpty else { return }
            contents.rowsRead += 1
            do throws(CinnError) {
                try take(row, columns, timeZone: timeZone, into: &contents)
            } catch {
                contents.rejectedCount += 1
                if contents.rejected.count < ImportReport.maximumListedRejections {
                    contents.rejected.append(RejectedRow(line: row.line, field: error.field, reason: error.message))
                }
            }
        }) {}
        return contents
    }

    private static func take(
        _ row: CSVRow, _ columns: (date: Int, time: Int, measurement: Int, value: Int, unit: Int, comment: Int?),
        timeZone: TimeZone, into contents: inout Contents
    ) throws(CinnError) {
        let measurement = CSVColumns.normalized(row.text(columns.measurement))
        let kind: String
        switch measurement {
        case "bodyweight", "body weight", "weight": kind = "weight"
        case "body fat", "body fat percentage", "bodyfat": kind = "bodyfat"
        default:
            contents.skipped += 1
            return
        }
        let dateText = row.text(columns.date)
        guard let date = LocalDate(iso: dateText) else {
            throw .invalid("Date", "\"\(dateText)\" is not a date; FitNotes writes 2024-03-07")
        }
        let timeText = row.text(columns.time)
        let seconds = timeText.isEmpty ? 12 * 3600 : ReadingTime.secondsOfDay(timeText)
        guard let seconds else { throw .invalid("Time", "\"\(timeText)\" is not a time of day; FitNotes writes 07:42:00") }
        let (instant, offset) = LocalDateTime(date: date, secondsOfDay: Double(seconds)).resolved(in: timeZone)
        _ = try ValidValues.instant(instant, field: "Date")
        let valueText = row.field(columns.value)
        guard let value = DecimalNumber.parse(valueText, decimalComma: false) else {
            throw .invalid("Value", "\"\(TextDecoding.string(valueText))\" is not a number")
        }
        let unitText = row.text(columns.unit).trimmingCharacters(in: .whitespaces).lowercased()
        let key = "fitnotes-body:\(ReadingTime.epochMilliseconds(instant)):\(kind)"
        if kind == "bodyfat" {
            guard unitText == "%" || unitText.isEmpty else { throw .invalid("Unit", "body fat is in %, not \"\(unitText)\"") }
            guard value.isFinite, BodyFatReading.percentRange.contains(value) else {
                throw .invalid("Value", "body fat must be between 2 and 75 %, not \(JSONText.compactNumber(value)) %")
            }
            let fraction = value / 100
            contents.records.bodyFat.append(
                ImportedBodyFat(
                    reading: BodyFatReading(measuredAt: instant, utcOffsetSeconds: offset, fraction: fraction), externalID: key))
            return
        }
        let unit: MassUnit
        switch unitText {
        case "kg", "kgs": unit = .kilograms
        case "lb", "lbs": unit = .pounds
        case "st": unit = .stones
        default: throw .invalid("Unit", "a body weight in \"\(unitText)\"; FitNotes writes kg or lbs")
        }
        let weight = try Mass.bodyWeight(value, unit, field: "Value")
        let note: String?
        do {
            note = try Note.validated(columns.comment.flatMap(row.nonEmptyText), field: "Comment")
        } catch {
            throw (error as? CinnError) ?? .invalid("Comment", "the comment cannot be kept")
        }
        contents.records.weighIns.append(
            ImportedWeighIn(
                measuredAt: instant, utcOffsetSeconds: offset, weight: weight,
                note: note, externalID: key, line: row.line))
    }
}
