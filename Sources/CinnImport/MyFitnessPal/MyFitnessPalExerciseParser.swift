import CinnCore
import Foundation

/// Turns Exercise-Summary rows into exercises at local noon. Calorie adjustments from step trackers
/// ("MFP iOS calorie adjustment") are cardio rows like any other, and identical rows stay separate.
struct MyFitnessPalExerciseParser: MyFitnessPalRowParser {
    let columns: MyFitnessPalColumns.Exercise
    let fileName: String
    /// How the file's dates are written when a spreadsheet saved them (`MyFitnessPalExport.dateOrder`).
    let dateOrder: MyFitnessPalExport.DateOrder?
    let timeZone: TimeZone
    private var identities: MyFitnessPalRowIdentities

    init(columns: MyFitnessPalColumns.Exercise, fileName: String, dateOrder: MyFitnessPalExport.DateOrder?, timeZone: TimeZone) {
        self.dateOrder = dateOrder
        self.columns = columns
        self.fileName = fileName
        self.timeZone = timeZone
        identities = MyFitnessPalRowIdentities(kind: .exercise, salt: columns.weightUnit?.rawValue ?? "")
    }

    mutating func parse(_ row: CSVRow, into output: inout ImportOutput<ExerciseEntry>) {
        // Read once: the row's id hashes it, and the row's value needs it.
        let date: Result<LocalDate, CinnError> = Result { () throws(CinnError) in
            try MyFitnessPalField.date(row, columns.date, order: dateOrder)
        }
        let externalID = identities.next(row, columns: columns.identity, date: (columns.date, try? date.get()))
        do {
            output.add(try exercise(row, date: try date.get(), externalID: externalID))
        } catch {
            output.reject(line: row.line, field: error.field ?? "row", reason: "\(fileName): \(error.message)")
        }
    }

    private func exercise(_ row: CSVRow, date: LocalDate, externalID: String) throws(CinnError) -> ExerciseEntry {
        let name = Self.unquoted(row.text(columns.name))
        guard !name.isEmpty else { throw .invalid("Exercise", "the exercise has no name") }
        let typeText = row.text(columns.type)
        guard let kind = ExerciseKind(rawValue: typeText.lowercased()) else {
            throw .invalid("Type", "Type \"\(typeText)\" is neither Cardio nor Strength")
        }
        var weight: Mass?
        if let value = try MyFitnessPalField.amount(row, columns.weight, header: columns.weightUnit == .pounds ? "Pounds" : "Kilograms"),
            let unit = columns.weightUnit
        {
            weight = Mass(value, unit)
        }
        let (instant, offset) = date.noon(in: timeZone)
        return ExerciseEntry(
            performedAt: instant, utcOffsetSeconds: offset, name: name, kind: kind,
            energyKcal: try MyFitnessPalField.amount(row, columns.energy, header: "Exercise Calories"),
            minutes: try MyFitnessPalField.amount(row, columns.minutes, header: "Exercise Minutes"),
            sets: try MyFitnessPalField.count(row, columns.sets, header: "Sets"),
            repsPerSet: try MyFitnessPalField.count(row, columns.repsPerSet, header: "Reps Per Set"),
            weight: weight,
            steps: try MyFitnessPalField.count(row, columns.steps, header: "Steps"),
            note: MyFitnessPalField.text(row, columns.note), source: MyFitnessPalExport.source, externalID: externalID)
    }

    /// The name without one balanced layer of literal quotes: 2024–2026 exports write
    /// `"""Walking, 3.5 mph"""`, which reads as `"Walking, 3.5 mph"` (docs/FORMATS.md §4).
    static func unquoted(_ name: String) -> String {
        guard name.count >= 2, name.first == "\"", name.last == "\"" else { return name }
        return name.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
    }
}
