import CinnCore
import Foundation
import ZIPFoundation

/// A zip file read for its entries: the central directory (ZIP64 included) and each entry's bytes, stored or
/// deflated, inflated with zlib (through ZIPFoundation's `Data.decompress`) and never read past the entry's
/// compressed size. ZIPFoundation's own `Archive.extract` reads on past the entry to the end of the file and,
/// given a deflate stream that never ends, spins there for good (found by fuzzing: a 1.6 KB zip held a core);
/// here such an entry is an error.
struct ZipFile {
    struct Entry {
        let path: String
        let compressedSize: UInt64
        let uncompressedSize: UInt64
        /// 0 stored, 8 deflated.
        let method: UInt16
        let localHeaderOffset: UInt64

        var isDirectory: Bool { path.hasSuffix("/") }
    }

    let url: URL
    let entries: [Entry]
    private let size: UInt64

    /// The largest central directory read: an export lists a handful of files.
    static let maximumDirectorySize: UInt64 = 16 << 20

    /// Reads the central directory; throws `ZipFile.Damaged` for anything that is not a readable zip.
    init(url: URL) throws {
        self.url = url
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        size = try handle.seekToEnd()
        // The end of central directory record: in the last 22 bytes, or before a comment of up to 64 KB.
        let tailLength = min(size, 22 + 0xFFFF)
        let tail = try Self.read(handle, at: size - tailLength, count: Int(tailLength))
        guard tail.count >= 22,
            let end = stride(from: tail.count - 22, through: 0, by: -1).first(where: { Self.uint32(tail, $0) == 0x0605_4B50 })
        else {
            throw Damaged()
        }
        var count = UInt64(Self.uint16(tail, end + 10))
        var directorySize = UInt64(Self.uint32(tail, end + 12))
        var directoryOffset = UInt64(Self.uint32(tail, end + 16))
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            // ZIP64: a locator just before the record names where the ZIP64 record is.
            let locatorStart = size - tailLength + UInt64(end)
            guard locatorStart >= 20 else { throw Damaged() }
            let locator = try Self.read(handle, at: locatorStart - 20, count: 20)
            guard Self.uint32(locator, 0) == 0x0706_4B50 else { throw Damaged() }
            let recordOffset = Self.uint64(locator, 8)
            guard recordOffset <= size, size - recordOffset >= 56 else { throw Damaged() }
            let record = try Self.read(handle, at: recordOffset, count: 56)
            guard record.count == 56, Self.uint32(record, 0) == 0x0606_4B50 else { throw Damaged() }
            count = Self.uint64(record, 32)
            directorySize = Self.uint64(record, 40)
            directoryOffset = Self.uint64(record, 48)
        }
        guard directorySize <= Self.maximumDirectorySize, directoryOffset <= size, directorySize <= size - directoryOffset,
            count <= directorySize / 46
        else { throw Damaged() }
        let directory = try Self.read(handle, at: directoryOffset, count: Int(directorySize))
        guard directory.count == Int(directorySize) else { throw Damaged() }
        var entries: [Entry] = []
        var position = 0
        for _ in 0..<count {
            guard position + 46 <= directory.count, Self.uint32(directory, position) == 0x0201_4B50 else { throw Damaged() }
            let nameLength = Int(Self.uint16(directory, position + 28)), extraLength = Int(Self.uint16(directory, position + 30))
            let commentLength = Int(Self.uint16(directory, position + 32))
            let next = position + 46 + nameLength + extraLength + commentLength
            guard next <= directory.count else { throw Damaged() }
            var compressed = UInt64(Self.uint32(directory, position + 20)), uncompressed = UInt64(Self.uint32(directory, position + 24))
            var offset = UInt64(Self.uint32(directory, position + 42))
            // ZIP64 sizes and offset, in that order, for each field that says 0xFFFFFFFF.
            var extra = position + 46 + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = Self.uint16(directory, extra), length = Int(Self.uint16(directory, extra + 2))
                guard extra + 4 + length <= extraEnd else { break }
                if id == 0x0001 {
                    var field = extra + 4
                    if uncompressed == 0xFFFF_FFFF, field + 8 <= extra + 4 + length {
                        uncompressed = Self.uint64(directory, field)
                        field += 8
                    }
                    if compressed == 0xFFFF_FFFF, field + 8 <= extra + 4 + length {
                        compressed = Self.uint64(directory, field)
                        field += 8
                    }
                    if offset == 0xFFFF_FFFF, field + 8 <= extra + 4 + length { offset = Self.uint64(directory, field) }
                }
                extra += 4 + length
            }
            let name = String(decoding: directory[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self)
            entries.append(
                Entry(
                    path: name, compressedSize: compressed, uncompressedSize: uncompressed,
                    method: Self.uint16(directory, position + 10), localHeaderOffset: offset))
            position = next
        }
        self.entries = entries
    }

    /// Hands the entry's bytes to `consumer` in chunks of up to `bufferSize`, inflating them as it goes; throws
    /// `Damaged` when the entry's data lies outside the file, uses another method, or does not end within its size.
    func extract(_ entry: Entry, bufferSize: Int = 1 << 16, consumer: (Data) throws -> Void) throws {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        guard entry.localHeaderOffset <= size, size - entry.localHeaderOffset >= 30 else { throw Damaged() }
        let header = try Self.read(handle, at: entry.localHeaderOffset, count: 30)
        guard header.count == 30, Self.uint32(header, 0) == 0x0403_4B50 else { throw Damaged() }
        let dataOffset = entry.localHeaderOffset + 30 + UInt64(Self.uint16(header, 26)) + UInt64(Self.uint16(header, 28))
        guard dataOffset <= size, entry.compressedSize <= size - dataOffset else { throw Damaged() }
        try handle.seek(toOffset: dataOffset)
        var remaining = entry.compressedSize
        /// The next `count` bytes of the entry, or fewer at its end.
        func nextChunk(_ count: Int) throws -> Data {
            guard count > 0 else { return Data() }
            guard remaining > 0 else { throw Damaged() }
            let chunk = try handle.read(upToCount: Int(min(UInt64(count), remaining))) ?? Data()
            guard !chunk.isEmpty else { throw Damaged() }
            remaining -= UInt64(chunk.count)
            return chunk
        }
        switch entry.method {
        case 0:
            while remaining > 0 { try consumer(try nextChunk(bufferSize)) }
        case 8:
            // ZIPFoundation's inflate loop tells zlib every chunk holds `bufferSize` bytes: the last one is padded
            // with zeros, which zlib reads as a damaged block should the stream not have ended before them.
            func paddedChunk(_ count: Int) throws -> Data {
                guard count > 0 else { return Data() }
                var chunk = try nextChunk(count)
                if chunk.count < count { chunk.append(Data(count: count - chunk.count)) }
                return chunk
            }
            do {
                _ = try Data.decompress(
                    size: Int64(entry.compressedSize), bufferSize: bufferSize, skipCRC32: true,
                    provider: { _, count in try paddedChunk(count) }, consumer: consumer)
            } catch  where !(error is CinnError) && !(error is CancellationError) {
                // zlib's own complaint about the data (its type is ZIPFoundation's own).
                throw Damaged()
            }
        default:
            throw Damaged()
        }
    }

    /// The zip cannot be read: its directory or an entry's data is damaged, or it uses what Cinn does not read.
    struct Damaged: Error {}

    private static func read(_ handle: FileHandle, at offset: UInt64, count: Int) throws -> [UInt8] {
        try handle.seek(toOffset: offset)
        return Array(try handle.read(upToCount: count) ?? Data())
    }

    private static func uint16(_ bytes: some RandomAccessCollection<UInt8>, _ at: Int) -> UInt16 {
        let start = bytes.index(bytes.startIndex, offsetBy: at)
        return UInt16(bytes[start]) | UInt16(bytes[bytes.index(after: start)]) << 8
    }

    private static func uint32(_ bytes: some RandomAccessCollection<UInt8>, _ at: Int) -> UInt32 {
        UInt32(uint16(bytes, at)) | UInt32(uint16(bytes, at + 2)) << 16
    }

    private static func uint64(_ bytes: some RandomAccessCollection<UInt8>, _ at: Int) -> UInt64 {
        UInt64(uint32(bytes, at)) | UInt64(uint32(bytes, at + 4)) << 32
    }
}
