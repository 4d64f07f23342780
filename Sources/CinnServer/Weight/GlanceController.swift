import CinnCore
import CinnJournal
import Foundation
import Hummingbird

/// The glance: `GET /api/v1/glance` for shortcuts and widgets, and `/glance`, a page of about 200×200 px for a watch or
/// a home-screen widget (today's answer, what is left, the trend, the newest glucose reading), which reloads itself
/// every minute without JavaScript.
struct GlanceController {
    typealias Context = JournalRequestContext
    let pages: PageRenderer

    func addRoutes(web: RouterGroup<Context>, api: RouterGroup<Context>) {
        web.get("/glance", use: page)
        api.get("glance", use: json)
    }

    @Sendable func json(_ request: Request, context: Context) async throws -> Response {
        JSONResponse.make(GlanceDTO(try await context.journal.glance()))
    }

    @Sendable func page(_ request: Request, context: Context) async throws -> Response {
        let html = pages.library.render(GlancePage(try await context.journal.glance()), withTemplate: "glance") ?? ""
        return WebResponse.html(html)
    }
}

/// The glance page's words.
struct GlancePage {
    struct GlucoseLine {
        let value: String
        let unit: String
        let arrow: String?
        let words: String?
        let age: String
        let stale: Bool
    }

    let state: String
    let answerWord: String
    let message: String
    let left: String
    let trend: String?
    let glucose: GlucoseLine?

    init(_ glance: Glance) {
        let answer = glance.answer, settings = glance.settings
        state = answer.answer.rawValue
        answerWord = switch answer.answer {
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
        glucose = glance.glucose.map { entry in
            let minutes = glance.glucoseMinutesOld ?? 0
            let age = minutes < 60 ? "\(minutes) min" : minutes < 24 * 60 ? "\(minutes / 60) h" : "\(minutes / (24 * 60)) d"
            return GlucoseLine(value: entry.reading.glucose.formatted(settings.glucoseUnit, withUnit: false), unit: settings.glucoseUnit.rawValue,
                               arrow: entry.direction?.arrow, words: entry.direction?.words, age: age,
                               stale: minutes > Glance.staleAfterMinutes)
        }
    }
}
