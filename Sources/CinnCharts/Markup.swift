import CinnCore

/// UTF-8 output of a chart, built by appending; numbers and dates are written without Foundation formatting.
struct Markup {
    private var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Ends a `<line` whose first attributes are written: from `left` to `right` at height `y`, closed.
    mutating func appendHorizontalLine(from left: Double, to right: Double, at y: Double) {
        append("\" x1=\"")
        append(left)
        append("\" x2=\"")
        append(right)
        append("\" y1=\"")
        append(y)
        append("\" y2=\"")
        append(y)
        append("\"/>\n")
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends markup written in the source, as is.
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends text as XML character data or attribute value: `& < > " '` escaped, control characters other than tab and line breaks dropped.
    mutating func append(escaping text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): append("&amp;")
            case UInt8(ascii: "<"): append("&lt;")
            case UInt8(ascii: ">"): append("&gt;")
            case UInt8(ascii: "\""): append("&quot;")
            case UInt8(ascii: "'"): append("&apos;")
            case 0x09, 0x0A, 0x0D: bytes.append(byte)
            case ..<0x20, 0x7F: continue
            default: bytes.append(byte)
            }
        }
    }

    /// Appends a number rounded to `decimals` places (half away from zero), without trailing zeros: 12.5, 12, -0.3.
    mutating func append(_ value: Double, decimals: Int = 1) {
        var scale = 1
        var places = decimals
        while places > 0 {
            scale *= 10
            places -= 1
        }
        let scaled = (value * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard scaled.isFinite, abs(scaled) < 1e15 else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var units = Int(scaled)
        if units < 0 {
            bytes.append(UInt8(ascii: "-"))
            units = -units
        }
        append(integer: units / scale)
        var fraction = units % scale
        guard fraction != 0 else { return }
        var digits = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        bytes.append(UInt8(ascii: "."))
        append(integer: fraction, digits: digits)
    }

    /// Appends a non-negative integer, padded with leading zeros to `digits`.
    mutating func append(integer value: Int, digits: Int = 1) {
        var power = 1
        var padding = digits - 1
        while power <= value / 10 {
            power *= 10
            padding -= 1
        }
        while padding > 0 {
            bytes.append(UInt8(ascii: "0"))
            padding -= 1
        }
        var rest = value
        while power > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / power))
            rest %= power
            power /= 10
        }
    }

    /// Appends a day as `YYYY-MM-DD`.
    mutating func append(_ date: LocalDate) {
        let (year, month, day) = date.parts
        append(integer: year, digits: 4)
        bytes.append(UInt8(ascii: "-"))
        append(integer: month, digits: 2)
        bytes.append(UInt8(ascii: "-"))
        append(integer: day, digits: 2)
    }
}
