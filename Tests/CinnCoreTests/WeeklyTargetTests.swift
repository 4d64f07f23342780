import CinnCore
import Foundation
import Testing

/// The calorie target following the data: today's formula until an adaptive estimate qualifies, then the best estimate
/// as of the end of last week, so it moves on Mondays only, and says why it moved.
@Suite struct WeeklyTargetTests {
    /// A Wednesday; its week starts on Monday 23 March, so "the end of last week" is Sunday 22 March.
    let wednesday = day("2026-03-25")
    let monday = day("2026-03-23")
    let sunday = day("2026-03-22")
    /// A 30-year-old active man, 180 cm: at 85 kg Mifflin–St Jeor gives (850 + 1125 − 150 + 5) × 1.725 = 3157 kcal, well
    /// above what the data say (about 2550 kcal).
    let profile = Profile(sex: .male, birthDate: day("1996-01-01"), height: Height(centimetres: 180), activity: .active)

    /// 70 days up to the Wednesday losing 0.5 kg a week in a straight line from 90 kg.
    var trend: WeightTrend {
        let start = wednesday.adding(days: -69)
        return WeightTrend(
            days: (0..<70).map { DailyWeight(date: start.adding(days: $0), weight: Mass(kilograms: 90 - 0.5 / 7 * Double($0))) })
    }

    /// Complete days of `kcal` from `from` up to the Wednesday.
    func intake(from: LocalDate, _ kcal: (LocalDate) -> Double = { _ in 2000 }) -> (
        intake: [LocalDate: Double], statuses: [LocalDate: DayStatus]
    ) {
        var intake: [LocalDate: Double] = [:]
        var statuses: [LocalDate: DayStatus] = [:]
        var date = from
        while date <= wednesday {
            intake[date] = kcal(date)
            statuses[date] = .complete
            date = date.adding(days: 1)
        }
        return (intake, statuses)
    }

    func report(
        asOf: LocalDate, basis: TargetBasis = .adaptive, manualKcal: Double? = nil,
        log: (intake: [LocalDate: Double], statuses: [LocalDate: DayStatus])
    ) -> EnergyReport {
        let settings = UserSettings(energyTargetKcal: manualKcal, profile: profile, targetBasis: basis)
        return EnergyReport(
            settings: settings, goal: nil, trend: trend, intakeKcal: log.intake.filter { $0.key <= asOf },
            dayStatuses: log.statuses.filter { $0.key <= asOf }, bodyFat: nil, asOf: asOf, historyDays: 0)
    }

    @Test func theMessageOfTheIssue() {
        let change = TargetChange(
            fromKcal: 1815, toKcal: 1760, since: monday, reason: "your last 3 weeks say you burn less than the formula")
        #expect(
            change.message(in: .kilocalories)
                == "Your target moved from 1815 to 1760 kcal: your last 3 weeks say you burn less than the formula.")
        // 1815 kcal × 4.184 = 7594 kJ; 1760 kcal = 7364 kJ.
        #expect(
            change.message(in: .kilojoules)
                == "Your target moved from 7594 to 7364 kJ: your last 3 weeks say you burn less than the formula.")
    }

    @Test func itMovesOnMondaysOnly() throws {
        let log = intake(from: wednesday.adding(days: -69))
        let sundayEstimate = ExpenditureEstimate(
            formula: FormulaExpenditure(
                profile: profile, weight: try #require(trend.latest(onOrBefore: sunday)?.trend),
                bodyFat: nil, on: sunday),
            trend: trend, completeDayIntakeKcal: log.intake.filter { $0.key <= sunday }, asOf: sunday)
        let blended = try #require(sundayEstimate.blendedKcal)
        for asOf in [monday, wednesday] {
            let report = report(asOf: asOf, log: log)
            #expect(report.targetExpenditure == TargetExpenditure(kcal: blended, source: .bestEstimate, asOf: sunday))
            #expect(report.maintenanceKcal == blended && report.targetKcal == blended)
        }
        // Eating 1000 kcal more on Monday to Wednesday moves today's estimate, not this week's target.
        let feast = intake(from: wednesday.adding(days: -69)) { $0 >= monday ? 3000 : 2000 }
        let after = report(asOf: wednesday, log: feast)
        #expect(after.maintenanceKcal == blended)
        #expect(try #require(after.expenditure.blendedKcal) > blended + 100)
        // Sunday itself is last week's: it follows the estimate as of the Sunday before.
        #expect(report(asOf: sunday, log: log).targetExpenditure?.asOf == sunday.adding(days: -7))
    }

    @Test func theFirstEstimateSaysTheDataDisagreeWithTheFormula() throws {
        // Complete days from Monday 2 March: the window ending Sunday 22 March qualifies, the one ending the 15th does not.
        let report = report(asOf: wednesday, log: intake(from: day("2026-03-02")))
        let expenditure = try #require(report.targetExpenditure)
        #expect(expenditure.source == .bestEstimate)
        let formula = try #require(report.expenditure.formula).expenditureKcal
        #expect(expenditure.kcal < formula - 100)
        let change = try #require(report.targetChange)
        #expect(change.since == monday)
        #expect(change.toKcal == report.targetKcal)
        #expect(change.fromKcal > change.toKcal)
        #expect(change.reason == "your last 3 weeks say you burn less than the formula")
        #expect(
            change.message(in: .kilocalories).hasPrefix(
                "Your target moved from \(Int(change.fromKcal.rounded())) to \(Int(change.toKcal.rounded())) kcal: "))
    }

    @Test func aWeekOfNewDataMovesTheEstimate() throws {
        // Eating 300 kcal more in the week to Sunday 22 March with the same loss: the estimate goes up.
        let log = intake(from: wednesday.adding(days: -69)) { $0 >= day("2026-03-16") && $0 <= self.sunday ? 2300 : 2000 }
        let change = try #require(report(asOf: wednesday, log: log).targetChange)
        #expect(change.toKcal > change.fromKcal)
        #expect(change.reason == "the estimate from your last 3 weeks went up with last week's data")
        // The same data every week: the estimate moves by the trend's lag alone (2 kcal), and nothing is said.
        #expect(report(asOf: wednesday, log: intake(from: wednesday.adding(days: -69))).targetChange == nil)
    }

    @Test func theFormulaAndAnOwnNumberNeverMoveWeekly() throws {
        let log = intake(from: day("2026-03-02"))
        let formula = report(asOf: wednesday, basis: .formula, log: log)
        #expect(formula.targetExpenditure?.source == .formula)
        #expect(formula.maintenanceKcal == formula.expenditure.formula?.expenditureKcal)
        #expect(formula.targetChange == nil)
        let own = report(asOf: wednesday, manualKcal: 2100, log: log)
        #expect(own.targetKcal == 2100 && own.targetChange == nil)
        // Without an estimate yet, the data basis follows today's formula.
        let early = report(asOf: wednesday, log: intake(from: day("2026-03-16")))
        #expect(
            early.targetExpenditure
                == TargetExpenditure(
                    kcal: try #require(early.expenditure.formula).expenditureKcal, source: .formula,
                    asOf: wednesday))
        #expect(early.targetChange == nil)
    }
}
