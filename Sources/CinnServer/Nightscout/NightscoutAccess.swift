import CinnCore
import CinnJournal
import CinnStore
import Foundation
import HTTPTypes
import Hummingbird

/// Who may use the Nightscout API, proved as Nightscout clients prove it (docs/nightscout.md): the `api-secret` header
/// holding the SHA-1 hex of the secret (or `token=SECRET`), or `?token=SECRET`.
/// - Single-user mode: the secret set with `--api-secret` (`CINN_API_SECRET`), Nightscout's API_SECRET; without
///   one, only a server listening on loopback answers, to anyone who can reach it.
/// - Hosted mode: the secret is one of the person's API tokens (also as `Authorization: Bearer`, or its SHA-1 hex in
///   the header), so each uploader writes to its owner's journal. An uploader's token only sends (and reads the
///   status), a follower's only reads.
struct NightscoutAccessMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// Single-user mode's secret.
    let secret: String?
    /// Single-user mode on loopback: no secret needed when none is set.
    let openOnLoopback: Bool
    let accounts: Accounts?
    let journal: @Sendable (UserID) -> Journal

    static let secretHeader = HTTPField.Name("api-secret")!

    /// What the request offers: the header's SHA-1 hex (or its `token=`), and the query's token.
    static func offered(_ request: Request) -> (hash: String?, token: String?) {
        var hash = request.headers[secretHeader]?.trimmingCharacters(in: .whitespaces)
        var token = request.uri.queryParameters["token"].map(String.init)
        if let header = hash, header.hasPrefix("token=") {
            token = token ?? String(header.dropFirst(6))
            hash = nil
        }
        return (hash?.lowercased(), token)
    }

    /// Refuses what a Nightscout client's token may not do: an uploader's reads beyond the status, a follower's writes.
    static func check(_ scope: APITokenScope, _ request: Request) throws {
        let reads = [.get, .head].contains(request.method)
        switch scope {
        case .all: return
        case .nightscoutFollow where reads: return
        case .nightscoutUpload where !reads || request.uri.path.hasSuffix("/status.json") || request.uri.path.hasSuffix("/status"): return
        case .nightscoutFollow: throw CinnError(.forbidden, "this token is a Nightscout follower's: it reads, it does not send")
        case .nightscoutUpload: throw CinnError(.forbidden, "this token is a Nightscout uploader's: it sends, it does not read")
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let (hash, token) = Self.offered(request)
        var context = context
        if let accounts {
            let bearer = request.headers[.authorization].flatMap { $0.lowercased().hasPrefix("bearer ") ? String($0.dropFirst(7)) : nil }
            let found =
                if let token = token ?? bearer?.trimmingCharacters(in: .whitespaces) {
                    try await accounts.tokenAccount(secret: token)
                } else if let hash {
                    try await accounts.tokenAccount(secretSHA1: hash)
                } else {
                    nil as (account: Account, scope: APITokenScope)?
                }
            guard let found else {
                throw CinnError(.unauthenticated, "send one of your API tokens as ?token=, or its SHA-1 hex in the api-secret header")
            }
            try Self.check(found.scope, request)
            context.identity = RequestIdentity(journal: journal(found.account.user), account: RequestAccount(account: found.account))
            return try await next(request, context)
        }
        if let secret {
            guard
                hash.map({ constantTimeEqual($0, Accounts.sha1Hex(secret)) }) == true
                    || token.map({ constantTimeEqual($0, secret) }) == true
            else {
                throw CinnError(.unauthenticated, "send the API secret: the api-secret header (its SHA-1 hex) or ?token=")
            }
        } else if !openOnLoopback {
            throw CinnError(
                .unauthenticated, "this server listens beyond loopback: start it with --api-secret to let Nightscout clients in")
        }
        return try await next(request, context)
    }
}
