import Foundation

/// Sex, as the energy equations use it.
public enum Sex: String, Sendable, Codable, CaseIterable {
    case female, male

    public static func parse(_ text: String, field: String = "sex") throws -> Sex {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "female", "f", "woman": return .female
        case "male", "m", "man": return .male
        default: throw CinnError.invalid(field, "unknown sex \"\(text)\"; use female or male")
        }
    }
}

/// How active a person is most days, with the factor that turns resting energy into expenditure
/// (the usual five levels, 1.2 to 1.9, used with Mifflin–St Jeor and Katch–McArdle).
public enum ActivityLevel: String, Sendable, Codable, CaseIterable {
    case sedentary, light, moderate, active
    case veryActive = "very_active"

    public var factor: Double {
        switch self {
        case .sedentary: 1.2
        case .light: 1.375
        case .moderate: 1.55
        case .active: 1.725
        case .veryActive: 1.9
        }
    }

    public var title: String {
        switch self {
        case .sedentary: "Sedentary"
        case .light: "Lightly active"
        case .moderate: "Moderately active"
        case .active: "Very active"
        case .veryActive: "Extra active"
        }
    }

    /// What the level means, for a person choosing one.
    public var explanation: String {
        switch self {
        case .sedentary: "desk job, little or no exercise"
        case .light: "light exercise 1–3 days a week"
        case .moderate: "moderate exercise 3–5 days a week"
        case .active: "hard exercise 6–7 days a week"
        case .veryActive: "physical job and hard daily exercise"
        }
    }

    public static func parse(_ text: String, field: String = "activity") throws -> ActivityLevel {
        let key = text.trimmingCharacters(in: .whitespaces).lowercased()
            .replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: " ", with: "_")
        if let level = ActivityLevel(rawValue: key) { return level }
        if let level = allCases.first(where: { $0.title.lowercased().replacingOccurrences(of: " ", with: "_") == key }) {
            return level
        }
        let names = allCases.map(\.rawValue).joined(separator: ", ")
        throw CinnError.invalid(field, "unknown activity level \"\(text)\"; use one of \(names)")
    }
}

/// How heights are shown and entered.
public enum LengthUnit: String, Sendable, Codable, CaseIterable {
    case centimetres = "cm"
    case feetAndInches = "ft_in"

    public static func parse(_ text: String, field: String = "length_unit") throws -> LengthUnit {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "cm", "centimetres", "centimeters", "metric": return .centimetres
        case "ft_in", "ft-in", "ftin", "ft", "in", "feet", "imperial": return .feetAndInches
        default: throw CinnError.invalid(field, "unknown length unit \"\(text)\"; use cm or ft_in")
        }
    }
}

/// A body height, stored in centimetres; 1 in = 2.54 cm exactly.
public struct Height: Sendable, Hashable, Codable, Comparable {
    public var centimetres: Double

    public init(centimetres: Double) { self.centimetres = centimetres }

    public init(feet: Double, inches: Double) {
        centimetres = (feet * 12 + inches) * Self.centimetresPerInch
    }

    public static let centimetresPerInch = 2.54
    /// Heights Cinn accepts: 100 to 250 cm (3 ft 3 in to 8 ft 2 in).
    public static let humanRange = 100.0...250.0

    public var inches: Double { centimetres / Self.centimetresPerInch }

    /// Whole feet and the inches left over, to `decimals` places (5 ft 11 in for 180.34 cm).
    public func feetAndInches(decimals: Int = 0) -> (feet: Int, inches: Double) {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let total = (inches * scale).rounded() / scale
        let feet = Int((total / 12).rounded(.down))
        return (feet, total - Double(feet) * 12)
    }

    public static func < (lhs: Height, rhs: Height) -> Bool { lhs.centimetres < rhs.centimetres }

    /// "180 cm", or "5 ft 11 in".
    public func formatted(in unit: LengthUnit) -> String {
        switch unit {
        case .centimetres:
            return "\(Mass.format(centimetres, decimals: centimetres.rounded() == centimetres ? 0 : 1)) cm"
        case .feetAndInches:
            let (feet, inches) = feetAndInches(decimals: 1)
            let inchText = Mass.format(inches, decimals: inches.rounded() == inches ? 0 : 1)
            return "\(feet) ft \(inchText) in"
        }
    }

    /// A height as a person types it: "180", "180 cm", "1.80 m", "5 ft 11 in", "5'11\"", "5ft11", "71 in".
    /// A bare number is in `unit` (centimetres, or inches for feet and inches). Checked against `humanRange`.
    public static func parse(_ text: String, unit: LengthUnit = .centimetres, field: String = "height") throws -> Height {
        let compact = text.lowercased().filter { !$0.isWhitespace }
            .replacingOccurrences(of: "″", with: "\"").replacingOccurrences(of: "′", with: "'")
        let height: Height?
        if let number = Double(compact) {
            height = unit == .centimetres ? Height(centimetres: number) : Height(feet: 0, inches: number)
        } else if compact.hasSuffix("cm"), let number = Double(compact.dropLast(2)) {
            height = Height(centimetres: number)
        } else if compact.hasSuffix("m"), let number = Double(compact.dropLast()) {
            height = Height(centimetres: number * 100)
        } else {
            height = parseFeetAndInches(compact)
        }
        guard let height, height.centimetres.isFinite else {
            throw CinnError.invalid(field, "\"\(text)\" is not a height; write it as 180 cm or 5 ft 11 in")
        }
        return try validated(height, field: field)
    }

    /// "5ft11in", "5ft11", "5'11\"", "5'11", "5ft", "71in", "71\"".
    private static func parseFeetAndInches(_ text: String) -> Height? {
        var rest = Substring(text)
        var feet = 0.0
        for marker in ["feet", "foot", "ft", "'"] {
            if let range = rest.range(of: marker) {
                guard let value = Double(rest[..<range.lowerBound]) else { return nil }
                feet = value
                rest = rest[range.upperBound...]
                break
            }
        }
        for marker in ["inches", "inch", "in", "\""] where rest.hasSuffix(marker) {
            rest = rest.dropLast(marker.count)
            break
        }
        if rest.isEmpty { return feet > 0 ? Height(feet: feet, inches: 0) : nil }
        guard let inches = Double(rest), inches >= 0, feet == 0 || inches < 12 else { return nil }
        if feet == 0, text == String(rest) { return nil }
        return Height(feet: feet, inches: inches)
    }

    /// Checks a height is within `humanRange`.
    public static func validated(_ height: Height, field: String = "height") throws -> Height {
        guard humanRange.contains(height.centimetres) else {
            throw CinnError.invalid(field, "a height must be between 100 and 250 cm (3 ft 3 in and 8 ft 2 in)")
        }
        return height
    }
}

/// What the energy equations need to know about a person, with their unit choices.
public struct Profile: Sendable, Hashable {
    public var sex: Sex
    public var birthDate: LocalDate
    public var height: Height
    public var activity: ActivityLevel

    public init(sex: Sex, birthDate: LocalDate, height: Height, activity: ActivityLevel) {
        self.sex = sex
        self.birthDate = birthDate
        self.height = height
        self.activity = activity
    }

    /// Ages Cinn's equations are used for: Mifflin–St Jeor was fitted on adults; Cinn accepts 13 to 120.
    public static let ageRange = 13...120

    /// Whole years of age on `date`: a birthday on 29 February counts on 1 March in common years.
    public func age(on date: LocalDate) -> Int { Self.age(born: birthDate, on: date) }

    static func age(born: LocalDate, on date: LocalDate) -> Int {
        let (birthYear, birthMonth, birthDay) = born.parts
        let (year, month, day) = date.parts
        let hadBirthday = (month, day) >= (birthMonth, birthDay)
        return year - birthYear - (hadBirthday ? 0 : 1)
    }

    /// Checks a birth date gives an age within `ageRange` on `today`.
    public static func validatedBirthDate(_ date: LocalDate, today: LocalDate, field: String = "birth_date") throws -> LocalDate {
        guard date <= today else { throw CinnError.invalid(field, "\(date) is in the future") }
        let age = age(born: date, on: today)
        guard ageRange.contains(age) else {
            throw CinnError.invalid(field, "an age of \(age) is outside what Cinn's energy equations cover (13 to 120 years)")
        }
        return date
    }
}

/// A body-fat measurement: a fraction of body weight (0.22 for 22 %).
public struct BodyFatReading: Sendable, Hashable {
    public var id: UUID
    public var measuredAt: Date
    public var utcOffsetSeconds: Int
    public var fraction: Double

    public init(id: UUID = .v7(), measuredAt: Date, utcOffsetSeconds: Int, fraction: Double) {
        self.id = id
        self.measuredAt = measuredAt
        self.utcOffsetSeconds = utcOffsetSeconds
        self.fraction = fraction
    }

    public var localDate: LocalDate { LocalDate(instant: measuredAt, utcOffsetSeconds: utcOffsetSeconds) }

    /// Body fat Cinn accepts, in percent: 2 to 75.
    public static let percentRange = 2.0...75.0

    /// Checks a body-fat percentage as a person enters it (22 for 22 %) and returns the fraction.
    public static func validatedFraction(percent: Double, field: String = "body_fat_percent") throws -> Double {
        guard percent.isFinite, percentRange.contains(percent) else {
            throw CinnError.invalid(field, "body fat must be between 2 and 75 %")
        }
        return percent / 100
    }
}
