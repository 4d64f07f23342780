/// The one error type of Cinn: a code that callers switch on, a message a person can read,
/// and the input field it concerns, if any.
///
/// The server maps codes to HTTP statuses in one place; the CLI prints the message.
public struct CinnError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Input that is well-formed but not acceptable (422).
        public static let invalidInput = Code(rawValue: "invalid_input")
        /// A reading a person entered that looks like a typo (8.03 kg for 80.3, mmol/L typed as mg/dL); sent again
        /// with `confirm`, it is saved (422).
        public static let needsConfirmation = Code(rawValue: "needs_confirmation")
        /// A request body that cannot be parsed at all (400).
        public static let malformedRequest = Code(rawValue: "malformed_request")
        /// No such record for this user (404).
        public static let notFound = Code(rawValue: "not_found")
        /// The change conflicts with what is stored (409).
        public static let conflict = Code(rawValue: "conflict")
        /// Nobody is logged in (401).
        public static let unauthenticated = Code(rawValue: "unauthenticated")
        /// Logged in, but not allowed: a form without its CSRF token, an administrator's action (403).
        public static let forbidden = Code(rawValue: "forbidden")
        /// Too many attempts (failed log-ins) in a short time (429).
        public static let tooManyRequests = Code(rawValue: "too_many_requests")
        /// A request body larger than the server takes (413).
        public static let contentTooLarge = Code(rawValue: "content_too_large")
        /// A method the server does not answer, such as TRACE (405).
        public static let methodNotAllowed = Code(rawValue: "method_not_allowed")
        /// The server is too busy to take this now; try again shortly (503).
        public static let unavailable = Code(rawValue: "unavailable")
        /// A service Cinn relies on (Open Food Facts) could not be reached or answered nonsense (502).
        public static let upstreamFailed = Code(rawValue: "upstream_failed")
        /// Anything else (500).
        public static let `internal` = Code(rawValue: "internal")
    }

    public var code: Code
    public var message: String
    public var field: String?

    public init(_ code: Code, _ message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    public static func invalid(_ field: String, _ message: String) -> CinnError {
        CinnError(.invalidInput, message, field: field)
    }

    public static func notFound(_ message: String) -> CinnError {
        CinnError(.notFound, message)
    }

    public var description: String {
        if let field { return "\(message) (field: \(field))" }
        return message
    }
}
