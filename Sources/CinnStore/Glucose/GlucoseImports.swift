import CinnCore
import Foundation
import SQLKit

/// A Nightscout carbohydrate record as the store takes it: a meal event of the meal named `mealName`.
public struct ImportedCarbs: Sendable {
    public var at: Date
    public var utcOffsetSeconds: Int
    public var grams: Double
    public var mealName: String
    public var note: String?
    public var externalID: String

    public init(at: Date, utcOffsetSeconds: Int, grams: Double, mealName: String, note: String?, externalID: String) {
        self.at = at
        self.utcOffsetSeconds = utcOffsetSeconds
        self.grams = grams
        self.mealName = mealName
        self.note = note
        self.externalID = externalID
    }
}

extension Store {
    /// Imports glucose readings, insulin doses and carbohydrate (as meal events of meals found or made by
    /// name) as one batch (`journalImport`: on SQLite the readings and doses are staged outside the write lock).
    /// `read` reads the file, handing its readings and doses to `write` batch by batch, and returns the parse report and
    /// the carbohydrate. A record is already in the journal when its external id is, or when an imported record of its
    /// kind from the same source has the same time (and, for doses and carbohydrate, amount): two uploaders send the
    /// same reading under different ids.
    public func importGlucoseRecords(
        user: UserID, format: String, fileName: String?, mode: ImportMode,
        read: (_ write: (_ readings: [GlucoseReading], _ doses: [InsulinDose]) async throws -> Void) async throws
            -> (report: ImportReport, carbs: [ImportedCarbs])
    ) async throws -> ImportReport {
        try await journalImport(user: user, format: format, fileName: fileName, mode: mode,
                                sameAs: [.glucose: ["measured_at_ms"], .insulin: ["taken_at_ms", "units"]]) { writer in
            let (report, carbs) = try await read { readings, doses in
                try await writer.insert(.glucose, readings.map { reading in
                    JournalRowWriter.Row(id: reading.id, at: reading.measuredAt, utcOffsetSeconds: reading.utcOffsetSeconds,
                                         values: JournalRowWriter.Table.glucoseValues(reading),
                                         externalID: reading.externalID)
                })
                try await writer.insert(.insulin, doses.map { dose in
                    JournalRowWriter.Row(id: dose.id, at: dose.takenAt, utcOffsetSeconds: dose.utcOffsetSeconds,
                                         values: [.real(dose.units), .text(dose.kind.rawValue), .text(dose.insulin), .text(dose.note)],
                                         externalID: dose.externalID)
                })
            }
            return (report, (readerDuplicates: report.duplicates, carbs: carbs))
        } finish: { connection, batch, report, parsed in
            let added = try await insertCarbs(connection.sql, parsed.carbs, batch)
            report.imported += added
            report.duplicates += parsed.readerDuplicates + parsed.carbs.count - added
        }
    }

    /// The carbohydrate of an import as meal events, skipping those already there (by external id, or by time and grams from
    /// the same source); returns how many were added.
    private func insertCarbs(_ db: any SQLDatabase, _ carbs: [ImportedCarbs], _ batch: ImportedBatch) async throws -> Int {
        guard !carbs.isEmpty else { return 0 }
        let user = batch.user, source = batch.source
        var knownIDs = Set<String>(), knownKeys = Set<String>()
        for row in try await db.raw("""
            SELECT external_id, eaten_at_ms AS at, carbohydrate_g AS amount FROM meal_events
            WHERE user_id = \(bind: user.rawValue) AND deleted = 0 AND source = \(bind: source)
            """).all() {
            if let id = try row.decode(column: "external_id", as: String?.self) { knownIDs.insert(id) }
            knownKeys.insert("\(try row.decode(column: "at", as: Int64.self))|\(try row.decode(column: "amount", as: Double.self))")
        }
        let fresh = carbs.filter { item in !knownIDs.contains(item.externalID) && !knownKeys.contains("\(milliseconds(item.at))|\(item.grams)") }
        guard !fresh.isEmpty else { return 0 }
        let firstVersion = try await reserveVersions(db, user: user, count: fresh.count)
        var meals: [String: Int64] = [:]
        for name in Set(fresh.map(\.mealName)).sorted() {
            if let row = try await db.raw("""
                SELECT row_id FROM meals WHERE user_id = \(bind: user.rawValue) AND name = \(bind: name) AND deleted = 0
                """).first() {
                meals[name] = try row.decode(column: "row_id", as: Int64.self)
                continue
            }
            let mealVersion = try await reserveVersions(db, user: user)
            guard let row = try await db.raw("""
                INSERT INTO meals (id, user_id, name, kind, source, import_id, created_at_ms, updated_at_ms, version)
                VALUES (\(bind: bind(UUID.v7(at: now()))), \(bind: user.rawValue), \(bind: name), 'common', \(bind: source), \(bind: batch.importID),
                    \(bind: batch.createdAt), \(bind: batch.createdAt), \(bind: mealVersion))
                RETURNING row_id
                """).first() else { throw CinnError(.internal, "the meal could not be saved") }
            meals[name] = try row.decode(column: "row_id", as: Int64.self)
        }
        try await insertRows(db, into: "meal_events", columns: [
            "id", "user_id", "meal_id", "eaten_at_ms", "utc_offset_s", "local_day", "portion", "carbohydrate_g", "note", "source", "external_id",
            "import_id", "created_at_ms", "updated_at_ms", "version",
        ], fresh.enumerated().map { offset, item in
            [bind(UUID.v7(at: item.at)), user.rawValue, meals[item.mealName], milliseconds(item.at), item.utcOffsetSeconds,
             LocalDate(instant: item.at, utcOffsetSeconds: item.utcOffsetSeconds).dayNumber, 1.0, item.grams, item.note, source,
             item.externalID, batch.importID, batch.createdAt, batch.createdAt, firstVersion + Int64(offset)]
        })
        return fresh.count
    }
}
