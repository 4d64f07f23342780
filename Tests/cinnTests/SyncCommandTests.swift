import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("cinn sync")
struct SyncCommandTests {
    @Test(.timeLimit(.minutes(2)))
    func twoJournalsConvergeThroughAHostedServer() async throws {
        let sandbox = try Sandbox()
        let serverFile = sandbox.folder.appendingPathComponent("server.sqlite").path
        let phone = sandbox.folder.appendingPathComponent("phone.sqlite").path
        #expect(try await sandbox.run(["user", "add", "alice", "--database", serverFile], input: "a long password\n").status == 0)
        let server = try RunningServer(sandbox, ["serve", "--accounts", "--port", "0", "--database", serverFile])
        let port = try await server.port()
        let url = "http://127.0.0.1:\(try #require(port))"
        var login = URLRequest(url: URL(string: url + "/api/v1/login")!)
        login.httpMethod = "POST"
        login.setValue("application/json", forHTTPHeaderField: "Content-Type")
        login.httpBody = Data(#"{"name":"alice","password":"a long password","token_name":"laptop"}"#.utf8)
        let (body, _) = try await URLSession.shared.data(for: login)
        let token = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])["token"] as? String
        let secret = try #require(token)

        #expect(try await sandbox.cinn("weight", "add", "80.4", "--unit", "kg", "--date", "2025-11-20").status == 0)
        let first = try await sandbox.cinn("sync", "--server", url, "--token", secret)
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.hasPrefix("Pushed 1 changes (1 applied"))
        let other = try await sandbox.run(["sync", "--server", url, "--token", secret, "--database", phone])
        #expect(other.stdout.contains("pulled 1"), "\(other)")
        let list = try await sandbox.run(["weight", "list", "--database", phone])
        #expect(list.stdout.contains("80.4"), "\(list)")

        let refused = try await sandbox.cinn("sync", "--server", url, "--token", "cinn_wrong")
        #expect(refused.status != 0 && refused.stderr.contains("refused the token"), "\(refused)")
        var withToken = sandbox.environment(database: sandbox.database)
        withToken["CINN_SYNC_TOKEN"] = secret
        let fromEnvironment = try await sandbox.run(["sync", "--server", url], environment: withToken)
        #expect(fromEnvironment.status == 0 && fromEnvironment.stdout.hasPrefix("Pushed 0 changes"), "\(fromEnvironment)")
        #expect(!fromEnvironment.stdout.contains(secret) && !fromEnvironment.stderr.contains(secret))
        let missing = try await sandbox.run(["sync", "--server", url], environment: sandbox.environment(database: sandbox.database))
        #expect(missing.status != 0 && missing.stderr.contains("CINN_SYNC_TOKEN"), "\(missing)")
        let badAddress = try await sandbox.cinn("sync", "--server", "cinn.example.org", "--token", secret)
        #expect(badAddress.status != 0 && badAddress.stderr.contains("--server"), "\(badAddress)")
        server.process.terminate()
    }
}
