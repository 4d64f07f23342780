import CinnCore
import CinnJournal
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension CinnError.Code {
    /// The one place where error codes become HTTP statuses.
    var httpStatus: HTTPResponse.Status {
        switch self {
        case .invalidInput, .needsConfirmation: .unprocessableContent
        case .malformedRequest: .badRequest
        case .notFound: .notFound
        case .conflict: .conflict
        case .unauthenticated: .unauthorized
        case .forbidden: .forbidden
        case .tooManyRequests: .tooManyRequests
        case .upstreamFailed: .badGateway
        case .contentTooLarge: .contentTooLarge
        case .methodNotAllowed: .methodNotAllowed
        case .unavailable: .serviceUnavailable
        default: .internalServerError
        }
    }
}

extension CinnError {
    /// Turns any error a handler threw into a `CinnError` fit to show: unknown errors become a
    /// generic 500, and JSON decoding errors name the field.
    static func from(_ error: any Error) -> CinnError {
        switch error {
        case let error as CinnError:
            return error
        case let error as DecodingError:
            return fromDecoding(error)
        case is NIOTooManyBytesError:
            return CinnError(.contentTooLarge, "the request body is larger than this server takes")
        case let error as HTTPError:
            switch error.status {
            case .notFound: return .notFound(error.body ?? "There is no such page.")
            case .badRequest: return CinnError(.malformedRequest, error.body ?? "bad request")
            case .contentTooLarge: return CinnError(.invalidInput, error.body ?? "the upload is too large", field: "file")
            default: return CinnError(.internal, "something went wrong")
            }
        default:
            return CinnError(.internal, "something went wrong")
        }
    }

    static func fromDecoding(_ error: DecodingError) -> CinnError {
        func name(_ path: [any CodingKey]) -> String? {
            // entries[1].servings, the spelling the rest of the API uses.
            path.isEmpty
                ? nil
                : path.reduce(into: "") { text, key in
                    if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
                }
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = name(context.codingPath + [key]) ?? key.stringValue
            return .invalid(field, "\(field) is required")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let field = name(context.codingPath) ?? "body"
            let expected = type == Double.self || type == LenientNumber.self ? "a number" : "a \(String(describing: type).lowercased())"
            return .invalid(field, "\(field) must be \(expected)")
        case .dataCorrupted(let context):
            if let field = name(context.codingPath) { return .invalid(field, "\(field) is not valid") }
            return CinnError(.malformedRequest, "the request body is not valid JSON")
        @unknown default:
            return CinnError(.malformedRequest, "the request body is not valid JSON")
        }
    }
}

/// What a JSON API handler answers: a DTO (encoded by `jsonString`'s one configuration), nothing (204), JSON text a
/// measured hot path wrote (sync, the research export), or a response made otherwise. Hummingbird turns it into the
/// response; a DTO that cannot be encoded is an error (500), never a body of `null`.
enum APIAnswer: ResponseGenerator {
    case json(any Encodable, status: HTTPResponse.Status = .ok)
    case jsonText(String)
    case noContent
    case response(Response)

    func response(from request: Request, context: some RequestContext) throws -> Response {
        switch self {
        case .json(let value, let status): try JSONResponse.make(value, status: status)
        case .jsonText(let text): JSONResponse.body(text)
        case .noContent: Response(status: .noContent)
        case .response(let response): response
        }
    }
}

/// Builds JSON responses.
enum JSONResponse {
    /// `value` as the answer's JSON; a value that cannot be written is an error (500), never a body of `null`.
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws(CinnError) -> Response {
        body(try jsonString(value), status: status)
    }

    static func body(_ json: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
    }

    /// `error` as the API's error answer (`ErrorDTO`), with the import's `report` beside it when an import was refused.
    static func error(_ error: CinnError, report: ImportReportDTO? = nil) -> Response {
        let answer = ErrorDTO(error: .init(code: error.code.rawValue, message: error.message, field: error.field), report: report)
        // An error answer is sent whatever happens: should it not encode, a fixed one says so.
        let json = (try? jsonString(answer)) ?? #"{"error":{"code":"internal","message":"the error could not be written as JSON"}}"#
        return body(json, status: error.code.httpStatus)
    }
}

/// The JSON API's error answer: `{"error": {"code", "message", "field"?}}`, and an import's `report` when it was refused.
struct ErrorDTO: Encodable {
    struct Detail: Encodable {
        let code: String
        let message: String
        let field: String?
    }

    let error: Detail
    let report: ImportReportDTO?
}

/// Largest JSON request body accepted.
let maximumJSONBody = 1 << 20

extension Request {
    /// The whole body, refused with 413 naming the limit (`8 MiB`, `64 KiB`) when it is larger.
    mutating func body(upTo limit: Int) async throws -> ByteBuffer {
        do {
            return try await collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            let size = limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB"
            throw CinnError(.contentTooLarge, "the request body is larger than this server takes (\(size))")
        }
    }

    /// Decodes a JSON body; syntax errors are 400, wrong or missing fields are 422 naming the field.
    mutating func decodeJSON<T: Decodable>(_ type: T.Type) async throws -> T {
        let buffer = try await body(upTo: maximumJSONBody)
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw CinnError.fromDecoding(error)
        }
    }

    /// A query parameter (Hummingbird has already percent-decoded it), nil when absent or empty.
    func query(_ name: String) -> String? {
        guard let value = uri.queryParameters[Substring(name)], !value.isEmpty else { return nil }
        return String(value)
    }

    /// A query parameter of a page's GET form, decoded as a browser encodes a form (`+` is a space, `%2B` a plus), nil
    /// when absent or empty. (`query` keeps a `+`: an API client's time offset is one.)
    func formQuery(_ name: String) -> String? {
        guard let text = uri.query, let value = URLEncodedText.pairs(text)[name], !value.isEmpty else { return nil }
        return value
    }

    func queryDate(_ name: String) throws -> LocalDate? {
        try query(name).map { text in try LocalDate.parse(text, field: name) }
    }

    func queryInt(_ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = query(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw CinnError.invalid(name, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    func queryBool(_ name: String) throws -> Bool {
        switch query(name)?.lowercased() {
        case nil, "false", "0", "no", "off": return false
        case "true", "1", "yes", "on": return true
        default: throw CinnError.invalid(name, "\(name) must be true or false")
        }
    }
}

/// A new empty file only its owner can read (uploads hold health data), in the temporary directory.
func makePrivateUploadFile() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-upload-\(UUID().uuidString)")
    guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
        throw CinnError(.internal, "cannot store the upload")
    }
    return url
}

/// Streams a request body to a temporary file (never holding it whole in memory) and returns its URL.
func spoolToTemporaryFile(_ body: RequestBody, maximumBytes: Int) async throws -> URL {
    let url = try makePrivateUploadFile()
    do {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var size = 0
        for try await buffer in body {
            size += buffer.readableBytes
            guard size <= maximumBytes else {
                throw CinnError.invalid("file", "the file is larger than \(maximumBytes >> 20) MB")
            }
            try handle.write(contentsOf: buffer.readableBytesView)
        }
        return url
    } catch {
        try? FileManager.default.removeItem(at: url)
        throw error
    }
}

/// Runs `body` on an upload kept under a name of the server's own: an error naming that file names it as the
/// person did (`name`, the uploaded file's name), or "the upload", never the server's temporary file.
func namingUpload<T>(_ file: URL, as name: String?, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch var error as CinnError {
        let name = name.flatMap { $0.isEmpty ? nil : $0 } ?? "the upload"
        error.message = error.message.replacingOccurrences(of: file.lastPathComponent, with: name)
        throw error
    }
}

/// Largest import file accepted.
let maximumImportBytes = 4 << 30

/// A route's `{id}` as a UUID; anything else is "no such `what`" (404), or with `withThatID` (as the API says it)
/// "no `what` with that id".
func idParameter<Context: RequestContext>(_ context: Context, _ what: String, withThatID: Bool = false) throws -> UUID {
    guard let id = context.parameters.get("id").flatMap(UUID.init(text:)) else {
        throw CinnError.notFound(withThatID ? "no \(what) with that id" : "no such \(what)")
    }
    return id
}
