import CinnCore
import Foundation

/// Fitbod's "Export Workout Data" CSV (docs/FORMATS.md §2), with or without `multiplier`, and the support
/// export (`date,exercise_name,Reps,weight_kg,…`). Every set of a workout shares its timestamp.
struct FitbodParser: WorkoutRowParser {
    private let date, exercise, reps, weight, duration, distance, warmUp: Int
    private let note, multiplier: Int?
    private let unit: MassUnit
    private let timeZone: TimeZone
    private var numbering = WorkoutNumbering<Int64>()
    /// The last row's date cell and what it meant: consecutive sets share it.
    private var lastDate: [UInt8] = []
    private var lastTime: (instant: Date, offset: Int, key: Int64)?
    private var lastExerciseBytes: [UInt8] = []
    private var lastExercise = ""

    init(columns: HeaderColumns, options: WorkoutImportOptions) throws(CinnError) {
        date = try columns.required("Fitbod", "Date", "date")
        exercise = try columns.required("Fitbod", "Exercise", "exercise", "exercise name")
        reps = try columns.required("Fitbod", "Reps", "reps")
        if let kilograms = columns.index("weight kg") {
            weight = kilograms
            unit = .kilograms
        } else if let pounds = columns.index("weight lbs", "weight lb") {
            weight = pounds
            unit = .pounds
        } else {
            throw columns.missing("Fitbod", "Weight(kg)")
        }
        duration = try columns.required("Fitbod", "Duration(s)", "duration s", "duration seconds")
        distance = try columns.required("Fitbod", "Distance(m)", "distance m", "distance meters")
        warmUp = try columns.required("Fitbod", "isWarmup", "iswarmup")
        note = columns.index("note")
        multiplier = columns.index("multiplier")
        timeZone = options.timeZone
    }

    mutating func parse(_ row: CSVRow, into output: inout ImportOutput<ImportedSet>) {
        let dateBytes = row.field(date)
        if lastTime == nil || !dateBytes.elementsEqual(lastDate) {
            guard let time = Self.time(dateBytes, timeZone: timeZone) else {
                let text = TextDecoding.string(dateBytes)
                let reason =
                    text.isEmpty
                    ? "the date is missing"
                    : "\"\(text)\" is not a Fitbod date such as 2024-03-13 22:05:41 +0000"
                return output.reject(line: row.line, field: "Date", reason: reason)
            }
            lastDate = Array(dateBytes)
            lastTime = (time.instant, time.utcOffsetSeconds, Int64(time.instant.timeIntervalSince1970.rounded()))
        }
        guard let time = lastTime else { return }
        let nameBytes = row.field(exercise)
        guard !nameBytes.isEmpty else { return output.reject(line: row.line, field: "Exercise", reason: "the exercise is missing") }
        if !nameBytes.elementsEqual(lastExerciseBytes) {
            lastExerciseBytes = Array(nameBytes)
            lastExercise = TextDecoding.string(nameBytes)
        }
        let repsValue: Int?, weightValue: Mass?, durationValue: Double?, distanceValue: Double?
        switch SetFields.reps(row.field(reps)) {
        case .success(let value): repsValue = value
        case .failure(let error): return output.reject(line: row.line, field: "Reps", reason: error.message)
        }
        switch SetFields.weight(row.field(weight), unit: nil, defaultUnit: unit) {
        case .success(let value): weightValue = value
        case .failure(let error): return output.reject(line: row.line, error)
        }
        switch SetFields.nonNegative(row.field(duration), field: "duration") {
        case .success(let value): durationValue = value
        case .failure(let error): return output.reject(line: row.line, field: "Duration(s)", reason: error.message)
        }
        switch SetFields.nonNegative(row.field(distance), field: "distance") {
        case .success(let value): distanceValue = value
        case .failure(let error): return output.reject(line: row.line, field: "Distance(m)", reason: error.message)
        }
        let warmUpBytes = row.field(warmUp)
        let isWarmUp: Bool
        switch warmUpBytes.count {
        case 4 where Self.equalsIgnoringCase(warmUpBytes, "true"): isWarmUp = true
        case 5 where Self.equalsIgnoringCase(warmUpBytes, "false"), 0: isWarmUp = false
        default:
            return output.reject(
                line: row.line, field: "isWarmup",
                reason: "\"\(TextDecoding.string(warmUpBytes))\" is not true or false")
        }
        // How many dumbbells (2) the weight of one was lifted with; 0 (timed and cardio rows) and 1 are once.
        var loadMultiplier: Double?
        if let multiplier, !row.field(multiplier).isEmpty {
            guard let value = DecimalNumber.parse(row.field(multiplier), decimalComma: false), value >= 0 else {
                return output.reject(
                    line: row.line, field: "multiplier", reason: "\"\(row.text(multiplier))\" is not a number of 0 or more")
            }
            loadMultiplier = value > 1 ? value : nil
        }
        // Fitbod writes 0 for what a set does not have (reps of a plank, weight of a push-up).
        let set = WorkoutSet(
            exercise: lastExercise,
            reps: repsValue == 0 ? nil : repsValue,
            weight: weightValue,
            durationSeconds: durationValue == 0 ? nil : durationValue,
            distanceMetres: distanceValue == 0 ? nil : distanceValue,
            kind: isWarmUp ? .warmUp : .normal,
            note: note.flatMap(row.nonEmptyText),
            loadMultiplier: loadMultiplier)
        if let problem = set.rangeProblem { return output.reject(line: row.line, problem) }
        let place = numbering.place(time.key) {
            ImportedWorkout(
                startedAt: time.instant, utcOffsetSeconds: time.offset, name: "Workout",
                externalID: "fitbod:\(time.key)")
        }
        output.add(ImportedSet(workout: place.workout, position: place.position, newWorkout: place.newWorkout, set: set, line: row.line))
    }

    /// `2024-03-13 22:05:41 +0000` (the offset as written), or a date alone (the support export), at local noon.
    static func time(_ bytes: UnsafeBufferPointer<UInt8>, timeZone: TimeZone) -> (instant: Date, utcOffsetSeconds: Int)? {
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<(start + count) {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let date = LocalDate(year: year, month: month, day: day)
        else { return nil }
        if bytes.count == 10 {
            return LocalDateTime(date: date, secondsOfDay: 12 * 3600).resolved(in: timeZone)
        }
        guard bytes.count >= 19, bytes[10] == .space || bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var offset: Int?
        if bytes.count == 25, bytes[19] == .space, bytes[20] == UInt8(ascii: "+") || bytes[20] == UInt8(ascii: "-"),
            let hours = number(21, 2), let minutes = number(23, 2), hours <= 18, minutes < 60
        {
            offset = (bytes[20] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
        } else if bytes.count != 19 {
            return nil
        }
        let time = LocalDateTime(date: date, secondsOfDay: Double(hour * 3600 + minute * 60 + second), utcOffsetSeconds: offset)
        return time.resolved(in: timeZone)
    }

    private static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        return zip(bytes, expected).allSatisfy { $0 | 0x20 == $1 }
    }
}
