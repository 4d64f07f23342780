import CinnCore
import Foundation
import Logging
import NIOCore
import PostgresNIO
import SQLKit
import SQLiteNIO

extension Store {
    /// Imports journal rows (weigh-ins, glucose, food entries…) as one recorded batch, all or nothing.
    ///
    /// `read` parses the file and hands its rows to the writer it is given; `finish` then runs inside the import's
    /// transaction, after the rows are in, with the report's `imported` and `duplicates` set (for the writes that
    /// depend on what is already in the journal, such as day summaries).
    ///
    /// On SQLite the file is read before the database's only write lock is taken: its rows go to a staging database
    /// of their own (a temporary file, `ImportStaging`), and one short transaction then moves them into the
    /// journal, skipping the external ids already there. Reading a large export takes tens of seconds; moving the
    /// rows takes a fraction of that, and only then do other writers wait (docs/SECURITY.md). A failed read writes
    /// nothing. On PostgreSQL, where writers do not share one lock, the rows go straight in, in the transaction.
    ///
    /// `sameAs`: for tables whose rows are also duplicates of a journal row that matches them in some columns (two
    /// uploaders send one reading under different ids), which columns and rows.
    func journalImport<Parsed>(
        user: UserID, format: String, fileName: String?, mode: ImportMode, sameAs: [JournalRowWriter.Table: JournalRowWriter.SameAs] = [:],
        read: (JournalRowWriter) async throws -> (ImportReport, Parsed),
        finish: (Connection, ImportedBatch, inout ImportReport, Parsed) async throws -> Void
    ) async throws -> ImportReport {
        guard isSQLite else {
            return try await recordedImport(user: user, format: format, fileName: fileName, mode: mode) { connection, batch in
                let writer = JournalRowWriter(store: self, postgres: connection, batch: batch, sameAs: sameAs)
                var (report, parsed) = try await read(writer)
                report.imported = try await writer.imported()
                report.duplicates = writer.offered - report.imported
                try await finish(connection, batch, &report, parsed)
                return report
            }
        }
        return try await stagedImport(user: user, format: format, fileName: fileName, mode: mode) { staging in
            let writer = JournalRowWriter(store: self, staging: staging, sameAs: sameAs)
            let (report, parsed) = try await read(writer)
            return (report, (parsed, writer))
        } merge: { connection, batch, report, read in
            let (parsed, writer) = read
            report.imported = try await writer.merge(connection, batch)
            report.duplicates = writer.offered - report.imported
            try await finish(connection, batch, &report, parsed)
        }
    }

    /// SQLite: reads a file into a staging database (`stage`, with no lock on the journal), then moves what it staged into
    /// the journal in one transaction with the staging file attached as `staging` (`merge`, with the report `stage` made).
    /// The staging file is removed afterwards, whatever happened.
    func stagedImport<Staged>(
        user: UserID, format: String, fileName: String?, mode: ImportMode,
        stage: (ImportStaging) async throws -> (ImportReport, Staged),
        merge: (Connection, ImportedBatch, inout ImportReport, Staged) async throws -> Void
    ) async throws -> ImportReport {
        let staging = try await ImportStaging(store: self)
        do {
            let (read, staged) = try await stage(staging)
            try await staging.close()
            let report = try await recordedImport(
                user: user, format: format, fileName: fileName, mode: mode, bulk: true,
                attaching: staging.file
            ) { connection, batch in
                var report = read
                try await merge(connection, batch, &report, staged)
                return report
            }
            await staging.discard()
            return report
        } catch {
            await staging.discard()
            throw error
        }
    }
}

/// SQLite: an import's scratch database, a file in the temporary directory on a connection of its own, with no rollback
/// journal and no syncing, written in one transaction with INSERTs prepared once per table (`SQLiteBulkInsert`). It holds
/// only the import's rows; a killed process leaves it behind in the temporary directory, and nothing reads it again.
final class ImportStaging: @unchecked Sendable {
    let file: URL
    private let store: Store
    private var connection: SQLiteConnection?
    private var inserts: [String: SQLiteBulkInsert] = [:]

    init(store: Store) async throws {
        self.store = store
        file = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-import-\(UUID().uuidString).sqlite")
        do {
            let connection = try await SQLiteConnection.open(storage: .file(path: file.path), logger: store.logger)
            self.connection = connection
            for pragma in ["PRAGMA journal_mode = OFF", "PRAGMA synchronous = OFF", "BEGIN"] {
                _ = try await connection.query(pragma)
            }
        } catch {
            await discard()
            throw Store.isDatabaseError(error) ? store.translate(error) : error
        }
    }

    /// The prepared INSERT of table `name`, made with `columns` (untyped: values keep the type they are bound with) on first use.
    func table(_ name: String, columns: [String], rowsPerStatement: Int) async throws -> SQLiteBulkInsert {
        if let known = inserts[name] { return known }
        guard let connection else { throw CinnError(.internal, "an import's rows were staged after staging ended") }
        do {
            _ = try await connection.query("CREATE TABLE \(name) (\(columns.joined(separator: ", ")))")
        } catch {
            throw Store.isDatabaseError(error) ? store.translate(error) : error
        }
        let insert = try SQLiteBulkInsert(connection, table: name, columns: columns, rowsPerStatement: rowsPerStatement)
        inserts[name] = insert
        return insert
    }

    /// Commits and closes the staging database, before it is attached to the import's connection.
    func close() async throws {
        finishInserts()
        guard let connection else { return }
        self.connection = nil
        do {
            _ = try await connection.query("COMMIT")
            try await connection.close()
        } catch {
            try? await connection.close()
            throw Store.isDatabaseError(error) ? store.translate(error) : error
        }
    }

    /// Closes the staging database if it is still open and removes its file.
    func discard() async {
        finishInserts()
        if let connection {
            self.connection = nil
            try? await connection.close()
        }
        try? FileManager.default.removeItem(at: file)
    }

    private func finishInserts() {
        for insert in inserts.values { insert.finish() }
        inserts = [:]
    }
}

/// An import's rows for the journal tables (weigh-ins, glucose, food entries…), each written unless the user already
/// has its external id (`Store.journalImport`).
///
/// On SQLite the rows are staged (`ImportStaging`, 50 rows to a statement) with no lock on the journal; `merge` then moves
/// them with one INSERT … SELECT per table in the import's transaction, where they get the batch, their versions and the
/// conflict check.
///
/// On PostgreSQL each batch of rows goes in one text-format COPY into a temporary table shaped like the journal table
/// (made for the table's first batch, dropped at commit), then one INSERT … SELECT that skips the external ids
/// already there.
final class JournalRowWriter: @unchecked Sendable {
    /// A journal table: its time column and the columns of its own, between the ones every journal table shares.
    struct Table: Hashable {
        let name: String
        let time: String
        let columns: [String]

        static let weighIns = Table(name: "weigh_ins", time: "measured_at_ms", columns: ["weight_kg", "note"])
        static let bodyFat = Table(name: "body_fat_readings", time: "measured_at_ms", columns: ["fraction"])
        static let glucose = Table(
            name: "glucose_readings", time: "measured_at_ms", columns: ["mg_dl", "timing", "note", "sensor", "device", "direction"])

        /// A reading's values of `glucose`'s own columns, in their order.
        static func glucoseValues(_ reading: GlucoseReading) -> [Value] {
            [
                .real(reading.glucose.milligramsPerDeciliter), .text(reading.timing?.rawValue), .text(reading.note),
                .integer(reading.sensor ? 1 : 0),
                .text(reading.device), .text(reading.direction?.rawValue),
            ]
        }
        static let insulin = Table(name: "insulin_doses", time: "taken_at_ms", columns: ["units", "kind", "insulin", "note"])
        static let foodEntries = Table(
            name: "food_entries", time: "eaten_at_ms",
            columns: [
                "food_id", "name", "brand", "search_key", "meal", "servings", "serving_label", "serving_amount", "nutrients", "energy_kcal",
                "note",
            ])
        static let workouts = Table(name: "workouts", time: "started_at_ms", columns: ["name", "duration_s", "distance_m", "energy_kcal"])
        static let exerciseEntries = Table(
            name: "exercise_entries", time: "performed_at_ms",
            columns: [
                "name", "kind", "energy_kcal", "minutes", "sets", "reps_per_set", "weight_kg", "steps", "note",
            ])

        /// The columns a row brings: the rest come from the batch when the rows go in.
        var rowColumns: [String] { ["id", time, "utc_offset_s", "local_day"] + columns + ["external_id"] }

        var allColumns: [String] {
            ["id", "user_id", time, "utc_offset_s", "local_day"] + columns
                + ["source", "external_id", "import_id", "created_at_ms", "updated_at_ms", "version"]
        }
    }

    /// What else makes a row a duplicate of a journal row (`Store.journalImport`): the same values in `columns`, on a
    /// row that meets `only` (an SQL condition on the journal's row, `d`), or on any row of the user's when nil.
    struct SameAs {
        let columns: [String]
        let only: String?
    }

    /// A value of a table's own columns, typed so that SQLite binds it without a cast.
    enum Value {
        case integer(Int?)
        case real(Double?)
        case text(String?)
        case id(UUID?)
    }

    struct Row {
        var id: UUID
        /// The instant of the row's time column.
        var at: Date
        var utcOffsetSeconds: Int
        var values: [Value]
        /// Nil: the row can only be a duplicate by `sameAs`.
        var externalID: String?

        var localDay: Int { LocalDate(instant: at, utcOffsetSeconds: utcOffsetSeconds).dayNumber }

        /// An imported weigh-in's row, with an id from `ids`.
        static func weighIn(_ reading: ImportedWeighIn, ids: inout SplitMix64) -> Row {
            Row(
                id: UUID.v7(at: reading.measuredAt, using: &ids), at: reading.measuredAt, utcOffsetSeconds: reading.utcOffsetSeconds,
                values: [.real(reading.weight.kilograms), .text(reading.note)], externalID: reading.externalID)
        }
    }

    /// Rows per prepared INSERT on SQLite, as for workout sets (WorkoutImports).
    static let rowsPerStatement = 50
    static let conflict = " ON CONFLICT (user_id, external_id) WHERE deleted = 0 AND external_id IS NOT NULL DO NOTHING"

    let store: Store
    /// See `Store.journalImport`.
    private let sameAs: [Table: SameAs]
    /// Rows handed to `insert`, duplicates included.
    private(set) var offered = 0

    // SQLite: the staging database, and the tables of it this writer made (in the order their first rows came) with
    // how many rows each holds (their rowids run from 1 to that).
    let staging: ImportStaging?
    private var stagedTables: [(table: Table, rows: Int)] = []

    // PostgreSQL: the import's connection and batch, and the tables whose temporary staging table exists.
    let connection: Store.Connection?
    let batch: Store.ImportedBatch?
    private var copied: Set<Table> = []

    init(store: Store, postgres connection: Store.Connection, batch: Store.ImportedBatch, sameAs: [Table: SameAs]) {
        self.store = store
        self.sameAs = sameAs
        self.connection = connection
        self.batch = batch
        staging = nil
    }

    init(store: Store, staging: ImportStaging, sameAs: [Table: SameAs]) {
        self.store = store
        self.sameAs = sameAs
        self.staging = staging
        connection = nil
        batch = nil
    }

    func insert(_ table: Table, _ rows: [Row]) async throws {
        guard !rows.isEmpty else { return }
        offered += rows.count
        if let staging {
            try await stage(staging, table, rows)
        } else if let connection, let batch, let postgres = connection.postgres {
            try await copy(postgres, connection.sql, batch, table, rows)
        } else {
            throw CinnError(.internal, "an import's rows were written after the import ended")
        }
    }

    private func stage(_ staging: ImportStaging, _ table: Table, _ rows: [Row]) async throws {
        if let index = stagedTables.firstIndex(where: { $0.table == table }) {
            stagedTables[index].rows += rows.count
        } else {
            stagedTables.append((table, rows.count))
        }
        let insert = try await staging.table(table.name, columns: table.rowColumns, rowsPerStatement: Self.rowsPerStatement)
        try insert.insert(count: rows.count) { n, binder in
            let row = rows[n]
            binder.bind(row.id)
            binder.bind(Int(store.milliseconds(row.at)))
            binder.bind(row.utcOffsetSeconds)
            binder.bind(row.localDay)
            for value in row.values {
                switch value {
                case .integer(let number): binder.bind(number)
                case .real(let number): binder.bind(number)
                case .text(let text): binder.bind(text)
                case .id(let id): binder.bind(id)
                }
            }
            binder.bind(row.externalID)
        }
    }

    /// Moves the staged rows into the journal, in the import's transaction on `connection` (where the staging file is
    /// attached as `staging`), skipping external ids already there; returns how many went in. The rows' versions are
    /// reserved at once, numbered by the rows' order in each table.
    func merge(_ connection: Store.Connection, _ batch: Store.ImportedBatch) async throws -> Int {
        let db = connection.sql
        let total = stagedTables.map(\.rows).reduce(0, +)
        guard total > 0 else { return 0 }
        var version = try await store.reserveVersions(db, user: batch.user, count: total)
        var imported = 0
        for (table, count) in stagedTables {
            let columns = table.allColumns.joined(separator: ", ")
            let own = ([table.time, "utc_offset_s", "local_day"] + table.columns).joined(separator: ", ")
            // The WHERE keeps SQLite from reading ON CONFLICT as a join's ON.
            try await db.raw(
                """
                INSERT INTO main.\(unsafeRaw: table.name) (\(unsafeRaw: columns))
                SELECT id, \(bind: batch.user.rawValue), \(unsafeRaw: own), \(bind: batch.source), external_id, \(bind: batch.importID),
                    \(bind: batch.createdAt), \(bind: batch.createdAt), \(bind: version - 1) + rowid
                FROM staging.\(unsafeRaw: table.name) AS s WHERE true
                """ + notAlreadyThere(table, in: "main." + table.name, batch) + " ORDER BY rowid" + SQLQueryString(Self.conflict)
            ).run()
            imported += try await db.raw("SELECT changes() AS n").first()?.decode(column: "n", as: Int.self) ?? 0
            version += Int64(count)
        }
        return imported
    }

    /// ` AND NOT EXISTS (…)`: the staged row `s` matches no row of `target` as `sameAs` says.
    private func notAlreadyThere(_ table: Table, in target: String, _ batch: Store.ImportedBatch) -> SQLQueryString {
        guard let same = sameAs[table], !same.columns.isEmpty else { return "" }
        let matches = (same.columns.map { "d.\($0) = s.\($0)" } + (same.only.map { ["(\($0))"] } ?? [])).joined(separator: " AND ")
        return """
             AND NOT EXISTS (SELECT 1 FROM \(unsafeRaw: target) d WHERE d.user_id = \(bind: batch.user.rawValue) AND d.deleted = 0
                AND \(unsafeRaw: matches))
            """
    }

    /// PostgreSQL: how many of the rows went in (the others were duplicates).
    func imported() async throws -> Int {
        guard let connection, let batch else { return 0 }
        var imported = 0
        for table in copied {
            imported +=
                try await connection.sql.raw(
                    """
                    SELECT COUNT(*) AS n FROM \(unsafeRaw: table.name) WHERE import_id = \(bind: batch.importID)
                    """
                ).first()?.decode(column: "n", as: Int.self) ?? 0
        }
        return imported
    }

    private func copy(
        _ postgres: PostgresConnection, _ db: any SQLDatabase, _ batch: Store.ImportedBatch, _ table: Table,
        _ rows: [Row]
    ) async throws {
        let staging = "import_" + table.name
        let columns = table.allColumns.joined(separator: ", ")
        if copied.insert(table).inserted {
            try await db.raw(
                SQLQueryString(
                    "CREATE TEMPORARY TABLE " + staging + " ON COMMIT DROP AS SELECT " + columns + " FROM " + table.name + " WITH NO DATA"
                )
            ).run()
        } else {
            try await db.raw(SQLQueryString("TRUNCATE " + staging)).run()
        }
        var version = try await store.reserveVersions(db, user: batch.user, count: rows.count)
        let shared = "\t" + Store.copyText(batch.source), written = "\t\(batch.importID)\t\(batch.createdAt)\t\(batch.createdAt)\t"
        try await postgres.copyFrom(table: staging, columns: table.allColumns, logger: store.logger) { writer in
            var buffer = ByteBuffer()
            for row in rows {
                buffer.writeString(
                    "\(row.id.uuidString)\t\(batch.user.rawValue)\t\(store.milliseconds(row.at))\t\(row.utcOffsetSeconds)\t\(row.localDay)")
                for value in row.values {
                    switch value {
                    case .integer(let number): buffer.writeString(number.map { "\t\($0)" } ?? "\t\\N")
                    case .real(let number): buffer.writeString(number.map { "\t\($0)" } ?? "\t\\N")
                    case .text(let text): buffer.writeString(text.map { "\t" + Store.copyText($0) } ?? "\t\\N")
                    case .id(let id): buffer.writeString(id.map { "\t" + $0.uuidString } ?? "\t\\N")
                    }
                }
                buffer.writeString(shared + "\t" + (row.externalID.map(Store.copyText) ?? "\\N") + written + "\(version)\n")
                version += 1
            }
            try await writer.write(buffer)
        }
        try await db.raw(
            SQLQueryString("INSERT INTO " + table.name + " (" + columns + ") SELECT " + columns + " FROM " + staging + " AS s WHERE true")
                + notAlreadyThere(table, in: table.name, batch) + SQLQueryString(Self.conflict)
        ).run()
    }
}
