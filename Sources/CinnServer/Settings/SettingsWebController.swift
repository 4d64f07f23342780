import CinnCharts
import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// More (the menu of everything that is not a tab), Goal and settings, and the exports.
struct SettingsWebController {
    typealias Context = JournalRequestContext

    func addRoutes(to router: RouterGroup<Context>) {
        router.get(Site.more) { _, context -> WebAnswer in
            let account = context.account
            return .page(
                "more", MorePage(accountName: account?.account.name, isAdmin: account?.account.role == .admin), title: "More", tab: .more)
        }
        router.get(Site.settings, use: settings)
        router.post(Site.settings, use: saveSettings)
        router.get(Site.targets, use: targets)
        router.post(Site.targets, use: saveTargets)
        router.post(Site.calorieTarget, use: saveCalorieTarget)
        router.post(Site.goal, use: setGoal)
        router.post(Site.clearGoal, use: clearGoal)
        router.get(Site.exportCSV) { _, context in exportResponse(journal: context.journal, format: .csv) }
        router.get(Site.exportJSON) { _, context in exportResponse(journal: context.journal, format: .json) }
    }

    func renderSettings(_ context: Context, formError: String? = nil, notice: String? = nil) async throws -> Page {
        let report = try await context.journal.energyReport(historyDays: 0)
        let model = SettingsPage(settings: report.settings, goal: report.goal, energyTargetKcal: report.targetKcal, formError: formError)
        return Page("settings", model, title: "Goal and settings", tab: .more, notice: notice)
    }

    @Sendable func settings(_ request: Request, context: Context) async throws -> WebAnswer {
        .page(try await renderSettings(context, notice: Done.notice(request)), status: .ok)
    }

    /// The settings form: each field left out keeps its setting.
    struct SettingsForm: Decodable {
        @Field var unit: String?
        @Field var trendMethod: String?
        @Field var timeZone: String?
        @Field var energyUnit: String?
        @Field var glucoseUnit: String?
        @Field var insulinPeakMinutes: String?
        @Field var insulinDurationMinutes: String?

        enum CodingKeys: String, CodingKey {
            case unit
            case trendMethod = "trend_method"
            case timeZone = "time_zone"
            case energyUnit = "energy_unit"
            case glucoseUnit = "glucose_unit"
            case insulinPeakMinutes = "insulin_peak_minutes"
            case insulinDurationMinutes = "insulin_duration_minutes"
        }
    }

    @Sendable func saveSettings(_ request: Request, context: Context) async throws -> WebAnswer {
        let form = try await request.decodeForm(SettingsForm.self)
        do {
            var settings = try await context.journal.settings()
            if let unit = form.unit { settings.displayUnit = try MassUnit.parse(unit) }
            if let method = form.trendMethod {
                guard let trendMethod = TrendMethod(rawValue: method) else {
                    throw CinnError.invalid("trend_method", "choose exact or pencil")
                }
                settings.trendMethod = trendMethod
            }
            if let zone = form.timeZone { settings.timeZoneIdentifier = try UserSettings.validTimeZone(zone) }
            if let unit = form.energyUnit { settings.energyUnit = try EnergyUnit.parse(unit) }
            if let unit = form.glucoseUnit { settings.glucoseUnit = try GlucoseUnit.parse(unit, field: "glucose_unit") }
            if form.insulinPeakMinutes != nil || form.insulinDurationMinutes != nil {
                settings.insulinModel = try ExponentialInsulinModel.validated(
                    peakMinutes: try form.$insulinPeakMinutes.number() ?? settings.insulinModel.peakMinutes,
                    durationMinutes: try form.$insulinDurationMinutes.number() ?? settings.insulinModel.durationMinutes)
            }
            try await context.journal.saveSettings(settings)
            return Done.settingsSaved.redirect(to: Site.settings.path)
        } catch let error as CinnError where error.code == .invalidInput {
            return .page(try await renderSettings(context, formError: error.message), status: .unprocessableContent)
        }
    }

    /// The Targets page; `form` and `problem` are a failed save's, of the nutrient form or the calorie one.
    func renderTargets(
        _ context: Context, form: TargetsForm? = nil, calorieForm: CalorieTargetForm? = nil, problem: FormProblem? = nil,
        notice: String? = nil
    ) async throws -> Page {
        let (targets, goals, energy) = try await context.journal.nutritionGoals()
        let calories = CalorieTargetCard(report: energy, form: calorieForm, problem: calorieForm == nil ? nil : problem)
        let model = TargetsPage(
            targets: targets, goals: goals, calories: calories, energyTargetKcal: energy.targetKcal, form: form,
            problem: form == nil ? nil : problem)
        return Page("settings-targets", model, title: "Targets", tab: .more, notice: notice)
    }

    @Sendable func targets(_ request: Request, context: Context) async throws -> WebAnswer {
        .page(try await renderTargets(context, notice: Done.notice(request)), status: .ok)
    }

    @Sendable func saveTargets(_ request: Request, context: Context) async throws -> WebAnswer {
        let form = try await request.decodeForm(TargetsForm.self)
        do {
            try await context.journal.setNutrientTargets(try TargetsPage.targets(form))
            return Done.targetsSaved.redirect(to: Site.targets.path)
        } catch let error as CinnError where error.code == .invalidInput {
            return .page(try await renderTargets(context, form: form, problem: FormProblem(error)), status: .unprocessableContent)
        }
    }

    @Sendable func saveCalorieTarget(_ request: Request, context: Context) async throws -> WebAnswer {
        let form = try await request.decodeForm(CalorieTargetForm.self)
        do {
            _ = try await context.journal.updateProfile(try CalorieTargetCard.update(form))
            return Done.calorieTargetSaved.redirect(to: Site.targets.path)
        } catch let error as CinnError where error.code == .invalidInput {
            return .page(try await renderTargets(context, calorieForm: form, problem: FormProblem(error)), status: .unprocessableContent)
        }
    }

    struct GoalForm: Decodable {
        @Field var weight: String?
        @Field var rate: String?
    }

    @Sendable func setGoal(_ request: Request, context: Context) async throws -> WebAnswer {
        let form = try await request.decodeForm(GoalForm.self)
        do {
            guard let weight = try form.$weight.number() else { throw CinnError.invalid("weight", "enter a goal weight") }
            _ = try await context.journal.setGoal(weight: weight, unit: nil, ratePerWeek: try form.$rate.number().map(abs))
            return Done.goalSaved.redirect(to: Site.dashboard.path)
        } catch let error as CinnError where error.code == .invalidInput {
            return .page(try await renderSettings(context, formError: error.message), status: .unprocessableContent)
        }
    }

    @Sendable func clearGoal(_ request: Request, context: Context) async throws -> WebAnswer {
        try await context.journal.clearGoal()
        return Done.goalCleared.redirect(to: Site.settings.path)
    }
}
