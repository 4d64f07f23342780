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
            all.entries += batch.entries
            all.documents += batch.documents
        }
        (counts.readings, counts.doses, counts.entries, counts.documents) = (all.readings, all.doses, all.entries, all.documents)
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
        #expect(
            data.entries.map { $0.nutrients[.carbohydrate] } == [58, 58, 15],
            "the Meal Bolus, the Carb Correction and <none>'s string carbs")
        #expect(data.entries.map(\.name) == ["Normal bolus with wizard.", "🌯", "Carbs"], "named by foodType, else notes")
        #expect(data.entries.map(\.energy) == [232, 232, 60] && data.entries.allSatisfy { $0.externalID?.hasSuffix(":carbs") == true })
        #expect(data.entries[1].meal == .dinner && data.entries[1].note == FoodLogEntry.carbohydrateEnergyNote, "17:30 UTC")
        #expect(data.documents.count == 9, "every treatment is kept, once")
        let check = try #require(data.readings.first)
        #expect(check.glucose.milligramsPerDeciliter == 5.9 * 18.0156, "a BG Check in mmol with its glucose as a string")
        #expect(check.note == "before lunch")
        #expect(data.skipped == 4, "the temp basal, the note, the site change and the sensor start")
        #expect(data.duplicates == 1, "the double-submitted site change")
    }

    /// A `mongoexport` backup of the entries collection: one document a line, `$oid` ids, `date` as a float, as `$date` and
    /// as `$numberLong`, `dateString` in Java's and JavaScript's form; the same reading from two uploaders is one.
    @Test func aMongoexportBackupOfEntriesIsRead() async throws {
        let url = try fixture("nightscout/entries.mongoexport.json")
        #expect(NightscoutParser.recognises(url: url))
        let data = try await Self.read(url)
        #expect(data.rowsRead == 8 && data.rejected.isEmpty)
        #expect(data.readings.map(\.glucose.milligramsPerDeciliter) == [142, 39, 150, 161, 155])
        #expect(
            data.readings.map { $0.measuredAt.millisecondsSince1970 }
                == [1_557_405_318_571, 1_557_405_918_571, 1_557_406_218_571, 1_557_406_518_000, 1_557_406_620_000])
        #expect(data.readings.allSatisfy { $0.utcOffsetSeconds == 7200 }, "from utcOffset or the dateString's GMT+02:00")
        #expect(data.readings[0].externalID == "nightscout:5cd41f26a8c7e1000400b001:sgv" && data.readings[4].sensor == false)
        #expect(data.duplicates == 1, "share2's copy of 12:50:18, its date written otherwise")
        #expect(data.skipped == 2, "the status code 5 and the calibration")
    }

    /// A `mongoexport` backup of the treatments collection: treatments without an event type are read by what they hold,
    /// one bolus written in two offsets is one, and every treatment is kept.
    @Test func aMongoexportBackupOfTreatmentsIsRead() async throws {
        let url = try fixture("nightscout/treatments.mongoexport.json")
        #expect(NightscoutParser.recognises(url: url))
        let data = try await Self.read(url)
        #expect(data.rowsRead == 7 && data.rejected.isEmpty)
        #expect(data.doses.map(\.units) == [4.5, 1.5, 2], "the Meal Bolus, one Correction Bolus, the bolus without an event type")
        #expect(data.doses[1].utcOffsetSeconds == 7200, "the offset it was written in")
        #expect(data.entries.map(\.name) == ["Pizza", "Apple"] && data.entries.map { $0.nutrients[.carbohydrate] } == [45, 20])
        #expect(data.duplicates == 1, "15:10+02:00 and 13:10Z are one bolus")
        #expect(data.skipped == 2, "the temp basal and the note")
        #expect(data.documents.map(\.key) == (1...7).filter { $0 != 3 }.map { "5cd41f26a8c7e1000400c00\($0)" })
        #expect(data.documents[2].members["created_at"]?.string == "2019-05-09T14:00:00.000Z", "a $date is Nightscout's time again")
        #expect(data.documents[0].members["_id"]?.string == "5cd41f26a8c7e1000400c001")
    }

    /// oref0's `carbhistory.json`: treatments with carbohydrate and no event type.
    @Test func oref0sCarbHistoryIsTreatments() async throws {
        let url = try fixture("nightscout/carbhistory.json")
        #expect(NightscoutParser.recognises(url: url))
        let data = try await Self.read(url)
        #expect(data.entries.map(\.name) == ["Oatmeal", "Carbs"] && data.entries.map { $0.nutrients[.carbohydrate] } == [30, 55])
        #expect(data.documents.map(\.eventType) == ["<none>", "<none>"])
    }

    @Test(arguments: [
        ("Thu May 09 14:35:18 GMT+02:00 2019", 1_557_405_318.0, 7200),
        ("Thu May 09 2019 14:55:18 GMT+0200 (Central European Summer Time)", 1_557_406_518, 7200),
        ("Mon Dec 31 23:59:59 GMT-05:00 2018", 1_546_318_799, -18000),
        ("Tue Jan 01 00:00:00 GMT 2019", 1_546_300_800, 0),
    ])
    func javaScriptTimesAreRead(_ text: String, _ seconds: Double, _ offset: Int) throws {
        let time = try #require(NightscoutParser.javaScriptTime(text))
        #expect(time.instant == Date(timeIntervalSince1970: seconds) && time.offset == offset)
    }

    @Test(arguments: ["Thu May 09 14:35:18 CEST 2019", "Thu May 09 25:35:18 GMT+02:00 2019", "May 2019", "Thu Foo 09 14:35:18 GMT 2019"])
    func javaScriptTimesWithoutAnOffsetOrDayAreNot(_ text: String) {
        #expect(NightscoutParser.javaScriptTime(text) == nil)
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
        #expect(
            data.rejected == [
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
        try await JSONArrayStream.forEach(
            url: url, chunkSize: chunkSize,
            { value, line throws(CinnError) in
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
        // mongoexport's: one document a line, no array.
        #expect(
            try await elements("{\"a\": 1}\n{\"b\": \"}{\"}\r\n\n{\"c\": {\"d\": 2}}\n", chunkSize: chunkSize) == ["1:a", "2:b", "4:c"])
    }

    @Test func brokenDocumentsNameTheLine() async throws {
        await #expect(throws: CinnError.invalid("file", "the JSON ends too early at line 3: the file looks cut off")) {
            _ = try await elements("[\n {\"a\": 1},\n {\"b\": ", chunkSize: 4)
        }
        await #expect(throws: CinnError.invalid("file", "line 1: the file is not a JSON array")) {
            _ = try await elements("\"sgv\"", chunkSize: 4)
        }
        await #expect(throws: CinnError.invalid("file", "line 2: a file of JSON documents holds only objects, one after another")) {
            _ = try await elements("{\"sgv\": 1}\n[2]", chunkSize: 4)
        }
        await #expect(throws: CinnError.invalid("file", "the JSON ends too early at line 2: the file looks cut off")) {
            _ = try await elements("{\"sgv\": 1}\n{\"sgv\": ", chunkSize: 4)
        }
        await #expect(throws: CinnError.invalid("file", "line 2: the JSON goes on after its array ends")) {
            _ = try await elements("[1]\n[2]", chunkSize: 4)
        }
        await #expect(throws: CinnError.self) { _ = try await elements("[\n {\"a\": tru}\n]", chunkSize: 3) }
    }
}
