import CinnCore
import Foundation
import SQLKit

// What a Nightscout uploader sends and its followers read (docs/nightscout.md): glucose readings, deduplicated as
// Nightscout does, and read back newest first.

extension Store {
    /// Stores an uploader's readings, leaving out those the journal has already: the same identifier (`external_id`),
    /// or the same time and kind (a sensor's or a meter's), whatever sent them. Returns the ones stored.
    public func addUploadedGlucoseReadings(_ readings: [GlucoseReading], user: UserID) async throws -> [GlucoseReading] {
        guard !readings.isEmpty else { return [] }
        return try await transaction { db in
            var knownIDs = Set<String>(), knownTimes = Set<String>()
            for chunk in readings.chunks(of: Self.insertChunkRows) {
                let ids = chunk.compactMap(\.externalID)
                if !ids.isEmpty {
                    for row in try await db.raw(
                        """
                        SELECT external_id FROM glucose_readings
                        WHERE user_id = \(bind: user.rawValue) AND deleted = 0 AND external_id IN (\(binds: ids))
                        """
                    ).all() {
                        knownIDs.insert(try row.decode(column: "external_id", as: String.self))
                    }
                }
                // The range as well as the list: the time index answers it whatever the planner knows of the table.
                let times = chunk.map { milliseconds($0.measuredAt) }
                for row in try await db.raw(
                    """
                    SELECT measured_at_ms, sensor FROM glucose_readings
                    WHERE user_id = \(bind: user.rawValue) AND deleted = 0 AND measured_at_ms >= \(bind: times.min() ?? 0)
                        AND measured_at_ms <= \(bind: times.max() ?? 0) AND measured_at_ms IN (\(binds: times))
                    """
                ).all() {
                    knownTimes.insert(
                        "\(try row.decode(column: "measured_at_ms", as: Int64.self)) \(try row.decode(column: "sensor", as: Int.self))")
                }
            }
            var fresh: [GlucoseReading] = []
            for reading in readings {
                let time = "\(milliseconds(reading.measuredAt)) \(reading.sensor ? 1 : 0)"
                if reading.externalID.map(knownIDs.contains) == true || knownTimes.contains(time) { continue }
                knownTimes.insert(time)
                if let id = reading.externalID { knownIDs.insert(id) }
                fresh.append(reading)
            }
            guard !fresh.isEmpty else { return [] }
            let first = try await reserveVersions(db, user: user, count: fresh.count)
            try await insertGlucoseReadings(db, fresh, user: user, firstVersion: first, createdAt: milliseconds(now()))
            return fresh
        }
    }

    /// Up to `limit` readings from `start` up to (not including) `end`, newest first; only a sensor's (or only a
    /// meter's) when `sensor` says so.
    public func latestGlucoseReadings(
        user: UserID, from start: Date? = nil, to end: Date? = nil, sensor: Bool? = nil,
        limit: Int
    ) async throws -> [GlucoseReading] {
        try await withConnection { db in
            var query: SQLQueryString = """
                SELECT \(unsafeRaw: Self.glucoseColumns) FROM glucose_readings WHERE user_id = \(bind: user.rawValue) AND deleted = 0
                """
            if let start { query += " AND measured_at_ms >= \(bind: milliseconds(start))" }
            if let end { query += " AND measured_at_ms < \(bind: milliseconds(end))" }
            if let sensor { query += " AND sensor = \(bind: sensor ? 1 : 0)" }
            // By time alone, so that the time index gives the order and the limit stops it (readings at the very same
            // millisecond come in either order).
            query += " ORDER BY measured_at_ms DESC LIMIT \(bind: max(0, limit))"
            return try await db.raw(query).all().map(decodeGlucose)
        }
    }
}
