import Foundation

/// Pieces of JSON text, for the places that write JSON by hand because they are hot paths (sync answers, storage
/// columns, the trend and the exports): one way to write a string, a number and `null`. Everything else uses Codable.
public enum JSONText {
    /// JSON's null, also what a missing optional is written as.
    public static let null = "null"

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    public static func quoted(_ text: String) -> String {
        var out = ""
        appendQuoted(text, to: &out)
        return out
    }

    /// A JSON string literal, or `null` for nil.
    public static func quoted(_ text: String?) -> String {
        text.map(quoted) ?? null
    }

    /// Appends `text` as a JSON string literal; text with nothing to escape (nearly all) is appended as it is.
    public static func appendQuoted(_ text: String, to out: inout String) {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out += "\""
            out += text
            out += "\""
        } else {
            out += escaped(text)
        }
    }

    /// Swift's shortest form that reads back as the same Double (`72.0`, `0.1`), or `null` for nil: the API's numbers.
    /// JSON has no infinity and no NaN: a number that is not finite is `null` too.
    public static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return null }
        return "\(value)"
    }

    /// The shortest decimal that reads back as the same Double, without a trailing ".0" (`72`, `0.1`): storage
    /// text and sync's fields; `null` for a number that is not finite, which JSON cannot hold.
    public static func compactNumber(_ value: Double) -> String {
        guard value.isFinite else { return null }
        // Below 2^53 every whole Double is an exact integer; above it Swift writes an exponent.
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A JSON array of values that are JSON text already (documents kept as their clients sent them).
    public static func array(ofEncoded elements: [String]) -> String {
        "[" + elements.joined(separator: ",") + "]"
    }

    /// A JSON object of string members in the order given (a log line, whose first keys a reader scans for).
    public static func object(ofStrings members: [(key: String, value: String)]) -> String {
        var out = "{"
        for (index, member) in members.enumerated() {
            if index > 0 { out += "," }
            appendQuoted(member.key, to: &out)
            out += ":"
            appendQuoted(member.value, to: &out)
        }
        return out + "}"
    }

    private static func escaped(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case "\u{08}": escaped += "\\b"
            case "\u{0C}": escaped += "\\f"
            case _ where scalar.value < 0x20: escaped += String(format: "\\u%04x", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }
}
