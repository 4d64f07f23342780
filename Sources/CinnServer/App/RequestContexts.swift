import CinnCore
import CinnJournal
import Hummingbird
import NIOCore

/// Who is asking: their journal, and in hosted mode their account. Set by the middleware that knows
/// (`LocalJournalMiddleware` in single-user mode, `AccountsMiddleware` in hosted mode).
struct RequestIdentity: Sendable {
    let journal: Journal
    /// The logged-in account and how it proved itself; nil in single-user mode.
    let account: RequestAccount?
}

/// The request context of every route: Hummingbird's, plus the client's address (log-in throttling), who is
/// asking once the middleware has said so, and the browser's own CSRF token (`BrowserToken`).
/// Routes that belong to someone take a child context made from it (`JournalRequestContext`,
/// `AccountRequestContext`), which cannot be made without an identity: no handler can reach a journal other
/// than the asker's, nor run without one.
public struct AppRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    var identity: RequestIdentity?
    var browserToken: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// A context pages are rendered in: it knows the CSRF token their forms carry (`PageRenderer`).
protocol PageRequestContext: RequestContext {
    /// A logged-in session's token, else the browser's own (`BrowserToken`); nil for clients without cookies.
    var formToken: String? { get }
    /// The logged-in account's name in hosted mode, which pages name for the phone app's queue (docs/phone-app.md).
    var accountName: String? { get }
}

extension AppRequestContext: PageRequestContext {
    var formToken: String? { identity?.account?.csrfToken ?? browserToken }
    var accountName: String? { identity?.account?.account.name }
}

/// The context of the routes of someone's journal: every feature's pages and API.
struct JournalRequestContext: ChildRequestContext, PageRequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    let journal: Journal
    /// The logged-in account in hosted mode; nil in single-user mode.
    let account: RequestAccount?
    let formToken: String?

    init(context: AppRequestContext) throws {
        guard let identity = context.identity else { throw CinnError(.unauthenticated, "log in first") }
        coreContext = context.coreContext
        remoteAddress = context.remoteAddress
        journal = identity.journal
        account = identity.account
        formToken = context.formToken
    }

    var accountName: String? { account?.account.name }
}

/// The context of hosted mode's account routes (the account page, log-out, API tokens, invites): a logged-in account.
struct AccountRequestContext: ChildRequestContext, PageRequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    let journal: Journal
    let account: RequestAccount
    let formToken: String?

    init(context: AppRequestContext) throws {
        guard let identity = context.identity, let account = identity.account else { throw CinnError(.unauthenticated, "log in first") }
        coreContext = context.coreContext
        remoteAddress = context.remoteAddress
        journal = identity.journal
        self.account = account
        formToken = context.formToken
    }

    var accountName: String? { account.account.name }
}
