import CinnCore
import CinnImport
import CinnStore
import Crypto
import Foundation

/// A reading as Nightscout's followers read it: with its change from the sample before and its direction.
public struct NightscoutEntry: Sendable {
    public var reading: GlucoseReading
    /// The change since the reading of the same kind before it, when that is within `GlucoseDirection.longestGap`.
    public var deltaMilligramsPerDeciliter: Double?
    /// The direction its uploader sent, else the one its change gives.
    public var direction: GlucoseDirection?

    public init(reading: GlucoseReading, deltaMilligramsPerDeciliter: Double?, direction: GlucoseDirection?) {
        self.reading = reading
        self.deltaMilligramsPerDeciliter = deltaMilligramsPerDeciliter
        self.direction = direction
    }
}

extension UUID {
    /// A Nightscout `_id` for a record Cinn made: its first 12 bytes as 24 hex digits (a UUIDv7's time first, as an
    /// object id's is).
    public var nightscoutObjectID: String {
        String(lowercasedString.replacingOccurrences(of: "-", with: "").prefix(24))
    }
}

/// What an uploader's delivery of entries did.
public struct NightscoutUpload: Sendable {
    /// The readings stored (new to the journal).
    public var stored: [GlucoseReading]
    /// Entries the journal had already (an uploader's retry, a backlog sent again).
    public var duplicates: Int
    /// Entries with nothing for the journal: status codes (sgv under 40), calibrations, other types.
    public var skipped: Int
    public var rejected: [RejectedRow]
}

extension Journal {
    /// Stores the entries an uploader posts (a JSON array of Nightscout entries, or one), deduplicated by identifier and
    /// then by time and kind. Status codes and types without glucose are skipped, never an error; an entry without a time
    /// or with an impossible value is rejected alone.
    public func uploadNightscoutEntries(_ body: [UInt8]) async throws -> NightscoutUpload {
        let settings = try await settings()
        let data = NightscoutParser.parse(records: try Self.nightscoutElements(body, documents: false), timeZone: settings.timeZone, source: "nightscout")
        let stored = try await store.addUploadedGlucoseReadings(data.readings, user: user)
        return NightscoutUpload(stored: stored, duplicates: data.duplicates + data.readings.count - stored.count, skipped: data.skipped,
                                rejected: data.rejected)
    }

    /// Up to `count` readings from `start` up to (not including) `end`, newest first (only a sensor's, or only a
    /// meter's, when `sensor` says so), each with its change and direction.
    public func nightscoutEntries(from start: Date?, to end: Date?, sensor: Bool?, count: Int) async throws -> [NightscoutEntry] {
        let readings = try await store.latestGlucoseReadings(user: user, from: start, to: end, sensor: sensor, limit: count + 1)
        var earlier: [Bool: GlucoseReading] = [:]
        if readings.count <= count, let oldest = readings.last {
            // The sample before the oldest, for its change.
            for kind in [true, false] where sensor == nil || sensor == kind {
                earlier[kind] = try await store.latestGlucoseReadings(user: user, from: oldest.measuredAt.addingTimeInterval(-GlucoseDirection.longestGap),
                                                                      to: oldest.measuredAt, sensor: kind, limit: 1).first
            }
        }
        var entries: [NightscoutEntry] = []
        for (index, reading) in readings.prefix(count).enumerated() {
            let before = readings[(index + 1)...].first { $0.sensor == reading.sensor } ?? earlier[reading.sensor]
            var delta: Double?, computed: GlucoseDirection?
            if let before {
                let point = GlucosePoint(at: reading.measuredAt, glucose: reading.glucose)
                computed = GlucoseDirection.between(GlucosePoint(at: before.measuredAt, glucose: before.glucose), point)
                if computed != nil { delta = reading.glucose.milligramsPerDeciliter - before.glucose.milligramsPerDeciliter }
            }
            entries.append(NightscoutEntry(reading: reading, deltaMilligramsPerDeciliter: delta,
                                           direction: reading.direction ?? (reading.sensor ? computed : nil)))
        }
        return entries
    }
}

/// What an uploader's delivery of treatments (or device statuses, profiles) did.
public struct NightscoutDocumentsUpload: Sendable {
    /// The documents stored (new to the journal), as the client will read them back.
    public var stored: [NightscoutDocument]
    public var duplicates: Int
    public var rejected: [RejectedRow]
}

extension Journal {
    /// A body Nightscout clients send: a JSON array, or one object alone (made an array of one).
    static func nightscoutArray(_ body: [UInt8]) -> [UInt8] {
        let first = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "{") ? Array("[".utf8) + body + Array("]".utf8) : body
    }

    /// The most JSON values (objects, arrays, strings, numbers…) one upload may hold: a day of CGM readings is about
    /// 3,000, a week of Loop's device statuses with their predictions about 200,000. Counted while parsing, so a body of
    /// millions of `{}` is refused before it is built.
    public static let maximumNightscoutValues = 250_000
    /// The most documents (treatments, device statuses, profiles) one upload may hold.
    public static let maximumNightscoutDocuments = 10_000

    /// The elements of a JSON array of objects, or of one object sent alone; anything else in the array refuses the body.
    static func nightscoutElements(_ body: [UInt8], documents: Bool = true) throws -> [(line: Int, value: JSONValue)] {
        let elements: [(line: Int, value: JSONValue)]?
        do throws(JSONSyntaxError) {
            elements = try JSONParser.records(nightscoutArray(body), maximumValues: maximumNightscoutValues)
        } catch {
            if case .tooManyValues = error.problem { throw error.requestError }
            throw CinnError(.malformedRequest, error.fileError.message)
        }
        guard let elements else { throw CinnError.invalid("body", "send a JSON array of documents, or one") }
        guard elements.count <= maximumNightscoutDocuments || documents == false else {
            throw CinnError(.contentTooLarge, "the upload holds \(elements.count) documents; at most \(maximumNightscoutDocuments) at a time")
        }
        if let (index, element) = elements.enumerated().first(where: { if case .object = $0.element.value { false } else { true } }) {
            throw CinnError.invalid("body", "element \(index + 1) (line \(element.line)) is not a JSON object: send an array of documents")
        }
        return elements
    }

    /// The object with an `_id` (24 hex digits of `id` when it came without one), as JSON text.
    static func withID(_ members: [String: JSONValue], _ id: UUID) -> String {
        var members = members
        if members["_id"]?.string?.isEmpty != false { members["_id"] = .string(id.nightscoutObjectID) }
        return JSONValue.object(members).text
    }

    /// The largest document kept as sent: a treatment, a device status (Loop's and OpenAPS's, with their predictions,
    /// are a few KB) or a profile (a year of schedules).
    public static let maximumNightscoutDocumentBytes = 64 * 1024

    /// A document's `_id`, `eventType` and notes checked as Cinn checks every text (`ValidValues`): 100, 100 and 500
    /// characters, no control characters (but line breaks in notes), and the whole document at most
    /// `maximumNightscoutDocumentBytes` as JSON.
    static func checkNightscoutDocument(_ members: [String: JSONValue]) throws(CinnError) -> String {
        if let id = members["_id"] {
            guard let text = id.string, !text.isEmpty, text.count <= 100, ValidValues.isPlain(text, allowingLineBreaks: false) else {
                throw .invalid("_id", "_id is text of 1 to 100 characters")
            }
        }
        if let eventType = members["eventType"], eventType != .null {
            guard let text = eventType.string else { throw .invalid("eventType", "eventType is text") }
            _ = try ValidValues.name(text, field: "eventType", maximumLength: 100)
        }
        if let notes = members["notes"], notes != .null {
            guard let text = notes.string else { throw .invalid("notes", "notes are text") }
            guard text.count <= Note.maximumLength else { throw .invalid("notes", "notes have \(text.count) characters; at most \(Note.maximumLength)") }
            try ValidValues.plainText(text, field: "notes", allowingLineBreaks: true)
        }
        let text = JSONValue.object(members).text
        guard text.utf8.count <= maximumNightscoutDocumentBytes else {
            throw .invalid("", "the document is \(text.utf8.count / 1024) KiB; at most \(maximumNightscoutDocumentBytes / 1024) KiB")
        }
        return text
    }

    /// Stores the treatments an uploader posts (a JSON array, or one), each kept as sent and deduplicated by its
    /// `_id`, then by the instant of `created_at` and `eventType` (the same bolus written in two offsets is one); what the
    /// journal holds of a new one goes there too: insulin as a dose (basal when its event type says so), a glucose check
    /// as a meter's reading, and carbohydrate as a quick add in the food log, its energy counted at 4 kcal a gram. A
    /// treatment without a time from 1900 to 2199, with an impossible amount or text, is rejected alone, named by its
    /// place in the body.
    public func uploadNightscoutTreatments(_ body: [UInt8]) async throws -> NightscoutDocumentsUpload {
        let settings = try await settings()
        var documents: [NightscoutDocument] = [], records = NightscoutRecords(), rejected: [RejectedRow] = []
        for (index, (line, value)) in try Self.nightscoutElements(body).enumerated() {
            guard case .object(let members) = value else {
                rejected.append(RejectedRow(line: line, field: "[\(index)]", reason: "a treatment is a JSON object"))
                continue
            }
            guard let createdText = members["created_at"]?.string, let created = LocalDateTime(iso: createdText) else {
                rejected.append(RejectedRow(line: line, field: "[\(index)].created_at", reason: "a treatment needs its created_at time"))
                continue
            }
            let instant = created.resolved(in: TimeZone(secondsFromGMT: created.utcOffsetSeconds ?? 0) ?? settings.timeZone).instant
            let eventType = members["eventType"]?.string ?? "<none>"
            let data: NightscoutData
            let key: String
            do throws(CinnError) {
                _ = try ValidValues.instant(instant, field: "created_at")
                _ = try Self.checkNightscoutDocument(members)
                // The key names the document and, in their external ids, what the journal keeps of it: its `_id`, else
                // its instant and event type (never the text of its time).
                key = members["_id"]?.string ?? "t:\(instant.millisecondsSince1970)|\(eventType)"
                data = try NightscoutParser.treatment(members, key: key, timeZone: settings.timeZone, source: "nightscout")
            } catch {
                rejected.append(RejectedRow(line: line, field: "[\(index)]" + (error.field.map { $0.isEmpty ? "" : "." + $0 } ?? ""),
                                            reason: error.message))
                continue
            }
            let id = UUID.v7(at: now())
            documents.append(NightscoutDocument(id: id, collection: .treatments, key: key, eventType: eventType, createdAt: instant,
                                                body: Self.withID(members, id)))
            records.readings += data.readings
            records.doses += data.doses
            for carbs in data.carbs {
                let quick = try QuickAdd.validated(name: carbs.name, energyKcal: nil, proteinGrams: nil, carbohydrateGrams: carbs.grams, fatGrams: nil)
                let local = LocalDateTime(instant: carbs.at, utcOffsetSeconds: carbs.utcOffsetSeconds)
                var entry = FoodLogEntry.logging(quick, meal: Meal.usual(atSecondsOfDay: local.secondsOfDay), eatenAt: carbs.at,
                                                 utcOffsetSeconds: carbs.utcOffsetSeconds,
                                                 note: ([carbs.note].compactMap { $0 } + ["energy estimated from carbohydrate, 4 kcal a gram"])
                                                     .joined(separator: "; "))
                entry.externalID = carbs.externalID
                records.entries.append(entry)
            }
        }
        // A document sent twice in one body brings its records twice: each is kept once.
        var seen = Set<String>()
        records.readings = records.readings.filter { seen.insert($0.externalID ?? "").inserted }
        records.doses = records.doses.filter { seen.insert($0.externalID ?? "").inserted }
        records.entries = records.entries.filter { seen.insert($0.externalID ?? "").inserted }
        let stored = try await store.addNightscoutDocuments(documents, records: records, user: user)
        return NightscoutDocumentsUpload(stored: stored, duplicates: documents.count - stored.count, rejected: rejected)
    }

    /// Stores the device statuses (or profiles) a client posts, as sent, deduplicated by `_id`, else by their time and
    /// device; their time is `created_at` (a profile's `startDate`), else now.
    public func uploadNightscoutDocuments(_ collection: NightscoutDocument.Collection, _ body: [UInt8]) async throws -> NightscoutDocumentsUpload {
        var documents: [NightscoutDocument] = [], rejected: [RejectedRow] = []
        for (index, (line, value)) in try Self.nightscoutElements(body).enumerated() {
            guard case .object(let members) = value else {
                rejected.append(RejectedRow(line: line, field: "[\(index)]", reason: "a \(collection.rawValue) document is a JSON object"))
                continue
            }
            let timeText = members["created_at"]?.string ?? members["startDate"]?.string
            var instant = now()
            if let timeText {
                let time = LocalDateTime(iso: timeText)
                let at = time.map { $0.resolved(in: TimeZone(secondsFromGMT: $0.utcOffsetSeconds ?? 0) ?? .gmt).instant }
                guard let at, NightscoutParser.readingEpochMilliseconds.contains(at.timeIntervalSince1970 * 1000) else {
                    rejected.append(RejectedRow(line: line, field: "[\(index)].created_at", reason: "\(timeText) is not a time from 1900 to 2199"))
                    continue
                }
                instant = at
            }
            let text: String
            do throws(CinnError) {
                text = try Self.checkNightscoutDocument(members)
            } catch {
                rejected.append(RejectedRow(line: line, field: "[\(index)]" + (error.field.map { $0.isEmpty ? "" : "." + $0 } ?? ""),
                                            reason: error.message))
                continue
            }
            let id = UUID.v7(at: now())
            // Without an `_id`, a document is its time and device; without a time, its content: sent again, it is the same.
            let key = members["_id"]?.string ?? (timeText == nil
                ? "d:" + SHA256.hash(data: Data(text.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
                : "d:\(instant.millisecondsSince1970)|\(members["device"]?.string ?? "")")
            documents.append(NightscoutDocument(id: id, collection: collection, key: key, eventType: nil, createdAt: instant,
                                                body: Self.withID(members, id)))
        }
        let stored = try await store.addNightscoutDocuments(documents, user: user)
        return NightscoutDocumentsUpload(stored: stored, duplicates: documents.count - stored.count, rejected: rejected)
    }
}
