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

    @Test func brzyckiHistoryBestAndCurrent() throws {
        let report = ExerciseReport.compute(groups: groups, today: today)
        // FORMATS.md §10.2: Brzycki 100 × 5 = 112.50; 110 × 3 = 110 × 36 / 34; a single is its weight.
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
        let report = ExerciseReport.compute(groups: groups, today: today, includeHighReps: true)
        #expect(report.best?.oneRepMax.estimate.kilograms == 90.0 * 36 / 25)
        #expect(report.best?.oneRepMax.lowConfidence == true)
    }

    @Test func otherFormulas() {
        let epley = ExerciseReport.compute(groups: groups, formula: .epley, today: today)
        #expect(abs(epley.history[0].oneRepMax.estimate.kilograms - 116.6667) < 0.0001, "FORMATS.md: Epley 100 × 5 = 116.67")
        let mayhew = ExerciseReport.compute(groups: groups, formula: .mayhew, today: today)
        #expect(abs(mayhew.history[0].oneRepMax.estimate.kilograms - 119.01) < 0.01, "FORMATS.md: Mayhew 100 × 5 = 119.01")
    }

    @Test func theCurrentEstimateIsTheBestOfTheLast30Days() {
        let later = ExerciseReport.compute(groups: groups, today: day1.adding(days: 29 + 7))
        #expect(later.current?.day == day2, "day 1 is 36 days back: out of the window")
        let muchLater = ExerciseReport.compute(groups: groups, today: day3.adding(days: 30))
        #expect(muchLater.current == nil)
        #expect(muchLater.best != nil)
    }

    @Test func records() {
        let report = ExerciseReport.compute(groups: groups, today: today)
        #expect(report.heaviest == LiftedSet(day: day3, weight: Mass(kilograms: 115), reps: 1, kind: .failure))
        #expect(report.bestSetVolume == LiftedSet(day: day3, weight: Mass(kilograms: 90), reps: 12))
        #expect(report.repMaxes.map(\.reps) == Array(1...10))
        #expect(report.repMaxes.map(\.set.weight.kilograms) == [115, 110, 110, 100, 100, 90, 90, 90, 90, 90],
                "the heaviest weight for at least that many reps; warm-ups and drop sets never count")
    }

    @Test func weeklyVolumeLeavesWarmUpsOut() {
        let report = ExerciseReport.compute(groups: groups, today: today, weeks: 4)
        #expect(report.weeklyVolume.map(\.weekStart.iso) == ["2024-02-19", "2024-02-26", "2024-03-04", "2024-03-11"])
        #expect(report.weeklyVolume.map(\.volume.kilograms) == [0, 1500, 1300, 1195])
        #expect(report.weeklyVolume.map(\.sets) == [0, 3, 3, 2])
    }

    @Test func weeklyVolumeEndsAtTheLastWeekWithSets() {
        let report = ExerciseReport.compute(groups: groups, today: LocalDate(iso: "2025-01-01")!, weeks: 2)
        #expect(report.weeklyVolume.map(\.weekStart.iso) == ["2024-03-04", "2024-03-11"], "an old history shows its own last weeks")
    }

    @Test func anEmptyHistory() {
        let report = ExerciseReport.compute(groups: [], today: today)
        #expect(report.best == nil && report.current == nil && report.heaviest == nil)
        #expect(report.repMaxes.isEmpty)
        #expect(report.weeklyVolume.count == 12)
    }

    @Test func stonesBecomeKilogramsForLifts() {
        #expect(MassUnit.stones.liftingUnit == .kilograms)
        #expect(MassUnit.pounds.liftingUnit == .pounds)
    }
}
