import Foundation

/// Amounts of nutrients, each in its catalogue unit. A nutrient that is absent is unknown, which
/// is not the same as zero; a sum knows a nutrient when any of its parts did.
public struct Nutrients: Sendable, Hashable {
    private var values: [Double]
    private var present: UInt64

    public init() {
        values = Array(repeating: 0, count: Nutrient.all.count)
        present = 0
    }

    /// Amounts by nutrient, checked: finite and not negative.
    public init(_ amounts: [Nutrient: Double], field: String = "nutrients") throws(CinnError) {
        self.init()
        for (nutrient, amount) in amounts.sorted(by: { $0.key.index < $1.key.index }) {
            try set(nutrient, amount, field: "\(field).\(nutrient.key)")
        }
    }

    /// Amounts by catalogue key, checked: known keys, finite and not negative amounts.
    public init(keyed amounts: [String: Double], field: String = "nutrients") throws(CinnError) {
        self.init()
        for (key, amount) in amounts.sorted(by: { $0.key < $1.key }) {  // the same error first, every time
            let nutrient = try Nutrient.parse(key, field: field)
            try set(nutrient, amount, field: "\(field).\(key)")
        }
    }

    public subscript(nutrient: Nutrient) -> Double? {
        get { present & (1 << UInt64(nutrient.index)) == 0 ? nil : values[nutrient.index] }
        set {
            if let newValue {
                values[nutrient.index] = newValue
                present |= 1 << UInt64(nutrient.index)
            } else {
                values[nutrient.index] = 0
                present &= ~(1 << UInt64(nutrient.index))
            }
        }
    }

    /// Sets an amount after checking it, with an error naming `field`.
    public mutating func set(_ nutrient: Nutrient, _ amount: Double, field: String) throws(CinnError) {
        try Self.check(nutrient, amount, field: field)
        self[nutrient] = amount
    }

    /// The largest amount of anything, in its unit: far above any meal, far below where numbers break.
    public static let maximumAmount = 1e9

    /// Throws unless `amount` is finite, not negative and at most `maximumAmount`.
    static func check(_ nutrient: Nutrient, _ amount: Double, field: String) throws(CinnError) {
        guard amount.isFinite else { throw .invalid(field, "\(nutrient.name) must be a number") }
        guard amount >= 0 else { throw .invalid(field, "\(nutrient.name) must not be negative") }
        guard amount <= maximumAmount else { throw .invalid(field, "\(nutrient.name) is implausibly large") }
    }

    /// Whether no amount is known.
    public var isEmpty: Bool { present == 0 }

    public var energy: Double? { self[.energy] }

    /// The known amounts in catalogue order.
    public var amounts: [(nutrient: Nutrient, amount: Double)] {
        Nutrient.all.compactMap { nutrient in self[nutrient].map { (nutrient, $0) } }
    }

    /// Every known amount multiplied by `factor`; absent nutrients stay absent (and zero inside,
    /// even for an infinite factor, so they never turn a later sum into NaN).
    public func scaled(by factor: Double) -> Nutrients {
        var result = self
        for nutrient in Nutrient.all where self[nutrient] != nil { result.values[nutrient.index] *= factor }
        return result
    }

    /// Adds `other`'s amounts; a nutrient known in either is known in the sum.
    public static func += (lhs: inout Nutrients, rhs: Nutrients) {
        for index in lhs.values.indices { lhs.values[index] += rhs.values[index] }
        lhs.present |= rhs.present
    }

    public static func + (lhs: Nutrients, rhs: Nutrients) -> Nutrients {
        var sum = lhs
        sum += rhs
        return sum
    }
}

// MARK: - Compact storage text

extension Nutrients {
    /// A flat JSON object of the known amounts, `{"energy":52,"protein":0.26}`, in catalogue order.
    /// This is how the store keeps nutrients; `init(storageText:)` reads it back.
    public var storageText: String {
        var text = "{"
        for (nutrient, amount) in amounts {
            if text.utf8.count > 1 { text += "," }
            text += "\"\(nutrient.key)\":\(JSONText.compactNumber(amount))"
        }
        return text + "}"
    }

    /// Reads `storageText`. Unknown keys are skipped, so a database written by a newer
    /// catalogue still reads; anything that is not a flat object of finite, non-negative
    /// numbers (or has text after it) is nil.
    public init?(storageText text: String) {
        self.init()
        var valid = true
        do {
            try JSONParser.forEachMember(of: text.utf8, finiteNumbers: true) { key, value in
                guard let amount = value.number, amount >= 0 else {
                    valid = false
                    return
                }
                if let nutrient = Nutrient.named(key) { self[nutrient] = amount }
            }
        } catch {
            return nil
        }
        guard valid else { return nil }
    }
}

// MARK: - Codable as {"key": amount}

extension Nutrients: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let keyed = try container.decode([String: Double].self)
        do {
            try self.init(keyed: keyed)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Dictionary(uniqueKeysWithValues: amounts.map { ($0.nutrient.key, $0.amount) }))
    }
}
