import CinnCore
import Foundation

/// Reads an Open Food Facts dump, the JSON Lines file or the CSV file, as a stream of foods.
public struct OpenFoodFactsReader: Sendable {
    /// The two dumps Open Food Facts publishes.
    public enum Layout: String, Sendable {
        /// `openfoodfacts-products.jsonl`: one product object per line, shaped like the API's `product`.
        case jsonLines = "jsonl"
        /// `en.openfoodfacts.org.products.csv`: TAB-separated, with a header naming the columns.
        case csv
    }

    /// The layout, with what reading a CSV dump needs.
    private enum Content: Sendable {
        case jsonLines
        case csv(OpenFoodFactsColumns, delimiter: UInt8)
    }

    private let url: URL
    private let fileSize: Int64
    private let content: Content

    /// Which of the two dumps the file is.
    public var layout: Layout {
        switch content {
        case .jsonLines: .jsonLines
        case .csv: .csv
        }
    }

    /// The longest JSON line read; real products stay far below it.
    static let maximumLineSize = 16 << 20

    /// Opens the file, checks that it is UTF-8 text and tells its layout from its content.
    public init(url: URL) throws(CinnError) {
        let (prefix, fileSize) = try FoodFile.open(url)
        let firstLine = FileStart.firstLine(prefix)
        self.url = url
        self.fileSize = fileSize
        if firstLine.hasPrefix("{") {
            guard firstLine != "{" else {
                throw .invalid(
                    "file",
                    "\(url.lastPathComponent) holds one JSON document over many lines; Cinn reads the JSON Lines dump, one product per line"
                )
            }
            content = .jsonLines
        } else if firstLine.hasPrefix("[") {
            throw .invalid("file", "\(url.lastPathComponent) holds a JSON array; Cinn reads the JSON Lines dump, one product per line")
        } else {
            let delimiter = CSVColumns.sniffDelimiter(firstLine.utf8)
            let header = try FoodFile.header(url, delimiter: delimiter, quoting: delimiter != .tab)
            content = .csv(try OpenFoodFactsColumns(header: header, fileName: url.lastPathComponent), delimiter: delimiter)
        }
    }

    /// Reads the whole file, handing `onBatch` up to `batchSize` foods at a time; bad products are listed, not thrown.
    // Throws only when the file as a whole is broken. Runs on the caller's actor.
    public func read(
        batchSize: Int = 1000,
        progress: @Sendable (ImportProgress) -> Void = { _ in },
        isolation: isolated (any Actor)? = #isolation,
        onBatch: ([ImportedFood]) async throws -> Void
    ) async throws -> FoodFileSummary {
        var parser = OpenFoodFactsParser()
        switch content {
        case .jsonLines:
            // NUL never occurs in JSON text, so with it as the delimiter each line is one field.
            let scanner = try CSVScanner(url: url, delimiter: 0, quoting: false, maximumRecordSize: Self.maximumLineSize)
            return try await FoodFile.readRows(
                scanner, skippingHeader: false, fileSize: fileSize, batchSize: batchSize, progress, isolation, onBatch
            ) { row, output in
                parser.parseLine(row, into: &output)
            }
        case .csv(let columns, let delimiter):
            // The dump never quotes: its fields hold no TAB or line break, and a quote is just a character.
            let scanner = try CSVScanner(url: url, delimiter: delimiter, quoting: delimiter != .tab)
            return try await FoodFile.readRows(
                scanner, skippingHeader: true, fileSize: fileSize, batchSize: batchSize, progress, isolation, onBatch
            ) { row, output in
                parser.add(OpenFoodFactsCSVProduct(row: row, columns: columns), line: row.line, into: &output)
            }
        }
    }
}

/// Turns lines of the JSON Lines dump and rows of the CSV dump into foods, skipped or rejected rows.
struct OpenFoodFactsParser {
    private var generator = SplitMix64()

    mutating func parseLine(_ row: CSVRow, into output: inout ImportOutput<ImportedFood>) {
        guard row.count == 1, case .object(let members)? = try? JSONParser.parse(row.field(0)) else {
            return output.reject(line: row.line, field: "product", reason: "the line is not a JSON object")
        }
        add(OpenFoodFactsJSONProduct(members: members, fieldPrefix: ""), line: row.line, into: &output)
    }

    mutating func add(_ product: some OpenFoodFactsProductFields, line: Int, into output: inout ImportOutput<ImportedFood>) {
        do {
            switch try OpenFoodFactsFood.read(product, using: &generator) {
            case .food(let food, let barcode):
                output.add(ImportedFood(food: food, externalID: "off:\(barcode.digits)", line: line))
            case .incomplete:
                output.skip()
            }
        } catch {
            output.reject(line: line, error)
        }
    }
}
