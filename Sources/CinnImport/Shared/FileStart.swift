import CinnCore
import Foundation

/// The start of a file, read to check and recognise it before it is streamed.
enum FileStart {
    /// The first `count` bytes of the file and the file's size.
    static func read(_ url: URL, count: Int) throws(CinnError) -> (prefix: [UInt8], fileSize: Int64) {
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            let fileSize = try handle.seekToEnd()
            try handle.seek(toOffset: 0)
            let prefix = try handle.read(upToCount: count) ?? Data()
            return ([UInt8](prefix), Int64(fileSize))
        } catch {
            throw .invalid("file", "cannot open \(url.lastPathComponent): \(error.localizedDescription)")
        }
    }

    /// The first non-blank line, without its line end.
    static func firstLine(_ prefix: [UInt8]) -> String {
        let text = prefix.starts(with: [0xEF, 0xBB, 0xBF]) ? prefix.dropFirst(3) : prefix[...]
        let line = text.split(separator: .newline).first { !$0.allSatisfy { $0 == .space || $0 == .tab || $0 == .carriageReturn } }
        return String(decoding: line ?? [], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
