import ArgumentParser
import CinnCore
import CinnStore
import Foundation
import Logging

/// `cinn backup FILE`: a consistent copy of a SQLite journal, taken while servers and commands use it.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup", abstract: "Write a consistent copy of a SQLite journal to FILE, while the server runs.",
        discussion: "PostgreSQL databases are backed up with pg_dump (docs/deployment.md).")

    @OptionGroup var options: DatabaseOptions

    @Argument(help: "The file to write; it must not exist.")
    var file: String

    func run() async throws {
        guard case .sqlite(let path) = options.location else { throw CommandError.from(Store.postgresBackups) }
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandError.from(CinnError.invalid("database", "there is no journal at \(path)"))
        }
        let target = URL(fileURLWithPath: file)
        try await withQuietStore(options.location) { store in try await store.backup(to: target) }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int) ?? 0
        print("Backed up \(path) to \(target.path) (\(String(format: "%.1f", Double(bytes) / 1_048_576)) MB).")
    }
}

/// `cinn restore FILE`: puts a backup back, replacing the whole journal in one transaction.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Replace a SQLite journal with a backup that cinn backup wrote.",
        discussion: """
            An existing journal is replaced only with --force: everything in it becomes the backup's, in one transaction, \
            so a server running on it sees the journal either as it was or as the backup has it. A backup from an older \
            Cinn is brought up to date on a copy first; one from a newer Cinn is refused. PostgreSQL databases are \
            restored with pg_restore (docs/deployment.md).
            """)

    @OptionGroup var options: DatabaseOptions

    @Argument(help: "The backup to restore.")
    var file: String

    @Flag(help: "Replace the journal at --database although it exists.")
    var force = false

    func run() async throws {
        guard case .sqlite(let path) = options.location else { throw CommandError.from(Store.postgresBackups) }
        let backup = URL(fileURLWithPath: file)
        guard FileManager.default.fileExists(atPath: backup.path) else {
            throw CommandError.from(CinnError.invalid("file", "there is no backup at \(backup.path)"))
        }
        if FileManager.default.fileExists(atPath: path), !force {
            throw CommandError.from(CinnError.invalid("force", "\(path) exists: restoring replaces everything in it; add --force to do so"))
        }
        // The backup is checked and brought up to date on a copy beside the journal, never changed itself.
        let copy = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(
            ".cinn-restore-\(UUID().uuidString).sqlite")
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy.path + suffix) }
        }
        do {
            try FileManager.default.copyItem(at: backup, to: copy)
        } catch {
            throw CommandError.from(
                CinnError.invalid("file", "\(backup.path) cannot be copied beside the journal: \(error.localizedDescription)"))
        }
        try await withQuietStore(.sqlite(path: copy.path)) { store in
            let version: Int?
            do {
                version = try await store.checkBackup()
            } catch let error as CinnError where error.field == "database" {
                version = nil
            }
            guard version != nil else { throw CinnError.invalid("file", "\(backup.path) is not a backup of a Cinn journal") }
            try await store.migrate()
        }
        try await withQuietStore(options.location) { store in try await store.migrate() }
        // A store of its own for the copy (see `Store.restore`).
        try await withQuietStore(options.location) { store in try await store.restore(from: copy) }
        print("Restored \(backup.path) into \(path).")
    }
}

/// Runs `body` on a store of `location` that logs nothing (the command prints its own errors), closing it after.
func withQuietStore(_ location: DatabaseLocation, _ body: (Store) async throws -> Void) async throws {
    var logger = Logger(label: "cinn.store")
    logger.logLevel = .critical
    let store: Store
    do {
        store = try Store(location, logger: logger)
    } catch {
        throw CommandError.from(error)
    }
    do {
        try await body(store)
        try await store.close()
    } catch {
        try? await store.close()
        throw CommandError.from(error)
    }
}
