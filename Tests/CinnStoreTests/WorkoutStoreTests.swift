import CinnCore
import Foundation
import Testing

@testable import CinnStore

@Suite struct WorkoutStoreTests {
    static let start = Date(timeIntervalSince1970: 1_710_367_541)  // 2024-03-13 22:05:41 UTC

    /// Two workouts a week apart: bench (a warm-up, two identical sets, a drop set) and squats; then one of presses.
    static func sets(dayOffset: Int = 0) -> [ImportedSet] {
        func workout(_ days: Int, _ name: String) -> ImportedWorkout {
            let instant = start.addingTimeInterval(Double(days + dayOffset) * 86_400)
            return ImportedWorkout(
                startedAt: instant, utcOffsetSeconds: 0, name: name, durationSeconds: 3600,
                externalID: "test:\(Int(instant.timeIntervalSince1970))")
        }
        let first = workout(-7, "Upper")
        let second = workout(0, "Lower")
        let kg = Mass.init(kilograms:)
        return [
            ImportedSet(
                workout: 0, position: 0, newWorkout: first,
                set: WorkoutSet(exercise: "Bench Press (Barbell)", reps: 10, weight: kg(40), kind: .warmUp), line: 2),
            ImportedSet(
                workout: 0, position: 1, newWorkout: nil, set: WorkoutSet(exercise: "Bench Press (Barbell)", reps: 5, weight: kg(100)),
                line: 3),
            ImportedSet(
                workout: 0, position: 2, newWorkout: nil, set: WorkoutSet(exercise: "Bench Press (Barbell)", reps: 5, weight: kg(100)),
                line: 4),
            ImportedSet(
                workout: 0, position: 3, newWorkout: nil,
                set: WorkoutSet(exercise: "Bench Press (Barbell)", reps: 8, weight: kg(80), kind: .drop, note: "strip"), line: 5),
            ImportedSet(workout: 0, position: 4, newWorkout: nil, set: WorkoutSet(exercise: "Plank", durationSeconds: 60), line: 6),
            ImportedSet(
                workout: 1, position: 0, newWorkout: second, set: WorkoutSet(exercise: "Back Squat", reps: 5, weight: kg(140), rpe: 8.5),
                line: 7),
            ImportedSet(
                workout: 1, position: 1, newWorkout: nil,
                set: WorkoutSet(exercise: "Barbell Bench Press", reps: 3, weight: kg(110), kind: .failure), line: 8),
        ]
    }

    func read(_ sets: [ImportedSet], batch: Int = 3, rejected: [RejectedRow] = []) -> (([ImportedSet]) async throws -> Void) async throws ->
        ImportReport
    {
        { insert in
            for start in stride(from: 0, to: sets.count, by: batch) {
                try await insert(Array(sets[start..<min(start + batch, sets.count)]))
            }
            return ImportReport(format: "fitbod", rowsRead: sets.count + rejected.count, rejected: rejected)
        }
    }

    @Test(arguments: Backend.enabled)
    func importKeepsEverySetAndReimportingAddsNothing(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let first = try await store.importWorkouts(
                user: me, format: "fitbod", fileName: "f.csv", mode: ImportMode(), read: read(Self.sets()))
            #expect(first.imported == 7)
            #expect(first.duplicates == 0)
            if backend == .sqlite {
                // The import skips SQLite's foreign-key checks: what it wrote must pass them, and they are on again after.
                try await store.withRawConnection { connection in
                    #expect(try await connection.sql.raw("PRAGMA foreign_key_check").all().isEmpty)
                    let on = try await connection.sql.raw("PRAGMA foreign_keys").first()?.decode(column: "foreign_keys", as: Int.self)
                    #expect(on == 1)
                }
            }
            let again = try await store.importWorkouts(
                user: me, format: "fitbod", fileName: "f.csv", mode: ImportMode(), read: read(Self.sets()))
            #expect(again.imported == 0)
            #expect(again.duplicates == 7)
            #expect(again.importID == nil)

            let list = try await store.workouts(user: me, limit: 10)
            #expect(list.map(\.name) == ["Lower", "Upper"])
            #expect(list.map(\.setCount) == [2, 5])
            #expect(list[1].volume.kilograms == 100 * 5 * 2 + 80 * 8, "warm-ups are left out of volume")
            #expect(list[1].exercises == ["Bench Press (Barbell)", "Plank"])
            #expect(try await store.workoutCount(user: me) == 2)

            let upper = try #require(try await store.workout(id: list[1].id, user: me))
            #expect(upper.workout.sets.count == 5)
            #expect(upper.workout.sets.map(\.kind) == [.warmUp, .normal, .normal, .drop, .normal])
            #expect(upper.workout.sets[3].note == "strip")
            #expect(upper.workout.sets[4].durationSeconds == 60)
            #expect(upper.durationSeconds == 3600)
            #expect(upper.workout.source == "import:fitbod")
            let lower = try #require(try await store.workout(id: list[0].id, user: me))
            #expect(lower.workout.sets[0].rpe == 8.5)
            #expect(lower.workout.sets[1].exercise == "Bench Press (Barbell)", "the same normalised name is the same exercise")

            let exercises = try await store.exercises(user: me)
            #expect(exercises.map(\.name) == ["Back Squat", "Bench Press (Barbell)", "Plank"])
            let bench = try #require(exercises.first { $0.name == "Bench Press (Barbell)" })
            #expect(bench.lastDay?.iso == "2024-03-13")
            let days = try await store.exerciseDays(exerciseRows: [bench.rowID])[bench.rowID] ?? []
            #expect(days.map(\.day.iso) == ["2024-03-06", "2024-03-13"])
            #expect(days.map(\.sets) == [4, 1])
            #expect(days[0].workSets == 3 && days[0].volume.kilograms == 1000 + 640, "the warm-up is left out, the drop set is not")
            #expect(days[0].lifts == [LiftedSet(day: days[0].day, weight: Mass(kilograms: 100), reps: 5)])
            #expect(days[1].lifts == [LiftedSet(day: days[1].day, weight: Mass(kilograms: 110), reps: 3, kind: .failure)])
            let report = ExerciseReport.compute(days: days, today: LocalDate(iso: "2024-03-15")!)
            let best = try #require(report.best)
            #expect(best.set.reps == 3)
            let source = try await store.workoutID(user: me, exerciseRows: [bench.rowID], set: best.set)
            #expect(source == list[0].id, "an estimate leads to the workout its set is in")

            let other = try await store.user(named: "other")
            #expect(try await store.workouts(user: other, limit: 10).isEmpty)
            #expect(try await store.workout(id: list[0].id, user: other) == nil)
            await #expect(throws: CinnError.self) { try await store.deleteWorkout(id: list[0].id, user: other) }
        }
    }

    @Test(arguments: Backend.enabled)
    func badRowsRejectTheWholeFileUnlessSkipped(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let bad = [RejectedRow(line: 9, field: "Reps", reason: "\"ten\" is not a whole number of reps")]
            let rejected = try await store.importWorkouts(
                user: me, format: "fitbod", fileName: nil, mode: ImportMode(),
                read: read(Self.sets(), rejected: bad))
            #expect(rejected.imported == 0)
            #expect(rejected.rejected == bad)
            #expect(try await store.workoutCount(user: me) == 0)
            #expect(try await store.exercises(user: me).isEmpty, "nothing is half-written")
            let dry = try await store.importWorkouts(
                user: me, format: "fitbod", fileName: nil, mode: ImportMode(dryRun: true), read: read(Self.sets()))
            #expect(dry.imported == 7)
            #expect(try await store.workoutCount(user: me) == 0)
            let skipped = try await store.importWorkouts(
                user: me, format: "fitbod", fileName: nil, mode: ImportMode(skipInvalid: true),
                read: read(Self.sets(), rejected: bad))
            #expect(skipped.imported == 7)
            #expect(try await store.workoutCount(user: me) == 2)
        }
    }

    @Test(arguments: Backend.enabled)
    func undoRemovesWorkoutsAndTheirSetsAndReimportBringsThemBack(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let report = try await store.importWorkouts(
                user: me, format: "fitbod", fileName: nil, mode: ImportMode(), read: read(Self.sets()))
            let contents = try await store.importContents(id: try #require(report.importID), user: me)
            #expect(contents.counts.map(\.kind) == [.workoutSets] && contents.counts.map(\.count) == [7])
            let first = LocalDate(instant: Self.start.addingTimeInterval(-7 * 86_400), utcOffsetSeconds: 0)
            #expect(contents.days == first...first.adding(days: 7), "what undo shows before it removes anything")
            await #expect(throws: CinnError.notFound("no import with id \(try #require(report.importID))")) {
                try await store.importContents(id: try #require(report.importID), user: try await store.user(named: "bob"))
            }
            #expect(try await store.undoImport(id: try #require(report.importID), user: me) == 2)
            #expect(try await store.importContents(id: try #require(report.importID), user: me).counts.isEmpty)
            #expect(try await store.workoutCount(user: me) == 0)
            let rows = try await store.exercises(user: me).map(\.rowID)
            #expect(try await store.exerciseDays(exerciseRows: rows).isEmpty)
            let back = try await store.importWorkouts(
                user: me, format: "fitbod", fileName: nil, mode: ImportMode(), read: read(Self.sets()))
            #expect(back.imported == 7)
            let workout = try #require(try await store.workouts(user: me, limit: 1).first)
            try await store.deleteWorkout(id: workout.id, user: me)
            #expect(try await store.workoutCount(user: me) == 1)
        }
    }

    @Test(arguments: Backend.enabled)
    func aliasesMergeExercises(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            var sets = Self.sets()
            sets[5].set.exercise = "Squat (Barbell)"
            sets[6].set.exercise = "Barbell Back Squat"
            _ = try await store.importWorkouts(user: me, format: "fitbod", fileName: nil, mode: ImportMode(), read: read(sets))
            let exercises = try await store.exercises(user: me)
            let squat = try #require(exercises.first { $0.name == "Squat (Barbell)" })
            let backSquat = try #require(exercises.first { $0.name == "Barbell Back Squat" })
            try await store.mergeExercise(backSquat.id, into: squat.id, user: me)
            #expect(try await store.exercises(user: me).first { $0.id == backSquat.id }?.aliasOf == squat.rowID)
            await #expect(throws: CinnError.self) { try await store.mergeExercise(squat.id, into: backSquat.id, user: me) }
            try await store.separateExercise(backSquat.id, user: me)
            #expect(try await store.exercises(user: me).allSatisfy { $0.aliasOf == nil })
            let other = try await store.user(named: "other")
            await #expect(throws: CinnError.self) { try await store.mergeExercise(backSquat.id, into: squat.id, user: other) }
        }
    }

    /// A set of two dumbbells (Fitbod's multiplier 2) counts both in volume: the workout's, the exercise day's (as
    /// written at import, and as worked out again from the sets), and it is read back with its multiplier.
    @Test(arguments: Backend.enabled)
    func aLoadMultiplierCountsInVolume(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let workout = ImportedWorkout(startedAt: Self.start, utcOffsetSeconds: 0, name: "Workout", externalID: "fitbod:1")
            let row = { (position: Int, note: String?) in
                ImportedSet(
                    workout: 0, position: position, newWorkout: position == 0 ? workout : nil,
                    set: WorkoutSet(exercise: "Dumbbell Row", reps: 10, weight: Mass(kilograms: 20), note: note, loadMultiplier: 2),
                    line: position + 2)
            }
            let sets = [
                row(0, nil), row(1, "a note: every column"),
                ImportedSet(
                    workout: 0, position: 2, newWorkout: nil, set: WorkoutSet(exercise: "Pull-up", reps: 8, weight: Mass(kilograms: 10)),
                    line: 4),
            ]
            _ = try await store.importWorkouts(user: me, format: "fitbod", fileName: "f.csv", mode: ImportMode(), read: read(sets))
            let list = try await store.workouts(user: me, limit: 10)
            #expect(list.first.map { $0.volume.kilograms.rounded() } == Double(2 * 20 * 10 * 2 + 80))
            let first = try #require(list.first)
            let stored = try #require(try await store.workout(id: first.id, user: me))
            #expect(stored.workout.sets.map(\.loadMultiplier) == [2, 2, nil])
            let rows = try await store.exerciseDays(exerciseRows: try await store.exercises(user: me).map(\.rowID))
            #expect(rows.values.flatMap { $0.map(\.volume.kilograms) }.sorted() == [80, 800])
            let days = try await exerciseDays(store, me)
            #expect(days.stored == days.fromSets)
        }
    }

    /// The stored exercise days, and the days computed again from every set, as comparable text.
    func exerciseDays(_ store: Store, _ user: UserID) async throws -> (stored: [String], fromSets: [String]) {
        func text(_ days: [Int64: [ExerciseDay]]) -> [String] {
            days.flatMap { exercise, days in
                days.map { day in
                    let lifts = day.lifts.map { "\($0.reps)x\($0.weight.kilograms)/\($0.kind)" }.sorted().joined(separator: ",")
                    return "\(exercise) \(day.day.iso): \(day.sets) sets, \(day.workSets) work, \(day.volume.kilograms) kg; \(lifts)"
                }
            }.sorted()
        }
        let rows = try await store.exercises(user: user).map(\.rowID)
        let stored = text(try await store.exerciseDays(exerciseRows: rows))
        try await store.rawTransaction { connection in try await store.refreshExerciseDays(connection, user: nil, exercises: nil) }
        return (stored, text(try await store.exerciseDays(exerciseRows: rows)))
    }

    @Test(arguments: Backend.enabled)
    func exerciseDaysFollowEveryWrite(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let first = try await store.importWorkouts(
                user: me, format: "fitbod", fileName: nil, mode: ImportMode(), read: read(Self.sets()))
            // Another app's workouts on the same days (an hour earlier), and the same two weeks later.
            var sameDays = Self.sets()
            for index in sameDays.indices {
                sameDays[index].newWorkout?.externalID += ":strong"
                sameDays[index].newWorkout?.startedAt.addTimeInterval(-3600)
                sameDays[index].set.weight = sameDays[index].set.weight.map { Mass(kilograms: $0.kilograms + 2.5) }
                sameDays[index].set.reps = sameDays[index].set.reps.map { $0 - 1 }
            }
            let second = try await store.importWorkouts(
                user: me, format: "strong", fileName: nil, mode: ImportMode(), read: read(sameDays, batch: 2))
            _ = try await store.importWorkouts(
                user: me, format: "fitbod", fileName: nil, mode: ImportMode(), read: read(Self.sets(dayOffset: 14)))
            var days = try await exerciseDays(store, me)
            #expect(days.stored.count == 8, "four exercise days, twice")
            #expect(days.stored == days.fromSets, "an import merges its days into those stored")
            #expect(days.stored.contains { $0.contains("2024-03-06: 8 sets, 6 work") })

            try await store.undoImport(id: try #require(second.importID), user: me)
            days = try await exerciseDays(store, me)
            #expect(days.stored == days.fromSets, "an undo computes the days it touched again")
            #expect(days.stored.contains { $0.contains("2024-03-06: 4 sets, 3 work") })

            let workout = try #require(try await store.workouts(user: me, limit: 1).first)
            try await store.deleteWorkout(id: workout.id, user: me)
            days = try await exerciseDays(store, me)
            #expect(days.stored == days.fromSets, "so does deleting a workout")
            #expect(days.stored.count == 6)
            try await store.undoImport(id: try #require(first.importID), user: me)
            #expect(try await exerciseDays(store, me).stored.count == 2, "the later upper-body day stays")
        }
    }

    @Test(arguments: Backend.enabled)
    func migrationSixComputesTheDaysOfSetsAlreadyStored(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            _ = try await store.importWorkouts(user: me, format: "fitbod", fileName: nil, mode: ImportMode(), read: read(Self.sets()))
            let before = try await exerciseDays(store, me).stored
            try await store.withConnection { db in
                try await db.raw("DROP TABLE exercise_days").run()
                try await db.raw("DROP INDEX workouts_day").run()
                try await db.raw("ALTER TABLE workout_sets ADD COLUMN local_day INTEGER NOT NULL DEFAULT 0").run()
                try await db.raw("CREATE INDEX workout_sets_exercise ON workout_sets (exercise_id, local_day, reps, kind, weight_kg)").run()
                try await db.raw("DELETE FROM schema_migrations WHERE version = 6").run()
            }
            #expect(try await store.migrate() == [6])
            #expect(try await exerciseDays(store, me).stored == before)
            #expect(before.count == 4)
        }
    }

    /// 24 workouts of 15 sets (four exercises, one set in five with RPE or a note), every field varied.
    static func manySets() -> [ImportedSet] {
        let exercises = ["Deadlift", "Bench Press", "Plank", "Pull Up"]
        var sets: [ImportedSet] = []
        for workout in 0..<24 {
            let started = start.addingTimeInterval(Double(workout) * 2 * 86_400)
            for position in 0..<15 {
                let exercise = exercises[(workout + position / 4) % exercises.count], n = workout * 15 + position
                var set =
                    exercise == "Plank"
                    ? WorkoutSet(exercise: exercise, durationSeconds: Double(30 + n % 40))
                    : WorkoutSet(
                        exercise: exercise, reps: 1 + n % 12,
                        weight: exercise == "Pull Up" && n % 2 == 0 ? nil : Mass(kilograms: 40 + Double(n % 23) * 2.5),
                        kind: [.normal, .normal, .warmUp, .drop, .failure][n % 5])
                if n % 5 == 1 { set.rpe = 6 + Double(n % 8) / 2 }
                if n % 10 == 3 { set.note = "set \(n), «grip»" }
                let newWorkout =
                    position > 0
                    ? nil
                    : ImportedWorkout(
                        startedAt: started, utcOffsetSeconds: 3600, name: "W\(workout)",
                        durationSeconds: 3000, externalID: "many:\(workout)")
                sets.append(ImportedSet(workout: workout, position: position, newWorkout: newWorkout, set: set, line: n + 2))
            }
        }
        return sets
    }

    @Test(arguments: Backend.enabled)
    func largeBatchesKeepEverySetAsItWas(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let sets = Self.manySets()
            // 130 sets a batch: SQLite writes most of them 50 to a statement, the rest one by one.
            let report = try await store.importWorkouts(
                user: me, format: "fitbod", fileName: nil, mode: ImportMode(), read: read(sets, batch: 130))
            #expect(report.imported == 360)
            let stored = try await store.workouts(user: me, limit: 100)
            #expect(stored.count == 24)
            for summary in stored {
                let workout = try #require(try await store.workout(id: summary.id, user: me)).workout
                let number = try #require(Int(summary.name.dropFirst()))
                let expected = sets.filter { $0.workout == number }.map(\.set)
                #expect(workout.sets.count == expected.count)
                for (got, want) in zip(workout.sets, expected) {
                    #expect(
                        got.exercise == want.exercise && got.reps == want.reps && got.weight == want.weight && got.kind == want.kind
                            && got.durationSeconds == want.durationSeconds && got.rpe == want.rpe && got.note == want.note,
                        "\(summary.name): \(got) ≠ \(want)")
                }
            }
            let days = try await exerciseDays(store, me)
            #expect(days.stored == days.fromSets)
            #expect(days.stored.count == 24 * 4, "four exercises a workout day")
            let again = try await store.importWorkouts(
                user: me, format: "fitbod", fileName: nil, mode: ImportMode(), read: read(sets, batch: 130))
            #expect(again.imported == 0 && again.duplicates == 360)
        }
    }
}
