import CinnCore
import CinnStore
import Foundation

extension Journal {
    /// The nutrition targets and the goals they make today, with today's calorie target and trend (what turns a share of
    /// energy or grams per kg into grams).
    public func nutritionGoals() async throws -> (targets: NutrientTargets, goals: [NutrientGoal], energyTargetKcal: Double?) {
        let energy = try await dayEnergy(asOf: today(try await settings()))
        let targets = energy.settings.nutrientTargets
        return (targets, targets.goals(energyTargetKcal: energy.targetKcal, bodyWeight: energy.trend), energy.targetKcal)
    }

    /// How often each goal was met between two days (the goals as they stand today: today's calorie target and trend
    /// turn the macro targets into grams), over the days with anything logged; and today's calorie target.
    public func goalRecords(from: LocalDate, to: LocalDate) async throws -> (records: [GoalRecord], energyTargetKcal: Double?) {
        let (_, goals, energyTargetKcal) = try await nutritionGoals()
        return (GoalRecord.records(goals, days: try await store.dailyNutrition(user: user, from: from, to: to)), energyTargetKcal)
    }

    /// Replaces the nutrition targets, checked first.
    public func setNutrientTargets(_ targets: NutrientTargets) async throws {
        let checked = try targets.validated()
        var settings = try await settings()
        settings.nutrientTargets = checked
        try await store.saveSettings(settings, user: user)
    }
}
