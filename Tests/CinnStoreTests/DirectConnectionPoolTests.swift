@preconcurrency import AsyncKit
import Foundation
import Logging
import NIOPosix
import SQLiteNIO
import Synchronization
import Testing

@testable import CinnStore

/// The connection pool (on SQLite): free connections taken in place, at most `maximum` open, waiters served in order, a
/// wait that cannot end given up, and nothing handed out once closed.
@Suite struct DirectConnectionPoolTests {
    func withPool(
        maximum: Int, waitLimit: Duration = .seconds(10), _ body: (DirectConnectionPool<SQLiteSource>) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-pool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pool = DirectConnectionPool(
            source: SQLiteSource(path: folder.appendingPathComponent("pool.sqlite").path), maximum: maximum, waitLimit: waitLimit,
            group: MultiThreadedEventLoopGroup.singleton, logger: Logger(label: "cinn.pool-test"))
        do {
            try await body(pool)
            try await pool.close()
        } catch {
            try? await pool.close()
            throw error
        }
    }

    @Test func aConnectionGivenBackIsTheNextOneTaken() async throws {
        try await withPool(maximum: 2) { pool in
            let first = try await pool.take()
            #expect(try await first.query("PRAGMA journal_mode").get().first?.column("journal_mode")?.string == "wal")
            pool.release(first)
            let again = try await pool.take()
            #expect(again === first)
            pool.release(again)
        }
    }

    @Test func noMoreThanTheMaximumAreOpenAndWaitersAreServedInOrder() async throws {
        try await withPool(maximum: 2) { pool in
            let a = try await pool.take(), b = try await pool.take()
            #expect(a !== b)
            let order = Served()
            let known = [ObjectIdentifier(a), ObjectIdentifier(b)]
            var waiters: [Task<Void, any Error>] = []
            for n in 1...3 {
                waiters.append(
                    Task {
                        let connection = try await pool.take()
                        order.list.withLock { $0.append(n) }
                        #expect(known.contains(ObjectIdentifier(connection)), "no third connection is opened")
                        try await Task.sleep(for: .milliseconds(20))
                        pool.release(connection)
                    })
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(order.list.withLock { $0 }.isEmpty, "every connection is busy: the waiters wait")
            pool.release(a)
            try await Task.sleep(for: .milliseconds(10))
            #expect(order.list.withLock { $0 } == [1], "the first to wait is the first served")
            pool.release(b)
            for waiter in waiters { try await waiter.value }
            #expect(order.list.withLock { $0 } == [1, 2, 3])
        }
    }

    @Test func aWaitThatCannotEndIsGivenUp() async throws {
        try await withPool(maximum: 1, waitLimit: .milliseconds(200)) { pool in
            let held = try await pool.take()
            // The task holding the only connection asks for a second one: without a limit it would wait for itself.
            await #expect(throws: ConnectionPoolTimeoutError.self) { _ = try await pool.take() }
            pool.release(held)
            pool.release(try await pool.take())
        }
    }

    @Test func nothingIsHandedOutOnceClosed() async throws {
        try await withPool(maximum: 1) { pool in
            let held = try await pool.take()
            let waiting = Task { try await pool.take() }
            try await Task.sleep(for: .milliseconds(100))
            try await pool.close()
            await #expect(throws: ConnectionPoolError.self) { _ = try await waiting.value }
            await #expect(throws: ConnectionPoolError.self) { _ = try await pool.take() }
            pool.release(held)
            // The close runs on the database's own threads: on a busy machine it can take a while to finish.
            for _ in 0..<100 where !held.isClosed { try await Task.sleep(for: .milliseconds(50)) }
            #expect(held.isClosed, "a connection given back after the pool closed is closed")
        }
    }
}

/// Which waiters got a connection, in the order they got it.
private final class Served: Sendable {
    let list = Mutex<[Int]>([])
}
