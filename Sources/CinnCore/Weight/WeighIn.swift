import Foundation

/// One reading of the scale.
public struct WeighIn: Sendable, Identifiable, Hashable {
    public var id: UUID
    /// When it was measured (UTC instant).
    public var measuredAt: Date
    /// The UTC offset the reading was taken at; with `measuredAt` it decides the local day.
    public var utcOffsetSeconds: Int
    public var weight: Mass
    public var note: String?
    /// `manual`, `import:<format>` or `sync:<client>`.
    public var source: String
    /// The source's own identity of the reading, used to skip it when imported again.
    public var externalID: String?
    /// The import batch that brought it, so the import can be undone.
    public var importID: Int64?

    public init(
        id: UUID = .v7(), measuredAt: Date, utcOffsetSeconds: Int, weight: Mass, note: String? = nil,
        source: String = "manual", externalID: String? = nil, importID: Int64? = nil
    ) {
        self.id = id
        self.measuredAt = measuredAt
        self.utcOffsetSeconds = utcOffsetSeconds
        self.weight = weight
        self.note = note
        self.source = source
        self.externalID = externalID
        self.importID = importID
    }

    /// The user's local calendar day of the reading.
    public var localDate: LocalDate { LocalDate(instant: measuredAt, utcOffsetSeconds: utcOffsetSeconds) }
}

/// The mean of a day's weigh-ins.
public struct DailyWeight: Sendable, Hashable {
    public var date: LocalDate
    public var weight: Mass

    public init(date: LocalDate, weight: Mass) {
        self.date = date
        self.weight = weight
    }

    /// Groups weigh-ins by local day and averages each day, in date order.
    public static func means(of weighIns: some Sequence<WeighIn>) -> [DailyWeight] {
        var sums: [LocalDate: (total: Double, count: Int)] = [:]
        for weighIn in weighIns {
            sums[weighIn.localDate, default: (0, 0)].total += weighIn.weight.kilograms
            sums[weighIn.localDate, default: (0, 0)].count += 1
        }
        return sums.map { DailyWeight(date: $0.key, weight: Mass(kilograms: $0.value.total / Double($0.value.count))) }
            .sorted { $0.date < $1.date }
    }
}
