import CinnCore

/// Which columns of a generic CSV file hold what, read from its header row.
struct CSVColumns {
    var date: Int
    /// A separate clock-time column beside a `date` or `day` column.
    var time: Int?
    var weight: Int
    /// The unit named in the weight column's header: "Weight (kg)", "weight_lbs".
    var weightUnit: MassUnit?
    var unit: Int?
    var note: Int?

    static let dateNames = ["timestamp", "datetime", "date time", "date", "day", "time"]
    static let weightNames: Set = ["weight", "body weight", "bodyweight", "mass", "body mass"]
    static let unitNames: Set = ["unit", "units", "weight unit"]
    static let noteNames: Set = ["note", "notes", "comment", "comments"]

    /// The columns named in `header`; nil without a date column or a weight column.
    init?(header: [String]) {
        let names = header.map(Self.normalized)
        // A workout log's weights are what was lifted, not the body's: a header naming an exercise, reps or sets is
        // never a weigh-in file (Fitbod's data download has a date and a weight column too).
        guard !names.contains(where: Self.workoutNames.contains) else { return nil }
        let dateChoices = names.indices.compactMap { index in
            Self.dateNames.firstIndex(of: names[index]).map { (rank: $0, column: index) }
        }
        guard let dateChoice = dateChoices.min(by: { $0.rank < $1.rank }),
            let weight = names.indices.first(where: { Self.weightColumn(names[$0]).isWeight })
        else { return nil }
        date = dateChoice.column
        time = ["date", "day"].contains(names[date]) ? names.firstIndex(of: "time") : nil
        self.weight = weight
        weightUnit = Self.weightColumn(names[weight]).unit
        unit = names.firstIndex(where: Self.unitNames.contains)
        note = names.firstIndex(where: Self.noteNames.contains)
    }

    /// Column names (normalized) of workout logs.
    static let workoutNames: Set<String> = ["exercise", "exercise name", "exercises", "reps", "rep", "sets", "set order", "set"]

    /// Lower case, with `_ - ( ) [ ] /` as spaces and runs of spaces as one: "Weight (kg)" → "weight kg".
    static func normalized(_ name: String) -> String {
        let spaced = name.lowercased().map { "_-()[]/".contains($0) ? " " : $0 }
        return String(spaced).split(separator: " ").joined(separator: " ")
    }

    /// Whether a normalized name names a weight column, and the unit it names if any ("weight lbs" → lb).
    private static func weightColumn(_ name: String) -> (isWeight: Bool, unit: MassUnit?) {
        if weightNames.contains(name) { return (true, nil) }
        guard let space = name.lastIndex(of: " "), let unit = MassUnit(spelling: String(name[name.index(after: space)...])),
            weightNames.contains(String(name[..<space]))
        else { return (false, nil) }
        return (true, unit)
    }

    /// Which of `,` `;` and TAB separates the fields of `line` most often, outside quotes.
    static func sniffDelimiter(_ line: some Sequence<UInt8>) -> UInt8 {
        var counts: [UInt8: Int] = [:]
        var quoted = false
        for byte in line {
            if byte == .quote { quoted.toggle() }
            if !quoted, byte == .comma || byte == .semicolon || byte == .tab { counts[byte, default: 0] += 1 }
        }
        return [UInt8.comma, .semicolon, .tab].max { counts[$0, default: 0] < counts[$1, default: 0] } ?? .comma
    }
}
