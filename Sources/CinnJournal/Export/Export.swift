import CinnCore
import CinnStore
import Foundation

/// The file formats of `cinn export` and the export downloads.
public enum ExportFormat: String, Sendable, CaseIterable {
    case csv, json

    public var contentType: String { self == .csv ? "text/csv; charset=utf-8" : "application/json" }
}

extension Journal {
    /// Writes every weigh-in, oldest first, in pieces so memory stays flat. The CSV imports back
    /// into Cinn (or anywhere) as a generic weight CSV; the JSON also holds the goal and settings.
    public func export(format: ExportFormat, write: (String) async throws -> Void) async throws {
        let settings = try await settings()
        switch format {
        case .csv:
            try await write("date,weight,unit,note,source,id\n")
            try await store.forEachWeighIn(user: user) { batch in
                var text = ""
                for weighIn in batch {
                    text += "\(weighIn.localTimeISO),\(weighIn.weight.kilograms),kg,\(CSVField.escaped(weighIn.note ?? "")),"
                    text += "\(CSVField.escaped(weighIn.source)),\(weighIn.id.lowercasedString)\n"
                }
                try await write(text)
            }
        case .json:
            let goal = try await store.goal(user: user)
            var head = "{\"unit\":\"kg\",\"settings\":" + jsonString(SettingsDTO(settings))
            head += ",\"goal\":" + (goal.map { jsonString(GoalDTO($0, unit: .kilograms)) } ?? JSONText.null)
            try await write(head + ",\"weigh_ins\":[")
            var first = true
            try await store.forEachWeighIn(user: user) { batch in
                var text = ""
                for weighIn in batch {
                    text += (first ? "\n" : ",\n") + jsonString(WeighInDTO(weighIn, unit: .kilograms))
                    first = false
                }
                try await write(text)
            }
            try await write("\n]}\n")
        }
    }
}

package func jsonString(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? JSONText.null
}
