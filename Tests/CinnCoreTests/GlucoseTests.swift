import CinnCore
import Foundation
import Testing

@Suite struct GlucoseTests {
    @Test func unitsConvertAtGlucosesMolarMass() throws {
        #expect(Glucose(5.5, .millimolesPerLiter).milligramsPerDeciliter == 5.5 * 18.0156)
        #expect(Glucose(100, .milligramsPerDeciliter).formatted(.millimolesPerLiter) == "5.6 mmol/L")
        #expect(Glucose(7.0, .millimolesPerLiter).formatted(.milligramsPerDeciliter) == "126 mg/dL")
        #expect(GlucoseUnit(spelling: "mmol<180.1558800000541>/L") == .millimolesPerLiter, "Apple Health's spelling")
        #expect(GlucoseUnit(spelling: "mg/dl") == .milligramsPerDeciliter)
        #expect(throws: CinnError.invalid("unit", "unknown glucose unit \"g/L\"; use mg/dL or mmol/L")) { try GlucoseUnit.parse("g/L") }
        #expect(throws: CinnError.self) { try Glucose.validated(0.5, .millimolesPerLiter) }
        #expect(throws: CinnError.self) { try Glucose.validated(1200, .milligramsPerDeciliter) }
        #expect(try Glucose.validated(3.2, .millimolesPerLiter).milligramsPerDeciliter > 57)
    }

    // Bergenstal et al., Diabetes Care 2018;41:2275–2280, Table 1: mean glucose and the GMI it gives.
    @Test(arguments: [
        (100.0, 5.7), (125, 6.3), (150, 6.9), (175, 7.5), (200, 8.1), (225, 8.7), (250, 9.3), (275, 9.9), (300, 10.5), (350, 11.7),
    ])
    func gmiMatchesBergenstalsTable(_ meanMgPerDL: Double, _ gmi: Double) throws {
        let statistics = GlucoseStatistics.compute([Glucose(milligramsPerDeciliter: meanMgPerDL)])
        #expect((try #require(statistics.gmiPercent) * 10).rounded() / 10 == gmi)
    }

    @Test func gmiInMillimolesPerMoleAgreesWithTheIFCCConversion() throws {
        let statistics = GlucoseStatistics.compute([Glucose(milligramsPerDeciliter: 150)])
        let percent = try #require(statistics.gmiPercent), ifcc = try #require(statistics.gmiMillimolesPerMole)
        // IFCC mmol/mol = (NGSP % − 2.15) × 10.929; the two GMI equations agree to a tenth.
        #expect(abs(ifcc - (percent - 2.15) * 10.929) < 0.1)
        #expect((ifcc * 10).rounded() / 10 == 51.9)
    }

    @Test func rangesFollowTheConsensusBoundaries() {
        let values = [50.0, 60, 70, 180, 181, 250, 251, 120].map { Glucose(milligramsPerDeciliter: $0) }
        let statistics = GlucoseStatistics.compute(values)
        #expect(statistics.count == 8)
        #expect(statistics.veryLow == 1.0 / 8 && statistics.low == 1.0 / 8, "under 54 is level 2; 54–69 level 1")
        #expect(statistics.inRange == 3.0 / 8, "70 and 180 are in range")
        #expect(statistics.high == 2.0 / 8 && statistics.veryHigh == 1.0 / 8, "181–250 is level 1; over 250 level 2")
        #expect(statistics.below + statistics.inRange + statistics.above == 1)
    }

    @Test func meanStandardDeviationAndCoefficientOfVariation() throws {
        let statistics = GlucoseStatistics.compute([100.0, 150, 200].map { Glucose(milligramsPerDeciliter: $0) })
        #expect(statistics.mean?.milligramsPerDeciliter == 150)
        #expect(statistics.standardDeviation == 50, "the sample standard deviation")
        #expect(abs(try #require(statistics.coefficientOfVariation) - 100.0 / 3) < 1e-9)
        #expect(GlucoseStatistics.compute([]).mean == nil)
        #expect(GlucoseStatistics.compute([Glucose(milligramsPerDeciliter: 90)]).coefficientOfVariation == nil)
    }

    // The FAO/WHO (1998) incremental area, with Brouns et al. (2005)'s formulas per interval: a trapezoid above
    // the baseline, the triangle above it where the curve crosses it, nothing below it.
    @Test func incrementalAreaLeavesOutWhatIsBelowTheBaseline() {
        let curve: [(minutes: Double, delta: Double)] = [(0, 0), (15, 20), (30, 50), (45, 30), (60, -10), (90, -20), (120, 10)]
        // 15×(0+20)/2 + 15×(20+50)/2 + 15×(50+30)/2 + 15×30²/(30+10)/2 + 0 + 30×10²/(10+20)/2
        let expected: Double = 150 + 525 + 600 + 168.75 + 0 + 50
        #expect(MealResponse.incrementalArea(curve) == expected)
        #expect(MealResponse.incrementalArea([(0, 0), (30, -5), (60, -10)]) == 0)
    }

    static let noon = Date(timeIntervalSince1970: 1_710_504_000)  // 2024-03-15 12:00 UTC

    static func points(_ values: [(minutes: Double, mg: Double)]) -> [GlucosePoint] {
        values.map { GlucosePoint(at: noon.addingTimeInterval($0.minutes * 60), glucose: Glucose(milligramsPerDeciliter: $0.mg)) }
    }

    @Test func aMealsResponse() throws {
        let readings = Self.points([
            (-90, 95), (-10, 100), (15, 120), (30, 150), (45, 130), (60, 90), (90, 80), (120, 110), (150, 140), (200, 190),
        ])
        let doses = [
            InsulinDose(takenAt: Self.noon.addingTimeInterval(-15 * 60), utcOffsetSeconds: 0, units: 4, kind: .bolus),
            InsulinDose(takenAt: Self.noon.addingTimeInterval(90 * 60), utcOffsetSeconds: 0, units: 1, kind: .bolus),
            InsulinDose(takenAt: Self.noon.addingTimeInterval(-60 * 60), utcOffsetSeconds: 0, units: 20, kind: .basal),
        ]
        let response = try #require(MealResponse.compute(eatenAt: Self.noon, readings: readings, doses: doses))
        #expect(response.baseline.glucose.milligramsPerDeciliter == 100, "the last reading in the 30 minutes before")
        #expect(response.peak.glucose.milligramsPerDeciliter == 150, "the peak within three hours (190 at 200 min is later)")
        #expect(response.minutesToPeak == 30 && response.rise == 50)
        #expect(response.incrementalArea == 1493.75, "the curve of the worked example above")
        #expect(response.isComplete)
        #expect(response.bolusUnits == 4, "bolus from 30 minutes before to 60 after; basal never")
    }

    @Test func theAreaEndsAtTwoHoursBetweenReadings() throws {
        let response = try #require(MealResponse.compute(eatenAt: Self.noon, readings: Self.points([(0, 100), (110, 120), (130, 140)])))
        // (0,0) → (110,20) → (120,30), the last interpolated: 110×20/2 + 10×(20+30)/2.
        let expected: Double = 1100 + 250
        #expect(response.incrementalArea == expected)
        #expect(response.isComplete)
    }

    @Test func withoutABaselineOrReadingsAfterThereIsNoResponse() throws {
        #expect(
            MealResponse.compute(eatenAt: Self.noon, readings: Self.points([(-45, 100), (30, 150)])) == nil,
            "45 minutes before is too early")
        #expect(MealResponse.compute(eatenAt: Self.noon, readings: Self.points([(-10, 100)])) == nil)
        let late = try #require(MealResponse.compute(eatenAt: Self.noon, readings: Self.points([(5, 100), (30, 140), (60, 120)])))
        #expect(late.baseline.glucose.milligramsPerDeciliter == 100, "a reading just after the meal stands in")
        #expect(!late.isComplete, "an hour of readings is not two")
    }

    @Test func rankingsPutTheBiggestResponseFirstAndSkipReportedAndIncompleteOnes() throws {
        let oats = MealFood(foodID: UUID(), name: "Oats", grams: 50), milk = MealFood(foodID: UUID(), name: "Milk", grams: 200)
        let porridge = MealDefinition(name: "Porridge", foods: [oats, milk]), cereal = MealDefinition(name: "Cereal", foods: [milk])
        func response(_ area: Double, complete: Bool = true) -> MealResponse {
            MealResponse(
                baseline: GlucosePoint(at: Self.noon, glucose: Glucose(milligramsPerDeciliter: 100)),
                peak: GlucosePoint(at: Self.noon.addingTimeInterval(1800), glucose: Glucose(milligramsPerDeciliter: 100 + area / 50)),
                minutesToPeak: 30, incrementalArea: area, isComplete: complete, bolusUnits: 2)
        }
        func event(_ meal: MealDefinition, reported: String? = nil) -> MealEvent {
            MealEvent(mealID: meal.id, eatenAt: Self.noon, utcOffsetSeconds: 0, reportReason: reported)
        }
        let items = [
            (porridge, event(porridge), response(3000)), (porridge, event(porridge), response(5000)),
            (porridge, event(porridge, reported: "did not finish"), response(90000)),
            (cereal, event(cereal), response(6000)), (cereal, event(cereal), response(100, complete: false)),
        ]
        let meals = ResponseRanking.byMeal(items.map { (meal: $0.0, event: $0.1, response: $0.2) })
        #expect(meals.map(\.name) == ["Cereal", "Porridge"])
        #expect(meals[0].meanArea == 6000 && meals[0].counted == 1 && meals[0].events == 2)
        #expect(meals[1].meanArea == 4000 && meals[1].counted == 2 && meals[1].events == 3)
        let foods = ResponseRanking.byFood(items.map { (meal: $0.0, event: $0.1, response: $0.2) })
        #expect(foods.map(\.name) == ["Milk", "Oats"])
        let milkArea: Double = (3000 + 5000 + 6000) / 3
        #expect(foods[0].meanArea == milkArea)
    }
}

/// The report and the day made from records alone, without a database.
@Suite("Glucose report from records")
struct GlucosePeriodTests {
    /// 2024-03-14T00:00Z: the report's days are UTC days here.
    static let start = Date(timeIntervalSince1970: 1_710_374_400)

    static func at(hours: Double) -> Date { start.addingTimeInterval(hours * 3600) }

    /// Two days of readings every 30 minutes, a toast eaten at 08:00 on the first with its bolus, and basal each day.
    static var records: GlucoseRecords {
        let points = stride(from: -1.0, to: 49.5, by: 0.5).map { hours in
            let bump = (8.5...10).contains(hours) ? 60.0 : 0
            return GlucosePoint(at: at(hours: hours), glucose: Glucose(milligramsPerDeciliter: 100 + bump))
        }
        let toast = MealDefinition(name: "Toast", carbohydrateGrams: 45)
        return GlucoseRecords(
            points: points,
            doses: [
                InsulinDose(takenAt: at(hours: 7.75), utcOffsetSeconds: 0, units: 4, kind: .bolus),
                InsulinDose(takenAt: at(hours: 22), utcOffsetSeconds: 0, units: 18, kind: .basal),
                InsulinDose(takenAt: at(hours: 46), utcOffsetSeconds: 0, units: 18, kind: .basal),
                InsulinDose(takenAt: at(hours: 50), utcOffsetSeconds: 0, units: 9, kind: .basal),
            ],
            events: [MealEvent(mealID: toast.id, eatenAt: at(hours: 8), utcOffsetSeconds: 0)], meals: [toast])
    }

    @Test func theReportSplitsDaysSumsDosesAndRanksMeals() throws {
        let first = try #require(LocalDate(iso: "2024-03-14")), last = try #require(LocalDate(iso: "2024-03-15"))
        let report = GlucoseReport(from: first, to: last, unit: .milligramsPerDeciliter, records: Self.records) { day in
            Self.start.addingTimeInterval(Double(first.distance(to: day)) * 86_400)
        }
        #expect(report.days.map(\.date.iso) == ["2024-03-14", "2024-03-15"])
        #expect(report.days.map(\.statistics.count) == [48, 48], "the readings before and after the period are left out")
        #expect(report.statistics.count == 96)
        #expect(report.bolusUnits == 4 && report.basalUnits == 36, "a dose after the period is not counted")
        let toast = try #require(report.events.first)
        #expect(toast.meal?.name == "Toast")
        #expect(toast.response?.peak.glucose.milligramsPerDeciliter == 160)
        #expect(toast.response?.bolusUnits == 4)
        #expect(report.byMeal.map(\.name) == ["Toast"])
    }

    @Test func theConsensusMetricsWaitForFourteenDaysOfCGMAtSeventyPercent() throws {
        let first = try #require(LocalDate(iso: "2024-03-01"))
        /// A report of `periodDays` days over `days` days of a CGM reading every `minutes` minutes.
        func report(days: Int, every minutes: Double, periodDays: Int = 14) -> GlucoseReport {
            let count = Int(Double(days) * 1440 / minutes)
            let points = (0..<count).map { index in
                GlucosePoint(at: Self.start.addingTimeInterval(Double(index) * minutes * 60), glucose: Glucose(milligramsPerDeciliter: 120))
            }
            return GlucoseReport(
                from: first, to: first.adding(days: periodDays - 1), unit: .milligramsPerDeciliter,
                records: GlucoseRecords(points: points, doses: [], events: [], meals: [])
            ) { day in
                Self.start.addingTimeInterval(Double(first.distance(to: day)) * 86_400)
            }
        }
        let full = report(days: 14, every: 5)
        #expect(full.coverage.isEnough && full.coverage.missing == nil && full.coverage.activeShare == 1)
        #expect(report(days: 14, every: 7).coverage.isEnough, "5/7 = 71 % of the readings")
        let sparse = report(days: 14, every: 8)
        #expect(
            !sparse.coverage.isEnough
                && sparse.coverage.missing == "needs 14 days of CGM readings, 70 % of the time: 14 days and 62 % so far")
        let young = report(days: 13, every: 5)
        #expect(!young.coverage.isEnough && young.coverage.daysWithReadings == 13)
        #expect(young.coverage.missing == "needs 14 days of CGM readings, 70 % of the time: 13 days and 92 % so far")
        // Fourteen days fully worn in a month: enough, though the sensor was active for under half of the month.
        let month = report(days: 14, every: 5, periodDays: 30)
        #expect(month.coverage.isEnough && month.coverage.activeShare < 0.5 && month.coverage.wornShare == 1)
    }

    @Test func aMealDeletedSinceIsRankedAsMeal() throws {
        var records = Self.records
        records.meals = []
        let day = try #require(LocalDate(iso: "2024-03-14"))
        let report = GlucoseReport(from: day, to: day, unit: .milligramsPerDeciliter, records: records) { _ in Self.start }
        #expect(report.events.first?.meal == nil)
        #expect(report.byMeal.map(\.name) == ["Meal"])
    }

    @Test func theDayKeepsItsOwnDosesAndEveryEvent() throws {
        let day = try #require(LocalDate(iso: "2024-03-15"))
        let readings = [GlucoseReading(measuredAt: Self.at(hours: 30), utcOffsetSeconds: 0, glucose: Glucose(milligramsPerDeciliter: 90))]
        let glucoseDay = GlucoseDay(
            date: day, unit: .milligramsPerDeciliter, start: Self.at(hours: 24), end: Self.at(hours: 48),
            utcOffsetSeconds: 0, readings: readings, records: Self.records)
        #expect(glucoseDay.doses.map(\.units) == [18])
        #expect(glucoseDay.statistics.count == 1)
        #expect(glucoseDay.events.count == 1)
    }
}
