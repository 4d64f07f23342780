import CinnCore
import Foundation
import Testing

@testable import CinnImport

@Suite("Apple Health export")
struct AppleHealthTests {
    /// Everything one read gave.
    struct Read {
        var batch = AppleHealthReader.Batch()
        var summary = AppleHealthReader.Summary()
    }

    static func read(_ url: URL) async throws -> Read {
        let collected = Collected()
        let summary = try await AppleHealthReader.read(url: url, batchSize: 2) { batch in collected.add(batch) }
        return Read(batch: collected.all, summary: summary)
    }

    /// The mapper fed `bytes` in pieces of `size`.
    static func mapped(_ bytes: [UInt8], piece size: Int) throws -> Read {
        var batches: [AppleHealthReader.Batch] = []
        var mapper = AppleHealthReader.Mapper(batchSize: 1000) { batches.append($0) }
        for start in stride(from: 0, to: bytes.count, by: size) {
            try bytes[start..<min(start + size, bytes.count)].withUnsafeBytes { try mapper.feed($0) }
        }
        try mapper.finish()
        var all = AppleHealthReader.Batch()
        for batch in batches { all.append(batch) }
        return Read(batch: all, summary: mapper.summary)
    }

    static func fixtureXML() throws -> [UInt8] { Array(try Data(contentsOf: try fixture("apple_health/export.xml"))) }

    @Test func theFixtureGivesWeighInsBodyFatGlucoseAndInsulinWithTheirOffsets() async throws {
        let read = try await Self.read(try fixture("apple_health/export.zip"))
        #expect(read.summary.records == 37, "top-level records only: the 16 in the Food correlation are copies")
        let weights = read.batch.weighIns
        #expect(
            weights.map { ($0.weight.kilograms * 1000).rounded() / 1000 } == [71.35, 71.2, 71.2, 71.395, 71.05], "157.4 lb is 71.395 kg")
        #expect(weights[0].utcOffsetSeconds == -5 * 3600 && weights[3].utcOffsetSeconds == -4 * 3600, "offsets follow DST")
        #expect(weights[0].measuredAt == Date(timeIntervalSince1970: 1_709_899_092), "2024-03-08 06:58:12 -0500")
        #expect(weights[1].externalID == weights[2].externalID, "an exact duplicate has the same key")
        #expect(Set(weights.map(\.externalID)).count == 4)
        #expect(read.batch.bodyFat.map(\.reading.fraction) == [0.284, 0.2815])
        let glucose = read.batch.glucose
        #expect(glucose.map { ($0.glucose.milligramsPerDeciliter * 10).rounded() / 10 } == [142, 151, 106.3], "5.9 mmol/L is 106.3 mg/dL")
        #expect(glucose.map(\.timing) == [nil, nil, .beforeMeal])
        #expect(read.batch.insulin.map(\.kind) == [.basal, .bolus])
        // The Food correlation is one entry; its 16 records' top-level copies are not a second one.
        let food = read.batch.foodEntries
        #expect(food.map(\.name) == ["Turkey & Avocado Wrap, Whole Wheat"])
        #expect(food.first?.nutrients.energy == 512 && food.first?.nutrients[.protein] == 31.5 && food.first?.nutrients[.sodium] == 846)
        #expect(
            food.first?.nutrients[Nutrient.named("vitamin_a")!] == 189 && food.first?.meal == .lunch
                && food.first?.utcOffsetSeconds == -18_000)
        // Every other quantity and category type: one summary per type and local day.
        let days = Dictionary(uniqueKeysWithValues: read.summary.days.map { ($0.key.type.dropFirst(24) + $0.key.category, $0) })
        #expect(days.count == 9 && read.summary.skippedTypes.isEmpty, "\(days.keys.sorted())")
        #expect(days["HeartRate"]?.count == 1, "a workout's heart rate statistics are no records")
        #expect(days["StepCount"]?.sum == 612 && days["StepCount"]?.key.day == LocalDate(iso: "2024-03-09"))
        #expect(days["DietaryWater"]?.sum == 473.176 && days["DietaryWater"]?.key.unit == "mL", "water has no Cinn nutrient")
        #expect(days["DietaryCaffeine"]?.count == 1, "nor has caffeine (its record in the Food correlation is a copy)")
        #expect(days["Height"]?.sum == 167.6 && days["Height"]?.key.unit == "cm" && days["Height"]?.key.day == LocalDate(iso: "2022-05-02"))
        #expect(days["LeanBodyMass"]?.maximum == 51.09 && days["LeanBodyMass"]?.key.unit == "kg")
        let sleep = days["SleepAnalysisHKCategoryValueSleepAnalysisAsleepCore"]
        #expect(sleep?.sum == 30.5 && sleep?.key.unit == "min" && sleep?.key.day == LocalDate(iso: "2024-03-10"), "03:41:30 to 04:12:00")
        #expect(read.summary.exportedAt == Date(timeIntervalSince1970: 1_710_464_864), "2024-03-14 21:07:44 -0400")
        // Workouts: statistics before the legacy attributes; local time from HKTimeZone.
        let workouts = read.batch.workouts
        #expect(workouts.map(\.name) == ["Running", "Traditional Strength Training", "Cycling"])
        #expect(workouts[0].durationSeconds.map { ($0 * 10).rounded() / 10 } == 2545, "42.4167 min")
        #expect(workouts[0].distanceMeters.map { $0.rounded() } == 8085, "5.02374 mi from the statistics")
        #expect(workouts[0].energyKcal == 402.118 && workouts[0].utcOffsetSeconds == -5 * 3600)
        #expect(workouts[1].distanceMeters == nil && workouts[1].energyKcal == 211.407)
        #expect(
            workouts[2].distanceMeters.map { $0.rounded() } == 28_839 && workouts[2].energyKcal == 498,
            "17.92 mi and 498 Cal from the attributes")
        #expect(read.summary.workouts == 3)
        #expect(read.summary.rejectedCount == 0)
    }

    @Test func theBareXMLReadsTheSameAndChunkBoundariesChangeNothing() async throws {
        let fromZip = try await Self.read(try fixture("apple_health/export.zip"))
        let fromXML = try await Self.read(try fixture("apple_health/export.xml"))
        #expect(
            fromXML.batch.weighIns == fromZip.batch.weighIns
                && fromXML.batch.glucose.map(\.externalID) == fromZip.batch.glucose.map(\.externalID))
        let bytes = try Self.fixtureXML()
        let whole = try Self.mapped(bytes, piece: bytes.count)
        for size in [1, 2, 3, 7, 64, 1000] {
            let pieces = try Self.mapped(bytes, piece: size)
            #expect(pieces.batch.weighIns == whole.batch.weighIns, "pieces of \(size) bytes")
            #expect(pieces.batch.insulin.map(\.externalID) == whole.batch.insulin.map(\.externalID))
            #expect(pieces.summary.records == whole.summary.records)
        }
    }

    @Test func aCutOffExportNamesWhereItEnds() throws {
        let bytes = try Self.fixtureXML()
        let text = String(decoding: bytes, as: UTF8.self)
        // Inside a tag.
        let inTag = text.range(of: "value=\"71.05\"")!.lowerBound
        #expect(throws: CinnError.self) { try Self.mapped(Array(text[..<inTag].utf8), piece: 4096) }
        do {
            _ = try Self.mapped(Array(text[..<inTag].utf8), piece: 4096)
        } catch let error as CinnError {
            #expect(error.message.contains("ends early inside a tag at line 239"), "\(error.message)")
        }
        // Between records: the open elements are named.
        let afterRecord = text.range(of: "value=\"71.05\"/>\n")!.upperBound
        do {
            _ = try Self.mapped(Array(text[..<afterRecord].utf8), piece: 4096)
            Issue.record("a cut-off export was read")
        } catch let error as CinnError {
            #expect(error.message.contains("<HealthData> from line"), "\(error.message)")
        }
    }

    @Test func malformedXMLNamesLineAndColumnAndDamagedDTDsAndControlCharactersAreTolerated() throws {
        let text = String(decoding: try Self.fixtureXML(), as: UTF8.self)
        let unquoted = text.replacingOccurrences(of: "value=\"71.05\"", with: "value=71.05")
        do {
            _ = try Self.mapped(Array(unquoted.utf8), piece: 512)
            Issue.record("malformed XML was read")
        } catch let error as CinnError {
            #expect(error.message.hasPrefix("export.xml line 239, column "), "\(error.message)")
            #expect(error.message.contains("without quotes"))
        }
        let crossed = text.replacingOccurrences(of: "</Correlation>", with: "</Workout>")
        #expect(throws: CinnError.self) { try Self.mapped(Array(crossed.utf8), piece: 512) }

        // iOS 16's DTD: the VisionPrescription ATTLIST without its closing '>'; and a stray vertical tab.
        let damaged = text.replacingOccurrences(of: "  brand            CDATA #IMPLIED\n>", with: "  brand            CDATA #IMPLIED\n")
            .replacingOccurrences(of: "sourceName=\"Health Mate\"", with: "sourceName=\"Health\u{0B} Mate\"")
        #expect(damaged != text)
        let read = try Self.mapped(Array(damaged.utf8), piece: 512)
        #expect(read.batch.weighIns.count == 5 && read.summary.rejectedCount == 0)
    }

    @Test func quotedValuesMayHoldAnglesAndNewlinesAndAValueThatNeverEndsIsNamed() throws {
        let text = String(decoding: try Self.fixtureXML(), as: UTF8.self)
        // A '>' and a newline inside quoted values are part of them, and the lines after are still counted.
        let odd = text.replacingOccurrences(of: "sourceName=\"Health Mate\"", with: "sourceName=\"Health > Mate\nScale\"")
            .replacingOccurrences(of: "value=\"71.05\"", with: "value=71.05")
        let tag = odd[..<odd.range(of: "value=71.05")!.lowerBound].range(of: "<Record", options: .backwards)!.lowerBound
        let line = odd[..<tag].filter { $0 == "\n" }.count + 1
        #expect(line > 239, "the newlines inside values come before it")
        for piece in [7, 512, 1 << 20] {
            do {
                _ = try Self.mapped(Array(odd.utf8), piece: piece)
                Issue.record("malformed XML was read")
            } catch let error as CinnError {
                #expect(error.message.hasPrefix("export.xml line \(line), column "), "\(error.message)")
            }
        }
        let angles = text.replacingOccurrences(of: "sourceName=\"Health Mate\"", with: "sourceName=\"Health > Mate\nScale\"")
        #expect(try Self.mapped(Array(angles.utf8), piece: 512).batch.weighIns.count == 5)

        // A value whose closing quote is lost runs on: past a megabyte the scanner stops and names where it began.
        let cut = text.range(of: "<Record type=\"HKQuantityTypeIdentifierBodyMass\"")!.lowerBound
        let endless = String(text[..<cut]) + "<Record type=\"" + String(repeating: "a", count: 3 << 20) + "\"/>\n</HealthData>\n"
        let tagLine = text[..<cut].filter { $0 == "\n" }.count + 1
        do {
            _ = try Self.mapped(Array(endless.utf8), piece: 1 << 19)
            Issue.record("a tag of 3 MB was read")
        } catch let error as CinnError {
            #expect(error.message.hasPrefix("export.xml line \(tagLine), column "), "\(error.message)")
            #expect(error.message.contains("longer than 1 MB"), "\(error.message)")
        }
    }

    @Test func nestingDeeperThanAnExportEverDoesIsRefusedNamingTheElement() throws {
        let text = String(decoding: try Self.fixtureXML(), as: UTF8.self)
        let cut = text.range(of: "<Record type=\"HKQuantityTypeIdentifierBodyMass\"")!.lowerBound
        let tagLine = text[..<cut].filter { $0 == "\n" }.count + 1
        // A million nested elements in a few megabytes: refused at the seventeenth, holding none of the rest.
        let nested =
            String(text[..<cut]) + String(repeating: "<a>", count: 1_000_000) + String(repeating: "</a>", count: 1_000_000)
            + "\n</HealthData>\n"
        do {
            _ = try Self.mapped(Array(nested.utf8), piece: 1 << 16)
            Issue.record("a million nested elements were read")
        } catch let error as CinnError {
            #expect(error.message.hasPrefix("export.xml line \(tagLine), column "), "\(error.message)")
            #expect(error.message.contains("<a> is nested 17 elements deep"), "\(error.message)")
        }
        // The fixture's own nesting (workouts with routes, correlations with records and metadata) reads.
        #expect(try Self.mapped(Array(text.utf8), piece: 4096).batch.weighIns.count == 5)
    }

    @Test func aZipWithoutExportXMLAndAFileThatIsNoExportAreNamed() async throws {
        let notExport = try temporaryFile("<?xml version=\"1.0\"?>\n<Workouts><Workout/></Workouts>\n", name: "export.xml")
        await #expect(throws: CinnError.self) { try await Self.read(notExport) }
        let zip = try fixture("myfitnesspal/File-Export-2024-03-01-to-2024-03-07.zip")
        #expect(!AppleHealthReader.recognises(url: zip))
        #expect(AppleHealthReader.recognises(url: try fixture("apple_health/export.zip")))
        do {
            _ = try await Self.read(zip)
            Issue.record("a zip without export.xml was read")
        } catch let error as CinnError {
            #expect(error.message.contains("holds no apple_health_export/export.xml"), "\(error.message)")
        }
    }

    @Test func dietaryRecordsOutsideCorrelationsAreEntriesOfTheirOwnBySourceAndTime() throws {
        func record(_ type: String, _ unit: String, _ value: String, at time: String, source: String = "Lose It!") -> String {
            "<Record type=\"HKQuantityTypeIdentifierDietary\(type)\" sourceName=\"\(source)\" unit=\"\(unit)\" startDate=\"\(time)\" endDate=\"\(time)\" value=\"\(value)\"/>"
        }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_GB">
             \(record("EnergyConsumed", "kJ", "836.8", at: "2024-03-09 08:00:00 +0000"))
             \(record("Protein", "g", "12", at: "2024-03-09 08:00:00 +0000"))
             \(record("EnergyConsumed", "Cal", "250", at: "2024-03-09 19:45:00 +0000"))
             \(record("Protein", "g", "abc", at: "2024-03-09 20:00:00 +0000"))
            </HealthData>
            """
        let read = try Self.mapped(Array(xml.utf8), piece: 100)
        #expect(read.batch.foodEntries.map(\.name) == ["Food from Lose It!", "Food from Lose It!"])
        #expect(read.batch.foodEntries.map { $0.nutrients.energy } == [200, 250], "836.8 kJ is 200 kcal; Cal is kcal")
        #expect(read.batch.foodEntries.map(\.meal) == [.breakfast, .dinner])
        #expect(read.summary.rejected.map(\.line) == [6] && read.summary.rejected.first?.field == "value")
    }

    @Test func otherTypesAreSummedUpPerLocalDayInOneUnitEach() throws {
        func record(_ type: String, _ unit: String, _ value: String, at time: String, zone: String? = nil) -> String {
            let start =
                "<Record type=\"HKQuantityTypeIdentifier\(type)\" sourceName=\"Watch\" unit=\"\(unit)\" startDate=\"\(time)\" endDate=\"\(time)\" value=\"\(value)\""
            guard let zone else { return start + "/>" }
            return start + "><MetadataEntry key=\"HKTimeZone\" value=\"\(zone)\"/></Record>"
        }
        let xml = """
            <HealthData locale="en_GB">
             \(record("HeartRate", "count/min", "61", at: "2024-03-09 08:00:00 +0000"))
             \(record("HeartRate", "count/min", "142", at: "2024-03-09 18:00:00 +0000"))
             \(record("HeartRate", "count/min", "88", at: "2024-03-09 23:30:00 +0000"))
             \(record("HeartRate", "count/min", "70", at: "2024-03-09 23:40:00 +0000", zone: "Europe/Berlin"))
             \(record("ActiveEnergyBurned", "kJ", "418.4", at: "2024-03-09 08:00:00 +0000"))
             \(record("ActiveEnergyBurned", "Cal", "20", at: "2024-03-09 09:00:00 +0000"))
             \(record("DistanceWalkingRunning", "km", "1.5", at: "2024-03-09 08:00:00 +0000"))
             \(record("DistanceWalkingRunning", "mi", "1", at: "2024-03-09 09:00:00 +0000"))
             \(record("Height", "ft", "5.5", at: "2024-03-09 09:00:00 +0000"))
             \(record("StepCount", "count", "many", at: "2024-03-09 09:00:00 +0000"))
            </HealthData>
            """
        let read = try Self.mapped(Array(xml.utf8), piece: 64)
        let days = Dictionary(grouping: read.summary.days) { String($0.key.type.dropFirst(24)) }
        let heart = try #require(days["HeartRate"]?.sorted { $0.key.day < $1.key.day })
        #expect(heart.map(\.key.day) == [LocalDate(iso: "2024-03-09")!, LocalDate(iso: "2024-03-10")!], "23:40 UTC is the 10th in Berlin")
        #expect(heart[0].count == 3 && heart[0].sum == 291 && heart[0].minimum == 61 && heart[0].maximum == 142 && heart[0].mean == 97)
        #expect(
            days["ActiveEnergyBurned"]?.map { ($0.sum * 1000).rounded() / 1000 } == [120]
                && days["ActiveEnergyBurned"]?.first?.key.unit == "kcal", "418.4 kJ is 100 kcal")
        #expect(
            days["DistanceWalkingRunning"]?.map { ($0.sum * 1000).rounded() / 1000 } == [3109.344]
                && days["DistanceWalkingRunning"]?.first?.key.unit == "m")
        #expect(days["Height"]?.first.map { ($0.sum * 100).rounded() / 100 } == 167.64 && days["Height"]?.first?.key.unit == "cm")
        #expect(days["StepCount"] == nil && read.summary.rejected.map(\.line) == [11] && read.summary.rejected.first?.field == "value")
    }

    @Test func healthDataTypesReadAsWords() {
        #expect(HealthDataType("HKQuantityTypeIdentifierStepCount").name == "Step count")
        #expect(HealthDataType("HKQuantityTypeIdentifierHeartRateVariabilitySDNN").name == "Heart rate variability SDNN")
        #expect(HealthDataType("HKQuantityTypeIdentifierVO2Max").name == "VO2 max")
        #expect(
            HealthDataType.name(type: "HKCategoryTypeIdentifierSleepAnalysis", category: "HKCategoryValueSleepAnalysisAsleepCore")
                == "Core sleep")
        #expect(
            HealthDataType.name(type: "HKCategoryTypeIdentifierSleepAnalysis", category: "HKCategoryValueSleepAnalysisAsleepREM")
                == "REM sleep")
        #expect(
            HealthDataType.name(type: "HKCategoryTypeIdentifierSleepAnalysis", category: "HKCategoryValueSleepAnalysisAwake")
                == "Awake in bed")
        #expect(
            HealthDataType.name(type: "HKCategoryTypeIdentifierSleepAnalysis", category: "HKCategoryValueSleepAnalysisInBed") == "In bed")
        #expect(
            HealthDataType("HKQuantityTypeIdentifierStepCount").isCumulative
                && HealthDataType("HKQuantityTypeIdentifierDistanceCycling").isCumulative)
        #expect(
            !HealthDataType("HKQuantityTypeIdentifierHeartRate").isCumulative
                && !HealthDataType("HKQuantityTypeIdentifierHeight").isCumulative)
    }

    @Test func unitsFollowHKUnitSpellings() {
        #expect(
            HealthUnit.kilocalories(250, "Cal") == 250 && HealthUnit.kilocalories(250_000, "cal") == 250
                && HealthUnit.kilocalories(836.8, "kJ") == 200)
        #expect(HealthUnit.kilocalories(1, "kcal/hr") == nil && HealthUnit.meters(5, "km") == 5000 && HealthUnit.seconds(2, "min") == 120)
    }

    @Test func datesAreReadWithTheirOwnOffsets() throws {
        func date(_ text: String) -> HealthDate? { Array(text.utf8).withUnsafeBufferPointer { HealthDate(bytes: $0) } }
        let west = try #require(date("2024-03-09 07:41:03 -0500"))
        #expect(west.milliseconds == 1_709_988_063_000 && west.utcOffsetSeconds == -18_000)
        #expect(date("2024-03-09 07:41:03 +0530")?.utcOffsetSeconds == 19_800)
        #expect(
            date("2024-03-09T07:41:03-05:00") == nil && date("2024-02-30 07:41:03 -0500") == nil && date("2024-03-09 25:41:03 -0500") == nil
        )
    }
}

/// Batches collected from the reader's callback.
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var batch = AppleHealthReader.Batch()

    func add(_ more: AppleHealthReader.Batch) { lock.withLock { batch.append(more) } }
    var all: AppleHealthReader.Batch { lock.withLock { batch } }
}

extension AppleHealthReader.Batch {
    mutating func append(_ other: Self) {
        weighIns += other.weighIns
        bodyFat += other.bodyFat
        glucose += other.glucose
        insulin += other.insulin
        foodEntries += other.foodEntries
        workouts += other.workouts
    }
}
