import CinnCore
import Foundation

/// Carbohydrate a Nightscout treatment recorded: a meal event of the meal `name` (the treatment's
/// `foodType`, else "Carbs").
public struct NightscoutCarbs: Sendable, Hashable {
    public var at: Date
    public var utcOffsetSeconds: Int
    public var grams: Double
    public var name: String
    public var note: String?
    public var externalID: String
}

/// What a Nightscout export holds for the journal (docs/FORMATS.md §7): CGM (`sgv`) and meter (`mbg`) entries
/// and glucose checks become readings, insulin becomes doses, carbohydrate becomes meal events.
public struct NightscoutData: Sendable {
    public var readings: [GlucoseReading] = []
    public var doses: [InsulinDose] = []
    public var carbs: [NightscoutCarbs] = []
    public var rowsRead = 0
    /// Records with nothing for the journal (calibrations, notes, site changes, CGM error codes, temp basal rates).
    public var skipped = 0
    /// Records the file holds twice: the same id, or the same time and event type from two uploaders.
    public var duplicates = 0
    /// The first `ImportReport.maximumListedRejections` rejected records; `rejectedCount` counts them all.
    public var rejected: [RejectedRow] = []
    public var rejectedCount = 0

    mutating func reject(_ row: RejectedRow) {
        rejectedCount += 1
        if rejected.count < ImportReport.maximumListedRejections { rejected.append(row) }
    }
}

/// Reads Nightscout's `entries.json` and `treatments.json` (API v1: JSON arrays, newest first).
/// Records are deduplicated within the file by their `_id`, then by time and type (an entry's `date`
/// and `type`; a treatment's `created_at` and `eventType`). External ids are `nightscout:<_id>` plus
/// the kind of record made from it.
public enum NightscoutParser {
    /// Whether the file starts like a Nightscout export: a JSON array of objects with `sgv`, `type`
    /// and `date`, or `eventType` and `created_at`.
    public static func recognises(url: URL) -> Bool {
        guard let (prefix, _) = try? FileStart.read(url, count: 4096) else { return false }
        let text = String(decoding: prefix, as: UTF8.self)
        guard text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).first == "[" else { return false }
        return (text.contains("\"sgv\"") || text.contains("\"mbg\"")) && text.contains("\"date\"")
            || text.contains("\"eventType\"") && text.contains("\"created_at\"")
    }

    /// The times a reading may have, in epoch milliseconds: 1900 up to 2200.
    public static let readingEpochMilliseconds = -2_208_988_800_000.0 ..< 7_258_118_400_000.0

    /// What records read from a file are marked as coming from.
    public static let importSource = "import:nightscout"

    /// Readings below this (mg/dL) are a CGM's status codes, not glucose; 39 itself is a sensor's LOW, a reading
    /// (`GlucoseReading.sensorLow`), as Nightscout, oref0 and Loop draw the line.
    static let errorCodeBelow = GlucoseReading.sensorLow

    /// Reads the file element by element: after each megabyte of it, `flush` is handed the readings, doses and
    /// carbohydrate read since the last call, so that memory holds a megabyte's records, not the file's (and what finds
    /// duplicates: about a hundred bytes a record). Returns the counts, rejections included, with the lists empty.
    /// - Parameter timeZone: for records without an offset of their own.
    public static func read(url: URL, timeZone: TimeZone, flush: (NightscoutData) async throws -> Void) async throws -> NightscoutData {
        var records = Records(timeZone: timeZone)
        var carbs = 0
        func handOn() async throws {
            guard !records.data.readings.isEmpty || !records.data.doses.isEmpty || !records.data.carbs.isEmpty else { return }
            try await flush(records.data)
            carbs += records.data.carbs.count
            records.data.readings.removeAll(keepingCapacity: true)
            records.data.doses.removeAll(keepingCapacity: true)
            records.data.carbs.removeAll(keepingCapacity: true)
        }
        try await JSONArrayStream.forEach(url: url, { record, line throws(CinnError) in
            guard records.data.rowsRead < ImportLimits.nightscoutRecords else {
                throw ImportLimits.exceeded(ImportLimits.nightscoutRecords, "records")
            }
            records.take(record, line: line)
            // Carbohydrate is written with the meals it names at the end, so the import keeps it: this bounds it.
            guard carbs + records.data.carbs.count <= ImportLimits.nightscoutCarbs else {
                throw ImportLimits.exceeded(ImportLimits.nightscoutCarbs, "carbohydrate records")
            }
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
    public static func parse(records elements: [(line: Int, value: JSONValue)], timeZone: TimeZone, source: String = importSource) -> NightscoutData {
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
               let high = UInt64(text.prefix(16), radix: 16), let low = UInt32(text.suffix(8), radix: 16) {
                self = .objectID(high, low)
            } else {
                self = .other(text)
            }
        }
    }

    /// A record's time and type: an entry's `date` and `type`, a treatment's `created_at` and `eventType`.
    struct TimeKey: Hashable {
        let treatment: Bool
        let time: String
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
            guard case .object(let fields) = record else {
                data.reject(RejectedRow(line: line, reason: "not a Nightscout record (an object)"))
                return
            }
            let id = fields["_id"]?.string
            let isTreatment = fields["eventType"] != nil
            let key = isTreatment
                ? TimeKey(treatment: true, time: fields["created_at"]?.string ?? "", type: fields["eventType"]?.string ?? "")
                : TimeKey(treatment: false, time: fields["date"].map(text) ?? "", type: fields["type"]?.string ?? "")
            // A key without a time identifies nothing: such a record is rejected below, not taken for a duplicate.
            let timed = !key.time.isEmpty
            let recordID = id.map(RecordID.init)
            if recordID.map(ids.contains) ?? false || (timed && keys.contains(key)) {
                data.duplicates += 1
                return
            }
            if let recordID { ids.insert(recordID) }
            if timed { keys.insert(key) }
            // Without an _id, the record's time and type name it, as "t:TIME|TYPE" or "e:TIME|TYPE".
            let name = id ?? (isTreatment ? "t:" : "e:") + key.time + "|" + key.type
            do throws(CinnError) {
                if isTreatment {
                    try treatment(fields, id: name, line: line, timeZone: timeZone, source: source, into: &data)
                } else {
                    try entry(fields, id: name, line: line, timeZone: timeZone, source: source, into: &data)
                }
            } catch {
                data.reject(RejectedRow(line: line, field: error.field, reason: error.message))
            }
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

    /// The record's instant and offset: `utcOffset` (minutes) when given, else the offset written in
    /// `offsetText`, else the user's time zone.
    static func time(instant: Date, fields: [String: JSONValue], offsetText: String?, timeZone: TimeZone) -> Int {
        if let minutes = fields["utcOffset"].flatMap({ Int(text($0)) }), abs(minutes) <= 18 * 60 { return minutes * 60 }
        if let offsetText, let parsed = LocalDateTime(iso: offsetText), let offset = parsed.utcOffsetSeconds { return offset }
        return timeZone.secondsFromGMT(for: instant)
    }

    static func entry(_ fields: [String: JSONValue], id: String, line: Int, timeZone: TimeZone, source: String,
                      into data: inout NightscoutData) throws(CinnError) {
        let type = fields["type"]?.string ?? (fields["sgv"] != nil ? "sgv" : "")
        guard type == "sgv" || type == "mbg" else {
            data.skipped += 1
            return
        }
        let instant: Date
        if let milliseconds = try number(fields, "date") {
            guard readingEpochMilliseconds.contains(milliseconds) else { throw .invalid("date", "\(text(fields["date"]!)) is not a time from 1900 to 2199 in epoch milliseconds") }
            instant = Date(timeIntervalSince1970: milliseconds / 1000)
        } else if let text = fields["dateString"]?.string, let parsed = LocalDateTime(iso: text), let offset = parsed.utcOffsetSeconds {
            instant = parsed.resolved(in: TimeZone(secondsFromGMT: offset) ?? timeZone).instant
            guard readingEpochMilliseconds.contains(instant.timeIntervalSince1970 * 1000) else { throw .invalid("dateString", "\(text) is not a time from 1900 to 2199") }
        } else {
            throw .invalid("date", "an entry needs its date (epoch milliseconds) or a dateString with an offset")
        }
        guard let mg = try number(fields, type) else { throw .invalid(type, "an \(type) entry without its \(type) value") }
        guard mg >= errorCodeBelow else {
            data.skipped += 1
            return
        }
        guard mg <= 1000 else { throw .invalid(type, "\(text(fields[type]!)) mg/dL is not a glucose reading") }
        let offset = time(instant: instant, fields: fields, offsetText: fields["dateString"]?.string, timeZone: timeZone)
        let device = fields["device"]?.string.map { String($0.prefix(100)) }
        data.readings.append(GlucoseReading(measuredAt: instant, utcOffsetSeconds: offset, glucose: Glucose(milligramsPerDeciliter: mg),
                                            note: type == "mbg" ? "meter" : device.map { "CGM: \($0)" }, source: source,
                                            externalID: "nightscout:\(id):\(type)", sensor: type == "sgv", device: device,
                                            direction: type == "sgv" ? fields["direction"]?.string.flatMap(GlucoseDirection.init(rawValue:)) : nil))
    }

    static func treatment(_ fields: [String: JSONValue], id: String, line: Int, timeZone: TimeZone, source: String,
                          into data: inout NightscoutData) throws(CinnError) {
        guard let createdText = fields["created_at"]?.string, let created = LocalDateTime(iso: createdText) else {
            throw .invalid("created_at", "a treatment needs its created_at time")
        }
        let instant = created.resolved(in: TimeZone(secondsFromGMT: created.utcOffsetSeconds ?? 0) ?? timeZone).instant
        let offset = time(instant: instant, fields: fields, offsetText: fields["timestamp"]?.string, timeZone: timeZone)
        let eventType = fields["eventType"]?.string ?? "<none>"
        let notes = fields["notes"]?.string.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        var made = false
        if let units = try number(fields, "insulin"), units > 0 {
            _ = try InsulinDose.validatedUnits(units, field: "insulin")
            let kind: InsulinKind = eventType.localizedCaseInsensitiveContains("basal") ? .basal : .bolus
            data.doses.append(InsulinDose(takenAt: instant, utcOffsetSeconds: offset, units: units, kind: kind, note: notes ?? eventType,
                                          source: source, externalID: "nightscout:\(id):insulin"))
            made = true
        }
        if let grams = try number(fields, "carbs"), grams > 0 {
            guard grams <= 1000 else { throw .invalid("carbs", "\(grams) g is not a meal") }
            let food = fields["foodType"]?.string.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
            data.carbs.append(NightscoutCarbs(at: instant, utcOffsetSeconds: offset, grams: grams, name: food.map { String($0.prefix(80)) } ?? "Carbs",
                                              note: notes, externalID: "nightscout:\(id):carbs"))
            made = true
        }
        if let value = try number(fields, "glucose") {
            let unitText = fields["units"]?.string ?? "mg/dl"
            guard let unit = GlucoseUnit(spelling: unitText) else { throw .invalid("units", "unknown glucose unit \"\(unitText)\"") }
            let glucose = try Glucose.validated(value, unit, field: "glucose")
            data.readings.append(GlucoseReading(measuredAt: instant, utcOffsetSeconds: offset, glucose: glucose, note: notes ?? eventType,
                                                source: source, externalID: "nightscout:\(id):glucose"))
            made = true
        }
        if !made { data.skipped += 1 }
    }
}
