import CinnCore
import Foundation
import SQLKit

extension Store {
    /// Imports an Apple Health export's journal records (weigh-ins, body fat, glucose, insulin, food, workouts) in one
    /// transaction, as one batch that can be undone: all of it or, when reading fails (a cut-off file),
    /// none of it. `read` streams the export, calling `write` with batches; a record whose key (type,
    /// start, end, value, unit and source) is already in the journal is a duplicate, so importing the same
    /// export again, or a newer one of the same phone, adds only what is new. `read` returns, with its report,
    /// the export's day summaries of other types and when the export was made (nil: now); see `writeHealthDays`.
    public func importHealthRecords(
        user: UserID, format: String, fileName: String?, mode: ImportMode,
        read: (_ write: (ImportedHealthRecords) async throws -> Void) async throws
            -> (report: ImportReport, days: [HealthDaySummary], exportedAt: Date?)
    ) async throws -> ImportReport {
        try await recordedImport(user: user, format: format, fileName: fileName, mode: mode) { connection, batch in
            let db = connection.sql
            var offered = 0
            var ids = SplitMix64()
            var (report, days, exportedAt) = try await read { records in
                offered += records.count
                let firstVersion = try await reserveVersions(db, user: user, count: max(records.count, 1))
                var version = firstVersion
                func next() -> Int64 { defer { version += 1 }; return version }
                func common(_ at: Date, _ offset: Int) -> [any Encodable & Sendable] {
                    [bind(UUID.v7(at: at, using: &ids)), user.rawValue, milliseconds(at), offset, LocalDate(instant: at, utcOffsetSeconds: offset).dayNumber]
                }
                try await insertNew(db, into: "weigh_ins", columns: ["weight_kg", "note"], batch, records.weighIns.map { reading in
                    (common(reading.measuredAt, reading.utcOffsetSeconds), [reading.weight.kilograms, reading.note], reading.externalID, next())
                }, time: "measured_at_ms")
                try await insertNew(db, into: "body_fat_readings", columns: ["fraction"], batch, records.bodyFat.map { item in
                    (common(item.reading.measuredAt, item.reading.utcOffsetSeconds), [item.reading.fraction], item.externalID, next())
                }, time: "measured_at_ms")
                try await insertNew(db, into: "glucose_readings", columns: ["mg_dl", "timing", "note"], batch, records.glucose.map { reading in
                    (common(reading.measuredAt, reading.utcOffsetSeconds), [reading.glucose.milligramsPerDeciliter, reading.timing?.rawValue, reading.note],
                     reading.externalID ?? "", next())
                }, time: "measured_at_ms")
                try await insertNew(db, into: "insulin_doses", columns: ["units", "kind", "insulin", "note"], batch, records.insulin.map { dose in
                    (common(dose.takenAt, dose.utcOffsetSeconds), [dose.units, dose.kind.rawValue, dose.insulin, dose.note], dose.externalID ?? "", next())
                }, time: "taken_at_ms")
                try await insertNew(db, into: "food_entries", columns: [
                    "food_id", "name", "brand", "search_key", "meal", "servings", "serving_label", "serving_amount", "nutrients", "energy_kcal", "note",
                ], batch, records.foodEntries.map { entry in
                    (common(entry.eatenAt, entry.utcOffsetSeconds),
                     [bind(entry.foodID), entry.name, entry.brand, Self.searchKey(entry.name, entry.brand), entry.meal.name, entry.servings,
                      entry.servingLabel, entry.servingAmount, entry.nutrients.storageText, entry.energy, entry.note], entry.externalID ?? "", next())
                }, time: "eaten_at_ms")
                try await insertNew(db, into: "workouts", columns: ["name", "duration_s", "distance_m", "energy_kcal"], batch, records.workouts.map { workout in
                    (common(workout.startedAt, workout.utcOffsetSeconds), [workout.name, workout.durationSeconds, workout.distanceMeters, workout.energyKcal],
                     workout.externalID, next())
                }, time: "started_at_ms")
            }
            var imported = 0
            for table in ["weigh_ins", "body_fat_readings", "glucose_readings", "insulin_doses", "food_entries", "workouts"] {
                imported += try await db.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table) WHERE import_id = \(bind: batch.importID)")
                    .first()?.decode(column: "n", as: Int.self) ?? 0
            }
            report.imported = imported
            report.duplicates = offered - imported
            report.healthDays = try await writeHealthDays(connection, user: user, batch, days,
                                                          exportedAt: exportedAt.map(milliseconds) ?? batch.createdAt)
            return report
        }
    }

    /// Inserts rows (the columns every journal table shares, then `columns`, the external id and the version),
    /// skipping those whose external id the user already has.
    private func insertNew(_ db: any SQLDatabase, into table: String, columns: [String], _ batch: ImportedBatch,
                           _ rows: [(common: [any Encodable & Sendable], values: [any Encodable & Sendable], externalID: String, version: Int64)],
                           time: String) async throws {
        let names = ["id", "user_id", time, "utc_offset_s", "local_day"] + columns
            + ["source", "external_id", "import_id", "created_at_ms", "updated_at_ms", "version"]
        for chunk in rows.chunks(of: Self.insertChunkRows) {
            var query = SQLQueryString("INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES ")
            for (index, row) in chunk.enumerated() {
                let values: [any Encodable & Sendable] = row.common + row.values
                    + [batch.source, row.externalID, batch.importID, batch.createdAt, batch.createdAt, row.version]
                query += index == 0 ? "(\(binds: values))" : ", (\(binds: values))"
            }
            query += " ON CONFLICT (user_id, external_id) WHERE deleted = 0 AND external_id IS NOT NULL DO NOTHING"
            try await db.raw(query).run()
        }
    }
}

extension Store {
    /// Writes an export's day summaries, each under this import: a day that is new, or whose summary differs from the
    /// journal's and comes from an export at least as new, gets a row; the others (the same numbers again, or an older
    /// export's) are left out. The day's summary is always the newest export's row, so undoing an import brings back
    /// the one it replaced. Returns, per type, how many days the export holds and how many were written.
    func writeHealthDays(_ connection: Connection, user: UserID, _ batch: ImportedBatch, _ days: [HealthDaySummary],
                         exportedAt: Int64) async throws -> [ImportedHealthDays] {
        guard !days.isEmpty else { return [] }
        var current: [HealthDaySummary.Key: (exportedAt: Int64, summary: HealthDaySummary)] = [:]
        for (exported, summary) in try await columnRows(connection, """
            SELECT type, category, unit, local_day, sample_count, total, minimum, maximum, exported_at_ms FROM health_days
            WHERE user_id = \(bind: user.rawValue) ORDER BY exported_at_ms, import_id
            """, { row in (try row.integer(8) ?? 0, try Self.healthDay(row)) }) {
            current[summary.key] = (exported, summary)
        }
        struct TypeKey: Hashable { let type: String, category: String, unit: String }
        var types: [TypeKey: ImportedHealthDays] = [:]
        var rows: [[any Encodable & Sendable]] = []
        for day in days {
            let typeKey = TypeKey(type: day.key.type, category: day.key.category, unit: day.key.unit)
            types[typeKey, default: ImportedHealthDays(type: typeKey.type, category: typeKey.category, unit: typeKey.unit,
                                                       days: 0, samples: 0, written: 0)].days += 1
            types[typeKey]!.samples += day.count
            if let stored = current[day.key], stored.exportedAt > exportedAt || stored.summary == day { continue }
            types[typeKey]!.written += 1
            rows.append([user.rawValue, day.key.type, day.key.category, day.key.unit, day.key.day.dayNumber, batch.importID, exportedAt,
                         day.count, day.sum, day.minimum, day.maximum])
        }
        try await insertRows(connection.sql, into: "health_days", columns: [
            "user_id", "type", "category", "unit", "local_day", "import_id", "exported_at_ms", "sample_count", "total", "minimum", "maximum",
        ], rows)
        return types.values.sorted { ($0.type, $0.category, $0.unit) < ($1.type, $1.category, $1.unit) }
    }

    /// A summary from columns type, category, unit, local_day, sample_count, total, minimum, maximum.
    private static func healthDay(_ row: any ColumnReader) throws -> HealthDaySummary {
        HealthDaySummary(key: HealthDaySummary.Key(type: try row.text(0) ?? "", category: try row.text(1) ?? "", unit: try row.text(2) ?? "",
                                                   day: LocalDate(dayNumber: Int(try row.integer(3) ?? 0))),
                         count: Int(try row.integer(4) ?? 0), sum: try row.real(5) ?? 0, minimum: try row.real(6) ?? 0, maximum: try row.real(7) ?? 0)
    }

    /// The health data types the user has day summaries of, with how many days and the first and last.
    public func healthDayTypes(user: UserID) async throws -> [HealthDayType] {
        try await withRawConnection { connection in
            try await columnRows(connection, """
                SELECT type, category, unit, COUNT(DISTINCT local_day), MIN(local_day), MAX(local_day) FROM health_days
                WHERE user_id = \(bind: user.rawValue) GROUP BY type, category, unit ORDER BY type, category, unit
                """) { row in
                HealthDayType(type: try row.text(0) ?? "", category: try row.text(1) ?? "", unit: try row.text(2) ?? "",
                              days: Int(try row.integer(3) ?? 0), first: LocalDate(dayNumber: Int(try row.integer(4) ?? 0)),
                              last: LocalDate(dayNumber: Int(try row.integer(5) ?? 0)))
            }
        }
    }

    /// One type's day summaries within `days`, oldest first: each day's from the newest export.
    public func healthDays(user: UserID, type: String, category: String, unit: String, days: ClosedRange<LocalDate>) async throws -> [HealthDaySummary] {
        try await withRawConnection { connection in
            try await columnRows(connection, """
                SELECT type, category, unit, local_day, sample_count, total, minimum, maximum FROM health_days d
                WHERE user_id = \(bind: user.rawValue) AND type = \(bind: type) AND category = \(bind: category) AND unit = \(bind: unit)
                    AND local_day BETWEEN \(bind: days.lowerBound.dayNumber) AND \(bind: days.upperBound.dayNumber)
                    AND NOT EXISTS (SELECT 1 FROM health_days n WHERE n.user_id = d.user_id AND n.type = d.type AND n.category = d.category
                        AND n.unit = d.unit AND n.local_day = d.local_day
                        AND (n.exported_at_ms > d.exported_at_ms OR (n.exported_at_ms = d.exported_at_ms AND n.import_id > d.import_id)))
                ORDER BY local_day
                """, Self.healthDay)
        }
    }
}

/// A health data type the journal has day summaries of.
public struct HealthDayType: Sendable, Hashable {
    public var type: String
    public var category: String
    public var unit: String
    public var days: Int
    public var first: LocalDate
    public var last: LocalDate

    /// "Step count", "Sleep analysis: asleep core".
    public var name: String { HealthDataType.name(type: type, category: category) }
}
