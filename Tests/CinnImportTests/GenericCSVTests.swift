import CinnCore
import CinnImport
import Foundation
import Testing

@Suite struct GenericCSVTests {
    @Test func readsTimesOffsetsAndDays() async throws {
        let text = """
            date,weight,unit,note
            2024-03-01,72.4,kg,first
            2024-03-02T06:00:00Z,72.2,kg,
            2024-07-01T08:00,72.0,kg,
            2024-03-07T07:30:00+02:00,160.2,lb,"with ""quotes"", and comma"

            """
        let result = try await readAll(text)
        #expect(result.summary.format == .csv)
        #expect(result.readings.map(\.line) == [2, 3, 4, 5])
        #expect(
            result.readings.map(\.measuredAt) == [
                try instant("2024-03-01T11:00:00Z"), try instant("2024-03-02T06:00:00Z"),
                try instant("2024-07-01T06:00:00Z"), try instant("2024-03-07T05:30:00Z"),
            ])
        #expect(result.readings.map(\.utcOffsetSeconds) == [3600, 3600, 7200, 7200])
        #expect(result.readings.map(\.note) == ["first", nil, nil, "with \"quotes\", and comma"])
        #expect(result.readings[3].weight.kilograms == kilograms(160.2, .pounds))
        let milliseconds = Int64(try instant("2024-03-01T11:00:00Z").timeIntervalSince1970) * 1000
        #expect(result.readings[0].externalID == "csv:\(milliseconds):72400000")
    }

    @Test func aFileOfMoreRowsThanAnyExportHoldsIsRefusedNamingTheLimit() async throws {
        let rows = String(repeating: "2020-01-01,80\n", count: ImportLimits.weighIns + 1)
        do {
            _ = try await readAll("date,weight\n" + rows, unit: .kilograms, batchSize: 50_000)
            Issue.record("a file of more than a million rows was read")
        } catch let error as CinnError {
            #expect(error.field == "file")
            #expect(error.message.contains("more than 1,000,000 rows"), "\(error.message)")
        }
    }

    @Test func rejectsBadRowsAndReadsTheOthers() async throws {
        let text = """
            date,weight,unit
            2024-03-01,72.4,kg
            2024-13-01,72.0,kg
            2024-03-03,abc,kg
            2024-03-04,-5,kg
            2024-03-05,900,kg
            2024-03-06,72.1,stonez
            2024-03-07,72.0,kg
            """
        let result = try await readAll(text)
        #expect(result.readings.map(\.line) == [2, 8])
        #expect(result.summary.rowsRead == 7)
        #expect(result.summary.rejectedCount == 5)
        #expect(
            result.rejected == [
                RejectedRow(
                    line: 3, field: "date", reason: "\"2024-13-01\" is not a date; use ISO 8601 such as 2024-03-09 or 2024-03-09T07:41"),
                RejectedRow(line: 4, field: "weight", reason: "\"abc\" is not a number"),
                RejectedRow(line: 5, field: "weight", reason: "weight must be above zero"),
                RejectedRow(line: 6, field: "weight", reason: "weight must be at most 700 kg"),
                RejectedRow(line: 7, field: "unit", reason: "unknown unit \"stonez\"; use kg, lb or st"),
            ])
    }

    @Test func needsAUnitFromSomewhere() async throws {
        let url = try temporaryFile("date,weight\n2024-03-01,72.4\n")
        let error = try #require(openingError(url))
        #expect(error.code == .invalidInput)
        #expect(error.field == "unit")
        #expect(error.message.contains("choose its unit, kg, lb or st"))
        let result = try await readAll(url, unit: .kilograms)
        #expect(result.readings.map(\.weight.kilograms) == [72.4])
    }

    @Test func takesTheUnitFromTheWeightHeader() async throws {
        for (header, unit) in [
            ("Weight (lbs)", MassUnit.pounds), ("weight_kg", .kilograms), ("weight_st", .stones), ("Body Weight [lb]", .pounds),
        ] {
            let result = try await readAll("Date,\(header)\n2024-03-01,11.5\n")
            #expect(result.readings.map(\.weight.kilograms) == [kilograms(11.5, unit)], "\(header)")
        }
    }

    @Test func prefersTheUnitColumnOverTheOption() async throws {
        let result = try await readAll("day,mass,Unit\n2024-03-01,160,lbs\n2024-03-02,72.5,\n", unit: .kilograms)
        #expect(result.readings.map(\.weight.kilograms) == [kilograms(160, .pounds), 72.5])
    }

    @Test func acceptsSemicolonsWithDecimalCommas() async throws {
        let result = try await readAll("date;weight (kg);comment\n2024-03-01;72,4;gut\n2024-03-02;\"72,2\";\n")
        #expect(result.readings.map(\.weight.kilograms) == [72.4, 72.2])
        #expect(result.readings.first?.note == "gut")
    }

    @Test func acceptsByteOrderMarkCRLFAndBlankLines() async throws {
        let result = try await readAll("\u{FEFF}Date,Weight_kg\r\n2024-03-01,72.4\r\n\r\n,,\r\n2024-03-02,72.2\r\n")
        #expect(result.readings.map(\.line) == [2, 5])
        #expect(result.readings.map(\.weight.kilograms) == [72.4, 72.2])
        #expect(result.summary.rejectedCount == 0)
    }

    @Test func acceptsTabs() async throws {
        let result = try await readAll("timestamp\tweight\tunit\n2024-03-01T07:00:00Z\t160\tlb\n2024-03-02T07:00:00Z\t72,5\tkg\n")
        #expect(result.readings.map(\.weight.kilograms) == [kilograms(160, .pounds), 72.5])
    }

    @Test func readsQuotedFieldsAcrossLines() async throws {
        let result = try await readAll(
            "\"date\",\"weight\",\"note\"\n\"2024-03-01\",\"72.4\",\"line one\nline two\"\n2024-03-02,72.2,\n", unit: .kilograms)
        #expect(result.readings.map(\.line) == [2, 4])
        #expect(result.readings.first?.note == "line one\nline two")
    }

    @Test func combinesADateAndATimeColumn() async throws {
        let result = try await readAll(
            "Date,Time,Weight\n2024-03-01,7:05,72.4\n2024-03-02,,72.2\n2024-03-03,25:00,72.0\n", unit: .kilograms)
        #expect(result.readings.map(\.measuredAt) == [try instant("2024-03-01T06:05:00Z"), try instant("2024-03-02T11:00:00Z")])
        #expect(result.rejected == [RejectedRow(line: 4, field: "time", reason: "\"25:00\" is not a time of day; use HH:MM or HH:MM:SS")])
    }

    @Test func skipsRowsWithoutAWeight() async throws {
        let result = try await readAll("date,weight,fat\n2024-03-01,,21.5\n2024-03-02,72.2,\n", unit: .kilograms)
        #expect(result.readings.map(\.line) == [3])
        #expect(result.summary.rowsRead == 1)
    }

    @Test func readsAcrossChunksInBatches() async throws {
        var text = "date,weight,note\n"
        for index in 0..<5000 {
            text += "2024-01-01T00:00:00Z,\(60 + index % 40).5,\"note \(index), with \"\"quotes\"\"\nand a second line\"\n"
        }
        let result = try await readAll(text, unit: .kilograms, batchSize: 1000)
        #expect(text.utf8.count > 3 * 64 * 1024)
        #expect(result.readings.count == 5000)
        #expect(result.batchSizes == [1000, 1000, 1000, 1000, 1000])
        #expect(result.readings.last?.line == 2 + 4999 * 2)
        #expect(result.readings.last?.note == "note 4999, with \"quotes\"\nand a second line")
        #expect(result.readings.last?.weight.kilograms == 99.5)
        #expect(result.lastProgress?.bytesRead == Int64(text.utf8.count))
        #expect(result.lastProgress?.fraction == 1)
        #expect(result.lastProgress?.rowsRead == 5000)
    }

    @Test func listsAtMostAThousandRejections() async throws {
        let text = "date,weight\n" + String(repeating: "someday,72\n", count: 1200)
        let result = try await readAll(text, unit: .kilograms)
        #expect(result.summary.rejectedCount == 1200)
        #expect(result.rejected.count == ImportReport.maximumListedRejections)
        #expect(result.rejected.last?.line == 1001)
    }
}
