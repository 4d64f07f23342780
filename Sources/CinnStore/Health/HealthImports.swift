import CinnCore
import Foundation
import NIOCore
import PostgresNIO
import SQLKit

extension Store {
    /// Imports an Apple Health export's journal records (weigh-ins, body fat, glucose, insulin, food, workouts) as one
    /// batch that can be undone (`journalImport`): all of it or, when reading fails (a cut-off file), none of it. `read` streams the export, calling `write` with batches; a record whose key (type,
    /// start, end, value, unit and source) is already in the journal is a duplicate, so importing the same
    /// export again, or a newer one of the same phone, adds only what is new. `read` returns, with its report,
    /// the export's day summaries of other types and when the export was made (nil: now); see `writeHealthDays`.
    public func importHealthRecords(
        user: UserID, format: String, fileName: String?, mode: ImportMode,
        read: (_ write: (ImportedHealthRecords) async throws -> Void) async throws
            -> (report: ImportReport, days: [HealthDaySummary], exportedAt: Date?)
    ) async throws -> ImportReport {
        try await journalImport(user: user, format: format, fileName: fileName, mode: mode) { writer in
            var ids = SplitMix64()
            let (report, days, exportedAt) = try await read { records in try await Self.write(records, to: writer, ids: &ids) }
            return (report, (days, exportedAt))
        } finish: { connection, batch, report, parsed in
            report.healthDays = try await writeHealthDays(
                connection, user: user, batch, parsed.0,
                exportedAt: parsed.1.map(milliseconds) ?? batch.createdAt)
        }
    }

    /// Writes a health export's (or delivery's) journal records.
    static func write(_ records: ImportedHealthRecords, to writer: JournalRowWriter, ids: inout SplitMix64) async throws {
        func row(_ at: Date, _ offset: Int, _ values: [JournalRowWriter.Value], _ externalID: String?) -> JournalRowWriter.Row {
            JournalRowWriter.Row(id: UUID.v7(at: at, using: &ids), at: at, utcOffsetSeconds: offset, values: values, externalID: externalID)
        }
        try await writer.insert(.weighIns, records.weighIns.map { .weighIn($0, ids: &ids) })
        try await writer.insert(
            .bodyFat,
            records.bodyFat.map { item in
                row(item.reading.measuredAt, item.reading.utcOffsetSeconds, [.real(item.reading.fraction)], item.externalID)
            })
        try await writer.insert(
            .glucose,
            records.glucose.map { reading in
                row(reading.measuredAt, reading.utcOffsetSeconds, JournalRowWriter.Table.glucoseValues(reading), reading.externalID)
            })
        try await writer.insert(
            .insulin,
            records.insulin.map { dose in
                row(
                    dose.takenAt, dose.utcOffsetSeconds,
                    [.real(dose.units), .text(dose.kind.rawValue), .text(dose.insulin), .text(dose.note)],
                    dose.externalID)
            })
        try await writer.insert(
            .foodEntries,
            records.foodEntries.map { entry in
                row(entry.eatenAt, entry.utcOffsetSeconds, entryValues(entry), entry.externalID)
            })
        try await writer.insert(
            .workouts,
            records.workouts.map { workout in
                row(
                    workout.startedAt, workout.utcOffsetSeconds,
                    [.text(workout.name), .real(workout.durationSeconds), .real(workout.distanceMeters), .real(workout.energyKcal)],
                    workout.externalID)
            })
    }
}

extension Store {
    /// Writes an export's day summaries, each under this import: a day that is new, or whose summary differs from the
    /// journal's and comes from an export at least as new, gets a row; the others (the same numbers again, or an older
    /// export's) are left out. The day's summary is always the newest export's row, so undoing an import brings back
    /// the one it replaced. Returns, per type, how many days the export holds and how many were written.
    func writeHealthDays(
        _ connection: Connection, user: UserID, _ batch: ImportedBatch, _ days: [HealthDaySummary],
        exportedAt: Int64
    ) async throws -> [ImportedHealthDays] {
        guard !days.isEmpty else { return [] }
        var current: [HealthDaySummary.Key: (exportedAt: Int64, summary: HealthDaySummary)] = [:]
        let first = days.map(\.key.day).min()!, last = days.map(\.key.day).max()!
        for (exported, summary) in try await columnRows(
            connection,
            """
            SELECT type, category, unit, local_day, sample_count, total, minimum, maximum, exported_at_ms FROM health_days
            WHERE user_id = \(bind: user.rawValue) AND local_day BETWEEN \(bind: first.dayNumber) AND \(bind: last.dayNumber)
            ORDER BY exported_at_ms, import_id
            """, { row in (try row.integer(8) ?? 0, try Self.healthDay(row)) })
        {
            current[summary.key] = (exported, summary)
        }
        struct TypeKey: Hashable { let type: String, category: String, unit: String }
        var types: [TypeKey: ImportedHealthDays] = [:]
        var rows: [[any Encodable & Sendable]] = []
        for day in days {
            let typeKey = TypeKey(type: day.key.type, category: day.key.category, unit: day.key.unit)
            types[
                typeKey,
                default: ImportedHealthDays(
                    type: typeKey.type, category: typeKey.category, unit: typeKey.unit,
                    days: 0, samples: 0, written: 0)
            ].days += 1
            types[typeKey]!.samples += day.count
            if let stored = current[day.key], stored.exportedAt > exportedAt || stored.summary == day { continue }
            types[typeKey]!.written += 1
            rows.append([
                user.rawValue, day.key.type, day.key.category, day.key.unit, day.key.day.dayNumber, batch.importID, exportedAt,
                day.count, day.sum, day.minimum, day.maximum,
            ])
        }
        try await insertRows(
            connection.sql, into: "health_days",
            columns: [
                "user_id", "type", "category", "unit", "local_day", "import_id", "exported_at_ms", "sample_count", "total", "minimum",
                "maximum",
            ], rows)
        return types.values.sorted { ($0.type, $0.category, $0.unit) < ($1.type, $1.category, $1.unit) }
    }

    /// A summary from columns type, category, unit, local_day, sample_count, total, minimum, maximum.
    private static func healthDay(_ row: any ColumnReader) throws -> HealthDaySummary {
        HealthDaySummary(
            key: HealthDaySummary.Key(
                type: try row.text(0) ?? "", category: try row.text(1) ?? "", unit: try row.text(2) ?? "",
                day: LocalDate(dayNumber: Int(try row.integer(3) ?? 0))),
            count: Int(try row.integer(4) ?? 0), sum: try row.real(5) ?? 0, minimum: try row.real(6) ?? 0, maximum: try row.real(7) ?? 0)
    }

    /// The health data types the user has day summaries of, with how many days and the first and last.
    public func healthDayTypes(user: UserID) async throws -> [HealthDayType] {
        try await withRawConnection { connection in
            try await columnRows(
                connection,
                """
                SELECT type, category, unit, COUNT(DISTINCT local_day), MIN(local_day), MAX(local_day) FROM health_days
                WHERE user_id = \(bind: user.rawValue) GROUP BY type, category, unit ORDER BY type, category, unit
                """
            ) { row in
                HealthDayType(
                    type: try row.text(0) ?? "", category: try row.text(1) ?? "", unit: try row.text(2) ?? "",
                    days: Int(try row.integer(3) ?? 0), first: LocalDate(dayNumber: Int(try row.integer(4) ?? 0)),
                    last: LocalDate(dayNumber: Int(try row.integer(5) ?? 0)))
            }
        }
    }

    /// One type's day summaries within `days`, oldest first: each day's from the newest export.
    public func healthDays(user: UserID, type: String, category: String, unit: String, days: ClosedRange<LocalDate>) async throws
        -> [HealthDaySummary]
    {
        try await withRawConnection { connection in
            try await columnRows(
                connection,
                """
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
