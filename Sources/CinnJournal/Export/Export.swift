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
            var head = try "{\"unit\":\"kg\",\"settings\":" + jsonString(SettingsDTO(settings))
            head +=
                try ",\"goal\":" + (goal.map { goal throws(CinnError) in try jsonString(GoalDTO(goal, unit: .kilograms)) } ?? JSONText.null)
            try await write(head + ",\"weigh_ins\":[")
            var first = true
            try await store.forEachWeighIn(user: user) { batch in
                var text = ""
                for weighIn in batch {
                    text += try (first ? "\n" : ",\n") + jsonString(WeighInDTO(weighIn, unit: .kilograms))
                    first = false
                }
                try await write(text)
            }
            try await write("\n]}\n")
        }
    }
}

/// `value` as JSON: the one encoder configuration of every answer and export. Keys are sorted and named as the
/// type's `CodingKeys` say (`measured_at`): a key strategy converting Swift names to snake_case would spare those
/// enums but made the API's answers up to 12 % slower (BENCHMARKS.md, "A typed HTTP edge"). An optional is left out
/// when nil unless it is `@Nullable` (written `null`, where the document promises the member). JSON has no infinity
/// and no NaN, and Foundation's encoder refuses them: a number that is not finite (a value stored before Cinn
/// checked it) is written as `null`.
package func jsonString(_ value: some Encodable, pretty: Bool = false) throws(CinnError) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: nonFinite, negativeInfinity: nonFinite, nan: nonFinite)
    let data: Data
    do {
        data = try encoder.encode(value)
    } catch {
        throw CinnError(.internal, "the answer could not be written as JSON: \(error)")
    }
    let text = String(decoding: data, as: UTF8.self)
    return text.contains(nonFiniteWritten) ? text.replacingOccurrences(of: nonFiniteWritten, with: JSONText.null) : text
}

/// A number in a CSV cell: empty when it is not finite (a value stored before Cinn checked it).
package func csvNumber(_ value: Double?) -> String {
    guard let value, value.isFinite else { return "" }
    return "\(value)"
}

/// What the encoder writes for a number that is not finite, replaced by `null`: a string no stored text holds (it
/// starts with a NUL, which no text that Cinn stores may hold).
private let nonFinite = "\u{0}cinn:not-finite"
private let nonFiniteWritten = #""\u0000cinn:not-finite""#

extension Journal {
    /// Writes every workout, oldest first, as CSV in the layout of Strong's export (its columns, `W`, `D` and `F`
    /// set orders, weights in kilograms, the local time without an offset), in pieces so memory stays flat. It
    /// imports back into Cinn, and into what reads Strong's files; RIR has no column there and is left out.
    public func exportWorkouts(write: (String) async throws -> Void) async throws {
        try await write(
            "Workout #,Date,Workout Name,Duration (sec),Exercise Name,Set Order,Weight (kg),Reps,RPE,Distance (meters),Seconds,Notes,Workout Notes\n"
        )
        var number = 0
        try await store.forEachWorkout(user: user) { batch in
            var text = ""
            for stored in batch {
                number += 1
                let workout = stored.workout
                let start = LocalDateTime(instant: workout.startedAt, utcOffsetSeconds: workout.utcOffsetSeconds)
                let seconds = Int(start.secondsOfDay) % 60
                let date = "\(workout.localDate.iso) \(start.clock):\(seconds < 10 ? "0" : "")\(seconds)"
                let head =
                    "\(number),\(date),\(CSVField.escaped(workout.name)),\(stored.durationSeconds?.roundedInt.map(String.init) ?? "")"
                var order: [String: Int] = [:]
                for set in workout.sets {
                    let setOrder: String
                    switch set.kind {
                    case .warmUp: setOrder = "W"
                    case .drop: setOrder = "D"
                    case .failure: setOrder = "F"
                    case .normal:
                        order[set.exercise, default: 0] += 1
                        setOrder = String(order[set.exercise] ?? 1)
                    }
                    func number(_ value: Double?) -> String { value.map { JSONText.compactNumber($0) } ?? "" }
                    text +=
                        "\(head),\(CSVField.escaped(set.exercise)),\(setOrder),\(number(set.weight?.kilograms)),\(set.reps.map(String.init) ?? ""),"
                    text +=
                        "\(number(set.rpe)),\(number(set.distanceMetres)),\(number(set.durationSeconds)),\(CSVField.escaped(set.note ?? "")),"
                    text += CSVField.escaped(stored.note ?? "") + "\n"
                }
            }
            try await write(text)
        }
    }
}

/// An optional member written as `null` when it has no value (a synthesized `Encodable` leaves a nil optional out).
@propertyWrapper
package struct Nullable<Value: Encodable>: Encodable {
    package var wrappedValue: Value?

    package init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension Nullable: Sendable where Value: Sendable {}
