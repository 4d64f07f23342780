import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CinnServer

/// The templates, style sheets and scripts embedded in the binary, and how the static files are cached.
@Suite struct TextResourceTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/CinnServer")

    /// The files under `Sources/CinnServer` whose names end in `suffix`, by name without it.
    static func files(endingIn suffix: String) throws -> [String: URL] {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(suffix) }
        return Dictionary(
            uniqueKeysWithValues: paths.map { path in
                (String(path.split(separator: "/").last!.dropLast(suffix.count)), sources.appendingPathComponent(path))
            })
    }

    @Test("every template parses, and every partial it names is a template")
    func templatesParse() throws {
        #expect(Templates.all.count > 40)
        for (name, text) in Templates.all {
            #expect(throws: Never.self, "\(name)") { try PageTemplate(text) }
            for match in text.matches(of: /\{\{>\s*([^\s}]+)\s*\}\}/) {
                #expect(Templates.all[String(match.1)] != nil, "\(name) names the partial \(match.1), which is no template")
            }
        }
    }

    @Test("every form that posts writes the CSRF token right after its opening tag; an upload also in its action")
    func everyPostFormCarriesTheToken() throws {
        var forms = 0
        for (name, text) in Templates.all {
            for match in text.matches(of: /<form\b[^>]*>(.{0,10})/) where match.0.contains(#"method="post""#) {
                forms += 1
                #expect(match.1 == "{{> csrf}}", "a form of \(name) posts without the token")
                if match.0.contains("multipart/form-data") {
                    #expect(match.0.contains("_csrf={{.}}"), "an upload of \(name) has no token in its action")
                }
            }
        }
        #expect(forms >= 70)
        let page = PageRenderer.shared.body("login", LoginProbe(), formToken: "abc_123")
        #expect(page.contains(#"<input type="hidden" name="_csrf" value="abc_123">"#))
        #expect(!PageRenderer.shared.body("login", LoginProbe(), formToken: nil).contains("_csrf"))
    }

    struct LoginProbe {
        let name = "", next = "/", error: String? = nil, passwords = true
    }

    @Test("every .mustache file is a template of its name, with its text; every template is a file or a static address")
    func everyTemplateFileIsRegistered() throws {
        let files = try Self.files(endingIn: ".mustache")
        for (name, url) in files {
            var text = try String(contentsOf: url, encoding: .utf8)
            if text.hasSuffix("\n") { text.removeLast() }
            #expect(Templates.all[name] == text, "\(url.lastPathComponent) is not the template \(name)")
        }
        let addresses = Set(StaticAssets.all.keys.map { "/static/" + $0 })
        #expect(Set(Templates.all.keys).subtracting(files.keys) == addresses)
    }

    @Test("the style sheet holds every .css file, and every .js file is served")
    func everyStyleAndScriptIsServed() throws {
        for (name, url) in try Self.files(endingIn: ".css") {
            #expect(StaticAssets.styleSheet.contains(try String(contentsOf: url, encoding: .utf8).dropLast()), "\(name).css")
        }
        for (name, url) in try Self.files(endingIn: ".js") {
            let source = try String(contentsOf: url, encoding: .utf8)
            if name == "sw" {
                // The service worker, at /sw.js, with this binary's version and stored files filled in.
                let served = String(buffer: StaticAssets.serviceWorker.body)
                let filled = source.replacing(/'__VERSION__'|__PRECACHE__/) { _ in "" }
                #expect(!served.contains("__VERSION__") && !served.contains("__PRECACHE__") && served.count > filled.count)
                #expect(served.contains(String(source.suffix(200)).trimmingCharacters(in: .whitespacesAndNewlines)), "sw.js")
                continue
            }
            let served = try #require(StaticAssets.all[name + ".js"], "\(name).js")
            #expect(served.body == ByteBuffer(data: try Data(contentsOf: url)), "\(name).js")
        }
    }

    @Test("the layout links the style sheet by its version: cached for a year; plain addresses are checked again, 304 when current")
    func staticFilesAreCached() async throws {
        try await withApp { client, _ in
            let page = try await client.send(.get, "/").text
            let version = try #require(StaticAssets.all["cinn.css"]?.version)
            #expect(version.count == 16)
            #expect(page.contains(#"<link rel="stylesheet" href="/static/cinn.css?v=\#(version)">"#))

            let sheet = try await client.send(.get, "/static/cinn.css?v=" + version)
            #expect(sheet.status == .ok)
            #expect(sheet.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(sheet.headers[.contentType] == "text/css; charset=utf-8")
            #expect(sheet.headers[.eTag] == "\"\(version)\"")
            #expect(sheet.text == StaticAssets.styleSheet)

            for uri in ["/static/cinn.css", "/static/cinn.css?v=0123456789abcdef", "/static/progress.js"] {
                let response = try await client.send(.get, uri)
                #expect(response.status == .ok, "\(uri)")
                #expect(response.headers[.cacheControl] == "no-cache", "\(uri)")
                #expect(response.headers[.eTag]?.hasPrefix("\"") == true, "\(uri)")
            }

            let tag = try #require(sheet.headers[.eTag])
            for ifNoneMatch in [tag, "W/\(tag)", "\"other\", \(tag)", "*"] {
                let response = try await client.execute(
                    uri: "/static/cinn.css?v=" + version, method: .get,
                    headers: [.ifNoneMatch: ifNoneMatch], body: nil)
                #expect(response.status == .notModified, "\(ifNoneMatch)")
                #expect(response.body.readableBytes == 0, "\(ifNoneMatch)")
                #expect(response.headers[.eTag] == tag, "\(ifNoneMatch)")
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable", "\(ifNoneMatch)")
                #expect(response.headers[.contentSecurityPolicy] != nil, "\(ifNoneMatch)")
            }
            let changed = try await client.execute(
                uri: "/static/cinn.css", method: .get, headers: [.ifNoneMatch: "\"0123456789abcdef\""], body: nil)
            #expect(changed.status == .ok)
            #expect(changed.text == StaticAssets.styleSheet)
            #expect(try await client.send(.get, "/static/nothing.css").status == .notFound)
        }
    }
}
