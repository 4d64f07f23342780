import CinnCore
import Foundation
import NIOCore
import PostgresNIO
import SQLKit

/// A recorded import: what came in, and whether it was undone.
public struct ImportBatch: Sendable, Hashable {
    public var id: Int64
    public var format: String
    public var fileName: String?
    public var createdAt: Date
    public var rowsRead: Int
    public var imported: Int
    public var duplicates: Int
    public var rejected: Int
    public var undoneAt: Date?
}

/// How to run an import.
public struct ImportMode: Sendable, Hashable {
    /// Do everything, report, and write nothing.
    public var dryRun: Bool
    /// Import the good rows of a file that has bad ones (otherwise the file is rejected whole).
    public var skipInvalid: Bool

    public init(dryRun: Bool = false, skipInvalid: Bool = false) {
        self.dryRun = dryRun
        self.skipInvalid = skipInvalid
    }
}

/// Carries a report out of a transaction that must be rolled back.
private struct RollBack: Error {
    let report: ImportReport
}

extension Store {
    /// Imports weigh-ins as one batch that can be undone, all or nothing (on SQLite staged: see `journalImport`).
    ///
    /// `read` parses the file, calling `insert` with batches of readings, and returns the parse
    /// report (rows read, rejections). Readings whose external id is already in the journal are
    /// duplicates and skipped. A file with rejected rows writes nothing unless `mode.skipInvalid`;
    /// a dry run writes nothing and reports what would have happened.
    public func importWeighIns(
        user: UserID, format: String, fileName: String?, mode: ImportMode,
        read: (_ insert: ([ImportedWeighIn]) async throws -> Void) async throws -> ImportReport
    ) async throws -> ImportReport {
        guard isSQLite else {
            return try await recordedImport(user: user, format: format, fileName: fileName, mode: mode) { connection, batch in
                guard let postgres = connection.postgres else { throw CinnError(.internal, "no database driver for the import") }
                var ids = SplitMix64()
                var (report, offered) = try await copyImport(postgres, connection.sql, batch, ids: &ids, read: read)
                report.imported =
                    try await connection.sql.raw("SELECT COUNT(*) AS n FROM weigh_ins WHERE import_id = \(bind: batch.importID)")
                    .first()?.decode(column: "n", as: Int.self) ?? 0
                report.duplicates = offered - report.imported
                return report
            }
        }
        return try await journalImport(user: user, format: format, fileName: fileName, mode: mode) { writer in
            var ids = SplitMix64()
            let report = try await read { readings in
                try await writer.insert(.weighIns, readings.map { .weighIn($0, ids: &ids) })
            }
            return (report, ())
        } finish: { _, _, _, _ in
        }
    }

    /// Runs an import in one transaction as a recorded batch. `body` writes the rows and returns the
    /// report with `imported` and `duplicates` set; then the contract's rules apply: a dry run, or a
    /// file with rejected rows without `mode.skipInvalid`, writes nothing (and imports nothing); an
    /// import that adds nothing leaves no batch behind. `bulk` and `attaching`: see `rawTransaction`.
    func recordedImport(
        user: UserID, format: String, fileName: String?, mode: ImportMode, bulk: Bool = false, attaching staging: URL? = nil,
        _ body: (Connection, ImportedBatch) async throws -> ImportReport
    ) async throws -> ImportReport {
        do {
            return try await rawTransaction(bulk: bulk, attaching: staging) { connection in
                let db = connection.sql
                let batch = try await recordBatch(db, user: user, format: format, fileName: fileName, createdAt: milliseconds(now()))
                let importID = batch.importID
                var report = try await body(connection, batch)
                report.dryRun = mode.dryRun
                if mode.dryRun || (report.rejectedCount > 0 && !mode.skipInvalid) {
                    if report.rejectedCount > 0 && !mode.skipInvalid && !mode.dryRun { report.imported = 0 }
                    throw RollBack(report: report)
                }
                guard report.addsAnything else { throw RollBack(report: report) }
                try await db.raw(
                    """
                    UPDATE imports SET rows_read = \(bind: report.rowsRead), imported = \(bind: report.imported),
                        duplicates = \(bind: report.duplicates), rejected = \(bind: report.rejectedCount)
                    WHERE row_id = \(bind: importID)
                    """
                ).run()
                report.importID = importID
                return report
            }
        } catch let rollBack as RollBack {
            return rollBack.report
        }
    }

    /// Records a new import batch (its counts are set when it is done).
    func recordBatch(_ db: any SQLDatabase, user: UserID, format: String, fileName: String?, createdAt: Int64) async throws -> ImportedBatch
    {
        guard
            let batchRow = try await db.raw(
                """
                INSERT INTO imports (user_id, format, file_name, created_at_ms)
                VALUES (\(bind: user.rawValue), \(bind: format), \(bind: fileName), \(bind: createdAt)) RETURNING row_id
                """
            ).first()
        else { throw CinnError(.internal, "the import could not be recorded") }
        return ImportedBatch(
            user: user, importID: try batchRow.decode(column: "row_id", as: Int64.self), source: "import:\(format)",
            createdAt: createdAt)
    }

    /// What every row of an import shares.
    struct ImportedBatch {
        let user: UserID
        let importID: Int64
        let source: String
        let createdAt: Int64
    }

    private static let importColumns = """
        INSERT INTO weigh_ins (id, user_id, measured_at_ms, utc_offset_s, local_day, weight_kg, note, source,
            external_id, import_id, created_at_ms, updated_at_ms, version)
        """
    private static let importConflict = " ON CONFLICT (user_id, external_id) WHERE deleted = 0 AND external_id IS NOT NULL DO NOTHING"

    /// The PostgreSQL bulk path (docs/DESIGN.md): every reading is streamed with one text-format `COPY` into a
    /// temporary table, then moved into `weigh_ins` by one INSERT … SELECT that skips duplicates. No other
    /// statement may run on the connection during a COPY, so versions are reserved after it and numbered
    /// by each reading's position in the file.
    private func copyImport(
        _ postgres: PostgresConnection, _ db: any SQLDatabase, _ batch: ImportedBatch, ids: inout SplitMix64,
        read: (_ insert: ([ImportedWeighIn]) async throws -> Void) async throws -> ImportReport
    ) async throws -> (ImportReport, offered: Int) {
        try await db.raw(
            """
            CREATE TEMPORARY TABLE import_rows (position BIGINT NOT NULL, id UUID NOT NULL, measured_at_ms BIGINT NOT NULL,
                utc_offset_s BIGINT NOT NULL, local_day BIGINT NOT NULL, weight_kg DOUBLE PRECISION NOT NULL, note TEXT,
                external_id TEXT NOT NULL) ON COMMIT DROP
            """
        ).run()
        var offered = 0
        var report: ImportReport?
        var generator = ids
        try await postgres.copyFrom(
            table: "import_rows",
            columns: ["position", "id", "measured_at_ms", "utc_offset_s", "local_day", "weight_kg", "note", "external_id"],
            logger: logger
        ) { writer in
            report = try await read { readings in
                var buffer = ByteBuffer()
                for reading in readings {
                    let id = UUID.v7(at: reading.measuredAt, using: &generator)
                    let day = LocalDate(instant: reading.measuredAt, utcOffsetSeconds: reading.utcOffsetSeconds).dayNumber
                    buffer.writeString("\(offered)\t\(id.uuidString)\t\(milliseconds(reading.measuredAt))\t\(reading.utcOffsetSeconds)\t")
                    buffer.writeString("\(day)\t\(reading.weight.kilograms)\t")
                    buffer.writeString(reading.note.map(Self.copyText) ?? "\\N")
                    buffer.writeString("\t\(Self.copyText(reading.externalID))\n")
                    offered += 1
                }
                try await writer.write(buffer)
            }
        }
        ids = generator
        guard let report else { throw CinnError(.internal, "the import did not finish") }
        let firstVersion = try await reserveVersions(db, user: batch.user, count: max(offered, 1))
        try await db.raw(
            SQLQueryString(Self.importColumns) + """
                 SELECT id, \(bind: batch.user.rawValue), measured_at_ms, utc_offset_s, local_day, weight_kg, note,
                    \(bind: batch.source), external_id, \(bind: batch.importID), \(bind: batch.createdAt), \(bind: batch.createdAt),
                    \(bind: firstVersion) + position
                FROM import_rows ORDER BY position
                """ + SQLQueryString(Self.importConflict)
        ).run()
        return (report, offered)
    }

    /// A text value in `COPY … FORMAT text`: backslash, tab, newline and carriage return escaped.
    static func copyText(_ text: String) -> String {
        // Scalars, not Characters: "\r\n" is one Character and would slip through.
        guard text.unicodeScalars.contains(where: { $0 == "\\" || $0 == "\t" || $0 == "\n" || $0 == "\r" }) else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped.append(contentsOf: "\\\\".unicodeScalars)
            case "\t": escaped.append(contentsOf: "\\t".unicodeScalars)
            case "\n": escaped.append(contentsOf: "\\n".unicodeScalars)
            case "\r": escaped.append(contentsOf: "\\r".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// The user's imports, newest first.
    public func imports(user: UserID) async throws -> [ImportBatch] {
        try await withConnection { db in
            try await db.raw(
                """
                SELECT row_id, format, file_name, created_at_ms, rows_read, imported, duplicates, rejected, undone_at_ms
                FROM imports WHERE user_id = \(bind: user.rawValue) ORDER BY row_id DESC
                """
            ).all().map { row in
                ImportBatch(
                    id: try row.decode(column: "row_id", as: Int64.self),
                    format: try row.decode(column: "format", as: String.self),
                    fileName: try row.decode(column: "file_name", as: String?.self),
                    createdAt: date(milliseconds: try row.decode(column: "created_at_ms", as: Int64.self)),
                    rowsRead: try row.decode(column: "rows_read", as: Int.self),
                    imported: try row.decode(column: "imported", as: Int.self),
                    duplicates: try row.decode(column: "duplicates", as: Int.self),
                    rejected: try row.decode(column: "rejected", as: Int.self),
                    undoneAt: try row.decode(column: "undone_at_ms", as: Int64?.self).map { date(milliseconds: $0) })
            }
        }
    }

    /// What undoing an import would remove: how many records of each table it brought are still there, and the local
    /// days they span (nil when none has a day: foods, presets, meals).
    public func importContents(id: Int64, user: UserID) async throws -> ImportContents {
        try await withConnection { db in
            guard
                try await db.raw("SELECT 1 AS one FROM imports WHERE row_id = \(bind: id) AND user_id = \(bind: user.rawValue)").first()
                    != nil
            else { throw CinnError.notFound("no import with id \(id)") }
            var contents = ImportContents()
            func add(_ kind: ImportContents.Kind, _ query: SQLQueryString) async throws {
                guard let row = try await db.raw(query).first() else { return }
                let count = try row.decode(column: "n", as: Int.self)
                guard count > 0 else { return }
                contents.counts.append((kind, count))
                if let first = try row.decode(column: "first", as: Int?.self), let last = try row.decode(column: "last", as: Int?.self) {
                    let days = LocalDate(dayNumber: first)...LocalDate(dayNumber: last)
                    contents.days = contents.days.map { min($0.lowerBound, days.lowerBound)...max($0.upperBound, days.upperBound) } ?? days
                }
            }
            for kind: ImportContents.Kind in [.weighIns, .bodyFat, .foodEntries, .exerciseEntries, .glucose, .insulin, .mealEvents] {
                try await add(
                    kind,
                    """
                    SELECT COUNT(*) AS n, MIN(local_day) AS first, MAX(local_day) AS last FROM \(unsafeRaw: kind.rawValue)
                    WHERE import_id = \(bind: id) AND user_id = \(bind: user.rawValue) AND deleted = 0
                    """)
            }
            try await add(
                .workoutSets,
                """
                SELECT COUNT(*) AS n, MIN(w.local_day) AS first, MAX(w.local_day) AS last FROM workout_sets s JOIN workouts w ON w.row_id = s.workout_id
                WHERE w.import_id = \(bind: id) AND w.user_id = \(bind: user.rawValue) AND w.deleted = 0
                """)
            try await add(
                .healthDays,
                """
                SELECT COUNT(DISTINCT local_day) AS n, MIN(local_day) AS first, MAX(local_day) AS last FROM health_days WHERE import_id = \(bind: id)
                """)
            for kind: ImportContents.Kind in [.meals, .foods, .presets] {
                try await add(
                    kind,
                    """
                    SELECT COUNT(*) AS n, NULL AS first, NULL AS last FROM \(unsafeRaw: kind.rawValue) WHERE import_id = \(bind: id) AND deleted = 0
                    """)
            }
            return contents
        }
    }

    /// Undoes an import: its weigh-ins, food entries, exercise entries, body-fat readings, glucose readings, insulin doses, meal events and
    /// meals, workouts (with their sets), foods, presets and health day summaries are deleted (tombstones remain for sync), so importing the
    /// file again brings them back. Returns how many were removed.
    @discardableResult
    public func undoImport(id: Int64, user: UserID) async throws -> Int {
        // A delivery's health samples and day summaries can be hundreds of thousands of rows: they go first, a few days
        // at a time, each in a short transaction of its own, so that other writers never wait long; then the records
        // and the batch's mark in one.
        guard
            try await withConnection({ db in
                try await db.raw(
                    "SELECT 1 FROM imports WHERE row_id = \(bind: id) AND user_id = \(bind: user.rawValue) AND undone_at_ms IS NULL"
                ).first()
            }) != nil
        else { return try await undoImportRecords(id: id, user: user).removed }
        let summaries = try await deleteByDays(from: "health_days", importID: id)
        try await deleteByDays(from: "health_samples", importID: id)
        let (records, sharedFoods) = try await undoImportRecords(id: id, user: user)
        let removed = records + summaries
        // The import may have held USDA rows of the built-in set, which were not added twice: they are added now.
        if sharedFoods > 0, try await installedBuiltInVersion() != nil { try await installBuiltInFoods(force: true) }
        return removed
    }

    /// Rows of an import deleted from `table` (with a `local_day` and an `import_id`), whole days at a time, about
    /// `undoChunkRows` a transaction. Returns how many.
    @discardableResult
    private func deleteByDays(from table: String, importID: Int64) async throws -> Int {
        let days = try await withConnection { db in
            try await db.raw(
                """
                SELECT local_day, COUNT(*) AS n FROM \(unsafeRaw: table) WHERE import_id = \(bind: importID) GROUP BY local_day ORDER BY local_day
                """
            ).all().map { (try $0.decode(column: "local_day", as: Int.self), try $0.decode(column: "n", as: Int.self)) }
        }
        var removed = 0, start = 0
        while start < days.count {
            var end = start, rows = days[start].1
            while end + 1 < days.count, rows + days[end + 1].1 <= Self.undoChunkRows {
                end += 1
                rows += days[end].1
            }
            try await rawTransaction { connection in
                try await connection.sql.raw(
                    """
                    DELETE FROM \(unsafeRaw: table) WHERE import_id = \(bind: importID)
                        AND local_day BETWEEN \(bind: days[start].0) AND \(bind: days[end].0)
                    """
                ).run()
            }
            removed += rows
            start = end + 1
        }
        return removed
    }

    /// Rows an undo deletes in one transaction at most.
    static let undoChunkRows = 20_000

    /// `undoImport`'s transaction: what it removed, and how many of those were shared foods.
    private func undoImportRecords(id: Int64, user: UserID) async throws -> (removed: Int, sharedFoods: Int) {
        try await rawTransaction { connection in
            let db = connection.sql
            guard
                let row = try await db.raw(
                    """
                    SELECT undone_at_ms FROM imports WHERE row_id = \(bind: id) AND user_id = \(bind: user.rawValue)
                    """
                ).first()
            else { throw CinnError.notFound("no import with id \(id)") }
            guard try row.decode(column: "undone_at_ms", as: Int64?.self) == nil else {
                throw CinnError(.conflict, "import \(id) was already undone")
            }
            let version = try await reserveVersions(db, user: user)
            let time = milliseconds(now())
            var removed = 0
            for table in [
                "weigh_ins", "food_entries", "exercise_entries", "body_fat_readings", "glucose_readings", "insulin_doses",
                "meal_events", "meals",
            ] {
                removed += try await db.raw(
                    """
                    UPDATE \(unsafeRaw: table) SET deleted = 1, version = \(bind: version), updated_at_ms = \(bind: time)
                    WHERE import_id = \(bind: id) AND user_id = \(bind: user.rawValue) AND deleted = 0 RETURNING row_id
                    """
                ).all().count
            }
            // The treatments a Nightscout file brought, kept as sent: not synced, so gone with no tombstone.
            try await db.raw("DELETE FROM nightscout_documents WHERE import_id = \(bind: id) AND user_id = \(bind: user.rawValue)").run()
            // A workout's sets go with it (and the exercise days they made); the workout's tombstone is what sync sees.
            let workouts = SQLQueryString(
                """
                SELECT row_id FROM workouts WHERE import_id = \(bind: id) AND user_id = \(bind: user.rawValue) AND deleted = 0
                """)
            let touched = try await db.raw(
                """
                SELECT s.exercise_id, MIN(w.local_day) AS first, MAX(w.local_day) AS last
                FROM workout_sets s JOIN workouts w ON w.row_id = s.workout_id
                WHERE s.workout_id IN (\(workouts)) GROUP BY s.exercise_id
                """
            ).all().map { row in
                (
                    try row.decode(column: "exercise_id", as: Int64.self),
                    try row.decode(column: "first", as: Int.self)...row.decode(column: "last", as: Int.self)
                )
            }
            try await db.raw("DELETE FROM workout_sets WHERE workout_id IN (\(workouts))").run()
            for (exercise, days) in touched { try await refreshExerciseDays(connection, user: user, exercises: [exercise], days: days) }
            removed += try await db.raw(
                """
                UPDATE workouts SET deleted = 1, version = \(bind: version), updated_at_ms = \(bind: time)
                WHERE import_id = \(bind: id) AND user_id = \(bind: user.rawValue) AND deleted = 0 RETURNING row_id
                """
            ).all().count
            var sharedFoods = 0
            for table in ["foods", "presets"] {
                let rows = try await db.raw(
                    """
                    UPDATE \(unsafeRaw: table) SET deleted = 1, version = \(bind: version), updated_at_ms = \(bind: time)
                    WHERE import_id = \(bind: id) AND deleted = 0 RETURNING \(unsafeRaw: table == "foods" ? "user_id" : "row_id")
                    """
                ).all()
                removed += rows.count
                if table == "foods" { sharedFoods = try rows.count { try $0.decode(column: "user_id", as: Int64?.self) == nil } }
            }
            // Day summaries are not journal records: they go, and the older export's they replaced are the days' again.
            removed += try await db.raw("DELETE FROM health_days WHERE import_id = \(bind: id) RETURNING local_day").all().count
            try await db.raw("DELETE FROM health_samples WHERE import_id = \(bind: id)").run()
            try await db.raw("UPDATE imports SET undone_at_ms = \(bind: time) WHERE row_id = \(bind: id)").run()
            return (removed, sharedFoods)
        }
    }
}

/// What an import brought that is still in the journal (`Store.importContents`).
public struct ImportContents: Sendable {
    /// What an import brings, by the table that holds it (health data counted in days).
    public enum Kind: String, Sendable {
        case weighIns = "weigh_ins"
        case bodyFat = "body_fat_readings"
        case foodEntries = "food_entries"
        case exerciseEntries = "exercise_entries"
        case glucose = "glucose_readings"
        case insulin = "insulin_doses"
        case mealEvents = "meal_events"
        case workoutSets = "workout_sets"
        case healthDays = "health_days"
        case meals, foods, presets
    }

    /// Records per kind, in a fixed order; kinds with none are left out.
    public var counts: [(kind: Kind, count: Int)] = []
    /// The local days the records with a day span.
    public var days: ClosedRange<LocalDate>?
}
