import Foundation
import Testing

@Suite("cinn glucose, insulin and meal")
struct GlucoseCommandTests {
    @Test func nomSaysWhatItCanAndWhatItCannotYet() async throws {
        let sandbox = try Sandbox()
        let empty = try await sandbox.cinn("nom", "--carbs", "60", "--kcal", "600", "--name", "Pasta", "--time", "2024-03-14T12:30")
        #expect(
            empty.lines == [
                "Pasta: 60 g carbohydrate.", "No calorie target: set up your profile (cinn profile) for one.",
                "Not sure yet about glucose: no glucose readings in the last 180 days.",
            ], "\(empty)")
        #expect(try await sandbox.cinn("settings", "set", "energy-target", "2000").status == 0)
        #expect(try await sandbox.cinn("glucose", "add", "110", "--time", "2024-03-14T12:20").status == 0)
        let json = try await sandbox.cinn("nom", "--carbs", "60", "--kcal", "600", "--time", "2024-03-14T12:30", "--format", "json")
        let answer = try JSONDecoder().decode(JSON.self, from: Data(json.stdout.utf8))
        #expect(answer["energy"]?["kcal_left_after"] == .number(1400) && answer["glucose"] == .null)
        #expect(answer["glucose_reason"]?.string == "0 similar meals with readings so far; 5 are needed")
        let both = try await sandbox.cinn("nom", "pizza", "--carbs", "60")
        #expect(both.status != 0 && both.stderr.contains("not both"))
    }

    @Test func aMealItsReadingsAndTheReport() async throws {
        let sandbox = try Sandbox()
        #expect(try await sandbox.cinn("meal", "add", "Porridge", "--carbs", "45").stdout == "Added Porridge (45 g carbohydrate).\n")
        for (time, value) in [
            ("07:50", "100"), ("08:15", "120"), ("08:30", "150"), ("08:45", "130"), ("09:00", "90"), ("09:30", "80"),
            ("10:00", "110"), ("10:30", "140"),
        ] {
            let added = try await sandbox.cinn("glucose", "add", value, "--time", "2024-03-14T\(time)")
            #expect(added.status == 0, "\(added)")
        }
        let mmol = try await sandbox.cinn("glucose", "add", "6.2", "--unit", "mmol/L", "--timing", "fasting", "--time", "2024-03-14T07:00")
        #expect(mmol.stdout == "Added 6.2 mmol/L at 2024-03-14T07:00:00+00:00.\n")
        #expect(
            try await sandbox.cinn("insulin", "add", "4", "--kind", "bolus", "--insulin", "Humalog", "--time", "2024-03-14T07:45").status
                == 0)
        let logged = try await sandbox.cinn("meal", "log", "porridge", "--time", "2024-03-14T08:00")
        #expect(logged.stdout.hasPrefix("Logged Porridge at 2024-03-14T08:00:00+00:00 (id "))

        let report = try await sandbox.cinn("glucose", "report", "--days", "1", "--to", "2024-03-14")
        #expect(report.lines.contains("  Time in range 70–180 mg/dL: 100 %  (below 70: 0 %, under 54: 0 %; above 180: 0 %, over 250: 0 %)"))
        #expect(
            report.lines.contains(
                "  Mean 115 mg/dL; GMI and CV not sure yet: needs 14 days of CGM readings, 70 % of the time: 1 day and 0 % so far"),
            "\(report)")
        #expect(report.lines.contains("  Porridge  ↑ 50 mg/dL  area 1494  peak after 30 min  (1 of 1)"))
        let json = try await sandbox.cinn("glucose", "report", "--days", "1", "--to", "2024-03-14", "--format", "json")
        #expect(try JSONDecoder().decode(JSON.self, from: Data(json.stdout.utf8))["statistics"]?["readings"] == .number(9))
        let day = try await sandbox.cinn("glucose", "day", "2024-03-14")
        #expect(day.lines.contains("  08:00 Porridge: ↑ 50 mg/dL to 150 mg/dL after 30 min, area 1494"))

        let id = try #require(logged.stdout.firstMatch(of: /id ([0-9a-f-]{36})/)?.1)
        #expect(try await sandbox.cinn("meal", "report", String(id), "--reason", "only half").stdout == "Reported.\n")
        #expect(try await sandbox.cinn("glucose", "day", "2024-03-14").stdout.contains("[reported: only half]"))

        // Lunch logged in the food log is a meal glucose answers, named by its slot and foods.
        #expect(
            try await sandbox.cinn(
                "food", "quick", "650", "--carbs", "70", "--name", "Lunch out", "--meal", "lunch",
                "--time", "2024-03-14T09:30"
            ).status == 0)
        let withLunch = try await sandbox.cinn("glucose", "day", "2024-03-14")
        #expect(withLunch.lines.contains { $0.hasPrefix("  09:30 Lunch: Lunch out: ↑ 60 mg/dL to 140 mg/dL after 60 min") }, "\(withLunch)")

        let unknown = try await sandbox.cinn("meal", "log", "Pizza")
        #expect(unknown.status == badInput && unknown.stderr.contains("no meal named Pizza; your meals: Porridge"))
        let tooHigh = try await sandbox.cinn("glucose", "add", "2000")
        #expect(tooHigh.status == badInput && tooHigh.stderr.contains("between 10 mg/dL and 1000 mg/dL"))
    }

    @Test func researchExportWritesTablesAndTheirDictionary() async throws {
        let sandbox = try Sandbox()
        #expect(try await sandbox.cinn("glucose", "add", "100", "--time", "2024-03-14T08:00").status == 0)
        let folder = sandbox.folder.appendingPathComponent("study").path
        let written = try await sandbox.cinn("research-export", "--format", "csv", "--out", folder, "--deidentify")
        #expect(written.status == 0, "\(written)")
        #expect(written.stdout.contains("glucose (1)"))
        let glucose = try String(contentsOfFile: folder + "/glucose.csv", encoding: .utf8)
        #expect(glucose.hasPrefix("participant,time,glucose_mg_dl,timing,source\r\nP001,") && !glucose.contains("2024-03-14"))
        #expect(
            try String(contentsOfFile: folder + "/data_dictionary.csv", encoding: .utf8).contains("glucose,glucose_mg_dl,number,mg/dL,"))
        let json = try await sandbox.cinn("research-export")
        #expect(json.stdout.contains(#""participant":"local""#))
        #expect(try await sandbox.cinn("research-export", "--format", "csv").status == badInput)
    }
}
