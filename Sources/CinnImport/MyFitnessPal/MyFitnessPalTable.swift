import CinnCore

/// Turns the rows of one kind of MyFitnessPal file into values, rejecting bad rows in `output`.
protocol MyFitnessPalRowParser {
    associatedtype Item: Sendable
    mutating func parse(_ row: CSVRow, into output: inout ImportOutput<Item>)
}

/// A MyFitnessPal CSV file checked to be UTF-8 text, with the layout its header names.
struct MyFitnessPalTable {
    let fileName: String
    let columns: MyFitnessPalColumns
    private let scanner: CSVScanner
    private let bytes: [UInt8]

    /// Checks the text and reads the header; nil when the file holds nothing at all. Throws when the
    /// file is not UTF-8 text or its header is not a MyFitnessPal layout.
    init?(_ source: MyFitnessPalFileSource) throws(CinnError) {
        fileName = source.name
        let bytes = source.bytes
        self.bytes = bytes
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        if text.allSatisfy({ [.space, .tab, .newline, .carriageReturn].contains($0) }) {
            guard source.kind != nil else { throw .invalid("file", "\(source.name) is empty") }
            return nil
        }
        do {
            try TextCheck.check(prefix: Array(bytes.prefix(4096)), contents: "CSV files")
        } catch {
            throw .invalid("file", "\(source.name): \(error.message)")
        }
        if let line = Self.firstLineNotUTF8(bytes) {
            throw .invalid(
                "file", "\(source.name) is not UTF-8 text (line \(line)); MyFitnessPal writes UTF-8, so export it again or save it as UTF-8"
            )
        }
        let scanner = CSVScanner(bytes: bytes, delimiter: .comma)
        var header: [String] = []
        var headerLine = 1
        do {
            _ = try scanner.next { row in
                header = (0..<row.count).map(row.text)
                headerLine = row.line
            }
        } catch {
            throw .invalid("file", "\(source.name): \(error.message)")
        }
        self.scanner = scanner
        columns = try Self.columns(header, line: headerLine, kind: source.kind, fileName: source.name)
    }

    /// Calls `body` with the text of each row's date and its line, in a pass of its own over the file (`read` is not
    /// moved on), until `body` answers false. A date column holds MyFitnessPal's own dates unless a spreadsheet saved
    /// the file, so when the first is MyFitnessPal's the others are taken to be too.
    func forEachDate(_ body: (String, Int) throws(CinnError) -> Bool) throws(CinnError) {
        let column = columns.date
        let dates = CSVScanner(bytes: bytes, delimiter: .comma)
        var first = true, going = true, failure: CinnError?
        do {
            while going,
                try dates.next({ row in
                    if first {
                        first = false
                        return
                    }
                    let text = row.text(column)
                    if text.isEmpty { return }
                    if LocalDate(iso: text) != nil {
                        going = false
                        return
                    }
                    do throws(CinnError) {
                        going = try body(text, row.line)
                    } catch {
                        failure = error
                        going = false
                    }
                })
            {}
        } catch {
            throw .invalid("file", "\(fileName): \(error.message)")
        }
        if let failure { throw failure }
    }

    /// Rows' items handed on at a time by `read`.
    static let batchRows = 5_000

    /// Hands every row after the header to `parser`, and the items it makes to `emit`, `batchRows` at a time (the
    /// returned output holds the counts and rejections, not the items); throws a `CinnError` naming the file when it
    /// breaks off (a quote never closed) or holds too many rows, and what `emit` throws.
    func read<Parser: MyFitnessPalRowParser>(_ parser: Parser, emit: ([Parser.Item]) async throws -> Void)
        async throws -> ImportOutput<Parser.Item>
    {
        var parser = parser
        var output = ImportOutput<Parser.Item>(
            batchSize: Self.batchRows, totalBytes: 0, maximumRows: ImportLimits.myFitnessPalRows,
            rowName: "rows")
        while true {
            let more: Bool
            do {
                more = try scanner.next { row in parser.parse(row, into: &output) }
                try output.checkRowLimit()
            } catch {
                throw CinnError.invalid(error.field ?? "file", "\(fileName): \(error.message)")
            }
            if !more || output.hasFullBatch {
                if !output.items.isEmpty { try await emit(output.items) }
                output.removeItems()
            }
            if !more { return output }
        }
    }

    /// The layout of the header; throws naming the columns found and the ones a `kind` file has.
    private static func columns(
        _ header: [String], line: Int, kind: MyFitnessPalExport.FileKind?,
        fileName: String
    ) throws(CinnError) -> MyFitnessPalColumns {
        var found = header.map { "\"\($0)\"" }.prefix(30).joined(separator: ", ")
        if header.count > 30 { found += " and \(header.count - 30) more" }
        if let kind {
            guard let columns = MyFitnessPalColumns(kind: kind, header: header) else {
                throw .invalid(
                    "file",
                    "\(fileName): the header on line \(line) (\(found)) is not a MyFitnessPal \(kind.rawValue) layout: it needs the columns \(MyFitnessPalColumns.required(kind)); an export writes \(MyFitnessPalColumns.expected(kind))"
                )
            }
            return columns
        }
        guard let columns = MyFitnessPalColumns(header: header) else {
            let layouts = MyFitnessPalExport.FileKind.allCases.map { "\($0.rawValue) (\(MyFitnessPalColumns.expected($0)))" }
            throw .invalid(
                "file",
                "\(fileName) is not a file of a MyFitnessPal export: its header on line \(line) (\(found)) is none of \(layouts.joined(separator: "; "))"
            )
        }
        return columns
    }

    /// The line of the first bytes that are not UTF-8, or nil when they all are.
    static func firstLineNotUTF8(_ bytes: [UInt8]) -> Int? {
        if bytes.allSatisfy({ $0 < 0x80 }) { return nil }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var line = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): if scalar == "\n" { line += 1 }
            case .emptyInput: return nil
            case .error: return line
            }
        }
    }
}
