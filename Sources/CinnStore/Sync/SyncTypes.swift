import CinnCore
import Foundation

/// A column value as sync writes it; a NULL keeps its column's type, which PostgreSQL needs.
enum SyncColumnValue: Sendable, Hashable {
    case integer(Int64?)
    case real(Double?)
    case text(String?)
    case uuid(UUID?)
}

/// A field of a synced record (`SyncField`, its rules) and where it is stored.
struct SyncColumn: Sendable {
    let field: SyncField
    let column: String

    /// Instants keep their offset and their local day in these columns too.
    static let offsetColumn = "utc_offset_s", dayColumn = "local_day"

    var name: String { field.name }
    var kind: SyncField.Kind { field.kind }

    /// The columns the field fills, in the order of `columnValues`.
    var columns: [String] {
        if case .instant = kind { return [column, Self.offsetColumn, Self.dayColumn] }
        return [column]
    }

    /// The column values of a canonical value (or of none: NULLs). References are resolved by the caller.
    func columnValues(_ value: JSONValue) -> [SyncColumnValue] {
        switch kind {
        case .text, .note, .choice:
            return [.text(value.string)]
        case .real:
            return [.real(value.number)]
        case .integer:
            return [.integer(value.number.map { Int64($0) })]
        case .instant:
            let instant = value.string.flatMap(SyncInstant.parse)
            return [
                .integer(instant?.milliseconds), .integer(instant.map { Int64($0.utcOffsetSeconds) }),
                .integer(instant.map { Int64($0.localDate.dayNumber) }),
            ]
        case .day:
            return [.integer(value.string.flatMap { LocalDate(iso: $0) }.map { Int64($0.dayNumber) })]
        case .uuid, .food:
            return [.uuid(value.string.flatMap(UUID.init(text:)))]
        case .reference, .exercise:
            return [.integer(nil)]
        case .nutrients:
            return [.text(value.isNull ? nil : value.text)]
        case .code(let values):
            return [.integer(value.string.flatMap { values.firstIndex(of: $0) }.map { Int64($0) })]
        case .boolean:
            guard case .bool(let flag) = value else { return [.integer(nil)] }
            return [.integer(flag ? 1 : 0)]
        case .servings:
            guard case .array(let items) = value else { return [.text("[]")] }
            return [
                .text(
                    ServingSize.storageText(
                        items.compactMap { item in
                            guard case .object(let members) = item, let label = members["label"]?.string,
                                let grams = members["grams"]?.number
                            else { return nil }
                            return ServingSize(label: label, amount: grams)
                        }))
            ]
        }
    }

    /// The fields with their columns: a field's own name unless `columns` names another.
    static func columns(of fields: [SyncField], _ columns: [String: String]) -> [SyncColumn] {
        fields.map { SyncColumn(field: $0, column: columns[$0.name] ?? $0.name) }
    }
}

/// Where a record's children are stored: their table, the column naming their parent, and their fields' columns.
struct SyncChildTable: Sendable {
    let name: String
    let table: String
    let parentColumn: String
    let fields: [SyncColumn]
}

/// Where a record type that syncs (`SyncType`) is stored: its table and columns, and what the table holds beyond
/// the fields.
struct SyncTable: Sendable {
    let type: SyncType
    let table: String
    let fields: [SyncColumn]
    let children: SyncChildTable?
    /// Columns computed from the fields (a food entry's search key and energy).
    let derivedColumns: [String]
    let derive: @Sendable (SyncFields) -> [SyncColumnValue]
    /// What the table's `source` column holds for records sync writes.
    let source: Source
    /// Whether writing its records changes `exercise_days` (a workout's sets).
    let refreshesExerciseDays: Bool
    /// The table's integer key, what pull cursors and children use: `row_id`, or the settings' `user_id`.
    let rowColumn: String

    enum Source: Sendable {
        /// The writer's: `sync` on the server, as given to `writeSyncRecords`.
        case given
        /// Always this value (a food of one's own is `mine`).
        case fixed(String)
        /// The table has no source column.
        case none
    }

    /// - Parameters:
    ///   - columns: the columns of fields not stored under their own name.
    ///   - children: the children's table, its parent column and the columns of their fields not stored under their name.
    init(
        _ name: String, table: String, columns: [String: String] = [:],
        children: (table: String, parentColumn: String, columns: [String: String])? = nil, derivedColumns: [String] = [],
        derive: @escaping @Sendable (SyncFields) -> [SyncColumnValue] = { _ in [] }, source: Source = .given,
        refreshesExerciseDays: Bool = false, rowColumn: String = "row_id"
    ) {
        guard let type = SyncType.byName[name] else { preconditionFailure("no record type \(name) syncs") }
        self.type = type
        self.table = table
        fields = SyncColumn.columns(of: type.fields, columns)
        switch (type.children, children) {
        case (let rules?, let children?):
            self.children = SyncChildTable(
                name: rules.name, table: children.table, parentColumn: children.parentColumn,
                fields: SyncColumn.columns(of: rules.fields, children.columns))
        case (nil, nil):
            self.children = nil
        default:
            preconditionFailure("the children of \(name) and their table go together")
        }
        self.derivedColumns = derivedColumns
        self.derive = derive
        self.source = source
        self.refreshesExerciseDays = refreshesExerciseDays
        self.rowColumn = rowColumn
    }

    var name: String { type.name }
    var uniqueField: String? { type.uniqueField }
    var isSingleton: Bool { type.isSingleton }

    func field(named name: String) -> SyncColumn? { fields.first { $0.name == name } }

    /// The tables of every record type that syncs, in `SyncType.all`'s order (the order a push applies them).
    static let all: [SyncTable] = {
        let tables = [
            SyncTable("weigh_in", table: "weigh_ins", columns: ["measured_at": "measured_at_ms"]),
            SyncTable("body_fat", table: "body_fat_readings", columns: ["measured_at": "measured_at_ms"]),
            SyncTable("goal", table: "goals", columns: ["set_on": "set_on_day"]),
            SyncTable("food_day", table: "food_days", columns: ["day": "local_day"]),
            SyncTable(
                "food_entry", table: "food_entries", columns: ["eaten_at": "eaten_at_ms"],
                derivedColumns: ["search_key", "energy_kcal"],
                derive: { fields in
                    let energy = fields["nutrients"].flatMap { Nutrients(storageText: $0.text) }?.energy ?? 0
                    return [.text(Store.searchKey(fields["name"]?.string ?? "", fields["brand"]?.string)), .real(energy)]
                }),
            SyncTable("exercise_entry", table: "exercise_entries", columns: ["performed_at": "performed_at_ms"]),
            SyncTable("glucose_reading", table: "glucose_readings", columns: ["measured_at": "measured_at_ms"]),
            SyncTable("insulin_dose", table: "insulin_doses", columns: ["taken_at": "taken_at_ms"]),
            SyncTable("meal", table: "meals", children: ("meal_foods", "meal_id", [:])),
            SyncTable("meal_event", table: "meal_events", columns: ["eaten_at": "eaten_at_ms"]),
            SyncTable(
                "food", table: "foods", children: ("recipe_ingredients", "recipe_id", [:]),
                derivedColumns: ["name_key", "brand_key", "energy_kcal", "recipe"],
                derive: { fields in
                    let isRecipe = if case .array(let items)? = fields["ingredients"], !items.isEmpty { true } else { false }
                    return [
                        .text(FoodSearchQuery.searchKey(fields["name"]?.string ?? "")),
                        .text(fields["brand"]?.string.map(FoodSearchQuery.searchKey)),
                        .real(fields["nutrients"].flatMap { Nutrients(storageText: $0.text) }?.energy), .integer(isRecipe ? 1 : 0),
                    ]
                }, source: .fixed(FoodSource.mine.rawValue)),
            SyncTable("preset", table: "presets", children: ("preset_items", "preset_id", [:]), source: .none),
            SyncTable(
                "workout", table: "workouts", columns: ["started_at": "started_at_ms"],
                children: ("workout_sets", "workout_id", ["exercise": "exercise_id"]), refreshesExerciseDays: true),
            SyncTable("settings", table: "user_settings", columns: ["birth_date": "birth_day"], source: .none, rowColumn: "user_id"),
            SyncTable(
                "routine", table: "routines", children: ("routine_exercises", "routine_id", ["exercise": "exercise_id"]), source: .none),
        ]
        let byName = Dictionary(uniqueKeysWithValues: tables.map { ($0.name, $0) })
        return SyncType.all.map { type in
            guard let table = byName[type.name] else { preconditionFailure("record type \(type.name) has no table") }
            return table
        }
    }()

    static let byName: [String: SyncTable] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}
