import CinnCore
import Foundation

/// Cinn's own food journal file (`cinn food export --format json`): the user's foods, every entry
/// with its nutrient snapshot, presets, and daily totals (derived; ignored when read back). Written
/// and read through the same types, so an export always imports back.
public struct FoodJournalDocument: Codable, Sendable {
    public static let formatName = "cinn-food-journal"

    public var format: String
    public var version: Int
    public var foods: [FoodRecord]
    public var entries: [EntryRecord]
    public var presets: [PresetRecord]
    public var days: [DayRecord]

    public init(foods: [Food], entries: [FoodLogEntry], presets: [FoodPreset], days: [DayNutrition]) {
        format = Self.formatName
        version = 1
        self.foods = foods.map(FoodRecord.init)
        self.entries = entries.map(EntryRecord.init)
        self.presets = presets.map(PresetRecord.init)
        self.days = days.map(DayRecord.init)
    }

    public struct Serving: Codable, Sendable {
        public var label: String
        public var grams: Double?
    }

    public struct FoodRecord: Codable, Sendable {
        public var id: UUID
        public var name: String
        public var brand: String?
        public var barcode: String?
        public var source: String
        public var basis: String
        public var category: String?
        public var nutrientsPer100: [String: Double]
        public var servings: [Serving]

        enum CodingKeys: String, CodingKey {
            case id, name, brand, barcode, source, basis, category, servings
            case nutrientsPer100 = "nutrients_per_100"
        }

        init(_ food: Food) {
            id = food.id
            name = food.name
            brand = food.brand
            barcode = food.barcode
            source = food.source.rawValue
            basis = food.basis.rawValue
            category = food.category
            nutrientsPer100 = FoodJournalDocument.keyed(food.nutrients)
            servings = food.servings.map { Serving(label: $0.label, grams: $0.amount) }
        }

        func food(field: String) throws(CinnError) -> Food {
            guard let source = FoodSource(rawValue: source) else { throw .invalid("\(field).source", "source must be mine, usda or off") }
            guard let basis = FoodBasis(rawValue: basis) else { throw .invalid("\(field).basis", "basis must be g or ml") }
            let servings = servings.map { ServingSize(label: $0.label, amount: $0.grams ?? 0) }
            let nutrients = try Nutrients(keyed: nutrientsPer100, field: "\(field).nutrients_per_100")
            do {
                return try Food(
                    id: id, name: name, brand: brand, barcode: barcode, source: source, basis: basis,
                    nutrients: nutrients, servings: servings, category: category
                ).validated()
            } catch {
                throw .invalid("\(field).\(error.field ?? "food")", error.message)
            }
        }
    }

    public struct EntryRecord: Codable, Sendable {
        public var id: UUID
        public var foodID: UUID?
        public var name: String
        public var brand: String?
        public var meal: String
        /// Local time with its offset: `2024-03-14T08:00:00+01:00`.
        public var eatenAt: String
        public var servings: Double
        public var serving: Serving
        public var nutrients: [String: Double]
        public var note: String?
        public var source: String

        enum CodingKeys: String, CodingKey {
            case id, name, brand, meal, servings, serving, nutrients, note, source
            case foodID = "food_id"
            case eatenAt = "eaten_at"
        }

        init(_ entry: FoodLogEntry) {
            id = entry.id
            foodID = entry.foodID
            name = entry.name
            brand = entry.brand
            meal = entry.meal.name
            eatenAt = WeighIn.isoString(instant: entry.eatenAt, utcOffsetSeconds: entry.utcOffsetSeconds)
            servings = entry.servings
            serving = Serving(label: entry.servingLabel, grams: entry.servingAmount)
            nutrients = FoodJournalDocument.keyed(entry.nutrients)
            note = entry.note
            source = entry.source
        }

        func entry(field: String) throws(CinnError) -> FoodLogEntry {
            guard let time = LocalDateTime(iso: eatenAt), time.utcOffsetSeconds != nil else {
                throw .invalid("\(field).eaten_at", "eaten_at must be an ISO 8601 time with its offset")
            }
            let resolved = time.resolved(in: TimeZone(secondsFromGMT: 0)!)
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, trimmed.count <= 200 else {
                throw .invalid("\(field).name", "an entry needs a name of at most 200 characters")
            }
            if let brand, brand.count > 200 { throw .invalid("\(field).brand", "a brand must be at most 200 characters") }
            if let note, note.count > 2000 { throw .invalid("\(field).note", "a note must be at most 2000 characters") }
            guard !serving.label.isEmpty, serving.label.count <= 200 else {
                throw .invalid("\(field).serving.label", "a serving needs a name of at most 200 characters")
            }
            if let grams = serving.grams, !(grams.isFinite && grams > 0 && grams <= 100_000) {
                throw .invalid("\(field).serving.grams", "a serving must weigh more than 0 g and at most 100 kg")
            }
            let validSource = source == "manual" || source == "demo" || source.hasPrefix("import:") || source.hasPrefix("sync:")
            guard validSource, source.count <= 100 else {
                throw .invalid("\(field).source", "source must be manual, demo, import:FORMAT or sync:CLIENT")
            }
            return FoodLogEntry(
                id: id, foodID: foodID, name: trimmed, brand: brand, meal: try Meal.parse(meal, field: "\(field).meal"),
                eatenAt: resolved.instant, utcOffsetSeconds: resolved.utcOffsetSeconds,
                servings: try FoodLogEntry.validatedServings(servings, field: "\(field).servings"),
                servingLabel: serving.label, servingAmount: serving.grams,
                nutrients: try Nutrients(keyed: nutrients, field: "\(field).nutrients"), note: note, source: source)
        }
    }

    public struct PresetRecord: Codable, Sendable {
        public struct Item: Codable, Sendable {
            public var foodID: UUID?
            public var name: String
            public var brand: String?
            public var servings: Double
            public var serving: Serving
            public var nutrients: [String: Double]

            enum CodingKeys: String, CodingKey {
                case name, brand, servings, serving, nutrients
                case foodID = "food_id"
            }
        }

        public var id: UUID
        public var name: String
        public var meal: String?
        public var items: [Item]

        init(_ preset: FoodPreset) {
            id = preset.id
            name = preset.name
            meal = preset.meal?.name
            items = preset.items.map {
                Item(
                    foodID: $0.foodID, name: $0.name, brand: $0.brand, servings: $0.servings,
                    serving: Serving(label: $0.servingLabel, grams: $0.servingAmount), nutrients: FoodJournalDocument.keyed($0.nutrients))
            }
        }

        func preset(field: String) throws(CinnError) -> FoodPreset {
            var parsed: [FoodPreset.Item] = []
            for (index, item) in items.enumerated() {
                parsed.append(
                    FoodPreset.Item(
                        foodID: item.foodID, name: item.name, brand: item.brand, servings: item.servings, servingLabel: item.serving.label,
                        servingAmount: item.serving.grams,
                        nutrients: try Nutrients(keyed: item.nutrients, field: "\(field).items[\(index)].nutrients")))
            }
            let meal = try meal.map { text throws(CinnError) in try Meal.parse(text, field: "\(field).meal") }
            do {
                return try FoodPreset(id: id, name: name, meal: meal, items: parsed).validated()
            } catch {
                throw .invalid("\(field).\(error.field ?? "preset")", error.message)
            }
        }
    }

    /// A day's totals, for people and spreadsheets; derived from the entries, so not read back.
    public struct DayRecord: Codable, Sendable {
        public var date: String
        public var entries: Int
        public var nutrients: [String: Double]

        init(_ day: DayNutrition) {
            date = day.date.iso
            entries = day.entries.count
            nutrients = FoodJournalDocument.keyed(day.totals)
        }
    }

    static func keyed(_ nutrients: Nutrients) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: nutrients.amounts.map { ($0.nutrient.key, $0.amount) })
    }
}

/// A food journal file read back: what it holds, checked, and what could not be used.
public struct FoodJournalFile: Sendable {
    public var foods: [Food] = []
    public var entries: [FoodLogEntry] = []
    public var presets: [FoodPreset] = []
    /// Bad records, by their position: `line` is the 1-based index in their list, `field` names it.
    public var rejected: [RejectedRow] = []
    public var rejectedCount = 0
    public var recordsRead = 0

    /// The largest file read; the document is decoded whole.
    public static let maximumSize = 64 * 1024 * 1024

    /// Reads and checks a file written by `cinn food export --format json`.
    public init(url: URL) throws(CinnError) {
        let data: Data
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
            guard size <= Self.maximumSize else {
                throw CinnError.invalid("file", "\(url.lastPathComponent) is larger than 64 MB; a food journal export is far smaller")
            }
            data = try Data(contentsOf: url)
        } catch let error as CinnError {
            throw error
        } catch {
            throw .invalid("file", "cannot read \(url.lastPathComponent)")
        }
        try self.init(data: data, name: url.lastPathComponent)
    }

    public init(data: Data, name: String) throws(CinnError) {
        let document: FoodJournalDocument
        do {
            document = try JSONDecoder().decode(FoodJournalDocument.self, from: data)
        } catch let error as DecodingError {
            throw .invalid("file", "\(name) is not a Cinn food journal (\(Self.describe(error)))")
        } catch {
            throw .invalid("file", "\(name) is not a Cinn food journal")
        }
        guard document.format == FoodJournalDocument.formatName else {
            throw .invalid("format", "\(name) is a \"\(document.format)\" file, not \"\(FoodJournalDocument.formatName)\"")
        }
        guard document.version == 1 else { throw .invalid("version", "\(name) is version \(document.version); Cinn reads version 1") }
        for (index, record) in document.foods.enumerated() {
            if let food = check(index, "foods[\(index)]", { (field: String) throws(CinnError) in try record.food(field: field) }) {
                foods.append(food)
            }
        }
        for (index, record) in document.entries.enumerated() {
            if let entry = check(index, "entries[\(index)]", { (field: String) throws(CinnError) in try record.entry(field: field) }) {
                entries.append(entry)
            }
        }
        for (index, record) in document.presets.enumerated() {
            if let preset = check(index, "presets[\(index)]", { (field: String) throws(CinnError) in try record.preset(field: field) }) {
                presets.append(preset)
            }
        }
    }

    /// The record `make` builds, or nil with the reason listed as rejected.
    private mutating func check<T>(_ index: Int, _ field: String, _ make: (String) throws(CinnError) -> T) -> T? {
        recordsRead += 1
        do { return try make(field) } catch {
            rejectedCount += 1
            if rejected.count < ImportReport.maximumListedRejections {
                rejected.append(RejectedRow(line: index + 1, field: error.field ?? field, reason: error.message))
            }
            return nil
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce(into: "") { text, key in
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(path(context.codingPath)) has the wrong type"
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context.codingPath)) is not valid"
        @unknown default: return "not valid JSON"
        }
    }
}
