import CinnCore
import CinnJournal
import Foundation
import Hummingbird

/// The glance: `GET /api/v1/glance` for shortcuts and widgets, and `/glance`, a page of about 200×200 px for a watch or
/// a home-screen widget (today's answer, what is left, the trend, the newest glucose reading), which reloads itself
/// every minute without JavaScript.
struct GlanceController {
    typealias Context = JournalRequestContext

    func addRoutes(web: RouterGroup<Context>, api: RouterGroup<Context>) {
        web.get(Site.glance, use: page)
        api.get("glance", use: json)
    }

    @Sendable func json(_ request: Request, context: Context) async throws -> APIAnswer {
        .json(GlanceDTO(try await context.journal.glance()))
    }

    @Sendable func page(_ request: Request, context: Context) async throws -> WebAnswer {
        .fragment("glance", GlancePage(try await context.journal.glance()))
    }
}

/// The glance page's words.
struct GlancePage {
    let state: String
    let answerWord: String
    let message: String
    let left: String
    let trend: String?
    let glucose: NewestGlucoseText?

    init(_ glance: Glance) {
        let answer = glance.answer, settings = glance.settings
        state = answer.answer.rawValue
        answerWord =
            switch answer.answer {
            case .yes: "Yes"
            case .careful: "Careful"
            case .no: "No"
            case .unknown: "Not sure"
            }
        message = answer.message
        if let remaining = answer.remainingKcal {
            let amount = settings.energyUnit.format(kilocalories: Double(abs(remaining)))
            left = remaining < 0 ? "\(amount) over" : "\(amount) left"
        } else {
            left = "No calorie target"
        }
        let unit = settings.displayUnit
        trend = glance.trend.map { mass in
            var text = mass.formatted(in: unit)
            if let rate = glance.weeklyChange { text += " · \(WeighInsPage.signed(rate.perWeek(in: unit), unit))/wk" }
            return text
        }
        glucose = glance.glucose.map { NewestGlucoseText($0, minutesOld: glance.glucoseMinutesOld ?? 0, unit: settings.glucoseUnit) }
    }
}
