import CinnCore
import CinnStore
import Foundation

extension Journal {
    /// The nutrition targets and the goals they make today, with today's energy report: its calorie target and trend turn
    /// a share of energy or grams per kg into grams, and the Targets page shows the target from it.
    public func nutritionGoals() async throws -> (targets: NutrientTargets, goals: [NutrientGoal], energy: EnergyReport) {
        let energy = try await energyReport(historyDays: 0)
        let targets = energy.settings.nutrientTargets
        return (targets, targets.goals(energyTargetKcal: energy.targetKcal, bodyWeight: energy.trend), energy)
    }

    /// How often each goal was met between two days, over the days with anything logged, each day against its own goals
    /// (a share of energy or grams per kg as that day's calorie target and trend make them, as its day view shows); and
    /// today's calorie target.
    public func goalRecords(from: LocalDate, to: LocalDate) async throws -> (records: [GoalRecord], energyTargetKcal: Double?) {
        let (targets, goals, energy) = try await nutritionGoals()
        let energyTargetKcal = energy.targetKcal
        let days = try await store.dailyNutrition(user: user, from: from, to: to)
        let byDay = [targets.protein, targets.carbohydrate, targets.fat].contains { target in
            switch target {
            case .percentOfEnergy?, .gramsPerKilogram?: true
            case .grams?, nil: false
            }
        }
        // Grams a day and every bound are the same each day: today's goals judge them all.
        guard byDay, let first = days.map(\.date).min(), let last = days.map(\.date).max() else {
            return (GoalRecord.records(goals, days: days), energyTargetKcal)
        }
        // One read for every day's report: the intake its adaptive estimate can reach, up to the last day (what comes
        // after a day does not change its target).
        let reach = AdaptiveExpenditure.holdLookbackDays + AdaptiveExpenditure.defaultWindowDays + 14
        let inputs = try await store.energyInputs(user: user, from: first.adding(days: -reach), to: last)
        let trend = WeightTrend(days: inputs.days, method: inputs.settings.trendMethod, displayUnit: inputs.settings.displayUnit)
        let records = GoalRecord.records(goals, days: days) { day in
            let report = EnergyReport(
                settings: inputs.settings, goal: inputs.goal, trend: trend, intakeKcal: inputs.intakeKcal,
                dayStatuses: inputs.dayStatuses, bodyFat: inputs.latestBodyFat, exerciseKcal: inputs.exerciseKcal,
                asOf: day, historyDays: 0)
            return targets.goals(energyTargetKcal: report.targetKcal, bodyWeight: report.trend)
        }
        return (records, energyTargetKcal)
    }

    /// Replaces the nutrition targets, checked first.
    public func setNutrientTargets(_ targets: NutrientTargets) async throws {
        let checked = try targets.validated()
        var settings = try await settings()
        settings.nutrientTargets = checked
        try await store.saveSettings(settings, user: user)
    }
}
