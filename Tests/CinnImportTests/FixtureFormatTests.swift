import CinnCore
import CinnImport
import Foundation
import Testing

@Suite struct HackersDietTests {
    @Test func readsTheFixture() async throws {
        let result = try await readAll(fixture("hackdiet_db.csv"))
        #expect(result.summary.format == .hackersDiet)
        #expect(result.readings.count == 29)
        #expect(result.summary.rowsRead == 29)
        #expect(result.summary.rejectedCount == 0)

        let first = try #require(result.readings.first)
        #expect(first.line == 7)
        #expect(first.measuredAt == (try instant("2024-02-01T11:00:00Z")))
        #expect(first.utcOffsetSeconds == 3600)
        #expect(first.weight.kilograms == kilograms(158.4, .pounds))
        #expect(first.note == nil)
        #expect(first.externalID == "hackdiet:2024-02-01")

        let last = try #require(result.readings.last)
        #expect(last.line == 50)
        #expect(last.externalID == "hackdiet:2024-03-13")
        #expect(last.weight.kilograms == kilograms(154.4, .pounds))
        #expect(last.note == "Quoted \"new scale\" reading")
    }

    @Test func skipsBlankDaysAndIgnoresStartTrend() async throws {
        let result = try await readAll(fixture("hackdiet_db.csv"))
        let days = result.readings.map(\.externalID)
        #expect(!days.contains("hackdiet:2024-02-03"), "a day with a comment but no weight is skipped")
        #expect(!days.contains("hackdiet:2024-02-09"))
        #expect(!result.readings.contains { abs($0.weight.value(in: .pounds) - 158.6723) < 0.001 })
        #expect(!result.readings.contains { abs($0.weight.value(in: .pounds) - 156.0214) < 0.001 })
        #expect(Set(result.readings.map(\.line)).isDisjoint(with: [6, 37]))
    }

    @Test func keepsTheQuotedCommentWithAComma() async throws {
        let result = try await readAll(fixture("hackdiet_db.csv"))
        let pizza = try #require(result.readings.first { $0.externalID == "hackdiet:2024-02-06" })
        #expect(pizza.note == "Pizza night, too much salt")
        #expect(pizza.line == 12)
        #expect(pizza.weight.kilograms == kilograms(158.6, .pounds))
    }

    @Test func usesTheStartTrendUnitWithoutPreferences() async throws {
        let text = "Date,Weight,Rung,Flag,Comment\r\nStartTrend,70.5,0,1709239521,1709239521,1.0\r\n2024-03-01,70.2,,0,\r\n"
        let result = try await readAll(text)
        #expect(result.summary.format == .hackersDiet)
        #expect(result.readings.map(\.weight.kilograms) == [70.2])
    }

    @Test func fallsBackToWindows1252() async throws {
        var bytes = Array(
            "Epoch,2024-03-14T21:10:03Z\r\nPreferences,1.0,kilogram,kilogram,calorie,0,.\r\nDate,Weight,Rung,Flag,Comment\r\n".utf8)
        bytes += Array("StartTrend,70.5,0,1,1,1.0\r\n2024-03-01,70.2,,0,Caf".utf8) + [0xE9, 0x20, 0x80] + Array("\r\n".utf8)
        let result = try await readAll(temporaryFile(bytes))
        #expect(result.readings.first?.note == "Café €")
        #expect(result.readings.first?.weight.kilograms == 70.2)
    }
}

@Suite struct LibraTests {
    @Test func readsTheFixture() async throws {
        let result = try await readAll(fixture("libra_export.csv"))
        #expect(result.summary.format == .libra)
        #expect(result.readings.count == 7)
        #expect(result.summary.rowsRead == 7)
        #expect(result.summary.rejectedCount == 0)

        let first = try #require(result.readings.first)
        #expect(first.line == 6)
        #expect(first.measuredAt == (try instant("2024-03-01T06:12:40Z")))
        #expect(first.utcOffsetSeconds == 3600)
        #expect(first.weight.kilograms == 71.8)
        #expect(first.externalID == "libra:\(Int64(try instant("2024-03-01T06:12:40Z").timeIntervalSince1970 * 1000))")

        let last = try #require(result.readings.last)
        #expect(last.line == 12)
        #expect(last.measuredAt == (try instant("2024-03-07T06:10:51Z")))
        #expect(last.weight.kilograms == 71.0)
        #expect(last.note == nil)
    }

    @Test func collapsesTheMidnightPlaceholder() async throws {
        let result = try await readAll(fixture("libra_export.csv"))
        #expect(!result.readings.contains { $0.line == 5 })
        #expect(result.readings.filter { $0.weight.kilograms == 71.8 }.map(\.line) == [6])
    }

    @Test func keepsAMidnightReadingOfAnotherWeight() async throws {
        let text =
            "#Units: kg\n#date;weight;weight trend;body fat;body fat trend;muscle mass;muscle mass trend;log\n"
            + "2024-02-29T23:00:00.000Z;71.9\n2024-03-01T06:12:40.000Z;71.8\n"
        let result = try await readAll(text)
        #expect(result.readings.map(\.line) == [3, 4])
    }

    @Test func readsLogTextWithSemicolonsAndOmittedFields() async throws {
        let result = try await readAll(fixture("libra_export.csv"))
        #expect(result.readings.first { $0.line == 8 }?.note == "after a salty dinner")
        #expect(result.readings.first { $0.line == 11 }?.note == "new batteries; re-weighed")
        #expect(result.readings.first { $0.line == 9 }?.weight.kilograms == 71.4)
    }

    @Test func readsVersion5InPounds() async throws {
        let text =
            "#Version: 5\n#Units: lbs\n#date;weight;weight trend;body fat;body fat trend;comment\n"
            + "2019-06-11 09:49:00;183.3;183.3;;;first; second\n2023-01-13T22:19:24.978691Z;180.0\n"
        let result = try await readAll(text)
        #expect(result.readings.count == 2)
        #expect(result.readings[0].measuredAt == (try instant("2019-06-11T09:49:00Z")))
        #expect(result.readings[0].utcOffsetSeconds == 7200)
        #expect(result.readings[0].note == "first; second")
        #expect(result.readings[0].weight.kilograms == kilograms(183.3, .pounds))
        #expect(
            abs(
                result.readings[1].measuredAt.timeIntervalSince1970 - (try instant("2023-01-13T22:19:24Z")).timeIntervalSince1970 - 0.978691
            ) < 1e-6)
    }
}

@Suite struct FitbitTests {
    @Test func readsTheFixture() async throws {
        let result = try await readAll(fixture("weight-2024-02-01.json"), unit: .pounds)
        #expect(result.summary.format == .fitbit)
        #expect(result.readings.count == 6)
        #expect(result.summary.rejectedCount == 0)

        let first = try #require(result.readings.first)
        #expect(first.line == 1)
        #expect(first.measuredAt == (try instant("2024-02-01T05:58:12Z")))
        #expect(first.utcOffsetSeconds == 3600)
        #expect(first.weight.kilograms == kilograms(158.2, .pounds))
        #expect(first.externalID == "fitbit:1706770692000")
        #expect(first.note == nil)

        let manual = result.readings[2]
        #expect(manual.measuredAt == (try instant("2024-02-04T22:59:59Z")))
        #expect(manual.line == 16)

        let last = try #require(result.readings.last)
        #expect(last.externalID == "fitbit:1707288931000")
        #expect(last.weight.kilograms == kilograms(157.3, .pounds))
        #expect(last.measuredAt == (try instant("2024-02-07T05:55:31Z")))
    }

    @Test func givesTheDuplicatedLogIdTheSameKey() async throws {
        let result = try await readAll(fixture("weight-2024-02-01.json"), unit: .pounds)
        let duplicated = result.readings.filter { $0.externalID == "fitbit:1707116462000" }
        #expect(duplicated.count == 2)
        #expect(Set(result.readings.map(\.externalID)).count == 5)
    }

    @Test func readsKilogramsWhenToldSo() async throws {
        let result = try await readAll(fixture("weight-2024-02-01.json"), unit: .kilograms)
        #expect(result.readings.first?.weight.kilograms == 158.2)
    }

    @Test func rejectsBadEntriesAndReadsTheRest() async throws {
        let text = """
            {"weight": [
              {"logId": 1, "weight": 72.5, "date": "03/01/24", "time": "07:00:00"},
              {"logId": 2, "weight": "heavy", "date": "03/02/24", "time": "07:00:00"},
              {"logId": 3, "weight": 72.1, "date": "13/45/24", "time": "07:00:00"},
              {"weight": 72.0, "date": "03/04/24", "time": "07:00:00"},
              {"logId": 5, "weight": 72.0, "date": "03/05/2024"}
            ]}
            """
        let result = try await readAll(temporaryFile(text, name: "weight.json"), unit: .kilograms)
        #expect(result.readings.map(\.externalID) == ["fitbit:1", "fitbit:5"])
        #expect(result.readings.last?.measuredAt == (try instant("2024-03-05T11:00:00Z")))
        #expect(result.rejected.map(\.line) == [3, 4, 5])
        #expect(result.rejected.map(\.field) == ["weight", "date", "logId"])
        #expect(result.summary.rowsRead == 5)
    }
}

@Suite struct GoogleHealthTests {
    @Test func readsTheFixture() async throws {
        let result = try await readAll(fixture("weight_2024-03-01.csv"))
        #expect(result.summary.format == .googleHealth)
        #expect(result.readings.count == 4)
        #expect(result.summary.rejectedCount == 0)

        let first = try #require(result.readings.first)
        #expect(first.line == 2)
        #expect(first.measuredAt == (try instant("2024-03-01T06:58:12Z")))
        #expect(first.utcOffsetSeconds == 3600)
        #expect(first.weight.kilograms == 71.757)
        #expect(first.externalID == "google-health:\(Int64(try instant("2024-03-01T06:58:12Z").timeIntervalSince1970) * 1000):71757")

        let last = try #require(result.readings.last)
        #expect(last.line == 5)
        #expect(last.weight.kilograms == 71.4)
        #expect(last.measuredAt == (try instant("2024-03-04T11:20:05Z")))
    }

    @Test func givesTheMirroredReadingOneKey() async throws {
        let result = try await readAll(fixture("weight_2024-03-01.csv"))
        let mirrored = result.readings.filter { $0.line == 3 || $0.line == 4 }
        #expect(mirrored.count == 2)
        let milliseconds = Int64((try instant("2024-03-02T07:03:40Z").timeIntervalSince1970 + 0.11) * 1000)
        #expect(mirrored.allSatisfy { $0.externalID == "google-health:\(milliseconds):71668" })
        #expect(Set(result.readings.map(\.externalID)).count == 3)
    }
}
