import CinnCore
import Foundation
import SQLKit

extension Store {
    /// Imports one delivery of health data (a Health Auto Export post) as a batch that can be undone: its journal records
    /// like an Apple Health export's, except that a record whose bucket (`hae:BUCKET:VALUE`, its type, time and source)
    /// an earlier delivery sent with another value replaces that one (a day's total that grew); its other samples are kept
    /// one by one (`health_samples`, a sample sent again adds nothing, or changes its value) and the summaries of the days
    /// they fall on are worked out again from all the samples of those days. A delivery that adds nothing leaves no batch.
    ///
    /// So that a big delivery (a century of daily values) never keeps other writers out for long, the journal records go
    /// in one transaction and the samples in others of at most `deliveryChunkSamples` samples each, whole days at a
    /// time, all in the one batch; if one fails, the batch is undone and nothing of the delivery stays.
    ///
    /// `mode`: a delivery takes its good points (`skipInvalid`); a file imported by a person may be a dry run, or refused
    /// whole when a point is invalid, as other imports are: then every part runs in a transaction that is rolled back.
    public func importHealthDelivery(
        user: UserID, format: String, fileName: String?, records: ImportedHealthRecords, samples: [HealthSample],
        report: ImportReport, mode: ImportMode = ImportMode(skipInvalid: true)
    ) async throws -> ImportReport {
        let deliveredAt = milliseconds(now())
        let writesNothing = mode.dryRun || (report.rejectedCount > 0 && !mode.skipInvalid)
        var report = try await journalImport(user: user, format: format, fileName: fileName, mode: mode) { writer in
            var ids = SplitMix64()
            try await Self.write(records, to: writer, ids: &ids)
            return (report, ())
        } finish: { connection, batch, report, _ in
            report.replaced = try await replaceChangedBuckets(connection, user: user, batch, records)
        }
        guard !samples.isEmpty else { return report }
        var batch = report.importID.map { ImportedBatch(user: user, importID: $0, source: "import:\(format)", createdAt: deliveredAt) }
        do {
            for chunk in Self.wholeDays(samples, upTo: Self.deliveryChunkSamples) {
                do {
                    try await rawTransaction { connection in
                        let chunkBatch: ImportedBatch
                        if let batch {
                            chunkBatch = batch
                        } else {
                            chunkBatch = try await recordBatch(
                                connection.sql, user: user, format: format, fileName: fileName, createdAt: deliveredAt)
                            if !writesNothing { batch = chunkBatch }
                        }
                        let stored = try await storeHealthSamples(connection, user: user, chunkBatch, chunk)
                        report.imported += stored.fresh + stored.changed
                        report.duplicates += stored.same
                        report.healthDays = ImportedHealthDays.merged(
                            report.healthDays,
                            try await writeHealthDays(connection, user: user, chunkBatch, stored.days, exportedAt: deliveredAt))
                        if writesNothing { throw SamplesRolledBack() }
                    }
                } catch is SamplesRolledBack {
                    continue
                }
            }
            if writesNothing && !mode.dryRun { report.imported = 0 }
            guard let batch else { return report }
            try await rawTransaction { connection in
                if report.addsAnything {
                    try await connection.sql.raw(
                        """
                        UPDATE imports SET rows_read = \(bind: report.rowsRead), imported = \(bind: report.imported),
                            duplicates = \(bind: report.duplicates), rejected = \(bind: report.rejectedCount)
                        WHERE row_id = \(bind: batch.importID)
                        """
                    ).run()
                } else {
                    try await connection.sql.raw("DELETE FROM imports WHERE row_id = \(bind: batch.importID)").run()
                }
            }
            report.importID = report.addsAnything ? batch.importID : nil
            return report
        } catch {
            if let batch { _ = try? await undoImport(id: batch.importID, user: user) }
            throw error
        }
    }

    /// Ends a transaction of a delivery's samples that writes nothing (a dry run), so that it is rolled back.
    private struct SamplesRolledBack: Error {}

    /// Samples in a delivery's write transaction at most (a day of heart rate by the minute is 1,440; one transaction of
    /// this many takes well under a second).
    static let deliveryChunkSamples = 5_000

    /// `samples` in groups of whole days (every sample of a day in one group), each of about `limit` samples.
    static func wholeDays(_ samples: [HealthSample], upTo limit: Int) -> [[HealthSample]] {
        let byDay = Dictionary(grouping: samples, by: \.day)
        var chunks: [[HealthSample]] = [], chunk: [HealthSample] = []
        for day in byDay.keys.sorted() {
            let daySamples = byDay[day]!
            if !chunk.isEmpty, chunk.count + daySamples.count > limit {
                chunks.append(chunk)
                chunk = []
            }
            chunk += daySamples
        }
        if !chunk.isEmpty { chunks.append(chunk) }
        return chunks
    }

    /// Deletes the records of earlier deliveries that this one sent again with other values: those with the bucket of one
    /// of `records` but not its id. Returns how many.
    private func replaceChangedBuckets(_ connection: Connection, user: UserID, _ batch: ImportedBatch, _ records: ImportedHealthRecords)
        async throws -> Int
    {
        let db = connection.sql
        let prefixLength = "hae:".count + 17
        func bucket(_ id: String?) -> (bucket: String, id: String)? {
            guard let id, id.hasPrefix("hae:"), id.count > prefixLength else { return nil }
            return (String(id.prefix(prefixLength)), id)
        }
        let tables: [(table: String, days: [LocalDate], ids: [(bucket: String, id: String)])] = [
            (
                "weigh_ins", records.weighIns.map { LocalDate(instant: $0.measuredAt, utcOffsetSeconds: $0.utcOffsetSeconds) },
                records.weighIns.compactMap { bucket($0.externalID) }
            ),
            (
                "body_fat_readings",
                records.bodyFat.map { LocalDate(instant: $0.reading.measuredAt, utcOffsetSeconds: $0.reading.utcOffsetSeconds) },
                records.bodyFat.compactMap { bucket($0.externalID) }
            ),
            (
                "glucose_readings", records.glucose.map { LocalDate(instant: $0.measuredAt, utcOffsetSeconds: $0.utcOffsetSeconds) },
                records.glucose.compactMap { bucket($0.externalID) }
            ),
            (
                "insulin_doses", records.insulin.map { LocalDate(instant: $0.takenAt, utcOffsetSeconds: $0.utcOffsetSeconds) },
                records.insulin.compactMap { bucket($0.externalID) }
            ),
            (
                "food_entries", records.foodEntries.map { LocalDate(instant: $0.eatenAt, utcOffsetSeconds: $0.utcOffsetSeconds) },
                records.foodEntries.compactMap { bucket($0.externalID) }
            ),
        ]
        var replaced = 0
        var version: Int64?
        for (table, days, ids) in tables where !ids.isEmpty {
            guard let first = days.min(), let last = days.max() else { continue }
            let buckets = Set(ids.map(\.bucket)), current = Set(ids.map(\.id))
            // Earlier deliveries' records on those days; the external id index does not answer a prefix on both databases.
            let stale = try await db.raw(
                """
                SELECT row_id, external_id FROM \(unsafeRaw: table)
                WHERE user_id = \(bind: user.rawValue) AND deleted = 0 AND local_day BETWEEN \(bind: first.dayNumber) AND \(bind: last.dayNumber)
                    AND external_id LIKE 'hae:%' AND import_id <> \(bind: batch.importID)
                """
            ).all().compactMap { row -> Int64? in
                guard let id = try row.decode(column: "external_id", as: String?.self), let known = bucket(id),
                    buckets.contains(known.bucket), !current.contains(id)
                else { return nil }
                return try row.decode(column: "row_id", as: Int64.self)
            }
            guard !stale.isEmpty else { continue }
            if version == nil { version = try await reserveVersions(db, user: user) }
            for chunk in stale.chunks(of: Self.insertChunkRows) {
                try await db.raw(
                    """
                    UPDATE \(unsafeRaw: table) SET deleted = 1, version = \(bind: version!), updated_at_ms = \(bind: batch.createdAt)
                    WHERE row_id IN (\(binds: Array(chunk)))
                    """
                ).run()
            }
            replaced += stale.count
        }
        return replaced
    }

    /// Stores a delivery's samples: new ones added, ones sent before with another value changed (and now this
    /// delivery's), the rest left. Returns the counts and the summaries of every type and day the delivery touched,
    /// from all the samples stored for them.
    private func storeHealthSamples(_ connection: Connection, user: UserID, _ batch: ImportedBatch, _ samples: [HealthSample]) async throws
        -> (fresh: Int, changed: Int, same: Int, days: [HealthDaySummary])
    {
        guard !samples.isEmpty else { return (0, 0, 0, []) }
        struct Key: Hashable { let type: String, category: String, unit: String, start: Int64, end: Int64, source: String }
        func key(_ sample: HealthSample) -> Key {
            Key(
                type: sample.type, category: sample.category, unit: sample.unit, start: milliseconds(sample.start),
                end: milliseconds(sample.end),
                source: sample.source)
        }
        var sent: [Key: HealthSample] = [:]
        for sample in samples { sent[key(sample)] = sample }
        var stored: [Key: HealthSample] = [:]
        for chunk in Array(Set(sent.values.map(\.day))).chunks(of: Self.insertChunkRows) {
            for sample in try await columnRows(
                connection,
                """
                SELECT type, category, unit, start_ms, end_ms, source, local_day, value, minimum, maximum FROM health_samples
                WHERE user_id = \(bind: user.rawValue) AND local_day IN (\(binds: chunk.map(\.dayNumber)))
                """,
                { row in
                    HealthSample(
                        type: try row.text(0) ?? "", category: try row.text(1) ?? "", unit: try row.text(2) ?? "",
                        start: date(milliseconds: try row.integer(3) ?? 0), end: date(milliseconds: try row.integer(4) ?? 0),
                        day: LocalDate(dayNumber: Int(try row.integer(6) ?? 0)), source: try row.text(5) ?? "",
                        value: try row.real(7) ?? 0, minimum: try row.real(8), maximum: try row.real(9))
                })
            {
                stored[key(sample)] = sample
            }
        }
        var fresh: [HealthSample] = [], changed: [HealthSample] = [], same = 0
        for (key, sample) in sent {
            switch stored[key] {
            case nil: fresh.append(sample)
            case let old?
            where old.value == sample.value && old.minimum == sample.minimum && old.maximum == sample.maximum && old.day == sample.day:
                same += 1
            default: changed.append(sample)
            }
            stored[key] = sample
        }
        try await insertRows(
            connection.sql, into: "health_samples",
            columns: [
                "user_id", "type", "category", "unit", "start_ms", "end_ms", "source", "local_day", "value", "minimum", "maximum",
                "import_id",
            ],
            fresh.map { sample in
                [
                    user.rawValue, sample.type, sample.category, sample.unit, milliseconds(sample.start), milliseconds(sample.end),
                    sample.source,
                    sample.day.dayNumber, sample.value, sample.minimum, sample.maximum, batch.importID,
                ]
            })
        for sample in changed {
            try await connection.sql.raw(
                """
                UPDATE health_samples SET local_day = \(bind: sample.day.dayNumber), value = \(bind: sample.value), minimum = \(bind: sample.minimum),
                    maximum = \(bind: sample.maximum), import_id = \(bind: batch.importID)
                WHERE user_id = \(bind: user.rawValue) AND type = \(bind: sample.type) AND category = \(bind: sample.category)
                    AND unit = \(bind: sample.unit) AND start_ms = \(bind: milliseconds(sample.start)) AND end_ms = \(bind: milliseconds(sample.end))
                    AND source = \(bind: sample.source)
                """
            ).run()
        }
        struct DayKey: Hashable { let type: String, category: String, unit: String, day: LocalDate }
        let touched = Set(sent.values.map { DayKey(type: $0.type, category: $0.category, unit: $0.unit, day: $0.day) })
        let days = HealthSample.summaries(
            stored.values.filter { touched.contains(DayKey(type: $0.type, category: $0.category, unit: $0.unit, day: $0.day)) })
        return (fresh.count, changed.count, same, days)
    }
}
