import Foundation
import PropertyBased
import Testing

@testable import CinnCore

@Suite struct WorkoutTests {
    /// An ASCII name's key, made a byte at a time, is the key Foundation's folding makes, for any ASCII text.
    @Test func anASCIINamesKeyIsTheFoldedKey() async {
        let text = Gen<Character>.ascii.string(of: 0...40)
        await propertyCheck(count: 1000, input: text) { name in
            #expect(ExerciseKey.asciiNormalised(name) == ExerciseKey.normalisedByFolding(name), "\(name.debugDescription)")
        }
        #expect(ExerciseKey.asciiNormalised("Développé") == nil)
    }

    @Test func exerciseNamesMatchWhateverTheirOrderCaseAndPunctuation() {
        #expect(ExerciseKey.normalised("Barbell Bench Press") == ExerciseKey.normalised("Bench Press (Barbell)"))
        #expect(ExerciseKey.normalised("Bench Press (Barbell)") == "barbell bench press")
        #expect(ExerciseKey.normalised("Squat – Back, Low-Bar") == ExerciseKey.normalised("low bar back squat"))
        #expect(ExerciseKey.normalised("Développé couché") == "couche developpe")
        #expect(ExerciseKey.normalised("Deadlift") != ExerciseKey.normalised("Romanian Deadlift"))
    }

    @Test func warmUpAndDropSetsHaveNoOneRepMaxOrVolumeCountsOnlyWork() throws {
        let work = WorkoutSet(exercise: "Squat", reps: 5, weight: Mass(kilograms: 100))
        #expect(work.oneRepMax()?.estimate.kilograms == 112.5)
        #expect(work.volume?.kilograms == 500)
        #expect(WorkoutSet(exercise: "Squat", reps: 5, weight: Mass(kilograms: 60), kind: .warmUp).oneRepMax() == nil)
        #expect(WorkoutSet(exercise: "Squat", reps: 5, weight: Mass(kilograms: 60), kind: .warmUp).volume == nil)
        #expect(WorkoutSet(exercise: "Squat", reps: 8, weight: Mass(kilograms: 80), kind: .drop).oneRepMax() == nil)
        #expect(WorkoutSet(exercise: "Squat", reps: 3, weight: Mass(kilograms: 120), kind: .failure).oneRepMax() != nil)
        #expect(WorkoutSet(exercise: "Plank", durationSeconds: 60).oneRepMax() == nil)
    }
}
