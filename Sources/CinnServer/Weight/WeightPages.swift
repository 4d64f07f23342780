import CinnCharts
import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation
import Mustache

/// The dashboard: the verdict, the numbers, the chart, the form, the latest weigh-ins.
struct DashboardPage {
    struct RangeLink { let name: String; let label: String; let on: Bool }
    struct Row { let day: String; let weight: String; let trend: String }

    let answer: String
    let icon: String
    let reason: String
    let todayState: String
    let todayMessage: String
    let todayLink: String?
    let todayLinkText: String
    let hasData: Bool
    let rate: String
    let energy: String
    let forecast: String
    let forecastLabel: String
    let ranges: [RangeLink]
    let range: String
    let chart: String
    let latestTrend: String
    let unit: String
    let placeholder: String
    let today: String
    let latest: [Row]
    let formError: String?
    /// What the add-weigh-in form held when it was sent back (an error, or a weight to confirm).
    let form: WeightForm

    /// The add-weigh-in form as it was sent; `confirmation`: why the weight needs confirming (`TypoGuard`).
    struct WeightForm {
        var weight = ""
        var date: String?
        var note = ""
        var confirmation: String?
    }

    init(report: TrendReport, settings: UserSettings, todayAnswer: DailyAnswer, range: TrendRange, today: LocalDate, recent: [WeighIn],
         trendByDay: [LocalDate: Mass], formError: String? = nil, form: WeightForm = WeightForm()) {
        let unit = settings.displayUnit
        answer = report.verdict.answer.rawValue
        icon = switch report.verdict.answer {
        case .yes: "✓"
        case .no: "✗"
        case .unknown: "?"
        }
        todayState = todayAnswer.answer.rawValue
        todayMessage = todayAnswer.message
        todayLink = settings.profile == nil ? "/profile" : "/food"
        todayLinkText = settings.profile == nil ? "Set up your profile for a daily budget →" : "Today's food →"
        reason = report.verdict.reason
        hasData = !report.days.isEmpty || !recent.isEmpty
        if let rate = report.rate {
            let perWeek = rate.perWeek(in: unit)
            self.rate = (perWeek > 0 ? "+" : perWeek < 0 ? "−" : "") + Mass.format(abs(perWeek), decimals: unit.displayDecimals + 1)
                + " \(unit.rawValue)"
            let kcal = rate.energyBalancePerDay.kilocalories
            energy = (kcal > 0 ? "+" : kcal < 0 ? "−" : "") + Mass.format(abs(kcal), decimals: 0) + " kcal"
        } else {
            rate = "—"
            energy = "—"
        }
        if let forecast = report.forecast {
            self.forecast = forecast == report.to ? "Reached" : Self.shortDate(forecast, withYear: forecast.year != report.to.year)
            forecastLabel = forecast == report.to ? "goal" : "goal reached by"
        } else {
            forecast = "—"
            forecastLabel = report.goal == nil ? "no goal set" : "goal date"
        }
        ranges = TrendRange.allCases.map { RangeLink(name: $0.rawValue, label: $0.rawValue.capitalized, on: $0 == range) }
        self.range = range.rawValue
        let projection = report.rate
        chart = TrendChart(points: report.days, unit: unit, goal: report.goal?.weight, projection: projection,
                           title: "Weight trend, \(range == .all ? "all time" : "last " + range.rawValue)").svg()
        latestTrend = report.latest.map { $0.trend.formatted(in: unit) } ?? "—"
        self.unit = unit.rawValue
        placeholder = report.latest.map { Mass.format($0.trend.value(in: unit), decimals: unit.displayDecimals) } ?? ""
        self.today = today.iso
        latest = recent.prefix(7).map { weighIn in
            Row(day: Self.shortDate(weighIn.localDate), weight: weighIn.weight.formatted(in: unit),
                trend: trendByDay[weighIn.localDate].map { $0.formatted(in: unit) } ?? "—")
        }
        self.formError = formError
        var form = form
        form.date = form.date ?? today.iso
        self.form = form
    }

    /// "9 Mar 2024", or "9 Mar" without the year.
    static func shortDate(_ date: LocalDate, withYear: Bool = true) -> String {
        withYear ? date.dayMonthYear : date.dayMonth
    }

    /// "9 Mar 2024, 07:41": an instant as pages show it, in the person's time zone.
    static func moment(_ instant: Date, in zone: TimeZone) -> String {
        let local = LocalDateTime(instant: instant, utcOffsetSeconds: zone.secondsFromGMT(for: instant))
        return "\(local.date.dayMonthYear), \(local.clock)"
    }
}

/// The paged list of weigh-ins.
struct WeighInsPage {
    struct Item { let id: String; let day: String; let time: String; let weight: String; let note: String? }
    let items: [Item]
    let hasItems: Bool
    let newer: Int?
    let older: Int?

    init(weighIns: [WeighIn], unit: MassUnit, page: Int, hasMore: Bool) {
        items = weighIns.map {
            let time = $0.localTimeISO
            return Item(id: $0.id.lowercasedString, day: DashboardPage.shortDate($0.localDate),
                        time: String(time.dropFirst(11).prefix(5)), weight: $0.weight.formatted(in: unit), note: $0.note)
        }
        hasItems = !items.isEmpty
        newer = page > 1 ? page - 1 : nil
        older = hasMore ? page + 1 : nil
    }
}

/// The edit form and the delete confirmation of one weigh-in.
struct WeighInPage {
    let id: String
    let unit: String
    let weight: String
    let day: String
    /// For the edit form's datetime-local field.
    let time: String
    /// "07:41", as pages show a time.
    let clock: String
    let note: String
    let formError: String?
    /// Why the changed weight needs confirming (`TypoGuard`).
    let confirmation: String?

    /// The page for `weighIn`; `sent`: the edit form as it was sent back (an error or a weight to confirm).
    init(_ weighIn: WeighIn, unit: MassUnit, sent: FormFields? = nil, formError: String? = nil, confirmation: String? = nil) {
        id = weighIn.id.lowercasedString
        self.unit = unit.rawValue
        weight = sent?["weight"] ?? Mass.format(weighIn.weight.value(in: unit), decimals: unit.displayDecimals + 1)
        day = DashboardPage.shortDate(weighIn.localDate)
        time = sent?["date"] ?? String(weighIn.localTimeISO.prefix(19))
        clock = LocalDateTime(instant: weighIn.measuredAt, utcOffsetSeconds: weighIn.utcOffsetSeconds).clock
        note = sent.map { $0["note"] ?? "" } ?? weighIn.note ?? ""
        self.formError = formError
        self.confirmation = confirmation
    }
}
