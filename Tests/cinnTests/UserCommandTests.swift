import Foundation
import Testing

@Suite("cinn user")
struct UserCommandTests {
    @Test func addListAndResetPassword() async throws {
        let sandbox = try Sandbox()
        let none = try await sandbox.cinn("user", "list")
        #expect(none.status == 0)
        #expect(none.stdout.contains("No users yet"))

        let added = try await sandbox.cinn(input: "a long password\n", "user", "add", "Alice", "--admin")
        #expect(added.status == 0, "\(added)")
        #expect(added.stdout == "Added alice (admin).\n")
        #expect(try await sandbox.cinn(input: "another password\n", "user", "add", "bob").status == 0)
        let list = try await sandbox.cinn("user", "list")
        #expect(list.lines.map { $0.split(separator: "\t").prefix(2).joined(separator: " ") } == ["alice admin", "bob member"])

        let taken = try await sandbox.cinn(input: "a long password\n", "user", "add", "ALICE")
        #expect(taken.status == badInput)
        #expect(taken.stderr.contains("the name alice is taken"))
        let short = try await sandbox.cinn(input: "short\n", "user", "add", "carol")
        #expect(short.status == badInput)
        #expect(short.stderr.contains("at least 10 characters"))
        let nothing = try await sandbox.cinn("user", "add", "carol")
        #expect(nothing.status == badInput)
        #expect(nothing.stderr.contains("no password on standard input"))
        let badName = try await sandbox.cinn(input: "a long password\n", "user", "add", "a b")
        #expect(badName.status == badInput)
        #expect(badName.stderr.contains("letters a–z"))

        let reset = try await sandbox.cinn(input: "a newer password\n", "user", "reset-password", "Bob")
        #expect(reset.status == 0, "\(reset)")
        #expect(reset.stdout == "Changed bob's password; their web sessions ended and their API tokens were revoked.\n")
        let kept = try await sandbox.cinn(input: "the newest password\n", "user", "reset-password", "bob", "--keep-tokens")
        #expect(kept.stdout == "Changed bob's password; their web sessions ended.\n", "\(kept)")
        let unknown = try await sandbox.cinn(input: "a newer password\n", "user", "reset-password", "nobody")
        #expect(unknown.status == badInput)
        #expect(unknown.stderr.contains("no user named nobody"))
    }
}
