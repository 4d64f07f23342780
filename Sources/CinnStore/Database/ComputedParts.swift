import CinnCore
import Foundation
import Metrics
import SQLKit
import Synchronization

/// Results computed from a person's journal, kept while the journal is unchanged. Each is kept with the person's
/// change counter (`users.last_version`, which every write of the journal's records raises in its own transaction):
/// a read first reads the counter, and a result kept at another count is computed again. So a write anywhere — by
/// this process or another instance on the same database — makes the next read compute afresh, and a result is
/// never served for a journal that changed since. Bounded: the `capacity` most recently used results. Hits and misses
/// are counted (`/metrics`: `cinn_computed_parts_total{part, result}`).
final class ComputedParts: Sendable {
    struct Key: Hashable {
        let user: Int64
        let part: String
        let parameters: String
    }

    private struct Entry {
        let version: Int64
        let value: any Sendable
        var used: UInt64
    }

    private struct Table {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
    }

    let capacity: Int
    private let table = Mutex(Table())

    init(capacity: Int) { self.capacity = capacity }

    /// The value kept for `key` at `version`, if any.
    func value(_ key: Key, version: Int64) -> (any Sendable)? {
        table.withLock { table in
            guard var entry = table.entries[key], entry.version == version else { return nil }
            table.clock += 1
            entry.used = table.clock
            table.entries[key] = entry
            return entry.value
        }
    }

    /// Keeps `value` for `key` at `version`, forgetting the least recently used result when full.
    func keep(_ value: any Sendable, for key: Key, version: Int64) {
        table.withLock { table in
            table.clock += 1
            if table.entries[key] == nil, table.entries.count >= capacity,
                let oldest = table.entries.min(by: { $0.value.used < $1.value.used })?.key
            {
                table.entries[oldest] = nil
            }
            table.entries[key] = Entry(version: version, value: value, used: table.clock)
        }
    }
}

extension Store {
    /// The user's change counter: raised by every write of their journal's records.
    public func changeCounter(user: UserID) async throws -> Int64 {
        try await withConnection { db in
            guard
                let row = try await db.raw("SELECT last_version FROM users WHERE row_id = \(bind: user.rawValue)").first()
            else { throw CinnError.notFound("no such user") }
            return try row.decode(column: "last_version", as: Int64.self)
        }
    }

    /// `compute`'s result for this user's journal as it is now: kept from an earlier read while the journal has not
    /// changed (`ComputedParts`), else computed and kept. `part` names what it is, `parameters` everything else it
    /// depends on (its days, the settings it reads); what depends on the clock must not be kept this way.
    public func computed<T: Sendable>(
        _ part: String, user: UserID, parameters: String, _ compute: () async throws -> T
    ) async throws -> T {
        let key = ComputedParts.Key(user: user.rawValue, part: part, parameters: parameters)
        let version = try await changeCounter(user: user)
        if let kept = computedParts.value(key, version: version) as? T {
            Counter(label: "cinn_computed_parts_total", dimensions: [("part", part), ("result", "hit")]).increment()
            return kept
        }
        Counter(label: "cinn_computed_parts_total", dimensions: [("part", part), ("result", "miss")]).increment()
        let value = try await compute()
        computedParts.keep(value, for: key, version: version)
        return value
    }
}
