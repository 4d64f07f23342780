import CinnCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CinnServer

/// Forms are decoded into types (`Field`, `Request.decodeForm`): trimmed, empty is left out, numbers name their field,
/// and a body that is not a form is refused as one, never a crash.
@Suite("Form decoding")
struct FormDecodingTests {
    struct WeightForm: Decodable {
        @Field var weight: String?
        @Field var note: String?
        @Field var rate: String?
        @PasswordField var password: String
    }

    struct RowsForm: Decodable {
        let minimum: Field

        init(from decoder: any Decoder) throws {
            minimum = try decoder.container(keyedBy: FormKey.self).field("min.protein")
        }
    }

    @Test func fieldsAreTrimmedAndEmptyOnesAreLeftOut() throws {
        let form = try Request.decodeForm(WeightForm.self, from: "weight=+72%2C4+&note=&password=+a+b+")
        #expect(form.weight == "72,4")
        #expect(form.$weight.sent == " 72,4 ", "the text as typed, to show the form again")
        #expect(try form.$weight.number() == 72.4)
        #expect(form.note == nil)
        #expect(form.rate == nil, "a field left out is an empty field")
        #expect(try form.$rate.number() == nil)
        #expect(form.password == " a b ", "a password keeps its spaces")
    }

    @Test func aNumberThatIsNotOneNamesItsField() throws {
        let form = try Request.decodeForm(WeightForm.self, from: "weight=7o.5&rate=x")
        #expect(throws: CinnError.invalid("weight", #""7o.5" is not a number"#)) { try form.$weight.number() }
        let rows = try Request.decodeForm(RowsForm.self, from: "min.protein=lots")
        #expect(throws: CinnError.invalid("min.protein", #""lots" is not a number"#)) { try rows.minimum.number() }
        #expect(throws: CinnError.invalid("min.protein", #""lots" is not a whole number"#)) { try rows.minimum.integer() }
    }

    @Test func aBodyThatIsNotAFormIsRefusedAsOne() throws {
        for body in ["weight=1&weight=2", "weight=%zz", "weight[=1"] {
            #expect(throws: CinnError.self, "\(body)") { try Request.decodeForm(WeightForm.self, from: body) }
            do {
                _ = try Request.decodeForm(WeightForm.self, from: body)
            } catch let error as CinnError {
                #expect(error.code == .malformedRequest, "\(body): \(error)")
            }
        }
        do {
            _ = try Request.decodeForm(WeightForm.self, from: "weight[]=1")
            Issue.record("a list where a value goes was decoded")
        } catch let error as CinnError {
            #expect(error.code == .invalidInput)
            #expect(error.field == "weight")
        }
    }

    @Test func hostileFormsAreAnsweredNotCrashedOn() async throws {
        try await withApp { client, _ in
            #expect(try await client.post("/weigh-ins", form: "weight=80&weight=81").status == .badRequest)
            #expect(try await client.post("/weigh-ins", form: "weight[]=80").status == .unprocessableContent)
            #expect(try await client.post("/weigh-ins", form: "weight=%E0%A4%A").status == .badRequest)
            #expect(try await client.post("/weigh-ins", form: "weight=80.4&note=+fine+").status == .seeOther)
            let page = try await client.send(.get, "/weigh-ins").text
            #expect(page.contains("80.4"))
        }
    }
}
