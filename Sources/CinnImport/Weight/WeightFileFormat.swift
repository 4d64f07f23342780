/// The weight file formats Cinn can import; the raw value is the name `--format` takes.
public enum WeightFileFormat: String, CaseIterable, Sendable {
    /// Any CSV with a header naming a date and a weight column.
    case csv
    /// The Hacker's Diet Online CSV backup.
    case hackersDiet = "hackdiet"
    /// The Libra Android app's CSV export.
    case libra
    /// Fitbit's legacy `weight-*.json` files from Google Takeout.
    case fitbit
    /// Google Health's `weight*.csv` from Google Takeout.
    case googleHealth = "google-health"
}
