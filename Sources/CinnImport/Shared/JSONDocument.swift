import CinnCore
import Foundation

/// A JSON value and the line it starts on, so rejected entries can name their line.
struct JSONValue {
    enum Kind {
        case object([String: JSONValue])
        case array([JSONValue])
        case string(String)
        /// The number as written, so that 64-bit ids keep every digit.
        case number(String)
        case bool(Bool)
        case null
    }

    var kind: Kind
    var line: Int

    var string: String? {
        if case .string(let text) = kind { text } else { nil }
    }

    var number: Double? {
        if case .number(let text) = kind { Double(text) } else { nil }
    }

    var integer: Int64? {
        guard case .number(let text) = kind else { return nil }
        return Int64(text) ?? Double(text).flatMap { Int64(exactly: $0) }
    }
}

/// Parses a whole JSON document; errors name the line where the text stops making sense.
struct JSONDocumentParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var depth = 0
    private static let maximumDepth = 64

    /// - Parameter firstLine: the line `bytes` start on in their file (a part of a larger document).
    static func parse(_ bytes: [UInt8], firstLine: Int = 1) throws(CinnError) -> JSONValue {
        var parser = JSONDocumentParser(bytes: bytes)
        parser.line = firstLine
        parser.skipByteOrderMark()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.unexpected() }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func parseValue() throws(CinnError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw cutOff() }
        let startLine = line
        switch bytes[index] {
        case UInt8(ascii: "{"): return JSONValue(kind: .object(try parseObject()), line: startLine)
        case UInt8(ascii: "["): return JSONValue(kind: .array(try parseArray()), line: startLine)
        case .quote: return JSONValue(kind: .string(try parseString()), line: startLine)
        case UInt8(ascii: "t"): try expect("true"); return JSONValue(kind: .bool(true), line: startLine)
        case UInt8(ascii: "f"): try expect("false"); return JSONValue(kind: .bool(false), line: startLine)
        case UInt8(ascii: "n"): try expect("null"); return JSONValue(kind: .null, line: startLine)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONValue(kind: .number(try parseNumber()), line: startLine)
        default: throw unexpected()
        }
    }

    private mutating func parseObject() throws(CinnError) -> [String: JSONValue] {
        try enterContainer()
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return members
        }
        while true {
            skipWhitespace()
            guard try peek() == .quote else { throw unexpected() }
            let key = try parseString()
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw unexpected() }
            index += 1
            members[key] = try parseValue()
            skipWhitespace()
            let byte = try peek()
            index += 1
            if byte == UInt8(ascii: "}") { break }
            guard byte == .comma else { index -= 1; throw unexpected() }
        }
        depth -= 1
        return members
    }

    private mutating func parseArray() throws(CinnError) -> [JSONValue] {
        try enterContainer()
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return elements
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            let byte = try peek()
            index += 1
            if byte == UInt8(ascii: "]") { break }
            guard byte == .comma else { index -= 1; throw unexpected() }
        }
        depth -= 1
        return elements
    }

    private mutating func enterContainer() throws(CinnError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw .invalid("file", "line \(line): the JSON nests deeper than \(Self.maximumDepth) levels")
        }
        index += 1
    }

    private mutating func parseString() throws(CinnError) -> String {
        index += 1
        var text: [UInt8] = []
        while true {
            guard index < bytes.count else { throw cutOff() }
            let byte = bytes[index]
            index += 1
            switch byte {
            case .quote:
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw cutOff() }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(.newline)
                case UInt8(ascii: "r"): text.append(.carriageReturn)
                case UInt8(ascii: "t"): text.append(.tab)
                case UInt8(ascii: "u"): UTF8.encode(try parseUnicodeEscape()) { text.append($0) }
                case .quote, UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
                default: index -= 1; throw unexpected()
                }
            case .newline:
                line += 1
                text.append(byte)
            default:
                text.append(byte)
            }
        }
    }

    /// The scalar of `\uXXXX` (the `\u` already read), joining a surrogate pair; U+FFFD for a lone half.
    private mutating func parseUnicodeEscape() throws(CinnError) -> Unicode.Scalar {
        let first = try parseHex4()
        if (0xD800..<0xDC00).contains(first), index + 1 < bytes.count,
           bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
            index += 2
            let second = try parseHex4()
            if (0xDC00..<0xE000).contains(second) {
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) ?? "\u{FFFD}"
            }
        }
        return Unicode.Scalar(first) ?? "\u{FFFD}"
    }

    private mutating func parseHex4() throws(CinnError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw cutOff() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Character(Unicode.Scalar(bytes[index])).hexDigitValue else { throw unexpected() }
            value = value * 16 + UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(CinnError) -> String {
        let start = index
        while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard Double(text) != nil else {
            index = start
            throw unexpected()
        }
        return text
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "e"), UInt8(ascii: "E"): true
        default: false
        }
    }

    private mutating func expect(_ word: StaticString) throws(CinnError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for byte in expected {
            guard index < bytes.count else { throw cutOff() }
            guard bytes[index] == byte else { throw unexpected() }
            index += 1
        }
    }

    private func peek() throws(CinnError) -> UInt8 {
        guard index < bytes.count else { throw cutOff() }
        return bytes[index]
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case .newline: line += 1
            case .space, .tab, .carriageReturn: break
            default: return
            }
            index += 1
        }
    }

    private mutating func skipByteOrderMark() {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    private func cutOff() -> CinnError {
        .invalid("file", "the JSON ends too early at line \(line): the file looks cut off")
    }

    private func unexpected() -> CinnError {
        let character = String(decoding: bytes[index...].prefix(1), as: UTF8.self)
        return .invalid("file", "line \(line): the JSON has an unexpected \"\(character)\" here")
    }
}

/// A file's top-level JSON array read element by element, a chunk at a time: memory holds one element
/// (and a chunk), never the whole document. Each element is parsed by `JSONDocumentParser` with its lines
/// counted from the file's start.
struct JSONArrayStream {
    static let chunkSize = 1 << 20

    /// Calls `body` with each element in order, and `afterChunk` after each chunk of the file (to hand on what `body`
    /// gathered); the file must be one JSON array.
    static func forEach(url: URL, chunkSize: Int = chunkSize, _ body: (JSONValue) throws(CinnError) -> Void,
                        afterChunk: () async throws -> Void = {}) async throws {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw CinnError.invalid("file", "cannot open \(url.lastPathComponent): \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        var stream = JSONArrayStream()
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: chunkSize) ?? Data()
            } catch {
                throw CinnError.invalid("file", "cannot read \(url.lastPathComponent): \(error.localizedDescription)")
            }
            if chunk.isEmpty { break }
            try stream.feed(chunk, body)
            try await afterChunk()
        }
        guard stream.state == .done else {
            throw CinnError.invalid("file", "the JSON ends too early at line \(stream.line): the file looks cut off")
        }
    }

    enum State { case start, beforeElement, inElement, afterElement, done }

    private(set) var state = State.start
    private(set) var line = 1
    private var element: [UInt8] = []
    private var elementLine = 1
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var started = false

    mutating func feed(_ chunk: Data, _ body: (JSONValue) throws(CinnError) -> Void) throws(CinnError) {
        for byte in chunk {
            switch state {
            case .start:
                if byte == 0xEF || byte == 0xBB || byte == 0xBF || isSpace(byte) { break }
                guard byte == UInt8(ascii: "[") else { throw .invalid("file", "line \(line): the file is not a JSON array") }
                state = .beforeElement
            case .beforeElement, .afterElement:
                if isSpace(byte) { break }
                if byte == UInt8(ascii: "]"), state == .afterElement || !started {
                    state = .done
                } else if byte == .comma, state == .afterElement {
                    state = .beforeElement
                } else if state == .beforeElement {
                    state = .inElement
                    started = true
                    element.removeAll(keepingCapacity: true)
                    elementLine = line
                    depth = 0
                    try take(byte, body)
                } else {
                    throw .invalid("file", "line \(line): the JSON array has an unexpected \"\(String(decoding: [byte], as: UTF8.self))\" between its elements")
                }
            case .inElement:
                try take(byte, body)
            case .done:
                guard isSpace(byte) else { throw .invalid("file", "line \(line): the JSON goes on after its array ends") }
            }
            if byte == .newline { line += 1 }
        }
    }

    /// One byte of an element; at the element's end, parses it and hands it on.
    private mutating func take(_ byte: UInt8, _ body: (JSONValue) throws(CinnError) -> Void) throws(CinnError) {
        if inString {
            element.append(byte)
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == .quote { inString = false }
            return
        }
        if depth == 0, !element.isEmpty, byte == .comma || byte == UInt8(ascii: "]") || isSpace(byte) {
            // The end of a scalar element.
            try finish(body)
            state = byte == UInt8(ascii: "]") ? .done : byte == .comma ? .beforeElement : .afterElement
            return
        }
        element.append(byte)
        switch byte {
        case .quote: inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
            if depth == 0 {
                try finish(body)
                state = .afterElement
            }
        default: break
        }
    }

    private mutating func finish(_ body: (JSONValue) throws(CinnError) -> Void) throws(CinnError) {
        try body(try JSONDocumentParser.parse(element, firstLine: elementLine))
        element.removeAll(keepingCapacity: true)
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == .space || byte == .tab || byte == .newline || byte == .carriageReturn
    }
}
