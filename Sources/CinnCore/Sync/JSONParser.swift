import Foundation

extension JSONValue {
    /// Parses JSON text into a value in one pass over its bytes: a sync page of 10,000 records decoded by
    /// JSONDecoder into `JSONValue` (which tries each kind in turn) took longer than the server took to read
    /// them (BENCHMARKS.md). Throws `malformedRequest` naming the byte offset of the first error, and
    /// `contentTooLarge` once the text holds more than `maximumValues` values (objects, arrays, strings, numbers…
    /// each count one), before it holds them all: a body of millions of `{}` is refused, not built.
    public static func parse(_ data: some Collection<UInt8>, maximumValues: Int = .max) throws(CinnError) -> JSONValue {
        var parser = Parser(bytes: Array(data), remainingValues: maximumValues)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw parser.error("text after the JSON value") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var remainingValues: Int
        let maximumValues: Int

        init(bytes: [UInt8], remainingValues: Int) {
            self.bytes = bytes
            self.remainingValues = remainingValues
            maximumValues = remainingValues
        }

        func error(_ message: String) -> CinnError {
            CinnError(.malformedRequest, "malformed JSON at byte \(index): \(message)")
        }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }

        mutating func value(depth: Int) throws(CinnError) -> JSONValue {
            guard depth < 64 else { throw error("nested too deeply") }
            guard index < bytes.count else { throw error("the text ends early") }
            remainingValues -= 1
            guard remainingValues >= 0 else {
                throw CinnError(.contentTooLarge, "the JSON holds more than \(maximumValues) values; send less at a time")
            }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [String: JSONValue] = [:]
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                members.reserveCapacity(8)
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
                    let key = try string()
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected :") }
                    index += 1
                    skipSpace()
                    members[key] = try value(depth: depth + 1)
                    skipSpace()
                    guard index < bytes.count else { throw error("the text ends early") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "}") else { throw error("expected , or }") }
                    index += 1
                    return .object(members)
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [JSONValue] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(items)
                }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < bytes.count else { throw error("the text ends early") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "]") else { throw error("expected , or ]") }
                    index += 1
                    return .array(items)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default:
                return try number()
            }
        }

        mutating func literal(_ word: StaticString, _ value: JSONValue) throws(CinnError) -> JSONValue {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count,
                  word.withUTF8Buffer({ $0.elementsEqual(bytes[index..<index + count]) }) else { throw error("unexpected text") }
            index += count
            return value
        }

        mutating func number() throws(CinnError) -> JSONValue {
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                guard (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                        || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") else { break }
                index += 1
            }
            guard index > start, let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
                index = start
                throw error("expected a value")
            }
            return .number(value)
        }

        /// A string literal starting at the opening quote.
        mutating func string() throws(CinnError) -> String {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 {
                index += 1
            }
            guard index < bytes.count else { throw error("a string does not end") }
            if bytes[index] == UInt8(ascii: "\"") {
                defer { index += 1 }
                return String(decoding: bytes[start..<index], as: UTF8.self)
            }
            var text = Array(bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return String(decoding: text, as: UTF8.self)
                }
                guard byte >= 0x20 else { throw error("a control character in a string") }
                guard byte == UInt8(ascii: "\\") else {
                    text.append(byte)
                    index += 1
                    continue
                }
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("a broken surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("a broken \\u escape") }
                    text.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw error("an unknown escape")
                }
            }
            throw error("a string does not end")
        }

        mutating func hex4() throws(CinnError) -> UInt32 {
            guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                throw error("a broken \\u escape")
            }
            index += 4
            return value
        }
    }
}

extension SyncPage {
    /// A page from the server's JSON text (`jsonText`).
    public init(jsonText data: some Collection<UInt8>) throws(CinnError) {
        guard case .object(let page) = try JSONValue.parse(data), case .array(let items)? = page["changes"], let next = page["next"]?.string,
              case .bool(let more)? = page["more"] else { throw CinnError(.malformedRequest, "not a page of changes") }
        self.init(changes: try items.map { item throws(CinnError) in try SyncRecord(json: item) }, next: next, more: more)
    }
}

extension SyncRecord {
    init(json: JSONValue) throws(CinnError) {
        guard case .object(let members) = json, let type = members["type"]?.string, let id = members["id"]?.string.flatMap(UUID.init(text:)),
              case .bool(let deleted)? = members["deleted"] else { throw CinnError(.malformedRequest, "not a record of a page of changes") }
        var fields: SyncFields?
        if case .object(let values)? = members["fields"] { fields = values }
        self.init(type: type, id: id, deleted: deleted, fields: fields)
    }
}

extension SyncResult {
    /// The results of a push from the server's JSON text (`jsonText`).
    public static func results(jsonText data: some Collection<UInt8>) throws(CinnError) -> [SyncResult] {
        guard case .object(let answer) = try JSONValue.parse(data), case .array(let items)? = answer["results"] else {
            throw CinnError(.malformedRequest, "not the answer to a push")
        }
        return try items.map { item throws(CinnError) in
            guard case .object(let members) = item, let type = members["type"]?.string,
                  let id = members["id"]?.string.flatMap(UUID.init(text:)),
                  let status = members["status"]?.string.flatMap(SyncOutcome.init(rawValue:)) else {
                throw CinnError(.malformedRequest, "not a result of a push")
            }
            var record: SyncFields?
            if case .object(let values)? = members["record"] { record = values }
            let deleted: Bool
            if case .bool(let value)? = members["deleted"] { deleted = value } else { deleted = false }
            return SyncResult(type: type, id: id, status: status, reason: members["reason"]?.string, field: members["field"]?.string,
                              record: record, deleted: deleted)
        }
    }
}

extension SyncChange {
    /// The JSON values a change may average in a push (a workout with its sets, a food with every nutrient):
    /// a push of `maximumChanges` is read only while it holds fewer than that many times this.
    public static let maximumValuesPerChange = 100

    /// The changes of a push's body, `{"changes": […]}`, read in one pass (`JSONValue.parse`). Text that is not
    /// JSON is `malformedRequest`; a change without its type, id or time is `invalidInput` naming it
    /// (`changes[3].changed_at`).
    public static func batch(jsonText data: some Collection<UInt8>, maximumChanges: Int = .max) throws(CinnError) -> [SyncChange] {
        let maximumValues = maximumChanges == .max ? .max : maximumChanges * maximumValuesPerChange
        guard case .object(let body) = try JSONValue.parse(data, maximumValues: maximumValues) else {
            throw .invalid("changes", "the body must be {\"changes\": […]}")
        }
        guard case .array(let items)? = body["changes"] else { throw .invalid("changes", "changes must be a list of changes") }
        guard items.count <= maximumChanges else {
            throw .invalid("changes", "a push holds at most \(maximumChanges) changes; send the rest in another")
        }
        return try items.enumerated().map { (index, item) throws(CinnError) -> SyncChange in
            let path = "changes[\(index)]"
            guard case .object(let members) = item else { throw .invalid(path, "each change must be an object") }
            guard let type = members["type"]?.string else { throw .invalid("\(path).type", "\(path).type must be a record type") }
            guard let id = members["id"]?.string.flatMap(UUID.init(text:)) else { throw .invalid("\(path).id", "\(path).id must be a UUID") }
            guard let time = members["changed_at"]?.string.flatMap(SyncInstant.parse) else {
                throw .invalid("\(path).changed_at", "\(path).changed_at must be an ISO 8601 time with its UTC offset")
            }
            var change = SyncChange(type: type, id: id, changedAt: time.date)
            switch members["fields"] {
            case nil, .null?: break
            case .object(let fields)?: change.fields = fields
            default: throw .invalid("\(path).fields", "\(path).fields must be an object")
            }
            switch members["clear"] {
            case nil, .null?: break
            case .array(let names)?:
                change.clear = try names.map { name throws(CinnError) in
                    guard let text = name.string else { throw .invalid("\(path).clear", "\(path).clear must be a list of field names") }
                    return text
                }
            default: throw .invalid("\(path).clear", "\(path).clear must be a list of field names")
            }
            switch members["deleted"] {
            case nil, .null?: break
            case .bool(let deleted)?: change.deleted = deleted
            default: throw .invalid("\(path).deleted", "\(path).deleted must be true or false")
            }
            return change
        }
    }
}
