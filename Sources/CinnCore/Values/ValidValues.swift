import Foundation

/// What Cinn stores, defined once (docs/SECURITY.md, "Valid values"): the times every record shares, the texts it
/// holds, and the ranges of values that have no type of their own to check them (a body weight is `Mass.bodyWeight`,
/// a glucose `Glucose.validated`, a dose `InsulinDose.validatedUnits`, a servings count
/// `FoodLogEntry.validatedServings`). REST, forms, the CLI, every file importer, Health Auto Export, Nightscout and
/// sync check against these; sync's field rules (`SyncSchema`) name the same ranges.
public enum ValidValues {
    // MARK: Times

    /// The years a stored time may fall in.
    public static let years = 1900...2199
    /// 1900-01-01T00:00:00Z, the earliest instant Cinn stores.
    public static let earliest = Date(timeIntervalSince1970: -2_208_988_800)
    /// 2200-01-01T00:00:00Z, the first instant Cinn no longer stores.
    public static let end = Date(timeIntervalSince1970: 7_258_118_400)

    /// A time within 1900–2199, or an error naming `field`.
    public static func instant(_ date: Date, field: String) throws(CinnError) -> Date {
        guard date >= earliest, date < end else { throw .invalid(field, "\(field) must be a time from 1900 to 2199") }
        return date
    }

    // MARK: Workouts

    /// A workout's length: up to two days (an ultra-marathon, a long hike), in seconds.
    public static let workoutDurationSeconds = 0.0...172_800
    /// A workout's distance: up to 1,000 km, in metres.
    public static let workoutDistanceMetres = 0.0...1_000_000
    /// A workout's active energy: up to 20,000 kcal.
    public static let workoutEnergyKcal = 0.0...20_000

    /// One set's weight: up to 2,000 kg (a sled, a leg press), in kilograms.
    public static let setWeightKg = 0.0...2_000
    /// How many times one set's weight may be lifted at once (two dumbbells; Fitbod writes up to 4).
    public static let setLoadMultiplier = 1.0...10.0
    /// One set's length: up to a day, in seconds.
    public static let setDurationSeconds = 0.0...86_400
    /// One set's distance: up to 1,000 km, in metres.
    public static let setDistanceMetres = 0.0...1_000_000

    // MARK: Food

    /// The most energy one logged entry may carry: a whole day's food sent as one total fits many times over.
    public static let entryEnergyKcal = 0.0...50_000
    /// The most of any other nutrient one logged entry may carry: 10 kg, in the nutrient's own unit.
    public static func entryAmount(of nutrient: Nutrient) -> ClosedRange<Double> {
        guard let grams = nutrient.unit.grams else { return entryEnergyKcal }
        return 0...(10_000 / grams)
    }

    /// A logged entry's amount of `nutrient`, in its unit, when it is within `entryAmount(of:)`.
    public static func entryAmount(_ amount: Double, of nutrient: Nutrient, field: String) throws(CinnError) -> Double {
        try number(amount, in: entryAmount(of: nutrient), field: field, unit: nutrient.unit.rawValue)
    }

    // MARK: Health data that is not a journal record

    /// The largest magnitude of one sample of a health metric Cinn sums up per day (steps, heart rate, a distance in
    /// metres, energy in kcal…): far above any real sample, low enough that a century of daily sums stays exact.
    public static let healthSampleMagnitude = 1_000_000.0

    // MARK: Numbers

    /// `value` when it is finite and within `range`; else an error naming `field` and the range, with `unit`.
    public static func number(_ value: Double, in range: ClosedRange<Double>, field: String, unit: String = "") throws(CinnError) -> Double
    {
        guard value.isFinite else { throw .invalid(field, "\(field) must be a number") }
        guard range.contains(value) else {
            let suffix = unit.isEmpty ? "" : " " + unit
            throw .invalid(field, "\(field) must be between \(format(range.lowerBound))\(suffix) and \(format(range.upperBound))\(suffix)")
        }
        return value
    }

    /// An optional number: nil stays nil.
    public static func optional(_ value: Double?, in range: ClosedRange<Double>, field: String, unit: String = "") throws(CinnError)
        -> Double?
    {
        guard let value else { return nil }
        return try number(value, in: range, field: field, unit: unit)
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    // MARK: Text

    /// The longest name (of a food, an exercise, a routine, a workout, a quick add…).
    public static let nameLength = 200

    /// A name: trimmed, not empty, at most `maximumLength` characters, on one line. Tabs and line breaks become
    /// spaces (a spreadsheet's cell may hold them); other control characters and the marks that reverse the direction
    /// of text are refused.
    public static func name(_ text: String, field: String, maximumLength: Int = nameLength) throws(CinnError) -> String {
        var line = text
        if line.unicodeScalars.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
            line = String(String.UnicodeScalarView(line.unicodeScalars.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 }))
        }
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalid(field, "\(field) must not be empty") }
        guard trimmed.count <= maximumLength else { throw .invalid(field, "\(field) must be at most \(maximumLength) characters") }
        try plainText(trimmed, field: field, allowingLineBreaks: false)
        return trimmed
    }

    /// Refuses control characters (but newline, carriage return and tab when `allowingLineBreaks`) and the marks that
    /// reverse the direction of text (U+202A–U+202E, U+2066–U+2069), which would make a name read as something else in
    /// a page, an export or a spreadsheet.
    public static func plainText(_ text: String, field name: @autoclosure () -> String, allowingLineBreaks: Bool) throws(CinnError) {
        for scalar in text.unicodeScalars {
            if allowingLineBreaks && (scalar == "\n" || scalar == "\r" || scalar == "\t") { continue }
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                let field = name()
                throw .invalid(field, "\(field) holds a control character (U+\(String(format: "%04X", scalar.value)))")
            }
            if (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) {
                let field = name()
                throw .invalid(
                    field, "\(field) holds a mark that reverses the direction of text (U+\(String(format: "%04X", scalar.value)))")
            }
        }
    }

    /// Whether `text` passes `plainText` (for readers that skip what does not).
    public static func isPlain(_ text: String, allowingLineBreaks: Bool) -> Bool {
        (try? plainText(text, field: "", allowingLineBreaks: allowingLineBreaks)) != nil
    }
}

extension Double {
    /// This number rounded to the nearest whole number, when it is finite and within ±10^15 (where every whole Double
    /// is exact and no Int conversion can trap); nil otherwise. Pages show nil as "—".
    public var roundedInt: Int? {
        guard isFinite, abs(self) < 1e15 else { return nil }
        return Int(self.rounded())
    }

    /// This number rounded to a whole number, as text; "—" when it cannot be shown (`roundedInt` is nil).
    public var wholeText: String { roundedInt.map(String.init) ?? "—" }
}
