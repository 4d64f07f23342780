import CinnCore
import Foundation
import SQLKit

/// A local change waiting to be pushed, with what it was computed from, so the server's answer can be
/// applied without losing an edit made while the push was under way.
public struct PendingSyncChange: Sendable {
    public var change: SyncChange
    let version: Int64
    let fields: SyncFields
}

/// A change the server rejected, kept locally until it is edited again.
public struct RejectedSyncChange: Sendable, Hashable {
    public var type: String
    public var id: UUID
    public var reason: String
    public var field: String?
}

/// The client side of sync on a local SQLite journal (CinnSync): writes made here are marked in
/// `sync_outbox` by triggers; the server's copy of each record as last seen is kept in `sync_base`, and a
/// change is what differs from it. Records the server sends are written with `sync_client.applying` set, so
/// they are not marked.
extension Store {
    /// Makes this journal a client of `server`: marks every record for the first push and starts pulling
    /// from the beginning. A journal already syncing with `server` is left as it is; one syncing with
    /// another server starts over with this one.
    public func enableSyncClient(server: String) async throws {
        guard isSQLite else { throw CinnError(.invalidInput, "a sync client keeps its journal in SQLite", field: "database") }
        try await transaction { db in
            if let row = try await db.raw("SELECT server FROM sync_client").first(),
                try row.decode(column: "server", as: String.self) == server
            {
                // A journal that became a client before more types synced: their records go up now.
                for type in SyncTable.all
                where try await db.raw(
                    """
                    SELECT 1 AS found FROM sqlite_master WHERE type = 'trigger' AND name = \(bind: "sync_\(type.table)_insert")
                    """
                ).first() == nil {
                    try await markChanges(db, of: type)
                }
                return
            }
            try await db.raw("DELETE FROM sync_client").run()
            try await db.raw("DELETE FROM sync_base").run()
            try await db.raw("DELETE FROM sync_outbox").run()
            try await db.raw(
                "INSERT INTO sync_client (one, server, cursor) VALUES (1, \(bind: server), \(bind: SyncCursor.start.description))"
            ).run()
            for type in SyncTable.all { try await markChanges(db, of: type) }
        }
    }

    /// Marks every live record of `type` of a user (not the shared food database) for the next push, and
    /// every later write to one by a trigger.
    private func markChanges(_ db: any SQLDatabase, of type: SyncTable) async throws {
        for event in ["INSERT", "UPDATE"] {
            try await db.raw(
                """
                CREATE TRIGGER IF NOT EXISTS sync_\(unsafeRaw: type.table)_\(unsafeRaw: event.lowercased()) AFTER \(unsafeRaw: event)
                ON \(unsafeRaw: type.table) WHEN new.user_id IS NOT NULL AND coalesce((SELECT applying FROM sync_client), 0) = 0 BEGIN
                    INSERT INTO sync_outbox (type, id) VALUES ('\(unsafeRaw: type.name)', new.id)
                    ON CONFLICT (type, id) DO UPDATE SET rejected_reason = NULL, rejected_field = NULL;
                END
                """
            ).run()
        }
        try await db.raw(
            """
            INSERT INTO sync_outbox (type, id) SELECT '\(unsafeRaw: type.name)', id FROM \(unsafeRaw: type.table)
            WHERE deleted = 0 AND user_id IS NOT NULL ON CONFLICT (type, id) DO NOTHING
            """
        ).run()
    }

    /// Where pulling stands, nil when this journal is not a sync client.
    public func syncCursor() async throws -> SyncCursor? {
        try await withConnection { db in
            guard let row = try await db.raw("SELECT cursor FROM sync_client").first() else { return nil }
            return SyncCursor(try row.decode(column: "cursor", as: String.self))
        }
    }

    /// How many local changes wait to be pushed (rejected ones not counted).
    public func pendingSyncCount() async throws -> Int {
        try await withConnection { db in
            try await db.raw("SELECT count(*) AS n FROM sync_outbox WHERE rejected_reason IS NULL").first()?.decode(
                column: "n", as: Int.self) ?? 0
        }
    }

    /// Local changes the server rejected, with its reasons.
    public func rejectedSyncChanges() async throws -> [RejectedSyncChange] {
        try await withConnection { db in
            try await db.raw(
                "SELECT type, id, rejected_reason, rejected_field FROM sync_outbox WHERE rejected_reason IS NOT NULL ORDER BY type"
            ).all()
                .map { row in
                    RejectedSyncChange(
                        type: try row.decode(column: "type", as: String.self), id: try decodeUUID(row, "id"),
                        reason: try row.decode(column: "rejected_reason", as: String.self),
                        field: try row.decode(column: "rejected_field", as: String?.self))
                }
        }
    }

    /// Up to `limit` local changes to push: each marked record's fields that differ from the server's copy,
    /// the fields emptied as `clear`, or its deletion. Records with nothing left to send are unmarked.
    public func pendingSyncChanges(user: UserID, limit: Int = 1000) async throws -> [PendingSyncChange] {
        try await rawTransaction { connection in
            let db = connection.sql
            let marked = try await db.raw(
                """
                SELECT type, id FROM sync_outbox WHERE rejected_reason IS NULL ORDER BY type, id LIMIT \(bind: limit)
                """
            ).all().map { (try $0.decode(column: "type", as: String.self), try decodeUUID($0, "id")) }
            var pending: [PendingSyncChange] = []
            var unchanged: [(String, UUID)] = []
            for type in SyncTable.all {
                let ids = marked.filter { $0.0 == type.name }.map(\.1)
                guard !ids.isEmpty else { continue }
                let records = try await syncRecords(connection, type: type, ids: ids, user: user)
                let bases = try await syncBases(db, type: type.name, ids: ids)
                for id in ids {
                    guard let record = records[id] else {
                        unchanged.append((type.name, id))
                        continue
                    }
                    let base = bases[id]
                    var change = SyncChange(type: type.name, id: id, changedAt: date(milliseconds: record.updatedAt))
                    if record.deleted {
                        change.deleted = true
                        if base == nil { change.fields = record.fields.filter { !$0.value.isNull } }
                    } else {
                        for (name, value) in record.fields where value != (base?[name] ?? .null) {
                            if value.isNull || value == .array([]) {
                                if let old = base?[name], !old.isNull, old != .array([]) { change.clear.append(name) }
                            } else {
                                change.fields[name] = value
                            }
                        }
                        change.clear.sort()
                    }
                    if change.fields.isEmpty && change.clear.isEmpty && !change.deleted {
                        unchanged.append((type.name, id))
                    } else {
                        pending.append(PendingSyncChange(change: change, version: record.version, fields: record.fields))
                    }
                }
            }
            for (type, id) in unchanged {
                try await db.raw("DELETE FROM sync_outbox WHERE type = \(bind: type) AND id = \(bind: bind(id))").run()
            }
            return pending
        }
    }

    /// Applies the server's answers to pushed changes: the stored record becomes the local one and the
    /// server's copy, unless the record was edited locally meanwhile (then only the fields that edit left
    /// alone take the server's values, and it stays marked). A rejection is kept with its reason.
    public func acknowledgeSync(_ results: [SyncResult], for pending: [PendingSyncChange], user: UserID) async throws {
        let sent = Dictionary(pending.map { ($0.change.id, $0) }) { $1 }
        try await applying { connection in
            let db = connection.sql
            for type in SyncTable.all {
                let mine = results.filter { $0.type == type.name && sent[$0.id] != nil }
                guard !mine.isEmpty else { continue }
                let records = try await syncRecords(connection, type: type, ids: mine.map(\.id), user: user)
                var writes: [SyncMerge.Record] = []
                for result in mine {
                    guard let was = sent[result.id] else { continue }
                    let local = records[result.id]
                    let untouched = local?.version == was.version
                    switch result.status {
                    case .rejected:
                        if untouched {
                            try await db.raw(
                                """
                                UPDATE sync_outbox SET rejected_reason = \(bind: result.reason ?? "rejected"), rejected_field = \(bind: result.field)
                                WHERE type = \(bind: type.name) AND id = \(bind: bind(result.id))
                                """
                            ).run()
                        }
                    case .applied, .merged:
                        let server = result.record
                        if let server { try await setSyncBase(db, type: type.name, id: result.id, fields: server) }
                        var fields = local?.fields ?? server ?? [:]
                        if let server {
                            for (name, value) in server where untouched || local?.fields[name] == was.fields[name] { fields[name] = value }
                        }
                        let deleted = result.deleted || (local?.deleted ?? false)
                        if untouched || deleted {
                            try await db.raw("DELETE FROM sync_outbox WHERE type = \(bind: type.name) AND id = \(bind: bind(result.id))")
                                .run()
                        }
                        if deleted && local == nil { continue }
                        if fields != local?.fields || deleted != local?.deleted {
                            writes.append(
                                SyncMerge.Record(
                                    id: result.id, exists: local != nil, deleted: deleted, fields: fields, fieldTimes: [:],
                                    changed: true, childrenChanged: true))
                        }
                    }
                }
                try await writeLocal(connection, type: type, records: writes, user: user)
            }
        }
    }

    /// Writes a page of pulled records and moves the cursor past it. A record with local changes not yet
    /// pushed keeps them: only the fields it did not change take the server's values.
    public func applyPulled(_ page: SyncPage, user: UserID) async throws {
        try await applying { connection in
            let db = connection.sql
            for type in SyncTable.all {
                let mine = page.changes.filter { $0.type == type.name }
                guard !mine.isEmpty else { continue }
                let ids = mine.map(\.id)
                let records = try await syncRecords(connection, type: type, ids: ids, user: user)
                let bases = try await syncBases(db, type: type.name, ids: ids)
                let dirty = Set(
                    try await db.raw(
                        """
                        SELECT id FROM sync_outbox WHERE type = \(bind: type.name) AND id IN (\(binds: ids.map { bind($0) }))
                        """
                    ).all().map { try decodeUUID($0, "id") })
                var writes: [UUID: SyncMerge.Record] = [:]
                for pulled in mine {
                    let local = records[pulled.id]
                    if let server = pulled.fields { try await setSyncBase(db, type: type.name, id: pulled.id, fields: server) }
                    if pulled.deleted {
                        try await db.raw("DELETE FROM sync_outbox WHERE type = \(bind: type.name) AND id = \(bind: bind(pulled.id))").run()
                    }
                    var fields = local?.fields ?? pulled.fields ?? [:]
                    if let server = pulled.fields {
                        for (name, value) in server where !dirty.contains(pulled.id) || local?.fields[name] == bases[pulled.id]?[name] {
                            fields[name] = value
                        }
                    }
                    let deleted = pulled.deleted || (local?.deleted ?? false)
                    if local == nil && (pulled.fields == nil || fields.isEmpty) { continue }
                    if fields != local?.fields || deleted != local?.deleted {
                        writes[pulled.id] = SyncMerge.Record(
                            id: pulled.id, exists: local != nil, deleted: deleted, fields: fields, fieldTimes: [:],
                            changed: true, childrenChanged: true)
                    }
                }
                try await yieldUniqueValues(db, type: type, to: Array(writes.values), user: user)
                try await writeLocal(connection, type: type, records: Array(writes.values), user: user)
            }
            try await db.raw("UPDATE sync_client SET cursor = \(bind: page.next)").run()
        }
    }

    /// Makes room for the server's records where a local record not yet accepted holds the same unique value:
    /// a local meal of the same name is renamed ("Porridge (2)") and sent again; a local status of the same
    /// day gives way to the server's.
    private func yieldUniqueValues(_ db: any SQLDatabase, type: SyncTable, to records: [SyncMerge.Record], user: UserID) async throws {
        if type.isSingleton {
            // The account's settings are the server's: local ones made before the first sync give way.
            for record in records {
                for holder in try await db.raw(
                    """
                    SELECT id FROM \(unsafeRaw: type.table) WHERE user_id = \(bind: user.rawValue) AND id <> \(bind: bind(record.id))
                    """
                ).all().map({ try decodeUUID($0, "id") }) {
                    try await dropLocal(db, type: type, id: holder)
                }
            }
            return
        }
        guard let unique = type.uniqueField, let field = type.field(named: unique) else { return }
        for record in records where !record.deleted {
            guard let value = record.fields[unique], !value.isNull, let bound = field.columnValues(value).first.map(bindValue) else {
                continue
            }
            let holders = try await db.raw(
                """
                SELECT id FROM \(unsafeRaw: type.table) WHERE user_id = \(bind: user.rawValue) AND \(unsafeRaw: field.column) = \(bind: bound)
                AND id <> \(bind: bind(record.id))
                """
            ).all().map { try decodeUUID($0, "id") }
            for holder in holders {
                if type.name == "food_day" {
                    try await dropLocal(db, type: type, id: holder)
                    continue
                }
                let name = value.string ?? ""
                var free = name
                for number in 2... {
                    free = "\(name) (\(number))"
                    if try await db.raw(
                        """
                        SELECT 1 AS taken FROM \(unsafeRaw: type.table) WHERE user_id = \(bind: user.rawValue)
                        AND \(unsafeRaw: field.column) = \(bind: free) AND deleted = 0
                        """
                    ).first() == nil {
                        break
                    }
                }
                let version = try await reserveVersions(db, user: user)
                try await db.raw(
                    """
                    UPDATE \(unsafeRaw: type.table) SET \(unsafeRaw: field.column) = \(bind: free), version = \(bind: version),
                    updated_at_ms = \(bind: milliseconds(now())) WHERE id = \(bind: bind(holder))
                    """
                ).run()
                try await db.raw(
                    """
                    INSERT INTO sync_outbox (type, id) VALUES (\(bind: type.name), \(bind: bind(holder)))
                    ON CONFLICT (type, id) DO UPDATE SET rejected_reason = NULL, rejected_field = NULL
                    """
                ).run()
            }
        }
    }

    /// Removes a local record the server's copy replaces, with its marks.
    private func dropLocal(_ db: any SQLDatabase, type: SyncTable, id: UUID) async throws {
        try await db.raw("DELETE FROM \(unsafeRaw: type.table) WHERE id = \(bind: bind(id))").run()
        try await db.raw("DELETE FROM sync_outbox WHERE type = \(bind: type.name) AND id = \(bind: bind(id))").run()
        try await db.raw("DELETE FROM sync_base WHERE type = \(bind: type.name) AND id = \(bind: bind(id))").run()
    }

    /// Runs `body` in a transaction during which the outbox triggers stand still.
    private func applying(_ body: (Connection) async throws -> Void) async throws {
        try await rawTransaction { connection in
            try await connection.sql.raw("UPDATE sync_client SET applying = 1").run()
            try await body(connection)
            try await connection.sql.raw("UPDATE sync_client SET applying = 0").run()
        }
    }

    private func writeLocal(_ connection: Connection, type: SyncTable, records: [SyncMerge.Record], user: UserID) async throws {
        guard !records.isEmpty else { return }
        let db = connection.sql
        var references: [UUID: Int64] = [:]
        for field in type.fields {
            guard case .reference(let target) = field.kind, let targetType = SyncTable.byName[target] else { continue }
            let ids = Set(records.compactMap { $0.fields[field.name]?.string.flatMap(UUID.init(text:)) })
            references.merge(try await syncRowIDs(db, table: targetType.table, ids: Array(ids), user: user)) { $1 }
        }
        let version = try await reserveVersions(db, user: user)
        _ = try await writeSyncRecords(
            connection, type: type, records: records, references: references, user: user, version: version,
            source: "sync", keepTimes: false)
    }

    private func syncBases(_ db: any SQLDatabase, type: String, ids: [UUID]) async throws -> [UUID: SyncFields] {
        var bases: [UUID: SyncFields] = [:]
        for chunk in ids.chunks(of: Self.insertChunkRows) {
            let binds = chunk.map { bind($0) }
            for row in try await db.raw("SELECT id, fields FROM sync_base WHERE type = \(bind: type) AND id IN (\(binds: binds))").all() {
                let text = try row.decode(column: "fields", as: String.self)
                bases[try decodeUUID(row, "id")] = try JSONDecoder().decode(SyncFields.self, from: Data(text.utf8))
            }
        }
        return bases
    }

    private func setSyncBase(_ db: any SQLDatabase, type: String, id: UUID, fields: SyncFields) async throws {
        try await db.raw(
            """
            INSERT INTO sync_base (type, id, fields) VALUES (\(bind: type), \(bind: bind(id)), \(bind: JSONValue.object(fields).text))
            ON CONFLICT (type, id) DO UPDATE SET fields = excluded.fields
            """
        ).run()
    }
}
