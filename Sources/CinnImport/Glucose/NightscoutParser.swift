import CinnCore
import Foundation

/// What a Nightscout export or upload holds for the journal (docs/FORMATS.md §7): CGM (`sgv`) and meter (`mbg`)
/// entries and glucose checks become readings, insulin becomes doses, carbohydrate becomes food-log entries (quick adds
/// named by their food), and each treatment is kept as sent (`documents`), whichever way it arrived.
public struct NightscoutData: Sendable {
    public var readings: [GlucoseReading] = []
    public var doses: [InsulinDose] = []
    public var entries: [FoodLogEntry] = []
    /// The treatments, as sent, with what finds them again.
    public var documents: [NightscoutUploadedDocument] = []
    public var rowsRead = 0
    /// Entries with nothing for the journal (calibrations, CGM status codes), and treatments with nothing but their
    /// document (notes, site changes, temporary basal rates).
    public var skipped = 0
    /// Records the file holds twice: the same id, or the same instant and type from two uploaders.
    public var duplicates = 0
    /// The first `ImportReport.maximumListedRejections` rejected records; `rejectedCount` counts them all.
    public var rejected: [RejectedRow] = []
    public var rejectedCount = 0

    public init() {}

    mutating func reject(_ row: RejectedRow) {
        rejectedCount += 1
        if rejected.count < ImportReport.maximumListedRejections { rejected.append(row) }
    }

    /// Whether it holds records to hand on.
    var holdsRecords: Bool { !readings.isEmpty || !doses.isEmpty || !entries.isEmpty || !documents.isEmpty }

    mutating func removeRecords() {
        readings.removeAll(keepingCapacity: true)
        doses.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        documents.removeAll(keepingCapacity: true)
    }
}

/// Reads Nightscout's `entries.json` and `treatments.json` (API v1: JSON arrays, newest first), and the backups
/// `mongoexport` makes of its collections (one document a line, MongoDB's extended JSON: `{"$oid": …}`,
/// `{"$date": …}`). Records are deduplicated within the file by their `_id`, then by instant and type (an entry's time
/// and `type`; a treatment's `created_at` and `eventType`), never by the text of a time. External ids are
/// `nightscout:<_id>` plus the kind of record made from it, as the uploader API makes them.
public enum NightscoutParser {
    /// Whether the file starts like a Nightscout export or backup: a JSON array, or JSON objects one after another, of
    /// records with `sgv` or `mbg` and a `date`, or a treatment's `created_at` with `eventType`, `carbs` or `insulin`.
    public static func recognises(url: URL) -> Bool {
        guard let (prefix, _) = try? FileStart.read(url, count: 4096) else { return false }
        let text = String(decoding: prefix, as: UTF8.self)
        guard let first = text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).first, first == "[" || first == "{" else {
            return false
        }
        return (text.contains("\"sgv\"") || text.contains("\"mbg\"")) && text.contains("\"date\"")
            || text.contains("\"created_at\"")
                && (text.contains("\"eventType\"") || text.contains("\"carbs\"") || text.contains("\"insulin\""))
    }

    /// The times a reading may have, in epoch milliseconds: 1900 up to 2200.
    public static let readingEpochMilliseconds = -2_208_988_800_000.0..<7_258_118_400_000.0

    /// What records read from a file are marked as coming from.
    public static let importSource = "import:nightscout"

    /// Readings below this (mg/dL) are a CGM's status codes, not glucose; 39 itself is a sensor's LOW, a reading
    /// (`GlucoseReading.sensorLow`), as Nightscout, oref0 and Loop draw the line.
    static let errorCodeBelow = GlucoseReading.sensorLow

    /// Reads the file element by element: after each megabyte of it, `flush` is handed the records read since the last
    /// call, so that memory holds a megabyte's records, not the file's (and what finds duplicates: about a hundred bytes
    /// a record). Returns the counts, rejections included, with the lists empty.
    /// - Parameter timeZone: for records without an offset of their own.
    public static func read(url: URL, timeZone: TimeZone, flush: (NightscoutData) async throws -> Void) async throws -> NightscoutData {
        var records = Records(timeZone: timeZone)
        func handOn() async throws {
            guard records.data.holdsRecords else { return }
            try await flush(records.data)
            records.data.removeRecords()
        }
        try await JSONArrayStream.forEach(
            url: url,
            { record, line throws(CinnError) in
                guard records.data.rowsRead < ImportLimits.nightscoutRecords else {
                    throw ImportLimits.exceeded(ImportLimits.nightscoutRecords, "records")
                }
                records.take(record, line: line)
            }, afterChunk: handOn)
        try await handOn()
        return records.data
    }

    /// - Parameter source: what the records are marked as coming from: an import, or `nightscout` for an uploader's.
    public static func parse(_ bytes: [UInt8], timeZone: TimeZone, source: String = importSource) throws(CinnError) -> NightscoutData {
        let elements: [(line: Int, value: JSONValue)]?
        do throws(JSONSyntaxError) {
            elements = try JSONParser.records(bytes)
        } catch {
            throw error.fileError
        }
        guard let elements else { throw .invalid("file", "a Nightscout export is a JSON array of entries or treatments") }
        return parse(records: elements, timeZone: timeZone, source: source)
    }

    /// Reads records already parsed from JSON (with the line each starts on).
    public static func parse(records elements: [(line: Int, value: JSONValue)], timeZone: TimeZone, source: String = importSource)
        -> NightscoutData
    {
        var records = Records(timeZone: timeZone, source: source)
        for record in elements { records.take(record.value, line: record.line) }
        return records.data
    }

    /// A record's `_id`: Nightscout's are MongoDB object ids, 24 lowercase hex digits, kept as their 12 bytes (any other
    /// spelling as it is, so that two ids are the same only when their text is).
    enum RecordID: Hashable {
        case objectID(UInt64, UInt32)
        case other(String)

        init(_ text: String) {
            if text.utf8.count == 24, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
                let high = UInt64(text.prefix(16), radix: 16), let low = UInt32(text.suffix(8), radix: 16)
            {
                self = .objectID(high, low)
            } else {
                self = .other(text)
            }
        }
    }

    /// A record's instant and type: an entry's time and `type`, a treatment's `created_at` and `eventType`.
    struct TimeKey: Hashable {
        let treatment: Bool
        let milliseconds: Int64
        let type: String
    }

    /// The records read so far, and what has been seen of them to spot duplicates.
    struct Records {
        let timeZone: TimeZone
        let source: String
        var data = NightscoutData()
        var ids = Set<RecordID>(), keys = Set<TimeKey>()

        init(timeZone: TimeZone, source: String = importSource) {
            self.timeZone = timeZone
            self.source = source
        }

        mutating func take(_ record: JSONValue, line: Int) {
            data.rowsRead += 1
            guard case .object(let sent) = record else {
                data.reject(RejectedRow(line: line, reason: "not a Nightscout record (an object)"))
                return
            }
            let fields = plain(sent)
            let isTreatment = NightscoutParser.isTreatment(fields)
            let id = fields["_id"]?.string
            // A record without a time identifies nothing by it: such a record is rejected below, not taken for a duplicate.
            var entryTime: Result<(instant: Date, offset: () -> Int?), CinnError>?
            if !isTreatment {
                do throws(CinnError) { entryTime = .success(try entryInstant(fields)) } catch { entryTime = .failure(error) }
            }
            let treatmentTime = isTreatment ? try? treatmentInstant(fields, timeZone: timeZone) : nil
            let key: TimeKey? =
                isTreatment
                ? treatmentTime.map {
                    TimeKey(treatment: true, milliseconds: $0.millisecondsSince1970, type: fields["eventType"]?.string ?? "<none>")
                }
                : (try? entryTime?.get()).map {
                    TimeKey(treatment: false, milliseconds: $0.instant.millisecondsSince1970, type: entryType(fields))
                }
            let recordID = id.map(RecordID.init)
            if recordID.map(ids.contains) ?? false || key.map(keys.contains) ?? false {
                data.duplicates += 1
                return
            }
            if let recordID { ids.insert(recordID) }
            if let key { keys.insert(key) }
            do throws(CinnError) {
                if isTreatment {
                    try NightscoutUploadReader.treatment(fields, instant: treatmentTime, timeZone: timeZone, source: source, into: &data)
                } else {
                    // Without an _id, the entry's instant and type name it, as "e:MILLISECONDS|TYPE".
                    let name = id ?? "e:\(key?.milliseconds ?? 0)|\(entryType(fields))"
                    try entry(
                        fields, id: name,
                        time: { () throws(CinnError) in
                            switch entryTime {
                            case .success(let time): return time
                            case .failure(let error): throw error
                            case nil: return try entryInstant(fields)
                            }
                        }, timeZone: timeZone, source: source, into: &data)
                }
            } catch {
                data.reject(RejectedRow(line: line, field: error.field, reason: error.message))
            }
        }
    }

    /// Whether a record is a treatment: it has an `eventType`, or a `created_at` and no entry's glucose (oref0's
    /// `carbhistory.json`, and the treatments of a backup that have no event type).
    static func isTreatment(_ fields: [String: JSONValue]) -> Bool {
        fields["eventType"] != nil || fields["created_at"] != nil && fields["sgv"] == nil && fields["mbg"] == nil
    }

    /// An entry's type: `type`, else `sgv` when it holds a sensor's glucose.
    static func entryType(_ fields: [String: JSONValue]) -> String {
        fields["type"]?.string ?? (fields["sgv"] != nil ? "sgv" : "")
    }

    /// A record as Nightscout's API gives it, from MongoDB's extended JSON as `mongoexport` writes it: `{"$oid": ID}` is
    /// the id, `{"$date": …}` the epoch milliseconds for `date` and an ISO 8601 time in UTC elsewhere, `{"$numberLong": …}`
    /// and its kin a number. Other values are as they were.
    static func plain(_ fields: [String: JSONValue]) -> [String: JSONValue] {
        guard fields.values.contains(where: { if case .object = $0 { true } else { false } }) else { return fields }
        var plain = fields
        for (name, value) in fields {
            guard case .object(let members) = value else { continue }
            plain[name] = extended(members, name: name) ?? .object(Self.plain(members))
        }
        return plain
    }

    /// The plain value of one of MongoDB's extended JSON wrappers, or nil when `members` is not one.
    private static func extended(_ members: [String: JSONValue], name: String) -> JSONValue? {
        guard members.count == 1, let (kind, inner) = members.first else { return nil }
        switch kind {
        case "$oid": return inner.string.map(JSONValue.string)
        case "$numberLong", "$numberInt", "$numberDouble", "$numberDecimal":
            if case .number = inner { return inner }
            return inner.string.flatMap { Double($0) }.map { .number(JSONNumber($0)) }
        case "$date":
            var milliseconds: Double?
            switch inner {
            case .number(let number): milliseconds = number.double
            case .string(let text):
                milliseconds = LocalDateTime(iso: text).flatMap { time in
                    time.utcOffsetSeconds.map {
                        time.resolved(in: TimeZone(secondsFromGMT: $0) ?? .gmt).instant.timeIntervalSince1970 * 1000
                    }
                }
            case .object(let wrapped): milliseconds = extended(wrapped, name: name)?.number
            default: break
            }
            guard let milliseconds, readingEpochMilliseconds.contains(milliseconds) else { return nil }
            if name == "date" { return .number(JSONNumber(milliseconds)) }
            return .string(
                Date(timeIntervalSince1970: milliseconds / 1000).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        default: return nil
        }
    }

    /// The text of a string or a number (Nightscout sends numbers as strings at times).
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .number(let number): number.text
        default: ""
        }
    }

    /// A number that may be written as a string; nil when absent or null.
    static func number(_ fields: [String: JSONValue], _ name: String) throws(CinnError) -> Double? {
        guard let value = fields[name] else { return nil }
        switch value {
        case .null: return nil
        case .number(let number):
            guard number.double.isFinite else { throw .invalid(name, "\"\(number.text)\" is not a number") }
            return number.double
        case .string(let text):
            if text.trimmingCharacters(in: .whitespaces).isEmpty { return nil }
            guard let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite else {
                throw .invalid(name, "\"\(text)\" is not a number")
            }
            return number
        default: throw .invalid(name, "not a number")
        }
    }

    /// The record's offset: `utcOffset` (minutes) when given, else `offset` (the one its time was written with), else
    /// the user's time zone's at that instant.
    static func offset(instant: Date, fields: [String: JSONValue], timeZone: TimeZone, written offset: @autoclosure () -> Int?) -> Int {
        if let minutes = fields["utcOffset"].flatMap({ Int(text($0)) }), abs(minutes) <= 18 * 60 { return minutes * 60 }
        return offset() ?? timeZone.secondsFromGMT(for: instant)
    }

    /// An ISO 8601 time's offset, when it has one.
    static func writtenOffset(_ text: String?) -> Int? {
        text.flatMap { LocalDateTime(iso: $0)?.utcOffsetSeconds }
    }

    /// A treatment's instant: its `created_at`, an ISO 8601 time (UTC when it has no offset), from 1900 to 2199.
    static func treatmentInstant(_ fields: [String: JSONValue], timeZone: TimeZone) throws(CinnError) -> Date {
        guard let createdText = fields["created_at"]?.string, let created = LocalDateTime(iso: createdText) else {
            throw .invalid("created_at", "a treatment needs its created_at time")
        }
        return try ValidValues.instant(
            created.resolved(in: TimeZone(secondsFromGMT: created.utcOffsetSeconds ?? 0) ?? .gmt).instant,
            field: "created_at")
    }

    /// An entry's instant, from `date` (epoch milliseconds, an integer or not), else `dateString` (ISO 8601 with an
    /// offset, or JavaScript's `Thu May 09 14:35:18 GMT+02:00 2019`), with the offset its time was written in (worked out
    /// when asked: an entry with its `utcOffset` needs none).
    static func entryInstant(_ fields: [String: JSONValue]) throws(CinnError) -> (instant: Date, offset: () -> Int?) {
        let dateString = fields["dateString"]?.string
        if let milliseconds = try number(fields, "date") {
            guard readingEpochMilliseconds.contains(milliseconds) else {
                throw .invalid("date", "\(text(fields["date"]!)) is not a time from 1900 to 2199 in epoch milliseconds")
            }
            return (
                Date(timeIntervalSince1970: milliseconds / 1000),
                { writtenOffset(dateString) ?? dateString.flatMap(javaScriptTime)?.offset }
            )
        }
        if let dateString, let parsed = LocalDateTime(iso: dateString), let offset = parsed.utcOffsetSeconds {
            let instant = parsed.resolved(in: TimeZone(secondsFromGMT: offset) ?? .gmt).instant
            guard readingEpochMilliseconds.contains(instant.timeIntervalSince1970 * 1000) else {
                throw .invalid("dateString", "\(dateString) is not a time from 1900 to 2199")
            }
            return (instant, { offset })
        }
        if let dateString, let time = javaScriptTime(dateString) {
            guard readingEpochMilliseconds.contains(time.instant.timeIntervalSince1970 * 1000) else {
                throw .invalid("dateString", "\(dateString) is not a time from 1900 to 2199")
            }
            return (time.instant, { time.offset })
        }
        throw .invalid("date", "an entry needs its date (epoch milliseconds) or a dateString with an offset")
    }

    /// A time as Java's and JavaScript's `Date.toString()` write it, which some uploaders put in `dateString`:
    /// `Thu May 09 14:35:18 GMT+02:00 2019` or `Thu May 09 2019 14:35:18 GMT+0200 (Central European Summer Time)`.
    /// Nil without a numeric offset (`CEST` names no offset Cinn can trust).
    static func javaScriptTime(_ text: String) -> (instant: Date, offset: Int)? {
        let words = text.split(separator: "(").first?.split(separator: " ") ?? []
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        var month: Int?, day: Int?, year: Int?, seconds: Int?, offset: Int?
        for word in words {
            if let index = months.firstIndex(of: word.prefix(3).lowercased()), word.count <= 9, month == nil {
                month = index + 1
            } else if word.contains(":"), !word.hasPrefix("GMT"), !word.hasPrefix("UTC") {
                let parts = word.split(separator: ":").map { Int($0) }
                guard parts.count == 3, let h = parts[0], let m = parts[1], let s = parts[2], h < 24, m < 60, s < 61 else { return nil }
                seconds = h * 3600 + m * 60 + s
            } else if word.hasPrefix("GMT") || word.hasPrefix("UTC") {
                let zone = word.dropFirst(3).replacingOccurrences(of: ":", with: "")
                if zone.isEmpty {
                    offset = 0
                    continue
                }
                guard let sign = zone.first, sign == "+" || sign == "-", zone.count == 5, let hhmm = Int(zone.dropFirst()) else {
                    return nil
                }
                offset = (sign == "-" ? -1 : 1) * ((hhmm / 100) * 3600 + (hhmm % 100) * 60)
            } else if let number = Int(word) {
                if word.count == 4 { year = number } else if word.count <= 2 { day = number }
            }
        }
        guard let month, let day, let year, let seconds, let offset, abs(offset) <= 18 * 3600,
            let date = LocalDate(year: year, month: month, day: day)
        else { return nil }
        let local = Double(date.dayNumber) * 86_400 + Double(seconds)
        return (Date(timeIntervalSince1970: local - Double(offset)), offset)
    }

    /// - Parameter time: the entry's `entryInstant`, worked out already.
    static func entry(
        _ fields: [String: JSONValue], id: String, time: () throws(CinnError) -> (instant: Date, offset: () -> Int?),
        timeZone: TimeZone, source: String, into data: inout NightscoutData
    ) throws(CinnError) {
        let type = entryType(fields)
        guard type == "sgv" || type == "mbg" else {
            data.skipped += 1
            return
        }
        let (instant, written) = try time()
        guard let mg = try number(fields, type) else { throw .invalid(type, "an \(type) entry without its \(type) value") }
        guard mg >= errorCodeBelow else {
            data.skipped += 1
            return
        }
        guard mg <= 1000 else { throw .invalid(type, "\(text(fields[type]!)) mg/dL is not a glucose reading") }
        let offset = offset(instant: instant, fields: fields, timeZone: timeZone, written: written())
        let device = fields["device"]?.string.map { String($0.prefix(100)) }
        data.readings.append(
            GlucoseReading(
                measuredAt: instant, utcOffsetSeconds: offset, glucose: Glucose(milligramsPerDeciliter: mg),
                note: type == "mbg" ? "meter" : device.map { "CGM: \($0)" }, source: source,
                externalID: "nightscout:\(id):\(type)", sensor: type == "sgv", device: device,
                direction: type == "sgv" ? fields["direction"]?.string.flatMap(GlucoseDirection.init(rawValue:)) : nil))
    }

    /// What the journal keeps of one treatment, named `key` (its `_id`, else its instant and event type): `insulin` as a
    /// dose (basal when its event type says so), `carbs` as a food-log entry named by its `foodType`, else its `notes`,
    /// and a `glucose` check as a meter's reading. Returns whether it made anything.
    static func treatment(
        _ fields: [String: JSONValue], key: String, instant: Date, timeZone: TimeZone, source: String,
        into data: inout NightscoutData
    ) throws(CinnError) -> Bool {
        let offset = offset(
            instant: instant, fields: fields, timeZone: timeZone,
            written: writtenOffset(fields["timestamp"]?.string)
                ?? writtenOffset(fields["created_at"]?.string).flatMap { $0 == 0 ? nil : $0 })
        let eventType = fields["eventType"]?.string ?? "<none>"
        let notes = fields["notes"]?.string.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        var made = false
        if let units = try number(fields, "insulin"), units > 0 {
            _ = try InsulinDose.validatedUnits(units, field: "insulin")
            let kind: InsulinKind = eventType.localizedCaseInsensitiveContains("basal") ? .basal : .bolus
            data.doses.append(
                InsulinDose(
                    takenAt: instant, utcOffsetSeconds: offset, units: units, kind: kind, note: notes ?? eventType,
                    source: source, externalID: "nightscout:\(key):insulin"))
            made = true
        }
        if let grams = try number(fields, "carbs"), grams > 0 {
            guard grams <= 1000 else { throw .invalid("carbs", "\(grams) g is not a meal") }
            let food = foodName(fields["foodType"]?.string)
            let named = food ?? foodName(notes)
            data.entries.append(
                try FoodLogEntry.carbohydrateTreatment(
                    grams: grams, name: named, note: food == nil && named != nil ? nil : notes, eatenAt: instant, utcOffsetSeconds: offset,
                    source: source, externalID: "nightscout:\(key):carbs"))
            made = true
        }
        if let value = try number(fields, "glucose") {
            let unitText = fields["units"]?.string ?? "mg/dl"
            guard let unit = GlucoseUnit(spelling: unitText) else { throw .invalid("units", "unknown glucose unit \"\(unitText)\"") }
            let glucose = try Glucose.validated(value, unit, field: "glucose")
            data.readings.append(
                GlucoseReading(
                    measuredAt: instant, utcOffsetSeconds: offset, glucose: glucose, note: notes ?? eventType,
                    source: source, externalID: "nightscout:\(key):glucose"))
            made = true
        }
        return made
    }

    /// A carb treatment's food, as a food-log name: its `foodType` or its `notes` when that is a name (one line of at
    /// most 80 characters, plain text), else nil.
    static func foodName(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty, text.count <= 80,
            !text.contains(where: \.isNewline), ValidValues.isPlain(text, allowingLineBreaks: false)
        else { return nil }
        return text
    }
}
