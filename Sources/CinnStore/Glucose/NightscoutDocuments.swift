import CinnCore
import Foundation
import SQLKit

/// A document a Nightscout client sent (a treatment, a device status, a profile), kept as it was sent.
public struct NightscoutDocument: Sendable, Hashable {
    public enum Collection: String, Sendable {
        case treatments, devicestatus, profile
    }

    public var id: UUID
    public var collection: Collection
    /// The client's `_id`, or its time and type: what finds the document when it is sent again.
    public var key: String
    public var eventType: String?
    public var createdAt: Date
    /// The JSON object, with an `_id`.
    public var body: String

    public init(id: UUID = .v7(), collection: Collection, key: String, eventType: String?, createdAt: Date, body: String) {
        self.id = id
        self.collection = collection
        self.key = key
        self.eventType = eventType
        self.createdAt = createdAt
        self.body = body
    }
}

/// What the journal holds of an uploader's treatments, each with its document's key in its external id
/// (`nightscout:KEY:kind`).
public struct NightscoutRecords: Sendable {
    public var readings: [GlucoseReading] = []
    public var doses: [InsulinDose] = []
    public var entries: [FoodLogEntry] = []

    public init(readings: [GlucoseReading] = [], doses: [InsulinDose] = [], entries: [FoodLogEntry] = []) {
        self.readings = readings
        self.doses = doses
        self.entries = entries
    }
}

extension Store {
    /// Stores documents a Nightscout client sent, leaving out those there already (`insertNewNightscoutDocuments`), with
    /// what the journal holds of the new ones: `records` whose external ids name one of them and that the journal does not
    /// hold yet (`newNightscoutRecords`: a file imported before may have brought them). Returns the documents stored.
    public func addNightscoutDocuments(
        _ documents: [NightscoutDocument], records: NightscoutRecords = NightscoutRecords(),
        user: UserID
    ) async throws -> [NightscoutDocument] {
        guard !documents.isEmpty else { return [] }
        return try await transaction { db in
            let fresh = try await insertNewNightscoutDocuments(db, documents, user: user, importID: nil)
            // What the journal holds of the new treatments.
            let keys = Set(fresh.filter { $0.collection == .treatments }.map { "nightscout:" + $0.key + ":" })
            func ofNew(_ externalID: String?) -> Bool {
                guard let externalID, let end = externalID.lastIndex(of: ":") else { return false }
                return keys.contains(String(externalID[...end]))
            }
            let records = try await newNightscoutRecords(
                db,
                NightscoutRecords(
                    readings: records.readings.filter { ofNew($0.externalID) }, doses: records.doses.filter { ofNew($0.externalID) },
                    entries: records.entries.filter { ofNew($0.externalID) }), user: user)
            let received = milliseconds(now())
            if !records.readings.isEmpty {
                let first = try await reserveVersions(db, user: user, count: records.readings.count)
                try await insertGlucoseReadings(db, records.readings, user: user, firstVersion: first, createdAt: received)
            }
            if !records.doses.isEmpty {
                let first = try await reserveVersions(db, user: user, count: records.doses.count)
                try await insertInsulinDoses(db, records.doses, user: user, firstVersion: first, createdAt: received)
            }
            try await insertEntries(db, records.entries, user: user)
            return fresh
        }
    }

    /// Inserts the documents the journal does not hold (by collection and key; a treatment also by the same instant and
    /// event type), once each, marked with `importID` when an import brought them. Returns the ones inserted.
    func insertNewNightscoutDocuments(
        _ db: any SQLDatabase, _ documents: [NightscoutDocument], user: UserID,
        importID: Int64?
    ) async throws -> [NightscoutDocument] {
        var known = Set<String>()
        for chunk in documents.chunks(of: Self.insertChunkRows) {
            for row in try await db.raw(
                """
                SELECT collection, key FROM nightscout_documents
                WHERE user_id = \(bind: user.rawValue) AND key IN (\(binds: chunk.map(\.key)))
                """
            ).all() {
                known.insert(try row.decode(column: "collection", as: String.self) + " " + (try row.decode(column: "key", as: String.self)))
            }
            let treatments = chunk.filter { $0.collection == .treatments }
            guard !treatments.isEmpty else { continue }
            let times = treatments.map { milliseconds($0.createdAt) }
            for row in try await db.raw(
                """
                SELECT created_at_ms, event_type FROM nightscout_documents
                WHERE user_id = \(bind: user.rawValue) AND collection = 'treatments' AND created_at_ms >= \(bind: times.min() ?? 0)
                    AND created_at_ms <= \(bind: times.max() ?? 0) AND created_at_ms IN (\(binds: times))
                """
            ).all() {
                known.insert(
                    "time \(try row.decode(column: "created_at_ms", as: Int64.self)) \(try row.decode(column: "event_type", as: String?.self) ?? "")"
                )
            }
        }
        var fresh: [NightscoutDocument] = []
        for document in documents {
            let key = document.collection.rawValue + " " + document.key
            let time = "time \(milliseconds(document.createdAt)) \(document.eventType ?? "")"
            if known.contains(key) || (document.collection == .treatments && known.contains(time)) { continue }
            known.insert(key)
            if document.collection == .treatments { known.insert(time) }
            fresh.append(document)
        }
        guard !fresh.isEmpty else { return [] }
        let received = milliseconds(now())
        try await insertRows(
            db, into: "nightscout_documents",
            columns: [
                "id", "user_id", "collection", "key", "event_type", "created_at_ms", "body", "received_at_ms", "import_id",
            ],
            fresh.map { document in
                [
                    bind(document.id), user.rawValue, document.collection.rawValue, document.key, document.eventType,
                    milliseconds(document.createdAt), document.body, received, importID,
                ]
            })
        return fresh
    }

    /// The records the journal does not hold: not by external id, nor as `nightscoutSameAs` says (a reading or dose at the
    /// same instant of the same kind, carbohydrate from Nightscout at the same instant).
    func newNightscoutRecords(_ db: any SQLDatabase, _ records: NightscoutRecords, user: UserID) async throws -> NightscoutRecords {
        /// The external ids and the instants and kinds of the rows of `table` (those meeting `only`) that have one of
        /// `ids` or `times`.
        func known(
            _ table: String, time: String, kind: String, only: String = "true", ids: [String],
            times: [Int64]
        ) async throws -> (ids: Set<String>, keys: Set<String>) {
            guard !times.isEmpty else { return ([], []) }
            var found: (ids: Set<String>, keys: Set<String>) = ([], [])
            // Two lookups, each answered by an index: by external id, and by time (its range as well as its list, so
            // that the time index answers it whatever the planner knows of the table).
            let columns = SQLQueryString(
                "SELECT external_id, \(unsafeRaw: time) AS at, \(unsafeRaw: kind) AS kind FROM \(unsafeRaw: table)")
            let mine = SQLQueryString(" WHERE user_id = \(bind: user.rawValue) AND deleted = 0 AND \(unsafeRaw: only)")
            var query =
                columns + mine
                + SQLQueryString(
                    """
                     AND \(unsafeRaw: time) >= \(bind: times.min() ?? 0) AND \(unsafeRaw: time) <= \(bind: times.max() ?? 0)
                        AND \(unsafeRaw: time) IN (\(binds: times))
                    """)
            if !ids.isEmpty {
                query = query + SQLQueryString(" UNION ALL ") + columns + mine + SQLQueryString(" AND external_id IN (\(binds: ids))")
            }
            for row in try await db.raw(query).all() {
                if let id = try row.decode(column: "external_id", as: String?.self) { found.ids.insert(id) }
                found.keys.insert(
                    "\(try row.decode(column: "at", as: Int64.self)) \(try row.decode(column: "kind", as: String?.self) ?? "")")
            }
            return found
        }
        var fresh = NightscoutRecords()
        for chunk in records.readings.chunks(of: Self.insertChunkRows) {
            let found = try await known(
                "glucose_readings", time: "measured_at_ms", kind: "CAST(sensor AS TEXT)",
                ids: chunk.compactMap(\.externalID), times: chunk.map { milliseconds($0.measuredAt) })
            fresh.readings += chunk.filter { reading in
                !(reading.externalID.map(found.ids.contains) ?? false)
                    && !found.keys.contains("\(milliseconds(reading.measuredAt)) \(reading.sensor ? 1 : 0)")
            }
        }
        for chunk in records.doses.chunks(of: Self.insertChunkRows) {
            let found = try await known(
                "insulin_doses", time: "taken_at_ms", kind: "kind",
                ids: chunk.compactMap(\.externalID), times: chunk.map { milliseconds($0.takenAt) })
            fresh.doses += chunk.filter { dose in
                !(dose.externalID.map(found.ids.contains) ?? false)
                    && !found.keys.contains("\(milliseconds(dose.takenAt)) \(dose.kind.rawValue)")
            }
        }
        for chunk in records.entries.chunks(of: Self.insertChunkRows) {
            // Only carbohydrate from Nightscout is the same by its instant (the partial index food_entries_nightscout).
            let found = try await known(
                "food_entries", time: "eaten_at_ms", kind: "'nightscout'", only: "external_id LIKE 'nightscout:%'",
                ids: chunk.compactMap(\.externalID), times: chunk.map { milliseconds($0.eatenAt) })
            fresh.entries += chunk.filter { entry in
                !(entry.externalID.map(found.ids.contains) ?? false) && !found.keys.contains("\(milliseconds(entry.eatenAt)) nightscout")
            }
        }
        return fresh
    }

    /// Up to `limit` documents of a collection created from `start` up to (not including) `end`, newest first.
    public func nightscoutDocuments(
        _ collection: NightscoutDocument.Collection, user: UserID, from start: Date? = nil, to end: Date? = nil,
        limit: Int
    ) async throws -> [NightscoutDocument] {
        try await withConnection { db in
            var query: SQLQueryString = """
                SELECT id, key, event_type, created_at_ms, body FROM nightscout_documents
                WHERE user_id = \(bind: user.rawValue) AND collection = \(bind: collection.rawValue)
                """
            if let start { query += " AND created_at_ms >= \(bind: milliseconds(start))" }
            if let end { query += " AND created_at_ms < \(bind: milliseconds(end))" }
            query += " ORDER BY created_at_ms DESC LIMIT \(bind: max(0, limit))"
            return try await db.raw(query).all().map { row in
                NightscoutDocument(
                    id: try decodeUUID(row, "id"), collection: collection, key: try row.decode(column: "key", as: String.self),
                    eventType: try row.decode(column: "event_type", as: String?.self),
                    createdAt: date(milliseconds: try row.decode(column: "created_at_ms", as: Int64.self)),
                    body: try row.decode(column: "body", as: String.self))
            }
        }
    }
}
