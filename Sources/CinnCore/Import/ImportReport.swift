import Foundation

/// A reading parsed from an import file, not yet stored.
public struct ImportedWeighIn: Sendable, Hashable {
    public var measuredAt: Date
    public var utcOffsetSeconds: Int
    public var weight: Mass
    public var note: String?
    /// The dedup key: the source's id, or the reading's content.
    public var externalID: String
    /// The line of the file it came from (1-based).
    public var line: Int

    public init(measuredAt: Date, utcOffsetSeconds: Int, weight: Mass, note: String? = nil, externalID: String, line: Int) {
        self.measuredAt = measuredAt
        self.utcOffsetSeconds = utcOffsetSeconds
        self.weight = weight
        self.note = note
        self.externalID = externalID
        self.line = line
    }
}

/// A body fat reading from an import, with its dedup key.
public struct ImportedBodyFat: Sendable, Hashable {
    public var reading: BodyFatReading
    public var externalID: String

    public init(reading: BodyFatReading, externalID: String) {
        self.reading = reading
        self.externalID = externalID
    }
}

/// A workout from a health export: when, what, and the totals the export gives (no sets).
public struct ImportedHealthWorkout: Sendable, Hashable {
    public var startedAt: Date
    public var utcOffsetSeconds: Int
    public var name: String
    public var durationSeconds: Double?
    public var distanceMeters: Double?
    public var energyKcal: Double?
    public var externalID: String

    public init(
        startedAt: Date, utcOffsetSeconds: Int, name: String, durationSeconds: Double?, distanceMeters: Double?,
        energyKcal: Double?, externalID: String
    ) {
        self.startedAt = startedAt
        self.utcOffsetSeconds = utcOffsetSeconds
        self.name = name
        self.durationSeconds = durationSeconds
        self.distanceMeters = distanceMeters
        self.energyKcal = energyKcal
        self.externalID = externalID
    }

    /// The workout when its time, name and totals are within `ValidValues`; else an error naming the field.
    public func validated(distanceField: String = "distance", energyField: String = "energy") throws(CinnError) -> ImportedHealthWorkout {
        var workout = self
        _ = try ValidValues.instant(startedAt, field: "start")
        workout.name = try ValidValues.name(name, field: "name")
        workout.durationSeconds = try ValidValues.optional(
            durationSeconds, in: ValidValues.workoutDurationSeconds, field: "duration", unit: "s")
        workout.distanceMeters = try ValidValues.optional(
            distanceMeters, in: ValidValues.workoutDistanceMetres, field: distanceField, unit: "m")
        workout.energyKcal = try ValidValues.optional(energyKcal, in: ValidValues.workoutEnergyKcal, field: energyField, unit: "kcal")
        return workout
    }
}

/// Journal records of several kinds read from one export (Apple Health), not yet stored; glucose readings
/// and insulin doses carry their dedup key as `externalID`.
public struct ImportedHealthRecords: Sendable {
    public var weighIns: [ImportedWeighIn] = []
    public var bodyFat: [ImportedBodyFat] = []
    public var glucose: [GlucoseReading] = []
    public var insulin: [InsulinDose] = []
    /// Food log entries, each carrying its dedup key as `externalID`.
    public var foodEntries: [FoodLogEntry] = []
    public var workouts: [ImportedHealthWorkout] = []

    public init() {}

    public var count: Int { weighIns.count + bodyFat.count + glucose.count + insulin.count + foodEntries.count + workouts.count }
}

/// A row an import could not take, and why.
public struct RejectedRow: Sendable, Hashable, Codable {
    public var line: Int
    public var field: String?
    public var reason: String

    public init(line: Int, field: String? = nil, reason: String) {
        self.line = line
        self.field = field
        self.reason = reason
    }
}

/// What an import did (or, in a dry run, would do).
public struct ImportReport: Sendable, Hashable, Codable {
    public var format: String
    public var rowsRead: Int
    public var imported: Int
    /// Records already in the journal.
    public var duplicates: Int
    /// Records the file holds more than once (the same id, or the same instant and kind from two uploaders): each is
    /// counted once, in the other numbers.
    public var repeatedInFile = 0
    /// Documents kept as they were sent, beside the records made of them (Nightscout's treatments: a temporary basal is
    /// one, listed to Nightscout's followers).
    public var keptAsSent = 0
    /// Rows left out because they hold nothing to import (a food database row without energy).
    public var skipped: Int
    /// The rejected rows, at most `maximumListedRejections` of them.
    public var rejected: [RejectedRow]
    /// How many rows were rejected in all.
    public var rejectedCount: Int
    public var dryRun: Bool
    /// The batch to undo; nil for a dry run or when nothing was written.
    public var importID: Int64?
    /// Health data kept as day summaries (steps, heart rate, sleep…), per type: days, samples, and days written.
    public var healthDays: [ImportedHealthDays] = []
    /// Records of an earlier delivery that this one sent again with other values (a day's total that grew): the
    /// earlier ones are deleted, the new ones counted as imported.
    public var replaced = 0
    /// Kinds of record Cinn does not know (a delivery's metrics), with how many of each there were.
    public var unknown: [String: Int] = [:]

    /// What the skipped rows of this format are, in words a person knows: "rest timers and notes".
    public var skippedKinds: String {
        switch format {
        case "nightscout": "calibrations, CGM status codes; notes, site changes and temporary basal rates, kept as treatments"
        case "apple-health": "records that are neither measurements nor categories"
        case "health-auto-export": "metrics Cinn does not know"
        case "strong": "rest timers and notes"
        case "myfitnesspal": "measurement rows without a weight"
        case "fitnotes-body": "measurements other than body weight and body fat"
        case "usda": "foods without an energy value or with impossible amounts"
        case let name where name.hasPrefix("off-"): "products without a name or an energy value"
        default: "rows with nothing Cinn keeps"
        }
    }

    /// Whether the import adds anything: records, documents kept as sent, or day summaries that are new or newer.
    public var addsAnything: Bool { imported > 0 || keptAsSent > 0 || healthDays.contains { $0.written > 0 } }

    /// Rejections listed one by one; beyond this only the count grows.
    public static let maximumListedRejections = 1000

    public init(
        format: String, rowsRead: Int = 0, imported: Int = 0, duplicates: Int = 0, skipped: Int = 0,
        rejected: [RejectedRow] = [], rejectedCount: Int? = nil, dryRun: Bool = false, importID: Int64? = nil
    ) {
        self.format = format
        self.rowsRead = rowsRead
        self.imported = imported
        self.duplicates = duplicates
        self.skipped = skipped
        self.rejected = rejected
        self.rejectedCount = rejectedCount ?? rejected.count
        self.dryRun = dryRun
        self.importID = importID
    }
}

/// How far an import has got, for a progress bar.
public struct ImportProgress: Sendable, Hashable {
    public var bytesRead: Int64
    public var totalBytes: Int64?
    public var rowsRead: Int

    public init(bytesRead: Int64, totalBytes: Int64?, rowsRead: Int) {
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.rowsRead = rowsRead
    }

    public var fraction: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(bytesRead) / Double(totalBytes))
    }
}
