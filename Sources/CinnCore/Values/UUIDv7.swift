import Foundation

extension UUID {
    /// A time-ordered UUID (RFC 9562 version 7): 48 bits of Unix milliseconds, then random bits.
    public static func v7(at instant: Date = Date()) -> UUID {
        var generator = SystemRandomNumberGenerator()
        return v7(at: instant, using: &generator)
    }

    /// A version 7 UUID with its random bits from `generator` (bulk imports pass a seeded `SplitMix64`,
    /// which is much cheaper than the system's generator).
    public static func v7(at instant: Date, using generator: inout some RandomNumberGenerator) -> UUID {
        let milliseconds = UInt64(clamping: instant.millisecondsSince1970)
        let high = (milliseconds << 16) | 0x7000 | ((generator.next() as UInt64) & 0x0FFF)
        let low = ((generator.next() as UInt64) & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        func byte(_ word: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> (56 - 8 * index)) }
        return UUID(
            uuid: (
                byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5),
                byte(high, 6), byte(high, 7), byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3),
                byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)
            ))
    }
}

extension UUID {
    /// The UUID as lower-case text (`0190b1c4-…`), how Cinn writes ids everywhere. Written directly:
    /// Foundation's `uuidString` (snprintf, then `lowercased()`) was a measurable part of a sync page.
    public var lowercasedString: String {
        withUnsafeBytes(of: uuid) { raw in
            String(unsafeUninitializedCapacity: 36) { out in
                var position = 0
                for (index, byte) in raw.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    out[position] = Self.hexDigit(byte >> 4)
                    out[position + 1] = Self.hexDigit(byte & 0x0F)
                    position += 2
                }
                return position
            }
        }
    }

    /// Parses what `UUID(uuidString:)` accepts (`8-4-4-4-12` hexadecimal digits, either case) without the
    /// sscanf Foundation uses on Linux.
    public init?(text: String) {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &bytes) { out in
            var count = 0, high: UInt8?
            for (position, character) in text.utf8.enumerated() {
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    guard character == UInt8(ascii: "-") else { return false }
                    continue
                }
                guard position < 36, let value = Self.hexValue(character) else { return false }
                if let first = high {
                    out[count] = first << 4 | value
                    count += 1
                    high = nil
                } else {
                    high = value
                }
            }
            return count == 16
        }
        guard parsed else { return nil }
        self.init(uuid: bytes)
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension UUID {
    /// A UUID named by `text` (RFC 9562 version 8, vendor-defined): two FNV-1a 64-bit hashes of its UTF-8, with the
    /// version and variant bits set. The same text gives the same id on every run and platform; for keys made from
    /// data (a meal by its foods), not for records.
    public static func v8(name text: String) -> UUID {
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }
        let high = (fnv(0xcbf2_9ce4_8422_2325) & 0xFFFF_FFFF_FFFF_0FFF) | 0x8000
        let low = (fnv(0x6c62_272e_07bb_0142) & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        func byte(_ word: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> (56 - 8 * index)) }
        return UUID(
            uuid: (
                byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5),
                byte(high, 6), byte(high, 7), byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3),
                byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)
            ))
    }
}
