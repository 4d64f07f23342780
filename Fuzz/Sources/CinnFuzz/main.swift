import CinnCore
import CinnImport
import Foundation

// One libFuzzer binary for every reader of outside input: CINN_FUZZ_TARGET names the one a run exercises
// (run.sh sets it). An error thrown by a reader is the expected answer to bad input; what the fuzzer looks for
// is a crash (a trap, an out-of-bounds index), a hang or memory that grows without bound.

/// A reader of outside input, fed one input at a time.
enum Target: String, CaseIterable {
    case weights, fitbit, workouts, myfitnesspal, myfitnesspalZip = "myfitnesspal-zip", nightscout, nightscoutDocument = "nightscout-document"
    case appleHealth = "apple-health", appleHealthZip = "apple-health-zip", usda, openFoodFacts = "openfoodfacts"
    case openFoodFactsCSV = "openfoodfacts-csv", foodJournal = "food-journal", syncPush = "sync-push"
    case healthAutoExport = "health-auto-export", nightscoutTreatments = "nightscout-treatments", nightscoutDeviceStatus = "nightscout-devicestatus"
    case fitnotesBody = "fitnotes-body"

    /// What the input is written to before a reader that takes a file opens it.
    var fileName: String {
        switch self {
        case .weights, .workouts, .myfitnesspal, .usda, .openFoodFactsCSV, .fitnotesBody: "input.csv"
        case .fitbit, .nightscout, .nightscoutDocument, .foodJournal, .syncPush, .healthAutoExport, .nightscoutTreatments,
             .nightscoutDeviceStatus: "input.json"
        case .myfitnesspalZip: "File-Export.zip"
        case .appleHealth: "export.xml"
        case .appleHealthZip: "export.zip"
        case .openFoodFacts: "input.jsonl"
        }
    }

    func run(_ bytes: [UInt8], file: URL) {
        let utc = TimeZone(identifier: "UTC")!
        do throws(any Error) {
            switch self {
            case .nightscoutDocument:
                _ = try NightscoutParser.parse(bytes, timeZone: utc)
            case .foodJournal:
                _ = try FoodJournalFile(data: Data(bytes), name: fileName)
            case .syncPush:
                _ = try SyncChange.batch(jsonText: bytes, maximumChanges: 10_000)
            case .healthAutoExport:
                _ = try HealthAutoExportParser.parse(body: bytes)
            case .nightscoutTreatments:
                _ = try NightscoutUploadReader.treatments(bytes, timeZone: utc, source: "nightscout")
            case .nightscoutDeviceStatus:
                _ = try NightscoutUploadReader.documents(bytes, now: Date(timeIntervalSince1970: 1_710_504_000))
            case .fitnotesBody:
                try Data(bytes).write(to: file)
                _ = try FitNotesBodyTracker.read(url: file, timeZone: utc)
            default:
                try Data(bytes).write(to: file)
                try blocking { try await readFile(file, utc) }
            }
        } catch {}
    }

    private func readFile(_ file: URL, _ utc: TimeZone) async throws {
        switch self {
        case .weights:
            _ = try await WeightFileReader(url: file, options: WeightImportOptions(unit: .kilograms, timeZone: utc)).read { _ in }
        case .fitbit:
            _ = try await WeightFileReader(url: file, format: .fitbit, options: WeightImportOptions(unit: .kilograms, timeZone: utc)).read { _ in }
        case .workouts:
            _ = try await WorkoutFileReader(url: file, options: WorkoutImportOptions(unit: .kilograms, timeZone: utc)).read { _ in }
        case .myfitnesspal, .myfitnesspalZip:
            _ = try await MyFitnessPalExport.read(url: file, options: .init(timeZone: utc, unit: .kilograms)) { _ in }
        case .nightscout:
            _ = try await NightscoutParser.read(url: file, timeZone: utc) { _ in }
        case .appleHealth, .appleHealthZip:
            _ = try await AppleHealthReader.read(url: file, batchSize: 1000) { _ in }
        case .usda:
            _ = try await USDAFoodReader(url: file).read { _ in }
        case .openFoodFacts, .openFoodFactsCSV:
            _ = try await OpenFoodFactsReader(url: file).read { _ in }
        case .nightscoutDocument, .foodJournal, .syncPush, .healthAutoExport, .nightscoutTreatments, .nightscoutDeviceStatus, .fitnotesBody:
            break
        }
    }
}

/// Runs async work to its end from libFuzzer's synchronous callback.
func blocking(_ work: @escaping @Sendable () async throws -> Void) throws {
    final class Outcome: @unchecked Sendable { var error: (any Error)? }
    let outcome = Outcome(), done = DispatchSemaphore(value: 0)
    Task.detached {
        do { try await work() } catch { outcome.error = error }
        done.signal()
    }
    done.wait()
    if let error = outcome.error { throw error }
}

let target: Target = {
    guard let name = ProcessInfo.processInfo.environment["CINN_FUZZ_TARGET"], let target = Target(rawValue: name) else {
        fatalError("set CINN_FUZZ_TARGET to one of: \(Target.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return target
}()

let folder: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    target.run(Array(UnsafeBufferPointer(start: start, count: count)), file: folder.appendingPathComponent(target.fileName))
    return 0
}
