import CinnCore
import Foundation
import Testing

@Suite struct SyncTests {
    @Test func instantsKeepTheirOffsetAndMilliseconds() throws {
        let instant = try #require(SyncInstant.parse("2026-11-21T07:30:00.25+01:00"))
        #expect(instant.milliseconds == 1_795_242_600_250 && instant.utcOffsetSeconds == 3600)
        #expect(instant.text == "2026-11-21T07:30:00.250+01:00")
        #expect(instant.localDate == LocalDate(iso: "2026-11-21"))
        let west = try #require(SyncInstant.parse("2026-11-21T01:00:00-05:00"))
        #expect(west.text == "2026-11-21T01:00:00-05:00" && west.localDate == LocalDate(iso: "2026-11-21"))
        #expect(SyncInstant.parse("2026-11-21T01:00:00Z")?.text == "2026-11-21T01:00:00+00:00")
        #expect(SyncInstant.parse("2026-11-21T01:00:00") == nil, "an offset is required")
        #expect(SyncInstant.parse("2026-11-21") == nil)
        #expect(SyncInstant(milliseconds: -1, utcOffsetSeconds: 0).text == "1969-12-31T23:59:59.999+00:00")
    }

    @Test func handWrittenAnswersReadBackAsTheyWere() throws {
        let fields: SyncFields = [
            "note": .string("a \"quoted\"\nline"), "weight_kg": .number(80.25), "count": .number(3), "none": .null,
            "foods": .array([.object(["grams": .number(60), "ok": .bool(true)])]),
        ]
        let page = SyncPage(
            changes: [
                SyncRecord(type: "weigh_in", id: UUID(), deleted: false, fields: fields),
                SyncRecord(type: "meal", id: UUID(), deleted: true, fields: nil),
            ], next: "12.3.4", more: true)
        #expect(try JSONDecoder().decode(SyncPage.self, from: Data(page.jsonText.utf8)) == page)
        #expect(try SyncPage(jsonText: Array(page.jsonText.utf8)) == page)
        let results = [
            SyncResult(type: "meal", id: UUID(), status: .rejected, reason: "a new meal needs name", field: "name"),
            SyncResult(type: "weigh_in", id: UUID(), status: .merged, record: fields, deleted: false),
        ]
        struct Answer: Decodable { var results: [SyncResult] }
        #expect(try JSONDecoder().decode(Answer.self, from: Data(SyncResult.jsonText(results).utf8)).results == results)
        #expect(try SyncResult.results(jsonText: Array(SyncResult.jsonText(results).utf8)) == results)
        #expect(
            JSONValue.object(["b": .number(1), "a": .number(0.5)]).text == #"{"a":0.5,"b":1}"#, "keys sorted, whole numbers without .0")
    }
}

@Suite struct SyncBatchTests {
    @Test func aPushBodyReadsAsJSONDecoderReadsItAndErrorsNameTheChange() throws {
        let id = UUID()
        let text =
            #"{"changes":[{"type":"weigh_in","id":"\#(id)","changed_at":"2026-11-21T07:30:00+01:00","fields":{"weight_kg":80.5,"note":null},"clear":["note"],"deleted":false}]}"#
        struct Body: Decodable { var changes: [SyncChange] }
        #expect(try SyncChange.batch(jsonText: Array(text.utf8)) == (try JSONDecoder().decode(Body.self, from: Data(text.utf8))).changes)
        func field(_ body: String) -> String? {
            guard case .failure(let error) = Result(catching: { try SyncChange.batch(jsonText: Array(body.utf8)) }),
                let error = error as? CinnError
            else { return nil }
            return error.code == .malformedRequest ? "malformed" : error.field
        }
        #expect(field(#"{"changes":[{"type":"weigh_in"}]}"#) == "changes[0].id")
        #expect(field(#"{"changes":[{"type":"weigh_in","id":"\#(id)","changed_at":"yesterday"}]}"#) == "changes[0].changed_at")
        #expect(
            field(#"{"changes":[{"type":"weigh_in","id":"\#(id)","changed_at":"2026-11-21T07:30:00Z","clear":"note"}]}"#)
                == "changes[0].clear")
        #expect(field(#"{"changes":{}}"#) == "changes")
        #expect(field(#"{"changes":"#) == "malformed")
    }
}

@Suite struct CSVFieldTests {
    @Test(arguments: [
        ("=HYPERLINK(\"http://evil.example\")", "\"'=HYPERLINK(\"\"http://evil.example\"\")\""), ("+SUM(A1)", "'+SUM(A1)"),
        ("-2+3", "'-2+3"),
        ("@cmd", "'@cmd"), ("\tx", "'\tx"), ("-12.5", "-12.5"), ("+1e5", "+1e5"), ("-", "'-"),
        ("plain, with comma", "\"plain, with comma\""),
        ("a \"quote\"", "\"a \"\"quote\"\"\""), ("", ""), ("72.4", "72.4"),
    ])
    func formulasAreNeutralisedAndNumbersKept(text: String, field: String) {
        #expect(CSVField.escaped(text) == field)
    }
}
