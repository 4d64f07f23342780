import CinnCore
import Foundation
import Logging

/// How the server writes its log lines: logfmt (`key=value` pairs) or one JSON object a line, both of which log
/// collectors read as they are.
public enum LogFormat: String, Sendable, CaseIterable {
    case logfmt, json
}

/// A log handler writing one line an event in `LogFormat`: the time (UTC, milliseconds), the level, the logger's label,
/// the message, then the metadata by key. Hummingbird's request id (`hb.request.id`) is written as `request_id`.
public struct StructuredLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    let label: String
    let format: LogFormat
    let write: @Sendable (String) -> Void

    /// Writes to standard error unless given `write`.
    public init(
        label: String, format: LogFormat, level: Logger.Level,
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.label = label
        self.format = format
        self.logLevel = level
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata.merging(event.metadata ?? [:]) { $1 }
        if let error = event.error { merged["error"] = .string(String(describing: error)) }
        var fields: [(String, String)] = [
            ("ts", Self.timestamp(Date())), ("level", event.level.rawValue), ("logger", label), ("msg", event.message.description),
        ]
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            fields.append((key == "hb.request.id" ? "request_id" : key, Self.text(value)))
        }
        write(Self.render(fields, format) + "\n")
    }

    static func render(_ fields: [(String, String)], _ format: LogFormat) -> String {
        switch format {
        case .logfmt:
            return fields.map { "\($0.0)=\(logfmtValue($0.1))" }.joined(separator: " ")
        case .json:
            return JSONText.object(ofStrings: fields.map { (key: $0.0, value: $0.1) })
        }
    }

    static func text(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let string): return string
        case .stringConvertible(let convertible): return convertible.description
        case .array, .dictionary: return value.description
        }
    }

    /// A value as logfmt writes it: bare when it is a plain word, else quoted with `"` and `\` escaped.
    static func logfmtValue(_ value: String) -> String {
        let plain =
            !value.isEmpty && value.unicodeScalars.allSatisfy { $0.value > 32 && $0 != "=" && $0 != "\"" && $0 != "\\" && $0.value != 127 }
        return plain ? value : JSONText.quoted(value)
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
