import CinnCore
import Foundation

/// Strong's CSV export in its dialects (docs/FORMATS.md §3.1): comma or semicolon, the weight unit in the
/// header, in a `Weight Unit` column or nowhere (then `--unit`). `Rest Timer` and `Note` rows are skipped
/// (a note row's text goes to the exercise's next set); `W`, `D` and `F` set orders are warm-up, drop and failure sets.
struct StrongParser: WorkoutRowParser {
    private let date, workoutName, exercise, setOrder, reps: Int
    private let weight, weightUnitColumn, distance, distanceUnitColumn, seconds, notes, workoutNotes, rpe: Int?
    private let duration: (column: Int, inSeconds: Bool)?
    private let weightUnit: MassUnit?
    /// Metres per distance unit when no column says: metres, or the user's kilometres or miles.
    private let distanceScale: Double
    private let decimalComma: Bool
    private let timeZone: TimeZone
    private var numbering = WorkoutNumbering<String>()
    private var pendingNote: (workout: String, exercise: String, note: String)?

    init(columns: HeaderColumns, options: WorkoutImportOptions, decimalComma: Bool) throws(CinnError) {
        date = try columns.required("Strong", "Date", "date")
        workoutName = try columns.required("Strong", "Workout Name", "workout name")
        exercise = try columns.required("Strong", "Exercise Name", "exercise name")
        setOrder = try columns.required("Strong", "Set Order", "set order")
        reps = try columns.required("Strong", "Reps", "reps")
        if let seconds = columns.index("duration sec", "duration seconds") {
            duration = (seconds, true)
        } else if let text = columns.index("duration", "workout duration") {
            duration = (text, false)
        } else {
            duration = nil
        }
        weightUnitColumn = columns.index("weight unit")
        if let kilograms = columns.index("weight kg", "weight kgs", "kg", "kgs") {
            (weight, weightUnit) = (kilograms, .kilograms)
        } else if let pounds = columns.index("weight lbs", "weight lb", "lbs", "lb") {
            (weight, weightUnit) = (pounds, .pounds)
        } else if let plain = columns.index("weight") {
            (weight, weightUnit) = (plain, options.unit)
            if options.unit == nil, weightUnitColumn == nil {
                throw .invalid("unit", "this Strong export does not say its weight unit: choose the unit set in Strong, kg or lb")
            }
        } else {
            throw columns.missing("Strong", "Weight")
        }
        distanceUnitColumn = columns.index("distance unit")
        if let metres = columns.index("distance meters", "distance m") {
            (distance, distanceScale) = (metres, 1)
        } else if let kilometres = columns.index("km", "km.") {
            (distance, distanceScale) = (kilometres, 1000)
        } else if let miles = columns.index("mi", "mi.") {
            (distance, distanceScale) = (miles, 1609.344)
        } else {
            // The classic export writes distances in the user's unit: kilometres for kg, miles for lb.
            distance = columns.index("distance")
            distanceScale = (weightUnit ?? options.unit) == .pounds ? 1609.344 : 1000
        }
        seconds = columns.index("seconds")
        notes = columns.index("notes")
        workoutNotes = columns.index("workout notes")
        rpe = columns.index("rpe")
        self.decimalComma = decimalComma
        timeZone = options.timeZone
    }

    mutating func parse(_ row: CSVRow, into output: inout ImportOutput<ImportedSet>) {
        let dateText = row.text(date)
        guard let time = FitbodParser.time(row.field(date), timeZone: timeZone) else {
            let reason = dateText.isEmpty ? "the date is missing" : "\"\(dateText)\" is not a Strong date such as 2024-03-04 18:02:37"
            return output.reject(line: row.line, field: "Date", reason: reason)
        }
        let name = row.text(workoutName)
        let exerciseName = row.text(exercise)
        guard !exerciseName.isEmpty else { return output.reject(line: row.line, field: "Exercise Name", reason: "the exercise is missing") }
        let key = dateText + "|" + name
        let order = row.text(setOrder)
        let kind: SetKind
        switch order.lowercased() {
        case "rest timer":
            return output.skip()
        case "note":
            if let note = notes.flatMap(row.nonEmptyText) { pendingNote = (key, exerciseName, note) }
            return output.skip()
        case "w": kind = .warmUp
        case "d": kind = .drop
        case "f": kind = .failure
        default:
            guard let number = Int(order), number >= 0 else {
                return output.reject(
                    line: row.line, field: "Set Order",
                    reason: "\"\(order)\" is not a set number, W, D, F, Note or Rest Timer")
            }
            kind = .normal
        }
        let repsValue: Int?
        switch SetFields.reps(row.field(reps)) {
        case .success(let value): repsValue = value
        case .failure(let error): return output.reject(line: row.line, field: "Reps", reason: error.message)
        }
        var weightValue: Mass?
        if let weight {
            switch SetFields.weight(
                row.field(weight), unit: weightUnitColumn.flatMap(row.nonEmptyText), defaultUnit: weightUnit,
                decimalComma: decimalComma)
            {
            case .success(let value): weightValue = value
            case .failure(let error): return output.reject(line: row.line, error)
            }
        }
        var distanceValue: Double?
        if let distance {
            switch SetFields.nonNegative(row.field(distance), field: "distance", decimalComma: decimalComma) {
            case .success(let value?) where value > 0:
                var scale = distanceScale
                if let column = distanceUnitColumn, let spelled = row.nonEmptyText(column) {
                    guard let metres = SetFields.metres(1, unit: spelled) else {
                        return output.reject(line: row.line, field: "Distance Unit", reason: "unknown unit \"\(spelled)\"; use m, km or mi")
                    }
                    scale = metres
                }
                distanceValue = value * scale
            case .success: break
            case .failure(let error): return output.reject(line: row.line, field: "Distance", reason: error.message)
            }
        }
        var secondsValue: Double?
        if let seconds {
            switch SetFields.nonNegative(row.field(seconds), field: "seconds", decimalComma: decimalComma) {
            case .success(let value): secondsValue = value == 0 ? nil : value
            case .failure(let error): return output.reject(line: row.line, field: "Seconds", reason: error.message)
            }
        }
        var rpeValue: Double?
        if let rpe, case let bytes = row.field(rpe), !bytes.isEmpty {
            guard let value = DecimalNumber.parse(bytes, decimalComma: decimalComma), (0...10).contains(value) else {
                return output.reject(line: row.line, field: "RPE", reason: "\"\(TextDecoding.string(bytes))\" is not an RPE from 1 to 10")
            }
            rpeValue = value == 0 ? nil : value
        }
        var workoutDuration: Double?
        if let duration, let text = row.nonEmptyText(duration.column) {
            guard let value = duration.inSeconds ? Double(text) : Self.duration(text) else {
                return output.reject(line: row.line, field: "Duration", reason: "\"\(text)\" is not a duration such as 1h 5m or 47m")
            }
            workoutDuration = value
        }
        var note = notes.flatMap(row.nonEmptyText)
        if let pending = pendingNote, pending.workout == key, pending.exercise == exerciseName {
            note = note.map { pending.note + " " + $0 } ?? pending.note
            pendingNote = nil
        }
        let set = WorkoutSet(
            exercise: exerciseName, reps: repsValue == 0 ? nil : repsValue, weight: weightValue,
            durationSeconds: secondsValue, distanceMetres: distanceValue, kind: kind, rpe: rpeValue, note: note)
        if let problem = set.rangeProblem { return output.reject(line: row.line, problem) }
        let place = numbering.place(key) {
            ImportedWorkout(
                startedAt: time.instant, utcOffsetSeconds: time.utcOffsetSeconds, name: name.isEmpty ? "Workout" : name,
                durationSeconds: workoutDuration, note: workoutNotes.flatMap(row.nonEmptyText),
                externalID: "strong:" + key)
        }
        output.add(ImportedSet(workout: place.workout, position: place.position, newWorkout: place.newWorkout, set: set, line: row.line))
    }

    /// Strong's free-text durations: "1h 5m", "47m", "38min", "264h 1m", "45s" → seconds.
    static func duration(_ text: String) -> Double? {
        var total = 0.0
        var number = ""
        var unit = ""
        var parts = 0
        func flush() -> Bool {
            guard !number.isEmpty, let value = Double(number) else { return number.isEmpty && unit.isEmpty }
            switch unit {
            case "h", "hr", "hrs", "hour", "hours": total += value * 3600
            case "m", "min", "mins", "minute", "minutes": total += value * 60
            case "s", "sec", "secs", "second", "seconds", "": total += value
            default: return false
            }
            parts += 1
            number = ""
            unit = ""
            return true
        }
        for character in text.lowercased() {
            if character.isNumber || character == "." {
                if !unit.isEmpty, !flush() { return nil }
                number.append(character)
            } else if character.isLetter {
                guard !number.isEmpty else { return nil }
                unit.append(character)
            } else if character == " " {
                continue
            } else {
                return nil
            }
        }
        guard flush(), parts > 0 else { return nil }
        return total
    }
}
