import CinnCore
import Foundation

/// Fitbit's legacy `weight-*.json` (docs/FORMATS.md §5.1): logs with a local MM/DD/YY date and HH:MM:SS time, no unit.
struct FitbitParser {
    let unit: MassUnit
    let timeZone: TimeZone

    /// The weight logs of a document, each with its line: the array itself, or the `weight` array of a Fitbit API answer.
    static func entries(of document: [UInt8]) throws(CinnError) -> [(line: Int, value: JSONValue)] {
        let entries: [(line: Int, value: JSONValue)]?
        do throws(JSONSyntaxError) {
            entries = try JSONParser.records(document, member: "weight")
        } catch {
            throw error.fileError
        }
        guard let entries else { throw .invalid("file", "a Fitbit weight file holds a JSON array of weight logs") }
        return entries
    }

    func parse(_ entry: JSONValue, line: Int, into output: inout ReadingOutput) {
        guard case .object(let members) = entry else {
            return output.reject(line: line, field: "entry", reason: "a weight log must be a JSON object")
        }
        guard let logID = members["logId"]?.integer else {
            return output.reject(line: line, field: "logId", reason: "the logId is missing or not a whole number")
        }
        guard let dateText = members["date"]?.string else {
            return output.reject(line: line, field: "date", reason: "the date is missing")
        }
        guard let date = Self.date(dateText) else {
            return output.reject(line: line, field: "date", reason: "\"\(dateText)\" is not a date; Fitbit writes MM/DD/YY")
        }
        var secondsOfDay = 12 * 3600
        if let timeValue = members["time"] {
            guard let timeText = timeValue.string, let seconds = ReadingTime.secondsOfDay(timeText) else {
                return output.reject(line: line, field: "time", reason: "the time is not HH:MM:SS")
            }
            secondsOfDay = seconds
        }
        guard let value = members["weight"]?.number else {
            return output.reject(line: line, field: "weight", reason: "the weight is missing or not a number")
        }
        let weight: Mass
        do {
            weight = try Mass.bodyWeight(value, unit)
        } catch {
            return output.reject(line: line, error)
        }
        let (instant, offset) = LocalDateTime(date: date, secondsOfDay: Double(secondsOfDay)).resolved(in: timeZone)
        output.add(
            ImportedWeighIn(
                measuredAt: instant, utcOffsetSeconds: offset, weight: weight, externalID: "fitbit:\(logID)", line: line))
    }

    /// `MM/DD/YY` (20YY) or `MM/DD/YYYY`.
    private static func date(_ text: String) -> LocalDate? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].count == 2 || parts[2].count == 4,
            parts.allSatisfy({ (1...4).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let month = Int(parts[0]), let day = Int(parts[1]), let year = Int(parts[2])
        else { return nil }
        return LocalDate(year: parts[2].count == 2 ? 2000 + year : year, month: month, day: day)
    }
}
