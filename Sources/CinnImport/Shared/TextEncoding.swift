import CinnCore

/// Turns a field's bytes into text: UTF-8, or Windows-1252 (old Windows exports) when they are not valid UTF-8.
enum TextDecoding {
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self) ?? windows1252(bytes)
    }

    static func windows1252(_ bytes: some Sequence<UInt8>) -> String {
        var text = String.UnicodeScalarView()
        for byte in bytes {
            let value = (0x80...0x9F).contains(byte) ? windows1252High[Int(byte - 0x80)] : UInt32(byte)
            text.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(text)
    }

    /// Bytes 0x80–0x9F of Windows-1252; the five unused ones map to the C1 controls, as browsers do.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}

/// Checks that the start of a file is text Cinn can read: not empty, not UTF-16 or UTF-32, not binary.
enum TextCheck {
    /// Throws when the file cannot be text; `contents` says what a ZIP archive should be unpacked to find.
    static func check(prefix: [UInt8], contents: String) throws(CinnError) {
        let text = prefix.starts(with: [0xEF, 0xBB, 0xBF]) ? prefix.dropFirst(3) : prefix[...]
        if text.allSatisfy({ [.space, .tab, .newline, .carriageReturn].contains($0) }) {
            throw .invalid("file", "the file is empty")
        }
        if prefix.starts(with: [0x1F, 0x8B]) {
            throw .invalid("file", "the file is compressed with gzip; unpack it first (gunzip)")
        }
        if let encoding = wideEncoding(prefix) {
            throw .invalid("file", "the file is \(encoding); save it as UTF-8")
        }
        if prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            throw .invalid("file", "the file is a ZIP archive; unpack it and import the \(contents) inside")
        }
        if let offset = text.firstIndex(where: isBinary) {
            throw .invalid("file", "the file is not text: it holds binary data (byte \(offset + 1))")
        }
    }

    /// "UTF-16" or "UTF-32" when a byte order mark or the pattern of zero bytes says so.
    private static func wideEncoding(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xFE, 0, 0]) || bytes.starts(with: [0, 0, 0xFE, 0xFF]) { return "UTF-32" }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return "UTF-16" }
        let sample = bytes.prefix(512)
        guard sample.count >= 4, sample.contains(0) else { return nil }
        var zeros = [0, 0, 0, 0]
        for (offset, byte) in sample.enumerated() where byte == 0 { zeros[offset % 4] += 1 }
        let perPosition = sample.count / 4
        let mostlyZero = zeros.map { $0 * 10 >= perPosition * 9 }
        if mostlyZero.filter({ $0 }).count == 3 { return "UTF-32" }
        if (mostlyZero[0] && mostlyZero[2]) != (mostlyZero[1] && mostlyZero[3]) { return "UTF-16" }
        return nil
    }

    /// Control bytes that never appear in a text file.
    private static func isBinary(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != .tab && byte != .newline && byte != .carriageReturn && byte != 0x0C
    }
}
