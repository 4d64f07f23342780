import ArgumentParser
import CinnCore
import CinnStore
import CinnSync
import Configuration
import Foundation

/// `cinn sync`: this journal (a local SQLite file) as an offline-first client of a hosted Cinn.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync this journal with a hosted Cinn: push the changes made here, pull the ones made elsewhere.",
        discussion: """
            Make a token on the server's Account page (or POST /api/v1/login), then run
            cinn sync --server https://cinn.example.org --token cinn_… . The first sync sends every record of
            this journal; later ones only what changed. Changes the server rejects are listed with the reason
            and kept here; they are not sent again until you change them. The token can also come from
            CINN_SYNC_TOKEN.
            """)

    @OptionGroup var options: DatabaseOptions

    @Option(help: "The server's address, e.g. https://cinn.example.org.")
    var server: String

    @Option(help: "An API token of your account on the server (default: CINN_SYNC_TOKEN).")
    var token: String?

    /// `--token`, else `CINN_SYNC_TOKEN`, read as a secret (never printed or logged).
    var secret: String? {
        var flags: [AbsoluteConfigKey: ConfigValue] = [:]
        if let token { flags["cinn.sync.token"] = ConfigValue(.string(token), isSecret: true) }
        return configReader(flags: flags).string(forKey: "cinn.sync.token", isSecret: true)
    }

    func validate() throws {
        guard let url = URL(string: server), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ValidationError("--server must be an http or https address, like https://cinn.example.org")
        }
        guard secret != nil else {
            throw ValidationError("give a token with --token or CINN_SYNC_TOKEN")
        }
    }

    func run() async throws {
        let url = URL(string: server)!
        let secret = self.secret ?? ""
        let (summary, rejected) = try await options.withJournal { journal in
            do {
                let summary = try await journal.sync(server: url.absoluteString, transport: HTTPSyncTransport(server: url, token: secret))
                return (summary, try await journal.rejectedSyncChanges())
            } catch let error as SyncTransportError {
                throw CinnError(.upstreamFailed, error.message + "; nothing is lost: the changes made here are sent next time")
            }
        }
        print(
            "Pushed \(summary.pushed) changes (\(summary.applied) applied, \(summary.merged) merged with newer ones, "
                + "\(summary.rejected) rejected); pulled \(summary.pulled).")
        for change in rejected {
            print(
                "Rejected \(change.type) \(change.id.lowercasedString): \(change.reason)"
                    + (change.field.map { " (field: \($0))" } ?? ""))
        }
    }
}
