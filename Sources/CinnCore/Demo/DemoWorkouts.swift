import Foundation

/// Sixteen weeks of a beginner's barbell program, so a newcomer sees the Lifts tab filled: three
/// evenings a week, alternating two workouts, weights rising by the usual small steps with a lighter
/// week every fifth, a warm-up before each main lift, and now and then a set that stopped short.
public struct DemoWorkouts: Sendable {
    /// The workouts' sets in order, as an import hands them to the store.
    public let sets: [ImportedSet]

    /// A lift of the program: its first working weight and weekly step, reps and sets.
    private struct Lift {
        let name: String
        let startKg: Double
        let stepKg: Double
        let reps: Int
        let sets: Int
    }

    private static let workouts: [(name: String, lifts: [Lift])] = [
        (
            "Workout A",
            [
                Lift(name: "Back Squat", startKg: 50, stepKg: 2.5, reps: 5, sets: 3),
                Lift(name: "Bench Press", startKg: 35, stepKg: 1.25, reps: 5, sets: 3),
                Lift(name: "Barbell Row", startKg: 35, stepKg: 1.25, reps: 8, sets: 3),
            ]
        ),
        (
            "Workout B",
            [
                Lift(name: "Back Squat", startKg: 50, stepKg: 2.5, reps: 5, sets: 3),
                Lift(name: "Overhead Press", startKg: 22.5, stepKg: 1.25, reps: 5, sets: 3),
                Lift(name: "Deadlift", startKg: 70, stepKg: 5, reps: 5, sets: 1),
            ]
        ),
    ]

    public static let weeks = 16

    /// - Parameters:
    ///   - today: the demo's last workout is on the last Monday, Wednesday or Friday before it.
    ///   - timeZone: where the workouts happen (18:00 local time).
    ///   - seed: the same seed gives the same workouts.
    public init(endingBefore today: LocalDate, timeZone: TimeZone, seed: UInt64 = 2024) {
        var random = SplitMix64(seed: seed)
        var sets: [ImportedSet] = []
        let firstMonday = today.adding(days: -(today.weekday - 1) - 7 * (Self.weeks - 1))
        var number = 0
        for week in 0..<Self.weeks {
            // Every fifth week is lighter (90 %); progress carries on after it.
            let lighter = week % 5 == 4
            let steps = Double(week - week / 5)
            for weekday in [0, 2, 4] {
                let day = firstMonday.adding(days: 7 * week + weekday)
                guard day < today else { continue }
                let noon = day.noon(in: timeZone)
                let start = noon.instant.addingTimeInterval(6 * 3600)
                let program = Self.workouts[number % 2]
                let workout = ImportedWorkout(
                    startedAt: start, utcOffsetSeconds: noon.utcOffsetSeconds, name: program.name,
                    durationSeconds: Double(50 + Int.random(in: 0...20, using: &random)) * 60,
                    externalID: "demo:\(start.millisecondsSince1970 / 1000)")
                var position = 0
                func add(_ set: WorkoutSet) {
                    sets.append(
                        ImportedSet(
                            workout: number, position: position, newWorkout: position == 0 ? workout : nil,
                            set: set, line: sets.count + 1))
                    position += 1
                }
                for lift in program.lifts {
                    let working = ((lift.startKg + lift.stepKg * steps) * (lighter ? 0.9 : 1) / 1.25).rounded() * 1.25
                    add(WorkoutSet(exercise: lift.name, reps: 8, weight: Mass(kilograms: 20), kind: .warmUp))
                    add(
                        WorkoutSet(
                            exercise: lift.name, reps: 5, weight: Mass(kilograms: (working * 0.6 / 2.5).rounded() * 2.5), kind: .warmUp))
                    for set in 0..<lift.sets {
                        // About one last set in eight falls a rep or two short.
                        let short = set == lift.sets - 1 && Int.random(in: 0..<8, using: &random) == 0
                        add(
                            WorkoutSet(
                                exercise: lift.name, reps: short ? lift.reps - Int.random(in: 1...2, using: &random) : lift.reps,
                                weight: Mass(kilograms: working), kind: short ? .failure : .normal))
                    }
                }
                number += 1
            }
        }
        self.sets = sets
    }

    /// The program's two workouts as routines, at the working weights of its last full week.
    public static var routines: [Routine] {
        let steps = Double(weeks - 1 - (weeks - 1) / 5)
        return workouts.map { workout in
            Routine(
                name: workout.name,
                exercises: workout.lifts.map { lift in
                    PlannedExercise(
                        exercise: lift.name, sets: lift.sets, reps: lift.reps,
                        weight: Mass(kilograms: ((lift.startKg + lift.stepKg * steps) / 1.25).rounded() * 1.25), restSeconds: 180)
                })
        }
    }
}
