import Foundation
import HummingbirdTesting
import Testing

@testable import CinnServer

/// Cinn installs as an app: the manifest a browser reads to offer "Install" (Chrome's installability criteria and the
/// W3C manifest's members), its icons checked by the sizes written in the PNG files themselves, its shortcuts leading
/// to pages, and every page linking the manifest and the iOS touch icon.
@Suite struct InstallableTests {
    /// A PNG's width and height, from its IHDR chunk (the signature, then the chunk's length and type, then the size).
    static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            Array(bytes[12..<16]) == Array("IHDR".utf8)
        else { return nil }
        func number(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    @Test func theManifestMakesAnInstallableApp() async throws {
        try await withApp { client, _ in
            let response = try await client.send(.get, "/static/manifest.webmanifest")
            #expect(response.status == .ok && response.headers[.contentType] == "application/manifest+json")
            let manifest = try response.json()
            #expect(manifest["name"]?.string?.isEmpty == false)
            let short = try #require(manifest["short_name"]?.string)
            #expect(!short.isEmpty && short.count <= 12, "a launcher shows about 12 characters")
            #expect(manifest["start_url"]?.string == "/" && manifest["scope"]?.string == "/" && manifest["id"]?.string == "/")
            #expect(manifest["display"]?.string == "standalone")
            for color in ["background_color", "theme_color"] {
                #expect(manifest[color]?.string?.wholeMatch(of: /#[0-9a-f]{6}/) != nil, "\(color)")
            }
            // Each icon is a PNG of the size it claims; Chrome asks for 192 and 512 px, Android's launchers for a maskable one.
            var sizes: [String: Set<Int>] = [:]
            for icon in try #require(manifest["icons"]?.array) {
                let source = try #require(icon["src"]?.string), claimed = try #require(icon["sizes"]?.string)
                #expect(icon["type"]?.string == "image/png")
                let file = try await client.send(.get, source)
                #expect(file.status == .ok && file.headers[.contentType] == "image/png", "\(source)")
                let size = try #require(Self.pngSize(Array(buffer: file.body)), "\(source) is a PNG")
                #expect("\(size.width)x\(size.height)" == claimed, "\(source) claims \(claimed)")
                sizes[icon["purpose"]?.string ?? "any", default: []].insert(size.width)
            }
            #expect(sizes["any"]?.isSuperset(of: [192, 512]) == true && sizes["maskable"]?.contains(512) == true)
            // The shortcuts open pages.
            let shortcuts = try #require(manifest["shortcuts"]?.array)
            #expect(shortcuts.compactMap { $0["name"]?.string } == ["Log a weight", "Add food", "Start a workout", "The glance"])
            for shortcut in shortcuts {
                let url = try #require(shortcut["url"]?.string)
                let path = String(url.prefix { $0 != "#" })
                #expect(try await client.send(.get, path).status == .ok, "\(url)")
            }
        }
    }

    @Test func everyPageLinksTheManifestAndTheTouchIcon() async throws {
        try await withApp { client, _ in
            for page in ["/", "/food", "/glucose", "/lifts", "/glance", "/settings", "/no-such-page"] {
                let html = try await client.send(.get, page).text
                #expect(html.contains(#"<link rel="manifest" href="/static/manifest.webmanifest?v="#), "\(page)")
                #expect(html.contains(#"<meta name="apple-mobile-web-app-capable" content="yes">"#), "\(page)")
                #expect(html.contains(##"<meta name="theme-color" content="#141413" media="(prefers-color-scheme: dark)">"##), "\(page)")
                let touch = try #require(html.firstMatch(of: /<link rel="apple-touch-icon" href="([^"]+)">/)?.1, "\(page)")
                let icon = try await client.send(.get, String(touch))
                #expect(Self.pngSize(Array(buffer: icon.body)).map { [$0.width, $0.height] } == [180, 180])
            }
        }
    }
}
