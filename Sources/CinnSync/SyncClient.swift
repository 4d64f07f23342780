import CinnCore
import CinnStore
import Foundation

/// How a client reaches a sync server: push a batch of changes, pull a page of changes.
public protocol SyncTransport: Sendable {
    func push(_ changes: [SyncChange]) async throws -> [SyncResult]
    func changes(after cursor: String, limit: Int) async throws -> SyncPage
}

/// A transport failure: `retryable` ones (no connection, no answer, HTTP 5xx or 429) are tried again with
/// backoff; the others (HTTP 401, 403, a whole request refused) stop the sync and say why.
public struct SyncTransportError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var retryable: Bool

    public init(_ message: String, retryable: Bool) {
        self.message = message
        self.retryable = retryable
    }

    public var description: String { message }
}

/// What one sync did.
public struct SyncSummary: Sendable, Hashable {
    public var pushed = 0
    public var applied = 0
    public var merged = 0
    public var rejected = 0
    public var pulled = 0
    /// Attempts that failed and were tried again.
    public var retries = 0

    public init() {}
}

/// The reference sync client (docs/DESIGN.md "Sync", docs/sync.md): the local journal is the source of truth;
/// its writes are marked and pushed in batches, retried with backoff when the network fails (pushing twice
/// is harmless); a rejection is final, kept locally with its reason and not sent again until the record
/// changes; then every change on the server since the last sync is pulled.
public struct SyncClient: Sendable {
    public let store: Store
    public let user: UserID
    public let transport: any SyncTransport
    public var batchSize = 1000
    public var pageSize = 1000
    /// Tries of one request before the sync gives up (the changes stay marked for the next sync).
    public var attempts = 8
    /// The first wait between tries; it doubles up to `maximumDelay`.
    public var initialDelay: Duration = .milliseconds(100)
    public var maximumDelay: Duration = .seconds(5)

    public init(store: Store, user: UserID, transport: any SyncTransport) {
        self.store = store
        self.user = user
        self.transport = transport
    }

    /// Pushes every local change, then pulls every server change.
    @discardableResult
    public func sync() async throws -> SyncSummary {
        var summary = SyncSummary()
        try await push(into: &summary)
        try await pull(into: &summary)
        return summary
    }

    func push(into summary: inout SyncSummary) async throws {
        var waiting = try await store.pendingSyncCount()
        while waiting > 0 {
            let pending = try await store.pendingSyncChanges(user: user, limit: batchSize)
            if pending.isEmpty {
                // Every marked record of this batch had nothing left to send (and was unmarked): on to the next.
                let left = try await store.pendingSyncCount()
                if left >= waiting { return }
                waiting = left
                continue
            }
            let results = try await retrying(&summary) { try await transport.push(pending.map(\.change)) }
            guard results.count == pending.count else {
                throw SyncTransportError("the server answered \(results.count) of \(pending.count) changes", retryable: false)
            }
            try await store.acknowledgeSync(results, for: pending, user: user)
            summary.pushed += pending.count
            for result in results {
                switch result.status {
                case .applied: summary.applied += 1
                case .merged: summary.merged += 1
                case .rejected: summary.rejected += 1
                }
            }
            // A batch whose records were all edited again while it was pushed moved nothing: the next sync sends them.
            let left = try await store.pendingSyncCount()
            if left >= waiting { return }
            waiting = left
        }
    }

    func pull(into summary: inout SyncSummary) async throws {
        guard var cursor = try await store.syncCursor() else {
            throw CinnError(.invalidInput, "this journal is not a sync client yet; enable it with the server's address")
        }
        while true {
            let page = try await retrying(&summary) { try await transport.changes(after: cursor.description, limit: pageSize) }
            try await store.applyPulled(page, user: user)
            summary.pulled += page.changes.count
            guard page.more, let next = SyncCursor(page.next), next != cursor else { return }
            cursor = next
        }
    }

    private func retrying<T: Sendable>(_ summary: inout SyncSummary, _ body: () async throws -> T) async throws -> T {
        var delay = initialDelay
        for attempt in 1... {
            do {
                return try await body()
            } catch let error as SyncTransportError where error.retryable && attempt < attempts {
                summary.retries += 1
                try await Task.sleep(for: delay)
                delay = min(delay * 2, maximumDelay)
            }
        }
        fatalError("unreachable")
    }
}
