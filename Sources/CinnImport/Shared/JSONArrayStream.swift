import CinnCore
import Foundation

/// A file's top-level JSON array read element by element, a chunk at a time: memory holds one element
/// (and a chunk), never the whole document. Each element is parsed by `JSONParser` with its lines counted from the
/// file's start.
struct JSONArrayStream {
    static let chunkSize = 1 << 20

    /// Calls `body` with each element in order and the line it starts on, and `afterChunk` after each chunk of the file
    /// (to hand on what `body` gathered); the file must be one JSON array, or JSON objects one after another (as
    /// `mongoexport` writes a collection: one document a line), each then an element.
    static func forEach(
        url: URL, chunkSize: Int = chunkSize, _ body: (JSONValue, Int) throws(CinnError) -> Void,
        afterChunk: () async throws -> Void = {}
    ) async throws {
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
        guard stream.state == .done || (stream.objectSequence && stream.state == .afterElement) else {
            throw CinnError.invalid("file", "the JSON ends too early at line \(stream.line): the file looks cut off")
        }
    }

    enum State { case start, beforeElement, inElement, afterElement, done }

    private(set) var state = State.start
    /// Whether the file is objects one after another rather than an array.
    private(set) var objectSequence = false
    private(set) var line = 1
    private var element: [UInt8] = []
    private var elementLine = 1
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var started = false

    mutating func feed(_ chunk: Data, _ body: (JSONValue, Int) throws(CinnError) -> Void) throws(CinnError) {
        for byte in chunk {
            switch state {
            case .start:
                if byte == 0xEF || byte == 0xBB || byte == 0xBF || isSpace(byte) { break }
                if byte == UInt8(ascii: "{") {
                    objectSequence = true
                    try startElement(byte, body)
                    break
                }
                guard byte == UInt8(ascii: "[") else { throw .invalid("file", "line \(line): the file is not a JSON array") }
                state = .beforeElement
            case .afterElement where objectSequence:
                if isSpace(byte) { break }
                guard byte == UInt8(ascii: "{") else {
                    throw .invalid("file", "line \(line): a file of JSON documents holds only objects, one after another")
                }
                try startElement(byte, body)
            case .beforeElement, .afterElement:
                if isSpace(byte) { break }
                if byte == UInt8(ascii: "]"), state == .afterElement || !started {
                    state = .done
                } else if byte == .comma, state == .afterElement {
                    state = .beforeElement
                } else if state == .beforeElement {
                    try startElement(byte, body)
                } else {
                    throw .invalid(
                        "file",
                        "line \(line): the JSON array has an unexpected \"\(String(decoding: [byte], as: UTF8.self))\" between its elements"
                    )
                }
            case .inElement:
                try take(byte, body)
            case .done:
                guard isSpace(byte) else { throw .invalid("file", "line \(line): the JSON goes on after its array ends") }
            }
            if byte == .newline { line += 1 }
        }
    }

    private mutating func startElement(_ byte: UInt8, _ body: (JSONValue, Int) throws(CinnError) -> Void) throws(CinnError) {
        state = .inElement
        started = true
        element.removeAll(keepingCapacity: true)
        elementLine = line
        depth = 0
        try take(byte, body)
    }

    /// One byte of an element; at the element's end, parses it and hands it on.
    private mutating func take(_ byte: UInt8, _ body: (JSONValue, Int) throws(CinnError) -> Void) throws(CinnError) {
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

    private mutating func finish(_ body: (JSONValue, Int) throws(CinnError) -> Void) throws(CinnError) {
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONParser.parse(element, firstLine: elementLine)
        } catch {
            throw error.fileError
        }
        try body(value, elementLine)
        element.removeAll(keepingCapacity: true)
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == .space || byte == .tab || byte == .newline || byte == .carriageReturn
    }
}
