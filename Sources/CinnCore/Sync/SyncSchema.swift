import Foundation

// The record types that sync and the rules of their fields (docs/sync.md lists them): which fields each has, what
// each may hold, which are required, and the rules across fields. Pure: where each is stored is CinnStore's
// `SyncTable`; how a change merges into a record is `SyncMerge`.

/// One field of a synced record: its name in the protocol and what it may hold (where it is stored is CinnStore's
/// `SyncTable`).
package struct SyncField: Sendable {
    package enum Kind: Sendable {
        /// Text of 1 to `maxLength` characters on one line (trimmed; `ValidValues.name`).
        case text(maxLength: Int)
        /// Text of 1 to `maxLength` characters that may hold line breaks and tabs (trimmed; `ValidValues.plainText`).
        case note(maxLength: Int)
        /// One of the values.
        case choice([String])
        /// A finite number in the range.
        case real(ClosedRange<Double>)
        /// A whole number in the range.
        case integer(ClosedRange<Int64>)
        /// An ISO 8601 time with its offset; stored as its milliseconds, its offset and the local day they give.
        case instant
        /// A local day, `YYYY-MM-DD`; stored as its day number.
        case day
        /// A UUID.
        case uuid
        /// A food's id, as a UUID: one of the user's foods, one of the shared database, or one not (yet) there;
        /// another user's food is rejected.
        case food
        /// The UUID of one of the user's records of `type`; stored as that record's row id.
        case reference(type: String)
        /// A flat object of nutrient amounts (Nutrients' storage text).
        case nutrients
        /// One of the values, stored as its position in the list (a set's kind).
        case code([String])
        /// An exercise by its name; stored as the row of the user's exercise of that normalised name
        /// (ExerciseKey), made when there is none. Only in children (a workout's sets).
        case exercise
        /// A food's servings, `[{"label": "1 cup", "grams": 240}]` (ServingSize's storage text).
        case servings
        /// true or false, stored as 1 or 0.
        case boolean
    }

    package let name: String
    package let kind: Kind
    package let required: Bool
    /// A further check of a valid value (the domain's own rules).
    package let check: (@Sendable (JSONValue) throws(CinnError) -> Void)?

    package init(_ name: String, _ kind: Kind, required: Bool = false, check: (@Sendable (JSONValue) throws(CinnError) -> Void)? = nil) {
        self.name = name
        self.kind = kind
        self.required = required
        self.check = check
    }

    /// The value checked and written the one way the server stores it (trimmed text, canonical times).
    package func canonical(_ value: JSONValue) throws(CinnError) -> JSONValue {
        let result: JSONValue
        switch kind {
        case .text(let maxLength):
            guard let text = value.string else { throw .invalid(name, "\(name) must be text") }
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw .invalid(name, "\(name) must not be empty; clear it instead")
            }
            result = .string(try ValidValues.name(text, field: name, maximumLength: maxLength))
        case .note(let maxLength):
            guard let text = value.string?.trimmingCharacters(in: .whitespacesAndNewlines) else {
                throw .invalid(name, "\(name) must be text")
            }
            guard !text.isEmpty else { throw .invalid(name, "\(name) must not be empty; clear it instead") }
            guard text.count <= maxLength else { throw .invalid(name, "\(name) must be at most \(maxLength) characters") }
            try ValidValues.plainText(text, field: name, allowingLineBreaks: true)
            result = .string(text)
        case .choice(let values):
            guard let text = value.string, values.contains(text) else {
                throw .invalid(name, "\(name) must be one of \(values.joined(separator: ", "))")
            }
            result = value
        case .real(let range):
            guard let number = value.number, number.isFinite else { throw .invalid(name, "\(name) must be a number") }
            guard range.contains(number) else {
                throw .invalid(name, "\(name) must be between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound))")
            }
            result = value
        case .integer(let range):
            guard let number = value.number, number.isFinite, number == number.rounded() else {
                throw .invalid(name, "\(name) must be a whole number")
            }
            guard number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
                throw .invalid(name, "\(name) must be between \(range.lowerBound) and \(range.upperBound)")
            }
            result = value
        case .instant:
            guard let text = value.string, let instant = SyncInstant.parse(text), abs(instant.utcOffsetSeconds) <= 64_800 else {
                throw .invalid(name, "\(name) must be an ISO 8601 time with its UTC offset, like 2026-11-21T07:30:00+01:00")
            }
            result = .string(instant.text)
        case .day:
            guard let text = value.string, let day = LocalDate(iso: text) else { throw .invalid(name, "\(name) must be a day, YYYY-MM-DD") }
            result = .string(day.iso)
        case .uuid, .reference, .food:
            guard let text = value.string, let id = UUID(text: text) else { throw .invalid(name, "\(name) must be a UUID") }
            result = .string(id.lowercasedString)
        case .boolean:
            guard case .bool = value else { throw .invalid(name, "\(name) must be true or false") }
            result = value
        case .code(let values):
            guard let text = value.string, values.contains(text) else {
                throw .invalid(name, "\(name) must be one of \(values.joined(separator: ", "))")
            }
            result = value
        case .exercise:
            guard let text = value.string?.trimmingCharacters(in: .whitespacesAndNewlines), !ExerciseKey.normalised(text).isEmpty else {
                throw .invalid(name, "\(name) must name an exercise")
            }
            result = .string(try ValidValues.name(text, field: name))
        case .servings:
            guard case .array(let items) = value else {
                throw .invalid(name, "\(name) must be a list like [{\"label\": \"1 cup\", \"grams\": 240}]")
            }
            guard items.count <= 50 else { throw .invalid(name, "\(name) may hold at most 50 servings") }
            let servings = try items.enumerated().map { (index, item) throws(CinnError) -> ServingSize in
                guard case .object(let members) = item, let label = members["label"]?.string else {
                    throw .invalid("\(name)[\(index)].label", "each serving needs a label")
                }
                return try ServingSize.validated(label: label, amount: members["grams"]?.number, field: "\(name)[\(index)]")
            }
            result = Self.json(servings: ServingSize.storageText(servings))
        case .nutrients:
            guard case .object = value, let nutrients = Nutrients(storageText: value.text) else {
                throw .invalid(name, "\(name) must be an object of nutrient amounts, like {\"energy\": 520, \"protein\": 31}")
            }
            result = Self.json(nutrients: nutrients.storageText)
        }
        try check?(result)
        return result
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int64(value)) : "\(value)"
    }

    /// Servings' storage text as a JSON value (a list of `{"label", "grams"}`).
    package static func json(servings storageText: String) -> JSONValue {
        .array(
            (ServingSize.servings(storageText: storageText) ?? []).map { serving in
                .object(["label": .string(serving.label), "grams": .number(serving.amount)])
            })
    }

    /// Nutrients' storage text as a JSON value (a flat object of numbers).
    package static func json(nutrients storageText: String) -> JSONValue {
        guard let nutrients = Nutrients(storageText: storageText) else { return .null }
        return .object(Dictionary(uniqueKeysWithValues: nutrients.amounts.map { ($0.nutrient.key, JSONValue.number($0.amount)) }))
    }
}

/// The parts of a record kept apart, in order (a meal's foods): an array of objects.
package struct SyncChildren: Sendable {
    package let name: String
    package let fields: [SyncField]
    package let maximumCount: Int

    package init(name: String, fields: [SyncField], maximumCount: Int) {
        self.name = name
        self.fields = fields
        self.maximumCount = maximumCount
    }
}

/// A record type that syncs: its fields, its children, and the rules beyond single fields.
package struct SyncType: Sendable {
    package let name: String
    package let fields: [SyncField]
    package let children: SyncChildren?
    /// A field no two of the user's live records may share (a meal's name).
    package let uniqueField: String?
    /// A check of a live record as a whole, after merging (rules across fields).
    package let validate: (@Sendable (SyncFields) throws(CinnError) -> Void)?
    /// One record per user at most (the settings), never deleted.
    package let isSingleton: Bool

    init(
        _ name: String, fields: [SyncField], children: SyncChildren? = nil, uniqueField: String? = nil, isSingleton: Bool = false,
        validate: (@Sendable (SyncFields) throws(CinnError) -> Void)? = nil
    ) {
        self.name = name
        self.fields = fields
        self.children = children
        self.uniqueField = uniqueField
        self.isSingleton = isSingleton
        self.validate = validate
    }

    package func field(named name: String) -> SyncField? { fields.first { $0.name == name } }

    /// The protocol fields, children last.
    package var fieldNames: [String] { fields.map(\.name) + (children.map { [$0.name] } ?? []) }

    /// Every record type that syncs, in the order a push applies them: a record before those that refer to it.
    /// A type's position is part of pull cursors, so new types go at the end.
    package static let all: [SyncType] = [
        SyncType(
            "weigh_in",
            fields: [
                SyncField("measured_at", .instant, required: true),
                SyncField("weight_kg", .real(Mass.bodyWeightRange), required: true),
                SyncField("note", .note(maxLength: Note.maximumLength)),
            ]),
        SyncType(
            "body_fat",
            fields: [
                SyncField("measured_at", .instant, required: true),
                SyncField("fraction", .real(0.02...0.75), required: true),
            ]),
        SyncType(
            "goal",
            fields: [
                SyncField("weight_kg", .real(Mass.bodyWeightRange), required: true),
                SyncField("rate_kg_per_week", .real(Goal.rateRange)),
                SyncField("set_on", .day, required: true),
            ]),
        SyncType(
            "food_day",
            fields: [
                SyncField("day", .day, required: true),
                SyncField("status", .choice(["complete", "partial"]), required: true),
            ], uniqueField: "day"),
        SyncType(
            "food_entry",
            fields: [
                SyncField("eaten_at", .instant, required: true),
                SyncField("name", .text(maxLength: 200), required: true),
                SyncField("brand", .text(maxLength: 200)),
                SyncField("food_id", .food),
                SyncField("meal", .text(maxLength: 40), required: true) { value throws(CinnError) in
                    _ = try Meal.parse(value.string ?? "")
                },
                SyncField("servings", .real(FoodLogEntry.servingsRange), required: true),
                SyncField("serving_label", .text(maxLength: 100), required: true),
                SyncField("serving_amount", .real(0.001...100_000)),
                SyncField("nutrients", .nutrients, required: true),
                SyncField("note", .note(maxLength: Note.maximumLength)),
                // The meal event the entry was logged for (a meal event of a meal that became a preset).
                SyncField("meal_event_id", .uuid),
            ]),
        SyncType(
            "exercise_entry",
            fields: [
                SyncField("performed_at", .instant, required: true),
                SyncField("name", .text(maxLength: 200), required: true),
                SyncField("kind", .choice(["cardio", "strength"]), required: true),
                SyncField("energy_kcal", .real(ValidValues.workoutEnergyKcal)),
                SyncField("minutes", .real(0...1440)),
                SyncField("sets", .integer(0...1000)),
                SyncField("reps_per_set", .integer(0...10_000)),
                SyncField("weight_kg", .real(0...1000)),
                SyncField("steps", .integer(0...1_000_000)),
                SyncField("note", .note(maxLength: Note.maximumLength)),
            ]),
        SyncType(
            "glucose_reading",
            fields: [
                SyncField("measured_at", .instant, required: true),
                SyncField("mg_dl", .real(10...1000), required: true),
                SyncField("timing", .choice(MealTiming.allCases.map(\.rawValue))),
                SyncField("note", .note(maxLength: Note.maximumLength)),
            ]),
        SyncType(
            "insulin_dose",
            fields: [
                SyncField("taken_at", .instant, required: true),
                SyncField("units", .real(InsulinDose.unitsRange), required: true),
                SyncField("kind", .choice(InsulinKind.allCases.map(\.rawValue)), required: true),
                SyncField("insulin", .text(maxLength: 100)),
                SyncField("note", .note(maxLength: Note.maximumLength)),
            ]),
        SyncType(
            "meal",
            fields: [
                SyncField("name", .text(maxLength: 80), required: true),
                SyncField("kind", .choice(MealKind.allCases.map(\.rawValue)), required: true),
                SyncField("carbohydrate_g", .real(0...1000)),
                SyncField("note", .note(maxLength: Note.maximumLength)),
            ],
            children: SyncChildren(
                name: "foods",
                fields: [
                    SyncField("food_id", .food, required: true),
                    SyncField("name", .text(maxLength: 200), required: true),
                    SyncField("grams", .real(0.01...10_000), required: true),
                ], maximumCount: 100), uniqueField: "name"),
        SyncType(
            "meal_event",
            fields: [
                SyncField("meal_id", .reference(type: "meal"), required: true),
                SyncField("eaten_at", .instant, required: true),
                SyncField("portion", .real(0.05...20), required: true),
                SyncField("carbohydrate_g", .real(0...1000)),
                SyncField("note", .note(maxLength: Note.maximumLength)),
                SyncField("report_reason", .note(maxLength: 500)),
            ]),
        SyncType(
            "food",
            fields: [
                SyncField("name", .text(maxLength: 200), required: true),
                SyncField("brand", .text(maxLength: 200)),
                SyncField("barcode", .text(maxLength: 14)) { value throws(CinnError) in
                    let text = value.string ?? ""
                    guard try Barcode.validated(text).digits == text else {
                        throw .invalid("barcode", "barcode must be its 8 to 14 digits alone (a 12-digit UPC-A with a leading 0)")
                    }
                },
                SyncField("basis", .choice(FoodBasis.allCases.map(\.rawValue)), required: true),
                SyncField("category", .text(maxLength: 200)),
                SyncField("nutrients", .nutrients, required: true),
                SyncField("servings", .servings),
                // A recipe: how many servings it makes and its cooked weight; its ingredients are the children.
                SyncField("recipe_servings", .real(0.001...1000)),
                SyncField("cooked_grams", .real(0.01...100_000)),
            ],
            children: SyncChildren(
                name: "ingredients",
                fields: [
                    SyncField("food_id", .food),
                    SyncField("name", .text(maxLength: 200), required: true),
                    SyncField("brand", .text(maxLength: 200)),
                    SyncField("servings", .real(FoodLogEntry.servingsRange), required: true),
                    SyncField("serving_label", .text(maxLength: 100), required: true),
                    SyncField("grams", .real(0.001...100_000), required: true),
                    SyncField("nutrients", .nutrients, required: true),
                ], maximumCount: Recipe.maximumIngredients),
            validate: { fields throws(CinnError) in
                // The rules of a food made by hand: plausible amounts per 100 g or ml of its basis.
                guard let basis = fields["basis"]?.string.flatMap(FoodBasis.init(rawValue:)),
                    let nutrients = fields["nutrients"].flatMap({ Nutrients(storageText: $0.text) })
                else { return }
                _ = try Food(name: fields["name"]?.string ?? "", basis: basis, nutrients: nutrients).validated()
            }),
        SyncType(
            "preset",
            fields: [
                SyncField("name", .text(maxLength: 200), required: true),
                SyncField("meal", .text(maxLength: 40)) { value throws(CinnError) in
                    _ = try Meal.parse(value.string ?? "")
                },
            ],
            children: SyncChildren(
                name: "items",
                fields: [
                    SyncField("food_id", .food),
                    SyncField("name", .text(maxLength: 200), required: true),
                    SyncField("brand", .text(maxLength: 200)),
                    SyncField("servings", .real(FoodLogEntry.servingsRange), required: true),
                    SyncField("serving_label", .text(maxLength: 100), required: true),
                    SyncField("serving_amount", .real(0.001...100_000)),
                    SyncField("nutrients", .nutrients, required: true),
                ], maximumCount: 100),
            validate: { fields throws(CinnError) in
                guard case .array(let items)? = fields["items"], !items.isEmpty else {
                    throw .invalid("items", "a preset needs at least one item")
                }
            }),
        SyncType(
            "workout",
            fields: [
                SyncField("started_at", .instant, required: true),
                SyncField("name", .text(maxLength: 200), required: true),
                SyncField("duration_s", .real(ValidValues.workoutDurationSeconds)),
                SyncField("note", .note(maxLength: 2000)),
                SyncField("distance_m", .real(ValidValues.workoutDistanceMetres)),
                SyncField("energy_kcal", .real(ValidValues.workoutEnergyKcal)),
                // True while it is being logged; absent or null once finished.
                SyncField("in_progress", .boolean),
            ],
            children: SyncChildren(
                name: "sets",
                fields: [
                    SyncField("exercise", .exercise, required: true),
                    SyncField("reps", .integer(1...10_000)),
                    SyncField("weight_kg", .real(0.001...ValidValues.setWeightKg.upperBound)),
                    SyncField("duration_s", .real(0.001...ValidValues.setDurationSeconds.upperBound)),
                    SyncField("distance_m", .real(0.001...ValidValues.setDistanceMetres.upperBound)),
                    // Stored as its position in this list, SetKind's storage code.
                    SyncField("kind", .code(SetKind.allCases.map(\.rawValue)), required: true),
                    SyncField("rpe", .real(0...10)),
                    SyncField("rir", .integer(0...100)),
                    SyncField("note", .note(maxLength: Note.maximumLength)),
                ], maximumCount: 1000)),
        SyncType(
            "settings",
            fields: [
                SyncField("display_unit", .choice(MassUnit.allCases.map(\.rawValue)), required: true),
                SyncField("trend_method", .choice(TrendMethod.allCases.map(\.rawValue)), required: true),
                SyncField("time_zone", .text(maxLength: 100)) { value throws(CinnError) in
                    guard TimeZone(identifier: value.string ?? "") != nil else {
                        throw .invalid("time_zone", "time_zone must be an IANA time zone, like Europe/Berlin")
                    }
                },
                SyncField("energy_target_kcal", .real(500...10_000)),
                SyncField("energy_unit", .choice(EnergyUnit.allCases.map(\.rawValue)), required: true),
                SyncField("sex", .choice(Sex.allCases.map(\.rawValue))),
                SyncField("birth_date", .day),
                SyncField("height_cm", .real(100...250)),
                SyncField("activity_level", .choice(ActivityLevel.allCases.map(\.rawValue))),
                SyncField("length_unit", .choice(LengthUnit.allCases.map(\.rawValue)), required: true),
                SyncField("target_basis", .choice(TargetBasis.allCases.map(\.rawValue)), required: true),
                SyncField("energy_floor_kcal", .real(800...3000)),
                SyncField("onboarded", .boolean, required: true),
                SyncField("one_rep_max_formula", .choice(OneRepMaxFormula.allCases.map(\.rawValue)), required: true),
                SyncField("glucose_unit", .choice(GlucoseUnit.allCases.map(\.rawValue)), required: true),
                SyncField("insulin_peak_minutes", .real(10...270)),
                SyncField("insulin_duration_minutes", .real(ExponentialInsulinModel.durationRange)),
                SyncField("plate_unit", .choice([MassUnit.kilograms.rawValue, MassUnit.pounds.rawValue])),
                SyncField("bar_weight", .real(0...100)),
                SyncField("plates", .note(maxLength: 400)) { value throws(CinnError) in
                    do {
                        _ = try PlateSet.plates(value.string ?? "")
                    } catch let error as CinnError {
                        throw error
                    } catch {
                        throw .invalid("plates", "plates must be weights with counts, like 20x4 10x2")
                    }
                },
                // NutrientTargets' storage text: {"protein":{"grams":150},"nutrients":{"sodium":{"max":2000}}}.
                SyncField("nutrient_targets", .note(maxLength: 8000)) { value throws(CinnError) in
                    guard let json = try? JSONParser.parse((value.string ?? "").utf8) else {
                        throw .invalid("nutrient_targets", "nutrient_targets must be a JSON object of targets")
                    }
                    do throws(CinnError) {
                        _ = try NutrientTargets(json: json).validated()
                    } catch {
                        throw .invalid("nutrient_targets" + (error.field.map { ".\($0)" } ?? ""), error.message)
                    }
                },
            ], isSingleton: true),
        SyncType(
            "routine",
            fields: [
                SyncField("name", .text(maxLength: Routine.maximumName), required: true),
                SyncField("note", .note(maxLength: Note.maximumLength)),
            ],
            children: SyncChildren(
                name: "exercises",
                fields: [
                    SyncField("exercise", .exercise, required: true),
                    SyncField(
                        "sets", .integer(Int64(PlannedExercise.setsRange.lowerBound)...Int64(PlannedExercise.setsRange.upperBound)),
                        required: true),
                    SyncField("reps", .integer(Int64(LoggedSet.repsRange.lowerBound)...Int64(LoggedSet.repsRange.upperBound))),
                    SyncField("weight_kg", .real(0.001...LoggedSet.maximumWeightKilograms)),
                    SyncField(
                        "rest_s", .integer(Int64(PlannedExercise.restRange.lowerBound)...Int64(PlannedExercise.restRange.upperBound))),
                    SyncField("note", .note(maxLength: Note.maximumLength)),
                ], maximumCount: Routine.maximumExercises),
            validate: { fields throws(CinnError) in
                guard case .array(let items)? = fields["exercises"], !items.isEmpty else {
                    throw .invalid("exercises", "a routine needs at least one exercise")
                }
            }),
    ]

    /// The food ids `fields` name, in its fields and its children's.
    package func foodIDs(in fields: SyncFields) -> [UUID] {
        var ids = self.fields.filter { if case .food = $0.kind { true } else { false } }
            .compactMap { fields[$0.name]?.string.flatMap(UUID.init(text:)) }
        if let children, case .array(let items)? = fields[children.name] {
            let names = children.fields.filter { if case .food = $0.kind { true } else { false } }.map(\.name)
            for case .object(let members) in items {
                ids += names.compactMap { members[$0]?.string.flatMap(UUID.init(text:)) }
            }
        }
        return ids
    }

    package static let byName: [String: SyncType] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}
