import CinnCore
import Foundation
import Testing

@testable import CinnStore

@Suite struct AccountStoreTests {
    /// A stand-in for a SHA-256 digest: the text, padded to 32 bytes.
    static func digest(_ text: String) -> [UInt8] { Array(text.utf8) + Array(repeating: 0, count: 32 - text.utf8.count) }

    @Test(arguments: Backend.enabled)
    func accountsSessionsTokensAndInvites(_ backend: Backend) async throws {
        let clock = Clock()
        try await TestDatabase.with(backend, now: { clock.now }) { store in
            let local = try await store.localUser()
            let alice = try await store.createAccount(name: "alice", passwordHash: "hash-a", role: .admin)
            #expect(alice.role == .admin && alice.hasPassword)
            await #expect(throws: CinnError(.conflict, "the name alice is taken", field: "name")) {
                _ = try await store.createAccount(name: "alice", passwordHash: "hash-b", role: .member)
            }
            #expect(try await store.loginAccountCount() == 1, "the local user cannot log in")
            #expect(try await store.account(user: local)?.hasPassword == false)
            #expect(try await store.accountForLogIn(named: "alice")?.passwordHash == "hash-a")

            // Sessions end at their time, and with a new password (but the one that set it).
            try await store.createSession(tokenSHA256: Self.digest("s1"), user: alice.user, csrfToken: "c1", expiresAt: clock.now + 3600)
            try await store.createSession(tokenSHA256: Self.digest("s2"), user: alice.user, csrfToken: "c2", expiresAt: clock.now + 60)
            #expect(try await store.session(tokenSHA256: Self.digest("s1"))?.csrfToken == "c1")
            clock.now += 120
            #expect(try await store.session(tokenSHA256: Self.digest("s2")) == nil, "expired")
            try await store.createSession(tokenSHA256: Self.digest("s3"), user: alice.user, csrfToken: "c3", expiresAt: clock.now + 3600)
            try await store.setPasswordHash("hash-new", user: alice.user, keeping: Self.digest("s3"))
            #expect(try await store.session(tokenSHA256: Self.digest("s1")) == nil)
            #expect(try await store.session(tokenSHA256: Self.digest("s3")) != nil)
            try await store.deleteSession(tokenSHA256: Self.digest("s3"))
            #expect(try await store.session(tokenSHA256: Self.digest("s3")) == nil)

            // Tokens: revoked ones stop working; another user's cannot be revoked.
            let bob = try await store.createAccount(name: "bob", passwordHash: "hash-b", role: .member)
            let token = try await store.createAPIToken(
                name: "phone", tokenSHA256: Self.digest("t1"), secretSHA1: "0000000000000000000000000000000000000001", user: alice.user)
            #expect(try await store.apiTokenUser(tokenSHA256: Self.digest("t1")) == alice.user)
            #expect(try await store.apiTokens(user: alice.user).first?.lastUsedAt != nil)
            await #expect(throws: CinnError.self) { try await store.revokeAPIToken(id: token.id, user: bob.user) }
            #expect(try await store.apiTokenUser(tokenSHA256: Self.digest("t1")) == alice.user)
            try await store.revokeAPIToken(id: token.id, user: alice.user)
            #expect(try await store.apiTokenUser(tokenSHA256: Self.digest("t1")) == nil)
            #expect(try await store.apiTokens(user: bob.user).isEmpty)

            // Invites: used once, not after they expire, and a failed sign-up makes nothing.
            try await store.createInvite(codeSHA256: Self.digest("i1"), by: alice.user, expiresAt: clock.now + 86_400)
            try await store.createInvite(codeSHA256: Self.digest("i2"), by: alice.user, expiresAt: clock.now + 60)
            _ = try await store.createAccount(name: "carol", passwordHash: "h", role: .member, inviteSHA256: Self.digest("i1"))
            await #expect(throws: CinnError.self) {
                _ = try await store.createAccount(name: "dave", passwordHash: "h", role: .member, inviteSHA256: Self.digest("i1"))
            }
            clock.now += 120
            await #expect(throws: CinnError.self) {
                _ = try await store.createAccount(name: "dave", passwordHash: "h", role: .member, inviteSHA256: Self.digest("i2"))
            }
            #expect(try await store.accountForLogIn(named: "dave") == nil)
            #expect(try await store.accounts().map(\.name) == ["alice", "bob", "carol", "local"])
        }
    }
}

/// A clock the test moves.
final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var value = Date(timeIntervalSince1970: 1_710_504_000)
    var now: Date {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
