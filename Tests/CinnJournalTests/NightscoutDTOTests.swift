import CinnCore
import Foundation
import Testing

@testable import CinnJournal

/// The Nightscout entries' hand-written JSON (a measured hot path) is the JSON encoding their DTOs writes.
@Suite struct NightscoutDTOTests {
    static let deltas: [Double?] = [nil, 0, -0.04, 0.05, 12.35, -250, 1e-7]
    static let devices: [String?] = [nil, "xDrip-DexcomG6", "Loop \"iPhone\"", "AndroidAPS\\n", "päivä ✓", "tab\there"]
    static let directions: [GlucoseDirection?] = [nil] + GlucoseDirection.allCases.map { $0 }

    static func entries() -> [NightscoutEntry] {
        var random = SplitMix64(seed: 41)
        return (0..<400).map { index in
            let reading = GlucoseReading(
                measuredAt: Date(timeIntervalSince1970: Double(random.next() % 4_000_000_000) + Double(random.next() % 1000) / 1000),
                utcOffsetSeconds: [0, 3600, -18_000, 19_800, -34_200][index % 5],
                glucose: Glucose(milligramsPerDeciliter: Double(39 + random.next() % 362)), source: "nightscout",
                externalID: index % 3 == 0 ? "nightscout:5f2b8c9e1a2b3c4d5e6f7a8b" : nil, sensor: index % 4 != 0,
                device: devices[index % devices.count], direction: directions[index % directions.count])
            return NightscoutEntry(
                reading: reading, deltaMilligramsPerDeciliter: deltas[index % deltas.count], direction: reading.direction)
        }
    }

    @Test func theHandWrittenArrayIsTheEncodedOne() throws {
        let entries = Self.entries()
        func parsed(_ text: String) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }
        for entry in entries {
            let written = NightscoutEntryDTO.json([entry]), encoded = try jsonString([NightscoutEntryDTO(entry)])
            #expect(try parsed(written) == parsed(encoded), "written by hand: \(written)\nencoded: \(encoded)")
        }
        #expect(try parsed(NightscoutEntryDTO.json(entries)) == parsed(jsonString(entries.map(NightscoutEntryDTO.init))))
        #expect(NightscoutEntryDTO.json([]) == "[]")
    }
}
