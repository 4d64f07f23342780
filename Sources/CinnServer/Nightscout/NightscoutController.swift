import CinnCore
import CinnJournal
import CinnStore
import Foundation
import HTTPTypes
import Hummingbird

/// The Nightscout API (v1) that CGM uploaders send to and Nightscout's followers read, under `/nightscout`, so that a
/// client given `http://HOST:PORT/nightscout` as its Nightscout URL works (docs/nightscout.md).
struct NightscoutController {
    typealias Context = JournalRequestContext

    func addRoutes(to group: RouterGroup<Context>) {
        for path in ["api/v1/status.json", "api/v1/status"] { group.get(RouterPath(path), use: status) }
        for path in ["api/v1/entries.json", "api/v1/entries"] {
            group.get(RouterPath(path)) { request, context in try await entries(request, context, sensor: nil) }
            group.post(RouterPath(path), use: upload)
        }
        for (kind, sensor) in [("sgv", true), ("mbg", false)] {
            for path in ["api/v1/entries/\(kind).json", "api/v1/entries/\(kind)"] {
                group.get(RouterPath(path)) { request, context in try await entries(request, context, sensor: sensor) }
            }
        }
        for path in ["api/v1/entries/current.json", "api/v1/entries/current"] { group.get(RouterPath(path), use: current) }
        for collection in [NightscoutDocument.Collection.treatments, .devicestatus, .profile] {
            for path in ["api/v1/\(collection.rawValue).json", "api/v1/\(collection.rawValue)"] {
                group.get(RouterPath(path)) { request, context in try await documents(request, context, collection) }
                group.post(RouterPath(path)) { request, context in try await uploadDocuments(request, context, collection) }
            }
        }
        group.get("pebble", use: pebble)
    }

    /// Treatments, device statuses or profiles as clients sent them, newest first.
    @Sendable func documents(_ request: Request, _ context: Context, _ collection: NightscoutDocument.Collection) async throws -> Response {
        let query = try NightscoutQuery(request, times: ["created_at": .iso], types: false)
        let documents = try await context.journal.nightscoutDocuments(
            collection, from: query.start,
            to: query.end, limit: query.count)
        return JSONResponse.body(JSONText.array(ofEncoded: documents.map(\.body)))
    }

    /// A client's treatments (kept, and what the journal holds of them stored there), device statuses or profiles;
    /// answered with the documents stored.
    @Sendable func uploadDocuments(_ request: Request, _ context: Context, _ collection: NightscoutDocument.Collection) async throws
        -> Response
    {
        var request = request
        let body = Array(try await request.body(upTo: NightscoutJSON.maximumUpload).readableBytesView)
        let upload =
            collection == .treatments
            ? try await context.journal.uploadNightscoutTreatments(body)
            : try await context.journal.uploadNightscoutDocuments(collection, body)
        if upload.stored.isEmpty, upload.duplicates == 0, let rejected = upload.rejected.first {
            throw CinnError.invalid(rejected.field ?? collection.rawValue, "document \(rejected.line): \(rejected.reason)")
        }
        return Self.naming(upload.rejected, in: JSONResponse.body(JSONText.array(ofEncoded: upload.stored.map(\.body))))
    }

    /// The answer with the documents rejected from an upload that stored others named in `Cinn-Rejected` (Nightscout's
    /// clients read the body as the documents stored): how many, then the first ten, each by its place in the body and
    /// its field, and why, in printable ASCII.
    static func naming(_ rejected: [RejectedRow], in response: Response) -> Response {
        guard !rejected.isEmpty else { return response }
        var response = response
        let named = rejected.prefix(10).map { row in "\(row.field ?? "line \(row.line)"): \(row.reason)" }
        let text = "\(rejected.count) rejected; " + named.joined(separator: "; ")
        let ascii = String(String.UnicodeScalarView(text.unicodeScalars.map { (0x20..<0x7F).contains($0.value) ? $0 : "?" }).prefix(2000))
        response.headers[HTTPField.Name("Cinn-Rejected")!] = ascii
        return response
    }

    /// The server's status: what uploaders check before they send, and where followers read the unit.
    @Sendable func status(_ request: Request, context: Context) async throws -> Response {
        let settings = try await context.journal.settings()
        let now = context.journal.now()
        return try JSONResponse.make(
            NightscoutStatusDTO(
                serverTime: NightscoutEntryDTO.dateString(now), serverTimeEpoch: NightscoutJSON.milliseconds(now),
                settings: .init(units: settings.glucoseUnit == .millimolesPerLiter ? "mmol" : "mg/dl")))
    }

    @Sendable func entries(_ request: Request, _ context: Context, sensor: Bool?) async throws -> Response {
        let query = try NightscoutQuery(request, times: ["date": .milliseconds, "dateString": .iso], types: true)
        let entries = try await context.journal.nightscoutEntries(
            from: query.start, to: query.end, sensor: query.sensor ?? sensor, count: query.count)
        return JSONResponse.body(NightscoutEntryDTO.json(entries))
    }

    /// The newest entry, as a list of one.
    @Sendable func current(_ request: Request, context: Context) async throws -> Response {
        let newest = try await context.journal.nightscoutEntries(from: nil, to: nil, sensor: nil, count: 1)
        return JSONResponse.body(NightscoutEntryDTO.json(newest))
    }

    /// An uploader's entries: stored unless the journal has them already; answered with the ones stored.
    @Sendable func upload(_ request: Request, context: Context) async throws -> Response {
        var request = request
        let body = try await request.body(upTo: NightscoutJSON.maximumUpload)
        let upload = try await context.journal.uploadNightscoutEntries(Array(body.readableBytesView))
        if upload.stored.isEmpty, let rejected = upload.rejected.first, upload.duplicates == 0, upload.skipped == 0 {
            throw CinnError.invalid(rejected.field ?? "entries", "entry \(rejected.line): \(rejected.reason)")
        }
        let stored = upload.stored.map { NightscoutEntry(reading: $0, deltaMilligramsPerDeciliter: nil, direction: $0.direction) }
        return Self.naming(upload.rejected, in: JSONResponse.body(NightscoutEntryDTO.json(stored)))
    }

    /// What Pebble watch faces and many widgets read: the newest sensor reading in the user's unit.
    @Sendable func pebble(_ request: Request, context: Context) async throws -> Response {
        let settings = try await context.journal.settings()
        let unit: GlucoseUnit =
            switch request.query("units")?.lowercased() {
            case "mmol": .millimolesPerLiter
            case "mg/dl", "mgdl": .milligramsPerDeciliter
            case nil: settings.glucoseUnit
            case let other?: throw CinnError.invalid("units", "units is mmol or mg/dl, not \"\(other)\"")
            }
        let latest = try await context.journal.nightscoutEntries(from: nil, to: nil, sensor: true, count: 1)
        let bgs = latest.map { entry in
            let delta = String(
                format: "%.\(unit.displayDecimals)f",
                (entry.deltaMilligramsPerDeciliter ?? 0) / (unit == .millimolesPerLiter ? GlucoseUnit.milligramsPerMillimole : 1))
            let direction = entry.direction ?? .none
            return PebbleDTO.Reading(
                sgv: entry.reading.glucose.formatted(unit, withUnit: false), trend: direction.trend, direction: direction.rawValue,
                datetime: NightscoutJSON.milliseconds(entry.reading.measuredAt), bgdelta: delta)
        }
        return try JSONResponse.make(PebbleDTO(status: [.init(now: NightscoutJSON.milliseconds(context.journal.now()))], bgs: bgs))
    }
}

/// A Nightscout query: `count` (10 unless given), and `find` filters on time fields (entries: `date` in epoch ms and
/// `dateString` in ISO 8601; treatments and the rest: `created_at`) and an entry's `type`, with `$gte`, `$gt`, `$lte`,
/// `$lt` or equality. Without a time filter: the newest `count`, whatever their age.
struct NightscoutQuery {
    enum TimeFormat { case milliseconds, iso }

    var count = 10
    var start: Date?
    var end: Date?
    var sensor: Bool?

    static let maximumCount = 100_000
    /// 2200-01-01: later times are not a reading's.
    static let latestMilliseconds: Int64 = 7_258_118_400_000

    init(_ request: Request, times: [String: TimeFormat], types: Bool) throws {
        for (key, value) in request.uri.queryParameters where !value.isEmpty {
            // Clients send the brackets as they are or percent-encoded (find%5Bdate%5D); the key is read decoded.
            let key = String(key).removingPercentEncoding ?? String(key), value = String(value)
            if key == "count" {
                guard let number = Int(value), (0...Self.maximumCount).contains(number) else {
                    throw CinnError.invalid("count", "count must be a whole number from 0 to \(Self.maximumCount)")
                }
                count = number
                continue
            }
            guard key.hasPrefix("find[") else { continue }
            let parts = key.dropFirst(5).split(separator: "]", omittingEmptySubsequences: true).map {
                $0.hasPrefix("[") ? $0.dropFirst() : $0
            }
            guard let field = parts.first.map(String.init) else {
                throw CinnError.invalid(key, "a find filter names a field: find[date][$gte]")
            }
            let operation = parts.count > 1 ? String(parts[1]) : "$eq"
            if field == "type", types {
                guard ["sgv", "mbg"].contains(value) else {
                    throw CinnError.invalid(key, "entries are of type sgv or mbg, not \"\(value)\"")
                }
                sensor = value == "sgv"
                continue
            }
            switch times[field] {
            case let format?:
                let instant: Date
                if format == .milliseconds {
                    guard let milliseconds = Int64(value), (0...Self.latestMilliseconds).contains(milliseconds) else {
                        throw CinnError.invalid(key, "\"\(value)\" is not a time in whole epoch milliseconds from 1970 to 2199")
                    }
                    instant = Date(millisecondsSince1970: milliseconds)
                } else {
                    guard let time = LocalDateTime(iso: value) ?? LocalDate(iso: value).map({ LocalDateTime(date: $0, secondsOfDay: 0) })
                    else {
                        throw CinnError.invalid(key, "\"\(value)\" is not an ISO 8601 time")
                    }
                    instant = time.resolved(in: TimeZone(secondsFromGMT: time.utcOffsetSeconds ?? 0) ?? .gmt).instant
                }
                let next = instant.addingTimeInterval(0.001)
                switch operation {
                case "$gte": start = max(start ?? instant, instant)
                case "$gt": start = max(start ?? next, next)
                case "$lte": end = min(end ?? next, next)
                case "$lt": end = min(end ?? instant, instant)
                case "$eq":
                    start = instant
                    end = next
                default: throw CinnError.invalid(key, "a date filter is $gte, $gt, $lte or $lt")
                }
            case nil:
                let fields = times.keys.sorted() + (types ? ["type"] : [])
                throw CinnError.invalid(key, "find filters on \(fields.joined(separator: ", ")) only")
            }
        }
    }
}

/// Nightscout's JSON values, written as its clients read them.
enum NightscoutJSON {
    /// The Nightscout API version this one follows (its v1 entries, as Nightscout 15 serves them).
    static let version = "15.0.2-cinn"
    /// Largest upload: a day of 5-minute readings is about 100 KB.
    static let maximumUpload = 8 << 20

    static func milliseconds(_ date: Date) -> Int64 { date.millisecondsSince1970 }
}

/// The server's status, as Nightscout 15 answers `/api/v1/status.json`.
struct NightscoutStatusDTO: Encodable {
    struct Settings: Encodable {
        /// "mg/dl" or "mmol": the unit followers show.
        let units: String
        var timeFormat = 24
        var customTitle = "Cinn"
        var theme = "default"
        var enable: [String] = []
    }

    var status = "ok"
    var name = "Cinn"
    var version = NightscoutJSON.version
    let serverTime: String
    let serverTimeEpoch: Int64
    var apiEnabled = true
    var careportalEnabled = false
    var boluscalcEnabled = false
    let settings: Settings
    var extendedSettings: [String: String] = [:]
    @Nullable var authorized: String? = nil
}

/// What Pebble watch faces and widgets read (`/pebble`): the newest sensor reading in the person's unit.
struct PebbleDTO: Encodable {
    struct Now: Encodable {
        let now: Int64
    }

    struct Reading: Encodable {
        let sgv: String
        let trend: Int
        let direction: String
        let datetime: Int64
        let bgdelta: String
        var battery = ""
    }

    let status: [Now]
    let bgs: [Reading]
    var cals: [String] = []
}
