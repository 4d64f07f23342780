import Foundation
import Testing

/// The MyFitnessPal export the import tests use.
let myFitnessPalZip = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../CinnImportTests/Fixtures/myfitnesspal/File-Export-2024-03-01-to-2024-03-07.zip").standardized.path

@Suite("cinn profile, energy, today and the MyFitnessPal import")
struct EnergyCommandTests {
    @Test func profileInFeetAndInchesThenEnergyAndToday() async throws {
        let sandbox = try Sandbox()
        let today = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        try await sandbox.cinn("weight", "add", "80", "--unit", "kg", "--date", today)
        let set = try await sandbox.cinn(
            "profile", "set", "--sex", "male", "--birth-date", "1990-01-01", "--height", "5'11\"",
            "--length-unit", "ft_in", "--activity", "sedentary")
        #expect(set.status == 0, "\(set)")
        let shown = try await sandbox.cinn("profile")
        #expect(shown.lines.contains("Height: 5 ft 11 in"), "\(shown)")
        #expect(shown.lines.contains { $0.hasPrefix("Activity: Sedentary") })
        let json = try await sandbox.cinn("profile", "--format", "json")
        #expect(json.stdout.contains(#""height_cm":180.34"#), "\(json)")

        let energy = try await sandbox.cinn("energy")
        #expect(energy.status == 0, "\(energy)")
        #expect(energy.lines.contains { $0.hasPrefix("Formula: ") && $0.contains("Mifflin–St Jeor") && $0.contains("× 1.2") }, "\(energy)")
        #expect(energy.lines.contains { $0.hasPrefix("Adaptive estimate: The trend needs 22 days") }, "\(energy)")
        let answer = try await sandbox.cinn("today")
        #expect(answer.lines.first?.hasPrefix("Not sure") == false, "\(answer)")
        #expect(answer.lines.contains { $0.hasPrefix("Calories to maintain: ") }, "\(answer)")

        let marked = try await sandbox.cinn("food", "mark", "complete", "--date", today)
        #expect(marked.lines == ["\(today) is marked complete."], "\(marked)")
    }

    @Test func theCalorieTargetIsSetWithTheOtherTargets() async throws {
        let sandbox = try Sandbox()
        let today = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        try await sandbox.cinn("weight", "add", "80", "--unit", "kg", "--date", today)
        try await sandbox.cinn(
            "profile", "set", "--sex", "male", "--birth-date", "1990-01-01", "--height", "180", "--activity", "sedentary")
        var shown = try await sandbox.cinn("targets")
        #expect(
            shown.lines.first?.hasPrefix("Calories: ") == true && shown.lines.first?.hasSuffix(" kcal a day, following your data") == true,
            "\(shown)")
        let set = try await sandbox.cinn("targets", "set", "calories=formula", "calorie-floor=1300", "protein=150g")
        #expect(set.status == 0, "\(set)")
        shown = try await sandbox.cinn("targets")
        #expect(shown.lines.first?.hasSuffix(" kcal a day, following the formula") == true, "\(shown)")
        #expect(shown.lines.contains("Targets: Protein 150 g"), "\(shown)")
        try await sandbox.cinn("targets", "set", "calories=1900")
        #expect(try await sandbox.cinn("targets").lines.first == "Calories: 1900 kcal a day, following your own number")
        let energy = try await sandbox.cinn("energy")
        #expect(energy.lines.contains("Daily target: 1900 kcal (manual)"), "\(energy)")
        let bad = try await sandbox.run(["targets", "set", "calories=lots", "--database", sandbox.database])
        #expect(bad.status == 64 && bad.stderr.contains("calories"), "\(bad)")
        #expect(try await sandbox.cinn("targets").lines.first == "Calories: 1900 kcal a day, following your own number", "nothing changed")
    }

    @Test(arguments: [["--height", "9 ft"], ["--birth-date", "2020-01-01"], ["--activity", "couch"], ["--floor", "100"]])
    func outOfRangeProfileExitsWithTheFieldNamed(_ arguments: [String]) async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.run(
            [
                "profile", "set", "--sex", "female", "--birth-date", "1990-01-01", "--height", "165",
                "--activity", "light",
            ] + arguments + ["--database", sandbox.database])
        #expect(result.status == 64, "\(result)")
        #expect(!result.stderr.isEmpty)
        let shown = try await sandbox.cinn("profile")
        #expect(shown.lines.first?.hasPrefix("No profile yet") == true, "nothing was saved: \(shown)")
    }

    @Test func myFitnessPalZipImportsOnceAndUndoes() async throws {
        let sandbox = try Sandbox()
        let first = try await sandbox.cinn("import", myFitnessPalZip)
        #expect(first.status == 0, "\(first)")
        #expect(first.lines.contains("Format: myfitnesspal"))
        #expect(first.lines.contains("Imported: 21"), "\(first)")
        let again = try await sandbox.cinn("import", myFitnessPalZip)
        #expect(again.lines.contains("Imported: 0"), "\(again)")
        let day = try await sandbox.cinn("food", "day", "2024-03-02")
        #expect(day.lines.contains("Post-Workout — 240 kcal"), "\(day)")
        #expect(day.lines.contains("Exercise: 657 kcal (already counted in your expenditure)"), "\(day)")
        let weights = try await sandbox.cinn("weight", "list", "--unit", "lb")
        #expect(weights.stdout.contains("158.2 lb"), "\(weights)")
        let undo = try await sandbox.cinn("import", "undo", "1")
        #expect(undo.status == 0, "\(undo)")
        #expect(try await sandbox.cinn("food", "day", "2024-03-02").lines.contains("Nothing logged."))
    }
}
