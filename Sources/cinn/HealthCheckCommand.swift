import ArgumentParser
import AsyncHTTPClient
import CinnCore
import CinnSync
import Foundation
import NIOCore

/// `cinn health-check`: asks a running server's `/ready`, for a container's health check (the image carries no curl).
struct HealthCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health-check",
        abstract: "Ask the server on this machine whether it is ready: exit 0 when /ready answers ready, 1 otherwise.",
        discussion: "The container image's HEALTHCHECK. It asks the port of CINN_PORT (else 8080) on loopback, or --url.")

    @Option(help: "The address to ask (default: http://127.0.0.1:$CINN_PORT/ready, else port 8080).")
    var url: String?

    @Option(help: "Seconds to wait for the answer.")
    var timeout: Int64 = 5

    func run() async throws {
        let port = try Settings(reader: configReader(flags: [:])).number("cinn.port", option: "port", in: 1...65_535, default: 8080)
        let address = url ?? "http://127.0.0.1:\(port)/ready"
        guard (1...300).contains(timeout) else {
            throw CommandError.from(CinnError.invalid("timeout", "--timeout must be from 1 to 300 seconds"))
        }
        let status: UInt, body: String
        do {
            let response = try await OutgoingHTTP.client.execute(HTTPClientRequest(url: address), timeout: .seconds(timeout))
            status = response.status.code
            body = String(buffer: try await response.body.collect(upTo: 64 << 10))
        } catch {
            printError("not ready: \(address): \(OutgoingHTTP.reason(error))")
            throw ExitCode.failure
        }
        guard status == 200 else {
            printError("not ready: \(address) answered HTTP \(status): \(body.prefix(500))")
            throw ExitCode.failure
        }
        print(body.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
