import CinnCore
import Foundation
import Testing

@testable import CinnImport

/// Everything one read of a workout file produced.
struct WorkoutReadResult {
    var sets: [ImportedSet]
    var summary: WorkoutFileSummary
    var lastProgress: ImportProgress?

    var workouts: [ImportedWorkout] { sets.compactMap(\.newWorkout) }
    func sets(of exercise: String) -> [WorkoutSet] { sets.map(\.set).filter { $0.exercise == exercise } }
}

func readWorkouts(_ url: URL, format: WorkoutFileFormat? = nil, unit: MassUnit? = nil, batchSize: Int = 5000) async throws
    -> WorkoutReadResult
{
    let reader = try WorkoutFileReader(url: url, format: format, options: WorkoutImportOptions(unit: unit, timeZone: berlin))
    var sets: [ImportedSet] = []
    let log = ProgressLog()
    let summary = try await reader.read(batchSize: batchSize, progress: { log.record($0) }) { sets += $0 }
    return WorkoutReadResult(sets: sets, summary: summary, lastProgress: log.last)
}

func readWorkouts(_ text: String, unit: MassUnit? = nil) async throws -> WorkoutReadResult {
    try await readWorkouts(temporaryFile(text, name: "workouts.csv"), unit: unit)
}

/// The error a reader's init throws.
func workoutFileError(_ text: String, unit: MassUnit? = nil) throws -> CinnError? {
    do {
        _ = try WorkoutFileReader(
            url: temporaryFile(text, name: "workouts.csv"), options: WorkoutImportOptions(unit: unit, timeZone: berlin))
        return nil
    } catch let error as CinnError {
        return error
    }
}

@Suite struct FitbodImportTests {
    let header = "Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),Incline,Resistance,isWarmup,Note,multiplier\n"

    @Test func readsTheFixtureKeepingIdenticalSets() async throws {
        let result = try await readWorkouts(fixture("WorkoutExport.csv"), batchSize: 7)
        #expect(result.summary.format == .fitbod)
        #expect(result.summary.rowsRead == 25)
        #expect(result.sets.count == 25, "identical consecutive rows are separate sets, the duplicated final row too")
        #expect(result.summary.rejectedCount == 0)
        #expect(result.workouts.count == 3)
        let first = try #require(result.workouts.first)
        #expect(first.externalID == "fitbod:1710367541")
        #expect(first.startedAt == Date(timeIntervalSince1970: 1_710_367_541))
        #expect(first.utcOffsetSeconds == 3600, "Fitbod writes UTC (+0000): the local day is the user's")
        #expect(result.sets.map(\.workout) == Array(repeating: 0, count: 11) + [1] + Array(repeating: 2, count: 13))
        #expect(result.sets.prefix(11).map(\.position) == Array(0..<11))
        #expect(result.sets.filter { $0.newWorkout != nil }.map(\.line) == [2, 13, 14])

        let bench = result.sets(of: "Barbell Bench Press")
        #expect(bench.map(\.kind) == [.warmUp, .normal, .normal, .normal])
        #expect(bench.map(\.reps) == [10, 8, 8, 7])
        #expect(bench[1].weight?.kilograms == 43.09127515, "the file's kilograms are kept as written")
        #expect(bench[1].weight.flatMap { OneRepMax.estimate(weight: $0, reps: 1)?.formatted(in: .pounds) } == "95 lb")
        #expect(bench[3].note == "Last rep slow, spotter helped")
        let plank = result.sets(of: "Plank")
        #expect(plank.map(\.durationSeconds) == [45, 40])
        #expect(plank.allSatisfy { $0.reps == nil && $0.weight == nil }, "Fitbod's zeros mean none")
        let run = try #require(result.sets(of: "Running").first)
        #expect(run.distanceMetres == 4023.36)
        #expect(run.durationSeconds == 1512)
        #expect(result.sets(of: "Stationary Bike").count == 2)
        // Two dumbbells of 13.6 kg for 10 reps: Fitbod's volume is 272 kg, and so is Cinn's.
        let row = result.sets(of: "Dumbbell Row")
        #expect(row.allSatisfy { $0.loadMultiplier == 2 } && bench.allSatisfy { $0.loadMultiplier == nil } && run.loadMultiplier == nil)
        #expect(row[0].volume.map { ($0.kilograms * 10).rounded() / 10 } == 272.2)
        #expect(result.lastProgress?.fraction == 1)
        #expect(result.lastProgress?.rowsRead == 25)
    }

    @Test func readsOlderExportsWithoutMultiplierAndTrailingCommas() async throws {
        let old = try await readWorkouts(
            """
            Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),Incline,Resistance,isWarmup,Note
            2017-05-01 18:00:00 +0200,Deadlift,5, 100,0,0,0,0,FALSE,
            """)
        #expect(old.sets.count == 1)
        #expect(old.sets[0].set.weight?.kilograms == 100, "cells are trimmed")
        #expect(old.workouts[0].utcOffsetSeconds == 7200)
        let trailing = try await readWorkouts(header + "2020-01-02 10:00:00 +0000,Squat,5,80,0,0,0,0,TRUE,,1,\n")
        #expect(trailing.sets.map(\.set.kind) == [.warmUp])
    }

    @Test func readsTheSupportExport() async throws {
        let result = try await readWorkouts(
            """
            date,exercise_name,Reps,weight_kg,duration_seconds,distance_meters,isWarmup
            2023-06-01,Leg Press,10,120,,,false
            """)
        #expect(result.summary.format == .fitbod)
        #expect(result.sets[0].set.weight?.kilograms == 120)
        #expect(result.workouts[0].localDate == LocalDate(iso: "2023-06-01"), "a date alone is that day at noon")
    }

    @Test func listsEveryBadRow() async throws {
        let result = try await readWorkouts(
            header + """
                2024-03-13 22:05:41 +0000,Bench,ten,40,0,0,0,0,false,,1
                2024-03-13 22:05:41 +0000,Bench,8,-40,0,0,0,0,false,,1
                2024-03-13 22:05:41 +0000,Bench,8,40,0,0,0,0,maybe,,1
                2024-13-13 22:05:41 +0000,Bench,8,40,0,0,0,0,false,,1
                2024-03-13 22:05:41 +0000,,8,40,0,0,0,0,false,,1
                2024-03-13 22:05:41 +0000,Bench,8,40,0,0,0,0,false,,1
                """)
        #expect(result.sets.count == 1)
        #expect(result.summary.rejectedCount == 5)
        #expect(result.summary.rejected.map(\.line) == [2, 3, 4, 5, 6])
        #expect(result.summary.rejected.map(\.field) == ["Reps", "Weight", "isWarmup", "Date", "Exercise"])
        #expect(result.summary.rejected[0].reason.contains("\"ten\""))
        #expect(result.summary.rejected[1].reason.contains("negative"))
    }

    /// A set no one lifts, runs or holds (1e300 kg, a distance of 1e308 m, a year-long plank) or an exercise name with
    /// a mark that reverses its text is rejected by its line, as every door refuses it.
    @Test func setsBeyondTheValidRangesAreRejectedByTheirLine() async throws {
        let result = try await readWorkouts(
            header + """
                2024-03-13 22:05:41 +0000,Bench,8,1e300,0,0,0,0,false,,1
                2024-03-13 22:05:41 +0000,Row,0,0,0,1e308,0,0,false,,1
                2024-03-13 22:05:41 +0000,Plank,0,0,31536000,0,0,0,false,,1
                2024-03-13 22:05:41 +0000,Bench\u{202E}sserp,8,40,0,0,0,0,false,,1
                2024-03-13 22:05:41 +0000,Bench,8,2000,0,0,0,0,false,,1
                """)
        #expect(result.sets.count == 1, "2,000 kg is the most a set may hold")
        #expect(result.summary.rejected.map(\.line) == [2, 3, 4, 5])
        #expect(result.summary.rejected.map(\.field) == ["weight", "distance", "duration", "exercise"])
    }

    @Test func aMissingColumnNamesItAndTheColumnsFound() throws {
        let error = try #require(try workoutFileError("Date,Exercise,Reps,Duration(s),Distance(m),isWarmup\n"))
        #expect(error.message.contains("Weight(kg)"))
        #expect(error.message.contains("\"Duration(s)\""))
    }
}

@Suite struct StrongImportTests {
    @Test func readsTheSemicolonV6Export() async throws {
        let result = try await readWorkouts(fixture("strong_export_v6_semicolon.csv"))
        #expect(result.summary.format == .strong)
        #expect(result.summary.rowsRead == 14)
        #expect(result.summary.skipped == 1, "the Note pseudo-row")
        #expect(result.sets.count == 13)
        #expect(result.workouts.map(\.name) == ["Upper A", "Lower A"])
        #expect(result.workouts.map(\.durationSeconds) == [3912, 2875])
        #expect(result.workouts[0].note == nil, "the workout note is read from its first row")
        let upper = result.workouts[0]
        #expect(upper.externalID == "strong:2024-03-04 18:02:37|Upper A")
        #expect(upper.utcOffsetSeconds == 3600, "a time without a zone is the user's wall clock")
        let bench = result.sets(of: "Bench Press (Barbell)")
        #expect(bench.map(\.kind) == [.warmUp, .normal, .normal, .normal, .drop])
        #expect(bench.map(\.rpe) == [nil, 7.5, 8, 9, nil])
        #expect(bench[1].weight?.kilograms == 61.23496995)
        let pullUps = result.sets(of: "Pull Up")
        #expect(pullUps.map(\.kind) == [.normal, .normal, .failure])
        #expect(pullUps.map(\.rpe) == [nil, 6.5, 10])
        #expect(pullUps.allSatisfy { $0.weight == nil })
        let squat = result.sets(of: "Squat (Barbell)")
        #expect(squat.first?.note == "Belt from set 2", "a Note row's text goes to the exercise's next set")
        #expect(squat.count == 3)
        #expect(result.sets(of: "Plank").first?.durationSeconds == 60)
        #expect(result.sets(of: "Running (Treadmill)").first?.distanceMetres == 1609.344)
    }

    @Test func readsTheClassicCommaExportInTheUnitGiven() async throws {
        let error = try #require(try workoutFileError(String(contentsOf: fixture("strong_export_classic_comma.csv"), encoding: .utf8)))
        #expect(error.field == "unit")
        let result = try await readWorkouts(fixture("strong_export_classic_comma.csv"), unit: .pounds)
        #expect(result.summary.skipped == 1, "the Rest Timer row")
        #expect(result.sets.count == 11)
        #expect(result.workouts.map(\.durationSeconds) == [3900, 2820])
        #expect(result.workouts[0].note == "Felt good, gym busy")
        let squat = result.sets(of: "Squat (Barbell)")
        #expect(squat.count == 3, "the duplicated row is a set of its own")
        #expect(squat[0].weight?.kilograms == 185 * 0.45359237)
        #expect(squat.map(\.note) == ["Belt from set 2", nil, nil])
        #expect(result.sets(of: "Running (Treadmill)").first?.distanceMetres == 1609.344, "distances in miles for lb users")
        #expect(result.sets(of: "Pull Up").first?.weight == nil)
    }

    @Test func readsTheWeightUnitColumnDialect() async throws {
        let result = try await readWorkouts(
            """
            Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes;Workout Duration
            2022-01-05 07:00:00;Push;Bench Press (Barbell);1;100;kg;5;8,5;;;;;;1h 15m
            2022-01-05 07:00:00;Push;Bench Press (Barbell);2;225;lbs;3;;;;;;;1h 15m
            2022-01-05 07:00:00;Push;Running;1;;;;;2;mi.;900;;;1h 15m
            2022-01-05 07:00:00;Push;Curl;1;20;stone-ish;10;;;;;;;1h 15m
            """)
        #expect(result.sets.count == 3)
        #expect(result.sets[0].set.weight?.kilograms == 100)
        #expect(result.sets[0].set.rpe == 8.5, "a semicolon file may write decimal commas")
        #expect(result.sets[1].set.weight?.kilograms == 225 * 0.45359237)
        #expect(result.sets[2].set.distanceMetres == 2 * 1609.344)
        #expect(result.workouts[0].durationSeconds == 4500)
        #expect(result.summary.rejected.map(\.field) == ["Weight Unit"])
    }

    @Test func refusesUnknownSetOrders() async throws {
        let result = try await readWorkouts(
            """
            Date,Workout Name,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
            2024-03-04 18:02:37,A,Squat,X,100,5,0,0,,,
            """, unit: .kilograms)
        #expect(result.summary.rejected.first?.field == "Set Order")
    }

    @Test(arguments: [("1h 5m", 3900.0), ("47m", 2820), ("38min", 2280), ("264h 1m", 950_460), ("45s", 45)])
    func durations(_ text: String, _ seconds: Double) {
        #expect(StrongParser.duration(text) == seconds)
    }
}

@Suite struct FitNotesImportTests {
    @Test func readsTheFixture() async throws {
        let result = try await readWorkouts(fixture("FitNotes_Export_2024_03_07.csv"))
        #expect(result.summary.format == .fitnotes)
        #expect(result.sets.count == 12)
        #expect(result.summary.rejectedCount == 0)
        #expect(result.workouts.map(\.externalID) == ["fitnotes:2024-03-05", "fitnotes:2024-03-06", "fitnotes:2024-03-07"])
        #expect(result.workouts.map(\.localDate.iso) == ["2024-03-05", "2024-03-06", "2024-03-07"])
        let bench = result.sets(of: "Flat Barbell Bench Press")
        #expect(bench.map(\.weight?.kilograms) == [60, 60, 62.5])
        #expect(bench[2].note == "Paused reps, felt strong")
        #expect(result.sets(of: "Incline Dumbbell Bench Press").first?.weight?.kilograms == 40 * 0.45359237)
        #expect(result.sets(of: "Overhead Press (Each Side, Dumbbells)").first?.reps == 8, "the unquoted comma is repaired")
        #expect(result.sets(of: "Plank").first?.durationSeconds == 75)
        #expect(result.sets(of: "Cycling").first?.distanceMetres == 12_400)
        #expect(result.sets(of: "Cycling").first?.durationSeconds == 2110, "0:35:10")
        #expect(result.sets(of: "Treadmill Run").first?.distanceMetres == 1609)
        #expect(result.sets.filter { $0.set.exercise == "Barbell Squat" }.map(\.position) == [0, 1, 2])
    }

    @Test func readsTheLegacyHeaderUnit() async throws {
        let result = try await readWorkouts(
            """
            Date,Exercise,Category,Weight (lbs),Reps,Distance,Distance Unit,Time
            2016-07-15,Deadlift,Back,135.0,8,,,
            2016-07-15,Deadlift,Back,abc,8,,,
            """)
        #expect(result.sets.first?.set.weight?.kilograms == 135 * 0.45359237)
        #expect(result.summary.rejected.map(\.line) == [3])
    }
}

@Suite struct UnknownLayoutTests {
    @Test func namesTheColumnsFoundAndTheFormatsSupported() throws {
        let url = try temporaryFile("Exercise;Sets;Load\nSquat;3;100\n", name: "mystery.csv")
        do {
            _ = try WeightFileReader(url: url, options: WeightImportOptions(timeZone: berlin))
            Issue.record("a file of no known layout was accepted")
        } catch {
            #expect(error.message.contains("\"Exercise\", \"Sets\", \"Load\""))
            #expect(error.message.contains("Fitbod"))
            #expect(error.message.contains("Strong"))
            #expect(error.message.contains("FitNotes"))
            #expect(error.message.contains("weight files"))
        }
    }
}

@Suite struct ExerciseCatalogueFixtureTests {
    /// Every exercise of the Fitbod, Strong and FitNotes exports in the fixtures is one of the catalogue's.
    @Test(arguments: [
        "WorkoutExport.csv", "strong_export_v6_semicolon.csv", "strong_export_classic_comma.csv",
        "FitNotes_Export_2024_03_07.csv",
    ])
    func everyExerciseOfTheFixtureIsInTheCatalogue(file: String) async throws {
        let result = try await readWorkouts(fixture(file), unit: file.hasPrefix("strong_export_classic") ? .pounds : nil)
        let names = Set(result.sets.map(\.set.exercise))
        #expect(names.count >= 5)
        #expect(names.filter { ExerciseCatalogue.builtIn.exercise(named: $0) == nil }.sorted() == [])
    }
}
