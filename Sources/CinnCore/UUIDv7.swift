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
        let milliseconds = UInt64(max(0, instant.timeIntervalSince1970 * 1000))
        let high = (milliseconds << 16) | 0x7000 | ((generator.next() as UInt64) & 0x0FFF)
        let low = ((generator.next() as UInt64) & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        func byte(_ word: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> (56 - 8 * index)) }
        return UUID(uuid: (byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5),
                           byte(high, 6), byte(high, 7), byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3),
                           byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)))
    }
}
