import CinnCore
import Foundation
import SQLKit

extension Store {
    /// Imports an Apple Health export's journal records (weigh-ins, body fat, glucose, insulin, food, workouts) in one
    /// transaction, as one batch that can be undone: all of it or, when reading fails (a cut-off file),
    /// none of it. `read` streams the export, calling `write` with batches; a record whose key (type,
    /// start, end, value, unit and source) is already in the journal is a duplicate, so importing the same
    /// export again, or a newer one of the same phone, adds only what is new.
    public func importHealthRecords(
        user: UserID, format: String, fileName: String?, mode: ImportMode,
        read: (_ write: (ImportedHealthRecords) async throws -> Void) async throws -> ImportReport
    ) async throws -> ImportReport {
        try await recordedImport(user: user, format: format, fileName: fileName, mode: mode) { connection, batch in
            let db = connection.sql
            var offered = 0
            var ids = SplitMix64()
            var report = try await read { records in
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
