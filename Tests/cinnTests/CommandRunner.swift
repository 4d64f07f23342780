import Foundation
import Testing

/// What one run of `cinn` did.
struct CommandResult: CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String

    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
}

/// The built `cinn` executable: next to the test binary, or in the package's `.build/debug`.
/// `CINN_BINARY` overrides.
let cinnExecutable: URL? = {
    let manager = FileManager.default
    var candidates: [URL] = []
    if let path = ProcessInfo.processInfo.environment["CINN_BINARY"] { candidates.append(URL(fileURLWithPath: path)) }
    candidates.append(Bundle.main.bundleURL.appendingPathComponent("cinn"))
    if let executable = Bundle.main.executableURL {
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent("cinn"))
    }
    candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("cinn"))
    // macOS: …/debug/cinnPackageTests.xctest/Contents/MacOS/cinnPackageTests
    for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
        candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("cinn"))
    }
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while folder.path != "/" {
        if manager.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            candidates.append(folder.appendingPathComponent(".build/debug/cinn"))
            break
        }
        folder.deleteLastPathComponent()
    }
    return candidates.first { url in
        var isDirectory: ObjCBool = false
        return manager.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && manager.isExecutableFile(atPath: url.path)
    }
}()

/// A temporary folder holding one SQLite journal, and a way to run `cinn` against it.
final class Sandbox: Sendable {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cinn-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    var database: String { folder.appendingPathComponent("cinn.sqlite").path }

    /// The process environment for `cinn`: UTC, and no `CINN_DATABASE` unless given.
    func environment(database: String? = nil) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["CINN_DATABASE"] = database
        environment["TZ"] = "UTC"
        return environment
    }

    /// Writes a file into the sandbox and returns its path.
    func write(_ text: String, to name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Runs `cinn ARGUMENTS --database <this sandbox's file>` and waits for it.
    @discardableResult
    func cinn(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) async throws -> CommandResult {
        try await run(arguments + ["--database", database], sourceLocation: sourceLocation)
    }

    /// Runs `cinn ARGUMENTS --database <this sandbox's file>` with `input` on standard input.
    @discardableResult
    func cinn(input: String, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) async throws -> CommandResult {
        try await run(arguments + ["--database", database], input: input, sourceLocation: sourceLocation)
    }

    /// Runs `cinn` with exactly these arguments (and `input` on standard input, else nothing).
    func run(
        _ arguments: [String], environment: [String: String]? = nil, input: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> CommandResult {
        let executable = try #require(cinnExecutable, "the cinn executable was not found; build it first", sourceLocation: sourceLocation)
        let id = UUID().uuidString
        let stdoutURL = folder.appendingPathComponent("\(id).out")
        let stderrURL = folder.appendingPathComponent("\(id).err")
        defer {
            try? FileManager.default.removeItem(at: stdoutURL)
            try? FileManager.default.removeItem(at: stderrURL)
        }
        let process = try ChildProcess(
            executable.path, arguments, environment: environment ?? self.environment(), directory: folder.path,
            input: try input.map { try write($0, to: "\(id).in") }, output: stdoutURL.path, errors: stderrURL.path)
        let status = await process.exitStatus()
        return CommandResult(
            status: status, stdout: try String(contentsOf: stdoutURL, encoding: .utf8),
            stderr: try String(contentsOf: stderrURL, encoding: .utf8))
    }
}

/// A `cinn serve` running in the background, its output in a file, killed when this goes away.
final class RunningServer {
    let process: ChildProcess
    let output: URL

    /// Starts `cinn ARGUMENTS` (a `serve` with `--port 0`) in `sandbox`, with `settings` added to its environment.
    init(_ sandbox: Sandbox, _ arguments: [String], settings: [String: String] = [:]) throws {
        output = sandbox.folder.appendingPathComponent("serve-\(UUID().uuidString).out")
        process = try ChildProcess(
            try #require(cinnExecutable).path, arguments, environment: sandbox.environment().merging(settings) { $1 },
            directory: sandbox.folder.path, output: output.path, errors: output.path)
    }

    var text: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// The port from "Listening on http://127.0.0.1:PORT", once it is printed (within two minutes: a new journal installs
    /// the built-in foods first); nil if the server stopped first.
    func port() async throws -> Int? {
        for _ in 0..<1200 {
            if let match = text.firstMatch(of: /Listening on http:\/\/127\.0\.0\.1:(\d+)\n/) { return Int(match.1) }
            guard process.isRunning else { return nil }
            try await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }
}

/// `ExitCode.validationFailure`: bad input.
let badInput: Int32 = 64

/// Any JSON value, decoded so that tests can check exact shapes, explicit nulls included.
enum JSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    static func parse(_ text: String) throws -> JSON { try JSONDecoder().decode(JSON.self, from: Data(text.utf8)) }

    subscript(key: String) -> JSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    var keys: Set<String> {
        if case .object(let object) = self { return Set(object.keys) }
        return []
    }

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var double: Double? { if case .number(let value) = self { value } else { nil } }
    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    var array: [JSON]? { if case .array(let value) = self { value } else { nil } }
}

/// True when two numbers agree to within `tolerance`.
func close(_ value: Double?, _ expected: Double, tolerance: Double = 1e-9) -> Bool {
    guard let value else { return false }
    return abs(value - expected) <= tolerance
}
