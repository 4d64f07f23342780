@preconcurrency import AsyncKit
import Logging
import NIOCore
import Synchronization

/// The connections of a store: taken and given back under a lock, on the asking task's thread.
///
/// A page reads a dozen times, each on a connection taken and given back; through async-kit's event-loop pool each
/// of those is two hops to an event loop and back (a thread woken each way), which cost a daily page more than its
/// queries.
/// Here a free connection is taken in place; only a task that finds every connection busy waits, in arrival order,
/// for one to be given back, for at most `waitLimit` (a task that holds one connection and waits for another cannot
/// wait forever). Connections are opened when first needed, up to `maximum`, each on an event loop of `group`. The
/// errors are async-kit's, so a store tells them apart as before.
final class DirectConnectionPool<Source: ConnectionPoolSource>: Sendable where Source.Connection: Sendable {
    typealias Connection = Source.Connection

    private struct Waiter {
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Connection, any Error>
    }

    private struct State {
        var idle: [Connection] = []
        var opened = 0
        var waiters: [Waiter] = []
        /// Whether a task is looking for waits that have gone on too long (`sweep`).
        var sweeping = false
        var closed = false
    }

    private enum Taking {
        case use(Connection)
        case open
        case wait
    }

    private enum Releasing {
        case keep
        case hand(Waiter)
        case replace(Waiter)
        case close
    }

    private enum Waiting {
        case use(Connection)
        case open
        case closed
        case waiting(sweep: Bool)
    }

    /// Only read: PostgresKit's source is a configuration that does not say it is `Sendable`.
    nonisolated(unsafe) private let source: Source
    private let maximum: Int
    private let waitLimit: Duration
    private let group: any EventLoopGroup
    private let logger: Logger
    private let state = Mutex(State())

    init(source: Source, maximum: Int, waitLimit: Duration = .seconds(10), group: any EventLoopGroup, logger: Logger) {
        self.source = source
        self.maximum = maximum
        self.waitLimit = waitLimit
        self.group = group
        self.logger = logger
    }

    /// A connection for the caller alone until it gives it back (`release`).
    func take() async throws -> Connection {
        let next: Taking = try state.withLock { state in
            guard !state.closed else { throw ConnectionPoolError.shutdown }
            while let connection = state.idle.popLast() {
                if !connection.isClosed { return .use(connection) }
                state.opened -= 1
            }
            guard state.opened < maximum else { return .wait }
            state.opened += 1
            return .open
        }
        switch next {
        case .use(let connection):
            return connection
        case .open:
            do {
                return try await source.makeConnection(logger: logger, on: group.any()).get()
            } catch {
                state.withLock { $0.opened -= 1 }
                throw error
            }
        case .wait:
            return try await waitForRelease()
        }
    }

    /// Gives `connection` back: to the task waiting longest, else to the free ones (closed, after `close`).
    func release(_ connection: Connection) {
        let next: Releasing = state.withLock { state in
            if state.closed {
                state.opened -= 1
                return .close
            }
            if state.waiters.isEmpty {
                if connection.isClosed { state.opened -= 1 } else { state.idle.append(connection) }
                return .keep
            }
            let waiter = state.waiters.removeFirst()
            return connection.isClosed ? .replace(waiter) : .hand(waiter)
        }
        switch next {
        case .keep: break
        case .hand(let waiter): waiter.continuation.resume(returning: connection)
        case .close: if !connection.isClosed { _ = connection.close() }
        case .replace(let waiter):
            // The connection died in use: the task waiting gets a new one in its place.
            open(for: waiter.continuation)
        }
    }

    /// Closes the free connections and those given back from now on; a task still waiting gets an error.
    func close() async throws {
        let (idle, waiters) = state.withLock { state in
            state.closed = true
            defer {
                state.opened -= state.idle.count
                state.idle = []
                state.waiters = []
            }
            return (state.idle, state.waiters)
        }
        for waiter in waiters { waiter.continuation.resume(throwing: ConnectionPoolError.shutdown) }
        for connection in idle { try await connection.close().get() }
    }

    private func waitForRelease() async throws -> Connection {
        try await withCheckedThrowingContinuation { continuation in
            // Given back, closed or freed up between the first look and now: no need to wait.
            let early: Waiting = state.withLock { state in
                if state.closed { return .closed }
                while let connection = state.idle.popLast() {
                    if !connection.isClosed { return .use(connection) }
                    state.opened -= 1
                }
                if state.opened < maximum {
                    state.opened += 1
                    return .open
                }
                state.waiters.append(Waiter(deadline: .now + waitLimit, continuation: continuation))
                defer { state.sweeping = true }
                return .waiting(sweep: !state.sweeping)
            }
            switch early {
            case .use(let connection): continuation.resume(returning: connection)
            case .closed: continuation.resume(throwing: ConnectionPoolError.shutdown)
            case .open: open(for: continuation)
            case .waiting(let sweep): if sweep { Task { await self.sweep() } }
            }
        }
    }

    /// A new connection, counted in `opened` already, for a task waiting on `continuation`.
    private func open(for continuation: CheckedContinuation<Connection, any Error>) {
        source.makeConnection(logger: logger, on: group.any()).whenComplete { result in
            if case .failure = result { self.state.withLock { $0.opened -= 1 } }
            continuation.resume(with: result)
        }
    }

    /// While tasks wait, one task gives up those that have waited `waitLimit`. Not a timer per wait: a cancelled
    /// `Task.sleep` stays queued until its deadline, and under load most takes wait.
    private func sweep() async {
        let interval = min(.seconds(1), waitLimit / 4)
        while true {
            try? await Task.sleep(for: interval)
            let (expired, done): ([Waiter], Bool) = state.withLock { state in
                let now = ContinuousClock.now
                let expired = state.waiters.filter { $0.deadline <= now }
                if !expired.isEmpty { state.waiters.removeAll { $0.deadline <= now } }
                if state.waiters.isEmpty { state.sweeping = false }
                return (expired, state.waiters.isEmpty)
            }
            for waiter in expired { waiter.continuation.resume(throwing: ConnectionPoolTimeoutError.connectionRequestTimeout) }
            if done { return }
        }
    }
}
