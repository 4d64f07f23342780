import ArgumentParser
import CinnCore
import CinnJournal
import CinnServer
import CinnStore
import Configuration
import Foundation
import Hummingbird
import Logging
import NIOCore

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the web app and JSON API.")

    @OptionGroup var options: DatabaseOptions

    @Option(help: "Address to listen on (default: $CINN_HOST, else 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on, 0 picks a free one (default: $CINN_PORT, else 8080).")
    var port: Int?

    @Flag(help: "Fill an empty journal with 18 months of realistic demo data.")
    var demo = false

    @Flag(help: "Hosted mode: people log in, each to their own journal (add the first with `cinn user add NAME --admin`, or use --signup open).")
    var accounts = false

    @Option(help: "With --accounts, who may make an account on the sign-up page: open (the first is an administrator), invite (with an administrator's invite) or closed.")
    var signup: AccountsConfiguration.SignUp = .invite

    @Flag(help: "With --accounts, send the session cookie over HTTPS only (behind a TLS proxy).")
    var secureCookies = false

    @Option(help: "The address people reach this server by, behind a proxy (https://cinn.example.org): invite links use it, and browsers' requests naming it are this site's.")
    var publicURL: String?

    @Option(name: .customLong("allowed-host"), help: "Without --accounts on loopback, another host name this server answers to besides localhost and 127.0.0.1 (repeatable).")
    var allowedHosts: [String] = []

    @Option(name: .customLong("trusted-proxy"), help: "With --accounts, the address of a reverse proxy whose X-Forwarded-For names the client (repeatable; default: 127.0.0.1 and ::1).")
    var trustedProxies: [String] = []

    @Option(help: "Without --accounts, the secret Nightscout uploaders and followers send (their API_SECRET, at least 12 characters; default: $CINN_API_SECRET). Needed for /nightscout when listening beyond loopback.")
    var apiSecret: String?

    @Option(help: "Where unknown barcodes are looked up: an Open Food Facts server, or \"none\" (default: $CINN_OFF_URL, else https://world.openfoodfacts.org).")
    var offURL: String?

    @Option(help: "Where the web app's uploads wait between their check and their import (default: $CINN_UPLOAD_DIR, else the system's temporary directory). Servers sharing one database need one directory they all reach.")
    var uploadDir: String?

    @Option(help: "What the server logs (to standard error): trace, debug, info (and a line for every request: method, path, status, milliseconds), notice, warning, error or critical (default: $CINN_LOG_LEVEL, else notice). \"Listening on\" is printed at every level.")
    var logLevel: String?

    func run() async throws {
        var flags: [AbsoluteConfigKey: ConfigValue] = [:]
        if let host { flags["cinn.host"] = .init(.string(host), isSecret: false) }
        if let port { flags["cinn.port"] = .init(.int(port), isSecret: false) }
        if let logLevel { flags["cinn.log.level"] = .init(.string(logLevel), isSecret: false) }
        if let apiSecret { flags["cinn.api.secret"] = .init(.string(apiSecret), isSecret: true) }
        if let uploadDir { flags["cinn.upload.dir"] = .init(.string(uploadDir), isSecret: false) }
        let config = configReader(flags: flags)
        let apiSecret = config.string(forKey: "cinn.api.secret", isSecret: true)
        if let apiSecret, apiSecret.count < 12 {
            throw CommandError.from(CinnError.invalid("api-secret", "--api-secret needs at least 12 characters, as Nightscout's API_SECRET does"))
        }
        let uploadDirectory = config.string(forKey: "cinn.upload.dir").map { URL(fileURLWithPath: $0, isDirectory: true) }
        let host = config.string(forKey: "cinn.host", default: "127.0.0.1")
        let port = config.int(forKey: "cinn.port", default: 8080)
        let levelName = config.string(forKey: "cinn.log.level", default: "notice")
        guard let level = Logger.Level(rawValue: levelName.lowercased()) else {
            throw CommandError.from(CinnError.invalid(
                "log-level", "--log-level must be trace, debug, info, notice, warning, error or critical, not \"\(levelName)\""))
        }
        if !accounts, !["127.0.0.1", "::1", "localhost"].contains(host) {
            printError("warning: without --accounts anyone who can reach \(host) can read and change this journal")
        }
        var logger = Logger(label: "cinn")
        logger.logLevel = level
        let openFoodFacts = try openFoodFactsClient(offURL)
        let publicURL = try publicURL.map { text in
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw CommandError.from(CinnError.invalid("public-url", "--public-url must be an http or https address such as https://cinn.example.org"))
            }
            return url
        }
        try await options.withJournal { journal in
            var journal = journal
            journal.openFoodFacts = openFoodFacts
            if demo, try await journal.fillWithDemoData() {
                FileHandle.standardOutput.write(Data("Filled the journal with demo data.\n".utf8))
            }
            let hosted = accounts
                ? Accounts(store: journal.store, configuration: AccountsConfiguration(
                    signUp: signup, secureCookies: secureCookies,
                    trustedProxies: trustedProxies.isEmpty ? AccountsConfiguration.loopbackProxies : Set(trustedProxies)))
                : nil
            if let hosted, signup != .open, try await hosted.store.loginAccountCount() == 0 {
                printError("note: nobody can log in yet: add an administrator with cinn user add NAME --admin")
            }
            let app = buildApplication(
                journal: journal,
                accounts: hosted,
                configuration: ServerConfiguration(host: host, port: port,
                                                   security: WebSecurity(publicURL: publicURL, allowedHosts: allowedHosts, apiSecret: apiSecret),
                                                   uploadDirectory: uploadDirectory) { host, port in
                    FileHandle.standardOutput.write(Data("Listening on http://\(host):\(port)\n".utf8))
                },
                logger: logger)
            do {
                try await app.runService()
            } catch let error as IOError where error.errnoCode == EADDRINUSE {
                throw CinnError.invalid("port", "\(host):\(port) is already in use; choose another with --port (0 picks a free one)")
            }
        }
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations and install the built-in foods.")

    @OptionGroup var options: DatabaseOptions

    func run() async throws {
        var logger = Logger(label: "cinn.store")
        logger.logLevel = .critical
        let store = try Store(options.location, logger: logger)
        do {
            let applied = try await store.migrate()
            print(applied.isEmpty ? "The database is up to date." : "Applied migrations \(applied.map(String.init).joined(separator: ", ")).")
            if let install = try await store.installBuiltInFoods() {
                print("Installed the built-in foods: \(install.added) added, \(install.updated) updated, \(install.removed) removed.")
            }
            try await store.close()
        } catch {
            try? await store.close()
            throw CommandError.from(error)
        }
    }
}
