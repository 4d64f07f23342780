/// Reads decimal numbers such as "72.4", "-3" or "158,6" straight from a field's bytes.
enum DecimalNumber {
    /// The number, or nil when the bytes are not one; `decimalComma` accepts "72,4".
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, decimalComma: Bool) -> Double? {
        guard !bytes.isEmpty else { return nil }
        var index = 0
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative || bytes[0] == UInt8(ascii: "+") { index = 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte &- UInt8(ascii: "0") < 10 {
                mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                digits += 1
                if seenPoint { fractionDigits += 1 }
            } else if !seenPoint, byte == UInt8(ascii: ".") || (decimalComma && byte == .comma) {
                seenPoint = true
            } else {
                return parseSlowly(bytes, decimalComma: decimalComma)
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        // Up to 15 digits the mantissa and the power of ten are exact, so one division rounds correctly.
        guard digits <= 15 else { return parseSlowly(bytes, decimalComma: decimalComma) }
        let value = fractionDigits > 0 ? Double(mantissa) / powerOfTen(fractionDigits) : Double(mantissa)
        return negative ? -value : value
    }

    /// The number a text holds, or nil when it holds something else.
    static func parse(_ text: String, decimalComma: Bool) -> Double? {
        var text = text
        return text.withUTF8 { parse($0, decimalComma: decimalComma) }
    }

    private static func powerOfTen(_ exponent: Int) -> Double {
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Long numbers and exponents ("7.24e1"); letters such as "nan" or "inf" are not numbers.
    private static func parseSlowly(_ bytes: UnsafeBufferPointer<UInt8>, decimalComma: Bool) -> Double? {
        var text = ""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                text.unicodeScalars.append(Unicode.Scalar(byte))
            case .comma where decimalComma:
                text.append(".")
            default:
                return nil
            }
        }
        return Double(text)
    }
}
