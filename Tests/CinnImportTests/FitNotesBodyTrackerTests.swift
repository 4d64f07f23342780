import CinnCore
import Foundation
import Testing

@testable import CinnImport

/// FitNotes' Body Tracker export: body weight and body fat, the other measurements skipped.
@Suite struct FitNotesBodyTrackerTests {
    static let utc = TimeZone(identifier: "UTC")!

    @Test func bodyWeightAndBodyFatAreRead() throws {
        let url = try fixture("FitNotes_BodyTracker_Export_2024_03_07.csv")
        #expect(FitNotesBodyTracker.recognises(url: url))
        #expect(WorkoutFileReader.detectFormat(url: url) == nil, "not a workout log")
        let contents = try FitNotesBodyTracker.read(url: url, timeZone: Self.utc)
        #expect(contents.rowsRead == 7 && contents.skipped == 1, "the waist")
        let weights = contents.records.weighIns
        #expect(weights.map { ($0.weight.kilograms * 10).rounded() / 10 } == [82.4, 82.1, 82.1, 81.9], "181 lbs is 82.1 kg")
        #expect(weights[0].measuredAt == Date(timeIntervalSince1970: 1_709_277_120) && weights[1].note == "After run, before breakfast")
        #expect(contents.records.bodyFat.map { ($0.reading.fraction * 1000).rounded() } == [186])
        #expect(contents.rejected == [RejectedRow(line: 7, field: "Value", reason: "body fat must be between 2 and 75 %, not 180 %")])
        #expect(
            Set(weights.map(\.externalID)).count == 4 && contents.records.bodyFat[0].externalID == "fitnotes-body:1709277120000:bodyfat")
    }

    @Test func aWorkoutLogIsNotABodyTracker() throws {
        #expect(!FitNotesBodyTracker.recognises(url: try fixture("FitNotes_Export_2024_03_07.csv")))
        #expect(!FitNotesBodyTracker.recognises(url: try fixture("weight_2024-03-01.csv")))
    }
}
