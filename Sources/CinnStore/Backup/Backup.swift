import CinnCore
import Foundation
import SQLKit
import SQLiteKit

/// Backups of a SQLite journal (`cinn backup`, `cinn restore`); PostgreSQL has pg_dump and pg_restore (docs/deployment.md).
extension Store {
    /// Writes a consistent copy of the whole database to `file`, which must not exist, while others go on reading and
    /// writing: `VACUUM INTO` reads one snapshot (a WAL read transaction) and writes it compacted. SQLite's page-by-page
    /// backup API would start over each time another connection writes, which a busy server does all the time.
    public func backup(to file: URL) async throws {
        guard isSQLite else { throw Self.postgresBackups }
        guard !FileManager.default.fileExists(atPath: file.path) else {
            throw CinnError.invalid("file", "\(file.path) already exists; a backup never overwrites one")
        }
        try await withConnection { db in
            try await db.raw("VACUUM INTO \(bind: file.path)").run()
        }
    }

    /// Whether `file` is a Cinn journal SQLite can read whole, and its schema version (nil: not a Cinn journal). A Cinn
    /// journal holds no views: a file with one is refused before anything reads from it, since reading a view runs
    /// whatever query it holds (a recursive one runs for as long as it likes).
    public func checkBackup() async throws -> Int? {
        guard isSQLite else { throw Self.postgresBackups }
        return try await withConnection { db in
            let check = try await db.raw("PRAGMA quick_check").all().map { try $0.decode(column: "quick_check", as: String.self) }
            guard check == ["ok"] else {
                throw CinnError.invalid("file", "the backup is damaged: \(check.prefix(3).joined(separator: "; "))")
            }
            if let view = try await db.raw("SELECT name FROM sqlite_master WHERE type = 'view' LIMIT 1").first() {
                throw CinnError.invalid(
                    "file", "the file holds a view (\(try view.decode(column: "name", as: String.self))), which no Cinn journal has")
            }
            guard try await db.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").first() != nil
            else {
                return nil
            }
            return try await db.raw("SELECT MAX(version) AS version FROM schema_migrations").first()?.decode(
                column: "version", as: Int?.self)
        }
    }

    /// Replaces everything in this database with `backup`'s, in one transaction: every server on it sees the journal as
    /// it was, or as the backup has it. The backup must be at this database's schema version (bring a copy of an older one
    /// up to date with `migrate()` first). Triggers are dropped for the copy and made again after it, so that the search
    /// indexes' own tables are copied as they are rather than rebuilt row by row.
    ///
    /// Open this store for the restore alone: its connections must not have used the search indexes before (SQLite keeps
    /// their structure cached per connection; other connections notice the change and read it again).
    public func restore(from backup: URL) async throws {
        guard isSQLite else { throw Self.postgresBackups }
        try await rawTransaction(bulk: true, attaching: backup) { connection in
            let db = connection.sql
            let versions = try await db.raw(
                """
                SELECT (SELECT MAX(version) FROM main.schema_migrations) AS here, (SELECT MAX(version) FROM staging.schema_migrations) AS there
                """
            ).first()
            let here = try versions?.decode(column: "here", as: Int?.self), there = try versions?.decode(column: "there", as: Int?.self)
            guard here == there else {
                throw CinnError(
                    .conflict,
                    "the backup's schema version (\(there.map(String.init) ?? "none")) is not this journal's (\(here.map(String.init) ?? "none"))"
                )
            }
            // Every table is read from the backup as a table, never through a view of that name (which would run its query).
            if let view = try await db.raw("SELECT name FROM staging.sqlite_master WHERE type = 'view' LIMIT 1").first() {
                throw CinnError.invalid(
                    "file", "the backup holds a view (\(try view.decode(column: "name", as: String.self))), which no Cinn journal has")
            }
            let triggers = try await db.raw("SELECT name, sql FROM main.sqlite_master WHERE type = 'trigger' ORDER BY name").all()
                .map { (try $0.decode(column: "name", as: String.self), try $0.decode(column: "sql", as: String.self)) }
            for (name, _) in triggers { try await db.raw("DROP TRIGGER main.\(ident: name)").run() }
            let tables = try await db.raw(
                """
                SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'
                ORDER BY name
                """
            ).all().map { try $0.decode(column: "name", as: String.self) }
            for table in tables {
                let columns = try await db.raw("SELECT name FROM pragma_table_info(\(bind: table), 'main') ORDER BY cid").all()
                    .map { try $0.decode(column: "name", as: String.self) }
                let list = SQLList(columns.map { SQLIdentifier($0) })
                try await db.raw("DELETE FROM main.\(ident: table)").run()
                try await db.raw("INSERT INTO main.\(ident: table) (\(list)) SELECT \(list) FROM staging.\(ident: table)").run()
            }
            for (_, sql) in triggers { try await db.raw(SQLQueryString(sql)).run() }
        }
    }

    public static var postgresBackups: CinnError {
        CinnError.invalid("database", "backups of a PostgreSQL database are pg_dump's and pg_restore's (docs/deployment.md)")
    }
}
