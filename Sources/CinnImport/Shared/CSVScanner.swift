import CinnCore
import Foundation

/// One record of a delimited file: its fields as byte ranges, valid only inside the scanner's callback.
struct CSVRow {
    let bytes: UnsafeBufferPointer<UInt8>
    let fields: [Range<Int>]
    /// The line the record starts on (1-based).
    let line: Int

    var count: Int { fields.count }

    /// The bytes of field `index` without surrounding spaces; empty when the row is shorter.
    func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        guard index < fields.count else { return UnsafeBufferPointer(start: nil, count: 0) }
        return trimmed(fields[index])
    }

    /// Field `index` as text, trimmed.
    func text(_ index: Int) -> String { TextDecoding.string(field(index)) }

    /// Field `index` as text, or nil when it is blank.
    func nonEmptyText(_ index: Int) -> String? {
        let bytes = field(index)
        return bytes.isEmpty ? nil : TextDecoding.string(bytes)
    }

    /// Everything from field `index` to the end of the record, delimiters included, or nil when blank.
    func remainder(from index: Int) -> String? {
        guard index < fields.count, let last = fields.last else { return nil }
        let bytes = trimmed(fields[index].lowerBound..<last.upperBound)
        return bytes.isEmpty ? nil : TextDecoding.string(bytes)
    }

    /// Fields `first` through `last` as one text, the delimiters between them included.
    func text(from first: Int, through last: Int) -> String {
        guard last < fields.count, first <= last else { return text(first) }
        return TextDecoding.string(trimmed(fields[first].lowerBound..<fields[last].upperBound))
    }

    private func trimmed(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, bytes[lower] == .space || bytes[lower] == .tab { lower += 1 }
        while upper > lower, bytes[upper - 1] == .space || bytes[upper - 1] == .tab { upper -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[lower..<upper])
    }
}

/// Reads a delimited file record by record in 64 KiB chunks: RFC 4180 quotes, BOM, CRLF, blank lines skipped.
final class CSVScanner {
    static let chunkSize = 64 * 1024

    private let handle: FileHandle?
    private let delimiter: UInt8
    private let quoting: Bool
    private let maximumRecordSize: Int
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEndOfFile: Bool
    private var startedReading = false
    private var bufferOffset: Int64 = 0
    private var line = 1
    private var fields: [Range<Int>] = []
    private var escapedFields: [Int] = []

    /// Scans the file at `url`; a record longer than `maximumRecordSize` bytes makes the file unreadable.
    init(url: URL, delimiter: UInt8, quoting: Bool = true, maximumRecordSize: Int = 1 << 20) throws(CinnError) {
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw .invalid("file", "cannot open \(url.lastPathComponent): \(error.localizedDescription)")
        }
        self.delimiter = delimiter
        self.quoting = quoting
        self.maximumRecordSize = maximumRecordSize
        buffer = [UInt8](repeating: 0, count: 2 * Self.chunkSize)
        atEndOfFile = false
    }

    /// Scans bytes already in memory, such as the start of a file.
    init(bytes: [UInt8], delimiter: UInt8, quoting: Bool = true) {
        handle = nil
        self.delimiter = delimiter
        self.quoting = quoting
        maximumRecordSize = bytes.count
        buffer = bytes
        end = bytes.count
        atEndOfFile = true
        skipByteOrderMark()
    }

    deinit { try? handle?.close() }

    /// How many bytes of the file the records read so far cover.
    var position: Int64 { bufferOffset + Int64(start) }

    /// Hands the next non-blank record to `body`; false at the end of the file.
    func next(_ body: (CSVRow) throws(CinnError) -> Void) throws(CinnError) -> Bool {
        while true {
            if start == end {
                if atEndOfFile { return false }
                try refill()
                continue
            }
            guard
                let (next, newlines) = try buffer.withUnsafeBufferPointer({ bytes throws(CinnError) in
                    try scanRecord(bytes)
                })
            else {
                try refill()
                continue
            }
            unescapeQuotes()
            let blank = fields.allSatisfy { $0.isEmpty }
            if !blank {
                let row = fields, recordLine = line
                try buffer.withUnsafeBufferPointer { bytes throws(CinnError) in
                    try body(CSVRow(bytes: bytes, fields: row, line: recordLine))
                }
            }
            line += newlines
            start = next
            if !blank { return true }
        }
    }

    /// Splits the record at `start` into `fields`; nil when the buffer ends before the record does.
    // Works on local copies of the scanner's state: each access to a class property is checked for exclusivity.
    private func scanRecord(_ bytes: UnsafeBufferPointer<UInt8>) throws(CinnError) -> (next: Int, newlines: Int)? {
        var fields: [Range<Int>] = []
        var escapedFields: [Int] = []
        swap(&fields, &self.fields)
        swap(&escapedFields, &self.escapedFields)
        defer {
            swap(&fields, &self.fields)
            swap(&escapedFields, &self.escapedFields)
        }
        fields.removeAll(keepingCapacity: true)
        escapedFields.removeAll(keepingCapacity: true)
        let end = end, atEndOfFile = atEndOfFile, delimiter = delimiter, quoting = quoting, line = line
        var index = start
        var newlines = 0
        while true {
            if quoting, index < end, bytes[index] == .quote {
                let quoteLine = line + newlines
                let contentStart = index + 1
                var cursor = contentStart
                var escaped = false
                while true {
                    guard cursor < end else {
                        if atEndOfFile {
                            throw .invalid("file", "line \(quoteLine): a quoted field starts here and is never closed")
                        }
                        return nil
                    }
                    let byte = bytes[cursor]
                    if byte == .quote {
                        if cursor + 1 == end, !atEndOfFile { return nil }
                        if cursor + 1 < end, bytes[cursor + 1] == .quote {
                            escaped = true
                            cursor += 2
                            continue
                        }
                        break
                    }
                    if byte == .newline { newlines += 1 }
                    cursor += 1
                }
                if escaped { escapedFields.append(fields.count) }
                fields.append(contentStart..<cursor)
                index = cursor + 1
                while index < end, bytes[index] != delimiter, bytes[index] != .newline { index += 1 }
                if index == end, !atEndOfFile { return nil }
            } else {
                let fieldStart = index
                while index < end, bytes[index] != delimiter, bytes[index] != .newline { index += 1 }
                if index == end, !atEndOfFile { return nil }
                var fieldEnd = index
                if index == end || bytes[index] == .newline, fieldEnd > fieldStart, bytes[fieldEnd - 1] == .carriageReturn {
                    fieldEnd -= 1
                }
                fields.append(fieldStart..<fieldEnd)
            }
            if index == end { return (end, newlines) }
            if bytes[index] == .newline { return (index + 1, newlines + 1) }
            index += 1
        }
    }

    /// Turns each doubled quote inside the quoted fields just scanned into one, in place.
    private func unescapeQuotes() {
        for fieldIndex in escapedFields {
            let range = fields[fieldIndex]
            var write = range.lowerBound
            var read = range.lowerBound
            while read < range.upperBound {
                buffer[write] = buffer[read]
                read += buffer[read] == .quote ? 2 : 1
                write += 1
            }
            fields[fieldIndex] = range.lowerBound..<write
        }
    }

    /// Moves the unread bytes to the front of the buffer and reads the next chunk after them.
    private func refill() throws(CinnError) {
        guard let handle else {
            atEndOfFile = true
            return
        }
        if start > 0 {
            let count = end - start
            buffer.withUnsafeMutableBytes { raw in
                guard let base = raw.baseAddress else { return }
                _ = memmove(base, base + start, count)
            }
            bufferOffset += Int64(start)
            end = count
            start = 0
        }
        if end == buffer.count {
            guard buffer.count < maximumRecordSize else {
                throw .invalid("file", "line \(line) is longer than \(maximumRecordSize >> 20) MiB; is this the right file?")
            }
            buffer.append(contentsOf: repeatElement(0, count: buffer.count))
        }
        let data: Data?
        do {
            data = try handle.read(upToCount: min(Self.chunkSize, buffer.count - end))
        } catch {
            throw .invalid("file", "cannot read the file: \(error.localizedDescription)")
        }
        guard let data, !data.isEmpty else {
            atEndOfFile = true
            return
        }
        buffer.withUnsafeMutableBufferPointer { bytes in
            _ = data.copyBytes(to: UnsafeMutableBufferPointer(rebasing: bytes[end..<end + data.count]))
        }
        end += data.count
        if !startedReading {
            startedReading = true
            skipByteOrderMark()
        }
    }

    private func skipByteOrderMark() {
        if end - start >= 3, buffer[start] == 0xEF, buffer[start + 1] == 0xBB, buffer[start + 2] == 0xBF {
            start += 3
        }
    }
}

extension UInt8 {
    static let tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let quote = UInt8(ascii: "\"")
    static let comma = UInt8(ascii: ",")
    static let semicolon = UInt8(ascii: ";")
}
