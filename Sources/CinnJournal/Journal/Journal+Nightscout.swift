import CinnCore
import CinnImport
import CinnStore
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
    /// Entries with nothing for the journal: status codes (sgv under 39), calibrations, other types.
    public var skipped: Int
    public var rejected: [RejectedRow]
}

extension Journal {
    /// Stores the entries an uploader posts (a JSON array of Nightscout entries, or one), deduplicated by identifier and
    /// then by time and kind. Status codes and types without glucose are skipped, never an error; an entry without a time
    /// or with an impossible value is rejected alone.
    public func uploadNightscoutEntries(_ body: [UInt8]) async throws -> NightscoutUpload {
        let settings = try await settings()
        let data = NightscoutParser.parse(
            records: try NightscoutUploadReader.elements(body, documents: false), timeZone: settings.timeZone, source: "nightscout")
        let stored = try await store.addUploadedGlucoseReadings(data.readings, user: user)
        return NightscoutUpload(
            stored: stored, duplicates: data.duplicates + data.readings.count - stored.count, skipped: data.skipped,
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
                earlier[kind] = try await store.latestGlucoseReadings(
                    user: user, from: oldest.measuredAt.addingTimeInterval(-GlucoseDirection.longestGap),
                    to: oldest.measuredAt, sensor: kind, limit: 1
                ).first
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
            entries.append(
                NightscoutEntry(
                    reading: reading, deltaMilligramsPerDeciliter: delta,
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
    /// Stores the treatments an uploader posts (a JSON array, or one; `NightscoutUploadReader.treatments` reads and checks them),
    /// each kept as sent and deduplicated by its `_id`, then by the instant of `created_at` and `eventType`; what the
    /// journal holds of a new one goes there too, unless a file brought it already (`NightscoutParser.treatment`): insulin
    /// as a dose, a glucose check as a meter's reading, carbohydrate as a quick add in the food log. A treatment that
    /// cannot be read is rejected alone, named by its place in the body.
    public func uploadNightscoutTreatments(_ body: [UInt8]) async throws -> NightscoutDocumentsUpload {
        let settings = try await settings()
        let upload = try NightscoutUploadReader.treatments(body, timeZone: settings.timeZone, source: "nightscout")
        let documents = nightscoutDocuments(upload.data.documents, .treatments)
        var records = NightscoutRecords(readings: upload.data.readings, doses: upload.data.doses, entries: upload.data.entries)
        // A document sent twice in one body brings its records twice: each is kept once.
        var seen = Set<String>()
        records.readings = records.readings.filter { seen.insert($0.externalID ?? "").inserted }
        records.doses = records.doses.filter { seen.insert($0.externalID ?? "").inserted }
        records.entries = records.entries.filter { seen.insert($0.externalID ?? "").inserted }
        let stored = try await store.addNightscoutDocuments(documents, records: records, user: user)
        return NightscoutDocumentsUpload(stored: stored, duplicates: documents.count - stored.count, rejected: upload.rejected)
    }

    /// Documents as the store keeps them: each with an id of its own, and an `_id` when it came without one.
    func nightscoutDocuments(_ documents: [NightscoutUploadedDocument], _ collection: NightscoutDocument.Collection) -> [NightscoutDocument]
    {
        documents.map { document in
            let id = UUID.v7(at: now())
            return NightscoutDocument(
                id: id, collection: collection, key: document.key, eventType: document.eventType,
                createdAt: document.createdAt, body: document.text(withID: id.nightscoutObjectID))
        }
    }

    /// Stores the device statuses (or profiles) a client posts, as sent (`NightscoutUploadReader.documents` reads and checks
    /// them), deduplicated by `_id`, else by their time and device, else by their content; their time is `created_at`
    /// (a profile's `startDate`), else now.
    public func uploadNightscoutDocuments(_ collection: NightscoutDocument.Collection, _ body: [UInt8]) async throws
        -> NightscoutDocumentsUpload
    {
        let upload = try NightscoutUploadReader.documents(body, now: now())
        let documents = nightscoutDocuments(upload.documents, collection)
        let stored = try await store.addNightscoutDocuments(documents, user: user)
        return NightscoutDocumentsUpload(stored: stored, duplicates: documents.count - stored.count, rejected: upload.rejected)
    }
}
