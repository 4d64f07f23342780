import CinnCore
import CinnImport
import Foundation
import Testing

@Suite struct FileCheckTests {
    @Test func rejectsAnEmptyFile() throws {
        for text in ["", "\u{FEFF}", " \r\n\n"] {
            let error = try #require(openingError(temporaryFile(text)))
            #expect(error == CinnError(.invalidInput, "the file is empty", field: "file"))
        }
    }

    @Test func rejectsUTF16WithAndWithoutByteOrderMark() throws {
        let text = "date,weight\n2024-03-01,72.4\n"
        let littleEndian = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let bigEndian = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for bytes in [[0xFF, 0xFE] + littleEndian, [0xFE, 0xFF] + bigEndian, littleEndian, bigEndian] {
            let error = try #require(openingError(temporaryFile(bytes), unit: .kilograms))
            #expect(error == CinnError(.invalidInput, "the file is UTF-16; save it as UTF-8", field: "file"))
        }
    }

    @Test func rejectsUTF32() throws {
        let bytes: [UInt8] = [0xFF, 0xFE, 0, 0] + "date".unicodeScalars.flatMap { [UInt8($0.value), 0, 0, 0] }
        let error = try #require(openingError(temporaryFile(bytes)))
        #expect(error.message == "the file is UTF-32; save it as UTF-8")
    }

    @Test func rejectsBinaryFiles() throws {
        let binary = try #require(openingError(temporaryFile([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D])))
        #expect(binary.field == "file")
        #expect(binary.message.hasPrefix("the file is not text"))
        let zip = try #require(openingError(temporaryFile([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00])))
        #expect(zip.message == "the file is a ZIP archive; unpack it and import the weight file inside")
    }

    @Test func rejectsAnUnknownFormatNamingTheColumnsFound() throws {
        let error = try #require(openingError(temporaryFile("\n\nhello world;42\nmore\n", name: "notes.txt")))
        #expect(error.field == "file")
        #expect(error.message.contains("\"hello world\", \"42\""))
        #expect(error.message.contains("Hacker's Diet Online, Libra, Fitbit JSON, Google Health CSV"))
        #expect(error.message.contains("Fitbod") && error.message.contains("Strong") && error.message.contains("FitNotes"))

        let bodyFat = try #require(openingError(fixture("body_fat_2024-03-01.csv")))
        #expect(bodyFat.message.contains("\"timestamp\", \"body fat percentage\", \"data source\""))
    }

    @Test func rejectsAMissingFile() throws {
        let error = try #require(openingError(URL(fileURLWithPath: "/nonexistent/weights.csv")))
        #expect(error.field == "file")
        #expect(error.message.hasPrefix("cannot open weights.csv"))
    }

    @Test func rejectsFitbitWithoutAUnit() throws {
        let error = try #require(openingError(fixture("weight-2024-02-01.json")))
        #expect(error == CinnError(.invalidInput, "Fitbit weight files carry no unit: choose their unit, kg or lb", field: "unit"))
    }

    @Test func rejectsTruncatedJSONNamingTheLine() async throws {
        let whole = try Data(contentsOf: fixture("weight-2024-02-01.json"))
        let url = try temporaryFile(Array(whole.prefix(300)), name: "weight.json")
        await #expect(throws: CinnError(.invalidInput, "the JSON ends too early at line 17: the file looks cut off", field: "file")) {
            try await readAll(url, unit: .pounds)
        }
        let broken = try temporaryFile("[\n{\"logId\": 1, \"weight\": 72.5,,}\n]", name: "weight.json")
        await #expect(throws: CinnError(.invalidInput, "line 2: the JSON has an unexpected \",\" here", field: "file")) {
            try await readAll(broken, unit: .kilograms)
        }
    }

    @Test func rejectsAQuoteThatIsNeverClosed() async throws {
        let url = try temporaryFile("date,weight,note\n2024-03-01,72.4,\"open\n2024-03-02,72.2,\n")
        await #expect(throws: CinnError(.invalidInput, "line 2: a quoted field starts here and is never closed", field: "file")) {
            try await readAll(url, unit: .kilograms)
        }
    }

    @Test func rejectsAHeaderWithoutWeight() throws {
        let error = try #require(openingError(temporaryFile("date,weight grams\n2024-03-01,72400\n"), format: .csv, unit: .kilograms))
        #expect(error.field == "file")
        #expect(error.message.hasPrefix("the header on line 1 (\"date\", \"weight grams\") needs a date column"))
    }

    @Test func rejectsAnUnknownUnitInAPreamble() throws {
        let hackersDiet = try #require(
            openingError(temporaryFile("Epoch,2024-03-14T21:10:03Z\nPreferences,1.0,furlong,pound,calorie,0,.\n")))
        #expect(hackersDiet.field == "unit")
        let libra = try #require(openingError(temporaryFile("#Version: 6\n#Units: furlongs\n")))
        #expect(libra.field == "unit")
        #expect(libra.message.contains("\"furlongs\""))
    }
}

@Suite struct FormatDetectionTests {
    /// A workout log with a date and a weight column (Fitbod's data download) is never taken for weigh-ins.
    @Test(arguments: [
        "Date,Exercise,Reps,Weight(kg)\n2024-03-13,Bench,8,40\n", "date;exercise name;set order;weight\n2024-03-13;Row;1;40\n",
    ])
    func aWorkoutLogIsNotAWeightFile(_ text: String) throws {
        #expect(WeightFileReader.detectFormat(prefix: Array(text.utf8)) == nil)
        #expect(openingError(try temporaryFile(text), format: .csv) != nil, "not even when asked to read it as a weight CSV")
    }

    /// JSON that is not a Fitbit weight log (a Health Auto Export file, a MongoDB dump, anything else) is refused saying
    /// what Cinn reads, never asked for a unit.
    @Test(arguments: ["{\"data\": {\"metrics\": [{\"name\": \"weight_body_mass\"}]}}", "[{\"foo\": 1}]", "{\"_id\": {\"$oid\": \"5cd3\"}}"])
    func jsonThatIsNotFitbitIsRefusedByWhatItIsNot(_ text: String) throws {
        #expect(WeightFileReader.detectFormat(prefix: Array(text.utf8)) == nil)
        let error = try #require(openingError(temporaryFile(text)))
        #expect(
            error.field == "file" && error.message.contains("JSON of a kind Cinn does not know") && !error.message.contains("unit:"),
            "\(error)")
    }

    @Test(arguments: [
        ("[{\"logId\": 1}]", WeightFileFormat.fitbit),
        ("\n  {\"weight\": []}", .fitbit),
        ("#Version: 6\n#Units: kg\n", .libra),
        ("#Units: lbs\n", .libra),
        ("#date;weight;weight trend\n", .libra),
        ("Epoch,2024-03-14T21:10:03Z\r\nUser,1.0\r\n", .hackersDiet),
        ("Date,Weight,Rung,Flag,Comment\r\n", .hackersDiet),
        ("timestamp,weight grams,data source\n", .googleHealth),
        ("\u{FEFF}date,weight\n", .csv),
        ("Datetime;Weight (kg);Note\n", .csv),
        ("\"Day\"\t\"Body Weight\"\n", .csv),
        ("Time,Mass,Unit\n", .csv),
    ])
    func detects(prefix: String, format: WeightFileFormat) {
        #expect(WeightFileReader.detectFormat(prefix: Array(prefix.utf8)) == format)
    }

    @Test(arguments: ["", "\n\n", "hello", "timestamp,body fat percentage,data source\n", "date,fat\n", "weight,notes\n"])
    func detectsNothing(prefix: String) {
        #expect(WeightFileReader.detectFormat(prefix: Array(prefix.utf8)) == nil)
    }

    @Test func takesTheFormatItIsGiven() async throws {
        let url = try temporaryFile("Date,Weight,Rung\n2024-03-01,72.4,\n")
        let detected = try await readAll(url, unit: .kilograms)
        #expect(detected.summary.format == .hackersDiet)
        #expect(detected.readings.map(\.externalID) == ["hackdiet:2024-03-01"])

        let forced = try await readAll(url, format: .csv, unit: .kilograms)
        #expect(forced.summary.format == .csv)
        #expect(forced.readings.first?.externalID.hasPrefix("csv:") == true)
        #expect(forced.readings.first?.weight.kilograms == 72.4)

        let wrong = try #require(openingError(url, format: .googleHealth))
        #expect(wrong.field == "file")
    }

    @Test func readsAFileWithoutAKnownExtensionByItsContent() throws {
        let url = try temporaryFile("#Units: kg\n#date;weight\n2024-03-01T06:00:00Z;72.4\n", name: "export.txt")
        let reader = try WeightFileReader(url: url, options: WeightImportOptions(timeZone: berlin))
        #expect(reader.format == .libra)
    }
}
