import Foundation

/// The fields of a synced record by name (docs/DESIGN.md "Sync"; docs/sync.md lists each type's). Ids are written in lower case.
public typealias SyncFields = [String: JSONValue]

/// One change a client pushes: the record's client-made id, the fields it set, the fields it cleared,
/// or its deletion, and when the client made it.
public struct SyncChange: Sendable, Hashable, Codable {
    public var type: String
    public var id: UUID
    /// When the change was made on the client; per field, the later change wins.
    public var changedAt: Date
    /// Fields to set; an absent or null field leaves the stored value alone.
    public var fields: SyncFields
    /// Fields to empty: the only way to remove a stored value.
    public var clear: [String]
    /// Deletes the record (a deletion is final: later edits do not bring it back).
    public var deleted: Bool

    public init(type: String, id: UUID, changedAt: Date, fields: SyncFields = [:], clear: [String] = [], deleted: Bool = false) {
        self.type = type
        self.id = id
        self.changedAt = changedAt
        self.fields = fields
        self.clear = clear
        self.deleted = deleted
    }

    enum CodingKeys: String, CodingKey {
        case type, id
        case changedAt = "changed_at"
        case fields, clear, deleted
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        id = try container.decode(UUID.self, forKey: .id)
        let time = try container.decode(String.self, forKey: .changedAt)
        guard let instant = SyncInstant.parse(time) else {
            throw DecodingError.dataCorruptedError(
                forKey: .changedAt, in: container,
                debugDescription: "changed_at must be an ISO 8601 time with its UTC offset")
        }
        changedAt = instant.date
        fields = try container.decodeIfPresent(SyncFields.self, forKey: .fields) ?? [:]
        clear = try container.decodeIfPresent([String].self, forKey: .clear) ?? []
        deleted = try container.decodeIfPresent(Bool.self, forKey: .deleted) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(id.lowercasedString, forKey: .id)
        try container.encode(SyncInstant(date: changedAt, utcOffsetSeconds: 0).text, forKey: .changedAt)
        if !fields.isEmpty { try container.encode(fields, forKey: .fields) }
        if !clear.isEmpty { try container.encode(clear, forKey: .clear) }
        if deleted { try container.encode(true, forKey: .deleted) }
    }
}

/// What became of a pushed change.
public enum SyncOutcome: String, Sendable, Codable {
    /// Every field of the change is now stored (or already was).
    case applied
    /// Some fields lost to later changes, or the record had been deleted: `record` is what is stored.
    case merged
    /// Invalid (HTTP 422's reason in `reason`): final, a client must not send it again unchanged.
    case rejected
}

/// The server's answer for one change: its outcome and the record as now stored.
public struct SyncResult: Sendable, Hashable, Codable {
    public var type: String
    public var id: UUID
    public var status: SyncOutcome
    public var reason: String?
    /// The field the rejection concerns, if one.
    public var field: String?
    /// The record's fields as stored, for applied and merged changes of records that exist.
    public var record: SyncFields?
    public var deleted: Bool

    public init(
        type: String, id: UUID, status: SyncOutcome, reason: String? = nil, field: String? = nil,
        record: SyncFields? = nil, deleted: Bool = false
    ) {
        self.type = type
        self.id = id
        self.status = status
        self.reason = reason
        self.field = field
        self.record = record
        self.deleted = deleted
    }

    enum CodingKeys: String, CodingKey { case type, id, status, reason, field, record, deleted }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(id.lowercasedString, forKey: .id)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encodeIfPresent(field, forKey: .field)
        try container.encodeIfPresent(record, forKey: .record)
        try container.encode(deleted, forKey: .deleted)
    }
}

/// A record as pulled: its fields, or a tombstone.
public struct SyncRecord: Sendable, Hashable, Codable {
    public var type: String
    public var id: UUID
    public var deleted: Bool
    public var fields: SyncFields?

    public init(type: String, id: UUID, deleted: Bool, fields: SyncFields?) {
        self.type = type
        self.id = id
        self.deleted = deleted
        self.fields = fields
    }

    enum CodingKeys: String, CodingKey { case type, id, deleted, fields }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(id.lowercasedString, forKey: .id)
        try container.encode(deleted, forKey: .deleted)
        try container.encodeIfPresent(fields, forKey: .fields)
    }
}

/// A page of changes after a cursor; `next` is the cursor to ask with next, `more` whether there is more now.
public struct SyncPage: Sendable, Hashable, Codable {
    public var changes: [SyncRecord]
    public var next: String
    public var more: Bool

    public init(changes: [SyncRecord], next: String, more: Bool) {
        self.changes = changes
        self.next = next
        self.more = more
    }
}

/// An instant with the UTC offset it was written at, as sync writes it: `2026-11-21T07:30:00.250+01:00`
/// (milliseconds only when there are any). The offset is kept, so the record's local day is the client's.
public struct SyncInstant: Sendable, Hashable {
    public var milliseconds: Int64
    public var utcOffsetSeconds: Int

    public init(milliseconds: Int64, utcOffsetSeconds: Int) {
        self.milliseconds = milliseconds
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    public init(date: Date, utcOffsetSeconds: Int) {
        self.init(milliseconds: date.millisecondsSince1970, utcOffsetSeconds: utcOffsetSeconds)
    }

    public var date: Date { Date(millisecondsSince1970: milliseconds) }

    public var localDate: LocalDate {
        let local = milliseconds + Int64(utcOffsetSeconds) * 1000
        return LocalDate(dayNumber: Int((Double(local) / 86_400_000).rounded(.down)))
    }

    /// Parses an ISO 8601 time that carries its offset (`Z` or `±hh:mm`); nil otherwise.
    public static func parse(_ text: String) -> SyncInstant? {
        guard let time = LocalDateTime(iso: text), let offset = time.utcOffsetSeconds, text.count > 10 else { return nil }
        let wallMilliseconds = (Double(time.date.dayNumber) * 86_400 + time.secondsOfDay) * 1000
        return SyncInstant(milliseconds: Int64(wallMilliseconds.rounded()) - Int64(offset) * 1000, utcOffsetSeconds: offset)
    }

    public var text: String {
        let local = milliseconds + Int64(utcOffsetSeconds) * 1000
        let date = LocalDate(dayNumber: Int((Double(local) / 86_400_000).rounded(.down)))
        let inDay = Int(local - Int64(date.dayNumber) * 86_400_000)
        let seconds = inDay / 1000, millis = inDay % 1000
        let offset = abs(utcOffsetSeconds)
        return String(unsafeUninitializedCapacity: 29) { buffer in
            var out = buffer
            date.write(into: &out)
            out[10] = UInt8(ascii: "T")
            LocalDate.write(seconds / 3600, digits: 2, into: &out, at: 11)
            out[13] = UInt8(ascii: ":")
            LocalDate.write(seconds % 3600 / 60, digits: 2, into: &out, at: 14)
            out[16] = UInt8(ascii: ":")
            LocalDate.write(seconds % 60, digits: 2, into: &out, at: 17)
            var end = 19
            if millis > 0 {
                out[19] = UInt8(ascii: ".")
                LocalDate.write(millis, digits: 3, into: &out, at: 20)
                end = 23
            }
            out[end] = UInt8(ascii: utcOffsetSeconds < 0 ? "-" : "+")
            LocalDate.write(offset / 3600, digits: 2, into: &out, at: end + 1)
            out[end + 3] = UInt8(ascii: ":")
            LocalDate.write(offset % 3600 / 60, digits: 2, into: &out, at: end + 4)
            return end + 6
        }
    }
}
