import CinnCore
import Foundation
import SQLKit

/// A synced record as stored: its fields by protocol name (nulls included) and what merging needs.
struct StoredSyncRecord: Sendable {
    var rowID: Int64
    var id: UUID
    var userID: Int64
    var version: Int64
    var deleted: Bool
    var fields: SyncFields
    /// When each field was last set: by the sync change that set it, or, for a record the app wrote last,
    /// when the app saved it (an edit in the app counts for every field). A field without a time was never set.
    var fieldTimes: [String: Int64]
    var updatedAt: Int64
}

/// Where a pull stands: after the record of `typeIndex` and `rowID` within `version` (`0.0.0` is the start).
public struct SyncCursor: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var version: Int64
    public var typeIndex: Int
    public var rowID: Int64

    public static let start = SyncCursor(version: 0, typeIndex: 0, rowID: 0)

    public init(version: Int64, typeIndex: Int, rowID: Int64) {
        self.version = version
        self.typeIndex = typeIndex
        self.rowID = rowID
    }

    /// Reads `12.3.456`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let version = Int64(parts[0]), let typeIndex = Int(parts[1]), let rowID = Int64(parts[2]),
            version >= 0, typeIndex >= 0, rowID >= 0
        else { return nil }
        self.init(version: version, typeIndex: typeIndex, rowID: rowID)
    }

    public var description: String { "\(version).\(typeIndex).\(rowID)" }

    public static func < (a: SyncCursor, b: SyncCursor) -> Bool {
        (a.version, a.typeIndex, a.rowID) < (b.version, b.typeIndex, b.rowID)
    }
}

extension Store {
    /// The record types that sync, in the order a push applies them.
    public static var syncTypeNames: [String] { SyncType.all.map(\.name) }

    /// The protocol fields of a record type (children last), for documentation and clients.
    public static func syncFieldNames(of type: String) -> [String] {
        SyncType.byName[type]?.fieldNames ?? []
    }

    // MARK: Push

    /// Applies a client's changes to the user's journal in one transaction and says what became of each
    /// (docs/DESIGN.md "Sync", docs/sync.md). Pushing the same changes again changes nothing.
    /// - Parameter source: what new records are marked as coming from (`sync`).
    public func push(_ changes: [SyncChange], user: UserID, source: String = "sync") async throws -> [SyncResult] {
        guard !changes.isEmpty else { return [] }
        return try await rawTransaction { connection in
            let db = connection.sql
            // A user's pushes one at a time, each reading what the one before wrote (SQLite's write transactions
            // are one at a time already).
            if !isSQLite { try await db.raw("SELECT row_id FROM users WHERE row_id = \(bind: user.rawValue) FOR UPDATE").run() }
            var results = [SyncResult?](repeating: nil, count: changes.count)
            var positions: [String: [Int]] = [:]
            for (position, change) in changes.enumerated() {
                if SyncType.byName[change.type] == nil {
                    results[position] = SyncResult(
                        type: change.type, id: change.id, status: .rejected,
                        reason: "unknown record type \"\(change.type)\"", field: "type")
                } else {
                    positions[change.type, default: []].append(position)
                }
            }
            var version: Int64?
            var rowIDs: [String: [UUID: Int64]] = [:]
            for type in SyncTable.all {
                guard let mine = positions[type.name] else { continue }
                var (merge, references) = try await syncMerge(
                    connection, type: type, changes: mine.map { changes[$0] }, known: rowIDs, user: user)
                for position in mine { results[position] = merge.apply(changes[position]) }
                let dirty = merge.changedRecords
                if !dirty.isEmpty {
                    if version == nil { version = try await reserveVersions(db, user: user) }
                    let written = try await writeSyncRecords(
                        connection, type: type, records: dirty, references: references, user: user,
                        version: version!, source: source)
                    rowIDs[type.name, default: [:]].merge(written) { $1 }
                    try await mapOntoFoodLog(db, type: type, ids: Array(written.keys), user: user)
                }
            }
            return results.map { $0! }
        }
    }

    /// One meal log: a client's everyday meals are presets, and their events are those presets in the food log.
    private func mapOntoFoodLog(_ db: any SQLDatabase, type: SyncTable, ids: [UUID], user: UserID) async throws {
        switch type.name {
        case "meal":
            for chunk in ids.chunks(of: Self.insertChunkRows) {
                try await mapMealsToPresets(db, user: user, condition: "m.id IN (\(binds: chunk.map { bind($0) }))")
            }
        case "meal_event":
            try await logMealEventsToFoodLog(db, user: user, ids: ids)
        default:
            break
        }
    }

    /// Writes whole records (upserts by id), their children, and returns their row ids.
    /// - Parameter references: the row ids of the records the records' references name.
    func writeSyncRecords(
        _ connection: Connection, type: SyncTable, records: [SyncMerge.Record], references: [UUID: Int64], user: UserID,
        version: Int64, source: String, keepTimes: Bool = true
    ) async throws -> [UUID: Int64] {
        let db = connection.sql
        let time = milliseconds(now())
        // The exercises and days a workout had before this write: its sets there may be gone or moved.
        let before = type.refreshesExerciseDays ? try await exerciseDaysOf(connection, type: type, ids: records.map(\.id)) : nil
        let sourceValue: String? =
            switch type.source {
            case .given: source
            case .fixed(let value): value
            case .none: nil
            }
        let fieldColumns = type.fields.flatMap(\.columns)
        let columns =
            ["id", "user_id"] + fieldColumns + type.derivedColumns + (sourceValue == nil ? [] : ["source"])
            + ["created_at_ms", "updated_at_ms", "version", "deleted", "sync_times", "sync_version"]
        let updated = fieldColumns + type.derivedColumns + ["updated_at_ms", "version", "deleted", "sync_times", "sync_version"]
        var rowIDs: [UUID: Int64] = [:]
        for chunk in records.chunks(of: Self.insertChunkRows) {
            let insert = db.insert(into: SQLIdentifier(type.table)).columns(columns)
            for record in chunk {
                var values: [any Encodable & Sendable] = [bind(record.id), user.rawValue]
                for field in type.fields {
                    let value = record.fields[field.name] ?? .null
                    if case .reference = field.kind {
                        values.append(value.string.flatMap(UUID.init(text:)).flatMap { references[$0] })
                    } else {
                        values.append(contentsOf: field.columnValues(value).map(bindValue))
                    }
                }
                values.append(contentsOf: type.derive(record.fields).map(bindValue))
                if let sourceValue { values.append(sourceValue) }
                values.append(contentsOf: [time, time, version, record.deleted ? 1 : 0] as [any Encodable & Sendable])
                values.append(keepTimes ? JSONValue.object(record.fieldTimes.mapValues { .number(Double($0)) }).text : String?.none)
                values.append(keepTimes ? version : Int64?.none)
                insert.values(values)
            }
            insert.onConflict(with: ["id"]) { update in
                updated.reduce(update) { $0.set(excludedValueOf: $1) }
            }
            for row in try await insert.returning(type.rowColumn, "id").all() {
                rowIDs[try decodeUUID(row, "id")] = try row.decode(column: type.rowColumn, as: Int64.self)
            }
        }
        if let children = type.children {
            let rewritten = records.filter(\.childrenChanged).compactMap { record in rowIDs[record.id].map { ($0, record) } }
            for chunk in rewritten.chunks(of: Self.insertChunkRows) {
                try await db.delete(from: SQLIdentifier(children.table))
                    .where(SQLIdentifier(children.parentColumn), .in, chunk.map { $0.0 }).run()
            }
            // Exercises by name: the user's exercise of each name's key, made when there is none.
            var exercises: [String: Int64] = [:]
            for field in children.fields {
                guard case .exercise = field.kind else { continue }
                for (_, record) in rewritten {
                    guard case .array(let items) = record.fields[children.name] ?? .null else { continue }
                    for case .object(let members) in items {
                        guard let name = members[field.name]?.string, exercises[name] == nil else { continue }
                        exercises[name] = try await exerciseRow(db, user: user, name: name, createdAt: time)
                    }
                }
            }
            let childColumns = [children.parentColumn, "position"] + children.fields.flatMap(\.columns)
            var rows: [[any Encodable & Sendable]] = []
            for (rowID, record) in rewritten {
                guard case .array(let items) = record.fields[children.name] ?? .null else { continue }
                for (position, item) in items.enumerated() {
                    guard case .object(let members) = item else { continue }
                    rows.append(
                        [rowID, position]
                            + children.fields.flatMap { field -> [any Encodable & Sendable] in
                                let value = members[field.name] ?? .null
                                if case .exercise = field.kind { return [value.string.flatMap { exercises[$0] }] }
                                return field.columnValues(value).map(bindValue)
                            })
                }
            }
            try await insertRows(db, into: children.table, columns: childColumns, rows)
        }
        if let before {
            let after = try await exerciseDaysOf(connection, type: type, ids: records.map(\.id))
            let days = before.days.union(after.days)
            if let first = days.min(), let last = days.max() {
                try await refreshExerciseDays(
                    connection, user: user, exercises: Array(before.exercises.union(after.exercises)), days: first...last)
            }
        }
        return rowIDs
    }

    /// The exercises of the sets of these records (workouts) and the days they fall on.
    private func exerciseDaysOf(_ connection: Connection, type: SyncTable, ids: [UUID]) async throws -> (
        exercises: Set<Int64>, days: Set<Int>
    ) {
        var exercises: Set<Int64> = [], days: Set<Int> = []
        for chunk in ids.chunks(of: Self.insertChunkRows) {
            let binds = chunk.map { bind($0) }
            for row in try await connection.sql.raw(
                """
                SELECT w.local_day, s.exercise_id FROM \(unsafeRaw: type.table) w JOIN workout_sets s ON s.workout_id = w.row_id
                WHERE w.id IN (\(binds: binds))
                """
            ).all() {
                days.insert(try row.decode(column: "local_day", as: Int.self))
                exercises.insert(try row.decode(column: "exercise_id", as: Int64.self))
            }
        }
        return (exercises, days)
    }

    func bindValue(_ value: SyncColumnValue) -> any Encodable & Sendable {
        switch value {
        case .integer(let value): value
        case .real(let value): value
        case .text(let value): value
        case .uuid(let value): bind(value)
        }
    }

    // MARK: Reading records

    /// The user's records of `type` that meet `condition` (on table alias `t`), with their children.
    func syncRecords(
        _ connection: Connection, type: SyncTable, condition: SQLQueryString, order: String = "", limit: Int? = nil,
        withTimes: Bool = false
    ) async throws
        -> [StoredSyncRecord]
    {
        var selects = [
            "t.\(type.rowColumn)", "t.id", "t.user_id", "t.version", "t.deleted", "t.updated_at_ms", withTimes ? "t.sync_times" : "NULL",
            "t.sync_version",
        ]
        for field in type.fields {
            switch field.kind {
            case .instant: selects += ["t.\(field.column)", "t.\(SyncColumn.offsetColumn)"]
            case .reference(let target):
                let table = SyncTable.byName[target]?.table ?? target
                selects.append("(SELECT r.id FROM \(table) r WHERE r.row_id = t.\(field.column)) AS \(field.column)")
            default: selects.append("t.\(field.column)")
            }
        }
        var query: SQLQueryString = "SELECT \(unsafeRaw: selects.joined(separator: ", ")) FROM \(unsafeRaw: type.table) t WHERE "
        query += condition
        if !order.isEmpty { query += " ORDER BY \(unsafeRaw: order)" }
        if let limit { query += " LIMIT \(bind: limit)" }
        var records = try await columnRows(connection, query) { row in try decodeSyncRecord(row, type: type, withTimes: withTimes) }
        if let children = type.children, !records.isEmpty {
            var items: [Int64: [JSONValue]] = [:]
            for chunk in records.chunks(of: Self.insertChunkRows) {
                let ids = chunk.map(\.rowID)
                let columns =
                    [children.parentColumn]
                    + children.fields.map { field in
                        if case .exercise = field.kind {
                            return "(SELECT e.name FROM exercises e WHERE e.row_id = c.\(field.column)) AS \(field.column)"
                        }
                        return "c.\(field.column)"
                    }
                let rows = try await connection.sql.raw(
                    """
                    SELECT \(unsafeRaw: columns.joined(separator: ", ")) FROM \(unsafeRaw: children.table) c
                    WHERE c.\(unsafeRaw: children.parentColumn) IN (\(binds: ids)) ORDER BY c.\(unsafeRaw: children.parentColumn), c.position
                    """
                ).all()
                for row in rows {
                    var members: SyncFields = [:]
                    for field in children.fields { members[field.name] = try decodeSyncField(row, field) }
                    items[try row.decode(column: children.parentColumn, as: Int64.self), default: []].append(.object(members))
                }
            }
            for index in records.indices { records[index].fields[children.name] = .array(items[records[index].rowID] ?? []) }
        }
        return records
    }

    /// The user's records of `type` with these ids.
    func syncRecords(_ connection: Connection, type: SyncTable, ids: [UUID], user: UserID) async throws -> [UUID: StoredSyncRecord] {
        var records: [UUID: StoredSyncRecord] = [:]
        for chunk in ids.chunks(of: Self.insertChunkRows) {
            let binds = chunk.map { bind($0) }
            for record in try await syncRecords(
                connection, type: type, condition: "t.user_id = \(bind: user.rawValue) AND t.id IN (\(binds: binds))")
            {
                records[record.id] = record
            }
        }
        return records
    }

    /// The row ids of the user's records of `table` with these ids.
    func syncRowIDs(_ db: any SQLDatabase, table: String, ids: [UUID], user: UserID) async throws -> [UUID: Int64] {
        var rows: [UUID: Int64] = [:]
        for chunk in ids.chunks(of: Self.insertChunkRows) {
            let binds = chunk.map { bind($0) }
            for row in try await db.raw(
                """
                SELECT row_id, id FROM \(unsafeRaw: table) WHERE user_id = \(bind: user.rawValue) AND id IN (\(binds: binds))
                """
            ).all() {
                rows[try decodeUUID(row, "id")] = try row.decode(column: "row_id", as: Int64.self)
            }
        }
        return rows
    }

    /// Which of these foods belong to a user other than `user` (the shared database's belong to nobody).
    func foodsOfOtherUsers(_ db: any SQLDatabase, ids: [UUID], user: UserID) async throws -> Set<UUID> {
        var foreign: Set<UUID> = []
        for chunk in ids.chunks(of: Self.insertChunkRows) {
            let binds = chunk.map { bind($0) }
            for row in try await db.raw(
                """
                SELECT id FROM foods WHERE user_id IS NOT NULL AND user_id <> \(bind: user.rawValue) AND id IN (\(binds: binds))
                """
            ).all() {
                foreign.insert(try decodeUUID(row, "id"))
            }
        }
        return foreign
    }

    /// A row of `syncRecords`, read by column position in the order it selects them; the field times only
    /// when `withTimes` (merging needs them, pulling does not).
    private func decodeSyncRecord(_ row: some ColumnReader, type: SyncTable, withTimes: Bool) throws -> StoredSyncRecord {
        // A shared food has no user: 0, nobody's.
        guard let rowID = try row.integer(0), let id = try row.uuid(1), let version = try row.integer(3), let deleted = try row.integer(4),
            let updatedAt = try row.integer(5)
        else { throw CinnError(.internal, "a stored \(type.name) is damaged") }
        let userID = try row.integer(2) ?? 0
        var fields: SyncFields = [:]
        fields.reserveCapacity(type.fields.count + 1)
        var index = 8
        for field in type.fields {
            let value: JSONValue?
            switch field.kind {
            case .text, .note, .choice: value = try row.text(index).map(JSONValue.string)
            case .real: value = try row.real(index).map(JSONValue.number)
            case .integer: value = try row.integer(index).map { .number(Double($0)) }
            case .instant:
                index += 1
                if let at = try row.integer(index - 1), let offset = try row.integer(index) {
                    value = .string(SyncInstant(milliseconds: at, utcOffsetSeconds: Int(offset)).text)
                } else {
                    value = nil
                }
            case .day: value = try row.integer(index).map { .string(LocalDate(dayNumber: Int($0)).iso) }
            case .uuid, .reference, .food: value = try row.uuid(index).map { .string($0.lowercasedString) }
            case .nutrients: value = try row.text(index).map { SyncField.json(nutrients: $0) }
            case .servings: value = try row.text(index).map { SyncField.json(servings: $0) }
            case .code(let values):
                value = try row.integer(index).flatMap { values.indices.contains(Int($0)) ? .string(values[Int($0)]) : nil }
            case .exercise: value = try row.text(index).map(JSONValue.string)
            case .boolean: value = try row.integer(index).map { .bool($0 == 1) }
            }
            fields[field.name] = value ?? .null
            index += 1
        }
        return StoredSyncRecord(
            rowID: rowID, id: id, userID: userID, version: version, deleted: deleted == 1, fields: fields,
            fieldTimes: withTimes
                ? try fieldTimes(
                    type: type, version: version, updatedAt: updatedAt,
                    syncVersion: try row.integer(7), text: try row.text(6)) : [:],
            updatedAt: updatedAt)
    }

    /// When each field was last set: from `sync_times` when a sync change wrote the record last, else the record's save time.
    private func fieldTimes(type: SyncTable, version: Int64, updatedAt: Int64, syncVersion: Int64?, text: String?) throws -> [String: Int64]
    {
        if syncVersion == version, let text, case .object(let members) = try JSONParser.parse(text.utf8) {
            return members.compactMapValues { $0.number.map { Int64($0) } }
        }
        return Dictionary(uniqueKeysWithValues: type.type.fieldNames.map { ($0, updatedAt) })
    }

    func decodeSyncField(_ row: any SQLRow, _ field: SyncColumn) throws -> JSONValue {
        switch field.kind {
        case .text, .note, .choice:
            return try row.decode(column: field.column, as: String?.self).map(JSONValue.string) ?? .null
        case .real:
            return try row.decode(column: field.column, as: Double?.self).map(JSONValue.number) ?? .null
        case .integer:
            return try row.decode(column: field.column, as: Int64?.self).map { .number(Double($0)) } ?? .null
        case .instant:
            guard let at = try row.decode(column: field.column, as: Int64?.self) else { return .null }
            return .string(
                SyncInstant(milliseconds: at, utcOffsetSeconds: try row.decode(column: SyncColumn.offsetColumn, as: Int.self)).text)
        case .day:
            return try row.decode(column: field.column, as: Int?.self).map { .string(LocalDate(dayNumber: $0).iso) } ?? .null
        case .uuid, .reference, .food:
            if try row.decodeNil(column: field.column) { return .null }
            return .string(try decodeUUID(row, field.column).lowercasedString)
        case .nutrients:
            return try row.decode(column: field.column, as: String?.self).map { SyncField.json(nutrients: $0) } ?? .null
        case .servings:
            return try row.decode(column: field.column, as: String?.self).map { SyncField.json(servings: $0) } ?? .null
        case .code(let values):
            guard let code = try row.decode(column: field.column, as: Int?.self), values.indices.contains(code) else { return .null }
            return .string(values[code])
        case .exercise:
            return try row.decode(column: field.column, as: String?.self).map(JSONValue.string) ?? .null
        case .boolean:
            return try row.decode(column: field.column, as: Int?.self).map { .bool($0 == 1) } ?? .null
        }
    }

    // MARK: Pull

    /// The user's records changed after `cursor`, tombstones included, oldest change first, at most `limit`.
    public func pull(user: UserID, after cursor: SyncCursor = .start, limit: Int = 1000) async throws -> SyncPage {
        let limit = max(1, min(limit, 10_000))
        return try await withRawConnection { connection in
            let db = connection.sql
            // Changes up to the last committed change number only: each table is read by its own query, and a
            // change committed between two of them must not be half in this page and skipped by the next cursor.
            // (A user's change numbers are taken in commit order: the users row stays locked until commit.)
            let newest =
                try await db.raw("SELECT last_version FROM users WHERE row_id = \(bind: user.rawValue)").first()?
                .decode(column: "last_version", as: Int64.self) ?? 0
            // The tables merged in change order, each read in chunks as the merge reaches its end: a page reads
            // little more than its own records, however the changes fall across the tables.
            let chunk = min(limit + 1, 2000)
            var buffers = [[StoredSyncRecord]](repeating: [], count: SyncTable.all.count)
            var heads = [Int](repeating: 0, count: SyncTable.all.count)
            var readAll = [Bool](repeating: false, count: SyncTable.all.count)
            var lastRead = [SyncCursor?](repeating: nil, count: SyncTable.all.count)
            var found: [(cursor: SyncCursor, record: SyncRecord)] = []
            while found.count <= limit {
                var best: (index: Int, cursor: SyncCursor)?
                for (index, type) in SyncTable.all.enumerated() {
                    if heads[index] == buffers[index].count {
                        if readAll[index] { continue }
                        var condition: SQLQueryString = "t.user_id = \(bind: user.rawValue) AND t.version <= \(bind: newest) AND "
                        // Row values, so that the (user_id, version, row_id) index starts right there.
                        if let last = lastRead[index] {
                            condition += "(t.version, t.\(unsafeRaw: type.rowColumn)) > (\(bind: last.version), \(bind: last.rowID))"
                        } else if index < cursor.typeIndex {
                            condition += "t.version > \(bind: cursor.version)"
                        } else if index == cursor.typeIndex {
                            condition += "(t.version, t.\(unsafeRaw: type.rowColumn)) > (\(bind: cursor.version), \(bind: cursor.rowID))"
                        } else {
                            condition += "t.version >= \(bind: cursor.version)"
                        }
                        buffers[index] = try await syncRecords(
                            connection, type: type, condition: condition, order: "t.version, t.\(type.rowColumn)", limit: chunk)
                        heads[index] = 0
                        readAll[index] = buffers[index].count < chunk
                        guard let last = buffers[index].last else { continue }
                        lastRead[index] = SyncCursor(version: last.version, typeIndex: index, rowID: last.rowID)
                    }
                    let record = buffers[index][heads[index]]
                    let position = SyncCursor(version: record.version, typeIndex: index, rowID: record.rowID)
                    if best == nil || position < best!.cursor { best = (index, position) }
                }
                guard let (index, position) = best else { break }
                let record = buffers[index][heads[index]]
                heads[index] += 1
                found.append(
                    (
                        position,
                        SyncRecord(
                            type: SyncTable.all[index].name, id: record.id, deleted: record.deleted,
                            fields: record.deleted ? nil : record.fields)
                    ))
            }
            let page = found.prefix(limit)
            let end = page.last?.cursor ?? cursor
            let referenced = try await referencedRecords(connection, of: page.map(\.record), after: end, user: user)
            return SyncPage(changes: referenced + page.map(\.record), next: end.description, more: found.count > limit)
        }
    }
}

extension Store {
    /// The records a page's records refer to that come after the page (`end`): a meal edited after its event
    /// was logged changed later, so it would be pulled after the event. Sent first, in full even when deleted,
    /// so a client can always write a page's records.
    func referencedRecords(_ connection: Connection, of page: [SyncRecord], after end: SyncCursor, user: UserID) async throws
        -> [SyncRecord]
    {
        var extra: [SyncRecord] = []
        for type in SyncTable.all {
            for field in type.fields {
                guard case .reference(let target) = field.kind, let targetType = SyncTable.byName[target] else { continue }
                let present = Set(page.filter { $0.type == target }.map(\.id))
                let wanted = Set(
                    page.filter { $0.type == type.name }.compactMap { $0.fields?[field.name]?.string.flatMap(UUID.init(text:)) }
                )
                .subtracting(present)
                let index = SyncTable.all.firstIndex { $0.name == target } ?? 0
                extra += try await syncRecords(connection, type: targetType, ids: Array(wanted), user: user).values
                    .filter { SyncCursor(version: $0.version, typeIndex: index, rowID: $0.rowID) > end }
                    .map { SyncRecord(type: target, id: $0.id, deleted: $0.deleted, fields: $0.fields) }
            }
        }
        return extra
    }
}

extension Store {
    /// Makes the merge of one push's changes of one record type (`SyncMerge`) from what is stored: the records the
    /// changes name, which ids are another user's, the records their references name, the foods of other users they
    /// name and the holders of the unique values they set. Also returns the row ids of the referenced records, which
    /// writing them needs.
    /// - Parameter known: row ids of records written earlier in the same push, by type.
    func syncMerge(
        _ connection: Connection, type: SyncTable, changes: [SyncChange], known: [String: [UUID: Int64]],
        user: UserID
    ) async throws -> (merge: SyncMerge, references: [UUID: Int64]) {
        let db = connection.sql
        var stored: [SyncMerge.Record] = [], otherUsers: Set<UUID> = []
        // By id alone: an id already used by another user's record is rejected, not overwritten.
        for chunk in Array(Set(changes.map(\.id))).chunks(of: Self.insertChunkRows) {
            let binds = chunk.map { bind($0) }
            for record in try await syncRecords(connection, type: type, condition: "t.id IN (\(binds: binds))", withTimes: true) {
                guard record.userID == user.rawValue else {
                    otherUsers.insert(record.id)
                    continue
                }
                stored.append(
                    SyncMerge.Record(
                        id: record.id, exists: true, deleted: record.deleted, fields: record.fields,
                        fieldTimes: record.fieldTimes))
            }
        }
        var references: [UUID: Int64] = [:]
        for field in type.fields {
            guard case .reference(let target) = field.kind, let targetType = SyncTable.byName[target] else { continue }
            let named = Set(changes.compactMap { $0.fields[field.name]?.string.flatMap(UUID.init(text:)) })
                .union(stored.compactMap { $0.fields[field.name]?.string.flatMap(UUID.init(text:)) })
            var lookup: [UUID] = []
            for id in named {
                if let row = known[target]?[id] { references[id] = row } else { lookup.append(id) }
            }
            references.merge(try await syncRowIDs(db, table: targetType.table, ids: lookup, user: user)) { $1 }
        }
        var foreignFoods: Set<UUID> = []
        let foods = Set(changes.flatMap { type.type.foodIDs(in: $0.fields) })
        if !foods.isEmpty {
            foreignFoods = try await foodsOfOtherUsers(db, ids: Array(foods), user: user)
        }
        var singleton: UUID?
        if type.isSingleton,
            let row = try await db.raw(
                """
                SELECT id FROM \(unsafeRaw: type.table) WHERE user_id = \(bind: user.rawValue)
                """
            ).first()
        {
            singleton = try decodeUUID(row, "id")
        }
        var owners: [JSONValue: UUID] = [:]
        if let unique = type.uniqueField, let field = type.field(named: unique) {
            let values = Set(changes.compactMap { try? $0.fields[unique].map(field.field.canonical) }).filter { !$0.isNull }
            let storedIDs = Set(stored.map(\.id))
            let live: SQLQueryString = type.name == "food_day" ? "" : " AND deleted = 0"
            for chunk in Array(values).chunks(of: Self.insertChunkRows) {
                let binds: [any Encodable & Sendable] = chunk.map { value in
                    field.columnValues(value).first.map(bindValue) ?? String?.none
                }
                let rows = try await db.raw(
                    """
                    SELECT id, \(unsafeRaw: field.column) FROM \(unsafeRaw: type.table)
                    WHERE user_id = \(bind: user.rawValue)\(live) AND \(unsafeRaw: field.column) IN (\(binds: binds))
                    """
                ).all()
                for row in rows {
                    let id = try decodeUUID(row, "id")
                    if !storedIDs.contains(id) { owners[try decodeSyncField(row, field)] = id }
                }
            }
        }
        let merge = SyncMerge(
            type: type.type, stored: stored, otherUsers: otherUsers, referable: Set(references.keys), owners: owners,
            foreignFoods: foreignFoods, singleton: singleton)
        return (merge, references)
    }
}
