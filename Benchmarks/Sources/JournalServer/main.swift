// Serves a journal with the app `cinn serve` runs (the same `buildApplication`), for wrk, without
// building `cinn` itself:
//
//     JournalServer --database journal.sqlite [--port 0] [--host 127.0.0.1]
//
// Prints `Listening on http://HOST:PORT` once bound; stops on SIGTERM or SIGINT.
import CinnJournal
import CinnServer
import CinnStore
import Foundation

var database: String?
var host = "127.0.0.1"
var port = 0

var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    let value = arguments.next() ?? ""
    switch argument {
    case "--database": database = value
    case "--host": host = value
    case "--port": port = Int(value) ?? port
    default:
        FileHandle.standardError.write(Data("JournalServer: unknown option \(argument)\n".utf8))
        exit(64)
    }
}
guard let database else {
    FileHandle.standardError.write(Data("JournalServer: --database PATH is required\n".utf8))
    exit(64)
}

let store = try Store(DatabaseLocation(database))
try await store.migrate()
let journal = try await Journal.local(store: store)
let configuration = ServerConfiguration(host: host, port: port) { boundHost, boundPort in
    FileHandle.standardOutput.write(Data("Listening on http://\(boundHost):\(boundPort)\n".utf8))
}
try await buildApplication(journal: journal, configuration: configuration).runService()
try await store.close()
