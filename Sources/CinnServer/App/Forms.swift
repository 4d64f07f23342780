import CinnCore
import CinnJournal
import Foundation
import Hummingbird
import MultipartKit
import NIOCore

/// A submitted `application/x-www-form-urlencoded` form.
struct FormFields {
    let values: [String: String]

    subscript(_ name: String) -> String? {
        guard let value = values[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    /// Largest form accepted.
    static let maximumBytes = 64 << 10

    init(request: Request) async throws {
        var request = request
        let buffer = try await request.body(upTo: Self.maximumBytes)
        values = Self.parse(String(decoding: buffer.readableBytesView, as: UTF8.self))
    }

    static func parse(_ text: String) -> [String: String] {
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

    /// A decimal number a person typed: "72.4" or "72,4".
    func number(_ name: String) throws -> Double? {
        try self[name].map { text in try Self.number(text, field: name) }
    }

    /// `text` as a number a person typed ("72,4" too); the error names `field`.
    static func number(_ text: String, field: String) throws -> Double {
        guard let value = Double(text.replacingOccurrences(of: ",", with: ".")) else {
            throw CinnError.invalid(field, "\"\(text)\" is not a number")
        }
        return value
    }
}

/// A `multipart/form-data` upload: the file part is streamed to a temporary file, the other
/// fields are kept (small) in memory.
struct MultipartUpload {
    var fields: [String: String] = [:]
    var file: URL?
    var fileName: String?

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
