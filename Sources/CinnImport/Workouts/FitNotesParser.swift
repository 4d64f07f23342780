import CinnCore
import Foundation

/// FitNotes' (Android) CSV export (docs/FORMATS.md §3.2): one workout per date, at local noon (the export
/// has no times), sets in row order. Units per row (`Weight Unit` kgs/lbs) or in the header
/// (`Weight (kgs)`); an exercise name with an unquoted comma is joined back together.
struct FitNotesParser: WorkoutRowParser {
    private let columnCount, date, exercise, reps: Int
    private let weight, weightUnitColumn, distance, distanceUnit, time, comment: Int?
    private let weightUnit: MassUnit?
    private let timeZone: TimeZone
    private var numbering = WorkoutNumbering<Int>()

    init(columns: HeaderColumns, options: WorkoutImportOptions) throws(CinnError) {
        columnCount = columns.names.count
        date = try columns.required("FitNotes", "Date", "date")
        exercise = try columns.required("FitNotes", "Exercise", "exercise")
        reps = try columns.required("FitNotes", "Reps", "reps")
        weightUnitColumn = columns.index("weight unit")
        if let kilograms = columns.index("weight kgs", "weight kg") {
            (weight, weightUnit) = (kilograms, .kilograms)
        } else if let pounds = columns.index("weight lbs", "weight lb") {
            (weight, weightUnit) = (pounds, .pounds)
        } else if let plain = columns.index("weight") {
            (weight, weightUnit) = (plain, options.unit)
        } else {
            throw columns.missing("FitNotes", "Weight")
        }
        distance = columns.index("distance")
        distanceUnit = columns.index("distance unit")
        time = columns.index("time")
        comment = columns.index("comment")
        timeZone = options.timeZone
    }

    mutating func parse(_ row: CSVRow, into output: inout ImportOutput<ImportedSet>) {
        // An unquoted comma in the exercise name makes one cell too many: the cells after it move one right.
        let shift = row.count == columnCount + 1 ? 1 : 0
        func column(_ index: Int) -> Int { index > exercise ? index + shift : index }
        let dateText = row.text(column(date))
        guard let day = LocalDate(iso: dateText) else {
            let reason =
                dateText.isEmpty
                ? "the date is missing"
                : "\"\(dateText)\" is not a date such as 2024-03-05 (export from FitNotes with ISO dates)"
            return output.reject(line: row.line, field: "Date", reason: reason)
        }
        let name = shift == 1 ? row.text(from: exercise, through: exercise + 1) : row.text(exercise)
        guard !name.isEmpty else { return output.reject(line: row.line, field: "Exercise", reason: "the exercise is missing") }
        let repsValue: Int?
        switch SetFields.reps(row.field(column(reps))) {
        case .success(let value): repsValue = value
        case .failure(let error): return output.reject(line: row.line, field: "Reps", reason: error.message)
        }
        var weightValue: Mass?
        if let weight {
            switch SetFields.weight(
                row.field(column(weight)), unit: weightUnitColumn.flatMap { row.nonEmptyText(column($0)) },
                defaultUnit: weightUnit)
            {
            case .success(let value): weightValue = value
            case .failure(let error): return output.reject(line: row.line, error)
            }
        }
        var distanceValue: Double?
        if let distance {
            switch SetFields.nonNegative(row.field(column(distance)), field: "distance") {
            case .success(let value?) where value > 0:
                let spelled = distanceUnit.flatMap { row.nonEmptyText(column($0)) } ?? "m"
                guard let metres = SetFields.metres(value, unit: spelled) else {
                    return output.reject(line: row.line, field: "Distance Unit", reason: "unknown unit \"\(spelled)\"; use m, km or mi")
                }
                distanceValue = metres
            case .success: break
            case .failure(let error): return output.reject(line: row.line, field: "Distance", reason: error.message)
            }
        }
        var seconds: Double?
        if let time, let text = row.nonEmptyText(column(time)) {
            guard let value = SetFields.clockDuration(text) else {
                return output.reject(line: row.line, field: "Time", reason: "\"\(text)\" is not a duration such as 0:01:15")
            }
            seconds = value == 0 ? nil : value
        }
        let set = WorkoutSet(
            exercise: name, reps: repsValue == 0 ? nil : repsValue, weight: weightValue, durationSeconds: seconds,
            distanceMetres: distanceValue, note: comment.flatMap { row.nonEmptyText(column($0)) })
        if let problem = set.rangeProblem { return output.reject(line: row.line, problem) }
        let place = numbering.place(day.dayNumber) {
            let noon = LocalDateTime(date: day, secondsOfDay: 12 * 3600).resolved(in: timeZone)
            return ImportedWorkout(
                startedAt: noon.instant, utcOffsetSeconds: noon.utcOffsetSeconds, name: "Workout",
                externalID: "fitnotes:\(day.iso)")
        }
        output.add(ImportedSet(workout: place.workout, position: place.position, newWorkout: place.newWorkout, set: set, line: row.line))
    }
}
