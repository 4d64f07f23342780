import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`. Foundation's `Process.run()` on Linux (Swift 6.3) over-reads
/// `/proc/self/fd` entries before it spawns and now and then crashed the whole test run with SIGSEGV
/// (swiftlang/swift-corelibs-foundation#5472); the tests start `cinn` with this instead.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    private let reaped = Mutex<Int32?>(nil)

    /// Starts `executable` in `directory`, standard input from `input` (else /dev/null), standard output and
    /// error appended to the files `output` and `errors`.
    init(
        _ executable: String, _ arguments: [String], environment: [String: String], directory: String,
        input: String? = nil, output: String, errors: String
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        // Nothing else of the test process (its sockets, its databases) goes to the child, which starts in `directory`.
        guard let closeFrom = Self.closeFrom, let changeDirectory = Self.changeDirectory else {
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "this C library cannot spawn in a directory"])
        }
        _ = closeFrom(&actions, 3)
        _ = changeDirectory(&actions, directory)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard status == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "posix_spawn \(executable): \(status)"])
        }
        self.pid = pid
    }

    // glibc's (2.29 and 2.34) `_np` file actions, which Swift's Glibc module does not show.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let closeFrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: CloseFrom.self) }
    private static let changeDirectory = dlsym(nil, "posix_spawn_file_actions_addchdir_np").map {
        unsafeBitCast($0, to: ChangeDirectory.self)
    }

    /// Waits for the child on a thread of its own and gives its exit status (128 + the signal if one ended it).
    func exitStatus() async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { [self] in continuation.resume(returning: reap(blocking: true) ?? -1) }
        }
    }

    var isRunning: Bool { reap(blocking: false) == nil }

    /// Asks the child to stop (SIGTERM).
    func terminate() {
        if isRunning { _ = Glibc.kill(pid, SIGTERM) }
    }

    func kill() {
        if isRunning { _ = Glibc.kill(pid, SIGKILL) }
    }

    /// The exit status once the child has ended (reaped once, remembered after).
    private func reap(blocking: Bool) -> Int32? {
        if let status = reaped.withLock({ $0 }) { return status }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, blocking ? 0 : WNOHANG) == pid else { return reaped.withLock { $0 } }
        let status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        reaped.withLock { $0 = status }
        return status
    }

    deinit {
        kill()
        _ = reap(blocking: true)
    }
}
