import CinnCore
import Foundation
import SQLKit

extension Store {
    /// What else makes a record from Nightscout (a file or an uploader) one the journal holds (docs/nightscout.md): a
    /// reading at the same instant of the same kind (a sensor's or a meter's) and a dose at the same instant of the same
    /// kind, whatever sent them, and carbohydrate logged from Nightscout at the same instant.
    static let nightscoutSameAs: [JournalRowWriter.Table: JournalRowWriter.SameAs] = [
        .glucose: .init(columns: ["measured_at_ms", "sensor"], only: nil),
        .insulin: .init(columns: ["taken_at_ms", "kind"], only: nil),
        // As the partial index food_entries_nightscout is written, so that it answers.
        .foodEntries: .init(columns: ["eaten_at_ms"], only: "d.external_id LIKE 'nightscout:%'"),
    ]

    /// Imports a Nightscout export or backup as one batch (`journalImport`: on SQLite staged outside the write lock):
    /// readings, doses, food-log entries of carbohydrate, and the treatments as sent. `read` reads the file, handing
    /// what it read to `write` batch by batch, and returns the parse report. A record is already in the journal when its
    /// external id is, or as `nightscoutSameAs` says; a treatment when its key is, or a treatment of the same instant and
    /// event type (`insertNewNightscoutDocuments`), so a file and an uploader's resend make each record once.
    public func importNightscout(
        user: UserID, fileName: String?, mode: ImportMode,
        read: (_ write: (_ records: NightscoutRecords, _ treatments: [NightscoutDocument]) async throws -> Void) async throws ->
            ImportReport
    ) async throws -> ImportReport {
        try await journalImport(user: user, format: "nightscout", fileName: fileName, mode: mode, sameAs: Self.nightscoutSameAs) { writer in
            var staged = 0, stored = 0
            let report = try await read { records, treatments in
                try await writer.insert(
                    .glucose,
                    records.readings.map { reading in
                        JournalRowWriter.Row(
                            id: reading.id, at: reading.measuredAt, utcOffsetSeconds: reading.utcOffsetSeconds,
                            values: JournalRowWriter.Table.glucoseValues(reading), externalID: reading.externalID)
                    })
                try await writer.insert(
                    .insulin,
                    records.doses.map { dose in
                        JournalRowWriter.Row(
                            id: dose.id, at: dose.takenAt, utcOffsetSeconds: dose.utcOffsetSeconds,
                            values: [.real(dose.units), .text(dose.kind.rawValue), .text(dose.insulin), .text(dose.note)],
                            externalID: dose.externalID)
                    })
                try await writer.insert(
                    .foodEntries,
                    records.entries.map { entry in
                        JournalRowWriter.Row(
                            id: entry.id, at: entry.eatenAt, utcOffsetSeconds: entry.utcOffsetSeconds,
                            values: Self.entryValues(entry), externalID: entry.externalID)
                    })
                let written = try await writer.insertNightscoutDocuments(treatments)
                staged += written.staged
                stored += written.stored
            }
            return (report, (writer, staged, stored))
        } finish: { connection, batch, report, parsed in
            let (writer, staged, stored) = parsed
            report.keptAsSent = writer.staging != nil ? try await mergeNightscoutDocuments(connection.sql, count: staged, batch) : stored
        }
    }

    /// Makes the carbohydrate that Nightscout imports made meal events of (before files and uploaders shared one mapping)
    /// what it is now: a food-log entry of the same import, instant, amount and external id, named by its meal (but
    /// "Carbs"), with its note. An event whose carbohydrate the food log holds already (an uploader sent it again) is
    /// not logged twice. The events are deleted, and the meals the imports made once no event of theirs is left.
    func moveNightscoutCarbsToFoodLog(_ db: any SQLDatabase) async throws {
        let rows = try await db.raw(
            """
            SELECT e.user_id, e.id, e.eaten_at_ms, e.utc_offset_s, e.carbohydrate_g, e.note, e.source, e.external_id, e.import_id, m.name
            FROM meal_events e JOIN meals m ON m.row_id = e.meal_id
            WHERE e.deleted = 0 AND e.external_id LIKE 'nightscout:%' AND e.carbohydrate_g IS NOT NULL
            ORDER BY e.user_id, e.eaten_at_ms
            """
        ).all()
        var events: [UserID: [(id: UUID, entry: FoodLogEntry?)]] = [:]
        for row in rows {
            let name = try row.decode(column: "name", as: String.self)
            let grams = try row.decode(column: "carbohydrate_g", as: Double.self)
            let at = date(milliseconds: try row.decode(column: "eaten_at_ms", as: Int64.self))
            let offset = try row.decode(column: "utc_offset_s", as: Int.self)
            let note = try row.decode(column: "note", as: String?.self), source = try row.decode(column: "source", as: String.self)
            let externalID = try row.decode(column: "external_id", as: String.self)
            func entry(named: String?) -> FoodLogEntry? {
                try? FoodLogEntry.carbohydrateTreatment(
                    grams: grams, name: named, note: note, eatenAt: at, utcOffsetSeconds: offset,
                    source: source, externalID: externalID)
            }
            var logged = entry(named: name == "Carbs" ? nil : name) ?? entry(named: nil)
            logged?.importID = try row.decode(column: "import_id", as: Int64?.self)
            events[UserID(try row.decode(column: "user_id", as: Int64.self)), default: []].append((try decodeUUID(row, "id"), logged))
        }
        for (user, moved) in events {
            let entries = try await newNightscoutRecords(db, NightscoutRecords(entries: moved.compactMap(\.entry)), user: user).entries
            try await insertEntries(db, entries, user: user)
            let version = try await reserveVersions(db, user: user), time = milliseconds(now())
            for chunk in moved.filter({ $0.entry != nil }).map(\.id).chunks(of: Self.insertChunkRows) {
                try await db.raw(
                    """
                    UPDATE meal_events SET deleted = 1, version = \(bind: version), updated_at_ms = \(bind: time)
                    WHERE user_id = \(bind: user.rawValue) AND id IN (\(binds: chunk.map { bind($0) }))
                    """
                ).run()
            }
            try await db.raw(
                """
                UPDATE meals SET deleted = 1, version = \(bind: version), updated_at_ms = \(bind: time)
                WHERE user_id = \(bind: user.rawValue) AND deleted = 0 AND import_id IS NOT NULL AND source = 'import:nightscout'
                    AND NOT EXISTS (SELECT 1 FROM meal_events e WHERE e.meal_id = meals.row_id AND e.deleted = 0)
                """
            ).run()
        }
    }

    /// A food-log entry's values of `JournalRowWriter.Table.foodEntries`' own columns, in their order.
    static func entryValues(_ entry: FoodLogEntry) -> [JournalRowWriter.Value] {
        [
            .id(entry.foodID), .text(entry.name), .text(entry.brand), .text(searchKey(entry.name, entry.brand)), .text(entry.meal.name),
            .real(entry.servings), .text(entry.servingLabel), .real(entry.servingAmount), .text(entry.nutrients.storageText),
            .real(entry.energy), .text(entry.note),
        ]
    }

    /// SQLite: moves an import's staged treatments (`JournalRowWriter.insertNightscoutDocuments`) into the journal in one
    /// statement, leaving out those it holds as `insertNewNightscoutDocuments` does (the file's own repeats are gone).
    /// Returns how many went in.
    private func mergeNightscoutDocuments(_ db: any SQLDatabase, count: Int, _ batch: ImportedBatch) async throws -> Int {
        guard count > 0 else { return 0 }
        try await db.raw(
            """
            INSERT INTO main.nightscout_documents (id, user_id, collection, key, event_type, created_at_ms, body, received_at_ms, import_id)
            SELECT s.id, \(bind: batch.user.rawValue), 'treatments', s.key, s.event_type, s.created_at_ms, s.body, \(bind: batch.createdAt),
                \(bind: batch.importID)
            FROM staging.nightscout_documents s
            WHERE NOT EXISTS (SELECT 1 FROM main.nightscout_documents d
                    WHERE d.user_id = \(bind: batch.user.rawValue) AND d.collection = 'treatments' AND d.key = s.key)
                AND NOT EXISTS (SELECT 1 FROM main.nightscout_documents d
                    WHERE d.user_id = \(bind: batch.user.rawValue) AND d.collection = 'treatments' AND d.created_at_ms = s.created_at_ms
                        AND d.event_type IS s.event_type)
            ORDER BY s.rowid
            """
        ).run()
        return try await db.raw("SELECT changes() AS n").first()?.decode(column: "n", as: Int.self) ?? 0
    }
}

extension JournalRowWriter {
    /// Treatments of a Nightscout import: on SQLite staged (and moved into the journal when the import finishes), on
    /// PostgreSQL written in the import's transaction, leaving out those the journal holds. Returns how many were staged,
    /// and how many written.
    func insertNightscoutDocuments(_ documents: [NightscoutDocument]) async throws -> (staged: Int, stored: Int) {
        guard !documents.isEmpty else { return (0, 0) }
        if let staging {
            let insert = try await staging.table(
                "nightscout_documents", columns: ["id", "key", "event_type", "created_at_ms", "body"],
                rowsPerStatement: Self.rowsPerStatement)
            try insert.insert(count: documents.count) { n, binder in
                let document = documents[n]
                binder.bind(document.id)
                binder.bind(document.key)
                binder.bind(document.eventType)
                binder.bind(Int(store.milliseconds(document.createdAt)))
                binder.bind(document.body)
            }
            return (documents.count, 0)
        }
        guard let connection, let batch else { throw CinnError(.internal, "an import's rows were written after the import ended") }
        return (
            0, try await store.insertNewNightscoutDocuments(connection.sql, documents, user: batch.user, importID: batch.importID).count
        )
    }
}
