import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("cinn migrate and weight")
struct WeightCommandTests {
    @Test func migrateTwice() async throws {
        let sandbox = try Sandbox()
        let first = try await sandbox.cinn("migrate")
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.hasPrefix("Applied migrations"))
        let second = try await sandbox.cinn("migrate")
        #expect(second.status == 0)
        #expect(second.stdout == "The database is up to date.\n")
    }

    @Test func addPrintsTheNewID() async throws {
        let sandbox = try Sandbox()
        let added = try await sandbox.cinn("weight", "add", "80", "--unit", "kg", "--date", "2024-03-01")
        #expect(added.status == 0, "\(added)")
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(UUID(uuidString: id) != nil)
        let list = try await sandbox.cinn("weight", "list")
        #expect(list.lines == ["2024-03-01 12:00  80.0 kg  \(id)"])
    }

    /// Off a terminal a likely typo is refused, saying how to save it; --confirm saves it.
    @Test func aLikelyTypoNeedsConfirm() async throws {
        let sandbox = try Sandbox()
        for day in 1...5 {
            #expect(try await sandbox.cinn("weight", "add", "80.3", "--unit", "kg", "--date", "2024-03-0\(day)").status == 0)
        }
        let slip = try await sandbox.cinn("weight", "add", "8.03", "--unit", "kg", "--date", "2024-03-06")
        #expect(slip.status == badInput)
        #expect(slip.stderr.contains("8.03 kg is 90 % away from your trend, 80.3 kg: is that right? Pass --confirm to save it anyway."))
        #expect(try await sandbox.cinn("weight", "list").lines.count == 5)
        let confirmed = try await sandbox.cinn("weight", "add", "8.03", "--unit", "kg", "--date", "2024-03-06", "--confirm")
        #expect(confirmed.status == 0, "\(confirmed)")
        #expect(try await sandbox.cinn("weight", "list").lines.count == 6)
    }

    /// A file that does not say its unit names the units and, on the command line, the option that gives one.
    @Test func importWithoutAUnitNamesTheOption() async throws {
        let sandbox = try Sandbox()
        let file = try sandbox.write("date,weight\n2024-03-01,80.1\n", to: "scale.csv")
        let result = try await sandbox.cinn("import", file)
        #expect(result.status == badInput)
        #expect(result.stderr.contains("choose its unit, kg, lb or st (--unit)"), "\(result)")
        #expect(try await sandbox.cinn("import", file, "--unit", "kg").status == 0)
    }

    @Test func addNotANumber() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.cinn("weight", "add", "abc")
        #expect(result.status == badInput)
        #expect(result.stderr.contains("abc"))
        #expect(result.stdout.isEmpty)
        #expect(try await sandbox.cinn("weight", "list").stdout.hasPrefix("No weigh-ins yet"))
    }

    @Test(arguments: [
        ["0"], ["-5"], ["701", "--unit", "kg"], ["1600", "--unit", "lb"], ["nan"], ["inf"],
        ["80", "--unit", "stones-ish"], ["80", "--date", "2024-02-30"], ["80", "--date", "2024-13-01"],
        ["80", "--date", "yesterday"], ["80", "--date", "2999-01-01"],
    ])
    func badAddsStoreNothing(arguments: [String]) async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.run(["weight", "add"] + arguments + ["--database", sandbox.database])
        #expect(result.status == badInput, "\(result)")
        #expect(!result.stderr.isEmpty)
        #expect(try await sandbox.cinn("weight", "list").stdout.hasPrefix("No weigh-ins yet"))
    }

    @Test func listNewestFirstInTheAskedUnit() async throws {
        let sandbox = try Sandbox()
        try await sandbox.cinn("weight", "add", "80", "--unit", "kg", "--date", "2024-03-01")
        try await sandbox.cinn("weight", "add", "79.5", "--unit", "kg", "--date", "2024-03-03T07:30:00+02:00", "--note", "gym")
        try await sandbox.cinn("weight", "add", "176", "--unit", "lb", "--date", "2024-03-02")
        let list = try await sandbox.cinn("weight", "list")
        #expect(list.status == 0)
        #expect(list.lines.map { String($0.prefix(16)) } == ["2024-03-03 07:30", "2024-03-02 12:00", "2024-03-01 12:00"])
        #expect(list.lines.first?.hasSuffix("  gym") == true)
        #expect(list.lines[safe: 1]?.contains("79.8 kg") == true)
        let pounds = try await sandbox.cinn("weight", "list", "--unit", "lb", "--limit", "1")
        #expect(pounds.lines.count == 1)
        #expect(pounds.lines.first?.contains("175.3 lb") == true)
        let range = try await sandbox.cinn("weight", "list", "--from", "2024-03-02", "--to", "2024-03-02")
        #expect(range.lines.count == 1)
    }

    @Test func deleteByIDAndByDate() async throws {
        let sandbox = try Sandbox()
        let id = try await sandbox.cinn("weight", "add", "80", "--unit", "kg", "--date", "2024-03-01T07:00:00Z")
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try await sandbox.cinn("weight", "add", "80.4", "--unit", "kg", "--date", "2024-03-01T20:00:00Z")
        try await sandbox.cinn("weight", "add", "80.2", "--unit", "kg", "--date", "2024-03-02")
        try await sandbox.cinn("weight", "add", "80.1", "--unit", "kg", "--date", "2024-03-03")

        let byID = try await sandbox.cinn("weight", "delete", id)
        #expect(byID.status == 0, "\(byID)")
        #expect(!(try await sandbox.cinn("weight", "list").stdout.contains(id)))
        #expect(try await sandbox.cinn("weight", "delete", id).status == badInput)

        let byDate = try await sandbox.cinn("weight", "delete", "2024-03-02")
        #expect(byDate.status == 0)
        #expect(try await sandbox.cinn("weight", "list").lines.map { String($0.prefix(10)) } == ["2024-03-03", "2024-03-01"])
        #expect(try await sandbox.cinn("weight", "delete", "2024-03-02").status == badInput)
        #expect(try await sandbox.cinn("weight", "delete", "neither").status == badInput)
        #expect(try await sandbox.cinn("weight", "list").lines.count == 2)
    }

    @Test func databaseFromTheEnvironment() async throws {
        let sandbox = try Sandbox()
        let added = try await sandbox.run(
            ["weight", "add", "80", "--unit", "kg", "--date", "2024-03-01"],
            environment: sandbox.environment(database: sandbox.database))
        #expect(added.status == 0, "\(added)")
        #expect(try await sandbox.cinn("weight", "list").lines.count == 1)
    }
}

@Suite("cinn goal and settings")
struct GoalAndSettingsCommandTests {
    @Test func goalSetShowClear() async throws {
        let sandbox = try Sandbox()
        #expect(try await sandbox.cinn("goal", "show").stdout.hasPrefix("No goal set"))
        let set = try await sandbox.cinn("goal", "set", "70", "--unit", "kg", "--rate", "0.5")
        #expect(set.status == 0, "\(set)")
        let show = try await sandbox.cinn("goal", "show")
        #expect(show.status == 0)
        #expect(show.stdout.contains("70.0 kg"))
        #expect(show.stdout.contains("0.50 kg"))
        #expect(try await sandbox.cinn("goal", "clear").status == 0)
        #expect(try await sandbox.cinn("goal", "show").stdout.hasPrefix("No goal set"))
        #expect(try await sandbox.cinn("goal", "clear").status == badInput)
    }

    @Test(arguments: [
        ["0"], ["800", "--unit", "kg"], ["70", "--rate", "-1"], ["70", "--rate", "5"], ["70", "--unit", "furlong"],
        ["seventy"],
    ])
    func badGoals(arguments: [String]) async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.run(["goal", "set"] + arguments + ["--database", sandbox.database])
        #expect(result.status == badInput, "\(result)")
        #expect(!result.stderr.isEmpty)
        #expect(try await sandbox.cinn("goal", "show").stdout.hasPrefix("No goal set"))
    }

    @Test func settingsSet() async throws {
        let sandbox = try Sandbox()
        #expect(try await sandbox.cinn("settings", "set", "unit", "lb").status == 0)
        #expect(try await sandbox.cinn("settings", "set", "trend-method", "pencil").status == 0)
        #expect(try await sandbox.cinn("settings", "set", "time-zone", "Europe/Berlin").status == 0)
        #expect(try await sandbox.cinn("settings", "set", "energy-target", "1900").status == 0)
        #expect(try await sandbox.cinn("settings", "set", "energy-unit", "kJ").status == 0)
        #expect(try await sandbox.cinn("settings", "set", "glucose-unit", "mmol/L").status == 0)
        #expect(try await sandbox.cinn("settings", "set", "insulin-peak", "55").status == 0)
        #expect(try await sandbox.cinn("settings", "set", "insulin-duration", "100").status == badInput)
        let show = try await sandbox.cinn("settings", "show")
        #expect(
            show.lines == [
                "unit = lb", "trend-method = pencil", "time-zone = Europe/Berlin", "energy-target = 1900 kcal",
                "energy-unit = kJ", "glucose-unit = mmol/L", "insulin-peak = 55 min", "insulin-duration = 360 min",
            ])
        #expect(try await sandbox.cinn("settings", "set", "energy-target", "none").status == 0)
        #expect(try await sandbox.cinn("settings", "set", "energy-target", "90").status == badInput)
        #expect(try await sandbox.cinn("settings", "show").lines.contains("energy-target = none"))
        // The display unit is now the default for new weigh-ins.
        try await sandbox.cinn("weight", "add", "160", "--date", "2024-03-01")
        #expect(try await sandbox.cinn("weight", "list").stdout.contains("160.0 lb"))
    }

    @Test(arguments: [["unit", "furlong"], ["trend-method", "crayon"], ["time-zone", "Mars/Olympus_Mons"], ["colour", "blue"]])
    func badSettings(arguments: [String]) async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.run(["settings", "set"] + arguments + ["--database", sandbox.database])
        #expect(result.status == badInput, "\(result)")
        #expect(!result.stderr.isEmpty)
        let show = try await sandbox.cinn("settings", "show")
        #expect(show.lines.prefix(2) == ["unit = kg", "trend-method = exact"])
    }
}

@Suite("cinn trend")
struct TrendCommandTests {
    /// 80 kg on March 1st and 81 kg on March 3rd.
    func twoWeighIns() async throws -> Sandbox {
        let sandbox = try Sandbox()
        try await sandbox.cinn("weight", "add", "80", "--unit", "kg", "--date", "2024-03-01")
        try await sandbox.cinn("weight", "add", "81", "--unit", "kg", "--date", "2024-03-03")
        return sandbox
    }

    @Test func jsonIsOneObjectWithTheDocumentedShape() async throws {
        let sandbox = try await twoWeighIns()
        let result = try await sandbox.cinn("trend", "--from", "2024-02-28", "--to", "2024-03-03", "--unit", "kg", "--format", "json")
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.count == 1)
        let trend = try JSON.parse(result.stdout)
        #expect(trend.keys == ["unit", "days", "rate_per_week", "energy_balance_per_day", "forecast_date", "settling_days", "verdict"])
        #expect(trend["unit"]?.string == "kg")
        let days = try #require(trend["days"]?.array)
        for day in days { #expect(day.keys == ["date", "weight", "interpolated", "value", "trend", "starts_series"]) }
        #expect(days.compactMap { $0["date"]?.string } == ["2024-03-01", "2024-03-02", "2024-03-03"])
        #expect(days.map { $0["weight"] } == [.number(80), .null, .number(81)])
        #expect(days.compactMap { $0["interpolated"]?.bool } == [false, true, false])
        #expect(days.compactMap { $0["value"]?.double } == [80, 80.5, 81])
        let trends = days.compactMap { $0["trend"]?.double }
        #expect(trends.count == 3)
        #expect(close(trends.first, 80) && close(trends[safe: 1], 80.05) && close(trends.last, 80.145))
        #expect(trend["rate_per_week"] == .null && trend["energy_balance_per_day"] == .null, "a young trend: not sure yet")
        #expect(trend["settling_days"] == .number(3))
        #expect(trend["forecast_date"] == .null)
        #expect(trend["verdict"]?.keys == ["answer", "reason"])
        #expect(trend["verdict"]?["answer"]?.string == "unknown")
    }

    @Test func jsonInPoundsAndWithoutData() async throws {
        let sandbox = try await twoWeighIns()
        let pounds = try JSON.parse(
            try await sandbox.cinn(
                "trend", "--from", "2024-03-01", "--to", "2024-03-03", "--unit", "lb",
                "--format", "json"
            ).stdout)
        #expect(pounds["unit"]?.string == "lb")
        #expect(close(pounds["days"]?.array?.last?["trend"]?.double, 80.145 / 0.45359237))

        let empty = try Sandbox()
        let nothing = try JSON.parse(try await empty.cinn("trend", "--format", "json").stdout)
        #expect(nothing["days"] == .array([]))
        #expect(nothing["rate_per_week"] == .null)
        #expect(nothing["energy_balance_per_day"] == .null)
    }

    @Test func csvHasTheDayColumns() async throws {
        let sandbox = try await twoWeighIns()
        let result = try await sandbox.cinn("trend", "--from", "2024-03-01", "--to", "2024-03-03", "--unit", "kg", "--format", "csv")
        #expect(result.status == 0)
        #expect(result.lines.first == "date,weight,interpolated,value,trend")
        #expect(result.lines.count == 4)
        #expect(result.lines[safe: 2]?.hasPrefix("2024-03-02,,true,80.5,") == true)
        #expect(result.lines[safe: 1]?.hasPrefix("2024-03-01,80.0,false,80.0,") == true)
    }

    @Test func tableShowsTheVerdict() async throws {
        let sandbox = try await twoWeighIns()
        let result = try await sandbox.cinn("trend", "--from", "2024-03-01", "--to", "2024-03-03", "--format", "table")
        #expect(result.status == 0)
        #expect(result.stdout.contains("Can I nom nom? unknown"))
        #expect(result.stdout.contains("2024-03-02"))
        let empty = try Sandbox()
        #expect(try await empty.cinn("trend").stdout.contains("Verdict: unknown"))
    }

    @Test func rangeEndsAtTo() async throws {
        let sandbox = try Sandbox()
        for day in 1...12 { try await sandbox.cinn("weight", "add", "80", "--unit", "kg", "--date", String(format: "2024-03-%02d", day)) }
        let week = try JSON.parse(try await sandbox.cinn("trend", "--range", "week", "--to", "2024-03-10", "--format", "json").stdout)
        #expect(week["days"]?.array?.compactMap { $0["date"]?.string }.first == "2024-03-04")
        #expect(week["days"]?.array?.count == 7)
    }

    @Test(arguments: [
        ["--range", "fortnight"], ["--from", "2024-02-30"], ["--from", "2024-03-05", "--to", "2024-03-01"],
        ["--unit", "stone-ish"], ["--format", "xml"],
    ])
    func badTrendOptions(arguments: [String]) async throws {
        let sandbox = try await twoWeighIns()
        let result = try await sandbox.run(["trend"] + arguments + ["--database", sandbox.database])
        #expect(result.status == badInput, "\(result)")
        #expect(!result.stderr.isEmpty)
    }
}

@Suite("cinn import and export")
struct ImportCommandTests {
    static let threeDays = "date,weight_kg\n2024-03-01,80.0\n2024-03-02,79.8\n2024-03-03,79.5\n"
    static let withBadRows = "date,weight_kg\n2024-03-01,80.0\n2024-02-30,79.9\n2024-03-02,79.8\nyesterday,abc\n"

    @Test func importListUndoAndImportAgain() async throws {
        let sandbox = try Sandbox()
        let file = try sandbox.write(Self.threeDays, to: "weights.csv")
        let first = try await sandbox.cinn("import", file)
        #expect(first.status == 0, "\(first)")
        #expect(first.lines.contains("Format: csv"))
        #expect(first.lines.contains("Rows read: 3"))
        #expect(first.lines.contains("Imported: 3"))
        #expect(first.lines.contains("Already in the journal: 0"))
        #expect(first.stdout.contains("Import #1."))

        let again = try await sandbox.cinn("import", file)
        #expect(again.status == 0)
        #expect(again.lines.contains("Imported: 0"))
        #expect(again.lines.contains("Already in the journal: 3"))

        let list = try await sandbox.cinn("import", "list")
        #expect(list.lines.count == 1)
        #expect(list.lines.first?.hasPrefix("#1 ") == true)
        #expect(list.stdout.contains("weights.csv"))

        let undo = try await sandbox.cinn("import", "undo", "1")
        #expect(undo.status == 0, "\(undo)")
        #expect(undo.stdout.contains("removed 3"))
        #expect(try await sandbox.cinn("weight", "list").stdout.hasPrefix("No weigh-ins yet"))
        #expect(try await sandbox.cinn("import", "list").stdout.contains("(undone)"))
        #expect(try await sandbox.cinn("import", "undo", "1").status == badInput)
        #expect(try await sandbox.cinn("import", "undo", "99").status == badInput)

        #expect(try await sandbox.cinn("import", file).lines.contains("Imported: 3"))
        #expect(try await sandbox.cinn("weight", "list").lines.count == 3)
    }

    @Test func anAppleHealthExportIsDetectedImportedOnceAndUndone() async throws {
        let sandbox = try Sandbox()
        let export = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../CinnImportTests/Fixtures/apple_health/export.zip").standardized.path
        let first = try await sandbox.cinn("import", export)
        #expect(first.status == 0, "\(first)")
        #expect(first.lines.contains("Format: apple-health") && first.lines.contains("Rows read: 37"))
        #expect(first.lines.contains("Imported: 15") && first.lines.contains("Already in the journal: 1"))
        #expect(first.lines.contains("Other health data, summed up per day: 9 types, 9 days written"), "\(first)")
        #expect(first.lines.contains("  Step count (count): 1 day, 1 sample, 1 new or newer"))
        #expect(try await sandbox.cinn("weight", "list").lines.count == 4)
        #expect(try await sandbox.cinn("import", export).lines.contains("Imported: 0"))
        #expect(try await sandbox.cinn("import", "undo", "1").stdout.contains("removed 24"), "15 records and 9 day summaries")

        let cut = try sandbox.write(
            Array(
                try Data(
                    contentsOf: URL(fileURLWithPath: export).deletingLastPathComponent()
                        .appendingPathComponent("export.xml")
                ).prefix(20_000)), to: "export.xml")
        let broken = try await sandbox.cinn("import", cut)
        #expect(broken.status != 0 && broken.stderr.contains("export.xml ends early"), "\(broken)")
    }

    @Test func dryRunWritesNothing() async throws {
        let sandbox = try Sandbox()
        let file = try sandbox.write(Self.threeDays, to: "weights.csv")
        let result = try await sandbox.cinn("import", file, "--dry-run")
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.contains("Would import: 3"))
        #expect(try await sandbox.cinn("weight", "list").stdout.hasPrefix("No weigh-ins yet"))
        #expect(try await sandbox.cinn("import", "list").stdout == "No imports yet.\n")
    }

    @Test func badRowsRejectTheFileUnlessSkipped() async throws {
        let sandbox = try Sandbox()
        let file = try sandbox.write(Self.withBadRows, to: "bad.csv")
        let rejected = try await sandbox.cinn("import", file)
        #expect(rejected.status == badInput, "\(rejected)")
        #expect(rejected.lines.contains { $0.hasPrefix("  line 3") })
        #expect(rejected.lines.contains { $0.hasPrefix("  line 5") })
        #expect(!rejected.stderr.isEmpty)
        #expect(try await sandbox.cinn("weight", "list").stdout.hasPrefix("No weigh-ins yet"))

        let skipped = try await sandbox.cinn("import", file, "--skip-invalid")
        #expect(skipped.status == 0, "\(skipped)")
        #expect(skipped.lines.contains("Imported: 2"))
        #expect(skipped.lines.contains("Invalid rows: 2"))
        #expect(try await sandbox.cinn("weight", "list").lines.count == 2)
    }

    @Test func fitbitNeedsAUnit() async throws {
        let sandbox = try Sandbox()
        let file = try sandbox.write(
            """
            [{"logId":1706770692000,"weight":158.2,"bmi":25.6,"date":"02/01/24","time":"06:58:12","source":"Aria"},
             {"logId":1706857420000,"weight":158.0,"bmi":25.55,"date":"02/02/24","time":"07:03:40","source":"Aria"}]
            """, to: "weight-2024-02-01.json")
        let withoutUnit = try await sandbox.cinn("import", file)
        #expect(withoutUnit.status == badInput, "\(withoutUnit)")
        #expect(withoutUnit.stderr.contains("--unit"))
        #expect(try await sandbox.cinn("weight", "list").stdout.hasPrefix("No weigh-ins yet"))
        let withUnit = try await sandbox.cinn("import", file, "--unit", "lb")
        #expect(withUnit.status == 0, "\(withUnit)")
        #expect(withUnit.lines.contains("Format: fitbit"))
        #expect(withUnit.lines.contains("Imported: 2"))
    }

    @Test func unreadableFiles() async throws {
        let sandbox = try Sandbox()
        let files = [
            try sandbox.write("", to: "empty.csv"),
            try sandbox.write([0xFF, 0xFE] + Array("date,weight_kg\n2024-03-01,80\n".utf8).flatMap { [$0, 0] }, to: "utf16.csv"),
            try sandbox.write("hello\nworld\n", to: "words.txt"),
            sandbox.folder.appendingPathComponent("missing.csv").path,
        ]
        for file in files {
            let result = try await sandbox.cinn("import", file)
            #expect(result.status == badInput, "\(file): \(result)")
            #expect(!result.stderr.isEmpty)
        }
        #expect(try await sandbox.cinn("import", try sandbox.write(Self.threeDays, to: "w.csv"), "--format", "word").status == badInput)
        #expect(try await sandbox.cinn("weight", "list").stdout.hasPrefix("No weigh-ins yet"))
    }

    @Test func exportedCSVImportsIntoAnotherJournal() async throws {
        let source = try Sandbox()
        try await source.cinn("weight", "add", "80", "--unit", "kg", "--date", "2024-03-01")
        try await source.cinn(
            "weight", "add", "79.5", "--unit", "kg", "--date", "2024-03-02T07:15:00+02:00", "--note", "a, \"quoted\" note")
        try await source.cinn("weight", "add", "175", "--unit", "lb", "--date", "2024-03-03")
        let csv = try await source.cinn("export", "--format", "csv")
        #expect(csv.status == 0)
        #expect(csv.lines.first == "date,weight,unit,note,source,id")
        #expect(csv.lines.count == 4)

        let target = try Sandbox()
        let imported = try await target.cinn("import", try target.write(csv.stdout, to: "export.csv"))
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.lines.contains("Imported: 3"))
        let before = try await source.cinn("weight", "list").lines.map { String($0.prefix(27)) }
        let after = try await target.cinn("weight", "list").lines.map { String($0.prefix(27)) }
        #expect(before == after)
    }

    @Test func exportJSON() async throws {
        let sandbox = try Sandbox()
        try await sandbox.cinn("weight", "add", "80", "--unit", "kg", "--date", "2024-03-01")
        try await sandbox.cinn("goal", "set", "75", "--unit", "kg")
        let result = try await sandbox.cinn("export", "--format", "json")
        #expect(result.status == 0)
        let export = try JSON.parse(result.stdout)
        #expect(export["weigh_ins"]?.array?.compactMap { $0["weight"]?.double } == [80])
        #expect(export["goal"]?["weight"]?.double == 75)
    }
}

@Suite("cinn backup and cinn restore")
struct BackupCommandTests {
    @Test(.timeLimit(.minutes(3)))
    func backupThenRestoreOverTheJournal() async throws {
        let sandbox = try Sandbox()
        try await sandbox.cinn("weight", "add", "80", "--unit", "kg", "--date", "2024-03-01")
        let backup = sandbox.folder.appendingPathComponent("backup.sqlite").path
        let made = try await sandbox.cinn("backup", backup)
        #expect(made.status == 0 && made.stdout.contains("Backed up \(sandbox.database) to \(backup)"), "\(made)")
        let again = try await sandbox.cinn("backup", backup)
        #expect(again.status == 64 && again.stderr.contains("already exists"), "\(again)")
        try await sandbox.cinn("weight", "add", "79", "--unit", "kg", "--date", "2024-03-02")

        let refused = try await sandbox.cinn("restore", backup)
        #expect(refused.status == 64 && refused.stderr.contains("add --force"), "\(refused)")
        #expect(try await sandbox.cinn("weight", "list").lines.count == 2, "a refused restore changes nothing")
        let restored = try await sandbox.cinn("restore", backup, "--force")
        #expect(restored.status == 0, "\(restored)")
        #expect(try await sandbox.cinn("weight", "list").lines.count == 1)

        // Into a new file, no --force needed; a file that is not a Cinn journal is named as such.
        let elsewhere = sandbox.folder.appendingPathComponent("restored.sqlite").path
        #expect(try await sandbox.run(["restore", backup, "--database", elsewhere]).status == 0)
        #expect(try await sandbox.run(["weight", "list", "--database", elsewhere]).lines.count == 1)
        let notes = try sandbox.write("just some text, not a journal", to: "notes.sqlite")
        let wrong = try await sandbox.run(["restore", notes, "--database", sandbox.folder.appendingPathComponent("third.sqlite").path])
        #expect(wrong.status == 64 && wrong.stderr.contains("notes.sqlite"), "\(wrong)")
        let postgres = try await sandbox.run(["backup", backup + ".2", "--database", "postgres://nobody@127.0.0.1:1/none"])
        #expect(postgres.status == 64 && postgres.stderr.contains("pg_dump"), "\(postgres)")
    }
}

@Suite("cinn serve")
struct ServeCommandTests {
    // Three minutes: each new journal installs the built-in foods first, seconds of a debug build when the other
    // command tests do the same beside it.
    @Test(.timeLimit(.minutes(3)))
    func servesOnAFreePortAndStopsOnSIGTERM() async throws {
        let sandbox = try Sandbox()
        let server = try RunningServer(sandbox, ["serve", "--port", "0", "--database", sandbox.database])
        let process = server.process
        let port = try await server.port()
        #expect(port != nil, "cinn serve stopped: \(server.text)")
        let bound = try #require(port)
        #expect(bound > 0)

        let (body, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(bound)/health")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == "ok")
        let (page, first) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(bound)/")!)
        #expect(first.url?.path == "/welcome", "a fresh journal starts with the onboarding")
        #expect(String(decoding: page, as: UTF8.self).contains(#"id="profile-form""#))

        // A second server on the same port says so, naming the option to change.
        let second = try await sandbox.run([
            "serve", "--port", String(bound), "--database", sandbox.folder.appendingPathComponent("other.sqlite").path,
        ])
        #expect(second.status == 64, "\(second)")
        #expect(second.stderr.contains("--port"))

        process.terminate()
        #expect(await process.exitStatus() == 0, "a clean exit, not the signal's")
    }

    /// The request log is on by default, in logfmt or JSON: method, route, status, milliseconds and request id, never
    /// the query string; `--no-request-log` turns it off. Each way says where it listens, on standard output.
    @Test(.timeLimit(.minutes(3)))
    func theRequestLogNamesMethodRouteStatusAndTimeOnly() async throws {
        let sandbox = try Sandbox()
        for options in [[], ["--log-format", "json"], ["--no-request-log"]] {
            let server = try RunningServer(sandbox, ["serve", "--port", "0", "--database", sandbox.database] + options)
            let port = try #require(try await server.port(), "cinn serve stopped: \(server.text)")
            _ = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/api/v1/weigh-ins?from=2024-03-01&limit=5")!)
            _ = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/food/2024-03-02")!)
            server.process.terminate()
            _ = await server.process.exitStatus()
            let text = server.text
            #expect(!text.contains("2024-03"), "no query strings, no dates from paths: \(text)")
            switch options.first {
            case nil:
                #expect(
                    text.firstMatch(
                        of: /msg=request duration_ms=\d+\.\d method=GET request_id=[0-9a-f]+ route=\/api\/v1\/weigh-ins status=200/) != nil,
                    "\(text)")
                #expect(text.contains("route=/food/{date} status=200"), "\(text)")
            case "--log-format":
                let lines = text.split(separator: "\n").filter { $0.hasPrefix("{") }
                let routes = lines.compactMap { line in
                    (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])?["route"]
                }
                #expect(routes == ["/api/v1/weigh-ins", "/food/{date}"], "\(text)")
            default:
                #expect(!text.contains("msg=request"), "\(text)")
            }
        }
        let bad = try await sandbox.run(["serve", "--port", "0", "--log-level", "loud", "--database", sandbox.database])
        #expect(bad.status == 64 && bad.stderr.contains("--log-level must be"), "\(bad)")
        let format = try await sandbox.run(["serve", "--port", "0", "--log-format", "xml", "--database", sandbox.database])
        #expect(format.status == 64 && format.stderr.contains("--log-format must be logfmt or json"), "\(format)")
    }

    /// `/metrics` answers on the main listener by default; `--metrics-address` moves it to a listener of its own.
    @Test(.timeLimit(.minutes(3)))
    func metricsMoveToTheirOwnAddress() async throws {
        let sandbox = try Sandbox()
        let server = try RunningServer(
            sandbox, ["serve", "--port", "0", "--metrics-address", "127.0.0.1:0", "--database", sandbox.database])
        let port = try #require(try await server.port(), "cinn serve stopped: \(server.text)")
        var metricsPort: Int?
        for _ in 0..<100 where metricsPort == nil {
            metricsPort = server.text.firstMatch(of: /Metrics on http:\/\/127\.0\.0\.1:(\d+)\/metrics\n/).flatMap { Int($0.1) }
            try await Task.sleep(for: .milliseconds(100))
        }
        let separate = try #require(metricsPort, "\(server.text)")
        _ = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/health")!)
        let (_, main) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/metrics")!)
        #expect((main as? HTTPURLResponse)?.statusCode == 404)
        let (body, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(separate)/metrics")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains(#"cinn_http_requests_total{method="GET",route="/health",status="200"} 1"#))
        server.process.terminate()
        #expect(await server.process.exitStatus() == 0)
        let short = try await sandbox.run(["serve", "--port", "0", "--metrics-token", "guessable", "--database", sandbox.database])
        #expect(short.status == 64 && short.stderr.contains("--metrics-token needs at least 16 characters"), "\(short)")
        let lone = try await sandbox.run(["serve", "--port", "0", "--no-passwords", "--database", sandbox.database])
        #expect(lone.status == 64 && lone.stderr.contains("--no-passwords needs --oidc-issuer"), "\(lone)")
    }

    /// Every setting has an environment variable (what a container is given): the journal's mode, who may sign up,
    /// the names the server answers to, the demo data, the request log, the port. A value that is not one is refused
    /// with the variable named, never quietly replaced by the default.
    @Test(.timeLimit(.minutes(3)))
    func everySettingComesFromTheEnvironmentToo() async throws {
        let sandbox = try Sandbox()
        let single = try RunningServer(
            sandbox, ["serve", "--database", sandbox.database],
            settings: [
                "CINN_PORT": "0", "CINN_DEMO": "yes", "CINN_ALLOWED_HOSTS": "cinn.lan, journal.lan",
                "CINN_PUBLIC_URL": "https://cinn.example.org", "CINN_REQUEST_LOG": "false",
            ])
        let port = try #require(try await single.port(), "cinn serve stopped: \(single.text)")
        let (weighIns, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/api/v1/weigh-ins?limit=1")!)
        #expect(String(decoding: weighIns, as: UTF8.self).contains("\"kg\""), "the demo journal")
        for (host, status) in [("journal.lan", 200), ("cinn.example.org", 200), ("elsewhere.example", 403)] {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/health")!)
            request.setValue(host, forHTTPHeaderField: "Host")
            let (_, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == status, "Host: \(host)")
        }
        var sameSettings = sandbox.environment()
        sameSettings["CINN_PORT"] = String(port)
        let healthy = try await sandbox.run(["health-check"], environment: sameSettings)
        #expect(healthy.status == 0 && healthy.stdout == "ready\n", "the container's health check: \(healthy)")
        single.process.terminate()
        #expect(await single.process.exitStatus() == 0)
        #expect(!single.text.contains("msg=request"), "\(single.text)")
        let stopped = try await sandbox.run(["health-check", "--url", "http://127.0.0.1:\(port)/ready"])
        #expect(stopped.status == 1 && stopped.stderr.contains("not ready"), "\(stopped)")

        let hosted = try RunningServer(
            sandbox, ["serve", "--database", sandbox.folder.appendingPathComponent("hosted.sqlite").path],
            settings: ["CINN_PORT": "0", "CINN_ACCOUNTS": "TRUE", "CINN_SIGNUP": "closed", "CINN_TRUSTED_PROXIES": "10.0.0.5"])
        let hostedPort = try #require(try await hosted.port(), "cinn serve stopped: \(hosted.text)")
        let (_, api) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(hostedPort)/api/v1/weigh-ins")!)
        #expect((api as? HTTPURLResponse)?.statusCode == 401, "accounts: nobody is signed in")
        let (signup, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(hostedPort)/signup")!)
        #expect(String(decoding: signup, as: UTF8.self).contains("Sign-up is closed on this server"))
        hosted.process.terminate()
        #expect(await hosted.process.exitStatus() == 0)
        #expect(hosted.text.contains("nobody can log in yet"), "\(hosted.text)")

        for (variable, value, message) in [
            ("CINN_ACCOUNTS", "ture", "--accounts (CINN_ACCOUNTS) must be true or false, not \"ture\""),
            ("CINN_PORT", "eighty", "--port (CINN_PORT) must be a whole number from 0 to 65535"),
            ("CINN_DRAIN_SECONDS", "-1", "--drain-seconds (CINN_DRAIN_SECONDS) must be a whole number from 0 to 3600"),
            ("CINN_SIGNUP", "everyone", "--signup must be open, invite or closed, not \"everyone\""),
        ] {
            var environment = sandbox.environment()
            environment["CINN_PORT"] = "0"
            environment[variable] = value
            let refused = try await sandbox.run(["serve", "--database", sandbox.database], environment: environment)
            #expect(refused.status == 64 && refused.stderr.contains(message), "\(variable): \(refused)")
        }
    }

    /// SIGTERM: the server holds new connections back (then refuses them), lets the request in flight finish, then
    /// exits cleanly.
    @Test(.timeLimit(.minutes(3)))
    func sigtermDrainsTheRequestsInFlight() async throws {
        let sandbox = try Sandbox()
        let server = try RunningServer(sandbox, ["serve", "--port", "0", "--database", sandbox.database])
        let port = try #require(try await server.port(), "cinn serve stopped: \(server.text)")
        // An import of 100,000 weigh-ins: about two seconds in a debug build.
        let start = Date(timeIntervalSince1970: 946_684_800)
        let csv =
            "date,weight\n"
            + (0..<100_000).map { index in
                "\(start.addingTimeInterval(Double(index) * 420).formatted(.iso8601)),\(80 + Double(index % 50) / 10)"
            }.joined(separator: "\n")
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/api/v1/imports?unit=kg")!)
        request.httpMethod = "POST"
        request.timeoutInterval = 120
        async let answer = URLSession.shared.upload(for: request, from: Data(csv.utf8))
        // SIGTERM once the import is in the server's hands: /metrics counts it (and itself) in flight.
        var inFlight = 0.0
        for _ in 0..<300 where inFlight < 2 {
            let (body, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/metrics")!)
            inFlight =
                String(decoding: body, as: UTF8.self).split(separator: "\n")
                .first { $0.hasPrefix("cinn_http_requests_in_flight ") }.flatMap { Double($0.split(separator: " ")[1]) } ?? 0
            if inFlight < 2 { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(inFlight >= 2, "the import reached the server")
        server.process.terminate()
        for _ in 0..<300 where !server.text.contains("new connections are held back") {
            try await Task.sleep(for: .milliseconds(100))
        }
        // A session of its own: the shared one would send this on the connection /metrics was read on, which the
        // server still serves while it takes what is queued.
        let fresh = URLSession(configuration: .ephemeral)
        await #expect(throws: (any Error).self, "a new connection is held back, then refused, while the import finishes") {
            _ = try await fresh.data(from: URL(string: "http://127.0.0.1:\(port)/health")!)
        }
        let (body, response) = try await answer
        #expect((response as? HTTPURLResponse)?.statusCode == 201, "\(String(decoding: body, as: UTF8.self))")
        #expect(String(decoding: body, as: UTF8.self).contains(#""imported":100000"#))
        #expect(await server.process.exitStatus() == 0)
        #expect(try await sandbox.cinn("export", "--format", "csv").lines.count == 100_001, "every weigh-in it answered for is kept")
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
