import Foundation
import Testing

@testable import CinnCore

@Suite struct WorkoutLoggingTests {
    @Test func setKindsReadTheAPIsAndSyncsSpellings() throws {
        #expect(try SetKind.parse("working", field: "kind") == .normal)
        #expect(try SetKind.parse("normal", field: "kind") == .normal)
        #expect(try SetKind.parse("warmup", field: "kind") == .warmUp)
        #expect(try SetKind.parse("warm_up", field: "kind") == .warmUp)
        #expect(try SetKind.parse("Warm-up", field: "kind") == .warmUp)
        #expect(try SetKind.parse("drop", field: "kind") == .drop)
        #expect(try SetKind.parse("failure", field: "kind") == .failure)
        #expect(SetKind.allCases.map(\.apiName) == ["working", "warmup", "drop", "failure"])
        #expect(throws: CinnError.invalid("sets[1].kind", "sets[1].kind must be working, warmup, drop or failure, not \"amrap\"")) {
            try SetKind.parse("amrap", field: "sets[1].kind")
        }
    }

    @Test func aLoggedSetIsCheckedNamingItsField() throws {
        func field(_ set: WorkoutSet) -> String? {
            do {
                _ = try LoggedSet.validated(set, at: "sets[2]")
                return nil
            } catch let error as CinnError {
                return error.field
            } catch {
                return "\(error)"
            }
        }
        let bench = WorkoutSet(exercise: "Bench Press", reps: 5, weight: Mass(kilograms: 100))
        #expect(field(bench) == nil)
        var set = bench
        set.reps = 0
        #expect(field(set) == "sets[2].reps")
        set.reps = 101
        #expect(field(set) == "sets[2].reps")
        set.reps = nil
        #expect(field(set) == "sets[2].reps", "a set needs reps, a time or a distance")
        set = bench
        set.weight = Mass(kilograms: -1)
        #expect(field(set) == "sets[2].weight")
        set = bench
        set.rpe = 11
        #expect(field(set) == "sets[2].rpe")
        set = bench
        set.rir = -1
        #expect(field(set) == "sets[2].rir")
        set = bench
        set.exercise = "  "
        #expect(field(set) == "sets[2].exercise")
        set.exercise = "!!!"
        #expect(field(set) == "sets[2].exercise", "a name without a letter or digit matches no exercise")
        set = bench
        set.weight = Mass(kilograms: 0)
        #expect(try LoggedSet.validated(set, at: "set").weight == nil, "0 is a body-weight set")
        #expect(field(WorkoutSet(exercise: "Plank", durationSeconds: 60)) == nil)
    }

    @Test func theCLIsSetsReadWeightByReps() throws {
        let set = try LoggedSet.parse("100x5", exercise: "Bench Press", unit: .kilograms)
        #expect(set.weight?.kilograms == 100)
        #expect(set.reps == 5)
        #expect(set.kind == .normal)
        let warmUp = try LoggedSet.parse("w:60x5", exercise: "Bench Press", unit: .kilograms)
        #expect(warmUp.kind == .warmUp)
        #expect(warmUp.weight?.kilograms == 60)
        let pounds = try LoggedSet.parse("225X3", exercise: "Squat", unit: .pounds)
        #expect(pounds.weight?.kilograms == 225 * 0.45359237)
        #expect(try LoggedSet.parse("f:x12", exercise: "Pull Up", unit: .kilograms).weight == nil)
        #expect(try LoggedSet.parse("d:72.5x8", exercise: "Squat", unit: .kilograms).kind == .drop)
        #expect(try LoggedSet.parse("100x5@8.5", exercise: "Squat", unit: .kilograms).rpe == 8.5)
        #expect(throws: CinnError.self) { try LoggedSet.parse("100x5@11", exercise: "Squat", unit: .kilograms) }
        #expect(throws: CinnError.self) { try LoggedSet.parse("100", exercise: "Squat", unit: .kilograms) }
        #expect(throws: CinnError.self) { try LoggedSet.parse("ax5", exercise: "Squat", unit: .kilograms) }
        #expect(throws: CinnError.self) { try LoggedSet.parse("100x0", exercise: "Squat", unit: .kilograms) }
    }

    @Test func aPlanRoundTripsThroughItsStorageText() throws {
        let plan = [
            PlannedExercise(exercise: "Barbell Bench Press \"paused\"", sets: 3, reps: 5, weight: Mass(kilograms: 102.5), restSeconds: 180),
            PlannedExercise(exercise: "Plank", sets: 2, note: "60 s"),
        ]
        #expect(WorkoutPlan.plan(storageText: WorkoutPlan.storageText(plan)) == plan)
        #expect(WorkoutPlan.plan(storageText: "[]") == [])
        #expect(WorkoutPlan.plan(storageText: "[{\"sets\":3}]") == nil)
        #expect(WorkoutPlan.plan(storageText: "not json") == nil)
    }

    @Test func aRoutineNamesTheExerciseAtFault() throws {
        let routine = Routine(
            name: " Push ",
            exercises: [
                PlannedExercise(exercise: "Bench", sets: 3, reps: 5),
                PlannedExercise(exercise: "Dips", sets: 0),
            ])
        #expect(throws: CinnError.invalid("exercises[1].sets", "exercises[1].sets must be between 1 and 50")) { try routine.validated() }
        var fixed = routine
        fixed.exercises[1].sets = 3
        #expect(try fixed.validated().name == "Push")
        #expect(throws: CinnError.self) { try Routine(name: "Empty", exercises: []).validated() }
    }

    /// The days before: bench 100 kg × 5 (Brzycki 112.5) a week earlier.
    static func report(_ sets: [WorkoutSet]) -> ExerciseReport {
        var day = ExerciseDay(day: LocalDate(iso: "2024-03-07")!)
        for set in sets { day.add(set) }
        return ExerciseReport.compute(days: sets.isEmpty ? [] : [day], today: LocalDate(iso: "2024-03-13")!)
    }

    @Test func aWorkoutsRecordsAreTheSetsThatBeatEverythingBefore() {
        let kg = Mass.init(kilograms:)
        let sets = [
            WorkoutSet(exercise: "Bench", reps: 5, weight: kg(60), kind: .warmUp),
            WorkoutSet(exercise: "Bench", reps: 5, weight: kg(100)),
            WorkoutSet(exercise: "Bench", reps: 5, weight: kg(102.5)),
            WorkoutSet(exercise: "Bench", reps: 8, weight: kg(90)),
            WorkoutSet(exercise: "Bench", reps: 8, weight: kg(120), kind: .drop),
            WorkoutSet(exercise: "Row", reps: 8, weight: kg(80)),
        ]
        let before = ["bench": Self.report([WorkoutSet(exercise: "Bench", reps: 5, weight: kg(100))]), "row": Self.report([])]
        let records = WorkoutRecords.find(sets: sets, exercise: { $0.exercise.lowercased() }, before: before, formula: .brzycki)
        #expect(records[0] == nil, "a warm-up sets none")
        #expect(records[1] == nil, "equalling the best is not a record")
        #expect(records[2] == [.estimatedOneRepMax, .repMax(5), .heaviest], "102.5 × 5: 115.3 by Brzycki")
        #expect(records[3] == [.repMax(8), .setVolume], "720 kg beats 512.5; no 8 reps before")
        #expect(records[4] == nil, "a drop set sets none")
        #expect(records[5] == nil, "the first time an exercise is done sets none")
    }

    @Test func ofTwoSetsBeatingOneRecordOnlyTheBestIsNamed() {
        let kg = Mass.init(kilograms:)
        let sets = [WorkoutSet(exercise: "Bench", reps: 5, weight: kg(101)), WorkoutSet(exercise: "Bench", reps: 5, weight: kg(102))]
        let before = ["bench": Self.report([WorkoutSet(exercise: "Bench", reps: 5, weight: kg(100))])]
        let records = WorkoutRecords.find(sets: sets, exercise: { $0.exercise.lowercased() }, before: before, formula: .brzycki)
        #expect(records[0] == nil)
        #expect(records[1] == [.estimatedOneRepMax, .repMax(5), .heaviest, .setVolume])
    }

    @Test func thePlateCalculatorLoadsWithTheFewestPlates() throws {
        let kilograms = PlateSet.standard(.kilograms)
        let hundred = kilograms.load(100)
        #expect(hundred.isExact)
        #expect(hundred.perSide.count == 2)
        #expect(hundred.perSide.reduce(0, +) == 40)
        let odd = kilograms.load(142.5)
        #expect(odd.isExact)
        #expect(odd.perSide.reduce(0, +) == 61.25)
        #expect(odd.perSide.count == 4, "25 + 25 + 10 + 1.25 or 25 + 20 + 15 + 1.25")
        #expect(kilograms.load(15).text == "20 kg bar alone")
        #expect(kilograms.load(20).isExact)
        let short = kilograms.load(101)
        #expect(!short.isExact)
        #expect(short.total == 100, "the nearest below")

        // Greedy would take the 15 and stop at 50 kg; two 10s make 60.
        let few = PlateSet(unit: .kilograms, bar: 20, plates: [.init(weight: 15, count: 2), .init(weight: 10, count: 4)])
        #expect(few.load(60).perSide == [10, 10])
        #expect(few.load(90).total == 90, "15 + 10 + 10 a side")
        #expect(few.load(200).total == 90, "all the plates there are")

        let pounds = PlateSet.standard(.pounds)
        #expect(pounds.load(225).perSide == [45, 45])
        #expect(pounds.load(225).text == "45 lb bar + 45, 45 each side")
    }

    /// Twelve plate weights that share no step bigger than a hundredth, forty of each, and targets far beyond a bar:
    /// the exact search would fill millions of cells a set; past its budget the plates go on heaviest first, never
    /// beyond the target or the plates there are.
    @Test func aTargetBeyondTheSearchBudgetIsLoadedHeaviestFirst() throws {
        let weights = [99.99, 97.03, 91.01, 83.07, 71.11, 61.13, 53.17, 47.19, 41.23, 37.29, 31.31, 29.37]
        let set = PlateSet(unit: .kilograms, bar: 20, plates: weights.map { PlateSet.Plate(weight: $0, count: 40) })
        for target in [1000.0, 999.99, 2000, 12345.67] {
            let load = set.load(target)
            #expect(load.total <= target + 1e-9 && load.total > 0)
            #expect(abs(load.total - (20 + 2 * load.perSide.reduce(0, +))) < 1e-6)
            for weight in weights { #expect(load.perSide.filter { $0 == weight }.count <= 20) }
        }
        #expect(set.load(1000).perSide.first == 99.99)
        // The search from the heaviest plates finds the exact load the greedy one misses (99.99 × 2, 31.31, 29.37 × 8).
        #expect(set.load(952.5).isExact, "\(set.load(952.5).text)")
        #expect(set.load(.infinity).perSide.isEmpty, "no weight to load")
        #expect(set.load(.nan).text == "20 kg bar alone")
        // Within the budget the answer is still the fewest plates (greedy would take the 15 and stop at 50 kg).
        let few = PlateSet(unit: .kilograms, bar: 20, plates: [.init(weight: 15, count: 2), .init(weight: 10, count: 4)])
        #expect(few.load(60).perSide == [10, 10])
    }

    @Test func platesAreReadAsWeightByCount() throws {
        #expect(
            try PlateSet.plates("20x4, 10×2 2.5x2 10x2") == [
                .init(weight: 20, count: 4), .init(weight: 10, count: 4), .init(weight: 2.5, count: 2),
            ])
        let set = PlateSet(unit: .kilograms, bar: 15, plates: try PlateSet.plates("1.25x2 25x6"))
        #expect(set.storageText == "25x6 1.25x2")
        #expect(try PlateSet.plates(set.storageText) == set.plates)
        #expect(throws: CinnError.self) { try PlateSet.plates("20") }
        #expect(throws: CinnError.self) { try PlateSet.plates("-5x2") }
        #expect(throws: CinnError.self) { try PlateSet.plates("20x99") }
    }

    @Test func aLoggedExerciseJoinsTheHistoryItBelongsTo() {
        let strong = StoredExercise(rowID: 1, id: UUID(), name: "Bench Press (Barbell)", aliasOf: nil, lastDay: nil)
        let clusters = [ExerciseCluster(root: strong, aliases: [])]
        let catalogue = ExerciseCatalogue.builtIn
        #expect(catalogue.storedName(for: "Bench Press", among: clusters) == "Bench Press (Barbell)", "through the catalogue's aliases")
        #expect(catalogue.storedName(for: "barbell bench press", among: clusters) == "barbell bench press", "the same key: the same row")
        #expect(catalogue.storedName(for: "Bench Press", among: []) == "Barbell Bench Press")
        #expect(catalogue.storedName(for: "Zercher Carry Walk", among: clusters) == "Zercher Carry Walk")
        let suggestions = catalogue.suggestions(adding: ["Bench Press (Barbell)", "Zercher Carry Walk", "zercher carry walk"])
        #expect(suggestions.count == catalogue.exercises.count + 1, "the catalogue's names and the journal's own, once each")
        #expect(suggestions.contains("Zercher Carry Walk") && !suggestions.contains("Bench Press (Barbell)"))
        #expect(suggestions == suggestions.sorted())
    }
}
