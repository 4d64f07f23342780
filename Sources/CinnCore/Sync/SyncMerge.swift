import Foundation

/// One push's changes of one record type merged, change by change, into the records they name (docs/DESIGN.md
/// "Sync"): per field the later change wins, an absent or null field leaves the stored value alone, only `clear`
/// empties one, a deletion is final. Pure: the store reads what the merge needs (the records, who else holds an id
/// or a unique value, which references and foods exist) and writes the records it leaves changed.
package struct SyncMerge: Sendable {
    /// A record as the push leaves it.
    package struct Record: Sendable {
        package var id: UUID
        /// Whether the record is stored already.
        package var exists: Bool
        package var deleted: Bool
        package var fields: SyncFields
        /// When each field was last set, in milliseconds since 1970; a field without a time was never set.
        package var fieldTimes: [String: Int64]
        package var changed = false
        package var childrenChanged = false

        package init(
            id: UUID, exists: Bool, deleted: Bool, fields: SyncFields, fieldTimes: [String: Int64], changed: Bool = false,
            childrenChanged: Bool = false
        ) {
            self.id = id
            self.exists = exists
            self.deleted = deleted
            self.fields = fields
            self.fieldTimes = fieldTimes
            self.changed = changed
            self.childrenChanged = childrenChanged
        }
    }

    package let type: SyncType
    private var records: [UUID: Record] = [:]
    private var order: [UUID] = []
    /// Ids taken by another user's records.
    private let otherUsers: Set<UUID>
    /// The user's records that references may name (a meal event's meal).
    private let referable: Set<UUID>
    /// Who holds each value of the unique field.
    private var owners: [JSONValue: UUID]
    /// The foods the changes name that are another user's.
    private let foreignFoods: Set<UUID>
    /// The user's one record of a singleton type (the settings), if it exists.
    private var singleton: UUID?

    /// - Parameters:
    ///   - stored: the user's stored records the changes name.
    ///   - otherUsers: the ids the changes name that another user's records have.
    ///   - referable: the ids the records' references name that are the user's records.
    ///   - owners: the user's other records (not in `stored`) holding the values of the type's unique field that the
    ///     changes set.
    ///   - foreignFoods: the food ids the changes name that are another user's foods.
    ///   - singleton: the id of the user's record of a singleton type.
    package init(
        type: SyncType, stored: [Record], otherUsers: Set<UUID> = [], referable: Set<UUID> = [], owners: [JSONValue: UUID] = [:],
        foreignFoods: Set<UUID> = [], singleton: UUID? = nil
    ) {
        self.type = type
        self.otherUsers = otherUsers
        self.referable = referable
        self.foreignFoods = foreignFoods
        self.singleton = singleton
        var holders: [JSONValue: UUID] = [:]
        for record in stored {
            records[record.id] = record
            order.append(record.id)
            if let unique = type.uniqueField, !record.deleted, let value = record.fields[unique], !value.isNull {
                holders[value] = record.id
            }
        }
        self.owners = holders.merging(owners) { $1 }
    }

    /// The records the changes so far altered, in the order they were first named: what to write.
    package var changedRecords: [Record] { order.compactMap { records[$0] }.filter(\.changed) }

    /// Merges one change into the records and says what became of it.
    package mutating func apply(_ change: SyncChange) -> SyncResult {
        func rejected(_ error: CinnError) -> SyncResult {
            SyncResult(type: type.name, id: change.id, status: .rejected, reason: error.message, field: error.field)
        }
        guard !otherUsers.contains(change.id) else {
            return rejected(.invalid("id", "the id \(change.id.lowercasedString) is taken by another record"))
        }
        let at = change.changedAt.millisecondsSince1970
        var record = records[change.id] ?? Record(id: change.id, exists: false, deleted: false, fields: [:], fieldTimes: [:])
        let known = records[change.id] != nil
        if record.deleted {
            return SyncResult(type: type.name, id: change.id, status: change.deleted ? .applied : .merged, deleted: true)
        }
        if type.isSingleton {
            if change.deleted { return rejected(.invalid("deleted", "\(type.name) cannot be deleted; change its fields")) }
            if let existing = singleton, existing != change.id {
                return rejected(
                    .invalid("id", "this account's \(type.name) already exist (id \(existing.lowercasedString)); change that record"))
            }
        }
        var lost = false
        do throws(CinnError) {
            for (name, value) in change.fields where !value.isNull {
                let canonical = try canonical(name, value)
                if at >= record.fieldTimes[name] ?? .min {
                    if record.fields[name] != canonical {
                        record.fields[name] = canonical
                        record.changed = true
                        if name == type.children?.name { record.childrenChanged = true }
                    }
                    record.fieldTimes[name] = at
                } else if record.fields[name] != canonical {
                    lost = true
                }
            }
            for name in change.clear {
                if let field = type.field(named: name) {
                    guard !field.required else { throw CinnError.invalid(name, "\(name) is required and cannot be cleared") }
                } else {
                    guard name == type.children?.name else { throw CinnError.invalid(name, "\(type.name) has no field \(name)") }
                }
                let empty: JSONValue = name == type.children?.name ? .array([]) : .null
                if at >= record.fieldTimes[name] ?? .min {
                    if (record.fields[name] ?? empty) != empty {
                        record.fields[name] = empty
                        record.changed = true
                        if name == type.children?.name { record.childrenChanged = true }
                    }
                    record.fieldTimes[name] = at
                } else if (record.fields[name] ?? empty) != empty {
                    lost = true
                }
            }
            if !record.exists && !known {
                for field in type.fields where field.required && (record.fields[field.name] ?? .null).isNull {
                    if change.deleted {
                        return SyncResult(type: type.name, id: change.id, status: .applied, deleted: true)
                    }
                    throw CinnError.invalid(field.name, "a new \(type.name) needs \(field.name)")
                }
                for field in type.fields where record.fields[field.name] == nil { record.fields[field.name] = .null }
                if let children = type.children, record.fields[children.name] == nil {
                    record.fields[children.name] = .array([])
                    record.childrenChanged = true
                }
                record.changed = true
            }
            for field in type.fields {
                guard case .reference(let target) = field.kind, let id = record.fields[field.name]?.string.flatMap(UUID.init(text:)) else {
                    continue
                }
                guard referable.contains(id) else {
                    throw CinnError.invalid(field.name, "no \(target) with id \(id.lowercasedString); push the \(target) first or with it")
                }
            }
            if change.deleted {
                record.deleted = true
                record.changed = true
            } else if !record.deleted {
                try type.validate?(record.fields)
            }
            if let unique = type.uniqueField, let value = record.fields[unique], !value.isNull, !record.deleted {
                if let owner = owners[value], owner != change.id, records[owner].map({ !$0.deleted && $0.fields[unique] == value }) ?? true
                {
                    throw CinnError.invalid(unique, "another \(type.name) already has this \(unique) (id \(owner.lowercasedString))")
                }
            }
        } catch {
            return rejected(error)
        }
        if let unique = type.uniqueField {
            if let old = records[change.id]?.fields[unique], owners[old] == change.id { owners[old] = nil }
            if !record.deleted, let value = record.fields[unique], !value.isNull { owners[value] = change.id }
        }
        if records[change.id] == nil { order.append(change.id) }
        records[change.id] = record
        if type.isSingleton { singleton = change.id }
        return SyncResult(
            type: type.name, id: change.id, status: lost ? .merged : .applied,
            record: record.deleted ? nil : record.fields, deleted: record.deleted)
    }

    /// A field's value checked: plain fields by their kind, children item by item.
    private func canonical(_ name: String, _ value: JSONValue) throws(CinnError) -> JSONValue {
        if let field = type.field(named: name) { return try checkedFood(field, try field.canonical(value)) }
        guard let children = type.children, name == children.name else { throw .invalid(name, "\(type.name) has no field \(name)") }
        guard case .array(let items) = value else { throw .invalid(name, "\(name) must be a list") }
        guard items.count <= children.maximumCount else { throw .invalid(name, "\(name) may hold at most \(children.maximumCount) items") }
        return .array(
            try items.enumerated().map { (index, item) throws(CinnError) -> JSONValue in
                guard case .object(let members) = item else { throw .invalid("\(name)[\(index)]", "each of \(name) must be an object") }
                var result: SyncFields = [:]
                for key in members.keys where children.fields.first(where: { $0.name == key }) == nil {
                    throw .invalid("\(name)[\(index)].\(key)", "\(name) have no field \(key)")
                }
                for field in children.fields {
                    let member = members[field.name] ?? .null
                    if member.isNull {
                        guard !field.required else {
                            throw .invalid("\(name)[\(index)].\(field.name)", "each of \(name) needs \(field.name)")
                        }
                        result[field.name] = .null
                    } else {
                        do throws(CinnError) {
                            result[field.name] = try checkedFood(field, try field.canonical(member))
                        } catch {
                            throw CinnError.invalid("\(name)[\(index)].\(field.name)", error.message)
                        }
                    }
                }
                return .object(result)
            })
    }

    /// `value` unless `field` names a food and that food is another user's.
    private func checkedFood(_ field: SyncField, _ value: JSONValue) throws(CinnError) -> JSONValue {
        guard case .food = field.kind, let id = value.string.flatMap(UUID.init(text:)), foreignFoods.contains(id) else { return value }
        throw .invalid(field.name, "no food with id \(id.lowercasedString)")
    }
}
