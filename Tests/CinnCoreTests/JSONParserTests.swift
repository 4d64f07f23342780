import CinnCore
import Foundation
import Testing

@Suite struct JSONParserTests {
    func parse(_ text: String, maximumValues: Int = .max, firstLine: Int = 1) throws(JSONSyntaxError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8), maximumValues: maximumValues, firstLine: firstLine)
    }

    /// The error parsing `text` gives, or nil when it parses.
    func error(_ text: String, maximumValues: Int = .max) -> JSONSyntaxError? {
        do throws(JSONSyntaxError) {
            _ = try parse(text, maximumValues: maximumValues)
            return nil
        } catch {
            return error
        }
    }

    @Test func readsWhatJSONDecoderReads() throws {
        let text =
            #"{"a": [1, -2.5e3, true, false, null], "s": "q\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00 ok", "o": {"x": {}}, "e": [], "n": 0.1}"#
        let parsed = try parse(text)
        #expect(parsed == (try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))))
        #expect(
            parsed
                == .object([
                    "a": .array([.number(1), .number(-2500), .bool(true), .bool(false), .null]),
                    "s": .string("q\"\\/\u{08}\u{0C}\n\r\té😀 ok"), "o": .object(["x": .object([:])]), "e": .array([]), "n": .number(0.1),
                ]))
        #expect(try parse("\u{FEFF} \n\"a byte order mark and space around\" \r\n") == .string("a byte order mark and space around"))
        #expect(try parse(#""\ud800 alone""#) == .string("\u{FFFD} alone"), "a lone surrogate is U+FFFD")
    }

    @Test func numbersKeepTheirText() throws {
        let parsed = try parse(#"[1152921504606846977, 0.10, -0, 1E+2, 72.50]"#)
        guard case .array(let numbers) = parsed else {
            Issue.record("not an array")
            return
        }
        let texts = numbers.compactMap { value -> String? in if case .number(let number) = value { number.text } else { nil } }
        #expect(texts == ["1152921504606846977", "0.10", "-0", "1E+2", "72.50"])
        #expect(numbers[0].integer == 1_152_921_504_606_846_977, "a 64-bit id keeps every digit")
        #expect(numbers[1].number == 0.1 && numbers[3].number == 100 && numbers[4].integer == nil)
        #expect(numbers[4] == .number(72.5), "numbers compare by value")
        #expect(parsed.text == "[1.152921504606847e+18,0.1,0,100,72.5]", "written compact, from the value")
        #expect(JSONNumber(80.25).text == "80.25" && JSONNumber(3).text == "3")
        let huge = try parse("1e999")
        #expect(huge == .number(.infinity) && huge.integer == nil, "beyond a Double: the caller decides")
        if case .number(let number) = huge { #expect(number.text == "1e999") }
        #expect(throws: JSONSyntaxError(problem: .numberOutOfRange("1e999"), byteOffset: 1, line: 1)) {
            try JSONParser.parse(Array("[1e999]".utf8), finiteNumbers: true)
        }
    }

    @Test func errorsNameTheByteAndTheLine() throws {
        let broken = try #require(error("{\n  \"a\": 1,\n  \"b\": }"))
        #expect(broken == JSONSyntaxError(problem: .unexpected("}"), byteOffset: 19, line: 3))
        #expect(broken.requestError == CinnError(.malformedRequest, "malformed JSON at byte 19: unexpected \"}\""))
        #expect(broken.fileError == .invalid("file", "line 3: the JSON has an unexpected \"}\" here"))
        let cut = try #require(error("[\n1,\n2"))
        #expect(cut.problem == .endsEarly && cut.line == 3)
        #expect(cut.fileError == .invalid("file", "the JSON ends too early at line 3: the file looks cut off"))
        do throws(JSONSyntaxError) {
            _ = try parse("[\n1,\nx]", firstLine: 40)
            Issue.record("x parsed")
        } catch {
            #expect(error.line == 42, "lines count from the first line given")
        }
    }

    @Test func invalidInputIsNamedPrecisely() {
        let cases: [(String, JSONSyntaxError.Problem, Int)] = [
            (#"{"a": }"#, .unexpected("}"), 6),
            (#"{"a" 1}"#, .unexpected("1"), 5),
            (#"{a: 1}"#, .unexpected("a"), 1),
            (#"[1, 2"#, .endsEarly, 5),
            (#""no end"#, .endsEarly, 7),
            ("[1] 2", .unexpected("2"), 4),
            (#"{"a": tru}"#, .unexpected("}"), 9),
            ("[\"\u{01}\"]", .controlCharacter, 2),
            ("[\"a\nb\"]", .controlCharacter, 3),
            (#"["\x"]"#, .unexpected("x"), 3),
            (#"["\u12g4"]"#, .unexpected("g"), 6),
            ("[01]", .unexpected("1"), 2),
            ("[+1]", .unexpected("+"), 1),
            ("[.5]", .unexpected("."), 1),
            ("[1.]", .unexpected("]"), 3),
            ("[1e]", .unexpected("]"), 3),
            ("[-]", .unexpected("]"), 2),
            ("[1,]", .unexpected("]"), 3),
            ("", .endsEarly, 0),
        ]
        for (text, problem, byte) in cases {
            let found = error(text)
            #expect(found?.problem == problem && found?.byteOffset == byte, "\(text): \(String(describing: found))")
        }
    }

    @Test func nestingIsLimited() throws {
        let deepest = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        #expect(throws: Never.self) { try parse(deepest) }
        let tooDeep =
            String(repeating: "[", count: JSONParser.maximumDepth + 1) + String(repeating: "]", count: JSONParser.maximumDepth + 1)
        #expect(error(tooDeep)?.problem == .nestedTooDeeply)
        #expect(error(String(repeating: "{\"a\":", count: 100_000))?.problem == .nestedTooDeeply, "refused before it recurses far")
        #expect(error(tooDeep)?.fileError == .invalid("file", "line 1: the JSON nests deeper than 64 levels"))
    }

    @Test func textWithMoreValuesThanAllowedIsTooLarge() throws {
        #expect(try parse("[1, {}, [2]]", maximumValues: 5) == .array([.number(1), .object([:]), .array([.number(2)])]))
        let tooMany = try #require(error("[1, {}, [2, 3]]", maximumValues: 5))
        #expect(tooMany.problem == .tooManyValues(5))
        #expect(tooMany.requestError.code == .contentTooLarge && tooMany.requestError.message.contains("more than 5 values"))
    }

    @Test func recordsComeWithTheirLines() throws {
        let array = try #require(try JSONParser.records(Array("[\n {\"a\": 1},\n\n \"x\", 3\n]".utf8)))
        #expect(array.map(\.line) == [2, 4, 4] && array.map(\.value) == [.object(["a": .number(1)]), .string("x"), .number(3)])
        let answer = try #require(
            try JSONParser.records(Array("{\"pagination\": {},\n \"weight\": [\n  {\"w\": 1},\n  {\"w\": 2}]}".utf8), member: "weight"))
        #expect(answer.map(\.line) == [3, 4])
        #expect(try JSONParser.records(Array("[]".utf8))?.isEmpty == true)
        #expect(try JSONParser.records(Array("{\"weight\": 5}".utf8), member: "weight") == nil)
        #expect(try JSONParser.records(Array("{\"other\": []}".utf8), member: "weight") == nil)
        #expect(try JSONParser.records(Array("7".utf8)) == nil)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.records(Array("[1] [".utf8)) }
    }
}
