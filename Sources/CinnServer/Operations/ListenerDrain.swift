import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The first step of a graceful stop: no request a proxy has handed over is lost when the listener closes.
///
/// Closing a listening socket resets every connection the kernel has completed but the server has not yet accepted,
/// and a server that stops closes the connections that have not yet sent a request. A proxy that connected just
/// before an instance stopped sees its request reset after sending it, and does not retry a POST it may have
/// delivered. So, on Linux, before the server stops, this service makes the kernel drop new connection requests
/// (a SYN without ACK) on the listener, and waits `pause` while the server accepts and reads what is already queued.
/// A dropped SYN is sent again by the client a second later, when the listener is closed: the connection is refused,
/// which a proxy retries on another instance. Run it after the server in the service group: graceful shutdown goes
/// in reverse order, so this step finishes before the server starts stopping.
public final class ListenerDrain: Service, Sendable {
    private let listener = Mutex<(any Channel)?>(nil)
    private let pause: Duration
    private let logger: Logger

    public init(pause: Duration = .milliseconds(500), logger: Logger) {
        self.pause = pause
        self.logger = logger
    }

    /// The server's listening channel, once it is bound (`ServerConfiguration.drain`).
    func listening(on channel: any Channel) {
        listener.withLock { $0 = channel }
    }

    public func run() async throws {
        try await gracefulShutdown()
        guard let channel = listener.withLock({ $0 }) else { return }
        do {
            try await Self.refuseNewConnections(channel)
        } catch {
            logger.warning("could not hold new connections back while stopping: \(error)")
            return
        }
        logger.notice("stopping: new connections are held back while the queued ones are taken")
        try await Task.sleep(for: pause)
    }

    /// One classic BPF instruction (`struct sock_filter`).
    struct Instruction {
        var code: UInt16
        var jumpIfTrue: UInt8
        var jumpIfFalse: UInt8
        var constant: UInt32
    }

    /// `struct sock_fprog`: the program's length and where it is (the kernel copies it during the call).
    struct Program: @unchecked Sendable {
        var length: UInt16
        var instructions: UnsafeMutablePointer<Instruction>
    }

    /// Drops a TCP segment whose flags are SYN without ACK, keeps every other. A socket filter on a TCP socket sees the
    /// segment from its TCP header, whose 14th byte holds the flags (RFC 9293, 3.1).
    static let dropNewConnections: [Instruction] = [
        Instruction(code: 0x30, jumpIfTrue: 0, jumpIfFalse: 0, constant: 13),  // ldb [13]
        Instruction(code: 0x54, jumpIfTrue: 0, jumpIfFalse: 0, constant: 0x12),  // and #(SYN | ACK)
        Instruction(code: 0x15, jumpIfTrue: 0, jumpIfFalse: 1, constant: 0x02),  // jeq #SYN, drop, keep
        Instruction(code: 0x06, jumpIfTrue: 0, jumpIfFalse: 0, constant: 0),  // drop: ret #0
        Instruction(code: 0x06, jumpIfTrue: 0, jumpIfFalse: 0, constant: UInt32.max),  // keep: ret #-1
    ]

    /// Attaches `dropNewConnections` to a listening socket (SO_ATTACH_FILTER); does nothing off Linux.
    static func refuseNewConnections(_ channel: any Channel) async throws {
        #if os(Linux)
            guard let socket = channel as? any SocketOptionProvider else { return }
            let instructions = UnsafeMutablePointer<Instruction>.allocate(capacity: dropNewConnections.count)
            instructions.initialize(from: dropNewConnections, count: dropNewConnections.count)
            defer { instructions.deallocate() }
            try await socket.unsafeSetSocketOption(
                level: .init(rawValue: SOL_SOCKET), name: .init(rawValue: SO_ATTACH_FILTER),
                value: Program(length: UInt16(dropNewConnections.count), instructions: instructions)
            ).get()
        #endif
    }
}
