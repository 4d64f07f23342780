import CinnCore
import Foundation
import Testing

@testable import CinnImport

private let newYork = TimeZone(identifier: "America/New_York")!
private let exportName = "File-Export-2024-03-01-to-2024-03-07"

/// The MyFitnessPal fixture: the export's zip, its folder, or one file of the folder.
private func mfpFixture(_ name: String) throws -> URL {
    try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/myfitnesspal"))
}

private func exportFolder() throws -> URL { try mfpFixture(exportName) }
private func exportZip() throws -> URL { try mfpFixture(exportName + ".zip") }

/// An export read whole: its counts, and the values of every batch it handed on.
@dynamicMemberLookup
private struct ReadExport {
    var export: MyFitnessPalExport
    var entries: [FoodLogEntry] = []
    var weighIns: [ImportedWeighIn] = []
    var exercises: [ExerciseEntry] = []
    var batches = 0

    subscript<Value>(dynamicMember key: KeyPath<MyFitnessPalExport, Value>) -> Value { export[keyPath: key] }
}

private func readMFP(
    _ url: URL, unit: MassUnit? = nil, timeZone: TimeZone = newYork,
    dateOrder: MyFitnessPalExport.DateOrder? = nil
) async throws -> ReadExport {
    var entries: [FoodLogEntry] = [], weighIns: [ImportedWeighIn] = [], exercises: [ExerciseEntry] = [], batches = 0
    let export = try await MyFitnessPalExport.read(url: url, options: .init(timeZone: timeZone, unit: unit, dateOrder: dateOrder)) {
        batch in
        entries += batch.entries
        weighIns += batch.weighIns
        exercises += batch.exercises
        batches += 1
    }
    return ReadExport(export: export, entries: entries, weighIns: weighIns, exercises: exercises, batches: batches)
}

private func readingError(_ url: URL, unit: MassUnit? = nil) async -> CinnError? {
    do {
        _ = try await readMFP(url, unit: unit)
        return nil
    } catch {
        return error as? CinnError
    }
}

/// A fresh folder holding `files` (name → contents).
private func temporaryFolder(_ files: [String: String]) throws -> URL {
    let folder = testFiles.appendingPathComponent("mfp-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
    return folder
}

private let n1Header =
    "Date,Meal,Calories,Fat (g),Saturated Fat,Polyunsaturated Fat,Monounsaturated Fat,Trans Fat,Cholesterol,Sodium (mg),Potassium,Carbohydrates (g),Fiber,Sugar,Protein (g),Vitamin A,Vitamin C,Calcium,Iron,Note"
private let n3Header =
    "Date,Meal,Time,Calories,Fat (g),Saturated Fat,Polyunsaturated Fat,Monounsaturated Fat,Trans Fat,Cholesterol,Sodium (mg),Potassium,Carbohydrates (g),Fiber,Sugar,Protein (g),Vitamin A,Vitamin C,Calcium,Iron"

/// The entries with one fixed id each, to compare two reads (every read makes fresh ids).
private func withoutIDs(_ entries: [FoodLogEntry]) -> [FoodLogEntry] {
    entries.map {
        var entry = $0
        entry.id = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
        return entry
    }
}

private func withoutIDs(_ exercises: [ExerciseEntry]) -> [ExerciseEntry] {
    exercises.map {
        var exercise = $0
        exercise.id = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
        return exercise
    }
}

private func amount(_ entry: FoodLogEntry, _ key: String) -> Double? {
    Nutrient.named(key).flatMap { entry.nutrients[$0] }
}

@Suite struct MyFitnessPalTests {
    @Test func theZipAndTheFolderGiveTheSameResult() async throws {
        let zip = try await readMFP(exportZip())
        let folder = try await readMFP(exportFolder())
        #expect(withoutIDs(zip.entries) == withoutIDs(folder.entries))
        #expect(zip.weighIns == folder.weighIns)
        #expect(withoutIDs(zip.exercises) == withoutIDs(folder.exercises))
        #expect(zip.rowsRead == folder.rowsRead)
        #expect(zip.files.map(\.kind) == folder.files.map(\.kind))
        #expect(
            zip.files.map(\.name)
                == MyFitnessPalExport.FileKind.allCases.map(\.rawValue).sorted().map {
                    "\(exportName)/\($0)-2024-03-01-to-2024-03-07.csv"
                })
        let above = try await readMFP(exportFolder().deletingLastPathComponent())
        #expect(withoutIDs(above.entries) == withoutIDs(folder.entries), "the folder the export was unpacked in reads too")
    }

    @Test func readsEveryRowOfTheFixture() async throws {
        let export = try await readMFP(exportZip())
        #expect(export.entries.count == 10)
        #expect(export.weighIns.count == 4)
        #expect(export.exercises.count == 7)
        #expect(export.rowsRead == 21)
        #expect(export.rejected.isEmpty)
        #expect(export.rejectedCount == 0)
        #expect(export.skipped == 0)
        let rows = Dictionary(uniqueKeysWithValues: export.files.map { ($0.kind, $0.rowsRead) })
        #expect(rows == [.nutrition: 10, .measurement: 4, .exercise: 7])
        #expect(export.entries.allSatisfy { $0.source == "import:myfitnesspal" && $0.servings == 1 && $0.servingLabel == "1 meal" })
        #expect(export.entries.allSatisfy { $0.servingAmount == nil && $0.foodID == nil })
        #expect(export.exercises.allSatisfy { $0.source == "import:myfitnesspal" })
    }

    @Test func readsTheHeaderAfterTheByteOrderMarkAndLinesEndingInCRLF() async throws {
        let export = try await readMFP(exportFolder())
        let first = try #require(export.entries.first)
        #expect(first.localDate == LocalDate(iso: "2024-03-01"))
        #expect(first.meal == .breakfast)
        #expect(first.name == "Breakfast (MyFitnessPal)")
        #expect(first.eatenAt == (try instant("2024-03-01T07:42:00-05:00")))
        #expect(first.utcOffsetSeconds == -5 * 3600)
        #expect(first.nutrients.energy == 312)
        #expect(first.note == nil, "a blank note is no note")
        #expect(export.entries[8].note == "skipped - late meeting", "no carriage return at the end of the line")
        #expect(export.exercises[4].note == "felt heavy")
        #expect(
            export.entries.map(\.localTimeOfDay) == [
                "07:42", "08:00", "12:31", "19:05", "15:15", "08:10", "10:48", "13:02", "19:00", "09:30",
            ])
    }

    @Test func keepsAMealOfTheUsersOwn() async throws {
        let postWorkout = try await readMFP(exportFolder()).entries[6]
        #expect(postWorkout.meal.name == "Post-Workout")
        #expect(!postWorkout.meal.isStandard)
        #expect(postWorkout.name == "Post-Workout (MyFitnessPal)")
        #expect(postWorkout.nutrients.energy == 240)
    }

    @Test func keepsAQuotedNoteWithACommaAndAnApostrophe() async throws {
        let dinner = try await readMFP(exportFolder()).entries[3]
        #expect(dinner.meal == .dinner)
        #expect(dinner.note == "Mom's chili, 1.5 bowls")
        #expect(dinner.nutrients.energy == 688.2)
    }

    @Test func keepsTheSkippedDinnerWithZeroCalories() async throws {
        let dinner = try await readMFP(exportFolder()).entries[8]
        #expect(dinner.meal == .dinner)
        #expect(dinner.localDate == LocalDate(iso: "2024-03-02"))
        #expect(dinner.nutrients.energy == 0)
        #expect(amount(dinner, "iron") == 0)
        #expect(dinner.note == "skipped - late meeting")
        #expect(dinner.eatenAt == (try instant("2024-03-02T19:00:00-05:00")), "no time: dinner's usual 19:00")
    }

    @Test func turnsPercentDailyValueIntoAmounts() async throws {
        // The catalogue's FDA Daily Values (2016 rule) that the percentages are taken of.
        #expect(Nutrient.named("vitamin_a")?.dailyValue == 900)
        #expect(Nutrient.named("vitamin_c")?.dailyValue == 90)
        #expect(Nutrient.named("calcium")?.dailyValue == 1300)
        #expect(Nutrient.named("iron")?.dailyValue == 18)
        let entries = try await readMFP(exportFolder()).entries
        let breakfast = entries[0]  // Vitamin A 12, Vitamin C 4, Calcium 14, Iron 11 (% DV)
        #expect(near(amount(breakfast, "vitamin_a"), 108), "12 % of 900 µg")
        #expect(near(amount(breakfast, "vitamin_c"), 3.6), "4 % of 90 mg")
        #expect(near(amount(breakfast, "calcium"), 182), "14 % of 1300 mg")
        #expect(near(amount(breakfast, "iron"), 1.98), "11 % of 18 mg")
        #expect(near(amount(entries[2], "vitamin_c"), 22.5), "lunch: 25 % of 90 mg")
        // The other columns are amounts already: g, and mg for cholesterol, sodium and potassium.
        #expect(amount(breakfast, "fat") == 9.1)
        #expect(amount(breakfast, "saturated_fat") == 2.4)
        #expect(amount(breakfast, "polyunsaturated_fat") == 1.9)
        #expect(amount(breakfast, "monounsaturated_fat") == 3.8)
        #expect(amount(breakfast, "trans_fat") == 0)
        #expect(amount(breakfast, "cholesterol") == 186)
        #expect(amount(breakfast, "sodium") == 402.5)
        #expect(amount(breakfast, "potassium") == 355)
        #expect(amount(breakfast, "carbohydrate") == 38.6)
        #expect(amount(breakfast, "fiber") == 5.2)
        #expect(amount(breakfast, "sugars") == 9.7)
        #expect(amount(breakfast, "protein") == 19.4)
    }

    @Test func givesARowWithoutATimeItsMealsUsualTimeAcrossAChangeToSummerTime() async throws {
        // Clocks in New York went forward at 02:00 on 2024-03-10.
        let csv = """
            Date,Meal,Time,Calories,Note
            2024-03-09,Breakfast,,100,
            2024-03-10,Breakfast,,100,
            2024-03-10,Lunch,,100,
            2024-03-10,Snacks,,100,
            2024-03-10,Dinner,,100,
            2024-03-10,Post-Workout,,100,
            2024-03-10,Snacks,2:30 AM,100,

            """
        let entries = try await readMFP(temporaryFile(csv, name: "Nutrition-Summary.csv")).entries
        #expect(entries.count == 7)
        #expect(entries[0].eatenAt == (try instant("2024-03-09T08:00:00-05:00")))
        #expect(entries[0].utcOffsetSeconds == -5 * 3600)
        #expect(entries[1].eatenAt == (try instant("2024-03-10T08:00:00-04:00")))
        #expect(entries[1].utcOffsetSeconds == -4 * 3600)
        #expect(entries.dropFirst().dropLast().map(\.localTimeOfDay) == ["08:00", "12:30", "15:00", "19:00", "12:00"])
        #expect(entries.dropFirst().allSatisfy { $0.localDate == LocalDate(iso: "2024-03-10") })
        #expect(entries[6].localDate == LocalDate(iso: "2024-03-10"), "a time the clocks skipped still lands on its day")
        let berlinBreakfast = try await readMFP(temporaryFile(csv, name: "Nutrition-Summary.csv"), timeZone: berlin).entries[0]
        #expect(berlinBreakfast.eatenAt == (try instant("2024-03-09T08:00:00+01:00")))
    }

    @Test func readsWeightsInTheUnitOfTheExerciseHeader() async throws {
        let export = try await readMFP(exportZip())
        #expect(export.weightUnit == .pounds)
        #expect(export.weighIns.map(\.weight.kilograms) == [158.2, 157.6, 157.9, 156.8].map { kilograms($0, .pounds) })
        #expect(export.weighIns.map(\.line) == [2, 3, 4, 5])
        let first = try #require(export.weighIns.first)
        #expect(first.measuredAt == (try instant("2024-03-01T12:00:00-05:00")), "local noon")
        #expect(first.utcOffsetSeconds == -5 * 3600)
        #expect(Set(export.weighIns.map(\.externalID)).count == 4)
        #expect(export.weighIns.allSatisfy { $0.externalID.hasPrefix("mfp:") })
    }

    @Test func readsWeightsInTheUnitAskedFor() async throws {
        let export = try await readMFP(exportZip(), unit: .kilograms)
        #expect(export.weightUnit == .kilograms)
        #expect(export.weighIns.map(\.weight.kilograms) == [158.2, 157.6, 157.9, 156.8])
        let inPounds = try await readMFP(exportZip())
        #expect(export.weighIns[0].externalID != inPounds.weighIns[0].externalID, "another unit is another weight")
        let strength = try #require(export.exercises.first { $0.name == "Squats" })
        #expect(strength.weight == Mass(135, .pounds), "the Exercise-Summary's own header still decides its unit")
    }

    @Test func asksForTheUnitWhenNothingSaysIt() async throws {
        let measurement = try exportFolder().appendingPathComponent("Measurement-Summary-2024-03-01-to-2024-03-07.csv")
        let error = try #require(await readingError(measurement))
        #expect(error.code == .invalidInput)
        #expect(error.field == "unit")
        #expect(error.message.contains("choose the unit, kg or lb"))
        let inKilograms = try await readMFP(measurement, unit: .kilograms)
        #expect(inKilograms.weighIns.count == 4)
        #expect(inKilograms.files.map(\.kind) == [.measurement])
    }

    @Test func readsTheMetricExerciseHeaderAndSkipsRowsWithoutAWeight() async throws {
        let folder = try temporaryFolder([
            "Exercise-Summary-2025.csv": """
            Date,Exercise,Type,Exercise Calories,Exercise Minutes,Sets,Reps Per Set,Kilograms,Steps,Note
            2025-01-02,Deadlift,Strength,,,5,5,100.0,,
            """,
            "Measurement-Summary-2025.csv": """
            Date,Weight,Body Fat %
            2025-01-02,72.4,
            2025-01-03,,18.5
            """,
        ])
        let export = try await readMFP(folder)
        #expect(export.weightUnit == .kilograms)
        #expect(export.weighIns.map(\.weight.kilograms) == [72.4])
        #expect(export.skipped == 1, "a row with only another measurement")
        #expect(export.rowsRead == 3)
        #expect(export.exercises.first?.weight == Mass(kilograms: 100))
    }

    @Test func stripsOneLayerOfQuotesFromExerciseNames() async throws {
        let exercises = try await readMFP(exportZip()).exercises
        #expect(
            exercises.map(\.name) == [
                "MFP iOS calorie adjustment", "Walking, 3.5 mph, brisk pace", "Walking, 3.5 mph, brisk pace",
                "Bench Press, Barbell", "Squats", "MFP iOS calorie adjustment", "Running (jogging), general",
            ])
        #expect(exercises.map(\.kind) == [.cardio, .cardio, .cardio, .strength, .strength, .cardio, .cardio])
        let walk = exercises[1]
        #expect(walk.energyKcal == 178)
        #expect(walk.minutes == 32)
        #expect(walk.sets == nil && walk.repsPerSet == nil && walk.weight == nil && walk.steps == nil && walk.note == nil)
        let bench = exercises[3]
        #expect(bench.sets == 3)
        #expect(bench.repsPerSet == 8)
        #expect(bench.weight == Mass(95, .pounds))
        #expect(bench.energyKcal == nil && bench.minutes == nil)
        #expect(bench.performedAt == (try instant("2024-03-02T12:00:00-05:00")))
        #expect(MyFitnessPalExport.FileKind(fileName: "exercise-summary.CSV") == .exercise)
    }

    @Test func readsCalorieAdjustmentsAsCardioWithSteps() async throws {
        let adjustments = try await readMFP(exportZip()).exercises.filter { $0.name == "MFP iOS calorie adjustment" }
        #expect(adjustments.map(\.steps) == [8412, 11034])
        #expect(adjustments.map(\.energyKcal) == [212, 301])
        #expect(adjustments.map(\.minutes) == [1, 1])
        #expect(adjustments.map(\.localDate) == [LocalDate(iso: "2024-03-01"), LocalDate(iso: "2024-03-02")])
    }

    @Test func keepsADuplicatedRowTwiceWithStableDistinctIDs() async throws {
        let first = try await readMFP(exportZip())
        let second = try await readMFP(exportFolder())
        let walks = first.exercises.filter { $0.name.hasPrefix("Walking") }
        #expect(walks.count == 2)
        let firstIDs = try walks.map { try #require($0.externalID) }
        #expect(firstIDs[0] != firstIDs[1])
        #expect(firstIDs[0].hasSuffix("#0") && firstIDs[1].hasSuffix("#1"))
        #expect(firstIDs[0].dropLast(2) == firstIDs[1].dropLast(2), "the same content, counted")
        #expect(first.exercises.map(\.externalID) == second.exercises.map(\.externalID), "stable across reads")
        #expect(first.entries.map(\.externalID) == second.entries.map(\.externalID))
        #expect(Set(first.exercises.map(\.externalID)).count == 7)
        #expect(Set(first.entries.map(\.externalID)).count == 10)
        #expect(first.entries.allSatisfy { $0.externalID?.hasPrefix("mfp:") == true })
        #expect(first.exercises[0].id != second.exercises[0].id, "ids are fresh")
    }

    /// A long diary comes out in batches of 5,000 rows: memory holds a batch of values, not every one.
    @Test func aLongDiaryIsHandedOnInBatches() async throws {
        let start = LocalDate(iso: "1990-01-01")!
        let rows = (0..<12_000).map { index in
            "\(LocalDate(dayNumber: start.dayNumber + index / 4).iso),\(["Breakfast", "Lunch", "Dinner", "Snacks"][index % 4]),"
                + "500.0,10.0,3.0,1.0,4.0,0.0,200.0,500.0,300.0,40.0,4.0,10.0,20.0,10.0,20.0,10.0,10.0,"
        }
        let export = try await readMFP(temporaryFile(n1Header + "\n" + rows.joined(separator: "\n") + "\n", name: "Nutrition-Summary.csv"))
        #expect(export.rowsRead == 12_000 && export.entries.count == 12_000)
        #expect(export.batches == 3)
        #expect(Set(export.entries.map(\.externalID)).count == 12_000)
    }

    /// The export's Nutrition-Summary opened in Excel (US) and saved again: `3/1/2024`, `312` for `312.0`, CRLF. No date
    /// has a day over 12, so the order is asked; given, the diary is the export's.
    @Test func aDiaryExcelSavedWithAmbiguousDatesAsksTheirOrder() async throws {
        let url = try #require(
            Bundle.module.url(
                forResource: "Nutrition-Summary-2024-03-01-to-2024-03-07.excel-us.csv", withExtension: nil,
                subdirectory: "Fixtures/myfitnesspal-excel"))
        let question = await readingError(url)
        #expect(question?.field == "date_order" && question?.message.contains("\"3/1/2024\"") == true)
        let saved = try await readMFP(url, dateOrder: .monthFirst)
        let original = try await readMFP(try mfpFixture(exportName + "/Nutrition-Summary-2024-03-01-to-2024-03-07.csv"))
        #expect(saved.rejectedCount == 0 && saved.entries.count == original.entries.count)
        #expect(saved.entries.map(\.eatenAt) == original.entries.map(\.eatenAt))
        #expect(saved.entries.map(\.nutrients) == original.entries.map(\.nutrients))
        let dayFirst = try await readMFP(url, dateOrder: .dayFirst)
        #expect(dayFirst.entries.first?.localDate.iso == "2024-01-03", "the order asked for is the one read")
    }

    /// A date with a day over 12 settles the order for the whole file (and every file of the export); dates that read
    /// both ways name where.
    @Test func oneDateOverTwelveSettlesTheOrder() async throws {
        let dayFirst = """
            \(n1Header)
            01/02/2024,Breakfast,350,10,3,1,4,0,200,500,300,40,4,10,20,10,20,10,10,
            13/02/2024,Dinner,700,30,10,5,10,0,100,900,800,60,8,6,45,30,50,20,25,

            """
        let export = try await readMFP(temporaryFile(dayFirst, name: "Nutrition-Summary.csv"))
        #expect(export.entries.map(\.localDate.iso) == ["2024-02-01", "2024-02-13"])
        let monthFirst = dayFirst.replacingOccurrences(of: "13/02/2024", with: "02/13/2024")
        #expect(
            try await readMFP(temporaryFile(monthFirst, name: "Nutrition-Summary.csv")).entries.map(\.localDate.iso)
                == ["2024-01-02", "2024-02-13"])
        let both = dayFirst + "02/13/2024,Lunch,500,10,3,1,4,0,200,500,300,40,4,10,20,10,20,10,10,\n"
        let error = await readingError(try temporaryFile(both, name: "Nutrition-Summary.csv"))
        #expect(error?.field == "Date" && error?.message.contains("line 4") == true && error?.message.contains("line 3") == true)
    }

    @Test(arguments: [
        ("1/13/2023 0:00", 1, 13, 2023, false), ("13.01.23", 13, 1, 2023, false), ("2023/01/13", 1, 13, 2023, true),
        ("31-12-1999", 31, 12, 1999, false), ("5/6/85", 5, 6, 1985, false),
    ])
    func spreadsheetDatesAreRead(_ text: String, _ first: Int, _ second: Int, _ year: Int, _ yearFirst: Bool) throws {
        let parts = try #require(MyFitnessPalField.spreadsheetDate(text))
        #expect(parts.first == first && parts.second == second && parts.year == year && parts.yearFirst == yearFirst)
    }

    @Test(arguments: ["2023-13", "1/2", "1/2/3/4", "a/b/2023", "123/1/2023", "1/1/202"])
    func textThatIsNoSpreadsheetDateIsNot(_ text: String) {
        #expect(MyFitnessPalField.spreadsheetDate(text) == nil)
    }

    /// A row's id hashes its date as MyFitnessPal writes it: a file saved again with only its dates rewritten gives each
    /// row the id it had, so importing both adds the diary once.
    @Test func aRowKeepsItsIdWhenOnlyItsDateWasRewritten() async throws {
        let original =
            "\(n1Header)\n2018-06-01,Breakfast,350.0,10.0,3.0,1.0,4.0,0.0,200.0,500.0,300.0,40.0,4.0,10.0,20.0,10.0,20.0,10.0,10.0,\n"
        let saved = original.replacingOccurrences(of: "2018-06-01", with: "6/1/2018")
        let ids = try await readMFP(temporaryFile(original, name: "Nutrition-Summary.csv")).entries.map(\.externalID)
        #expect(
            try await readMFP(temporaryFile(saved, name: "Nutrition-Summary.csv"), dateOrder: .monthFirst).entries.map(\.externalID) == ids)
    }

    @Test func readsShapeN1WithoutTimes() async throws {
        let csv = """
            \(n1Header)
            2018-06-01,Breakfast,350.0,10.0,3.0,1.0,4.0,0.0,200.0,500.0,300.0,40.0,4.0,10.0,20.0,10.0,20.0,10.0,10.0,"oats, berries"
            2018-06-01,Dinner,700.0,30.0,10.0,5.0,10.0,0.0,100.0,900.0,800.0,60.0,8.0,6.0,45.0,30.0,50.0,20.0,25.0,

            """
        let export = try await readMFP(temporaryFile(csv, name: "Nutrition-Summary.csv"))
        #expect(export.entries.count == 2)
        #expect(export.entries.map(\.localTimeOfDay) == ["08:00", "19:00"])
        #expect(export.entries.map(\.note) == ["oats, berries", nil])
        #expect(export.entries[1].nutrients.energy == 700)
        #expect(near(amount(export.entries[1], "iron"), 4.5))
        #expect(amount(export.entries[1], "protein") == 45)
    }

    @Test func readsShapeN3WithTimesAndNoNotes() async throws {
        let csv = """
            \(n3Header)
            2018-06-02,Lunch,12:05 PM,512.0,16.4,4.1,2.6,7.9,0.0,62.0,846.0,704.0,58.2,8.8,6.3,31.5,21.0,25.0,11.0,19.0
            2018-06-02,Snacks,12:15 AM,160.0,14.0,1.0,3.5,9.0,0.0,0.0,0.0,200.0,6.0,3.0,1.0,6.0,0.0,0.0,8.0,6.0
            2018-06-02,Snacks,,100.0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

            """
        let export = try await readMFP(temporaryFile(csv, name: "mfp.csv"))
        #expect(export.files.map(\.kind) == [.nutrition], "a file named otherwise is told by its header")
        #expect(export.entries.map(\.localTimeOfDay) == ["12:05", "00:15", "15:00"])
        #expect(export.entries.allSatisfy { $0.note == nil })
        #expect(near(amount(export.entries[0], "vitamin_c"), 22.5))
    }

    /// A day's meal of 1e19 kcal, 20 kg of fat or a note with a mark that reverses its text is rejected by its line.
    @Test func rejectsAmountsAndNotesBeyondWhatCinnStores() async throws {
        let csv =
            "Date,Meal,Time,Calories,Fat (g),Note\n2024-03-01,Breakfast,,1e19,9.1,\n2024-03-01,Lunch,,500,20000,\n"
            + "2024-03-01,Dinner,,500,10,gniddup \u{202E}\n2024-03-01,Snacks,,50000,10000,fine\n"
        let export = try await readMFP(temporaryFile(csv, name: "Nutrition-Summary-2024.csv"))
        #expect(export.entries.count == 1, "50,000 kcal and 10 kg are the most an entry holds")
        #expect(export.rejected.map(\.line) == [2, 3, 4])
        #expect(export.rejected.map(\.field) == ["Calories", "Fat (g)", "Note"])
    }

    @Test func rejectsBadRowsNamingTheLineAndTheField() async throws {
        let csv = """
            Date,Meal,Time,Calories,Fat (g),Note
            2024-03-01,Breakfast,7:42 AM,312.0,9.1,
            2024-03-01,Lunch,,abc,1.0,
            2024-03-01,Dinner,,500.0,-3.0,
            2024-02-30,Snacks,,100.0,1.0,
            2024-03-02,,,100.0,1.0,
            2024-03-02,Lunch,25:00 PM,100.0,1.0,
            """
        let export = try await readMFP(temporaryFile(csv, name: "Nutrition-Summary-2024.csv"))
        #expect(export.entries.count == 1)
        #expect(export.rowsRead == 6)
        #expect(export.rejectedCount == 5)
        #expect(export.rejected.map(\.line) == [3, 4, 5, 6, 7])
        #expect(export.rejected.map(\.field) == ["Calories", "Fat (g)", "Date", "Meal", "Time"])
        #expect(export.rejected.allSatisfy { $0.reason.hasPrefix("Nutrition-Summary-2024.csv: ") })
        #expect(export.rejected[0].reason == "Nutrition-Summary-2024.csv: Calories \"abc\" is not a number")
        #expect(export.files.first?.rejectedCount == 5)
    }

    @Test func rejectsBadExerciseAndMeasurementRows() async throws {
        let folder = try temporaryFolder([
            "Exercise-Summary.csv": """
            Date,Exercise,Type,Exercise Calories,Exercise Minutes,Sets,Reps Per Set,Pounds,Steps,Note
            2024-03-02,Squats,Strength,,,2.5,5,135.0,,
            2024-03-02,Yoga,Stretching,100,30,,,,,
            2024-03-02,Walk,Cardio,-5,30,,,,,
            2024-03-02,Walk,Cardio,100,30,,,,,
            """,
            "Measurement-Summary.csv": """
            Date,Weight
            2024-03-01,abc
            2024-03-02,0
            03/04/2024,150.0
            2024-03-04,150.0
            """,
        ])
        let export = try await readMFP(folder)
        #expect(export.exercises.count == 1)
        #expect(export.weighIns.count == 1)
        let rejected = export.rejected.map { "\($0.reason.prefix { $0 != ":" }) \($0.line) \($0.field ?? "")" }
        #expect(
            rejected == [
                "Exercise-Summary.csv 2 Sets", "Exercise-Summary.csv 3 Type", "Exercise-Summary.csv 4 Exercise Calories",
                "Measurement-Summary.csv 2 Weight", "Measurement-Summary.csv 3 Weight", "Measurement-Summary.csv 4 Date",
            ])
    }

    @Test func namesTheColumnsOfAnUnknownHeader() async throws {
        let named = try temporaryFile("Day,Food,Energy\n2024-03-01,Toast,100\n", name: "Nutrition-Summary.csv")
        let error = try #require(await readingError(named))
        #expect(error.code == .invalidInput)
        #expect(error.field == "file")
        #expect(error.message.contains("\"Day\", \"Food\", \"Energy\""))
        #expect(error.message.contains("Date, Meal and Calories"))
        let unnamed = try temporaryFile("a,b,c\n1,2,3\n", name: "export.csv")
        let unknown = try #require(await readingError(unnamed))
        #expect(unknown.message.contains("\"a\", \"b\", \"c\""))
        #expect(unknown.message.contains("Nutrition-Summary") && unknown.message.contains("Exercise-Summary"))
    }

    @Test func namesWhatAZipOrFolderHoldsInsteadOfAnExport() async throws {
        let error = try #require(await readingError(mfpFixture("not-an-export.zip")))
        #expect(error.field == "file")
        #expect(error.message.contains("readme.txt"))
        #expect(error.message.contains("photos/walk.jpg"))
        #expect(error.message.contains("Nutrition-Summary"))
        let folder = try temporaryFolder(["notes.txt": "hello"])
        let folderError = try #require(await readingError(folder))
        #expect(folderError.message.contains("notes.txt"))
    }

    @Test func aZIP64ExportReadsAsTheZipDoes() async throws {
        let plain = try await readMFP(try exportZip(), unit: .kilograms),
            wide = try await readMFP(try mfpFixture("zip64.zip"), unit: .kilograms)
        #expect(!plain.entries.isEmpty)
        #expect(withoutIDs(wide.entries) == withoutIDs(plain.entries))
        #expect(wide.rowsRead == plain.rowsRead)
    }

    @Test(.timeLimit(.minutes(1)))
    func aDeflateStreamThatNeverEndsIsADamagedZip() async throws {
        // Found by fuzzing: ZIPFoundation's extract read on past the entry and spun at the end of the file.
        let error = try #require(await readingError(mfpFixture("never-ending-deflate.zip")))
        #expect(error.field == "file")
        #expect(error.message.contains("the zip is damaged"), "\(error.message)")
    }

    @Test func aZIP64LocatorPointingPastTheFileIsADamagedZip() async throws {
        // Found by fuzzing: the offset (near 2^64) trapped when the file was seeked to it.
        let error = try #require(await readingError(mfpFixture("zip64-locator-past-the-end.zip")))
        #expect(error.field == "file")
        #expect(error.message.contains("is not a ZIP archive that can be read"), "\(error.message)")
    }

    @Test func refusesAZipEntryOverTheSizeLimit() async throws {
        // The fixture's entry claims 64 MiB and one byte.
        let error = try #require(await readingError(mfpFixture("oversized.zip")))
        #expect(error.field == "file")
        #expect(error.message.contains("Nutrition-Summary-2024-01-01-to-2024-01-02.csv is larger than 64 MB"))
    }

    @Test func refusesTextThatIsNotUTF8() async throws {
        var bytes = Array("Date,Meal,Time,Calories,Note\n2024-03-01,Lunch,,100,Caf".utf8)
        bytes += [0xE9, 0x0A]
        let error = try #require(await readingError(temporaryFile(bytes, name: "Nutrition-Summary.csv")))
        #expect(error.field == "file")
        #expect(error.message.contains("not UTF-8"))
        #expect(error.message.contains("line 2"))
        let utf8 = try await readMFP(
            temporaryFile("Date,Meal,Time,Calories,Note\n2024-03-01,Lunch,,100,Café\n", name: "Nutrition-Summary.csv"))
        #expect(utf8.entries.first?.note == "Café")
    }
}
