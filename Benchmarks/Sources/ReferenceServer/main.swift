// The load test's reference: the least a Hummingbird 2 server can do for a request — answer a
// constant JSON body of a given size, built once — so that `wrk` against it shows what the
// machine, the HTTP stack and the load generator cost, and `cinn serve` can be compared with it.
//
//     ReferenceServer --port 0 --size 52000
//
// Prints `Listening on http://HOST:PORT` once bound; answers `GET /api/v1/trend` (any query);
// stops on SIGTERM or SIGINT.
import Foundation
import Hummingbird
import Logging

var host = "127.0.0.1"
var port = 0
var size = 50_000

var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    let value = arguments.next() ?? ""
    switch argument {
    case "--host": host = value
    case "--port": port = Int(value) ?? port
    case "--size": size = Int(value) ?? size
    default:
        FileHandle.standardError.write(Data("ReferenceServer: unknown option \(argument)\n".utf8))
        exit(64)
    }
}

// `{"unit":"kg","pad":"xxx…"}`, exactly `size` bytes.
let prefix = #"{"unit":"kg","pad":""#
let suffix = #""}"#
let padding = max(0, size - prefix.utf8.count - suffix.utf8.count)
let body = ByteBuffer(string: prefix + String(repeating: "x", count: padding) + suffix)

let boundHost = host, requestedPort = port
var logger = Logger(label: "reference")
logger.logLevel = .notice
let router = Router()
router.get("api/v1/trend") { _, _ in
    Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
             body: ResponseBody(byteBuffer: body))
}
let app = Application(
    router: router,
    configuration: .init(address: .hostname(boundHost, port: requestedPort), serverName: "reference"),
    onServerRunning: { channel in
        let address = channel.localAddress
        FileHandle.standardOutput.write(Data("Listening on http://\(address?.ipAddress ?? boundHost):\(address?.port ?? requestedPort)\n".utf8))
    },
    logger: logger)
try await app.runService()
