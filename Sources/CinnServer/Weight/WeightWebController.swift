import CinnCharts
import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// The weight pages: the dashboard (the answer, the trend chart, the add-weigh-in form) and the weigh-ins list with its
/// edit and delete pages. Plain forms and links do everything; no JavaScript needed.
struct WeightWebController {
    typealias Context = JournalRequestContext

    func addRoutes(to router: RouterGroup<Context>) {
        router.get(Site.dashboard, use: dashboard)
        router.get(Site.trendChart, use: chart)
        router.post(Site.weighIns, use: addWeighIn)
        router.get(Site.weighIns, use: weighIns)
        router.get(Site.editWeighIn, use: editForm)
        router.post(Site.weighIn, use: saveEdit)
        router.get(Site.deleteWeighIn, use: confirmDelete)
        router.post(Site.deleteWeighIn, use: delete)
    }

    func range(_ request: Request) throws -> TrendRange {
        try request.query("range").map { text in try TrendRange.parse(text) } ?? .quarter
    }

    /// The dashboard's page; `reports` when the caller has read them already.
    func renderDashboard(
        _ context: Context, range: TrendRange, reports: (trend: TrendReport, energy: EnergyReport)? = nil, formError: String? = nil,
        form: DashboardPage.WeightForm = .init(), notice: String? = nil
    ) async throws -> Page {
        let (report, energy) = if let reports { reports } else { try await context.journal.dashboard(range: range) }
        let settings = energy.settings
        let recent = try await context.journal.weighIns(limit: 7)
        var trendByDay: [LocalDate: Mass] = [:]
        for point in report.days.suffix(14) { trendByDay[point.date] = point.trend }
        let page = DashboardPage(
            report: report, settings: settings, todayAnswer: energy.answer, range: range, today: energy.asOf,
            recent: recent, trendByDay: trendByDay, formError: formError, form: form)
        return Page("dashboard", page, title: "Can I nom nom?", tab: .weight, notice: notice)
    }

    /// The dashboard; on the first visit, before the profile is set up or skipped, the onboarding.
    @Sendable func dashboard(_ request: Request, context: Context) async throws -> WebAnswer {
        let range = try range(request)
        let reports = try await context.journal.dashboard(range: range)
        let settings = reports.energy.settings
        if !settings.onboarded && settings.profile == nil { return .redirect(Site.welcome.path) }
        var notice = Done.notice(request)
        if notice == nil { notice = try await addedNotice(context, request, settings) }
        return .page(try await renderDashboard(context, range: range, reports: reports, notice: notice), status: .ok)
    }

    /// "Saved 80.3 kg for today.": what the form post that led here (`?added=ID`) did, if that weigh-in is this user's.
    func addedNotice(_ context: Context, _ request: Request, _ settings: UserSettings) async throws -> String? {
        guard let id = request.query("added").flatMap(UUID.init(text:)) else { return nil }
        let weighIn: WeighIn
        do {
            weighIn = try await context.journal.weighIn(id: id)
        } catch let error as CinnError where error.code == .notFound {
            return nil
        }
        let day = weighIn.localDate == context.journal.today(settings) ? "today" : DashboardPage.shortDate(weighIn.localDate)
        return "Saved \(weighIn.weight.formatted(in: settings.displayUnit)) for \(day)."
    }

    @Sendable func chart(_ request: Request, context: Context) async throws -> WebAnswer {
        let range = try range(request)
        let (report, settings) = try await context.journal.trend(range: range)
        let svg = TrendChart(
            points: report.days, unit: settings.displayUnit, goal: report.goal?.weight,
            projection: report.rate, title: "Weight trend to \(report.to.iso)"
        ).svg()
        return .response(
            Response(
                status: .ok,
                headers: [
                    .contentType: "image/svg+xml",
                    .contentDisposition: "attachment; filename=\"cinn-trend-\(report.to.iso).svg\"",
                ],
                body: ResponseBody(byteBuffer: ByteBuffer(string: svg))))
    }

    /// The add-weigh-in form (the dashboard's) and the edit form.
    struct WeighInForm: Decodable {
        @Field var weight: String?
        @Field var date: String?
        @Field var note: String?
        @Field var confirm: String?
        /// The form's key (`FormKeys`): the new weigh-in's id.
        @Field var key: String?
    }

    @Sendable func addWeighIn(_ request: Request, context: Context) async throws -> WebAnswer {
        let form = try await request.decodeForm(WeighInForm.self)
        do {
            guard let weight = try form.$weight.number() else { throw CinnError.invalid("weight", "enter your weight") }
            let added = try await FormKeys.once(try form.$key.uuid()) { id in
                try await context.journal.addWeighIn(
                    id: id, weight: weight, unit: nil, date: form.date, note: form.note, confirm: form.$confirm.isTrue)
            } existing: { id in
                try await context.journal.weighIn(id: id)
            }
            return .redirect("/?added=\(added.id.lowercasedString)")
        } catch let error as CinnError where error.code == .needsConfirmation {
            let sent = DashboardPage.WeightForm(
                weight: form.weight ?? "", date: form.date, note: form.note ?? "", confirmation: error.message,
                key: form.key ?? FormKeys.fresh())
            return .page(try await renderDashboard(context, range: .quarter, form: sent), status: .unprocessableContent)
        } catch let error as CinnError where error.code == .invalidInput {
            let sent = DashboardPage.WeightForm(
                weight: form.weight ?? "", date: form.date, note: form.note ?? "", key: form.key ?? FormKeys.fresh())
            return .page(
                try await renderDashboard(context, range: .quarter, formError: error.message, form: sent), status: .unprocessableContent)
        }
    }

    /// The weigh-ins, newest first, with their trend and changes; `?month=YYYY-MM` shows that month day by day.
    @Sendable func weighIns(_ request: Request, context: Context) async throws -> WebAnswer {
        let settings = try await context.journal.settings()
        let trend = WeightTrend(
            days: try await context.journal.dailyWeights(),
            method: settings.trendMethod, displayUnit: settings.displayUnit)
        let today = context.journal.today(settings)
        if let month = request.query("month") {
            let parts = month.split(separator: "-")
            guard parts.count == 2, let year = Int(parts[0]), let number = Int(parts[1]),
                LocalDate(year: year, month: number, day: 1) != nil
            else {
                throw CinnError.invalid("month", "month must be YYYY-MM, like 2024-03")
            }
            let model = WeightMonthPage(WeightLogMonth(trend: trend, year: year, month: number), unit: settings.displayUnit, today: today)
            return .page("weigh-ins-month", model, title: "Weigh-ins, \(model.title)", tab: .weight)
        }
        let page = try request.queryInt("page", default: 1, range: 1...1_000_000)
        let pageSize = 50
        // One more than a page: whether there is an older page, and the weigh-in the page's last one changed from.
        let items = try await context.journal.weighIns(limit: pageSize + 1, offset: (page - 1) * pageSize)
        let rows = WeightLogRow.rows(Array(items.prefix(pageSize)), before: items.count > pageSize ? items[pageSize] : nil, trend: trend)
        let model = WeighInsPage(rows: rows, unit: settings.displayUnit, page: page, hasMore: items.count > pageSize, today: today)
        return .page("weigh-ins", model, title: "Weigh-ins", tab: .weight, notice: Done.notice(request))
    }

    @Sendable func editForm(_ request: Request, context: Context) async throws -> WebAnswer {
        let weighIn = try await context.journal.weighIn(id: try idParameter(context, "weigh-in"))
        let settings = try await context.journal.settings()
        return .page("edit", WeighInPage(weighIn, unit: settings.displayUnit), title: "Edit weigh-in", tab: .weight)
    }

    @Sendable func saveEdit(_ request: Request, context: Context) async throws -> WebAnswer {
        let id = try idParameter(context, "weigh-in")
        let form = try await request.decodeForm(WeighInForm.self)
        do {
            _ = try await context.journal.editWeighIn(
                id: id, weight: try form.$weight.number(), unit: nil, date: form.date, note: .some(form.note), confirm: form.$confirm.isTrue
            )
            return Done.weighInSaved.redirect(to: Site.weighIns.path)
        } catch let error as CinnError where error.code == .invalidInput || error.code == .needsConfirmation {
            let weighIn = try await context.journal.weighIn(id: id)
            let settings = try await context.journal.settings()
            let asked = error.code == .needsConfirmation
            let model = WeighInPage(
                weighIn, unit: settings.displayUnit, sent: form, formError: asked ? nil : error.message,
                confirmation: asked ? error.message : nil)
            return .page("edit", model, title: "Edit weigh-in", tab: .weight, status: .unprocessableContent)
        }
    }

    @Sendable func confirmDelete(_ request: Request, context: Context) async throws -> WebAnswer {
        let weighIn = try await context.journal.weighIn(id: try idParameter(context, "weigh-in"))
        let settings = try await context.journal.settings()
        return .page("confirm-delete", WeighInPage(weighIn, unit: settings.displayUnit), title: "Delete weigh-in", tab: .weight)
    }

    @Sendable func delete(_ request: Request, context: Context) async throws -> WebAnswer {
        try await context.journal.deleteWeighIn(id: try idParameter(context, "weigh-in"))
        return Done.weighInDeleted.redirect(to: Site.weighIns.path)
    }
}
