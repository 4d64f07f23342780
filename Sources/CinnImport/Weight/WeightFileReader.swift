import CinnCore
import Foundation

/// Reads a weight file of any supported format as a stream of checked readings.
public struct WeightFileReader: Sendable {
    public let format: WeightFileFormat
    private let url: URL
    private let options: WeightImportOptions
    private let delimiter: UInt8
    private let fileSize: Int64

    /// How much of the start of a file is checked and looked at to tell its format.
    static let prefixSize = 64 * 1024
    /// The largest Fitbit JSON file read, since it is read whole.
    static let maximumJSONSize = 64 * 1024 * 1024

    /// Opens the file, checks its encoding, tells (or takes) its format and reads its header and unit.
    public init(url: URL, format: WeightFileFormat? = nil, options: WeightImportOptions) throws(CinnError) {
        let (prefix, fileSize) = try FileStart.read(url, count: Self.prefixSize)
        try TextCheck.check(prefix: prefix, contents: "weight file")
        guard let format = format ?? Self.detectFormat(prefix: prefix) else {
            let line = FileStart.firstLine(prefix)
            if line.hasPrefix("[") || line.hasPrefix("{") {
                throw .invalid("file", "\(url.lastPathComponent) is JSON of a kind Cinn does not know: \(Self.jsonFormats)")
            }
            let header = WorkoutFileReader.header(prefix: prefix, delimiter: CSVColumns.sniffDelimiter(FileStart.firstLine(prefix).utf8))
            let weightFormats =
                "weight files (a CSV with a date and a weight column, Hacker's Diet Online, Libra, Fitbit JSON, Google Health CSV)"
            throw WorkoutFileReader.unknownLayout(
                header: header.count > 40 ? Array(header.prefix(40)) : header,
                fileName: url.lastPathComponent, alsoSupported: [weightFormats])
        }
        self.format = format
        self.url = url
        self.options = options
        self.fileSize = fileSize
        delimiter =
            switch format {
            case .csv: Self.csvDelimiter(prefix: prefix)
            case .libra: .semicolon
            case .hackersDiet, .googleHealth, .fitbit: .comma
            }
        switch format {
        case .csv: try readHeader(GenericCSVParser(options: options, delimiter: delimiter))
        case .hackersDiet: try readHeader(HackersDietParser(options: options))
        case .libra: try readHeader(LibraParser(options: options))
        case .googleHealth: try readHeader(GoogleHealthParser(options: options))
        case .fitbit:
            guard options.unit != nil else {
                throw .invalid("unit", "Fitbit weight files carry no unit: choose their unit, kg or lb")
            }
        }
    }

    /// Reads the whole file, handing `onBatch` up to `batchSize` readings at a time; bad rows are listed, not thrown.
    // Throws only when the file as a whole is broken (a cut-off JSON file, a quote never closed).
    // Runs on the caller's actor, so `onBatch` may use the caller's state.
    public func read(
        batchSize: Int = 1000,
        progress: @Sendable (ImportProgress) -> Void = { _ in },
        isolation: isolated (any Actor)? = #isolation,
        onBatch: ([ImportedWeighIn]) async throws -> Void
    ) async throws -> WeightFileSummary {
        var output = ReadingOutput(batchSize: max(1, batchSize), totalBytes: fileSize, maximumRows: ImportLimits.weighIns, rowName: "rows")
        switch format {
        case .csv: try await readRows(GenericCSVParser(options: options, delimiter: delimiter), &output, progress, isolation, onBatch)
        case .hackersDiet: try await readRows(HackersDietParser(options: options), &output, progress, isolation, onBatch)
        case .libra: try await readRows(LibraParser(options: options), &output, progress, isolation, onBatch)
        case .googleHealth: try await readRows(GoogleHealthParser(options: options), &output, progress, isolation, onBatch)
        case .fitbit: try await readFitbit(&output, progress, isolation, onBatch)
        }
        return WeightFileSummary(format: format, rowsRead: output.rowsRead, rejected: output.rejected, rejectedCount: output.rejectedCount)
    }

    /// Runs `parser` over the lines before the readings, so header and unit problems surface in `init`.
    private func readHeader<Parser: RowParser>(_ parser: Parser) throws(CinnError) {
        var parser = parser
        var output = ReadingOutput(batchSize: 1, totalBytes: fileSize, maximumRows: ImportLimits.weighIns, rowName: "rows")
        let scanner = try CSVScanner(url: url, delimiter: delimiter, quoting: format != .libra)
        while !parser.hasReadHeader, scanner.position < Self.prefixSize,
            try scanner.next({ row throws(CinnError) in try parser.parse(row, into: &output) })
        {}
    }

    private func readRows<Parser: RowParser>(
        _ parser: Parser, _ output: inout ReadingOutput,
        _ progress: @Sendable (ImportProgress) -> Void, _ isolation: isolated (any Actor)?,
        _ onBatch: ([ImportedWeighIn]) async throws -> Void
    ) async throws {
        var parser = parser
        let scanner = try CSVScanner(url: url, delimiter: delimiter, quoting: format != .libra)
        while try scanner.next({ row throws(CinnError) in try parser.parse(row, into: &output) }) {
            if output.hasFullBatch {
                try await output.deliver(bytesRead: scanner.position, progress, isolation, onBatch)
            }
        }
        parser.finish(into: &output)
        try await output.deliver(bytesRead: fileSize, progress, isolation, onBatch)
    }

    private func readFitbit(
        _ output: inout ReadingOutput,
        _ progress: @Sendable (ImportProgress) -> Void, _ isolation: isolated (any Actor)?,
        _ onBatch: ([ImportedWeighIn]) async throws -> Void
    ) async throws {
        guard let unit = options.unit else {
            throw CinnError.invalid("unit", "Fitbit weight files carry no unit: choose their unit, kg or lb")
        }
        guard fileSize <= Self.maximumJSONSize else {
            throw CinnError.invalid("file", "the Fitbit file is larger than 64 MiB; Fitbit writes one file per month")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CinnError.invalid("file", "cannot read \(url.lastPathComponent): \(error.localizedDescription)")
        }
        let entries = try FitbitParser.entries(of: [UInt8](data))
        let parser = FitbitParser(unit: unit, timeZone: options.timeZone)
        for (index, entry) in entries.enumerated() {
            parser.parse(entry.value, line: entry.line, into: &output)
            if output.hasFullBatch {
                try await output.deliver(bytesRead: fileSize * Int64(index + 1) / Int64(entries.count), progress, isolation, onBatch)
            }
        }
        try await output.deliver(bytesRead: fileSize, progress, isolation, onBatch)
    }
}
