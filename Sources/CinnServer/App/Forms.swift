import CinnCore
import CinnJournal
import Foundation
import Hummingbird
import MultipartKit
import NIOCore

/// One field of a submitted form, as a person filled it in: the text trimmed, nil when left empty or out. A form is a
/// `Decodable` type of such fields, read by `Request.decodeForm`; `$field` is the field itself, which knows its name, so
/// reading it as a number names it in the error.
@propertyWrapper
struct Field: Decodable, Sendable {
    var wrappedValue: String?
    /// The field's name in the form.
    let name: String
    /// The text exactly as it was sent, for showing a form again as the person typed it; nil when left out.
    let sent: String?

    var projectedValue: Field { self }

    init(wrappedValue: String? = nil, name: String = "") {
        self.wrappedValue = wrappedValue
        self.name = name
        sent = wrappedValue
    }

    init(from decoder: any Decoder) throws {
        name = decoder.codingPath.last?.stringValue ?? ""
        let container = try decoder.singleValueContainer()
        sent = container.decodeNil() ? nil : try container.decode(String.self)
        let text = sent?.trimmingCharacters(in: .whitespacesAndNewlines)
        wrappedValue = text?.isEmpty == false ? text : nil
    }

    /// The decimal number a person typed ("72.4" or "72,4"), nil when the field was left empty; the error names the field.
    func number() throws -> Double? {
        try wrappedValue.map { text in try Self.number(text, field: name) }
    }

    /// The id a form's key holds (`FormKeys`), nil when the form came without one; a key that is no id is refused,
    /// naming the field.
    func uuid() throws -> UUID? {
        guard let text = wrappedValue else { return nil }
        guard let id = UUID(text: text) else { throw CinnError.invalid(name, "\"\(text)\" is not a form's key") }
        return id
    }

    /// The whole number a person typed, nil when the field was left empty; the error names the field.
    func integer() throws -> Int? {
        guard let text = wrappedValue else { return nil }
        guard let value = Int(text) else { throw CinnError.invalid(name, "\"\(text)\" is not a whole number") }
        return value
    }

    /// Whether a checkbox or a hidden confirmation said "true".
    var isTrue: Bool { wrappedValue == "true" }

    /// `text` as a number a person typed ("72,4" too); the error names `field`.
    static func number(_ text: String, field: String) throws -> Double {
        guard let value = Double(text.replacingOccurrences(of: ",", with: ".")) else {
            throw CinnError.invalid(field, "\"\(text)\" is not a number")
        }
        return value
    }
}

extension KeyedDecodingContainer {
    /// A field left out of the form is an empty field, not a decoding error.
    func decode(_ type: Field.Type, forKey key: Key) throws -> Field {
        try decodeIfPresent(Field.self, forKey: key) ?? Field(name: key.stringValue)
    }
}

/// A password field: its text exactly as typed (spaces are part of a password), empty when left out.
@propertyWrapper
struct PasswordField: Decodable, Sendable {
    var wrappedValue: String

    init(wrappedValue: String = "") { self.wrappedValue = wrappedValue }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? "" : try container.decode(String.self)
    }
}

extension KeyedDecodingContainer {
    func decode(_ type: PasswordField.Type, forKey key: Key) throws -> PasswordField {
        try decodeIfPresent(PasswordField.self, forKey: key) ?? PasswordField()
    }
}

/// The name of a form field a form type reads by a name it makes (`servings.3`, `min.protein`).
struct FormKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where Key == FormKey {
    /// The field named `name`, trimmed, nil when empty or left out.
    func field(_ name: String) throws -> Field { try decode(Field.self, forKey: FormKey(name)) }
}

/// Text encoded as a browser encodes a form (`+` is a space), read leniently: for a form's CSRF token before the
/// handler decodes the form, and for a GET form's query items.
enum URLEncodedText {
    /// The name–value pairs of `text`; a name given twice keeps its last value.
    static func pairs(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in
                part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part)
            }
            values[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return values
    }
}

/// The largest `application/x-www-form-urlencoded` body read.
let maximumFormBytes = 64 << 10

extension Request {
    /// The posted `application/x-www-form-urlencoded` form as `T` (Hummingbird's `URLEncodedFormDecoder`). A body
    /// that is not a form is 400; a field of the wrong shape (`weight[]=1`) is 422 naming it.
    func decodeForm<T: Decodable>(_ type: T.Type = T.self) async throws -> T {
        var request = self
        let buffer = try await request.body(upTo: maximumFormBytes)
        return try Self.decodeForm(T.self, from: String(decoding: buffer.readableBytesView, as: UTF8.self))
    }

    static func decodeForm<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        do {
            return try URLEncodedFormDecoder().decode(T.self, from: text)
        } catch let error as DecodingError {
            throw CinnError.fromDecoding(error)
        } catch {
            throw CinnError(.malformedRequest, "the form could not be read")
        }
    }
}

/// A `multipart/form-data` upload: the file part is streamed to a temporary file, the other
/// fields are kept (small) in memory.
struct MultipartUpload {
    var fields: [String: String] = [:]
    var file: URL?
    var fileName: String?

    /// The upload's other fields as `T`, read as `Request.decodeForm` reads a form.
    func decodeFields<T: Decodable>(_ type: T.Type) throws -> T {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let text = fields.map { name, value in
            (name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "="
                + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }.joined(separator: "&")
        return try Request.decodeForm(T.self, from: text)
    }

    /// Parses the request body; the caller removes `file` when done.
    static func receive(_ request: Request, fileField: String, maximumBytes: Int) async throws -> MultipartUpload {
        guard let contentType = request.headers[.contentType], contentType.lowercased().hasPrefix("multipart/form-data"),
            let boundaryRange = contentType.range(of: "boundary=")
        else {
            throw CinnError(.malformedRequest, "the upload must be multipart/form-data")
        }
        let boundary = String(contentType[boundaryRange.upperBound...]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        let state = UploadState(fileField: fileField, maximumBytes: maximumBytes)
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in state.header(name, value) }
        parser.onBody = { buffer in state.body(&buffer) }
        parser.onPartComplete = { state.partComplete() }
        do {
            for try await buffer in request.body {
                try parser.execute(buffer)
                if let error = state.error { throw error }
            }
        } catch {
            state.discard()
            if let error = error as? CinnError { throw error }
            throw CinnError(.malformedRequest, "the upload could not be read")
        }
        guard state.upload.file != nil else {
            state.discard()
            throw CinnError.invalid("file", "choose a file to import")
        }
        return state.upload
    }

    /// Collects parts as the parser reports them.
    private final class UploadState {
        let fileField: String
        let maximumBytes: Int
        var upload = MultipartUpload()
        var headers: [String: String] = [:]
        var fieldValue = ""
        var handle: FileHandle?
        var written = 0
        var error: CinnError?

        init(fileField: String, maximumBytes: Int) {
            self.fileField = fileField
            self.maximumBytes = maximumBytes
        }

        func header(_ name: String, _ value: String) { headers[name.lowercased()] = value }

        var disposition: (name: String?, fileName: String?) {
            guard let value = headers["content-disposition"] else { return (nil, nil) }
            func parameter(_ key: String) -> String? {
                guard let range = value.range(of: "\(key)=\"") else { return nil }
                let rest = value[range.upperBound...]
                return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
            }
            return (parameter("name"), parameter("filename"))
        }

        func body(_ buffer: inout ByteBuffer) {
            guard error == nil else { return }
            let (name, fileName) = disposition
            if name == fileField {
                if handle == nil {
                    do {
                        let url = try makePrivateUploadFile()
                        handle = try FileHandle(forWritingTo: url)
                        upload.file = url
                    } catch {
                        self.error = CinnError(.internal, "cannot store the upload")
                        return
                    }
                    upload.fileName = fileName.map { ($0 as NSString).lastPathComponent }
                }
                written += buffer.readableBytes
                if written > maximumBytes {
                    error = .invalid("file", "the file is larger than \(maximumBytes >> 20) MB")
                    return
                }
                do {
                    try handle?.write(contentsOf: buffer.readableBytesView)
                } catch {
                    self.error = CinnError(.internal, "cannot store the upload")
                }
            } else if fieldValue.utf8.count < 4096 {
                fieldValue += String(decoding: buffer.readableBytesView, as: UTF8.self)
            }
        }

        func partComplete() {
            let (name, _) = disposition
            if name == fileField {
                try? handle?.close()
                handle = nil
                if upload.file == nil {
                    upload.file = try? makePrivateUploadFile()
                }
            } else if let name {
                upload.fields[name] = fieldValue.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            headers = [:]
            fieldValue = ""
        }

        func discard() {
            try? handle?.close()
            if let file = upload.file { try? FileManager.default.removeItem(at: file) }
        }
    }
}

/// A form that creates a record carries a key the server made when it rendered the form: the new record's id
/// (UUIDv7). Posted twice with the same key — a double-tapped button, a form sent again after a timeout, a replayed
/// post — it makes one record, and the second post answers as the first did.
enum FormKeys {
    /// A fresh key for a form about to be rendered.
    static func fresh() -> String { UUID.v7().lowercasedString }

    /// Runs `create` with `key` as the new record's id; when a record with that id exists already (the store refuses
    /// the id as a conflict), answers with it, from `existing`, as the first post did.
    static func once<Record>(
        _ key: UUID?, create: (UUID?) async throws -> Record, existing: (UUID) async throws -> Record
    ) async throws -> Record {
        do {
            return try await create(key)
        } catch let error as CinnError where error.code == .conflict {
            guard let key, let first = try? await existing(key) else { throw error }
            return first
        }
    }

    /// For a post that changes the journal without making a record under `key` (a set marked done, a day copied):
    /// runs `change` with the key recorded in its first write (`Journal.claiming`); when the key was posted before,
    /// nothing is changed and `answer` says what the first post's answer said.
    static func once<Answer>(
        _ key: UUID?, in journal: Journal, change: () async throws -> Answer, answer: () async throws -> Answer
    ) async throws -> Answer {
        try await once(key) { key in
            try await journal.claiming(formKey: key, change)
        } existing: { key in
            guard try await journal.formKeyWasPosted(key) else { throw CinnError(.conflict, "not posted before") }
            return try await answer()
        }
    }
}
