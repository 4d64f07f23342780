import Foundation
import Testing

@testable import CinnCore

@Suite struct ExerciseReportTests {
    let day1 = LocalDate(iso: "2024-03-01")!
    let day2 = LocalDate(iso: "2024-03-08")!
    let day3 = LocalDate(iso: "2024-03-14")!
    let today = LocalDate(iso: "2024-03-15")!

    var groups: [SetGroup] {
        [
            SetGroup(day: day1, reps: 10, kind: .warmUp, heaviest: Mass(kilograms: 40), sets: 1, volume: Mass(kilograms: 400)),
            SetGroup(day: day1, reps: 5, kind: .normal, heaviest: Mass(kilograms: 100), sets: 3, volume: Mass(kilograms: 1500)),
            SetGroup(day: day2, reps: 3, kind: .normal, heaviest: Mass(kilograms: 110), sets: 2, volume: Mass(kilograms: 660)),
            SetGroup(day: day2, reps: 8, kind: .drop, heaviest: Mass(kilograms: 80), sets: 1, volume: Mass(kilograms: 640)),
            SetGroup(day: day3, reps: 12, kind: .normal, heaviest: Mass(kilograms: 90), sets: 1, volume: Mass(kilograms: 1080)),
            SetGroup(day: day3, reps: 1, kind: .failure, heaviest: Mass(kilograms: 115), sets: 1, volume: Mass(kilograms: 115)),
        ]
    }

    var days: [ExerciseDay] { ExerciseDay.days(from: groups) }

    @Test func brzyckiHistoryBestAndCurrent() throws {
        let report = ExerciseReport.compute(days: days, today: today)
        // docs/FORMATS.md §10.2: Brzycki 100 × 5 = 112.50; 110 × 3 = 110 × 36 / 34; a single is its weight.
        #expect(report.history.map(\.day) == [day1, day2, day3])
        #expect(report.history[0].oneRepMax.estimate.kilograms == 112.5)
        #expect(report.history[1].oneRepMax.estimate.kilograms == 110.0 * 36 / 34)
        #expect(report.history[2].oneRepMax.estimate.kilograms == 115, "the 12-rep set is low-confidence and left out")
        #expect(report.history[0].set == LiftedSet(day: day1, weight: Mass(kilograms: 100), reps: 5))
        let best = try #require(report.best)
        #expect(best.set == LiftedSet(day: day2, weight: Mass(kilograms: 110), reps: 3))
        #expect(best.oneRepMax.formatted(in: .kilograms) == "116 kg", "116.47 truncated")
        #expect(report.current == best)
        #expect(report.totalSets == 9)
        #expect(report.firstDay == day1)
        #expect(report.lastDay == day3)
    }

    @Test func highRepSetsCountWhenAskedFor() {
        let report = ExerciseReport.compute(days: days, today: today, includeHighReps: true)
        #expect(report.best?.oneRepMax.estimate.kilograms == 90.0 * 36 / 25)
        #expect(report.best?.oneRepMax.lowConfidence == true)
    }

    @Test func otherFormulas() {
        let epley = ExerciseReport.compute(days: days, formula: .epley, today: today)
        #expect(abs(epley.history[0].oneRepMax.estimate.kilograms - 116.6667) < 0.0001, "docs/FORMATS.md: Epley 100 × 5 = 116.67")
        let mayhew = ExerciseReport.compute(days: days, formula: .mayhew, today: today)
        #expect(abs(mayhew.history[0].oneRepMax.estimate.kilograms - 119.01) < 0.01, "docs/FORMATS.md: Mayhew 100 × 5 = 119.01")
    }

    @Test func theCurrentEstimateIsTheBestOfTheLast30Days() {
        let later = ExerciseReport.compute(days: days, today: day1.adding(days: 29 + 7))
        #expect(later.current?.day == day2, "day 1 is 36 days back: out of the window")
        let muchLater = ExerciseReport.compute(days: days, today: day3.adding(days: 30))
        #expect(muchLater.current == nil)
        #expect(muchLater.best != nil)
    }

    @Test func records() {
        let report = ExerciseReport.compute(days: days, today: today)
        #expect(report.heaviest == LiftedSet(day: day3, weight: Mass(kilograms: 115), reps: 1, kind: .failure))
        #expect(report.bestSetVolume == LiftedSet(day: day3, weight: Mass(kilograms: 90), reps: 12))
        #expect(report.repMaxes.map(\.reps) == Array(1...10))
        #expect(
            report.repMaxes.map(\.set.weight.kilograms) == [115, 110, 110, 100, 100, 90, 90, 90, 90, 90],
            "the heaviest weight for at least that many reps; warm-ups and drop sets never count")
    }

    @Test func weeklyVolumeLeavesWarmUpsOut() {
        let report = ExerciseReport.compute(days: days, today: today, weeks: 4)
        #expect(report.weeklyVolume.map(\.weekStart.iso) == ["2024-02-19", "2024-02-26", "2024-03-04", "2024-03-11"])
        #expect(report.weeklyVolume.map(\.volume.kilograms) == [0, 1500, 1300, 1195])
        #expect(report.weeklyVolume.map(\.sets) == [0, 3, 3, 2])
    }

    @Test func weeklyVolumeEndsAtTheLastWeekWithSets() {
        let report = ExerciseReport.compute(days: days, today: LocalDate(iso: "2025-01-01")!, weeks: 2)
        #expect(report.weeklyVolume.map(\.weekStart.iso) == ["2024-03-04", "2024-03-11"], "an old history shows its own last weeks")
    }

    @Test func anEmptyHistory() {
        let report = ExerciseReport.compute(days: [], today: today)
        #expect(report.best == nil && report.current == nil && report.heaviest == nil)
        #expect(report.repMaxes.isEmpty)
        #expect(report.weeklyVolume.count == 12)
    }

    @Test func stonesBecomeKilogramsForLifts() {
        #expect(MassUnit.stones.liftingUnit == .kilograms)
        #expect(MassUnit.pounds.liftingUnit == .pounds)
    }
}

@Suite struct ExerciseDayTests {
    let day = LocalDate(iso: "2024-03-01")!

    func set(_ reps: Int?, _ kilograms: Double?, _ kind: SetKind = .normal) -> WorkoutSet {
        WorkoutSet(exercise: "Squat", reps: reps, weight: kilograms.map(Mass.init(kilograms:)), kind: kind)
    }

    @Test func keepsOnlyTheLiftsNothingBeats() {
        var day = ExerciseDay(day: day)
        for set in [
            set(5, 100), set(5, 100), set(3, 100), set(8, 90), set(6, 90), set(1, 120), set(10, 60, .warmUp),
            set(12, 80), set(12, 85), set(40, 20), set(8, 95, .drop), set(nil, 50), set(5, nil),
        ] {
            day.add(set)
        }
        #expect(
            day.lifts.map { "\($0.reps)×\($0.weight.kilograms)" } == ["5×100.0", "8×90.0", "1×120.0", "12×85.0", "40×20.0"],
            "3×100 and 6×90 are beaten; 12 reps and 40 reps are other estimate ranges, so 8×90 stays")
        #expect(day.sets == 13)
        #expect(day.workSets == 12, "the warm-up is left out")
        #expect(day.volume.kilograms == 500 + 500 + 300 + 720 + 540 + 120 + 960 + 1020 + 800 + 760)
    }

    @Test func aTieKeepsTheFirstLift() {
        var day = ExerciseDay(day: day)
        day.add(set(5, 100, .failure))
        day.add(set(5, 100))
        #expect(day.lifts.map(\.kind) == [.failure])
    }

    @Test func mergingIsAddingTheOtherDaysSets() {
        let sets = [set(5, 100), set(3, 110), set(8, 80, .drop), set(10, 40, .warmUp), set(2, 110), set(12, 70)]
        var whole = ExerciseDay(day: day)
        sets.forEach { whole.add($0) }
        var first = ExerciseDay(day: day), second = ExerciseDay(day: day)
        sets.prefix(3).forEach { first.add($0) }
        sets.dropFirst(3).forEach { second.add($0) }
        first.merge(second)
        #expect(first.sets == whole.sets && first.workSets == whole.workSets && first.volume == whole.volume)
        #expect(Set(first.lifts) == Set(whole.lifts))
    }

    /// The report from unbeaten lifts is the report from every set, for every formula, with and without high reps.
    @Test func theReportIsTheSameAsFromEverySet() {
        var random = SplitMix64(seed: 7)
        let kinds: [SetKind] = [.normal, .normal, .normal, .warmUp, .drop, .failure]
        var groups: [SetGroup] = []
        var days: [LocalDate: ExerciseDay] = [:]
        for _ in 0..<3000 {
            let date = day.adding(days: Int.random(in: 0..<120, using: &random))
            let reps = Int.random(in: 1...40, using: &random)
            let weight = Mass(kilograms: Double(Int.random(in: 8...80, using: &random)) * 2.5)
            let kind = kinds[Int.random(in: 0..<kinds.count, using: &random)]
            groups.append(
                SetGroup(
                    day: date, reps: reps, kind: kind, heaviest: weight, sets: 1,
                    volume: Mass(kilograms: weight.kilograms * Double(reps))))
            days[date, default: ExerciseDay(day: date)].add(WorkoutSet(exercise: "Squat", reps: reps, weight: weight, kind: kind))
        }
        let today = day.adding(days: 100)
        for formula in OneRepMaxFormula.allCases {
            for highReps in [false, true] {
                let reduced = ExerciseReport.compute(days: Array(days.values), formula: formula, today: today, includeHighReps: highReps)
                let everySet = ExerciseReport.compute(
                    days: groups.map { group in
                        var single = ExerciseDay(day: group.day)
                        single.add(group)
                        return single
                    }, formula: formula, today: today, includeHighReps: highReps)
                #expect(reduced.history.map(\.oneRepMax) == everySet.history.map(\.oneRepMax), "\(formula) \(highReps)")
                #expect(reduced.best?.oneRepMax == everySet.best?.oneRepMax && reduced.current?.oneRepMax == everySet.current?.oneRepMax)
                #expect(reduced.repMaxes.map(\.set.weight) == everySet.repMaxes.map(\.set.weight))
                #expect(reduced.heaviest?.weight == everySet.heaviest?.weight && reduced.heaviest?.reps == everySet.heaviest?.reps)
                #expect(
                    reduced.bestSetVolume.map { $0.weight.kilograms * Double($0.reps) }
                        == everySet.bestSetVolume.map { $0.weight.kilograms * Double($0.reps) })
                #expect(reduced.totalSets == everySet.totalSets && reduced.weeklyVolume == everySet.weeklyVolume)
            }
        }
        #expect(days.values.map(\.lifts.count).reduce(0, +) < groups.count / 4, "most sets are beaten on their day")
    }
}

@Suite("Exercise clusters")
struct ExerciseClusterTests {
    static func exercise(_ row: Int64, _ name: String, aliasOf: Int64? = nil, last: String?) -> StoredExercise {
        StoredExercise(rowID: row, id: UUID(), name: name, aliasOf: aliasOf, lastDay: last.flatMap(LocalDate.init(iso:)))
    }

    /// Aliases fold into the exercise they name; the most recently done (under any of its names) comes first.
    @Test func aliasesFoldAndTheLatestComesFirst() throws {
        let clusters = ExerciseCluster.clusters([
            Self.exercise(1, "Barbell Bench Press", last: "2024-03-01"),
            Self.exercise(2, "Bench Press (Barbell)", aliasOf: 1, last: "2024-03-14"),
            Self.exercise(3, "Back Squat", last: "2024-03-10"),
            Self.exercise(4, "Plank", last: nil),
        ])
        #expect(clusters.map(\.root.name) == ["Barbell Bench Press", "Back Squat", "Plank"])
        #expect(clusters[0].rows == [1, 2] && clusters[0].lastDay?.iso == "2024-03-14")
        #expect(try ExerciseCluster.named("bench press (barbell)", among: clusters).root.rowID == 1, "any name, as the key compares")
        #expect(try ExerciseCluster.named(clusters[1].root.id.uuidString, among: clusters).root.name == "Back Squat")
        #expect(throws: CinnError.notFound("no exercise named \"Bench\"; did you mean \"Barbell Bench Press\"?")) {
            try ExerciseCluster.named("Bench", among: clusters)
        }
    }
}
