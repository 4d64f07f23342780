import CinnCore
import CinnJournal
import CinnServer
import CinnStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// A local stand-in for the Open Food Facts product API, serving the fixtures over real HTTP.
/// 4056489123453 is found, 4056489999997 is a 404, 4000000000006 answers an invalid code,
/// 4000000000013 answers something that is not JSON, 4000000000020 answers a product with a
/// negative nutrient, 4000000000037 is an HTTP 500, 4000000000044 is a product without nutrition,
/// 4000000000051 streams 9 MiB without saying how long it is, 4000000000068 says it is 9 MiB;
/// every request is counted.
struct FakeOpenFoodFacts {
    let requests = RequestCounter()

    final class RequestCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: [String] = []
        func record(_ path: String) {
            lock.lock()
            paths.append(path)
            lock.unlock()
        }
        var all: [String] {
            lock.lock()
            defer { lock.unlock() }
            return paths
        }
    }

    func router() throws -> Router<BasicRequestContext> {
        let found = try fixtureText("product_4056489123453.json")
        let notFound = try fixtureText("product_not_found_4056489999997.json")
        let invalid = try fixtureText("product_invalid_code.json")
        let negative = found.replacingOccurrences(of: "\"fat_100g\":16.4", with: "\"fat_100g\":-16.4")
        try #require(negative != found)
        let requests = requests
        let router = Router()
        router.get("api/v2/product/{file}") { request, context -> Response in
            requests.record(request.uri.path)
            func json(_ text: String, _ status: HTTPResponse.Status = .ok) -> Response {
                Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
            }
            switch context.parameters.get("file") {
            case "4056489123453.json": return json(found)
            case "4056489999997.json": return json(notFound, .notFound)
            case "4000000000006.json": return json(invalid)
            case "4000000000013.json": return json("<html>maintenance</html>")
            case "4000000000020.json": return json(negative)
            case "4000000000037.json": return json("{}", .internalServerError)
            case "4000000000051.json", "4000000000068.json":
                let chunk = ByteBuffer(repeating: UInt8(ascii: " "), count: 64 << 10)
                let length = context.parameters.get("file") == "4000000000068.json" ? 144 * chunk.readableBytes : nil
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: ResponseBody(contentLength: length) { writer in
                        for _ in 0..<144 { try await writer.write(chunk) }
                        try await writer.finish(nil)
                    })
            case "4000000000044.json":
                return json(
                    #"{"code":"4000000000044","status":1,"product":{"product_name":"Mystery bar","brands":"Nobody, Else","nutriments":{}}}"#
                )
            default: return json(notFound, .notFound)
            }
        }
        return router
    }

    /// Runs the fake on a loopback port and `body` with a client pointed at it.
    func run(_ body: @Sendable (OpenFoodFactsClient) async throws -> Void) async throws {
        try await Application(router: try router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            .test(.live) { client in
                let port = try #require(client.port)
                // A generous limit: the suite runs hundreds of tests at once on two cores, and nothing here waits for it.
                try await body(OpenFoodFactsClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, timeout: 30))
            }
    }
}

@Suite("Barcode lookup") struct BarcodeLookupTests {
    /// The app with a journal that looks barcodes up in `openFoodFacts`.
    func withApp(openFoodFacts: OpenFoodFactsClient, _ body: @Sendable (any TestClientProtocol, Journal) async throws -> Void) async throws
    {
        try await withStore { store in
            var journal = try await utcJournal(store)
            journal.openFoodFacts = openFoodFacts
            let configured = journal
            try await Application(router: buildRouter(journal: configured)).test(.router) { client in
                try await body(client, configured)
            }
        }
    }

    @Test func aProductFoundInOpenFoodFactsIsCachedAsTheUsersOwnFood() async throws {
        let fake = FakeOpenFoodFacts()
        try await fake.run { openFoodFacts in
            try await withApp(openFoodFacts: openFoodFacts) { client, journal in
                let response = try await client.send(.get, "/api/v1/foods/barcode/4056489123453")
                #expect(response.status == .ok)
                let json = try response.json()
                #expect(json["found_in"]?.string == "open_food_facts")
                let food = try #require(json["food"])
                #expect(food["name"]?.string == "Knusper-Granola Beere")
                #expect(food["brand"]?.string == "Hügelhof", "the first of the comma-separated brands")
                #expect(food["source"]?.string == "off")
                #expect(food["mine"]?.bool == true)
                #expect(food["nutrients_per_100"]?["energy"]?.double == 439)
                #expect(close(food["nutrients_per_100"]?["iron"]?.double, 3.6))
                #expect(food["servings"]?[0]?["grams"]?.double == 45)

                let again = try await client.send(.get, "/api/v1/foods/barcode/4056489123453").json()
                #expect(again["found_in"]?.string == "mine", "the second scan is answered from the cache")
                #expect(fake.requests.all.count == 1)

                let id = try #require(food["id"]?.string)
                #expect(try await client.send(.delete, "/api/v1/foods/\(id)").status == .noContent, "rejecting the product")
                #expect(try await client.send(.get, "/api/v1/foods/barcode/4056489123453").json()["found_in"]?.string == "open_food_facts")
                #expect(try await journal.store.ownFoods(user: journal.user).count == 1)
            }
        }
    }

    @Test(arguments: ["4056489999997", "4000000000006", "4000000000044"])
    func anUnknownBarcodeIsNotFoundAndNothingIsCached(barcode: String) async throws {
        try await FakeOpenFoodFacts().run { openFoodFacts in
            try await withApp(openFoodFacts: openFoodFacts) { client, journal in
                try expectError(try await client.send(.get, "/api/v1/foods/barcode/\(barcode)"), .notFound, code: "not_found")
                #expect(try await journal.store.ownFoods(user: journal.user).isEmpty)
            }
        }
    }

    @Test(arguments: ["4000000000013", "4000000000020", "4000000000037"])
    func aBadResponseIsAClearErrorAndNothingIsCached(barcode: String) async throws {
        try await FakeOpenFoodFacts().run { openFoodFacts in
            try await withApp(openFoodFacts: openFoodFacts) { client, journal in
                let response = try await client.send(.get, "/api/v1/foods/barcode/\(barcode)")
                try expectError(response, .badGateway, code: "upstream_failed")
                #expect(try response.json()["error"]?["message"]?.string?.contains("Open Food Facts") == true)
                #expect(try await journal.store.ownFoods(user: journal.user).isEmpty)
            }
        }
    }

    /// A body over the bound is refused as it streams (or at once when its length says so): nothing is cached.
    @Test(arguments: ["4000000000051", "4000000000068"])
    func aResponseTooLargeIsRefusedWhileItStreams(barcode: String) async throws {
        try await FakeOpenFoodFacts().run { openFoodFacts in
            try await withApp(openFoodFacts: openFoodFacts) { client, journal in
                let response = try await client.send(.get, "/api/v1/foods/barcode/\(barcode)")
                try expectError(response, .badGateway, code: "upstream_failed")
                #expect(
                    try response.json()["error"]?["message"]?.string
                        == "Open Food Facts sent a response too large to read; make the food from its label")
                #expect(try await journal.store.ownFoods(user: journal.user).isEmpty)
            }
        }
    }

    @Test func noNetworkIsAClearError() async throws {
        let unreachable = OpenFoodFactsClient(baseURL: URL(string: "http://127.0.0.1:9")!, timeout: 2)
        try await withApp(openFoodFacts: unreachable) { client, journal in
            let response = try await client.send(.get, "/api/v1/foods/barcode/4056489123453")
            try expectError(response, .badGateway, code: "upstream_failed")
            #expect(
                try response.json()["error"]?["message"]?.string
                    == "Cinn cannot reach Open Food Facts (the connection was refused); check the server's network, or make the food from its label"
            )
            #expect(try await journal.store.ownFoods(user: journal.user).isEmpty)
        }
    }

    @Test func aLocalFoodIsFoundWithoutAskingOpenFoodFacts() async throws {
        let fake = FakeOpenFoodFacts()
        try await fake.run { openFoodFacts in
            try await withApp(openFoodFacts: openFoodFacts) { client, _ in
                _ = try await client.makeFood()
                let json = try await client.send(.get, "/api/v1/foods/barcode/4006381333931").json()
                #expect(json["found_in"]?.string == "mine")
                try expectError(try await client.send(.get, "/api/v1/foods/barcode/4000000000000"), .notFound, code: "not_found")
                #expect(fake.requests.all.isEmpty, "neither a local food nor an in-house code (bad check digit) is looked up")
                try expectError(
                    try await client.send(.get, "/api/v1/foods/barcode/12AB"), .unprocessableContent,
                    code: "invalid_input", field: "barcode")
            }
        }
    }

    @Test func theWebBarcodeFormOffersTheFoundProductToKeepEditOrReject() async throws {
        try await FakeOpenFoodFacts().run { openFoodFacts in
            try await withApp(openFoodFacts: openFoodFacts) { client, journal in
                let found = try await client.send(.get, "/food/barcode?code=4056489123453")
                #expect(found.status == .seeOther)
                let location = try #require(found.headers[.location])
                #expect(location.hasPrefix("/food/foods/") && location.contains("found=off"))
                let page = try await client.send(.get, location).text
                #expect(page.contains("id=\"found-notice\""))
                #expect(page.contains("id=\"edit-food\""))
                #expect(try await journal.store.ownFoods(user: journal.user).map(\.barcode) == ["4056489123453"])

                let unknown = try await client.send(.get, "/food/barcode?code=4056489999997")
                #expect(unknown.headers[.location] == "/food/new?barcode=4056489999997")
                let bare = try await client.send(.get, "/food/barcode?code=4000000000044")
                #expect(bare.headers[.location] == "/food/new?barcode=4000000000044&name=Mystery%20bar&brand=Nobody")
                let form = try await client.send(.get, try #require(bare.headers[.location])).text
                #expect(form.contains("value=\"Mystery bar\"") && form.contains("but not its nutrition"))
                let broken = try await client.send(.get, "/food/barcode?code=4000000000013")
                #expect(broken.status == .unprocessableContent)
                #expect(broken.text.contains("Open Food Facts"))
            }
        }
    }
}
