/// FNV-1a with 64 bits: a content hash that, unlike `Hasher`, is the same in every process.
struct ContentHash {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func combine(_ bytes: UnsafeBufferPointer<UInt8>) {
        var hash = value
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        value = hash
    }

    mutating func combine(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// The hash of `parts`, each ended by a unit separator (so "ab","c" and "a","bc" differ).
    static func of(_ parts: [String]) -> ContentHash {
        var hash = ContentHash()
        for part in parts {
            var part = part
            part.withUTF8 { hash.combine($0) }
            hash.combine(0x1F)
        }
        return hash
    }

    /// The hash as 16 lower-case hex digits.
    var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 {
                buffer[index] = digits[Int((value >> (60 - 4 * UInt64(index))) & 0xF)]
            }
            return 16
        }
    }
}
