import CinnCore
import CinnJournal
import Foundation
import Hummingbird

/// The onboarding, the profile editor and the energy page.
struct EnergyWebController {
    typealias Context = JournalRequestContext

    func addRoutes(to router: RouterGroup<Context>) {
        router.get(Site.welcome, use: welcome)
        router.post(Site.welcome, use: saveWelcome)
        router.post(Site.skipWelcome, use: skipWelcome)
        router.get(Site.profile, use: profile)
        router.post(Site.profile, use: saveProfile)
        router.post(Site.bodyFat, use: addBodyFat)
        router.get(Site.energy, use: energy)
    }

    func renderProfile(_ context: Context, isWelcome: Bool, form: ProfileForm? = nil, error: CinnError? = nil) async throws -> WebAnswer {
        let settings = try await context.journal.settings()
        let page = ProfilePage(
            isWelcome: isWelcome, settings: settings, goal: try await context.journal.goal(),
            bodyFat: try await context.journal.latestBodyFat(), today: context.journal.today(settings),
            importedHeight: settings.profile == nil ? try await context.journal.importedHeight() : nil, form: form, error: error)
        return .page(
            "profile", page, title: isWelcome ? "Welcome" : "Profile", tab: isWelcome ? .none : .energy,
            status: error == nil ? .ok : .unprocessableContent)
    }

    @Sendable func welcome(_ request: Request, context: Context) async throws -> WebAnswer {
        try await renderProfile(context, isWelcome: true)
    }

    /// Saves the onboarding; a weight typed there becomes the first weigh-in of today.
    @Sendable func saveWelcome(_ request: Request, context: Context) async throws -> WebAnswer {
        let form = try await request.decodeForm(ProfileForm.self)
        do {
            let update = try ProfilePage.update(form, isWelcome: true)
            let weight = try form.$weight.number()
            if let weight { _ = try Mass.bodyWeight(weight, try MassUnit.parse(form.massUnit ?? "kg", field: "mass_unit")) }
            try await context.journal.updateProfile(update)
            // The first weight has no trend to compare with; its range was checked above.
            if let weight { _ = try await context.journal.addWeighIn(weight: weight, unit: nil, date: nil, confirm: true) }
            return .redirect(Site.dashboard.path)
        } catch let error as CinnError where error.code == .invalidInput {
            return try await renderProfile(context, isWelcome: true, form: form, error: error)
        }
    }

    @Sendable func skipWelcome(_ request: Request, context: Context) async throws -> WebAnswer {
        try await context.journal.updateProfile(ProfileUpdate(onboarded: true))
        return .redirect(Site.dashboard.path)
    }

    @Sendable func profile(_ request: Request, context: Context) async throws -> WebAnswer {
        try await renderProfile(context, isWelcome: false)
    }

    @Sendable func saveProfile(_ request: Request, context: Context) async throws -> WebAnswer {
        let form = try await request.decodeForm(ProfileForm.self)
        do {
            try await context.journal.updateProfile(try ProfilePage.update(form, isWelcome: false))
            return Done.profileSaved.redirect(to: Site.energy.path)
        } catch let error as CinnError where error.code == .invalidInput {
            return try await renderProfile(context, isWelcome: false, form: form, error: error)
        }
    }

    struct BodyFatForm: Decodable {
        @Field var percent: String?
        @Field var date: String?
        /// The form's key (`FormKeys`).
        @Field var key: String?
    }

    @Sendable func addBodyFat(_ request: Request, context: Context) async throws -> WebAnswer {
        let form = try await request.decodeForm(BodyFatForm.self)
        do {
            guard let percent = try form.$percent.number() else { throw CinnError.invalid("percent", "enter your body fat in percent") }
            return try await FormKeys.once(try form.$key.uuid(), in: context.journal) {
                _ = try await context.journal.addBodyFat(percent: percent, date: form.date)
                return Done.bodyFatAdded.redirect(to: Site.energy.path)
            } answer: {
                Done.bodyFatAdded.redirect(to: Site.energy.path)
            }
        } catch let error as CinnError where error.code == .invalidInput {
            return try await renderProfile(context, isWelcome: false, error: error)
        }
    }

    @Sendable func energy(_ request: Request, context: Context) async throws -> WebAnswer {
        let (report, trend) = try await context.journal.energyReportAndTrend()
        let page = EnergyPage(report: report, trendDays: trend.points(from: report.history.first?.date ?? report.asOf, to: report.asOf))
        return .page("energy", page, title: "Energy", tab: .energy, notice: Done.notice(request))
    }
}
