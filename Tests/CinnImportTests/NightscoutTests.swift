import CinnCore
import Foundation
import Testing
@testable import CinnImport

@Suite struct NightscoutTests {
    static let utc = TimeZone(identifier: "UTC")!

    /// The whole file's records, gathered from the batches the streamed reader hands on.
    static func read(_ url: URL) async throws -> NightscoutData {
        var all = NightscoutData()
        var counts = try await NightscoutParser.read(url: url, timeZone: utc) { batch in
            all.readings += batch.readings
            all.doses += batch.doses
            all.carbs += batch.carbs
        }
        (counts.readings, counts.doses, counts.carbs) = (all.readings, all.doses, all.carbs)
        return counts
    }

    @Test func entriesBecomeReadingsAndTheSecondUploadersCopyIsADuplicate() async throws {
        let url = try fixture("nightscout/entries.json")
        #expect(NightscoutParser.recognises(url: url))
        let data = try await Self.read(url)
        #expect(data.rowsRead == 7)
        #expect(data.readings.map(\.glucose.milligramsPerDeciliter) == [151, 146, 144, 142, 131])
        #expect(data.duplicates == 1, "share2's copy of the 18:15:14 reading")
        #expect(data.skipped == 1, "the calibration")
        #expect(data.rejected.isEmpty)
        #expect(data.readings.allSatisfy { $0.utcOffsetSeconds == -5 * 3600 }, "utcOffset in minutes")
        #expect(data.readings[0].measuredAt == Date(timeIntervalSince1970: 1_710_008_414))
        #expect(data.readings[0].localDate.iso == "2024-03-09" && data.readings[0].externalID == "nightscout:65ec8a6f3a1c2b0012a4e9f1:sgv")
        #expect(data.readings[4].note == "meter", "an mbg entry is a meter reading")
    }

    @Test func treatmentsBecomeDosesCarbsAndGlucoseChecks() async throws {
        let url = try fixture("nightscout/treatments.json")
        #expect(NightscoutParser.recognises(url: url))
        let data = try await Self.read(url)
        #expect(data.rowsRead == 10)
        #expect(data.doses.map(\.units) == [1.2, 4.35] && data.doses.allSatisfy { $0.kind == .bolus })
        #expect(data.doses[1].utcOffsetSeconds == -5 * 3600, "the OpenAPS timestamp's offset")
        #expect(data.carbs.map(\.grams) == [58, 58, 15], "the Meal Bolus, the Carb Correction and <none>'s string carbs")
        #expect(data.carbs.map(\.name) == ["Carbs", "🌯", "Carbs"])
        let check = try #require(data.readings.first)
        #expect(check.glucose.milligramsPerDeciliter == 5.9 * 18.0156, "a BG Check in mmol with its glucose as a string")
        #expect(check.note == "before lunch")
        #expect(data.skipped == 4, "the temp basal, the note, the site change and the sensor start")
        #expect(data.duplicates == 1, "the double-submitted site change")
    }

    /// A file of 4 MB comes out in batches of a megabyte's records: memory holds a batch, not the file.
    @Test func aLongFileIsHandedOnInBatches() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-entries-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let entries = (0..<24_000).map { index in
            #"{"_id": "\#(String(format: "%024x", 0x5f00_0000 + index))", "type": "sgv", "date": \#(1_710_000_000_000 + index * 300_000), "#
                + #""sgv": \#(100 + index % 50), "device": "xDrip-DexcomG6", "direction": "Flat", "noise": 1, "rssi": 100}"#
        }
        try Data(("[\n" + entries.joined(separator: ",\n") + "\n]\n").utf8).write(to: url)
        var batches: [Int] = []
        let counts = try await NightscoutParser.read(url: url, timeZone: Self.utc) { batch in batches.append(batch.readings.count) }
        #expect(counts.rowsRead == 24_000 && counts.readings.isEmpty && counts.duplicates == 0)
        #expect(batches.reduce(0, +) == 24_000)
        #expect(batches.count >= 3 && batches.allSatisfy { $0 < 12_000 }, "\(batches)")
    }

    @Test func idsAreTheSameOnlyWhenTheirTextIs() {
        typealias ID = NightscoutParser.RecordID
        #expect(ID("65ec8a6f3a1c2b0012a4e9f1") == ID("65ec8a6f3a1c2b0012a4e9f1"))
        #expect(ID("65ec8a6f3a1c2b0012a4e9f1") != ID("65EC8A6F3A1C2B0012A4E9F1"))
        #expect(ID("+5ec8a6f3a1c2b0012a4e9f1") != ID("05ec8a6f3a1c2b0012a4e9f1"))
        #expect(ID("65ec8a6f3a1c2b0012a4e9f1") != ID("65ec8a6f3a1c2b0012a4e9f2"))
    }

    @Test func moreCarbohydrateThanAPersonLogsIsRefused() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-treatments-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let start = Date(timeIntervalSince1970: 1_000_000_000)
        let treatments = (0...ImportLimits.nightscoutCarbs).map { index in
            #"{"eventType":"Carb Correction","created_at":"\#(start.addingTimeInterval(Double(index) * 60).formatted(.iso8601))","carbs":10}"#
        }
        try Data(("[" + treatments.joined(separator: ",") + "]").utf8).write(to: url)
        await #expect(throws: CinnError.invalid("file", "the file holds more than 200,000 carbohydrate records: more than any one person's export holds; check that it is the right file")) {
            _ = try await NightscoutParser.read(url: url, timeZone: Self.utc) { _ in }
        }
    }

    @Test func badRecordsAreListedByLineAndField() throws {
        let text = """
            [
              {"_id": "a", "type": "sgv", "date": 1710008414000, "sgv": "high"},
              {"_id": "b", "type": "sgv", "sgv": 120},
              {"_id": "c", "type": "sgv", "date": 1710008114000, "sgv": 12},
              {"_id": "d", "eventType": "Meal Bolus", "carbs": 40},
              {"_id": "e", "eventType": "BG Check", "created_at": "2024-03-09T16:42:00Z", "glucose": "5.9", "units": "grams"},
              {"_id": "f", "type": "sgv", "date": 1710007814000, "sgv": 2500}
            ]
            """
        let data = try NightscoutParser.parse(Array(text.utf8), timeZone: Self.utc)
        #expect(data.rejected == [
            RejectedRow(line: 2, field: "sgv", reason: "\"high\" is not a number"),
            RejectedRow(line: 3, field: "date", reason: "an entry needs its date (epoch milliseconds) or a dateString with an offset"),
            RejectedRow(line: 5, field: "created_at", reason: "a treatment needs its created_at time"),
            RejectedRow(line: 6, field: "units", reason: "unknown glucose unit \"grams\""),
            RejectedRow(line: 7, field: "sgv", reason: "2500 mg/dL is not a glucose reading"),
        ])
        #expect(data.skipped == 1, "12 mg/dL is a CGM error code")
        #expect(throws: CinnError.self) { try NightscoutParser.parse(Array(#"{"sgv": 100}"#.utf8), timeZone: Self.utc) }
        #expect(throws: CinnError.self) { try NightscoutParser.parse(Array("[{\"sgv\": 100,".utf8), timeZone: Self.utc) }
    }

    /// A sensor's LOW (39) and HIGH (401), as xDrip+ writes them, are readings in a file as over the API; under 39 is a
    /// status code.
    @Test func aSensorsLowAndHighAreReadings() throws {
        let text = """
            [{"_id": "a", "type": "sgv", "date": 1710007800000, "sgv": 39, "direction": "NOT COMPUTABLE"},
             {"_id": "b", "type": "sgv", "date": 1710008100000, "sgv": 38},
             {"_id": "c", "type": "sgv", "date": 1710008400000, "sgv": 401}]
            """
        let data = try NightscoutParser.parse(Array(text.utf8), timeZone: Self.utc)
        #expect(data.readings.map(\GlucoseReading.glucose.milligramsPerDeciliter) == [39, 401])
        #expect(data.readings.map(\GlucoseReading.rangeEnd) == ["LOW", "HIGH"])
        #expect(data.skipped == 1, "38 is a status code")
    }
}

@Suite struct JSONArrayStreamTests {
    func elements(_ text: String, chunkSize: Int) async throws -> [String] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var seen: [String] = []
        try await JSONArrayStream.forEach(url: url, chunkSize: chunkSize, { value, line throws(CinnError) in
            switch value {
            case .object(let fields): seen.append("\(line):" + fields.keys.sorted().joined(separator: ","))
            case .string(let text): seen.append("\(line):\"\(text)\"")
            case .number(let number): seen.append("\(line):\(number.text)")
            default: seen.append("\(line):other")
            }
        })
        return seen
    }

    @Test(arguments: [1, 2, 7, 64, 1 << 20])
    func elementsComeOutWhateverTheChunkSize(_ chunkSize: Int) async throws {
        let text = "\u{FEFF}[\n  {\"a\": \"x ] } \\\" [ {\", \"b\": [1, {\"c\": 2}]},\n  \"plain\",\n  42 ,\n  {\"d\":\n    null}\n]\n"
        #expect(try await elements(text, chunkSize: chunkSize) == ["2:a,b", "3:\"plain\"", "4:42", "5:d"])
        #expect(try await elements("[]", chunkSize: chunkSize).isEmpty)
    }

    @Test func brokenDocumentsNameTheLine() async throws {
        await #expect(throws: CinnError.invalid("file", "the JSON ends too early at line 3: the file looks cut off")) {
            _ = try await elements("[\n {\"a\": 1},\n {\"b\": ", chunkSize: 4)
        }
        await #expect(throws: CinnError.invalid("file", "line 1: the file is not a JSON array")) { _ = try await elements("{\"sgv\": 1}", chunkSize: 4) }
        await #expect(throws: CinnError.invalid("file", "line 2: the JSON goes on after its array ends")) { _ = try await elements("[1]\n[2]", chunkSize: 4) }
        await #expect(throws: CinnError.self) { _ = try await elements("[\n {\"a\": tru}\n]", chunkSize: 3) }
    }
}
