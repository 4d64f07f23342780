/// What the benchmark tools share: timing, percentiles, JSON output and `--name value` options.

import Foundation

/// Nearest-rank percentile of an ascending array.
public func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1)]
}

public func milliseconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
}

/// CPU time of the whole process so far, in ms (every thread: the caller's and SQLite's).
public func cpuMilliseconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1e6
}

/// The process's peak resident set so far, in MB (`ru_maxrss`, as `/usr/bin/time -v` reports it).
public func peakResidentMB() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

public func printJSON(_ object: [String: Any]) {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

public func fail(_ message: String) -> Never {
    let tool = URL(fileURLWithPath: CommandLine.arguments.first ?? "bench").lastPathComponent
    FileHandle.standardError.write(Data("\(tool): \(message)\n".utf8))
    exit(64)
}

public func rounded(_ value: Double, _ places: Double = 3) -> Double {
    let scale = pow(10, places)
    return (value * scale).rounded() / scale
}

/// The command line's `--name value` options and `--json`.
public struct Options: Sendable {
    public var values: [String: String] = [:]
    public var json = false

    public init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            guard argument.hasPrefix("--") else { fail("unexpected argument \(argument)") }
            if argument == "--json" { json = true; continue }
            guard let value = iterator.next() else { fail("\(argument) needs a value") }
            values[String(argument.dropFirst(2))] = value
        }
    }

    public subscript(name: String) -> String? { values[name] }

    public var database: String {
        guard let path = values["database"] else { fail("--database PATH is required") }
        return path
    }

    public func int(_ name: String, _ fallback: Int) -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text) else { fail("--\(name) must be a whole number") }
        return value
    }
}

/// One timed case: its wall and CPU times per call.
public final class Case {
    public let name: String
    public let label: String
    let body: () async throws -> Int
    var times: [Double] = []
    var cpu: [Double] = []
    /// The sum of what the calls returned, so that the work cannot be optimised away.
    public private(set) var check = 0

    public init(_ name: String, _ label: String, _ body: @escaping () async throws -> Int) {
        self.name = name
        self.label = label
        self.body = body
    }

    func run(record: Bool) async throws {
        let cpuStart = cpuMilliseconds()
        let start = ContinuousClock.now
        let result = try await body()
        let elapsed = milliseconds(since: start)
        let cpuElapsed = cpuMilliseconds() - cpuStart
        check &+= result
        guard record else { return }
        times.append(elapsed)
        cpu.append(cpuElapsed)
    }

    public var summary: [String: Any] {
        let sortedTimes = times.sorted(), sortedCPU = cpu.sorted()
        return ["name": name, "label": label, "calls": times.count,
                "p50_ms": rounded(percentile(sortedTimes, 50), 4), "p99_ms": rounded(percentile(sortedTimes, 99), 4),
                "mean_ms": rounded(times.reduce(0, +) / Double(times.count), 4), "max_ms": rounded(sortedTimes.last!, 4),
                "cpu_p50_ms": rounded(percentile(sortedCPU, 50), 4)]
    }
}

/// Runs every case once per round, in a rotating order so that every case sees the same load, after
/// `warmup` unrecorded rounds; returns the seconds it took.
public func runInterleaved(_ cases: [Case], warmup: Int, iterations: Int) async throws -> Double {
    let start = ContinuousClock.now
    for round in 0..<(warmup + iterations) {
        for offset in 0..<cases.count {
            try await cases[(round + offset) % cases.count].run(record: round >= warmup)
        }
    }
    return milliseconds(since: start) / 1000
}
