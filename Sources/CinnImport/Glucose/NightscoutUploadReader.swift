import CinnCore
import Foundation

/// One document of an upload, read and checked: what finds it when it is sent again (`key`), its time and event type,
/// and its members as sent, with them as JSON text (written once, to measure it).
public struct NightscoutUploadedDocument: Sendable {
    public var key: String
    public var eventType: String?
    public var createdAt: Date
    public var members: [String: JSONValue]
    public var text: String

    /// The document as JSON with an `_id`: its own, else `id` put first.
    public func text(withID id: @autoclosure () -> String) -> String {
        if members["_id"]?.string?.isEmpty == false { return text }
        var members = members
        members["_id"] = .string(id())
        return JSONValue.object(members).text
    }
}

/// What a Nightscout client's upload of treatments, device statuses or profiles holds (docs/nightscout.md), read and
/// checked before anything is stored: each document checked alone (the invalid ones rejected, named by their place in
/// the body), the body as a whole bounded while it is parsed.
public enum NightscoutUploadReader {
    /// The most JSON values (objects, arrays, strings, numbers…) one upload may hold: a day of CGM readings is about
    /// 3,000, a week of Loop's device statuses with their predictions about 200,000. Counted while parsing, so a body of
    /// millions of `{}` is refused before it is built.
    public static let maximumValues = 250_000
    /// The most documents (treatments, device statuses, profiles) one upload may hold.
    public static let maximumDocuments = 10_000
    /// The largest document kept as sent: a treatment, a device status (Loop's and OpenAPS's, with their predictions,
    /// are a few KB) or a profile (a year of schedules).
    public static let maximumDocumentBytes = 64 * 1024

    /// The elements of a JSON array of objects, or of one object sent alone; anything else in the array refuses the body.
    /// An upload of `documents` (not entries) holds at most `maximumDocuments`.
    public static func elements(_ body: [UInt8], documents: Bool) throws(CinnError) -> [(line: Int, value: JSONValue)] {
        let elements: [(line: Int, value: JSONValue)]?
        do throws(JSONSyntaxError) {
            elements = try JSONParser.records(array(body), maximumValues: maximumValues)
        } catch {
            if case .tooManyValues = error.problem { throw error.requestError }
            throw CinnError(.malformedRequest, error.fileError.message)
        }
        guard let elements else { throw .invalid("body", "send a JSON array of documents, or one") }
        guard elements.count <= maximumDocuments || !documents else {
            throw CinnError(.contentTooLarge, "the upload holds \(elements.count) documents; at most \(maximumDocuments) at a time")
        }
        if let (index, element) = elements.enumerated().first(where: { if case .object = $0.element.value { false } else { true } }) {
            throw .invalid("body", "element \(index + 1) (line \(element.line)) is not a JSON object: send an array of documents")
        }
        return elements
    }

    /// A body Nightscout clients send: a JSON array, or one object alone (made an array of one).
    static func array(_ body: [UInt8]) -> [UInt8] {
        let first = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "{") ? Array("[".utf8) + body + Array("]".utf8) : body
    }

    /// A document's `_id`, `eventType` and notes checked as Cinn checks every text (`ValidValues`): 100, 100 and 500
    /// characters, no control characters (but line breaks in notes), and the whole document at most
    /// `maximumDocumentBytes` as JSON. Returns that JSON.
    static func checked(_ members: [String: JSONValue]) throws(CinnError) -> String {
        if let id = members["_id"] {
            guard let text = id.string, !text.isEmpty, text.count <= 100, ValidValues.isPlain(text, allowingLineBreaks: false) else {
                throw .invalid("_id", "_id is text of 1 to 100 characters")
            }
        }
        if let eventType = members["eventType"], eventType != .null {
            guard let text = eventType.string else { throw .invalid("eventType", "eventType is text") }
            _ = try ValidValues.name(text, field: "eventType", maximumLength: 100)
        }
        if let notes = members["notes"], notes != .null {
            guard let text = notes.string else { throw .invalid("notes", "notes are text") }
            guard text.count <= Note.maximumLength else {
                throw .invalid("notes", "notes have \(text.count) characters; at most \(Note.maximumLength)")
            }
            try ValidValues.plainText(text, field: "notes", allowingLineBreaks: true)
        }
        let text = JSONValue.object(members).text
        guard text.utf8.count <= maximumDocumentBytes else {
            throw .invalid("", "the document is \(text.utf8.count / 1024) KiB; at most \(maximumDocumentBytes / 1024) KiB")
        }
        return text
    }

    /// A rejection of the document at `index`, its field named within it (`[4].insulin`).
    static func rejection(_ index: Int, line: Int, _ error: CinnError) -> RejectedRow {
        RejectedRow(line: line, field: "[\(index)]" + (error.field.map { $0.isEmpty ? "" : "." + $0 } ?? ""), reason: error.message)
    }

    /// An upload of treatments: each checked and kept, with what the journal keeps of it (`treatment`). A treatment
    /// without a time from 1900 to 2199, with an impossible amount or text, is rejected alone.
    public static func treatments(_ body: [UInt8], timeZone: TimeZone, source: String) throws(CinnError)
        -> (data: NightscoutData, rejected: [RejectedRow])
    {
        var data = NightscoutData(), rejected: [RejectedRow] = []
        for (index, (line, value)) in try elements(body, documents: true).enumerated() {
            guard case .object(let members) = value else { continue }
            do throws(CinnError) {
                try treatment(NightscoutParser.plain(members), timeZone: timeZone, source: source, into: &data)
            } catch {
                rejected.append(rejection(index, line: line, error))
            }
        }
        return (data, rejected)
    }

    /// One treatment, from an uploader or a file, checked and keyed by its `_id`, else by the instant of `created_at`
    /// and its `eventType` (never the text of its time: the same bolus written in two offsets is one): its document, and
    /// what the journal keeps of it (`NightscoutParser.treatment`), go into `data`, or nothing when it is invalid.
    /// - Parameter known: the instant of its `created_at` when the caller has read it already.
    public static func treatment(
        _ members: [String: JSONValue], instant known: Date? = nil, timeZone: TimeZone, source: String,
        into data: inout NightscoutData
    ) throws(CinnError) {
        let instant: Date
        if let known { instant = known } else { instant = try NightscoutParser.treatmentInstant(members, timeZone: timeZone) }
        let text = try checked(members)
        let eventType = members["eventType"]?.string ?? "<none>"
        let key = members["_id"]?.string ?? "t:\(instant.millisecondsSince1970)|\(eventType)"
        var made = NightscoutData()
        if !(try NightscoutParser.treatment(members, key: key, instant: instant, timeZone: timeZone, source: source, into: &made)) {
            data.skipped += 1
        }
        data.readings += made.readings
        data.doses += made.doses
        data.entries += made.entries
        data.documents.append(NightscoutUploadedDocument(key: key, eventType: eventType, createdAt: instant, members: members, text: text))
    }

    /// An upload of device statuses (or profiles): each checked, timed by `created_at` (a profile's `startDate`), else
    /// `now`, and keyed by its `_id`, else its time and device, else (without a time) its content: sent again, it is
    /// the same.
    public static func documents(_ body: [UInt8], now: Date) throws(CinnError) -> (
        documents: [NightscoutUploadedDocument], rejected: [RejectedRow]
    ) {
        var documents: [NightscoutUploadedDocument] = [], rejected: [RejectedRow] = []
        for (index, (line, value)) in try elements(body, documents: true).enumerated() {
            guard case .object(let members) = value else { continue }
            do throws(CinnError) {
                let timeText = members["created_at"]?.string ?? members["startDate"]?.string
                var instant = now
                if let timeText {
                    let time = LocalDateTime(iso: timeText)
                    guard let at = time.map({ $0.resolved(in: TimeZone(secondsFromGMT: $0.utcOffsetSeconds ?? 0) ?? .gmt).instant }),
                        (try? ValidValues.instant(at, field: "created_at")) != nil
                    else {
                        throw .invalid("created_at", "\(timeText) is not a time from 1900 to 2199")
                    }
                    instant = at
                }
                let text = try checked(members)
                let key =
                    members["_id"]?.string
                    ?? (timeText == nil
                        ? "d:" + ContentHash.of([text]).hex
                        : "d:\(instant.millisecondsSince1970)|\(members["device"]?.string ?? "")")
                documents.append(NightscoutUploadedDocument(key: key, eventType: nil, createdAt: instant, members: members, text: text))
            } catch {
                rejected.append(rejection(index, line: line, error))
            }
        }
        return (documents, rejected)
    }
}
