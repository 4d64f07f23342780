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
    /// name) as one batch. A record is already in the journal when its external id is, or when an
    /// imported record of its kind has the same time (and, for doses and carbohydrate, amount): two
    /// uploaders send the same reading under different ids.
    public func importGlucoseRecords(user: UserID, format: String, fileName: String?, mode: ImportMode, readings: [GlucoseReading],
                                     doses: [InsulinDose], carbs: [ImportedCarbs], report: ImportReport) async throws -> ImportReport {
        try await recordedImport(user: user, format: format, fileName: fileName, mode: mode) { connection, batch in
            let db = connection.sql
            let source = batch.source
            func known(_ table: String, time: String, amount: String?) async throws -> (ids: Set<String>, keys: Set<String>) {
                var ids = Set<String>(), keys = Set<String>()
                let amountColumn = amount.map { ", \($0) AS amount" } ?? ""
                for row in try await db.raw("""
                    SELECT external_id, \(unsafeRaw: time) AS at\(unsafeRaw: amountColumn) FROM \(unsafeRaw: table)
                    WHERE user_id = \(bind: user.rawValue) AND deleted = 0 AND source = \(bind: source)
                    """).all() {
                    if let id = try row.decode(column: "external_id", as: String?.self) { ids.insert(id) }
                    let at = try row.decode(column: "at", as: Int64.self)
                    keys.insert(amount == nil ? "\(at)" : "\(at)|\(try row.decode(column: "amount", as: Double.self))")
                }
                return (ids, keys)
            }
            let knownReadings = try await known("glucose_readings", time: "measured_at_ms", amount: nil)
            let freshReadings = readings.filter { reading in
                !(reading.externalID.map(knownReadings.ids.contains) ?? false) && !knownReadings.keys.contains("\(milliseconds(reading.measuredAt))")
            }.map { reading in
                var reading = reading
                (reading.source, reading.importID) = (source, batch.importID)
                return reading
            }
            let knownDoses = try await known("insulin_doses", time: "taken_at_ms", amount: "units")
            let freshDoses = doses.filter { dose in
                !(dose.externalID.map(knownDoses.ids.contains) ?? false) && !knownDoses.keys.contains("\(milliseconds(dose.takenAt))|\(dose.units)")
            }.map { dose in
                var dose = dose
                (dose.source, dose.importID) = (source, batch.importID)
                return dose
            }
            let knownCarbs = try await known("meal_events", time: "eaten_at_ms", amount: "carbohydrate_g")
            let freshCarbs = carbs.filter { item in
                !knownCarbs.ids.contains(item.externalID) && !knownCarbs.keys.contains("\(milliseconds(item.at))|\(item.grams)")
            }
            let count = freshReadings.count + freshDoses.count + freshCarbs.count
            // One range of versions: the readings', then the doses', then the meal events'.
            let firstVersion = try await reserveVersions(db, user: user, count: max(1, count))
            try await insertGlucoseReadings(db, freshReadings, user: user, firstVersion: firstVersion, createdAt: batch.createdAt)
            try await insertInsulinDoses(db, freshDoses, user: user, firstVersion: firstVersion + Int64(freshReadings.count),
                                         createdAt: batch.createdAt)
            let firstEventVersion = firstVersion + Int64(freshReadings.count + freshDoses.count)
            var meals: [String: Int64] = [:]
            for name in Set(freshCarbs.map(\.mealName)).sorted() {
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
            ], freshCarbs.enumerated().map { offset, item in
                [bind(UUID.v7(at: item.at)), user.rawValue, meals[item.mealName], milliseconds(item.at), item.utcOffsetSeconds,
                 LocalDate(instant: item.at, utcOffsetSeconds: item.utcOffsetSeconds).dayNumber, 1.0, item.grams, item.note, source,
                 item.externalID, batch.importID, batch.createdAt, batch.createdAt, firstEventVersion + Int64(offset)]
            })
            var report = report
            report.imported = count
            report.duplicates += readings.count + doses.count + carbs.count - count
            return report
        }
    }
}
