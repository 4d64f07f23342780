@testable import CinnServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Mustache
import Testing

/// The templates, style sheets and scripts embedded in the binary.
@Suite struct TextResourceTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/CinnServer")

    /// The files under `Sources/CinnServer` whose names end in `suffix`, by name without it.
    static func files(endingIn suffix: String) throws -> [String: URL] {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(suffix) }
        return Dictionary(uniqueKeysWithValues: paths.map { path in
            (String(path.split(separator: "/").last!.dropLast(suffix.count)), sources.appendingPathComponent(path))
        })
    }

    @Test("every template parses, and every partial it names is a template")
    func templatesParse() throws {
        #expect(Templates.all.count > 40)
        for (name, text) in Templates.all {
            #expect(throws: Never.self, "\(name)") { try MustacheTemplate(string: text) }
            for match in text.matches(of: /\{\{>\s*([^\s}]+)\s*\}\}/) {
                #expect(Templates.all[String(match.1)] != nil, "\(name) names the partial \(match.1), which is no template")
            }
        }
    }

    @Test("every .mustache file is a template of its name, with its text, and every template is a file")
    func everyTemplateFileIsRegistered() throws {
        let files = try Self.files(endingIn: ".mustache")
        for (name, url) in files {
            var text = try String(contentsOf: url, encoding: .utf8)
            if text.hasSuffix("\n") { text.removeLast() }
            #expect(Templates.all[name] == text, "\(url.lastPathComponent) is not the template \(name)")
        }
        #expect(Set(Templates.all.keys) == Set(files.keys))
    }

    @Test("the style sheet holds every .css file, and every .js file is served")
    func everyStyleAndScriptIsServed() throws {
        for (name, url) in try Self.files(endingIn: ".css") {
            #expect(StaticAssets.styleSheet.contains(try String(contentsOf: url, encoding: .utf8).dropLast()), "\(name).css")
        }
        for (name, url) in try Self.files(endingIn: ".js") {
            let served = try #require(StaticAssets.all[name + ".js"], "\(name).js")
            #expect(served.body == ByteBuffer(data: try Data(contentsOf: url)), "\(name).js")
        }
    }
}
