import CinnCore
import Foundation

/// An entry as Nightscout writes one: a sensor reading (`sgv`, with its direction, trend and delta) or a meter one
/// (`mbg`), in mg/dL, with Nightscout's own (camelCase) names. The answers are written by `json(_:)`, a measured hot
/// path; encoding this shape is what that must write, which a test holds it to.
package struct NightscoutEntryDTO: Encodable, Equatable {
    let _id: String
    let type: String
    let sgv: Int?
    let mbg: Int?
    let date: Int64
    let dateString: String
    let sysTime: String
    /// Minutes east of UTC.
    let utcOffset: Int
    let device: String?
    let direction: String?
    let trend: Int?
    /// Always a number on a sensor reading: followers (py-nightscout among them) read it without checking; 0 when
    /// unknown.
    let delta: Double?

    package init(_ entry: NightscoutEntry) {
        let reading = entry.reading
        let value = reading.glucose.milligramsPerDeciliter.roundedInt
        let date = Self.dateString(reading.measuredAt)
        let direction = reading.sensor ? entry.direction ?? GlucoseDirection.none : nil
        _id = Self.id(reading)
        type = reading.sensor ? "sgv" : "mbg"
        sgv = reading.sensor ? value : nil
        mbg = reading.sensor ? nil : value
        self.date = reading.measuredAt.millisecondsSince1970
        dateString = date
        sysTime = date
        utcOffset = reading.utcOffsetSeconds / 60
        device = reading.device
        self.direction = direction?.rawValue
        trend = direction?.trend
        // To a tenth, and a change that rounds to nothing is 0, not -0.
        let delta = ((entry.deltaMilligramsPerDeciliter ?? 0) * 10).rounded() / 10
        self.delta = reading.sensor ? (delta == 0 ? 0 : delta) : nil
    }

    /// `entries` as a JSON array of this shape, written by hand from the entries with `JSONText`: followers poll it
    /// every minute, often for a day of readings, and encoding the DTOs made that answer 10–12 % slower
    /// (BENCHMARKS.md, "A typed HTTP edge"). Members come in the order Cinn has always written them; a test holds the
    /// two to the same JSON.
    package static func json(_ entries: [NightscoutEntry]) -> String {
        var text = "["
        text.reserveCapacity(2 + entries.count * 230)
        for (index, entry) in entries.enumerated() {
            let reading = entry.reading, type = reading.sensor ? "sgv" : "mbg"
            let date = dateString(reading.measuredAt)
            if index > 0 { text += "," }
            text += "{\"_id\":\"" + id(reading) + "\",\"type\":\"" + type + "\""
            if let value = reading.glucose.milligramsPerDeciliter.roundedInt { text += ",\"\(type)\":\(value)" }
            text += ",\"date\":\(reading.measuredAt.millisecondsSince1970),\"dateString\":\"" + date + "\",\"sysTime\":\"" + date + "\""
            text += ",\"utcOffset\":\(reading.utcOffsetSeconds / 60)"
            if let device = reading.device {
                text += ",\"device\":"
                JSONText.appendQuoted(device, to: &text)
            }
            if reading.sensor {
                let direction = entry.direction ?? .none
                text += ",\"direction\":\"" + direction.rawValue + "\",\"trend\":\(direction.trend)"
                let delta = ((entry.deltaMilligramsPerDeciliter ?? 0) * 10).rounded() / 10
                text += ",\"delta\":" + JSONText.compactNumber(delta == 0 ? 0 : delta)
            }
            text += "}"
        }
        return text + "]"
    }

    /// ISO 8601 in UTC with milliseconds, as Nightscout writes `dateString`.
    package static func dateString(_ date: Date) -> String {
        let total = date.millisecondsSince1970
        let seconds = total >= 0 ? total / 1000 : (total - 999) / 1000
        let time = LocalDateTime(instant: Date(timeIntervalSince1970: Double(seconds)), utcOffsetSeconds: 0)
        let second = time.secondsOfDay.roundedInt ?? 0
        return time.date.iso
            + String(format: "T%02d:%02d:%02d.%03dZ", second / 3600, second / 60 % 60, second % 60, Int(total - seconds * 1000))
    }

    /// A record's `_id`: the uploader's when it sent one (a 24-digit object id), else the first 12 bytes of Cinn's
    /// UUIDv7 (its time first, as an object id's is).
    static func id(_ reading: GlucoseReading) -> String {
        if let external = reading.externalID, external.hasPrefix("nightscout:") {
            let id = external.dropFirst("nightscout:".count).prefix { $0 != ":" }
            if id.count == 24, id.allSatisfy(\.isHexDigit) { return String(id) }
        }
        return reading.id.nightscoutObjectID
    }
}
