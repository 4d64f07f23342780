import ArgumentParser
import CinnCore
import CinnJournal
import CinnStore
import Foundation

/// `cinn user`: the accounts of hosted mode (`cinn serve --accounts`), for whoever runs the server.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Accounts of hosted mode (cinn serve --accounts): add a user, list them, reset a password.",
        subcommands: [Add.self, List.self, ResetPassword.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a user. The password is asked for (or read from standard input when it is not a terminal).")

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "3 to 32 letters, digits, dots, dashes or underscores.")
        var name: String

        @Flag(help: "Make an administrator (manages invites and sees the list of users).")
        var admin = false

        func run() async throws {
            let password = try readPassword(prompt: "Password for \(name): ")
            let account = try await options.withJournal { journal in
                try await Accounts(of: journal).addUser(name: name, password: password, role: admin ? .admin : .member)
            }
            print("Added \(account.name) (\(account.role.rawValue)).")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the users who can log in.")

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let accounts = try await options.withJournal { journal in try await journal.accounts().filter(\.hasPassword) }
            if accounts.isEmpty {
                print("No users yet: add one with cinn user add NAME --admin.")
                return
            }
            for account in accounts {
                print("\(account.name)\t\(account.role.rawValue)\tsince \(account.createdAt.formatted(date: .abbreviated, time: .omitted))")
            }
        }
    }

    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password",
            abstract: "Set a user's password; their web sessions end, and their API tokens are revoked unless --keep-tokens.")

        @OptionGroup var options: DatabaseOptions

        @Argument var name: String

        @Flag(help: "Leave the user's API tokens (apps, scripts, sync) working.")
        var keepTokens = false

        func run() async throws {
            let password = try readPassword(prompt: "New password for \(name): ")
            try await options.withJournal { journal in
                try await Accounts(of: journal).resetPassword(name: name, password: password, revokingTokens: !keepTokens)
            }
            print(
                "Changed \(name.lowercased())'s password; their web sessions ended"
                    + (keepTokens ? "." : " and their API tokens were revoked."))
        }
    }
}

/// A password from the terminal without echo, or the first line of standard input when it is not a terminal.
func readPassword(prompt: String) throws -> String {
    if isatty(STDIN_FILENO) != 0, let typed = getpass(prompt) {
        return String(cString: typed)
    }
    guard let line = readLine(strippingNewline: true), !line.isEmpty else {
        throw CommandError.from(CinnError.invalid("password", "no password on standard input"))
    }
    return line
}

extension AccountsConfiguration.SignUp: ExpressibleByArgument {}
