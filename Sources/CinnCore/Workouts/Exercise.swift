import Foundation

/// Whether an exercise is counted in time and energy (a walk) or in sets, reps and weight (a squat).
public enum ExerciseKind: String, Sendable, Hashable, CaseIterable {
    case cardio
    case strength
}

/// One exercise done on a day, as a diary app logs it: a walk of 32 minutes and 178 kcal, or
/// squats of 4 sets of 5 reps at 61 kg. What the source left blank stays nil.
public struct ExerciseEntry: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var performedAt: Date
    /// The UTC offset in force when it was done; with `performedAt` it decides the local day.
    public var utcOffsetSeconds: Int
    public var name: String
    public var kind: ExerciseKind
    /// Energy burnt, in kcal.
    public var energyKcal: Double?
    public var minutes: Double?
    public var sets: Int?
    public var repsPerSet: Int?
    /// The weight lifted in each rep.
    public var weight: Mass?
    /// Steps, for walks and for the calorie adjustments step trackers add.
    public var steps: Int?
    public var note: String?
    /// `manual`, `import:<format>` or `sync:<client>`.
    public var source: String
    /// The source's own identity of the entry, used to skip it when imported again.
    public var externalID: String?
    /// The import batch that brought it, so the import can be undone.
    public var importID: Int64?

    public init(
        id: UUID = .v7(), performedAt: Date, utcOffsetSeconds: Int, name: String, kind: ExerciseKind,
        energyKcal: Double? = nil, minutes: Double? = nil, sets: Int? = nil, repsPerSet: Int? = nil,
        weight: Mass? = nil, steps: Int? = nil, note: String? = nil, source: String = "manual",
        externalID: String? = nil, importID: Int64? = nil
    ) {
        self.id = id
        self.performedAt = performedAt
        self.utcOffsetSeconds = utcOffsetSeconds
        self.name = name
        self.kind = kind
        self.energyKcal = energyKcal
        self.minutes = minutes
        self.sets = sets
        self.repsPerSet = repsPerSet
        self.weight = weight
        self.steps = steps
        self.note = note
        self.source = source
        self.externalID = externalID
        self.importID = importID
    }

    /// The user's local calendar day of the exercise.
    public var localDate: LocalDate { LocalDate(instant: performedAt, utcOffsetSeconds: utcOffsetSeconds) }
}
