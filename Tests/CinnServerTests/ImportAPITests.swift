import CinnCore
import CinnJournal
import CinnServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

let threeDays = weightCSV([("2024-03-01", 80.0), ("2024-03-02", 79.8), ("2024-03-03", 79.5)])

/// Two good rows around two bad ones (lines 3 and 5).
let withBadRows = "date,weight_kg\n2024-03-01,80.0\n2024-02-30,79.9\n2024-03-02,79.8\nyesterday,abc\n"

@Suite("Imports API")
struct ImportAPITests {
    /// A MyFitnessPal file Excel saved again, on both databases: asks the order of its dates, then imports the diary
    /// once, its days those of the export.
    @Test(arguments: Database.enabled)
    func aSpreadsheetSavedDiaryImportsOnce(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let file = try fixtureText("myfitnesspal-excel/Nutrition-Summary-2024-03-01-to-2024-03-07.excel-us.csv")
            let name = "file_name=Nutrition-Summary-2024-03-01-to-2024-03-07.csv"
            try expectError(
                try await client.importFile(file, query: name), .unprocessableContent, code: "invalid_input", field: "date_order")
            let first = try await client.importFile(file, query: name + "&date_order=month-first")
            #expect(first.status == .created)
            let imported = try #require(try first.json()["imported"]?.double)
            #expect(try imported > 0 && first.json()["rejected_count"]?.double == 0)
            let again = try await client.importFile(file, query: name + "&date_order=month-first")
            #expect(try again.json()["imported"]?.double == 0 && again.json()["duplicates"]?.double == imported)
            let days = try await journal.store.foodEntries(
                user: journal.user, from: LocalDate(iso: "2024-01-01")!, to: LocalDate(iso: "2024-12-31")!)
            #expect(Set(days.map(\.localDate.iso)).isSubset(of: (1...7).map { "2024-03-0\($0)" }) && Double(days.count) == imported)
        }
    }

    /// FitNotes' Body Tracker: weigh-ins and body fat on both databases, once however often it is imported.
    @Test(arguments: Database.enabled)
    func aFitNotesBodyTrackerGivesWeighInsAndBodyFat(_ database: Database) async throws {
        try await withApp(on: database) { client, journal in
            let file = try fixtureText("FitNotes_BodyTracker_Export_2024_03_07.csv")
            let first = try await client.importFile(file, query: "skip_invalid=true&file_name=FitNotes_BodyTracker_Export_2024_03_07.csv")
            #expect(first.status == .created)
            #expect(try first.json()["format"]?.string == "fitnotes-body" && first.json()["imported"]?.double == 5)
            #expect(try first.json()["skipped"]?.double == 1 && first.json()["rejected_count"]?.double == 1)
            #expect(try await journal.store.weighIns(user: journal.user).count == 4)
            #expect(try await journal.store.latestBodyFat(user: journal.user).map { ($0.fraction * 1000).rounded() } == 186)
            let again = try await client.importFile(file, query: "skip_invalid=true")
            #expect(try again.json()["imported"]?.double == 0 && again.json()["duplicates"]?.double == 5)
        }
    }

    @Test func importThenReimportAddsNothing() async throws {
        try await withApp { client, journal in
            let first = try await client.importFile(threeDays, query: "file_name=weights.csv")
            #expect(first.status == .created)
            let report = try first.json()
            #expect(
                report.keys == [
                    "format", "rows_read", "imported", "duplicates", "repeated_in_file", "kept_as_sent", "skipped", "rejected_count",
                    "rejected", "dry_run", "import_id", "health_days", "replaced", "unknown",
                ])
            #expect(report["format"]?.string == "csv")
            #expect(report["rows_read"]?.double == 3)
            #expect(report["imported"]?.double == 3)
            #expect(report["duplicates"]?.double == 0)
            #expect(report["rejected"] == .array([]))
            #expect(report["dry_run"]?.bool == false)
            #expect(report["import_id"]?.double != nil)
            #expect(try await journal.count() == 3)

            let again = try await client.importFile(threeDays)
            #expect(again.status == .ok)
            #expect(try again.json()["imported"]?.double == 0)
            #expect(try again.json()["duplicates"]?.double == 3)
            #expect(try again.json()["import_id"] == .null)
            #expect(try await journal.count() == 3)
        }
    }

    @Test func badRowsRejectTheWholeFile() async throws {
        try await withApp { client, journal in
            let response = try await client.importFile(withBadRows)
            try expectError(response, .unprocessableContent, code: "invalid_input", field: "file")
            let report = try #require(try response.json()["report"])
            #expect(report["rejected_count"]?.double == 2)
            #expect(report["rejected"]?.array?.compactMap { $0["line"]?.double } == [3, 5])
            #expect(report["imported"]?.double == 0)
            #expect(try await journal.count() == 0)
            #expect(try await client.send(.get, "/api/v1/imports").json()["imports"] == .array([]))
        }
    }

    @Test func skipInvalidImportsTheGoodRows() async throws {
        try await withApp { client, journal in
            let response = try await client.importFile(withBadRows, query: "skip_invalid=true")
            #expect(response.status == .created)
            let report = try response.json()
            #expect(report["imported"]?.double == 2)
            #expect(report["rejected_count"]?.double == 2)
            #expect(report["rejected"]?.array?.compactMap { $0["line"]?.double } == [3, 5])
            #expect(try await journal.count() == 2)
        }
    }

    @Test func dryRunWritesNothing() async throws {
        try await withApp { client, journal in
            let response = try await client.importFile(threeDays, query: "dry_run=true")
            #expect(response.status == .ok)
            let report = try response.json()
            #expect(report["dry_run"]?.bool == true)
            #expect(report["imported"]?.double == 3)
            #expect(report["import_id"] == .null)
            #expect(try await journal.count() == 0)
            #expect(try await client.send(.get, "/api/v1/imports").json()["imports"] == .array([]))
        }
    }

    /// Query values are decoded once: "%2541" is the text "%41", not "A".
    @Test func fileNameIsPercentDecodedOnce() async throws {
        try await withApp { client, _ in
            try await client.importFile(threeDays, query: "file_name=my%20weights%2541.csv")
            let imports = try #require(try await client.send(.get, "/api/v1/imports").json()["imports"]?.array)
            #expect(imports.first?["file_name"]?.string == "my weights%41.csv")
        }
    }

    @Test func listUndoAndReimport() async throws {
        try await withApp { client, journal in
            try await client.addWeighIn(81, date: "2024-02-28")
            let id = try #require(try await client.importFile(threeDays, query: "file_name=w.csv").json()["import_id"]?.double)
            let imports = try #require(try await client.send(.get, "/api/v1/imports").json()["imports"]?.array)
            #expect(imports.count == 1)
            #expect(imports.first?["id"]?.double == id)
            #expect(imports.first?["file_name"]?.string == "w.csv")
            #expect(imports.first?["imported"]?.double == 3)
            #expect(imports.first?["undone_at"] == .null)
            #expect(try await journal.count() == 4)

            let undo = try await client.send(.post, "/api/v1/imports/\(Int(id))/undo")
            #expect(undo.status == .ok)
            #expect(try undo.json()["removed"]?.double == 3)
            #expect(try await journal.count() == 1)
            try expectError(try await client.send(.post, "/api/v1/imports/\(Int(id))/undo"), .conflict, code: "conflict")
            let undone = try await client.send(.get, "/api/v1/imports").json()["imports"]?[0]
            #expect(undone?["undone_at"]?.string != nil)

            let again = try await client.importFile(threeDays)
            #expect(again.status == .created)
            #expect(try again.json()["imported"]?.double == 3)
            #expect(try await journal.count() == 4)
        }
    }

    @Test func undoUnknownImport() async throws {
        try await withApp { client, _ in
            try expectError(try await client.send(.post, "/api/v1/imports/999/undo"), .notFound, code: "not_found")
            try expectError(try await client.send(.post, "/api/v1/imports/abc/undo"), .notFound, code: "not_found")
        }
    }

    @Test(
        arguments: [
            [UInt8](),
            [0xFF, 0xFE] + Array("date,weight_kg\n2024-03-01,80\n".utf8).flatMap { [$0, 0] },
            Array("just some words\nnothing here\n".utf8),
            [0x50, 0x4B, 0x03, 0x04, 0, 0, 0, 0],
        ] as [[UInt8]])
    func unreadableFiles(bytes: [UInt8]) async throws {
        try await withApp { client, journal in
            let response = try await client.execute(uri: "/api/v1/imports", method: .post, body: ByteBuffer(bytes: bytes))
            try expectError(response, .unprocessableContent, code: "invalid_input", field: "file")
            #expect(try await journal.count() == 0)
        }
    }

    @Test func csvWithoutAUnitNeedsOne() async throws {
        try await withApp { client, journal in
            let csv = "date,weight\n2024-03-01,80\n"
            try expectError(try await client.importFile(csv), .unprocessableContent, code: "invalid_input", field: "unit")
            #expect(try await client.importFile(csv, query: "unit=kg").status == .created)
            #expect(try await journal.count() == 1)
        }
    }

    @Test func badImportQueries() async throws {
        try await withApp { client, journal in
            try expectError(
                try await client.importFile(threeDays, query: "format=word"), .unprocessableContent,
                code: "invalid_input", field: "format")
            try expectError(
                try await client.importFile(threeDays, query: "unit=stone-ish"), .unprocessableContent,
                code: "invalid_input", field: "unit")
            try expectError(
                try await client.importFile(threeDays, query: "dry_run=maybe"), .unprocessableContent,
                code: "invalid_input", field: "dry_run")
            #expect(try await journal.count() == 0)
        }
    }

    @Test func fixtureFormats() async throws {
        try await withApp { client, journal in
            let fitbit = try fixtureText("weight-2024-02-01.json")
            try expectError(try await client.importFile(fitbit), .unprocessableContent, code: "invalid_input", field: "unit")
            let report = try await client.importFile(fitbit, query: "unit=lb").json()
            #expect(report["format"]?.string == "fitbit")
            #expect(try #require(report["imported"]?.double) > 0)
            let libra = try await client.importFile(try fixtureText("libra_export.csv")).json()
            #expect(libra["format"]?.string == "libra")
            #expect(try #require(libra["imported"]?.double) > 0)
            #expect(try await journal.count() > 0)
        }
    }

    /// A real socket: the file goes up as a streamed request body, in many buffers.
    @Test func streamedUploadOverLoopback() async throws {
        try await withStore { store in
            let journal = try await utcJournal(store)
            let start = LocalDate(iso: "2010-01-01")!
            let rows = (0..<5000).map { (start.adding(days: $0).iso, 70 + Double($0 % 50) / 10) }
            let csv = weightCSV(rows)
            let app = buildApplication(journal: journal, configuration: ServerConfiguration(host: "127.0.0.1", port: 0))
            try await app.test(.live) { client in
                let response = try await client.importFile(csv)
                #expect(response.status == .created)
                #expect(try response.json()["imported"]?.double == 5000)
                #expect(try await client.send(.get, "/health").text == "ok")
            }
            #expect(try await journal.count() == 5000)
        }
    }
}

@Suite("Export API")
struct ExportAPITests {
    @Test func csvReimportsIntoAnotherJournal() async throws {
        let csv = try await withApp(returning: String.self) { client, _ in
            try await client.addWeighIn(80, date: "2024-03-01")
            try await client.send(
                .post, "/api/v1/weigh-ins", json: #"{"weight":79.5,"measured_at":"2024-03-02T07:15:00+02:00","note":"a, \"quoted\" note"}"#)
            try await client.addWeighIn(175, unit: "lb", date: "2024-03-03")
            let response = try await client.send(.get, "/api/v1/export?format=csv")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/csv") == true)
            return response.text
        }
        #expect(csv.hasPrefix("date,weight,unit,note,source,id\n"))
        #expect(csv.split(separator: "\n").count == 4)
        try await withApp { client, journal in
            let report = try await client.importFile(csv)
            #expect(report.status == .created)
            #expect(try report.json()["imported"]?.double == 3)
            #expect(try await journal.count() == 3)
            let days = try await client.send(.get, "/api/v1/weigh-ins").json()["weigh_ins"]?.array
            #expect(days?.compactMap { $0["date"]?.string } == ["2024-03-03", "2024-03-02", "2024-03-01"])
            #expect(days?[1]["measured_at"]?.string == "2024-03-02T07:15:00+02:00")
        }
    }

    @Test func json() async throws {
        try await withApp { client, _ in
            try await client.addWeighIn(80, date: "2024-03-01")
            try await client.addWeighIn(79.5, date: "2024-03-02")
            try await client.send(.put, "/api/v1/goal", json: #"{"weight":75}"#)
            let response = try await client.send(.get, "/api/v1/export?format=json")
            #expect(response.status == .ok)
            let export = try response.json()
            #expect(export["unit"]?.string == "kg")
            #expect(export["goal"]?["weight"]?.double == 75)
            #expect(export["settings"]?["time_zone"]?.string == "UTC")
            let weighIns = try #require(export["weigh_ins"]?.array)
            #expect(weighIns.compactMap { $0["weight"]?.double } == [80, 79.5])
            #expect(try await client.send(.get, "/api/v1/export").json()["weigh_ins"]?.array?.count == 2)
        }
    }

    @Test func emptyExportsAreValid() async throws {
        try await withApp { client, _ in
            let json = try await client.send(.get, "/api/v1/export?format=json").json()
            #expect(json["weigh_ins"] == .array([]))
            let csv = try await client.send(.get, "/api/v1/export?format=csv").text
            #expect(csv == "date,weight,unit,note,source,id\n")
        }
    }

    @Test func unknownFormat() async throws {
        try await withApp { client, _ in
            try expectError(
                try await client.send(.get, "/api/v1/export?format=xml"), .unprocessableContent,
                code: "invalid_input", field: "format")
        }
    }
}

/// A fixture file's text (copied from Tests/CinnImportTests/Fixtures).
func fixtureText(_ name: String) throws -> String {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
    return try String(contentsOf: url, encoding: .utf8)
}
