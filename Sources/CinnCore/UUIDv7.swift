import Foundation

extension UUID {
    /// A time-ordered UUID (RFC 9562 version 7): 48 bits of Unix milliseconds, then random bits.
    public static func v7(at instant: Date = Date()) -> UUID {
        var generator = SystemRandomNumberGenerator()
        return v7(at: instant, using: &generator)
    }

    public static func v7(at instant: Date, using generator: inout some RandomNumberGenerator) -> UUID {
        let milliseconds = UInt64(max(0, instant.timeIntervalSince1970 * 1000))
        let random = generator.next() as UInt64
        let random2 = generator.next() as UInt64
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - i))) }
        for i in 6..<16 {
            let source = i < 14 ? random : random2
            bytes[i] = UInt8(truncatingIfNeeded: source >> (8 * (i % 8)))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x70
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
