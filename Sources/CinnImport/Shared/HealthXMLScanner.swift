import CinnCore
import Foundation

/// A streaming scanner for the tags of an Apple Health `export.xml`, fed chunk by chunk as the file is
/// decompressed; it never holds more than one tag beyond the current chunk. Foundation's XMLParser on
/// Linux crashes on the export's internal DTD (docs/DESIGN.md "Apple Health"); this scanner skips the DTD
/// whole (so iOS 16's malformed one does no harm), reads the start, empty and end tags with their
/// attributes, checks that elements nest, and names line and column in every error.
public struct HealthXMLScanner {
    /// One tag, valid only inside the handler it is passed to.
    public struct Tag {
        public enum Kind { case start, empty, end }
        public let kind: Kind
        let bytes: UnsafeBufferPointer<UInt8>
        let name: Range<Int>
        /// Name and value ranges into `bytes`, values without their quotes and not yet unescaped.
        let attributes: [(name: Range<Int>, value: Range<Int>)]
        /// Where the tag starts.
        public let line: Int
        public let column: Int

        public func isNamed(_ expected: StaticString) -> Bool { Self.equal(bytes, name, expected) }

        /// Whether the attribute `key`'s raw value is `expected` (false when the tag has no `key`).
        public func value(_ key: StaticString, is expected: StaticString) -> Bool {
            guard let range = valueRange(key) else { return false }
            return Self.equal(bytes, range, expected)
        }

        public var nameText: String { String(decoding: UnsafeBufferPointer(rebasing: bytes[name]), as: UTF8.self) }

        /// The value of the attribute `key`, unescaped; nil when the tag has none.
        public func value(_ key: StaticString) -> String? {
            guard let range = valueRange(key) else { return nil }
            return HealthXMLScanner.unescaped(UnsafeBufferPointer(rebasing: bytes[range]))
        }

        /// The raw bytes of the attribute `key`'s value (no entities decoded: for dates and numbers).
        public func withValueBytes<T>(_ key: StaticString, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
            guard let range = valueRange(key) else { return nil }
            return body(UnsafeBufferPointer(rebasing: bytes[range]))
        }

        func valueRange(_ key: StaticString) -> Range<Int>? {
            for attribute in attributes where Self.equal(bytes, attribute.name, key) { return attribute.value }
            return nil
        }

        static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ text: StaticString) -> Bool {
            guard range.count == text.utf8CodeUnitCount else { return false }
            return text.withUTF8Buffer { expected in
                for index in 0..<expected.count where bytes[range.lowerBound + index] != expected[index] { return false }
                return true
            }
        }
    }

    /// Bytes of a tag (or markup) the last chunk ended inside.
    private var carry: [UInt8] = []
    private var carryLine = 1, carryColumn = 1
    /// The open elements, outermost first: where each one's name ends in `openNames` (the names' bytes one
    /// after another) and the line it starts on.
    private var open: [(nameEnd: Int, line: Int)] = []
    private var openNames: [UInt8] = []
    /// The current tag's attributes (reused from tag to tag).
    private var attributes: [(name: Range<Int>, value: Range<Int>)] = []
    private var line = 1
    /// The offset (in the whole stream) of the byte after the last newline, for columns.
    private var lineStart = 0
    private var offset = 0
    private var sawRoot = false

    /// The longest markup read: no tag of an export comes near it, so a tag this long has lost a closing quote
    /// or '>', and the scanner says so instead of holding the rest of the file.
    static let longestMarkup = 1 << 20
    /// The deepest nesting read: an export nests four elements at most (HealthData, Workout, WorkoutRoute,
    /// FileReference), so a file nested deeper is not one, and the scanner says so instead of keeping every
    /// open element (a 292 KB zip can hold 100 million nested tags).
    static let deepestNesting = 16

    public init() {}

    /// Scans `chunk`, calling `handle` for every complete tag in it (and the one the last chunk ended in).
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ handle: (Tag) throws -> Void) throws {
        guard !carry.isEmpty else {
            try scan(chunk.bindMemory(to: UInt8.self), handle)
            return
        }
        // The carried start of a tag and this chunk, up to that tag's end, scanned together.
        var joined = carry
        joined.append(contentsOf: chunk)
        carry = []
        let base = offset - joined.count + chunk.count
        offset = base
        line = carryLine
        lineStart = base - (carryColumn - 1)
        try joined.withUnsafeBufferPointer { try scan($0, handle) }
    }

    /// Says whether the stream ended where a whole document does.
    public func finish() throws {
        if !carry.isEmpty {
            throw CinnError.invalid(
                "export.xml", "export.xml ends early inside a tag at line \(carryLine), column \(carryColumn); the file is cut off")
        }
        if let last = open.last {
            throw CinnError.invalid(
                "export.xml",
                "export.xml ends early (line \(line)): <\(openName(open.count - 1))> from line \(last.line) is not closed; the file is cut off"
            )
        }
        if !sawRoot { throw CinnError.invalid("export.xml", "export.xml holds no <HealthData>: not an Apple Health export") }
    }

    private func error(_ message: String, line: Int, column: Int) -> CinnError {
        CinnError.invalid("export.xml", "export.xml line \(line), column \(column): \(message)")
    }

    /// The name of the open element at `depth` (0 is the root).
    private func openName(_ depth: Int) -> String {
        let start = depth == 0 ? 0 : open[depth - 1].nameEnd
        return String(decoding: openNames[start..<open[depth].nameEnd], as: UTF8.self)
    }

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ handle: (Tag) throws -> Void) throws {
        let count = bytes.count
        let base = offset
        var index = 0
        while index < count {
            // Text between tags: whitespace (and, in damaged exports, stray control characters) only.
            let byte = bytes[index]
            if byte != UInt8(ascii: "<") {
                if byte == 0x0A {
                    line += 1
                    lineStart = base + index + 1
                }
                index += 1
                continue
            }
            let start = index
            let startLine = line, startLineStart = lineStart
            let startColumn = base + index - lineStart + 1
            let read: (kind: Tag.Kind, name: Range<Int>, end: Int)?
            if start + 1 < count, bytes[start + 1] == UInt8(ascii: "!") || bytes[start + 1] == UInt8(ascii: "?") {
                if let end = markupEnd(bytes, from: start) {
                    index = end
                    continue
                }
                read = nil
            } else {
                read = try readTag(bytes, from: start, line: startLine, column: startColumn)
            }
            guard case let (kind, name, end)? = read else {
                // The chunk ends inside this markup: keep it for the next one.
                guard count - start <= Self.longestMarkup else {
                    throw error(
                        "markup longer than \(Self.longestMarkup / 1_048_576) MB: a closing quote or '>' is missing", line: startLine,
                        column: startColumn)
                }
                carry = Array(bytes[start...])
                carryLine = startLine
                carryColumn = startColumn
                line = startLine
                lineStart = startLineStart
                offset = base + count
                return
            }
            index = end
            let tag = Tag(kind: kind, bytes: bytes, name: name, attributes: attributes, line: startLine, column: startColumn)
            switch kind {
            case .start:
                if open.isEmpty {
                    guard tag.isNamed("HealthData") else {
                        throw error(
                            "expected <HealthData>, found <\(tag.nameText)>: not an Apple Health export", line: startLine,
                            column: startColumn)
                    }
                    sawRoot = true
                }
                guard open.count < Self.deepestNesting else {
                    throw error(
                        "<\(tag.nameText)> is nested \(open.count + 1) elements deep; an Apple Health export nests at most a few",
                        line: startLine, column: startColumn)
                }
                openNames.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[name]))
                open.append((openNames.count, startLine))
            case .empty:
                if open.isEmpty { throw error("<\(tag.nameText)/> outside <HealthData>", line: startLine, column: startColumn) }
            case .end:
                guard let last = open.last else { throw error("</\(tag.nameText)> closes nothing", line: startLine, column: startColumn) }
                let lastStart = open.count == 1 ? 0 : open[open.count - 2].nameEnd
                let matches = openNames.withUnsafeBufferPointer { names in
                    names[lastStart..<last.nameEnd].elementsEqual(UnsafeBufferPointer(rebasing: bytes[name]))
                }
                guard matches else {
                    throw error(
                        "</\(tag.nameText)> closes <\(openName(open.count - 1))> from line \(last.line)", line: startLine,
                        column: startColumn)
                }
                open.removeLast()
                openNames.removeLast(openNames.count - lastStart)
            }
            try handle(tag)
        }
        offset = base + count
    }

    /// The offset after the markup starting at `start` whose end is a fixed sequence (a comment, the DOCTYPE
    /// with its internal DTD, a processing instruction), skipped whole whatever it holds; nil when the chunk
    /// ends first. Counts the lines it passes.
    private mutating func markupEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let count = bytes.count
        func hasPrefix(_ text: StaticString) -> Bool? {
            let length = text.utf8CodeUnitCount
            guard start + length <= count else { return nil }
            return Tag.equal(bytes, start..<start + length, text)
        }
        var terminator: StaticString = "?>"
        if bytes[start + 1] == UInt8(ascii: "!") {
            guard let comment = hasPrefix("<!--"), let doctype = hasPrefix("<!DOCTYPE") else { return nil }
            terminator = comment ? "-->" : doctype ? "]>" : ">"
            // A DOCTYPE without an internal DTD ends at its first '>'.
            if doctype, let end = Self.find(bytes, ">", from: start), !(start..<end).contains(where: { bytes[$0] == UInt8(ascii: "[") }) {
                terminator = ">"
            }
        }
        guard let end = Self.find(bytes, terminator, from: start + 2) else { return nil }
        countLines(bytes, start..<end)
        return end
    }

    private mutating func countLines(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        for index in range where bytes[index] == 0x0A {
            line += 1
            lineStart = offset + index + 1
        }
    }

    /// The offset after the first `text` at or after `start`.
    private static func find(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString, from start: Int) -> Int? {
        let length = text.utf8CodeUnitCount
        return text.withUTF8Buffer { needle in
            var index = start
            while index + length <= bytes.count {
                if bytes[index] == needle[0], Tag.equal(bytes, index..<index + length, text) { return index + length }
                index += 1
            }
            return nil
        }
    }

    @inline(__always)
    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte != UInt8(ascii: "=") && byte != UInt8(ascii: "/") && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "<")
            && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
    }

    /// Reads `<name a="v" …>`, `<name …/>` or `</name>` starting at `start`, in one pass: its kind, its name and
    /// (into `attributes`) its attributes' names and values (without their quotes, not yet unescaped), and the
    /// offset after its '>'; nil when the chunk ends first. A value's closing quote is found with memchr, so a
    /// '>' inside quotes is part of the value. Counts the lines it passes.
    private mutating func readTag(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, line tagLine: Int, column: Int) throws
        -> (kind: Tag.Kind, name: Range<Int>, end: Int)?
    {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return nil }
        attributes.removeAll(keepingCapacity: true)
        var index = start + 1
        func skipSpace() {
            while index < count, bytes[index] <= 0x20 {
                if bytes[index] == 0x0A {
                    line += 1
                    lineStart = offset + index + 1
                }
                index += 1
            }
        }
        guard index < count else { return nil }
        var kind = Tag.Kind.start
        if bytes[index] == UInt8(ascii: "/") {
            kind = .end
            index += 1
        }
        let nameStart = index
        while index < count, Self.isNameByte(bytes[index]) { index += 1 }
        let name = nameStart..<index
        guard index < count else { return nil }
        guard !name.isEmpty else { throw error("a tag without a name", line: tagLine, column: column) }
        while true {
            skipSpace()
            guard index < count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: ">"):
                return (kind, name, index + 1)
            case UInt8(ascii: "/") where kind == .start:
                guard index + 1 < count else { return nil }
                if bytes[index + 1] == UInt8(ascii: ">") { return (.empty, name, index + 2) }
            case UInt8(ascii: "<"):
                throw error("a tag is not closed before the next one starts", line: tagLine, column: column)
            default:
                break
            }
            guard kind != .end else { throw error("</\(Self.text(bytes, name))> has attributes", line: tagLine, column: column) }
            let attributeStart = index
            while index < count, Self.isNameByte(bytes[index]) { index += 1 }
            let attributeName = attributeStart..<index
            skipSpace()
            guard index < count else { return nil }
            guard !attributeName.isEmpty, bytes[index] == UInt8(ascii: "=") else {
                throw error(
                    "an attribute without a value in <\(Self.text(bytes, name))>", line: tagLine, column: column + attributeStart - start)
            }
            index += 1
            skipSpace()
            guard index < count else { return nil }
            let quote = bytes[index]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw error("an attribute value without quotes", line: tagLine, column: column + index - start)
            }
            let valueStart = index + 1
            guard let close = memchr(base + valueStart, Int32(quote), count - valueStart) else { return nil }
            let valueEnd = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(close))
            if memchr(base + valueStart, 0x0A, valueEnd - valueStart) != nil { countLines(bytes, valueStart..<valueEnd) }
            attributes.append((attributeName, valueStart..<valueEnd))
            index = valueEnd + 1
        }
    }

    /// An attribute value with its entities decoded and control characters (other than tab) dropped.
    static func unescaped(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.contains(where: { $0 == UInt8(ascii: "&") || ($0 < 0x20 && $0 != 0x09) }) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 && byte != 0x09 {
                index += 1
                continue
            }
            guard byte == UInt8(ascii: "&"),
                let semicolon = (index + 1..<min(bytes.count, index + 12)).first(where: { bytes[$0] == UInt8(ascii: ";") })
            else {
                out.append(byte)
                index += 1
                continue
            }
            let entity = String(decoding: UnsafeBufferPointer(rebasing: bytes[index + 1..<semicolon]), as: UTF8.self)
            var scalar: Unicode.Scalar?
            switch entity {
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "amp": scalar = "&"
            case "quot": scalar = "\""
            case "apos": scalar = "'"
            default:
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if entity.hasPrefix("#") {
                    scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init)
                }
            }
            if let scalar {
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
                index = semicolon + 1
            } else {
                out.append(byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
