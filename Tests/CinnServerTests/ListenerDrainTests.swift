import CinnJournal
import Foundation
import Logging
import ServiceLifecycle
import Testing

@testable import CinnServer

#if canImport(Glibc)
    import Glibc
#endif

/// Stopping loses no request a proxy handed over: the last connections before a SIGTERM are served, and the next ones
/// are held back (then refused once the listener closes), which a proxy retries elsewhere.
@Suite struct ListenerDrainTests {
    @Test func theProgramHasTheKernelsLayout() {
        #expect(MemoryLayout<ListenerDrain.Instruction>.size == 8)
        #expect(MemoryLayout<ListenerDrain.Instruction>.offset(of: \.constant) == 4)
        #expect(MemoryLayout<ListenerDrain.Program>.size == 16)
        #expect(MemoryLayout<ListenerDrain.Program>.offset(of: \.instructions) == 8)
    }

    #if os(Linux)
        @Test func aConnectionMadeBeforeTheStopIsServedAndANewOneWaits() async throws {
            try await withStore { store in
                let journal = try await utcJournal(store)
                var logger = Logger(label: "cinn.test-server")
                logger.logLevel = .critical
                let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
                let lines = LogLines()
                let drain = ListenerDrain(pause: .seconds(2), logger: lines.logger(.logfmt))
                let app = buildApplication(
                    journal: journal,
                    configuration: ServerConfiguration(host: "127.0.0.1", port: 0, drain: drain) { _, port in continuation.yield(port) },
                    logger: logger)
                let group = ServiceGroup(configuration: .init(services: [app, drain], logger: logger))
                let running = Task { try await group.run() }
                var iterator = ports.makeAsyncIterator()
                let port = try #require(await iterator.next())

                // Connected, its request not sent yet: the server has accepted it and sees no request in progress.
                let early = try TCPClient(port: port, blocking: true)
                try await Task.sleep(for: .milliseconds(100))
                await group.triggerGracefulShutdown()
                for _ in 0..<100 where !lines.all.contains(where: { $0.contains("held back") }) {
                    try await Task.sleep(for: .milliseconds(100))
                }

                let late = try TCPClient(port: port, blocking: false)
                #expect(!late.connects(within: .milliseconds(400)), "a connection made while stopping is held back")

                try early.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let answer = try early.receive()
                #expect(answer.hasPrefix("HTTP/1.1 200"), "the early connection's request is served: \(answer)")
                try await running.value
            }
        }
    #endif
}

#if os(Linux)
    /// A plain TCP connection to a loopback port.
    private final class TCPClient {
        let socket: Int32

        init(port: Int, blocking: Bool) throws {
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            if !blocking { _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard result == 0 || (!blocking && errno == EINPROGRESS) else {
                close(socket)
                throw POSIXError(.init(rawValue: errno) ?? .EIO)
            }
        }

        deinit { close(socket) }

        /// Whether a non-blocking connect completes (either way) within `time`.
        func connects(within time: Duration) -> Bool {
            var poller = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
            return poll(&poller, 1, Int32(time.components.seconds * 1000 + time.components.attoseconds / 1_000_000_000_000_000)) > 0
        }

        func send(_ text: String) throws {
            let bytes = Array(text.utf8)
            guard Glibc.send(socket, bytes, bytes.count, 0) == bytes.count else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        }

        /// What the server sends until its first blank line (the status line and headers), or until it closes.
        func receive() throws -> String {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
                let count = recv(socket, &buffer, buffer.count, 0)
                if count == 0 { break }
                guard count > 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
                received += buffer[..<count]
            }
            return String(decoding: received, as: UTF8.self)
        }
    }
#endif
