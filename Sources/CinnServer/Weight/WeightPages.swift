import CinnCharts
import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation

/// The dashboard: the verdict, the numbers, the chart, the form, the latest weigh-ins.
struct DashboardPage {
    struct RangeLink {
        let name: String
        let label: String
        let on: Bool
    }
    struct Row {
        let day: String
        let weight: String
        let trend: String
    }

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
        /// The form's key (`FormKeys`): fresh for a new form, the sent one when a form comes back.
        var key = FormKeys.fresh()
    }

    init(
        report: TrendReport, settings: UserSettings, todayAnswer: DailyAnswer, range: TrendRange, today: LocalDate, recent: [WeighIn],
        trendByDay: [LocalDate: Mass], formError: String? = nil, form: WeightForm = WeightForm()
    ) {
        let unit = settings.displayUnit
        answer = report.verdict.answer.rawValue
        icon =
            switch report.verdict.answer {
            case .yes: "✓"
            case .no: "✗"
            case .unknown: "?"
            }
        todayState = todayAnswer.answer.rawValue
        todayMessage = todayAnswer.message
        todayLink = settings.profile == nil ? Site.profile.path : Site.foodToday.path
        todayLinkText = settings.profile == nil ? "Set up your profile for a daily budget →" : "Today's food →"
        reason = report.verdict.reason
        hasData = !report.days.isEmpty || !recent.isEmpty
        if let rate = report.rate {
            let perWeek = rate.perWeek(in: unit)
            self.rate =
                (perWeek > 0 ? "+" : perWeek < 0 ? "−" : "") + Mass.format(abs(perWeek), decimals: unit.displayDecimals + 1)
                + " \(unit.rawValue)"
            let kcal = rate.energyBalancePerDay.kilocalories
            energy = (kcal > 0 ? "+" : kcal < 0 ? "−" : "") + Mass.format(abs(kcal), decimals: 0) + " kcal"
        } else {
            rate = report.settlingDays == nil ? "—" : "not sure yet"
            energy = "—"
        }
        if let forecast = report.forecast {
            self.forecast = forecast == report.to ? "Reached" : Self.shortDate(forecast, withYear: forecast.year != report.to.year)
            forecastLabel = forecast == report.to ? "goal" : "goal reached by"
        } else {
            forecast = report.goal != nil && report.settlingDays != nil ? "not sure yet" : "—"
            forecastLabel = report.goal == nil ? "no goal set" : "goal date"
        }
        ranges = TrendRange.allCases.map { RangeLink(name: $0.rawValue, label: $0.rawValue.capitalized, on: $0 == range) }
        self.range = range.rawValue
        let projection = report.rate
        chart = TrendChart(
            points: report.days, unit: unit, goal: report.goal?.weight, projection: projection,
            title: "Weight trend, \(range == .all ? "all time" : "last " + range.rawValue)"
        ).svg()
        latestTrend = report.latest.map { $0.trend.formatted(in: unit) } ?? "—"
        self.unit = unit.rawValue
        placeholder = report.latest.map { Mass.format($0.trend.value(in: unit), decimals: unit.displayDecimals) } ?? ""
        self.today = today.iso
        latest = recent.prefix(7).map { weighIn in
            Row(
                day: Self.shortDate(weighIn.localDate), weight: weighIn.weight.formatted(in: unit),
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
    struct Item {
        let id: String
        let day: String
        let time: String
        let weight: String
        let note: String?
        /// The trend of the day; the change from the weigh-in before; the trend's change over the week to this day.
        let trend: String
        let change: String
        let week: String
    }

    let items: [Item]
    let hasItems: Bool
    let newer: Int?
    let older: Int?
    let unit: String
    /// The month view's link: this month, or the month of the newest weigh-in shown.
    let monthLink: String

    init(rows: [WeightLogRow], unit: MassUnit, page: Int, hasMore: Bool, today: LocalDate) {
        items = rows.map { row in
            let weighIn = row.weighIn
            let time = weighIn.localTimeISO
            let change = row.change?.value(in: unit)
            return Item(
                id: weighIn.id.lowercasedString,
                day: DashboardPage.shortDate(weighIn.localDate, withYear: weighIn.localDate.year != today.year),
                time: String(time.dropFirst(11).prefix(5)),
                weight: Mass.format(weighIn.weight.value(in: unit), decimals: unit.displayDecimals), note: weighIn.note,
                trend: row.trend.map { Mass.format($0.value(in: unit), decimals: unit.displayDecimals + 1) } ?? "—",
                change: change.map { Self.signed($0, unit) } ?? "—",
                week: row.weekTrendChange.map { Self.signed($0.value(in: unit), unit) } ?? "—")
        }
        hasItems = !items.isEmpty
        newer = page > 1 ? page - 1 : nil
        older = hasMore ? page + 1 : nil
        self.unit = unit.rawValue
        let month = rows.first?.weighIn.localDate ?? today
        monthLink = Site.weighIns.path + "?month=\(String(month.iso.prefix(7)))"
    }

    /// "+0.4", "−1.2", "0.0": a change with its sign, in the unit's usual decimals.
    static func signed(_ value: Double, _ unit: MassUnit) -> String {
        let text = Mass.format(abs(value), decimals: unit.displayDecimals)
        let zero = Mass.format(0, decimals: unit.displayDecimals)
        return text == zero ? zero : (value < 0 ? "−" : "+") + text
    }
}

/// A month of the trend, day by day, as the Hacker's Diet's log sheet.
struct WeightMonthPage {
    struct Row {
        let day: String
        let weight: String
        let interpolated: Bool
        let trend: String
        let variance: String
    }

    let title: String
    let rows: [Row]
    let hasRows: Bool
    /// "The trend went from 81.3 to 80.1 kg: −1.2 kg, −0.3 kg a week."
    let summary: String?
    let previous: String
    let next: String?
    let unit: String

    init(_ month: WeightLogMonth, unit: MassUnit, today: LocalDate) {
        let first = LocalDate(year: month.year, month: month.month, day: 1) ?? today
        title = "\(first.monthName) \(first.year)"
        self.unit = unit.rawValue
        let decimals = unit.displayDecimals + 1
        rows = month.days.map { day in
            Row(
                day: "\(NutritionText.weekdays[day.point.date.weekday - 1]) \(day.point.date.day)",
                weight: Mass.format(day.point.value.value(in: unit), decimals: unit.displayDecimals),
                interpolated: day.point.interpolated, trend: Mass.format(day.point.trend.value(in: unit), decimals: decimals),
                variance: day.variance.map { WeighInsPage.signed($0.value(in: unit), unit) } ?? "")
        }
        hasRows = !rows.isEmpty
        if let start = month.trendStart, let end = month.trendEnd, let change = month.trendChange {
            var text =
                "The trend went from \(Mass.format(start.value(in: unit), decimals: decimals)) to \(end.formatted(in: unit, decimals: decimals)): "
                + "\(WeighInsPage.signed(change.value(in: unit), unit)) \(unit.rawValue)"
            if let rate = month.weeklyRate { text += ", \(WeighInsPage.signed(rate.value(in: unit), unit)) \(unit.rawValue) a week" }
            summary = text + "."
        } else {
            summary = nil
        }
        let previousMonth = first.adding(days: -1)
        previous = String(previousMonth.iso.prefix(7))
        let nextMonth = first.adding(days: 32)
        let nextFirst = LocalDate(year: nextMonth.year, month: nextMonth.month, day: 1) ?? nextMonth
        next = nextFirst <= today ? String(nextFirst.iso.prefix(7)) : nil
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
    init(
        _ weighIn: WeighIn, unit: MassUnit, sent: WeightWebController.WeighInForm? = nil, formError: String? = nil,
        confirmation: String? = nil
    ) {
        id = weighIn.id.lowercasedString
        self.unit = unit.rawValue
        weight = sent?.weight ?? Mass.format(weighIn.weight.value(in: unit), decimals: unit.displayDecimals + 1)
        day = DashboardPage.shortDate(weighIn.localDate)
        time = sent?.date ?? String(weighIn.localTimeISO.prefix(19))
        clock = LocalDateTime(instant: weighIn.measuredAt, utcOffsetSeconds: weighIn.utcOffsetSeconds).clock
        note = sent.map { $0.note ?? "" } ?? weighIn.note ?? ""
        self.formError = formError
        self.confirmation = confirmation
    }
}

/// A page lists up to a hundred: read by name, not by reflection (`TemplateParent`).
extension WeighInsPage.Item: TemplateParent {
    func child(named fieldName: String) -> Any? {
        switch fieldName {
        case "id": id
        case "day": day
        case "time": time
        case "weight": weight
        case "note": note
        case "trend": trend
        case "change": change
        case "week": week
        default: nil
        }
    }
}
