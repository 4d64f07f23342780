import CinnCore

/// The most rows (records) a file of each kind may hold. Each is far beyond what one person's export holds, so a
/// file past it is not such an export, and reading it would hold memory and the database for minutes: it is
/// refused with a message that says so, and nothing of it is written.
public enum ImportLimits {
    /// Weigh-in files: ten a day for 270 years.
    public static let weighIns = 1_000_000
    /// Workout files (Fitbod, Strong, FitNotes): 200 sets a week for 190 years.
    public static let sets = 2_000_000
    /// Each table of a MyFitnessPal export.
    public static let myFitnessPalRows = 1_000_000
    /// Nightscout entries and treatments: a CGM reading every 5 minutes for 19 years.
    public static let nightscoutRecords = 2_000_000
    /// Top-level records of an Apple Health export (the largest seen are about 20 million).
    public static let appleHealthRecords = 100_000_000
    /// Foods of a food database file (USDA FoodData Central, Open Food Facts).
    public static let foods = 20_000_000

    /// The error for a file of `what` past `limit` rows.
    static func exceeded(_ limit: Int, _ what: String) -> CinnError {
        .invalid(
            "file",
            "the file holds more than \(limit.formatted(.number.grouping(.automatic).locale(.init(identifier: "en_US")))) \(what): "
                + "more than any one person's export holds; check that it is the right file")
    }
}
