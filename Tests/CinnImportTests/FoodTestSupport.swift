import CinnCore
import CinnImport
import Foundation
import Testing

/// Everything one read of a food file produced.
struct FoodReadResult {
    var foods: [ImportedFood]
    var summary: FoodFileSummary
    var batchSizes: [Int]
    var lastProgress: ImportProgress?

    /// The food read from `line`.
    func food(line: Int) throws -> ImportedFood {
        try #require(foods.first { $0.line == line })
    }

    func food(named name: String) throws -> ImportedFood {
        try #require(foods.first { $0.food.name == name })
    }
}

func readUSDA(_ url: URL, batchSize: Int = 1000) async throws -> FoodReadResult {
    let reader = try USDAFoodReader(url: url)
    var foods: [ImportedFood] = []
    var batchSizes: [Int] = []
    let log = ProgressLog()
    let summary = try await reader.read(batchSize: batchSize, progress: { log.record($0) }) { batch in
        foods += batch
        batchSizes.append(batch.count)
    }
    return FoodReadResult(foods: foods, summary: summary, batchSizes: batchSizes, lastProgress: log.last)
}

func readOpenFoodFacts(_ url: URL, batchSize: Int = 1000) async throws -> FoodReadResult {
    let reader = try OpenFoodFactsReader(url: url)
    var foods: [ImportedFood] = []
    var batchSizes: [Int] = []
    let log = ProgressLog()
    let summary = try await reader.read(batchSize: batchSize, progress: { log.record($0) }) { batch in
        foods += batch
        batchSizes.append(batch.count)
    }
    return FoodReadResult(foods: foods, summary: summary, batchSizes: batchSizes, lastProgress: log.last)
}

/// The error opening `url` throws, or nil when it opens.
func openingError(_ open: () throws(CinnError) -> Void) -> CinnError? {
    do {
        try open()
        return nil
    } catch {
        return error
    }
}

/// The amount of the nutrient with catalogue key `key`.
func amount(_ food: ImportedFood, _ key: String) -> Double? {
    Nutrient.named(key).flatMap { food.food.nutrients[$0] }
}

/// Whether two amounts agree to within rounding.
func near(_ value: Double?, _ expected: Double) -> Bool {
    guard let value else { return false }
    return abs(value - expected) <= 1e-9 * max(1, abs(expected))
}
