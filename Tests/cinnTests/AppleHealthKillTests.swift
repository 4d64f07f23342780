import Foundation
import Testing

@Suite("cinn import of an Apple Health export that is killed")
struct AppleHealthKillTests {
    /// An export.xml of `count` glucose readings five minutes apart and as many heart rate samples.
    static func export(count: Int) -> String {
        var xml =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-06-01 08:00:00 -0400\"/>\n"
        xml.reserveCapacity(count * 400)
        let start = 1_704_067_200  // 2024-01-01 00:00 UTC
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        for index in 0..<count {
            let date = formatter.string(from: Date(timeIntervalSince1970: Double(start + index * 300))) + " +0000"
            xml +=
                " <Record type=\"HKQuantityTypeIdentifierBloodGlucose\" sourceName=\"Dexcom G7\" unit=\"mg/dL\" startDate=\"\(date)\" endDate=\"\(date)\" value=\"\(80 + index % 120)\"/>\n"
            xml +=
                " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\" startDate=\"\(date)\" endDate=\"\(date)\" value=\"\(55 + index % 60)\"/>\n"
        }
        return xml + "</HealthData>\n"
    }

    /// The import is one transaction, so a process killed mid-way leaves nothing, and the next import brings everything once.
    @Test func aKilledImportLeavesNothingAndTheNextOneBringsEverythingOnce() async throws {
        let sandbox = try Sandbox()
        let count = 60_000
        let file = try sandbox.write(Self.export(count: count), to: "export.xml")
        let errors = sandbox.folder.appendingPathComponent("killed.err")
        let process = try ChildProcess(
            try #require(cinnExecutable).path, ["import", file, "--progress", "--database", sandbox.database],
            environment: sandbox.environment(), directory: sandbox.folder.path,
            output: sandbox.folder.appendingPathComponent("killed.out").path, errors: errors.path)
        // Killed once the bar shows a quarter of the file read: the reader has handed the writer three batches of 5,000
        // journal records (each a twelfth of this file), which it is writing into the open transaction. (Later, the
        // reader, at most twelve batches ahead, may have read the whole file while the writer finishes.)
        // Watched from a thread of its own: tests running beside this one can keep the cooperative pool busy for
        // seconds, long enough for the import to finish between two looks. Watched for up to two minutes: a new journal
        // installs the built-in foods before the import starts, which takes seconds of a debug build when every test
        // beside this one does the same.
        let progress = await withCheckedContinuation { (done: CheckedContinuation<String, Never>) in
            Thread {
                var progress = ""
                for _ in 0..<24_000 where process.isRunning {
                    progress = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
                    if let percent = progress.matches(of: /\] (\d+)%/).last.flatMap({ Int($0.1) }), percent >= 25 { break }
                    usleep(5_000)
                }
                process.kill()
                done.resume(returning: progress)
            }.start()
        }
        #expect(await process.exitStatus() == 128 + SIGKILL, "killed mid-way, not finished: \(progress)")
        #expect(progress.contains(" MB  ") && progress.contains(" rows  "), "bytes and records read: \(progress)")

        #expect(try await sandbox.cinn("import", "list").lines == ["No imports yet."], "nothing of the killed import")
        let again = try await sandbox.cinn("import", file)
        #expect(again.status == 0, "\(again)")
        #expect(again.lines.contains("Imported: \(count)") && again.lines.contains("Already in the journal: 0"), "\(again)")
        #expect(again.lines.contains("  Heart rate (count/min): 209 days, \(count) samples, 209 new or newer"), "\(again)")
        let third = try await sandbox.cinn("import", file)
        #expect(third.lines.contains("Imported: 0") && third.lines.contains("Already in the journal: \(count)"), "\(third)")
    }
}
