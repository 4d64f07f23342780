import CinnJournal
import CinnServer
import CinnStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("OpenAPI document")
struct OpenAPITests {
    struct Operation: Hashable, CustomStringConvertible {
        let method: String
        let path: String
        var description: String { "\(method) \(path)" }
    }

    /// The operations under `paths:`: paths at two spaces of indent, methods at four.
    static func documentedOperations(_ yaml: String) -> Set<Operation> {
        Set(operationLines(yaml).map(\.0))
    }

    /// Each operation's lines (from its method to the next method or path), by operation.
    static func operationLines(_ yaml: String) -> [(Operation, [Substring])] {
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]
        var result: [(Operation, [Substring])] = []
        var inPaths = false, inOperation = false
        var path: String?
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" "), !line.isEmpty {
                inPaths = line == "paths:"
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                path = String(line.dropFirst(2).dropLast())
                inOperation = false
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), let path {
                let key = String(line.dropFirst(4).prefix { $0 != ":" })
                inOperation = methods.contains(key)
                if inOperation { result.append((Operation(method: key.uppercased(), path: path), [])) }
            } else if line.hasPrefix("      "), inOperation {
                result[result.count - 1].1.append(line)
            }
        }
        return result
    }

    @Test("every status the server gives is documented: bodies 400/413/422, query parameters 422, hosted-only routes 404")
    func errorStatusesAreDocumented() async throws {
        let yaml = try await withApp(returning: String.self) { client, _ in try await client.send(.get, "/api/openapi.yaml").text }
        for (operation, lines) in Self.operationLines(yaml) {
            let statuses = Set(
                lines.compactMap { line -> String? in
                    guard line.hasPrefix("        \""), !line.hasPrefix("         ") else { return nil }
                    return String(line.dropFirst(9).prefix(3))
                })
            if lines.contains(where: { $0.hasPrefix("      requestBody:") }) {
                #expect(statuses.isSuperset(of: ["400", "413", "422"]), "\(operation) takes a body: \(statuses.sorted())")
            }
            if lines.contains(where: { $0.contains("in: query") || $0.contains("#/components/parameters/") }) {
                #expect(statuses.contains("422"), "\(operation) reads query parameters: \(statuses.sorted())")
            }
            if ["/api/v1/login", "/api/v1/account", "/api/v1/tokens", "/api/v1/tokens/{id}"].contains(operation.path) {
                #expect(statuses.contains("404"), "\(operation) is hosted mode's only")
            }
        }
    }

    @Test func servedAsYAML() async throws {
        try await withApp { client, _ in
            let response = try await client.send(.get, "/api/openapi.yaml")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/yaml") == true)
            #expect(response.text.hasPrefix("openapi: 3.1"))
        }
    }

    @Test func everySyncedTypeIsDocumentedWithItsFields() async throws {
        try await withApp { client, _ in
            let yaml = try await client.send(.get, "/api/openapi.yaml").text
            let schema = try #require(yaml.range(of: "    SyncType:\n"))
            let list = try #require(yaml.range(of: "enum: [", range: schema.upperBound..<yaml.endIndex))
            let listed = yaml[list.upperBound...].prefix { $0 != "]" }
            #expect(listed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } == Store.syncTypeNames)
        }
        let page = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../docs/sync.md").standardized, encoding: .utf8)
        for type in Store.syncTypeNames {
            let row = try #require(
                page.split(separator: "\n").first { $0.hasPrefix("| `\(type)` |") }, "docs/sync.md has no row for \(type)")
            for field in Store.syncFieldNames(of: type) { #expect(row.contains(field), "docs/sync.md: \(type) lacks \(field)") }
        }
    }

    @Test func pathsMatchTheRouter() async throws {
        try await withStore { store in
            // Hosted mode routes everything single-user mode does, and its account routes.
            let router = buildRouter(journal: try await utcJournal(store), accounts: Accounts(store: store))
            let yaml = try await Application(router: router).test(.router) { client in
                try await client.send(.get, "/api/openapi.yaml").text
            }
            let documented = Self.documentedOperations(yaml)
            // HEAD answers every GET as GET does (RFC 9110): the router makes those routes; the document lists the GETs.
            let all = Set(
                router.routes.filter { $0.method != .head }.map { Operation(method: $0.method.rawValue, path: $0.path.description) })
            // The Nightscout API's paths without `.json` are its aliases, documented with the `.json` ones.
            let routed = all.filter { operation in
                operation.path.hasPrefix("/api/v1")
                    || operation.path.hasPrefix("/nightscout/")
                        && !all.contains(Operation(method: operation.method, path: operation.path + ".json"))
            }
            #expect(documented.count >= 16)
            #expect(documented.subtracting(routed).isEmpty, "documented but not routed: \(documented.subtracting(routed))")
            #expect(routed.subtracting(documented).isEmpty, "routed but not documented: \(routed.subtracting(documented))")
        }
    }

    @Test func parserReadsPathsAndMethods() {
        let yaml = """
            openapi: 3.1.0
            paths:
              /api/v1/a:
                get:
                  summary: x
                parameters:
                  - {name: id}
              /api/v1/a/{id}:
                delete:
                  responses:
                    "204": {description: gone}
            components:
              schemas:
                get:
                  type: object
            """
        #expect(
            Self.documentedOperations(yaml) == [
                Operation(method: "GET", path: "/api/v1/a"),
                Operation(method: "DELETE", path: "/api/v1/a/{id}"),
            ])
    }
}
