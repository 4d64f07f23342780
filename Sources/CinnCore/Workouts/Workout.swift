import Foundation

/// What kind of set it was; only normal and failure sets count towards one-rep maxes by default.
public enum SetKind: String, Sendable, Codable, CaseIterable {
    case normal
    case warmUp = "warm_up"
    case drop
    case failure
}

/// One set of one exercise.
public struct WorkoutSet: Sendable, Hashable {
    /// The exercise as the source named it.
    public var exercise: String
    public var reps: Int?
    public var weight: Mass?
    public var durationSeconds: Double?
    public var distanceMetres: Double?
    public var kind: SetKind
    /// Rate of perceived exertion (1–10), when the source has it.
    public var rpe: Double?
    /// Reps in reserve, when the source has it.
    public var rir: Int?
    public var note: String?
    /// How many times the weight was lifted at once, when more than once: `weight` is one dumbbell's and two were lifted
    /// (Fitbod's `multiplier`). Volume counts each; nil is once.
    public var loadMultiplier: Double?

    public init(
        exercise: String, reps: Int? = nil, weight: Mass? = nil, durationSeconds: Double? = nil,
        distanceMetres: Double? = nil, kind: SetKind = .normal, rpe: Double? = nil, rir: Int? = nil, note: String? = nil,
        loadMultiplier: Double? = nil
    ) {
        self.exercise = exercise
        self.reps = reps
        self.weight = weight
        self.durationSeconds = durationSeconds
        self.distanceMetres = distanceMetres
        self.kind = kind
        self.rpe = rpe
        self.rir = rir
        self.note = note
        self.loadMultiplier = loadMultiplier
    }

    /// The set's one-rep max estimate: none for warm-ups and drop sets, or without reps and weight.
    public func oneRepMax(formula: OneRepMaxFormula = .default) -> OneRepMax? {
        guard kind == .normal || kind == .failure, let reps, let weight else { return nil }
        return OneRepMax.estimate(weight: weight, reps: reps, formula: formula)
    }

    /// What makes the set one Cinn does not store, from a file or a client: a weight, length or distance beyond
    /// `ValidValues`' set ranges, or an exercise name with control characters; nil for a valid set.
    public var rangeProblem: CinnError? {
        do throws(CinnError) {
            try ValidValues.plainText(exercise, field: "exercise", allowingLineBreaks: false)
            _ = try ValidValues.optional(weight?.kilograms, in: ValidValues.setWeightKg, field: "weight", unit: "kg")
            _ = try ValidValues.optional(durationSeconds, in: ValidValues.setDurationSeconds, field: "duration", unit: "s")
            _ = try ValidValues.optional(distanceMetres, in: ValidValues.setDistanceMetres, field: "distance", unit: "m")
            _ = try ValidValues.optional(rpe, in: 0...10, field: "rpe")
            _ = try ValidValues.optional(loadMultiplier, in: ValidValues.setLoadMultiplier, field: "multiplier")
            return nil
        } catch {
            return error
        }
    }

    /// Weight × reps (× the load multiplier), the set's volume.
    public var volume: Mass? {
        guard let reps, let weight, kind != .warmUp else { return nil }
        return Mass(kilograms: weight.kilograms * Double(reps) * (loadMultiplier ?? 1))
    }
}

/// A workout: when it started, its name and source, and its sets in order.
public struct Workout: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var startedAt: Date
    public var utcOffsetSeconds: Int
    public var name: String
    public var sets: [WorkoutSet]
    public var source: String
    public var externalID: String?
    public var importID: Int64?

    public init(
        id: UUID = .v7(), startedAt: Date, utcOffsetSeconds: Int, name: String, sets: [WorkoutSet], source: String = "manual",
        externalID: String? = nil, importID: Int64? = nil
    ) {
        self.id = id
        self.startedAt = startedAt
        self.utcOffsetSeconds = utcOffsetSeconds
        self.name = name
        self.sets = sets
        self.source = source
        self.externalID = externalID
        self.importID = importID
    }

    public var localDate: LocalDate { LocalDate(instant: startedAt, utcOffsetSeconds: utcOffsetSeconds) }
}

/// How exercises are matched: by a key that ignores case, accents, punctuation and word order, so
/// "Barbell Bench Press" and "Bench Press (Barbell)" are one exercise; user aliases merge the rest.
public enum ExerciseKey {
    /// "bench press (Barbell)" → "barbell bench press".
    public static func normalised(_ name: String) -> String {
        asciiNormalised(name) ?? normalisedByFolding(name)
    }

    static func normalisedByFolding(_ name: String) -> String {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        let words = folded.split { !$0.isLetter && !$0.isNumber }.map { $0.lowercased() }
        return words.sorted().joined(separator: " ")
    }

    /// `normalisedByFolding` for a name of ASCII alone, where folding is lowercasing: a byte at a time, without
    /// Foundation's folding (the logging page keys every exercise it shows).
    static func asciiNormalised(_ name: String) -> String? {
        var words: [String] = []
        var word: [UInt8] = []
        for byte in name.utf8 {
            guard byte < 0x80 else { return nil }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): word.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): word.append(byte + 0x20)
            default:
                if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
                word.removeAll(keepingCapacity: true)
            }
        }
        if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
        return words.sorted().joined(separator: " ")
    }
}

/// A workout as an import found it; its sets follow as `ImportedSet`s that name it by number.
public struct ImportedWorkout: Sendable, Hashable {
    public var startedAt: Date
    public var utcOffsetSeconds: Int
    public var name: String
    public var durationSeconds: Double?
    public var note: String?
    /// The dedup key across re-imports: the source and the workout's start (Strong adds its name).
    public var externalID: String

    public init(
        startedAt: Date, utcOffsetSeconds: Int, name: String, durationSeconds: Double? = nil, note: String? = nil,
        externalID: String
    ) {
        self.startedAt = startedAt
        self.utcOffsetSeconds = utcOffsetSeconds
        self.name = name
        self.durationSeconds = durationSeconds
        self.note = note
        self.externalID = externalID
    }

    public var localDate: LocalDate { LocalDate(instant: startedAt, utcOffsetSeconds: utcOffsetSeconds) }
}

/// One set read from an import file, in file order.
public struct ImportedSet: Sendable, Hashable {
    /// The workout's number in the file (0, 1, …).
    public var workout: Int
    /// The set's place in its workout (0, 1, …), in file order: identical sets stay separate.
    public var position: Int
    /// The workout itself, carried by its first set only.
    public var newWorkout: ImportedWorkout?
    public var set: WorkoutSet
    /// The line of the file it came from (1-based).
    public var line: Int

    public init(workout: Int, position: Int, newWorkout: ImportedWorkout?, set: WorkoutSet, line: Int) {
        self.workout = workout
        self.position = position
        self.newWorkout = newWorkout
        self.set = set
        self.line = line
    }
}
