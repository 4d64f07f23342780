import CinnCore
import CinnStore
import Foundation

/// A study's data in tables, with a data dictionary: each participant's glucose, insulin, meals, meal
/// events (with their responses), food and weight. De-identified, participants are `P001`…, every date
/// and time of a participant is shifted by a whole number of days of its own (−180 to +180, not exported;
/// times of day and weekdays' spacing stay), record ids are numbers of the export, and nothing written
/// by a person (names, notes, report reasons, account names) is included.
public struct ResearchExport: Sendable {
    public struct Table: Sendable {
        public var name: String
        public var columns: [String]
        public var rows: [[String?]]
    }

    public struct Column: Sendable {
        public var table: String
        public var column: String
        public var type: String
        public var unit: String
        public var description: String
    }

    public var tables: [Table]
    public var dictionary: [Column] { Self.dictionary }

    /// Every column of every table, in order: the data dictionary.
    public static let dictionary: [Column] = [
        Column(
            table: "participants", column: "participant", type: "text", unit: "",
            description: "The participant: P001… when de-identified, else the account name"),
        Column(
            table: "participants", column: "first_day", type: "date", unit: "",
            description: "The first day with a record (shifted when de-identified)"),
        Column(
            table: "participants", column: "last_day", type: "date", unit: "",
            description: "The last day with a record (shifted when de-identified)"),
        Column(table: "glucose", column: "participant", type: "text", unit: "", description: "See participants"),
        Column(
            table: "glucose", column: "time", type: "datetime", unit: "ISO 8601 with offset",
            description: "When the reading was taken, local time with its UTC offset"),
        Column(table: "glucose", column: "glucose_mg_dl", type: "number", unit: "mg/dL", description: "Blood glucose (mmol/L × 18.0156)"),
        Column(
            table: "glucose", column: "timing", type: "text", unit: "", description: "fasting, before_meal, after_meal, bedtime, or empty"),
        Column(table: "glucose", column: "source", type: "text", unit: "", description: "manual, import:<format> or sync:<client>"),
        Column(table: "insulin", column: "participant", type: "text", unit: "", description: "See participants"),
        Column(table: "insulin", column: "time", type: "datetime", unit: "ISO 8601 with offset", description: "When the dose was taken"),
        Column(table: "insulin", column: "units", type: "number", unit: "U", description: "Insulin units"),
        Column(table: "insulin", column: "kind", type: "text", unit: "", description: "bolus or basal"),
        Column(table: "insulin", column: "insulin", type: "text", unit: "", description: "The insulin's name, when given"),
        Column(table: "meals", column: "participant", type: "text", unit: "", description: "See participants"),
        Column(table: "meals", column: "meal", type: "text", unit: "", description: "The meal's number in this export (M1…)"),
        Column(table: "meals", column: "name", type: "text", unit: "", description: "The meal's name (empty when de-identified)"),
        Column(
            table: "meals", column: "kind", type: "text", unit: "",
            description:
                "common or test; diary for a meal of the food log: the set of foods logged together (a preset's name when one has them)"),
        Column(table: "meals", column: "carbohydrate_g", type: "number", unit: "g", description: "The meal's carbohydrate estimate"),
        Column(
            table: "meals", column: "foods", type: "text", unit: "g", description: "The meal's foods as name:grams, separated by semicolons"
        ),
        Column(table: "meal_events", column: "participant", type: "text", unit: "", description: "See participants"),
        Column(table: "meal_events", column: "meal", type: "text", unit: "", description: "The meal eaten (see meals)"),
        Column(table: "meal_events", column: "time", type: "datetime", unit: "ISO 8601 with offset", description: "When it was eaten"),
        Column(table: "meal_events", column: "portion", type: "number", unit: "× the meal", description: "How much of the meal"),
        Column(
            table: "meal_events", column: "carbohydrate_g", type: "number", unit: "g",
            description: "Carbohydrate counted for this event, when recorded"),
        Column(
            table: "meal_events", column: "reported", type: "boolean", unit: "", description: "Whether the event was reported (flagged)"),
        Column(
            table: "meal_events", column: "report_reason", type: "text", unit: "",
            description: "Why it was reported (empty when de-identified)"),
        Column(
            table: "meal_events", column: "baseline_mg_dl", type: "number", unit: "mg/dL",
            description: "Last reading in the 30 minutes before the meal"),
        Column(
            table: "meal_events", column: "peak_mg_dl", type: "number", unit: "mg/dL",
            description: "Highest reading within 3 hours after the meal"),
        Column(table: "meal_events", column: "minutes_to_peak", type: "number", unit: "min", description: "From the meal to the peak"),
        Column(
            table: "meal_events", column: "incremental_area_mg_dl_min", type: "number", unit: "mg/dL × min",
            description: "2-hour incremental area above the baseline (FAO/WHO 1998)"),
        Column(table: "meal_events", column: "complete", type: "boolean", unit: "", description: "Whether readings cover the 2 hours"),
        Column(
            table: "meal_events", column: "bolus_units", type: "number", unit: "U",
            description: "Bolus insulin from 30 minutes before to 60 minutes after"),
        Column(
            table: "meal_events", column: "source", type: "text", unit: "",
            description:
                "meal_event (logged as a meal), or diary: food entries logged in one slot within 30 minutes, at the first one's time"),
        Column(table: "food", column: "participant", type: "text", unit: "", description: "See participants"),
        Column(table: "food", column: "time", type: "datetime", unit: "ISO 8601 with offset", description: "When it was eaten"),
        Column(table: "food", column: "meal", type: "text", unit: "", description: "breakfast, lunch, dinner, snacks…"),
        Column(table: "food", column: "food", type: "text", unit: "", description: "The food's name (empty when de-identified)"),
        Column(table: "food", column: "servings", type: "number", unit: "", description: "How many servings"),
        Column(table: "food", column: "serving", type: "text", unit: "", description: "The serving, such as 1 bar (40 g)"),
        Column(table: "food", column: "energy_kcal", type: "number", unit: "kcal", description: "Energy eaten"),
        Column(table: "food", column: "carbohydrate_g", type: "number", unit: "g", description: "Carbohydrate eaten"),
        Column(table: "food", column: "protein_g", type: "number", unit: "g", description: "Protein eaten"),
        Column(table: "food", column: "fat_g", type: "number", unit: "g", description: "Fat eaten"),
        Column(table: "weight", column: "participant", type: "text", unit: "", description: "See participants"),
        Column(table: "weight", column: "time", type: "datetime", unit: "ISO 8601 with offset", description: "When the weigh-in was taken"),
        Column(table: "weight", column: "weight_kg", type: "number", unit: "kg", description: "Body weight"),
    ]

    package static let tableNames = ["participants", "glucose", "insulin", "meals", "meal_events", "food", "weight"]

    /// Builds the export of `journals` (one per participant, in order).
    public static func make(_ journals: [(name: String, journal: Journal)], deidentify: Bool) async throws -> ResearchExport {
        var tables = Dictionary(
            uniqueKeysWithValues: tableNames.map { name in
                (name, Table(name: name, columns: dictionary.filter { $0.table == name }.map(\.column), rows: []))
            })
        var generator = SystemRandomNumberGenerator()
        for (index, item) in journals.enumerated() {
            let participant = deidentify ? String(format: "P%03d", index + 1) : item.name
            let shift = deidentify ? TimeInterval(Int.random(in: -180...180, using: &generator) * 86_400) : 0
            let journal = item.journal, user = journal.user, store = journal.store
            func time(_ instant: Date, _ offset: Int) -> String {
                WeighIn.isoString(instant: instant.addingTimeInterval(shift), utcOffsetSeconds: offset)
            }
            func number(_ value: Double?) -> String? { value.flatMap(Self.number) }
            var days: [LocalDate] = []
            func seen(_ instant: Date, _ offset: Int) {
                days.append(LocalDate(instant: instant.addingTimeInterval(shift), utcOffsetSeconds: offset))
            }

            let readings = try await store.glucoseReadings(user: user, limit: Int(Int32.max)).reversed()
            for reading in readings {
                seen(reading.measuredAt, reading.utcOffsetSeconds)
                tables["glucose"]?.rows.append([
                    participant, time(reading.measuredAt, reading.utcOffsetSeconds), number(reading.glucose.milligramsPerDeciliter),
                    reading.timing?.rawValue, reading.source,
                ])
            }
            let doses = try await store.insulinDoses(user: user, from: .distantPast, to: .distantFuture)
            for dose in doses {
                seen(dose.takenAt, dose.utcOffsetSeconds)
                tables["insulin"]?.rows.append([
                    participant, time(dose.takenAt, dose.utcOffsetSeconds), number(dose.units), dose.kind.rawValue,
                    deidentify ? nil : dose.insulin,
                ])
            }
            let diary = DiaryMeals.events(
                try await store.loggedFoodEntries(user: user, from: .distantPast, to: .distantFuture),
                presets: try await store.presets(user: user))
            let meals =
                try await store.mealsOfEvents(user: user, from: .distantPast, to: .distantFuture)
                + (try await store.meals(user: user))
            var mealNumbers: [UUID: String] = [:]
            for (meal, kind) in meals.map({ ($0, $0.kind.rawValue) }) + diary.map({ ($0.meal, "diary") }) where mealNumbers[meal.id] == nil
            {
                let number = "M\(mealNumbers.count + 1)"
                mealNumbers[meal.id] = number
                tables["meals"]?.rows.append([
                    participant, number, deidentify ? nil : meal.name, kind, meal.carbohydrateGrams.flatMap(Self.number),
                    deidentify ? nil : meal.foods.map { "\($0.name):\(Self.number($0.grams) ?? "")" }.joined(separator: ";"),
                ])
            }
            let points = readings.map { GlucosePoint(at: $0.measuredAt, glucose: $0.glucose) }
            let events =
                (try await store.mealEvents(user: user, from: .distantPast, to: .distantFuture, inFoodLog: false) + diary.map(\.event))
                .sorted { $0.eatenAt < $1.eatenAt }
            for event in events {
                seen(event.eatenAt, event.utcOffsetSeconds)
                let response = MealResponse.around(event, points: points, doses: doses)
                tables["meal_events"]?.rows.append([
                    participant, mealNumbers[event.mealID], time(event.eatenAt, event.utcOffsetSeconds), number(event.portion),
                    number(event.carbohydrateGrams), event.isReported ? "true" : "false", deidentify ? nil : event.reportReason,
                    number(response?.baseline.glucose.milligramsPerDeciliter), number(response?.peak.glucose.milligramsPerDeciliter),
                    number(response?.minutesToPeak), response.flatMap { $0.incrementalArea.roundedInt.map(String.init) },
                    response.map { $0.isComplete ? "true" : "false" }, number(response?.bolusUnits),
                    event.diaryMeal == nil ? "meal_event" : "diary",
                ])
            }
            if let span = try await store.foodLogSpan(user: user) {
                for entry in try await store.foodEntries(user: user, from: span.lowerBound, to: span.upperBound) {
                    seen(entry.eatenAt, entry.utcOffsetSeconds)
                    tables["food"]?.rows.append([
                        participant, time(entry.eatenAt, entry.utcOffsetSeconds), entry.meal.description, deidentify ? nil : entry.name,
                        number(entry.servings), deidentify ? nil : entry.servingLabel, number(entry.nutrients[.energy]),
                        number(entry.nutrients[.carbohydrate]), number(entry.nutrients[.protein]), number(entry.nutrients[.fat]),
                    ])
                }
            }
            for weighIn in try await store.weighIns(user: user, limit: Int(Int32.max)).reversed() {
                seen(weighIn.measuredAt, weighIn.utcOffsetSeconds)
                tables["weight"]?.rows.append([
                    participant, time(weighIn.measuredAt, weighIn.utcOffsetSeconds), number(weighIn.weight.kilograms),
                ])
            }
            tables["participants"]?.rows.append([participant, days.min()?.iso, days.max()?.iso])
        }
        return ResearchExport(tables: tableNames.compactMap { tables[$0] })
    }

    /// A number to hundredths, without trailing zeros or an exponent: 106.29, 72.4, 1850.
    /// A number to the hundredth; nil (an empty cell, `null` in JSON) for one that is not finite.
    static func number(_ value: Double) -> String? {
        let hundredths = (value * 100).rounded() / 100
        guard hundredths.isFinite else { return nil }
        return hundredths == hundredths.rounded() && abs(hundredths) < 1e15 ? String(Int(hundredths)) : String(hundredths)
    }

    /// One table as CSV (RFC 4180: a header, commas, quotes where needed, CRLF line ends).
    public func csv(_ name: String) throws -> String {
        if name == "dictionary" {
            return Self.csvText(
                ["table", "column", "type", "unit", "description"],
                dictionary.map { [$0.table, $0.column, $0.type, $0.unit, $0.description] })
        }
        guard let table = tables.first(where: { $0.name == name }) else {
            throw CinnError.invalid(
                "table", "no table \(name); the tables are \((Self.tableNames + ["dictionary"]).joined(separator: ", "))")
        }
        return Self.csvText(table.columns, table.rows)
    }

    static func csvText(_ header: [String], _ rows: [[String?]]) -> String {
        func field(_ value: String?) -> String {
            value.map(CSVField.escaped) ?? ""
        }
        return ([header.map(field).joined(separator: ",")] + rows.map { $0.map(field).joined(separator: ",") }).joined(separator: "\r\n")
            + "\r\n"
    }

    /// The whole export as JSON: `{"dictionary": [...], "tables": {"glucose": [{"participant": …}, …], …}}`.
    public func json() -> String {
        var out = "{\"dictionary\":["
        out += dictionary.map { column in
            "{\"table\":\(JSONText.quoted(column.table)),\"column\":\(JSONText.quoted(column.column)),\"type\":\(JSONText.quoted(column.type)),"
                + "\"unit\":\(JSONText.quoted(column.unit)),\"description\":\(JSONText.quoted(column.description))}"
        }.joined(separator: ",")
        out += "],\"tables\":{"
        out += tables.map { table in
            JSONText.quoted(table.name) + ":["
                + table.rows.map { row in
                    "{"
                        + zip(table.columns, row).map { column, value in
                            let dictionaryType = Self.dictionary.first { $0.table == table.name && $0.column == column }?.type
                            let rendered: String
                            switch (value, dictionaryType) {
                            case (nil, _): rendered = JSONText.null
                            case (let value?, "number"): rendered = value
                            case (let value?, "boolean"): rendered = value
                            case (let value?, _): rendered = JSONText.quoted(value)
                            }
                            return JSONText.quoted(column) + ":" + rendered
                        }.joined(separator: ",") + "}"
                }.joined(separator: ",") + "]"
        }.joined(separator: ",")
        return out + "}}"
    }
}
