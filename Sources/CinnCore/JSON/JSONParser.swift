import Foundation

/// Cinn's one JSON parser, for sync pushes and pulls, import files and Open Food Facts answers. It reads the
/// UTF-8 bytes in one pass (JSONDecoder into `JSONValue`, which tries each kind in turn, took longer than the server
/// took to read a sync page, BENCHMARKS.md "Sync"), keeps numbers as their text (`JSONNumber`), counts lines so that
/// an import names where a file breaks, and refuses what hostile input would use to make it work without end:
/// nesting deeper than `maximumDepth`, and more values than the caller allows.
public enum JSONParser {
    /// Containers (objects and arrays) nest at most this deep.
    public static let maximumDepth = 64

    /// Parses one JSON document (a UTF-8 byte order mark before it is skipped).
    /// - Parameters:
    ///   - maximumValues: past this many values (objects, arrays, strings, numbers… each count one) the parse stops
    ///     with `tooManyValues`, before it holds them all: a body of millions of `{}` is refused, not built.
    ///   - firstLine: the line `bytes` start on in their file (an element of a larger document), for errors.
    ///   - finiteNumbers: refuse a number beyond a Double's range (`1e999`) as `numberOutOfRange`; otherwise it is
    ///     kept, its text as written and its Double infinite, for the caller to reject where it stands.
    public static func parse(
        _ bytes: some Collection<UInt8>, maximumValues: Int = .max, firstLine: Int = 1,
        finiteNumbers: Bool = false
    ) throws(JSONSyntaxError) -> JSONValue {
        try withBuffer(bytes) { buffer throws(JSONSyntaxError) in
            var parser = Parser(bytes: buffer, line: firstLine, maximumValues: maximumValues, finiteNumbers: finiteNumbers)
            parser.skipByteOrderMark()
            parser.skipSpace()
            let value = try parser.value(depth: 0)
            try parser.end()
            return value
        }
    }

    /// Parses one JSON document that is a list of records, each with the line it starts on: the document itself
    /// when it is an array, or the array that is `member` of the document when it is an object (a Fitbit answer's
    /// `weight`). Nil when the document is neither. Past `maximumValues` values the parse stops (`tooManyValues`).
    public static func records(
        _ bytes: some Collection<UInt8>, member: String? = nil, maximumValues: Int = .max,
        firstLine: Int = 1
    ) throws(JSONSyntaxError) -> [(line: Int, value: JSONValue)]? {
        try withBuffer(bytes) { buffer throws(JSONSyntaxError) in
            var parser = Parser(bytes: buffer, line: firstLine, maximumValues: maximumValues, finiteNumbers: false)
            parser.skipByteOrderMark()
            parser.skipSpace()
            var records: [(line: Int, value: JSONValue)]?
            if parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "[") {
                records = parser.skipsToFirstElement() ? try parser.elementsWithLines() : []
            } else if parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "{"), let member {
                try parser.members(depth: 1) { key, parser throws(JSONSyntaxError) in
                    if key == member, parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "[") {
                        records = parser.skipsToFirstElement() ? try parser.elementsWithLines() : []
                    } else {
                        _ = try parser.value(depth: 1)
                        if key == member { records = nil }
                    }
                }
            } else {
                _ = try parser.value(depth: 0)
            }
            try parser.end()
            return records
        }
    }

    /// Reads one JSON object, handing each member to `body` in order without building the object (a stored column
    /// read for every row, such as a food's nutrients). Throws when the document is not an object.
    public static func forEachMember(
        of bytes: some Collection<UInt8>, finiteNumbers: Bool = false,
        _ body: (String, JSONValue) -> Void
    ) throws(JSONSyntaxError) {
        try withBuffer(bytes) { buffer throws(JSONSyntaxError) in
            var parser = Parser(bytes: buffer, line: 1, maximumValues: .max, finiteNumbers: finiteNumbers)
            parser.skipByteOrderMark()
            parser.skipSpace()
            guard parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: "{") else { throw parser.unexpected() }
            try parser.members(depth: 1) { key, parser throws(JSONSyntaxError) in body(key, try parser.value(depth: 1)) }
            try parser.end()
        }
    }

    private static func withBuffer<Result>(
        _ bytes: some Collection<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> Result
    ) throws(JSONSyntaxError) -> Result {
        let outcome =
            bytes.withContiguousStorageIfAvailable { buffer in Swift.Result { () throws(JSONSyntaxError) in try body(buffer) } }
            ?? Array(bytes).withUnsafeBufferPointer { buffer in Swift.Result { () throws(JSONSyntaxError) in try body(buffer) } }
        return try outcome.get()
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var line: Int
        var remainingValues: Int
        let maximumValues: Int
        let finiteNumbers: Bool

        init(bytes: UnsafeBufferPointer<UInt8>, line: Int, maximumValues: Int, finiteNumbers: Bool) {
            self.bytes = bytes
            self.line = line
            remainingValues = maximumValues
            self.maximumValues = maximumValues
            self.finiteNumbers = finiteNumbers
        }

        func error(_ problem: JSONSyntaxError.Problem) -> JSONSyntaxError {
            JSONSyntaxError(problem: problem, byteOffset: index, line: line)
        }

        /// The byte at `index` is not what JSON allows there (or there is none).
        func unexpected() -> JSONSyntaxError {
            guard index < bytes.count else { return error(.endsEarly) }
            return error(.unexpected(String(decoding: CollectionOfOne(bytes[index]), as: UTF8.self)))
        }

        mutating func skipByteOrderMark() {
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        }

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x0A: line += 1
                case 0x20, 0x0D, 0x09: break
                default: return
                }
                index += 1
            }
        }

        /// Only space may follow the document.
        mutating func end() throws(JSONSyntaxError) {
            skipSpace()
            guard index == bytes.count else { throw unexpected() }
        }

        mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard index < bytes.count else { throw error(.endsEarly) }
            remainingValues -= 1
            guard remainingValues >= 0 else { throw error(.tooManyValues(maximumValues)) }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                // Room for eight members is made at the second, not before: an empty object or one of a single member
                // costs no more than it holds (a body of a million `{}` must not cost a million tables).
                var members: [String: JSONValue] = [:]
                try self.members(depth: depth + 1) { key, parser throws(JSONSyntaxError) in
                    if members.count == 1 { members.reserveCapacity(8) }
                    members[key] = try parser.value(depth: depth + 1)
                }
                return .object(members)
            case UInt8(ascii: "["):
                try enter(depth: depth + 1)
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
                    guard index < bytes.count else { throw error(.endsEarly) }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    guard bytes[index] == UInt8(ascii: "]") else { throw unexpected() }
                    index += 1
                    return .array(items)
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw unexpected()
            }
        }

        /// Steps into the container at `index`, which nests `depth` deep.
        mutating func enter(depth: Int) throws(JSONSyntaxError) {
            guard depth <= JSONParser.maximumDepth else { throw error(.nestedTooDeeply) }
            index += 1
        }

        /// Reads the object at `index` (its members at `depth`), handing each name to `body` with the parser at
        /// the member's value, which `body` reads.
        @inline(__always)
        mutating func members(depth: Int, _ body: (String, inout Parser) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) {
            try enter(depth: depth)
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw unexpected() }
                let key = try string()
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw unexpected() }
                index += 1
                skipSpace()
                try body(key, &self)
                skipSpace()
                guard index < bytes.count else { throw error(.endsEarly) }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "}") else { throw unexpected() }
                index += 1
                return
            }
        }

        /// Steps into the array at `index`; false when it is empty (and then read whole).
        mutating func skipsToFirstElement() -> Bool {
            index += 1
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "]") else { return true }
            index += 1
            return false
        }

        /// The elements of the array `skipsToFirstElement` stepped into (at depth 1), each with its line.
        mutating func elementsWithLines() throws(JSONSyntaxError) -> [(line: Int, value: JSONValue)] {
            var records: [(line: Int, value: JSONValue)] = []
            while true {
                skipSpace()
                let start = line
                records.append((start, try value(depth: 1)))
                skipSpace()
                guard index < bytes.count else { throw error(.endsEarly) }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "]") else { throw unexpected() }
                index += 1
                return records
            }
        }

        mutating func literal(_ word: StaticString, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            for byte in expected {
                guard index < bytes.count, bytes[index] == byte else { throw unexpected() }
                index += 1
            }
            return value
        }

        /// A number as JSON writes it: `-`, no leading zeros, an optional fraction and exponent.
        mutating func number() throws(JSONSyntaxError) -> JSONNumber {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let integerStart = index
            var whole: Int64 = 0
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
                if index - integerStart < 15 { whole = whole * 10 + Int64(bytes[index] &- UInt8(ascii: "0")) }
                index += 1
            }
            let digits = index - integerStart
            guard digits > 0 else { throw unexpected() }
            guard digits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
                index = integerStart + 1
                throw unexpected()
            }
            var exact = digits <= 15
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                try self.digits()
                exact = false
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                try self.digits()
                exact = false
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if exact { return JSONNumber(text: text, double: Double(bytes[start] == UInt8(ascii: "-") ? -whole : whole)) }
            let value = Double(text) ?? .infinity
            guard value.isFinite || !finiteNumbers else {
                index = start
                throw error(.numberOutOfRange(text))
            }
            return JSONNumber(text: text, double: value)
        }

        /// At least one digit.
        mutating func digits() throws(JSONSyntaxError) {
            let start = index
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            guard index > start else { throw unexpected() }
        }

        /// A string literal starting at the opening quote.
        mutating func string() throws(JSONSyntaxError) -> String {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 {
                index += 1
            }
            guard index < bytes.count else { throw error(.endsEarly) }
            if bytes[index] == UInt8(ascii: "\"") {
                defer { index += 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            }
            var text = Array(bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return String(decoding: text, as: UTF8.self)
                }
                guard byte >= 0x20 else { throw error(.controlCharacter) }
                guard byte == UInt8(ascii: "\\") else {
                    text.append(byte)
                    index += 1
                    continue
                }
                index += 1
                guard index < bytes.count else { break }
                switch bytes[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(bytes[index])
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"):
                    index += 1
                    UTF8.encode(try unicodeEscape()) { text.append($0) }
                    continue
                default: throw unexpected()
                }
                index += 1
            }
            throw error(.endsEarly)
        }

        /// The scalar of `\uXXXX` (the `\u` already read), joining a surrogate pair; U+FFFD for a lone half.
        mutating func unicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
            let first = try hex4()
            if (0xD800..<0xDC00).contains(first), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u")
            {
                index += 2
                let second = try hex4()
                if (0xDC00..<0xE000).contains(second) {
                    return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) ?? "\u{FFFD}"
                }
            }
            return Unicode.Scalar(first) ?? "\u{FFFD}"
        }

        mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard index < bytes.count else { throw error(.endsEarly) }
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw unexpected()
                }
                value = value * 16 + UInt32(digit)
                index += 1
            }
            return value
        }
    }
}

/// Why `JSONParser` stopped, and where: the byte (for request bodies) and the line (for files).
public struct JSONSyntaxError: Error, Sendable, Hashable {
    public enum Problem: Sendable, Hashable {
        /// The text ends inside a value.
        case endsEarly
        /// A character JSON does not allow there.
        case unexpected(String)
        /// Containers nest deeper than `JSONParser.maximumDepth`.
        case nestedTooDeeply
        /// More values than the caller allows.
        case tooManyValues(Int)
        /// A control character (below U+0020) written raw inside a string.
        case controlCharacter
        /// A number beyond a Double's range, such as `1e999`, where only finite numbers are allowed.
        case numberOutOfRange(String)
    }

    public var problem: Problem
    /// Bytes before the problem, from the start of the text parsed.
    public var byteOffset: Int
    public var line: Int

    public init(problem: Problem, byteOffset: Int, line: Int) {
        self.problem = problem
        self.byteOffset = byteOffset
        self.line = line
    }

    /// As the error of a request's body: `malformedRequest` naming the byte (`contentTooLarge` for too many values).
    public var requestError: CinnError {
        let what: String
        switch problem {
        case .endsEarly: what = "the text ends early"
        case .unexpected(let character): what = "unexpected \"\(character)\""
        case .nestedTooDeeply: what = "nested deeper than \(JSONParser.maximumDepth) levels"
        case .tooManyValues(let limit): return CinnError(.contentTooLarge, "the JSON holds more than \(limit) values; send less at a time")
        case .controlCharacter: what = "a control character in a string"
        case .numberOutOfRange(let text): what = "the number \(text) is out of range"
        }
        return CinnError(.malformedRequest, "malformed JSON at byte \(byteOffset): \(what)")
    }

    /// As the error of an imported file: invalid input of the field `file` naming the line.
    public var fileError: CinnError {
        switch problem {
        case .endsEarly: .invalid("file", "the JSON ends too early at line \(line): the file looks cut off")
        case .unexpected(let character): .invalid("file", "line \(line): the JSON has an unexpected \"\(character)\" here")
        case .nestedTooDeeply: .invalid("file", "line \(line): the JSON nests deeper than \(JSONParser.maximumDepth) levels")
        case .tooManyValues(let limit): .invalid("file", "line \(line): the JSON holds more than \(limit) values")
        case .controlCharacter: .invalid("file", "line \(line): the JSON has a control character inside a string")
        case .numberOutOfRange(let text): .invalid("file", "line \(line): the JSON number \(text) is out of range")
        }
    }
}
