import CinnCore
import Foundation

/// The opening checks the food database readers share; their errors name the file.
enum FoodFile {
    /// How much of the start of a file is checked and looked at to tell its layout.
    static let prefixSize = 64 * 1024

    /// The start of the file and its size, after checking that the file is UTF-8 text.
    static func open(_ url: URL) throws(CinnError) -> (prefix: [UInt8], fileSize: Int64) {
        let (prefix, fileSize) = try FileStart.read(url, count: prefixSize)
        do {
            try TextCheck.check(prefix: prefix, contents: "food database file")
        } catch {
            throw .invalid("file", "cannot import \(url.lastPathComponent): \(error.message)")
        }
        return (prefix, fileSize)
    }

    /// The cells of the file's first record, trimmed.
    static func header(_ url: URL, delimiter: UInt8, quoting: Bool) throws(CinnError) -> [String] {
        let scanner = try CSVScanner(url: url, delimiter: delimiter, quoting: quoting)
        var header: [String] = []
        _ = try scanner.next { row in header = (0..<row.count).map(row.text) }
        return header
    }

    /// Column names quoted for a message, `"a", "b"`, cut short after 40 of them.
    static func listed(_ names: [String]) -> String {
        let shown = names.prefix(40).map { "\"\($0.count > 60 ? $0.prefix(60) + "…" : $0)\"" }
        let rest = names.count - shown.count
        return shown.joined(separator: ", ") + (rest > 0 ? " and \(rest) more" : "")
    }

    /// Reads every record (after the header, if there is one) with `parse`, handing out foods in batches.
    static func readRows(
        _ scanner: CSVScanner, skippingHeader: Bool, fileSize: Int64, batchSize: Int,
        _ progress: @Sendable (ImportProgress) -> Void, _ isolation: isolated (any Actor)?,
        _ onBatch: ([ImportedFood]) async throws -> Void,
        parse: (CSVRow, inout ImportOutput<ImportedFood>) -> Void
    ) async throws -> FoodFileSummary {
        var output = ImportOutput<ImportedFood>(
            batchSize: max(1, batchSize), totalBytes: fileSize, maximumRows: ImportLimits.foods, rowName: "foods")
        if skippingHeader { _ = try scanner.next { _ in } }
        while try scanner.next({ row in parse(row, &output) }) {
            if output.hasFullBatch {
                try await output.deliver(bytesRead: scanner.position, progress, isolation, onBatch)
            }
        }
        try await output.deliver(bytesRead: fileSize, progress, isolation, onBatch)
        return output.foodSummary
    }
}
