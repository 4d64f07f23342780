import CinnCore
import Foundation
import Testing

@testable import CinnStore

/// The databases every store test runs against: SQLite always, PostgreSQL when
/// `CINN_TEST_POSTGRES_URL` is set (set but unreachable is a failure, never a skip).
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    static var enabled: [Backend] {
        ProcessInfo.processInfo.environment["CINN_TEST_POSTGRES_URL", default: ""].isEmpty ? [.sqlite] : [.sqlite, .postgres]
    }

    var testDescription: String { rawValue }
}

/// A fresh, migrated database: a SQLite file in its own temp directory, or a PostgreSQL schema of its own.
struct TestDatabase {
    let store: Store
    let cleanup: @Sendable () async throws -> Void

    static func make(_ backend: Backend, now: @escaping @Sendable () -> Date = { fixedNow }) async throws -> TestDatabase {
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-store-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let store = try Store(.sqlite(path: directory.appendingPathComponent("journal.sqlite").path), now: now)
            try await store.migrate()
            return TestDatabase(store: store) {
                try await store.close()
                try? FileManager.default.removeItem(at: directory)
            }
        case .postgres:
            let url = try #require(ProcessInfo.processInfo.environment["CINN_TEST_POSTGRES_URL"])
            let schema = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
            let admin = try Store(.postgres(url: url))
            try await admin.withConnection { db in try await db.raw("CREATE SCHEMA \(unsafeRaw: String(schema))").run() }
            let store = try Store(.postgres(url: url), schema: String(schema), now: now)
            try await store.migrate()
            return TestDatabase(store: store) {
                try await store.close()
                try await admin.withConnection { db in try await db.raw("DROP SCHEMA \(unsafeRaw: String(schema)) CASCADE").run() }
                try await admin.close()
            }
        }
    }

    /// Runs `body` with a fresh database and removes it after, whatever happens.
    static func with(
        _ backend: Backend, now: @escaping @Sendable () -> Date = { fixedNow },
        _ body: (Store) async throws -> Void
    ) async throws {
        let database = try await make(backend, now: now)
        do {
            try await body(database.store)
        } catch {
            try await database.cleanup()
            throw error
        }
        try await database.cleanup()
    }
}

/// 2024-03-15T12:00:00Z, the tests' "now".
let fixedNow = Date(timeIntervalSince1970: 1_710_504_000)

func weighIn(_ kilograms: Double, at iso: String, note: String? = nil) -> WeighIn {
    let time = LocalDateTime(iso: iso)!.resolved(in: TimeZone(identifier: "UTC")!)
    return WeighIn(
        measuredAt: time.instant, utcOffsetSeconds: time.utcOffsetSeconds, weight: Mass(kilograms: kilograms),
        note: note)
}

func reading(_ kilograms: Double, at iso: String, key: String, line: Int = 1) -> ImportedWeighIn {
    let time = LocalDateTime(iso: iso)!.resolved(in: TimeZone(identifier: "UTC")!)
    return ImportedWeighIn(
        measuredAt: time.instant, utcOffsetSeconds: time.utcOffsetSeconds,
        weight: Mass(kilograms: kilograms), externalID: key, line: line)
}
