import CinnCharts
import CinnCore
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// The glucose pages: the report (time in range, meals ranked by response, meals eaten, forms), a day
/// with its chart, and the meal definitions.
struct GlucoseWebController {
    typealias Context = JournalRequestContext

    func addRoutes(to router: RouterGroup<Context>) {
        router.get(Site.glucose, use: report)
        router.get(Site.glucoseLive, use: live)
        router.get(Site.glucoseProfile, use: profile)
        router.get(Site.glucoseProfileChart, use: profileChart)
        router.post(Site.glucoseReadings, use: addReading)
        router.post(Site.deleteGlucoseReading, use: deleteReading)
        router.post(Site.insulin, use: addInsulin)
        router.post(Site.deleteInsulin, use: deleteInsulin)
        router.get(Site.studyMeals, use: meals)
        router.post(Site.studyMeals, use: addMeal)
        router.post(Site.deleteStudyMeal, use: deleteMeal)
        router.post(Site.mealEvents, use: logMeal)
        router.post(Site.reportMealEvent, use: reportMealEvent)
        router.post(Site.deleteMealEvent, use: deleteMealEvent)
        router.get(Site.glucoseDay, use: day)
        router.get(Site.glucoseDayChart, use: chart)
    }

    func date(_ context: Context) throws -> LocalDate {
        guard let date = context.parameters.get("date").flatMap(LocalDate.init(iso:)) else { throw CinnError.notFound("no such day") }
        return date
    }

    func renderReport(
        _ context: Context, days: Int, hours: Int = LiveGlucosePage.defaultHours, feedback: GlucoseFeedback = GlucoseFeedback(),
        notice: String? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> WebAnswer {
        let settings = try await context.journal.settings()
        let report = try await context.journal.glucoseReport(days: days, settings: settings)
        let live = try await context.journal.liveGlucose(hours: hours, settings: settings)
        let instant = context.journal.now()
        let now = LocalDateTime(instant: instant, utcOffsetSeconds: settings.timeZone.secondsFromGMT(for: instant))
        let journal = context.journal
        let frequent = try await journal.frequentFoods(
            since: instant.addingTimeInterval(-GlucoseReportPage.frequentDays * 86_400),
            limit: GlucoseReportPage.frequentFoods
        ).map(\.food)
        let page = GlucoseReportPage(
            report: report, days: days, live: live, presets: try await journal.presets(), recipes: try await journal.recipes(),
            foods: frequent, meals: try await journal.meals(), now: String(now.date.iso + "T" + now.clock),
            feedback: feedback)
        return .page("glucose", page, title: "Glucose", tab: .glucose, notice: notice, status: status)
    }

    @Sendable func report(_ request: Request, context: Context) async throws -> WebAnswer {
        let days = try request.queryInt("days", default: 30, range: 1...366)
        let hours = try request.queryInt("hours", default: LiveGlucosePage.defaultHours, range: 1...24)
        return try await renderReport(context, days: days, hours: hours, notice: Done.notice(request))
    }

    /// The ambulatory glucose profile (`?days=`, 14 by default).
    @Sendable func profile(_ request: Request, context: Context) async throws -> WebAnswer {
        let days = try request.queryInt("days", default: GlucoseCoverage.recommendedDays, range: 7...90)
        let (profile, from, to, unit) = try await context.journal.glucoseProfile(days: days)
        let page = GlucoseProfilePage(profile: profile, from: from, to: to, unit: unit)
        return .page("glucose-agp", page, title: "Glucose profile", tab: .glucose)
    }

    @Sendable func profileChart(_ request: Request, context: Context) async throws -> WebAnswer {
        let days = try request.queryInt("days", default: GlucoseCoverage.recommendedDays, range: 7...90)
        let (profile, _, _, unit) = try await context.journal.glucoseProfile(days: days)
        return .response(
            Response(
                status: .ok, headers: [.contentType: "image/svg+xml; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: AGPChart(profile: profile, unit: unit).svg()))))
    }

    /// The page's lead alone, for its script to put in place.
    @Sendable func live(_ request: Request, context: Context) async throws -> WebAnswer {
        let hours = try request.queryInt("hours", default: LiveGlucosePage.defaultHours, range: 1...24)
        let days = try request.queryInt("days", default: 30, range: 1...366)
        let page = LiveGlucosePage(try await context.journal.liveGlucose(hours: hours), days: days)
        return .fragment("glucose-live", page)
    }

    /// Runs a form's change and goes back to the report; invalid input shows the report with the message (422).
    /// Runs a form's change; on success back to the report with what it did, on bad input the report with the error in
    /// that form (the answer opens at it).
    func changing(_ context: Context, _ form: GlucoseForm, _ body: () async throws -> Void) async throws -> WebAnswer {
        do {
            try await body()
            return form.done.redirect(to: Site.glucose.path)
        } catch let error as CinnError where error.code == .invalidInput || error.code == .conflict {
            return try await renderReport(
                context, days: 30, feedback: GlucoseFeedback(error: error.message, in: form), status: error.code.httpStatus)
        }
    }

    struct ReadingForm: Decodable {
        @Field var value: String?
        @Field var unit: String?
        @Field var time: String?
        @Field var timing: String?
        @Field var note: String?
        @Field var confirm: String?
        /// The form's key (`FormKeys`): the new reading's id.
        @Field var key: String?
    }

    /// Creates a record under the form's key; a post sent again finds it (`FormKeys`) and answers as the first did.
    func once(_ key: Field, _ kind: CreatedRecord, context: Context, create: (UUID?) async throws -> Void) async throws {
        try await FormKeys.once(try key.uuid(), create: create) { id in
            guard try await context.journal.hasRecord(kind, id: id) else { throw CinnError.notFound("no record with the form's key") }
        }
    }

    @Sendable func addReading(_ request: Request, context: Context) async throws -> WebAnswer {
        let form = try await request.decodeForm(ReadingForm.self)
        do {
            return try await changing(context, .reading) {
                guard let value = try form.$value.number() else { throw CinnError.invalid("value", "enter a glucose value") }
                let timing = try form.timing.map { text in
                    guard let timing = MealTiming(rawValue: text) else { throw CinnError.invalid("timing", "unknown timing \(text)") }
                    return timing
                }
                let unit = try form.unit.map { text in try GlucoseUnit.parse(text) }
                try await once(form.$key, .glucoseReading, context: context) { id in
                    _ = try await context.journal.addGlucose(
                        id: id, value: value, unit: unit, time: form.time, timing: timing, note: form.note, confirm: form.$confirm.isTrue)
                }
            }
        } catch let error as CinnError where error.code == .needsConfirmation {
            // The unit the value was sent in: the form's (parsed above before the question), else the user's.
            let sentUnit = try form.unit.map { text in try GlucoseUnit.parse(text) }
            let typedUnit = if let sentUnit { sentUnit } else { try await context.journal.settings().glucoseUnit }
            let value = try form.$value.number() ?? 0
            let other: GlucoseUnit = typedUnit == .milligramsPerDeciliter ? .millimolesPerLiter : .milligramsPerDeciliter
            let text = form.value ?? ""
            var choices = [GlucoseFeedback.ReadingConfirmation.Choice(unit: other.rawValue, label: "It was \(text) \(other.rawValue)")]
            if (try? Glucose.validated(value, typedUnit)) != nil {
                choices.append(.init(unit: typedUnit.rawValue, label: "Save \(text) \(typedUnit.rawValue) anyway"))
            }
            var feedback = GlucoseFeedback()
            feedback.confirmation = .init(
                message: error.message, value: text, time: form.time ?? "", timing: form.timing ?? "", note: form.note ?? "",
                choices: choices, key: form.key ?? FormKeys.fresh())
            feedback.readingKey = feedback.confirmation?.key ?? feedback.readingKey
            return try await renderReport(context, days: 30, feedback: feedback, status: .unprocessableContent)
        }
    }

    @Sendable func deleteReading(_ request: Request, context: Context) async throws -> WebAnswer {
        let back = try await dayPath(request)
        try await context.journal.deleteGlucoseReading(id: try idParameter(context, "glucose reading"))
        return Done.readingDeleted.redirect(to: back)
    }

    struct InsulinForm: Decodable {
        @Field var units: String?
        @Field var kind: String?
        @Field var insulin: String?
        @Field var time: String?
        @Field var note: String?
        /// The form's key (`FormKeys`): the new dose's id.
        @Field var key: String?
    }

    @Sendable func addInsulin(_ request: Request, context: Context) async throws -> WebAnswer {
        let form = try await request.decodeForm(InsulinForm.self)
        return try await changing(context, .insulin) {
            guard let units = try form.$units.number() else { throw CinnError.invalid("units", "enter the units") }
            let kind = InsulinKind(rawValue: form.kind ?? "bolus") ?? .bolus
            try await once(form.$key, .insulinDose, context: context) { id in
                _ = try await context.journal.addInsulin(
                    id: id, units: units, kind: kind, insulin: form.insulin, time: form.time, note: form.note)
            }
        }
    }

    @Sendable func deleteInsulin(_ request: Request, context: Context) async throws -> WebAnswer {
        let back = try await dayPath(request)
        try await context.journal.deleteInsulinDose(id: try idParameter(context, "insulin dose"))
        return Done.insulinDeleted.redirect(to: back)
    }

    /// The day page a delete form was sent from (its `day` field), to go back to; else the report.
    func dayPath(_ request: Request) async throws -> String {
        struct DeleteForm: Decodable { @Field var day: String? }
        let form = try await request.decodeForm(DeleteForm.self)
        return form.day.flatMap(LocalDate.init(iso:)).map { Site.glucoseDay.path($0) } ?? Site.glucose.path
    }

    /// A study meal's form.
    struct MealForm: Decodable {
        @Field var name: String?
        @Field var kind: String?
        @Field var carbohydrateGrams: String?
        /// The form's key (`FormKeys`).
        @Field var key: String?

        enum CodingKeys: String, CodingKey {
            case name, kind, key
            case carbohydrateGrams = "carbohydrate_g"
        }
    }

    func renderMeals(
        _ context: Context, error: String? = nil, form: MealForm? = nil, notice: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> WebAnswer {
        let page = MealsPage(
            meals: try await context.journal.meals(), error: error, name: form?.name ?? "", carbs: form?.carbohydrateGrams ?? "")
        return .page("glucose-meals", page, title: "Study meals", tab: .glucose, notice: notice, status: status)
    }

    @Sendable func meals(_ request: Request, context: Context) async throws -> WebAnswer {
        try await renderMeals(context, notice: Done.notice(request))
    }

    @Sendable func addMeal(_ request: Request, context: Context) async throws -> WebAnswer {
        let form = try await request.decodeForm(MealForm.self)
        do {
            return try await FormKeys.once(try form.$key.uuid(), in: context.journal) {
                _ = try await context.journal.addMeal(
                    name: form.name ?? "", kind: MealKind(rawValue: form.kind ?? "common") ?? .common,
                    carbohydrateGrams: try form.$carbohydrateGrams.number(), foods: [], note: nil)
                return Done.mealAdded.redirect(to: Site.studyMeals.path)
            } answer: {
                Done.mealAdded.redirect(to: Site.studyMeals.path)
            }
        } catch let error as CinnError where error.code == .invalidInput || error.code == .conflict {
            return try await renderMeals(context, error: error.message, form: form, status: error.code.httpStatus)
        }
    }

    @Sendable func deleteMeal(_ request: Request, context: Context) async throws -> WebAnswer {
        try await context.journal.deleteMeal(id: try idParameter(context, "meal"))
        return Done.mealDeleted.redirect(to: Site.studyMeals.path)
    }

    /// Logging a meal on the report: a study meal, a preset, a recipe or a food.
    struct LogMealForm: Decodable {
        @Field var meal: String?
        @Field var mealID: String?
        @Field var portion: String?
        @Field var slot: String?
        @Field var time: String?
        @Field var note: String?
        /// The form's key (`FormKeys`): the new meal event's or first food-log entry's id.
        @Field var key: String?

        enum CodingKeys: String, CodingKey {
            case meal, portion, slot, time, note, key
            case mealID = "meal_id"
        }
    }

    @Sendable func logMeal(_ request: Request, context: Context) async throws -> WebAnswer {
        let form = try await request.decodeForm(LogMealForm.self)
        return try await changing(context, .meal) {
            // "preset:ID", "recipe:ID" and "food:ID" log to the food diary; "meal:ID" (or a bare id) logs a study meal's event.
            let choice = (form.meal ?? form.mealID ?? "").split(separator: ":", maxSplits: 1).map(String.init)
            guard let id = choice.last.flatMap(UUID.init(text:)) else { throw CinnError.invalid("meal", "choose a meal") }
            let portion = try form.$portion.number()
            let slot = form.slot
            let kind = choice.count == 2 ? choice[0] : "meal"
            try await once(form.$key, kind == "meal" ? .mealEvent : .foodEntry, context: context) { key in
                switch kind {
                case "preset":
                    _ = try await context.journal.logPreset(id: id, times: portion ?? 1, meal: slot, time: form.time, firstEntryID: key)
                case "recipe":
                    _ = try await context.journal.logFoods([
                        FoodLogRequest(id: key, foodID: id, servings: portion ?? 1, serving: "1 serving", meal: slot, time: form.time)
                    ])
                case "food":
                    _ = try await context.journal.logFoods([
                        FoodLogRequest(id: key, foodID: id, servings: portion ?? 1, meal: slot, time: form.time)
                    ])
                default:
                    _ = try await context.journal.logMeal(
                        id: key, mealID: id, time: form.time, portion: portion, carbohydrateGrams: nil, note: form.note)
                }
            }
        }
    }

    @Sendable func reportMealEvent(_ request: Request, context: Context) async throws -> WebAnswer {
        struct ReportForm: Decodable { @Field var reason: String? }
        let form = try await request.decodeForm(ReportForm.self)
        let id = try idParameter(context, "meal event")
        return try await changing(context, .mealEvent) { try await context.journal.reportMealEvent(id: id, reason: form.reason) }
    }

    @Sendable func deleteMealEvent(_ request: Request, context: Context) async throws -> WebAnswer {
        try await context.journal.deleteMealEvent(id: try idParameter(context, "meal event"))
        return Done.mealEventDeleted.redirect(to: Site.glucose.path)
    }

    func chartSVG(_ day: GlucoseDay) -> String {
        let points = day.readings.map { GlucosePoint(at: $0.measuredAt, glucose: $0.glucose) }
        let meals = day.events.map { GlucoseDayChart.MealMark(at: $0.event.eatenAt, label: GlucosePageText.describe($0, unit: day.unit)) }
        return GlucoseDayChart(
            start: day.start, end: day.end, utcOffsetSeconds: day.utcOffsetSeconds, points: points, meals: meals, doses: day.doses,
            unit: day.unit
        ).svg()
    }

    @Sendable func day(_ request: Request, context: Context) async throws -> WebAnswer {
        let date = try date(context)
        let day = try await context.journal.glucoseDay(date)
        let today = context.journal.today(try await context.journal.settings())
        let page = GlucoseDayPage(day: day, chart: chartSVG(day), today: today)
        return .page("glucose-day", page, title: "Glucose on \(date.dayMonthYear)", tab: .glucose, notice: Done.notice(request))
    }

    @Sendable func chart(_ request: Request, context: Context) async throws -> WebAnswer {
        let day = try await context.journal.glucoseDay(try date(context))
        return .response(
            Response(
                status: .ok, headers: [.contentType: "image/svg+xml; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: chartSVG(day)))))
    }
}
