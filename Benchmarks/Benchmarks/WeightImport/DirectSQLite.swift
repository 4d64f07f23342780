// A reference for the store benchmark, not Cinn's code: the same readings into the same schema
// (created by Cinn's own migrations), written the way docs/DESIGN.md's "Bulk insert" table prescribes —
// `SQLiteConnection.query(sql, [SQLiteData])`, 500-row multi-row INSERTs whose SQL text is built
// once, ids made without a syscall per row. Everything else as `Store.importWeighIns` does it: one
// BEGIN IMMEDIATE transaction, an `imports` row, versions reserved per statement, ON CONFLICT on
// the dedup index, the count and the batch's totals written back.
//
// The gap between this and "Store.importWeighIns" is what the store's bulk path leaves on the table.
import CinnCore
import CinnStore
import Foundation
import SQLiteNIO

enum DirectSQLite {
    static let columns = """
        id, user_id, measured_at_ms, utc_offset_s, local_day, weight_kg, note, source, external_id, import_id,
        created_at_ms, updated_at_ms, version
        """

    static func insertSQL(rows: Int) -> String {
        let tuple = "(" + Array(repeating: "?", count: 13).joined(separator: ",") + ")"
        return "INSERT INTO weigh_ins (\(columns)) VALUES "
            + Array(repeating: tuple, count: rows).joined(separator: ",")
            + " ON CONFLICT (user_id, external_id) WHERE deleted = 0 AND external_id IS NOT NULL DO NOTHING"
    }

    /// Imports `readings` for `user` into the SQLite file at `path`; returns how many were imported.
    static func importReadings(_ readings: [ImportedWeighIn], user: UserID, path: String) async throws -> Int {
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        do {
            _ = try await connection.query("PRAGMA synchronous = NORMAL").get()
            _ = try await connection.query("BEGIN IMMEDIATE").get()
            let createdAt = Int64((Date().timeIntervalSince1970 * 1000).rounded())
            let importID = try await connection.query(
                "INSERT INTO imports (user_id, format, file_name, created_at_ms) VALUES (?, 'csv', 'weights.csv', ?) RETURNING row_id",
                [.integer(Int(user.rawValue)), .integer(Int(createdAt))]).get()[0].column("row_id")!.integer!
            var random = SystemRandomNumberGenerator()
            var ids = FastRandom(seed: random.next())
            let chunkSize = 500
            let fullSQL = insertSQL(rows: chunkSize)
            for start in stride(from: 0, to: readings.count, by: chunkSize) {
                let chunk = readings[start..<min(start + chunkSize, readings.count)]
                let reserved = try await connection.query(
                    "UPDATE users SET last_version = last_version + ? WHERE row_id = ? RETURNING last_version",
                    [.integer(chunk.count), .integer(Int(user.rawValue))]).get()[0].column("last_version")!.integer!
                var version = reserved - chunk.count + 1
                var binds = [SQLiteData]()
                binds.reserveCapacity(chunk.count * 13)
                for reading in chunk {
                    let ms = Int64((reading.measuredAt.timeIntervalSince1970 * 1000).rounded())
                    binds.append(.blob(uuidV7(milliseconds: ms, random: &ids)))
                    binds.append(.integer(Int(user.rawValue)))
                    binds.append(.integer(Int(ms)))
                    binds.append(.integer(reading.utcOffsetSeconds))
                    binds.append(.integer(LocalDate(instant: reading.measuredAt, utcOffsetSeconds: reading.utcOffsetSeconds).dayNumber))
                    binds.append(.float(reading.weight.kilograms))
                    binds.append(reading.note.map { .text($0) } ?? .null)
                    binds.append(.text("import:csv"))
                    binds.append(.text(reading.externalID))
                    binds.append(.integer(importID))
                    binds.append(.integer(Int(createdAt)))
                    binds.append(.integer(Int(createdAt)))
                    binds.append(.integer(version))
                    version += 1
                }
                _ = try await connection.query(chunk.count == chunkSize ? fullSQL : insertSQL(rows: chunk.count), binds).get()
            }
            let imported = try await connection.query("SELECT COUNT(*) AS n FROM weigh_ins WHERE import_id = ?",
                                                      [.integer(importID)]).get()[0].column("n")!.integer!
            _ = try await connection.query("UPDATE imports SET rows_read = ?, imported = ? WHERE row_id = ?",
                                           [.integer(readings.count), .integer(imported), .integer(importID)]).get()
            _ = try await connection.query("COMMIT").get()
            try await connection.close()
            return imported
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// RFC 9562 version 7: 48 bits of Unix milliseconds, then random bits (from a fast generator
    /// seeded once from the system's), written straight into a buffer.
    static func uuidV7(milliseconds: Int64, random: inout FastRandom) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(16)
        let ms = UInt64(max(0, milliseconds))
        let high = (ms << 16) | 0x7000 | (random.next() & 0x0FFF)
        let low = (random.next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        buffer.writeInteger(high, endianness: .big)
        buffer.writeInteger(low, endianness: .big)
        return buffer
    }

    /// xorshift64*: plenty for the random part of an id, never a syscall.
    struct FastRandom {
        var state: UInt64
        init(seed: UInt64) { state = seed | 1 }
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }
    }
}
