import CinnCore
import Crypto
import Foundation
import Hummingbird

/// A secret made by a form (a new API token, an invite link) carried to the page the browser is sent to next, so that
/// reloading that page makes nothing twice (post, redirect, get). It travels in a cookie of its own, for the account
/// page only and for two minutes, sealed (AES-GCM) with a key drawn from the session's own secret: it reads back only
/// in the session that made it, another site can neither read nor forge it, and the page that shows it clears it.
enum ShownOnce {
    static let cookieName = "cinn_shown"
    static let path = "/account"
    static let lifetime = 120

    /// What is shown: its label and the secret.
    struct Secret: Codable, Equatable {
        let label: String
        let value: String
    }

    static func key(session: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(session.utf8)), info: Data("cinn secret shown once".utf8),
            outputByteCount: 32)
    }

    /// The cookie's value: `secret` sealed for `session`.
    static func seal(_ secret: Secret, session: String) throws -> String {
        let sealed = try AES.GCM.seal(try JSONEncoder().encode(secret), using: key(session: session))
        guard let combined = sealed.combined else { throw CinnError(.internal, "could not seal the secret") }
        return combined.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The secret `value` holds for `session`; nil when it is not one this session sealed.
    static func open(_ value: String, session: String) -> Secret? {
        var base64 = value.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard value.count <= 4096, let data = Data(base64Encoded: base64), let box = try? AES.GCM.SealedBox(combined: data),
            let plain = try? AES.GCM.open(box, using: key(session: session))
        else { return nil }
        return try? JSONDecoder().decode(Secret.self, from: plain)
    }

    static func cookie(_ value: String, secure: Bool) -> Cookie {
        Cookie(
            name: cookieName, value: value, maxAge: value.isEmpty ? 0 : lifetime, path: path, secure: secure, httpOnly: true,
            sameSite: .strict)
    }
}
