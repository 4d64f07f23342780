import Foundation

// MARK: - JSON text of the protocol's answers, written by hand: a page of 10,000 records through JSONEncoder
// cost more than reading them (BENCHMARKS.md, "Sync").

extension SyncPage {
    /// `{"changes":[…],"next":"…","more":true}`.
    public var jsonText: String {
        var out = "{\"changes\":["
        for (index, record) in changes.enumerated() {
            if index > 0 { out += "," }
            out += "{\"type\":"
            JSONText.appendQuoted(record.type, to: &out)
            out += ",\"id\":\""
            out += record.id.lowercasedString
            out += record.deleted ? "\",\"deleted\":true" : "\",\"deleted\":false"
            if let fields = record.fields {
                out += ",\"fields\":"
                JSONValue.object(fields).write(into: &out)
            }
            out += "}"
        }
        return out + "],\"next\":" + JSONText.quoted(next) + ",\"more\":" + (more ? "true" : "false") + "}"
    }
}

extension SyncResult {
    /// `{"results":[…]}`, the answer to a push.
    public static func jsonText(_ results: [SyncResult]) -> String {
        var out = "{\"results\":["
        for (index, result) in results.enumerated() {
            if index > 0 { out += "," }
            out +=
                "{\"type\":" + JSONText.quoted(result.type) + ",\"id\":\"" + result.id.lowercasedString + "\",\"status\":\""
                + result.status.rawValue + "\",\"deleted\":" + (result.deleted ? "true" : "false")
            if let reason = result.reason { out += ",\"reason\":" + JSONText.quoted(reason) }
            if let field = result.field { out += ",\"field\":" + JSONText.quoted(field) }
            if let record = result.record {
                out += ",\"record\":"
                JSONValue.object(record).write(into: &out)
            }
            out += "}"
        }
        return out + "]}"
    }
}

// MARK: - Reading the protocol's JSON

/// A sync message's JSON, its errors as a request body's (`JSONSyntaxError.requestError`).
private func parse(_ data: some Collection<UInt8>, maximumValues: Int = .max) throws(CinnError) -> JSONValue {
    do throws(JSONSyntaxError) {
        return try JSONParser.parse(data, maximumValues: maximumValues, finiteNumbers: true)
    } catch {
        throw error.requestError
    }
}

extension SyncPage {
    /// A page from the server's JSON text (`jsonText`).
    public init(jsonText data: some Collection<UInt8>) throws(CinnError) {
        guard case .object(let page) = try parse(data), case .array(let items)? = page["changes"], let next = page["next"]?.string,
            case .bool(let more)? = page["more"]
        else { throw CinnError(.malformedRequest, "not a page of changes") }
        self.init(changes: try items.map { item throws(CinnError) in try SyncRecord(json: item) }, next: next, more: more)
    }
}

extension SyncRecord {
    init(json: JSONValue) throws(CinnError) {
        guard case .object(let members) = json, let type = members["type"]?.string,
            let id = members["id"]?.string.flatMap(UUID.init(text:)),
            case .bool(let deleted)? = members["deleted"]
        else { throw CinnError(.malformedRequest, "not a record of a page of changes") }
        var fields: SyncFields?
        if case .object(let values)? = members["fields"] { fields = values }
        self.init(type: type, id: id, deleted: deleted, fields: fields)
    }
}

extension SyncResult {
    /// The results of a push from the server's JSON text (`jsonText`).
    public static func results(jsonText data: some Collection<UInt8>) throws(CinnError) -> [SyncResult] {
        guard case .object(let answer) = try parse(data), case .array(let items)? = answer["results"] else {
            throw CinnError(.malformedRequest, "not the answer to a push")
        }
        return try items.map { item throws(CinnError) in
            guard case .object(let members) = item, let type = members["type"]?.string,
                let id = members["id"]?.string.flatMap(UUID.init(text:)),
                let status = members["status"]?.string.flatMap(SyncOutcome.init(rawValue:))
            else {
                throw CinnError(.malformedRequest, "not a result of a push")
            }
            var record: SyncFields?
            if case .object(let values)? = members["record"] { record = values }
            let deleted: Bool
            if case .bool(let value)? = members["deleted"] { deleted = value } else { deleted = false }
            return SyncResult(
                type: type, id: id, status: status, reason: members["reason"]?.string, field: members["field"]?.string,
                record: record, deleted: deleted)
        }
    }
}

extension SyncChange {
    /// The JSON values a change may average in a push (a workout with its sets, a food with every nutrient):
    /// a push of `maximumChanges` is read only while it holds fewer than that many times this.
    public static let maximumValuesPerChange = 100

    /// The changes of a push's body, `{"changes": […]}`, read in one pass (`JSONParser`). Text that is not
    /// JSON is `malformedRequest`; a change without its type, id or time is `invalidInput` naming it
    /// (`changes[3].changed_at`).
    public static func batch(jsonText data: some Collection<UInt8>, maximumChanges: Int = .max) throws(CinnError) -> [SyncChange] {
        let maximumValues = maximumChanges == .max ? .max : maximumChanges * maximumValuesPerChange
        guard case .object(let body) = try parse(data, maximumValues: maximumValues) else {
            throw .invalid("changes", "the body must be {\"changes\": […]}")
        }
        guard case .array(let items)? = body["changes"] else { throw .invalid("changes", "changes must be a list of changes") }
        guard items.count <= maximumChanges else {
            throw .invalid("changes", "a push holds at most \(maximumChanges) changes; send the rest in another")
        }
        return try items.enumerated().map { (index, item) throws(CinnError) -> SyncChange in
            let path = "changes[\(index)]"
            guard case .object(let members) = item else { throw .invalid(path, "each change must be an object") }
            guard let type = members["type"]?.string else { throw .invalid("\(path).type", "\(path).type must be a record type") }
            guard let id = members["id"]?.string.flatMap(UUID.init(text:)) else {
                throw .invalid("\(path).id", "\(path).id must be a UUID")
            }
            guard let time = members["changed_at"]?.string.flatMap(SyncInstant.parse) else {
                throw .invalid("\(path).changed_at", "\(path).changed_at must be an ISO 8601 time with its UTC offset")
            }
            var change = SyncChange(type: type, id: id, changedAt: time.date)
            switch members["fields"] {
            case nil, .null?: break
            case .object(let fields)?: change.fields = fields
            default: throw .invalid("\(path).fields", "\(path).fields must be an object")
            }
            switch members["clear"] {
            case nil, .null?: break
            case .array(let names)?:
                change.clear = try names.map { name throws(CinnError) in
                    guard let text = name.string else { throw .invalid("\(path).clear", "\(path).clear must be a list of field names") }
                    return text
                }
            default: throw .invalid("\(path).clear", "\(path).clear must be a list of field names")
            }
            switch members["deleted"] {
            case nil, .null?: break
            case .bool(let deleted)?: change.deleted = deleted
            default: throw .invalid("\(path).deleted", "\(path).deleted must be true or false")
            }
            return change
        }
    }
}
