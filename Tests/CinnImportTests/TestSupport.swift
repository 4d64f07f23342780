import CinnCore
import CinnImport
import Foundation
import Testing

let berlin = TimeZone(identifier: "Europe/Berlin")!

/// A fixture copied from shared/formats/fixtures.
func fixture(_ name: String) throws -> URL {
    try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
}

/// The folder of every file the tests write, removed when the test process exits.
let testFiles: URL = {
    atexit { try? FileManager.default.removeItem(at: testFilesPath) }
    return testFilesPath
}()

private let testFilesPath = FileManager.default.temporaryDirectory
    .appendingPathComponent("cinn-import-tests-\(ProcessInfo.processInfo.processIdentifier)")

/// Writes `bytes` to a fresh file in a temporary folder.
func temporaryFile(_ bytes: [UInt8], name: String = "weights.csv") throws -> URL {
    let folder = testFiles.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url
}

func temporaryFile(_ text: String, name: String = "weights.csv") throws -> URL {
    try temporaryFile(Array(text.utf8), name: name)
}

/// Everything one read of a file produced.
struct ReadResult {
    var readings: [ImportedWeighIn]
    var summary: WeightFileSummary
    var batchSizes: [Int]
    var lastProgress: ImportProgress?

    var rejected: [RejectedRow] { summary.rejected }
}

/// Collects progress reports from the reader's @Sendable callback.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [ImportProgress] = []

    func record(_ progress: ImportProgress) { lock.withLock { reports.append(progress) } }
    var last: ImportProgress? { lock.withLock { reports.last } }
}

func readAll(
    _ url: URL, format: WeightFileFormat? = nil, unit: MassUnit? = nil, timeZone: TimeZone = berlin, batchSize: Int = 1000
) async throws -> ReadResult {
    let reader = try WeightFileReader(url: url, format: format, options: WeightImportOptions(unit: unit, timeZone: timeZone))
    var readings: [ImportedWeighIn] = []
    var batchSizes: [Int] = []
    let log = ProgressLog()
    let summary = try await reader.read(batchSize: batchSize, progress: { log.record($0) }) { batch in
        readings += batch
        batchSizes.append(batch.count)
    }
    return ReadResult(readings: readings, summary: summary, batchSizes: batchSizes, lastProgress: log.last)
}

func readAll(_ text: String, format: WeightFileFormat? = nil, unit: MassUnit? = nil, batchSize: Int = 1000) async throws -> ReadResult {
    try await readAll(temporaryFile(text), format: format, unit: unit, batchSize: batchSize)
}

/// The error `WeightFileReader.init` throws for the file, or nil when it opens.
func openingError(_ url: URL, format: WeightFileFormat? = nil, unit: MassUnit? = nil) -> CinnError? {
    do {
        _ = try WeightFileReader(url: url, format: format, options: WeightImportOptions(unit: unit, timeZone: berlin))
        return nil
    } catch {
        return error
    }
}

/// An instant written in ISO 8601 with an offset.
func instant(_ text: String) throws -> Date {
    let time = try #require(LocalDateTime(iso: text))
    return time.resolved(in: TimeZone(identifier: "UTC")!).instant
}

func kilograms(_ value: Double, _ unit: MassUnit) -> Double { Mass(value, unit).kilograms }
