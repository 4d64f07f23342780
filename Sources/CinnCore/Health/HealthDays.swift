import Foundation

/// The samples of one health data type on one local day, reduced to their count, sum, minimum and maximum:
/// what Cinn keeps of health data that is not journal data (steps, heart rate, active energy, sleep…).
/// A quantity's values are in `unit`; a category's (sleep, stand hours) are the samples' durations in minutes,
/// one summary per category value.
public struct HealthDaySummary: Sendable, Hashable {
    public struct Key: Sendable, Hashable {
        /// The HealthKit identifier, such as `HKQuantityTypeIdentifierStepCount`.
        public var type: String
        /// A category sample's value (`HKCategoryValueSleepAnalysisAsleepCore`); empty for quantities.
        public var category: String
        /// The values' unit as HealthKit spells it (`count`, `count/min`, `kcal`, `m`, `min`…).
        public var unit: String
        public var day: LocalDate

        public init(type: String, category: String = "", unit: String, day: LocalDate) {
            self.type = type
            self.category = category
            self.unit = unit
            self.day = day
        }
    }

    public var key: Key
    public var count: Int
    public var sum: Double
    public var minimum: Double
    public var maximum: Double

    public var mean: Double { sum / Double(count) }

    public init(key: Key, count: Int, sum: Double, minimum: Double, maximum: Double) {
        self.key = key
        self.count = count
        self.sum = sum
        self.minimum = minimum
        self.maximum = maximum
    }

    /// The summary of a single sample.
    public init(key: Key, value: Double) {
        self.init(key: key, count: 1, sum: value, minimum: value, maximum: value)
    }

    public mutating func add(_ value: Double) {
        count += 1
        sum += value
        minimum = Swift.min(minimum, value)
        maximum = Swift.max(maximum, value)
    }
}

extension Collection<HealthDaySummary> {
    /// The mean of the days' totals (steps a day), nil for no days.
    public var meanDailyTotal: Double? {
        isEmpty ? nil : reduce(0) { $0 + $1.sum } / Double(count)
    }

    /// All the days' samples taken together (heart rate): their mean, lowest and highest; nil for no days.
    public var samples: (mean: Double, minimum: Double, maximum: Double)? {
        guard let first else { return nil }
        let samples = reduce(0) { $0 + $1.count }
        return (reduce(0) { $0 + $1.sum } / Double(samples), map(\.minimum).min() ?? first.minimum, map(\.maximum).max() ?? first.maximum)
    }
}

/// How a health data type reads to a person: its name, and whether a day's samples add up (steps, energy,
/// distance) or are readings whose mean and range matter (heart rate, oxygen saturation).
public struct HealthDataType: Sendable, Hashable {
    public let identifier: String

    public init(_ identifier: String) { self.identifier = identifier }

    /// Height, kept in centimetres.
    public static let height = HealthDataType("HKQuantityTypeIdentifierHeight")

    /// "HKQuantityTypeIdentifierStepCount" → "Step count"; "HKCategoryTypeIdentifierSleepAnalysis" → "Sleep analysis".
    public var name: String {
        var bare = Substring(identifier)
        for prefix in ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKDataType"] where bare.hasPrefix(prefix) {
            bare = bare.dropFirst(prefix.count)
        }
        return Self.words(bare)
    }

    /// A type's name with its category value's: "Step count", "Mindful session"; sleep by its stage: "Core sleep",
    /// "Awake in bed".
    public static func name(type: String, category: String) -> String {
        let kind = HealthDataType(type)
        if type == "HKCategoryTypeIdentifierSleepAnalysis" {
            switch kind.categoryName(category) {
            case "": return "Sleep"
            case "Asleep core": return "Core sleep"
            case "Asleep deep": return "Deep sleep"
            case "Asleep REM": return "REM sleep"
            case "Asleep unspecified", "Asleep": return "Asleep"
            case "In bed": return "In bed"
            case "Awake": return "Awake in bed"
            default: break
            }
        }
        guard !category.isEmpty else { return kind.name }
        let value = kind.categoryName(category)
        let lowered = value.count > 1 && value.dropFirst().first!.isLowercase ? value.prefix(1).lowercased() + value.dropFirst() : value
        return "\(kind.name): \(lowered)"
    }

    /// "HKCategoryValueSleepAnalysisAsleepCore" under sleep analysis → "Asleep core".
    public func categoryName(_ value: String) -> String {
        var bare = Substring(value)
        if bare.hasPrefix("HKCategoryValue") { bare = bare.dropFirst("HKCategoryValue".count) }
        let typeWords = identifier.hasPrefix("HKCategoryTypeIdentifier") ? identifier.dropFirst("HKCategoryTypeIdentifier".count) : ""
        if !typeWords.isEmpty, bare.hasPrefix(typeWords), bare.count > typeWords.count { bare = bare.dropFirst(typeWords.count) }
        return Self.words(bare)
    }

    /// Whether a day's total is the number to show (HealthKit's cumulative quantity types).
    public var isCumulative: Bool {
        let bare =
            identifier.hasPrefix("HKQuantityTypeIdentifier")
            ? identifier.dropFirst("HKQuantityTypeIdentifier".count) : Substring(identifier)
        return bare.hasPrefix("Distance") || bare.hasPrefix("Dietary") || Self.cumulative.contains(String(bare))
            || identifier.hasPrefix("HKCategoryTypeIdentifier")
    }

    private static let cumulative: Set<String> = [
        "StepCount", "ActiveEnergyBurned", "BasalEnergyBurned", "FlightsClimbed", "AppleExerciseTime", "AppleStandTime", "AppleMoveTime",
        "PushCount", "SwimmingStrokeCount", "NikeFuel", "NumberOfTimesFallen", "TimeInDaylight", "UVExposure", "NumberOfAlcoholicBeverages",
        "InhalerUsage", "PhysicalEffort",
    ]

    /// Camel case as words, only the first capitalised: "AsleepCore" → "Asleep core"; acronyms stay ("VO2Max" → "VO2 max",
    /// "VariabilitySDNN" → "Variability SDNN").
    private static func words(_ text: Substring) -> String {
        let characters = Array(text)
        var result = ""
        for (index, character) in characters.enumerated() {
            if index > 0, character.isUppercase, characters[index - 1].isLowercase || characters[index - 1].isNumber {
                let startsWord = index + 1 < characters.count && characters[index + 1].isLowercase
                result.append(" ")
                result.append(contentsOf: startsWord ? character.lowercased() : String(character))
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// What an import did with one health data type's day summaries.
public struct ImportedHealthDays: Sendable, Hashable, Codable {
    public var type: String
    /// The category value, empty for quantities.
    public var category: String
    public var unit: String
    /// Days the export holds samples on, and how many samples.
    public var days: Int
    public var samples: Int
    /// Days whose summary is new, or replaces an older export's.
    public var written: Int

    public init(type: String, category: String, unit: String, days: Int, samples: Int, written: Int) {
        self.type = type
        self.category = category
        self.unit = unit
        self.days = days
        self.samples = samples
        self.written = written
    }

    /// "Step count", "Sleep analysis: asleep core".
    public var name: String { HealthDataType.name(type: type, category: category) }

    /// Two reports of parts of one import added up type by type, in the order of type, category and unit.
    public static func merged(_ first: [ImportedHealthDays], _ second: [ImportedHealthDays]) -> [ImportedHealthDays] {
        var byType: [String: ImportedHealthDays] = [:]
        for part in first + second {
            let key = part.type + "\u{0}" + part.category + "\u{0}" + part.unit
            if var sum = byType[key] {
                sum.days += part.days
                sum.samples += part.samples
                sum.written += part.written
                byType[key] = sum
            } else {
                byType[key] = part
            }
        }
        return byType.values.sorted { ($0.type, $0.category, $0.unit) < ($1.type, $1.category, $1.unit) }
    }
}

/// One sample of a health data type that arrived in a delivery (Health Auto Export), kept so that deliveries whose
/// windows overlap count it once: the day summaries are worked out from the samples (`HealthDaySummary`).
/// A quantity's `value` is in `unit`; a bucket of several readings (a minute of heart rate) has its mean as `value`
/// and its lowest and highest as `minimum` and `maximum`. A category sample's value is its duration in minutes.
public struct HealthSample: Sendable, Hashable {
    public var type: String
    public var category: String
    public var unit: String
    public var start: Date
    public var end: Date
    /// The local day it counts on: its start's, in the offset it was written in, unless it says otherwise (a night's
    /// sleep counts on the day it ends).
    public var day: LocalDate
    public var source: String
    public var value: Double
    public var minimum: Double
    public var maximum: Double

    public init(
        type: String, category: String = "", unit: String, start: Date, end: Date, day: LocalDate, source: String,
        value: Double, minimum: Double? = nil, maximum: Double? = nil
    ) {
        self.type = type
        self.category = category
        self.unit = unit
        self.start = start
        self.end = end
        self.day = day
        self.source = source
        self.value = value
        self.minimum = Swift.min(minimum ?? value, value)
        self.maximum = Swift.max(maximum ?? value, value)
    }

    /// A sample's value when it is finite and within ±`ValidValues.healthSampleMagnitude`.
    public static func validatedValue(_ value: Double, field: String) throws(CinnError) -> Double {
        try ValidValues.number(value, in: -ValidValues.healthSampleMagnitude...ValidValues.healthSampleMagnitude, field: field)
    }

    /// The samples' day summaries: count, sum of values, lowest minimum and highest maximum per type and day. The
    /// samples are added in time order, so the same samples give the same sums to the last bit whatever order they
    /// come in (a delivery sent again then changes nothing).
    public static func summaries(_ samples: some Sequence<HealthSample>) -> [HealthDaySummary] {
        var days: [HealthDaySummary.Key: HealthDaySummary] = [:]
        let ordered = samples.sorted { ($0.start, $0.end, $0.source, $0.value) < ($1.start, $1.end, $1.source, $1.value) }
        for sample in ordered {
            let key = HealthDaySummary.Key(type: sample.type, category: sample.category, unit: sample.unit, day: sample.day)
            if var summary = days[key] {
                summary.count += 1
                summary.sum += sample.value
                summary.minimum = Swift.min(summary.minimum, sample.minimum)
                summary.maximum = Swift.max(summary.maximum, sample.maximum)
                days[key] = summary
            } else {
                days[key] = HealthDaySummary(key: key, count: 1, sum: sample.value, minimum: sample.minimum, maximum: sample.maximum)
            }
        }
        return days.values.sorted {
            ($0.key.type, $0.key.category, $0.key.unit, $0.key.day) < ($1.key.type, $1.key.category, $1.key.unit, $1.key.day)
        }
    }
}
