import Foundation

/// A unit of blood glucose people enter and read. Cinn stores mg/dL.
public enum GlucoseUnit: String, CaseIterable, Sendable, Codable {
    case milligramsPerDeciliter = "mg/dL"
    case millimolesPerLiter = "mmol/L"

    /// mg/dL per mmol/L: glucose's molar mass, 180.156 g/mol, per decilitre (IUPAC; Nightscout rounds it to 18).
    public static let milligramsPerMillimole = 18.0156

    /// Parses the spellings people and files use: mg/dL, mg/dl, mgdl; mmol/L, mmol/l, mmol and Apple's `mmol<180.1558800000541>/L`.
    public init?(spelling: String) {
        let text = spelling.trimmingCharacters(in: .whitespaces).lowercased()
        if ["mg/dl", "mgdl", "mg"].contains(text) {
            self = .milligramsPerDeciliter
        } else if ["mmol/l", "mmol", "mmoll"].contains(text) || (text.hasPrefix("mmol<") && text.hasSuffix(">/l")) {
            self = .millimolesPerLiter
        } else {
            return nil
        }
    }

    public static func parse(_ text: String, field: String = "unit") throws -> GlucoseUnit {
        guard let unit = GlucoseUnit(spelling: text) else {
            throw CinnError.invalid(field, "unknown glucose unit \"\(text)\"; use mg/dL or mmol/L")
        }
        return unit
    }

    /// Decimal places people expect: whole mg/dL, tenths of mmol/L.
    public var displayDecimals: Int { self == .milligramsPerDeciliter ? 0 : 1 }
}

/// A blood glucose concentration, kept in mg/dL.
public struct Glucose: Sendable, Hashable, Comparable, Codable {
    public var milligramsPerDeciliter: Double

    public init(milligramsPerDeciliter: Double) {
        self.milligramsPerDeciliter = milligramsPerDeciliter
    }

    public init(_ value: Double, _ unit: GlucoseUnit) {
        milligramsPerDeciliter = unit == .milligramsPerDeciliter ? value : value * GlucoseUnit.milligramsPerMillimole
    }

    public func value(in unit: GlucoseUnit) -> Double {
        unit == .milligramsPerDeciliter ? milligramsPerDeciliter : milligramsPerDeciliter / GlucoseUnit.milligramsPerMillimole
    }

    /// "112 mg/dL", "6.2 mmol/L".
    public func formatted(_ unit: GlucoseUnit, withUnit: Bool = true) -> String {
        let text = String(format: "%.\(unit.displayDecimals)f", value(in: unit))
        return withUnit ? "\(text) \(unit.rawValue)" : text
    }

    public static func < (a: Glucose, b: Glucose) -> Bool { a.milligramsPerDeciliter < b.milligramsPerDeciliter }

    /// A reading people can enter: 10–1000 mg/dL (meters read 20–600; beyond that is a typing slip).
    public static func validated(_ value: Double, _ unit: GlucoseUnit, field: String = "glucose") throws(CinnError) -> Glucose {
        let glucose = Glucose(value, unit)
        guard value.isFinite, (10...1000).contains(glucose.milligramsPerDeciliter) else {
            throw .invalid(
                field,
                "a glucose reading is between \(Glucose(milligramsPerDeciliter: 10).formatted(unit)) and "
                    + "\(Glucose(milligramsPerDeciliter: 1000).formatted(unit))")
        }
        return glucose
    }
}

/// When a reading was taken relative to meals.
public enum MealTiming: String, CaseIterable, Sendable, Codable {
    case fasting
    case beforeMeal = "before_meal"
    case afterMeal = "after_meal"
    case bedtime
}

/// One blood glucose reading: a finger stick, or a CGM sample.
public struct GlucoseReading: Sendable, Identifiable, Hashable {
    public var id: UUID
    public var measuredAt: Date
    public var utcOffsetSeconds: Int
    public var glucose: Glucose
    public var timing: MealTiming?
    public var note: String?
    public var source: String
    public var externalID: String?
    public var importID: Int64?
    /// A continuous glucose monitor's sample (Nightscout's `sgv`), rather than a meter's or a lab's (`mbg`).
    public var sensor: Bool
    /// The device that sent it, as its uploader names it (`xDrip-DexcomG6`).
    public var device: String?
    /// Where the sensor says glucose is heading, as it sent it.
    public var direction: GlucoseDirection?

    public init(
        id: UUID = .v7(), measuredAt: Date, utcOffsetSeconds: Int, glucose: Glucose, timing: MealTiming? = nil,
        note: String? = nil, source: String = "manual", externalID: String? = nil, importID: Int64? = nil,
        sensor: Bool = false, device: String? = nil, direction: GlucoseDirection? = nil
    ) {
        self.id = id
        self.measuredAt = measuredAt
        self.utcOffsetSeconds = utcOffsetSeconds
        self.glucose = glucose
        self.timing = timing
        self.note = note
        self.source = source
        self.externalID = externalID
        self.importID = importID
        self.sensor = sensor
        self.device = device
        self.direction = direction
    }

    public var localDate: LocalDate { LocalDate(instant: measuredAt, utcOffsetSeconds: utcOffsetSeconds) }

    /// A sensor's reading at the bottom of what it measures, as Dexcom and the uploaders write it: 39 mg/dL is LOW
    /// (glucose under 40; what is under 39 is a status code, not glucose). It counts as 39 in time below range.
    public static let sensorLow = 39.0
    /// A sensor's reading at the top of what it measures, as the uploaders write it: 401 mg/dL is HIGH (over 400).
    public static let sensorHigh = 401.0

    /// "LOW" or "HIGH" for a sensor's reading at an end of its range (pages show it instead of the number); nil
    /// otherwise.
    public var rangeEnd: String? {
        guard sensor else { return nil }
        if glucose.milligramsPerDeciliter <= Self.sensorLow { return "LOW" }
        if glucose.milligramsPerDeciliter >= Self.sensorHigh { return "HIGH" }
        return nil
    }
}

/// Bolus (for a meal or a correction) or basal (background) insulin.
public enum InsulinKind: String, CaseIterable, Sendable, Codable {
    case bolus, basal
}

/// One insulin dose.
public struct InsulinDose: Sendable, Identifiable, Hashable {
    public var id: UUID
    public var takenAt: Date
    public var utcOffsetSeconds: Int
    public var units: Double
    public var kind: InsulinKind
    /// The insulin's name (Humalog, Lantus…), when known.
    public var insulin: String?
    public var note: String?
    public var source: String
    public var externalID: String?
    public var importID: Int64?

    public init(
        id: UUID = .v7(), takenAt: Date, utcOffsetSeconds: Int, units: Double, kind: InsulinKind, insulin: String? = nil,
        note: String? = nil, source: String = "manual", externalID: String? = nil, importID: Int64? = nil
    ) {
        self.id = id
        self.takenAt = takenAt
        self.utcOffsetSeconds = utcOffsetSeconds
        self.units = units
        self.kind = kind
        self.insulin = insulin
        self.note = note
        self.source = source
        self.externalID = externalID
        self.importID = importID
    }

    /// The units a dose may hold: pumps deliver steps down to 0.025 (a Medtronic pump's smallest bolus, which
    /// OpenAPS's super micro-boluses use); more than 100 at once is a typing slip.
    public static let unitsRange = 0.025...100

    public static func validatedUnits(_ units: Double, field: String = "units") throws(CinnError) -> Double {
        guard units.isFinite, unitsRange.contains(units) else { throw .invalid(field, "a dose is between 0.025 and 100 units") }
        return units
    }

    public var localDate: LocalDate { LocalDate(instant: takenAt, utcOffsetSeconds: utcOffsetSeconds) }
}
