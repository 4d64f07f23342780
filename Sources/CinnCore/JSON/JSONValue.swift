import Foundation

/// A JSON value: what `JSONParser` reads (a sync push, an import file, an Open Food Facts answer) and what the
/// hand-written writers write (`text`). The fields of synced records are these, their shape depending on the type.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// A number made from a Double (a stored value), not read from text.
    public static func number(_ value: Double) -> JSONValue { .number(JSONNumber(value)) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // The commonest kinds first: a failed attempt costs an error.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value.double)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    public var isNull: Bool { self == .null }

    public var string: String? { if case .string(let value) = self { value } else { nil } }

    /// The number as the nearest Double.
    public var number: Double? { if case .number(let value) = self { value.double } else { nil } }

    /// A whole number, every digit of the text kept (64-bit ids beyond a Double's 2^53); nil for a fraction.
    public var integer: Int64? {
        guard case .number(let value) = self else { return nil }
        return Int64(value.text) ?? Int64(exactly: value.double)
    }

    /// Compact JSON text with sorted keys: equal values always give equal text.
    public var text: String {
        var out = ""
        write(into: &out)
        return out
    }

    /// Appends the compact text (`text`).
    public func write(into out: inout String) {
        switch self {
        case .null: out += JSONText.null
        case .bool(let value): out += value ? "true" : "false"
        case .number(let value): out += JSONText.compactNumber(value.double)
        case .string(let value): JSONText.appendQuoted(value, to: &out)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out += "," }
                JSONText.appendQuoted(member.key, to: &out)
                out += ":"
                member.value.write(into: &out)
            }
            out += "}"
        }
    }
}

/// A JSON number: the text as written, so that no digit is lost before the caller decides (a 64-bit id, a decimal
/// it rounds its own way), and the nearest Double, which is what two numbers are compared by.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The nearest Double; infinite for text beyond a Double's range (`1e999`), unless the parse refused it.
    public let double: Double
    private let written: String?

    /// A number made from a Double; its text is the compact one (`JSONText.compactNumber`).
    public init(_ value: Double) {
        double = value
        written = nil
    }

    /// A number read from text: `text` is valid JSON number syntax and `double` its value.
    init(text: String, double: Double) {
        self.double = double
        written = text
    }

    /// The text as read, or the compact text of a number made from a Double.
    public var text: String { written ?? JSONText.compactNumber(double) }

    public var description: String { text }

    public static func == (a: JSONNumber, b: JSONNumber) -> Bool { a.double == b.double }

    public func hash(into hasher: inout Hasher) { hasher.combine(double) }
}
