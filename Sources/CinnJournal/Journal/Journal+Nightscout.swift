import CinnCore
import CinnImport
import CinnStore
import Foundation

/// A reading as Nightscout's followers read it: with its change from the sample before and its direction.
public struct NightscoutEntry: Sendable {
    public var reading: GlucoseReading
    /// mg/dL since the reading of the same kind before it, when that is within `GlucoseDirection.longestGap`.
    public var delta: Double?
    /// The direction its uploader sent, else the one its change gives.
    public var direction: GlucoseDirection?

    public init(reading: GlucoseReading, delta: Double?, direction: GlucoseDirection?) {
        self.reading = reading
        self.delta = delta
        self.direction = direction
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
        let first = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        let array = first == UInt8(ascii: "{") ? Array("[".utf8) + body + Array("]".utf8) : body
        let data = try NightscoutParser.parse(array, timeZone: settings.timeZone, source: "nightscout")
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
            entries.append(NightscoutEntry(reading: reading, delta: delta, direction: reading.direction ?? (reading.sensor ? computed : nil)))
        }
        return entries
    }
}
