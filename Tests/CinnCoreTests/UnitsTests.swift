import CinnCore
import Foundation
import Testing

@Suite struct UnitsTests {
    @Test func poundsAndStonesAreExact() {
        #expect(Mass(1, .pounds).kilograms == 0.45359237)
        #expect(Mass(1, .stones).kilograms.isClose(to: 14 * 0.45359237))
        #expect(Mass(kilograms: 0.45359237).value(in: .pounds) == 1)
        #expect(Mass(171.5, .pounds).value(in: .pounds).isClose(to: 171.5, within: 1e-12))
    }

    @Test(arguments: [
        ("kg", MassUnit.kilograms), ("KGS", .kilograms), ("lbs", .pounds), ("Pound", .pounds),
        ("st", .stones), ("stone", .stones),
    ])
    func unitSpellings(_ text: String, _ unit: MassUnit) {
        #expect(MassUnit(spelling: text) == unit)
    }

    @Test func unknownUnitNamesTheField() {
        #expect(throws: CinnError.invalid("unit", "unknown unit \"stonks\"; use kg, lb or st")) {
            try MassUnit.parse("stonks")
        }
    }

    @Test(arguments: [0.0, -1, 700.01, .nan, .infinity, -.infinity])
    func bodyWeightOutOfRangeIsRejected(_ value: Double) {
        #expect(throws: CinnError.self) { try Mass.bodyWeight(value, .kilograms) }
        do {
            _ = try Mass.bodyWeight(value, .kilograms)
        } catch {
            #expect(error.code == .invalidInput)
            #expect(error.field == "weight")
        }
    }

    @Test func bodyWeightLimitsIncludeSevenHundredKilograms() throws {
        #expect(try Mass.bodyWeight(700, .kilograms).kilograms == 700)
        #expect(try Mass.bodyWeight(0.1, .kilograms).kilograms == 0.1)
        #expect(throws: CinnError.self) { try Mass.bodyWeight(1544, .pounds) }
    }

    @Test func formattingRoundsHalfAwayFromZero() {
        #expect(Mass.format(72.45, decimals: 1) == "72.5")
        #expect(Mass.format(-0.25, decimals: 1) == "-0.3")
        #expect(Mass.format(0.04, decimals: 1) == "0.0")
        #expect(Mass.format(-0.04, decimals: 1) == "0.0")
        #expect(Mass.format(9.96, decimals: 1) == "10.0")
        #expect(Mass.format(1234.5, decimals: 0) == "1235")
        #expect(Mass(kilograms: 72.44).formatted(in: .kilograms) == "72.4 kg")
        #expect(Mass(10, .stones).formatted(in: .stones) == "10.00 st")
    }

    @Test func energyOfBodyWeightChangeIs7700KilocaloriesPerKilogram() {
        #expect(MassRate(kilogramsPerWeek: -0.5).energyBalancePerDay.kilocalories.isClose(to: -550))
        let poundsPerWeek = MassRate(kilogramsPerWeek: Mass(1, .pounds).kilograms)
        #expect(poundsPerWeek.energyBalancePerDay.kilocalories.isClose(to: 0.45359237 * 1100))
    }
}

@Suite struct DayTests {
    @Test func parsesRealDaysOnly() {
        #expect(LocalDate(iso: "2024-02-29") != nil)
        #expect(LocalDate(iso: "2023-02-29") == nil)
        #expect(LocalDate(iso: "2024-13-01") == nil)
        #expect(LocalDate(iso: "2024-04-31") == nil)
        #expect(LocalDate(iso: "2024-3-1") == nil)
        #expect(LocalDate(iso: "20240301") == nil)
        #expect(LocalDate(iso: "1900-02-29") == nil)
        #expect(LocalDate(iso: "2000-02-29") != nil)
    }

    @Test func dayNumbersRoundTrip() {
        #expect(LocalDate(iso: "1970-01-01")!.dayNumber == 0)
        #expect(LocalDate(iso: "2024-03-09")!.dayNumber == 19791)
        for number in stride(from: -719_000, to: 2_900_000, by: 997) {
            let date = LocalDate(dayNumber: number)
            #expect(LocalDate(iso: date.iso) == date)
        }
        #expect(LocalDate(iso: "2024-03-09")!.weekday == 6)
    }

    @Test func localDayComesFromTheOffset() {
        let instant = Date(timeIntervalSince1970: 1_710_039_600)  // 2024-03-10T03:00:00Z
        #expect(LocalDate(instant: instant, utcOffsetSeconds: 0).iso == "2024-03-10")
        #expect(LocalDate(instant: instant, utcOffsetSeconds: -5 * 3600).iso == "2024-03-09")
        #expect(LocalDate(instant: Date(timeIntervalSince1970: -1), utcOffsetSeconds: 0).iso == "1969-12-31")
    }

    @Test func parsesTheTimesFilesAndPeopleWrite() {
        let apple = LocalDateTime(iso: "2024-03-09 07:41:03 -0500")!
        #expect(apple.date.iso == "2024-03-09")
        #expect(apple.secondsOfDay == 7 * 3600 + 41 * 60 + 3)
        #expect(apple.utcOffsetSeconds == -18000)
        #expect(LocalDateTime(iso: "2024-03-09T07:41:03.250Z")!.secondsOfDay.isClose(to: 27663.25))
        #expect(LocalDateTime(iso: "2024-03-09T07:41:03Z")!.utcOffsetSeconds == 0)
        #expect(LocalDateTime(iso: "2024-03-09T07:41+01:00")!.utcOffsetSeconds == 3600)
        #expect(LocalDateTime(iso: "2024-03-09T07:41:03")!.utcOffsetSeconds == nil)
        #expect(LocalDateTime(iso: "2024-03-09")!.secondsOfDay == 0)
        #expect(LocalDateTime(iso: "2024-03-09T25:00") == nil)
        #expect(LocalDateTime(iso: "2024-03-09T07:41:03+2") == nil)
        #expect(LocalDateTime(iso: "2024-03-09 junk") == nil)
    }

    @Test func wallTimeWithoutOffsetTakesTheTimeZonesOffsetIncludingDST() {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let winter = LocalDate(iso: "2024-03-09")!.noon(in: berlin)
        #expect(winter.utcOffsetSeconds == 3600)
        #expect(winter.instant == Date(timeIntervalSince1970: 1_709_982_000))  // 11:00Z
        let summer = LocalDate(iso: "2024-07-09")!.noon(in: berlin)
        #expect(summer.utcOffsetSeconds == 7200)
        #expect(LocalDate(instant: summer.instant, utcOffsetSeconds: summer.utcOffsetSeconds).iso == "2024-07-09")
    }

    /// "Z" says how a time was written, not where: the local day comes from the user's time zone.
    @Test func utcTimesTakeTheirOffsetFromTheTimeZone() {
        let pacific = TimeZone(identifier: "America/Los_Angeles")!
        let evening = LocalDateTime(iso: "2024-03-10T04:30:00Z")!.resolved(in: pacific)  // 20:30 on the 9th in PST
        #expect(evening.utcOffsetSeconds == -8 * 3600)
        #expect(LocalDate(instant: evening.instant, utcOffsetSeconds: evening.utcOffsetSeconds).iso == "2024-03-09")
        let apple = LocalDateTime(iso: "2024-03-09 07:41:03 -0500")!.resolved(in: pacific)
        #expect(apple.utcOffsetSeconds == -5 * 3600)
        #expect(apple.instant == Date(timeIntervalSince1970: 1_709_988_063))
    }

    @Test func uuidV7IsTimeOrderedWithVersionAndVariant() {
        let early = UUID.v7(at: Date(timeIntervalSince1970: 1_700_000_000))
        let late = UUID.v7(at: Date(timeIntervalSince1970: 1_700_000_001))
        #expect(early.uuidString < late.uuidString)
        #expect(early.uuid.6 >> 4 == 7)
        #expect(early.uuid.8 >> 6 == 2)
        #expect(early != UUID.v7(at: Date(timeIntervalSince1970: 1_700_000_000)))
    }

    @Test func uuidTextIsFoundationsInLowerCaseAndParsesExactlyTheUsualForm() {
        for _ in 0..<1000 {
            let id = UUID()
            #expect(id.lowercasedString == id.uuidString.lowercased())
            #expect(UUID(text: id.uuidString) == id && UUID(text: id.lowercasedString) == id)
        }
        let id = "0190b1c4-7a2e-7f3c-9d4e-5f6a7b8c9d0e"
        var inputs = [
            id, id.uppercased(), "", "0190b1c4", id + "0", String(id.dropLast()), id.replacingOccurrences(of: "-", with: ""),
            "0190b1c4-7a2e-7f3c-9d4e_5f6a7b8c9d0e", "0190b1c47-a2e-7f3c-9d4e-5f6a7b8c9d0e", "g190b1c4-7a2e-7f3c-9d4e-5f6a7b8c9d0e",
            " 0190b1c4-7a2e-7f3c-9d4e-5f6a7b8c9d0", "0190b1c4-7a2e-7f3c-9d4e-5f6a7b8c9d0é",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var characters = Array(id)
            characters[Int.random(in: 0..<36, using: &generator)] = Array("0123456789abcdefABCDEF-xZ ")
                .randomElement(using: &generator)!
            inputs.append(String(characters))
        }
        // Foundation on Linux parses with sscanf, which also takes a space or a lone digit where two belong;
        // UUID(text:) takes exactly the 8-4-4-4-12 form.
        let wellFormed = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/
        for input in inputs {
            if input.wholeMatch(of: wellFormed) != nil {
                #expect(UUID(text: input) != nil && UUID(text: input) == UUID(uuidString: input), "\(input)")
            } else {
                #expect(UUID(text: input) == nil, "\(input)")
            }
        }
    }

    @Test func weighInsOfOneLocalDayAverage() {
        let morning = WeighIn(
            measuredAt: Date(timeIntervalSince1970: 1_709_967_600), utcOffsetSeconds: 0,
            weight: Mass(kilograms: 80))  // 2024-03-09T07:00Z
        let evening = WeighIn(
            measuredAt: Date(timeIntervalSince1970: 1_710_010_800), utcOffsetSeconds: 0,
            weight: Mass(kilograms: 81))  // 2024-03-09T19:00Z
        // 02:00Z on the 10th, but 21:00 on the 9th at -0500: the same local day.
        let lateAbroad = WeighIn(
            measuredAt: Date(timeIntervalSince1970: 1_710_036_000), utcOffsetSeconds: -18000,
            weight: Mass(kilograms: 82))
        let means = DailyWeight.means(of: [evening, lateAbroad, morning])
        #expect(means.count == 1)
        #expect(means[0].date.iso == "2024-03-09")
        #expect(means[0].weight.kilograms.isClose(to: 81))
    }
}
