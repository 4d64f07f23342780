import Foundation
import Testing

/// A workout fixture the import tests use.
func workoutFixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../CinnImportTests/Fixtures/\(name)").standardized
        .path
}

@Suite("cinn import of workouts, cinn lifts and cinn workouts")
struct LiftCommandTests {
    @Test func importsThenShowsLiftsAndWorkouts() async throws {
        let sandbox = try Sandbox()
        let imported = try await sandbox.cinn("import", workoutFixture("strong_export_v6_semicolon.csv"))
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.lines.contains("Format: strong"))
        #expect(imported.lines.contains("Imported: 13"))
        let unitless = try await sandbox.cinn("import", workoutFixture("strong_export_classic_comma.csv"))
        #expect(unitless.status != 0)
        #expect(unitless.stderr.contains("--unit"), "\(unitless)")
        let fitbod = try await sandbox.cinn("import", workoutFixture("WorkoutExport.csv"))
        #expect(fitbod.lines.contains("Imported: 25"), "\(fitbod)")

        let lifts = try await sandbox.cinn("lifts")
        #expect(lifts.status == 0, "\(lifts)")
        #expect(lifts.lines.first?.hasPrefix("Estimated one-rep max (Brzycki") == true)
        #expect(lifts.lines.contains { $0.contains("Bench Press (Barbell)") }, "Fitbod's Barbell Bench Press is the same exercise")
        #expect(!lifts.lines.contains { $0.contains("  Barbell Bench Press ") })

        let bench = try await sandbox.cinn("lifts", "show", "barbell bench press")
        #expect(bench.status == 0, "\(bench)")
        // 61.23496995 kg × 5 (135 lb) → Brzycki 68.89 kg, truncated.
        #expect(bench.lines.contains("Best 1RM: 68 kg, from 61.2 kg × 5 on 2024-03-04"), "\(bench)")
        #expect(bench.lines.contains { $0.hasPrefix("Heaviest set: 61.2 kg × 5") })
        let json = try await sandbox.cinn("lifts", "show", "Bench Press (Barbell)", "--format", "json")
        #expect(json.stdout.contains(#""formula":"brzycki""#), "\(json)")
        #expect(try await sandbox.cinn("lifts", "formula", "epley").status == 0)
        let epley = try await sandbox.cinn("lifts", "show", "barbell bench press")
        #expect(epley.lines.contains("Best 1RM: 71 kg, from 61.2 kg × 5 on 2024-03-04"), "61.23 × (1 + 5/30) = 71.44: \(epley)")

        let missing = try await sandbox.cinn("lifts", "show", "bench")
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("did you mean"), "\(missing)")

        #expect(try await sandbox.cinn("lifts", "merge", "Dumbbell Row", "Bench Press (Barbell)").status == 0)
        let merged = try await sandbox.cinn("lifts", "show", "dumbbell row")
        #expect(merged.lines.first == "Bench Press (Barbell) (also Dumbbell Row)", "\(merged)")
        #expect(try await sandbox.cinn("lifts", "separate", "Dumbbell Row").status == 0)

        let workouts = try await sandbox.cinn("workouts", "--limit", "3")
        #expect(workouts.lines.count == 3, "\(workouts)")
        #expect(workouts.lines.first?.hasPrefix("2024-03-13  Workout  11 sets") == true, "\(workouts)")
    }

    @Test func aBadWorkoutFileIsRejectedWholeUnlessSkipping() async throws {
        let sandbox = try Sandbox()
        let file = try sandbox.write(
            """
            Date,Exercise,Reps,Weight(kg),Duration(s),Distance(m),Incline,Resistance,isWarmup,Note,multiplier
            2024-03-13 22:05:41 +0000,Deadlift,5,100,0,0,0,0,false,,1
            2024-03-13 22:05:41 +0000,Deadlift,five,100,0,0,0,0,false,,1
            2024-03-13 22:05:41 +0000,Deadlift,5,-100,0,0,0,0,false,,1
            """, to: "fitbod.csv")
        let rejected = try await sandbox.cinn("import", file)
        #expect(rejected.status != 0)
        #expect(rejected.lines.contains { $0.hasPrefix("  line 3 (Reps)") }, "\(rejected)")
        #expect(rejected.lines.contains { $0.hasPrefix("  line 4 (Weight)") }, "\(rejected)")
        #expect(try await sandbox.cinn("workouts").stdout.contains("No workouts yet"))
        let skipped = try await sandbox.cinn("import", file, "--skip-invalid")
        #expect(skipped.lines.contains("Imported: 1"), "\(skipped)")
    }
}

@Suite("cinn workout and cinn routine")
struct WorkoutCommandTests {
    @Test func logsAWorkoutAndShowsItsRecords() async throws {
        let sandbox = try Sandbox()
        let first = try await sandbox.cinn("workout", "log", "Bench Press", "100x5", "--date", "2024-03-07T18:00:00+00:00")
        #expect(first.status == 0, "\(first)")
        #expect(first.lines.first?.hasPrefix("Logged Evening workout on 2024-03-07") == true, "\(first)")
        #expect(first.lines.contains("  Barbell Bench Press"), "the catalogue's name: \(first)")
        let second = try await sandbox.cinn(
            "workout", "log", "bench press", "w:60x5", "102.5x5", "f:90x8", "Pull Up", "x10", "x8",
            "--date", "2024-03-14T18:00:00+00:00", "--name", "Push", "--minutes", "55")
        #expect(second.status == 0, "\(second)")
        #expect(second.lines.contains("    60 kg × 5 (warm-up)"), "\(second)")
        #expect(second.lines.contains { $0.hasPrefix("    102.5 kg × 5  ★ new best estimated 1RM, 5-rep max, heaviest set") }, "\(second)")
        #expect(second.lines.contains("    — × 10") == false)
        #expect(second.lines.contains("    10"), "a body-weight set: \(second)")

        let bench = try await sandbox.cinn("lifts", "show", "Bench Press")
        #expect(bench.lines.contains("Best 1RM: 115 kg, from 102.5 kg × 5 on 2024-03-14"), "102.5 × 36 / 32 = 115.3: \(bench)")

        let list = try await sandbox.cinn("workouts", "--format", "json")
        let id = try #require(
            list.stdout.range(of: #""id":"([0-9a-f-]{36})""#, options: .regularExpression).map {
                String(list.stdout[$0].dropFirst(6).dropLast())
            })
        let json = try await sandbox.cinn("workout", "show", id, "--format", "json")
        #expect(json.stdout.contains(#""kind":"warmup""#), "\(json)")
        #expect(json.stdout.contains(#""kind":"failure""#), "\(json)")
        #expect(json.stdout.contains(#""duration_s":3300"#), "\(json)")

        let wrong = try await sandbox.cinn("workout", "log", "Squat", "100x0")
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("reps must be between 1 and 100"), "\(wrong)")
        let noSets = try await sandbox.cinn("workout", "log", "Squat", "Deadlift", "100x5")
        #expect(noSets.status != 0)
        #expect(noSets.stderr.contains("\"Squat\" has no set"), "\(noSets)")

        #expect(try await sandbox.cinn("workout", "delete", id).status == 0)
        let after = try await sandbox.cinn("lifts", "show", "Bench Press")
        #expect(after.lines.contains("Best 1RM: 112 kg, from 100 kg × 5 on 2024-03-07"), "\(after)")
    }

    @Test func makesShowsAndDeletesRoutines() async throws {
        let sandbox = try Sandbox()
        #expect(try await sandbox.cinn("routine").lines.first?.hasPrefix("No routines yet") == true)
        let added = try await sandbox.cinn("routine", "add", "Legs", "Squat:3x5@100", "Leg Curl:3x12", "Plank:2")
        #expect(added.status == 0, "\(added)")
        #expect(added.lines == ["Saved the routine Legs: Barbell Squat, Seated Leg Curl, Plank."])
        let shown = try await sandbox.cinn("routine", "show", "legs")
        #expect(shown.lines == ["Legs", "  Barbell Squat  3 × 5 at 100 kg", "  Seated Leg Curl  3 × 12", "  Plank  2 × —"], "\(shown)")
        let bad = try await sandbox.cinn("routine", "add", "Bad", "Squat:0x5")
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("exercises[0].sets must be between 1 and 50"), "\(bad)")
        #expect(try await sandbox.cinn("routine", "list").lines == ["Legs  Barbell Squat, Seated Leg Curl, Plank"])
        #expect(try await sandbox.cinn("routine", "delete", "Legs").status == 0)
        #expect(try await sandbox.cinn("routine", "show", "Legs").status != 0)
    }
}

@Suite("cinn workout export")
struct WorkoutExportTests {
    @Test func anExportImportsBackWithItsKindsAndRPE() async throws {
        let sandbox = try Sandbox()
        let logged = try await sandbox.cinn(
            "workout", "log", "Bench Press", "w:60x5", "100x5@8.5", "f:102.5x3@10", "d:80x8", "Plank", "x1",
            "--date", "2024-03-14T18:00:00+00:00", "--name", "Push, heavy", "--minutes", "61")
        #expect(logged.status == 0, "\(logged)")
        let exported = try await sandbox.cinn("workout", "export")
        #expect(exported.status == 0, "\(exported)")
        #expect(
            exported.lines.first
                == "Workout #,Date,Workout Name,Duration (sec),Exercise Name,Set Order,Weight (kg),Reps,RPE,Distance (meters),Seconds,Notes,Workout Notes"
        )
        #expect(
            Array(exported.lines.dropFirst()) == [
                #"1,2024-03-14 18:00:00,"Push, heavy",3660,Barbell Bench Press,W,60,5,,,,,"#,
                #"1,2024-03-14 18:00:00,"Push, heavy",3660,Barbell Bench Press,1,100,5,8.5,,,,"#,
                #"1,2024-03-14 18:00:00,"Push, heavy",3660,Barbell Bench Press,F,102.5,3,10,,,,"#,
                #"1,2024-03-14 18:00:00,"Push, heavy",3660,Barbell Bench Press,D,80,8,,,,,"#,
                #"1,2024-03-14 18:00:00,"Push, heavy",3660,Plank,1,,1,,,,,"#,
            ])
        let file = try sandbox.write(exported.stdout, to: "workouts.csv")
        let other = try Sandbox()
        let imported = try await other.cinn("import", file)
        #expect(imported.lines.contains("Format: strong"), "\(imported)")
        #expect(imported.lines.contains("Imported: 5"), "\(imported)")
        let again = try await other.cinn("workout", "export")
        #expect(again.lines.dropFirst() == exported.lines.dropFirst(), "the same sets, kinds and weights after the round trip")
    }
}
