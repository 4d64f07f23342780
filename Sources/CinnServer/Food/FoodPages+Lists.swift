import CinnCharts
import CinnCore
import CinnJournal
import Foundation

/// The presets: each with its foods and energy, a form to log it, and delete.
struct FoodPresetsPage {
    struct Card {
        let id: String
        let name: String
        let presetMeal: String?
        let energy: String
        let items: [String]
        let meals: [Choice]
        let date: String
        let time: String
        let times: String
        let logError: String?
        let justSaved: Bool
        /// The log form's key (`FormKeys`).
        let key: String
    }

    let presets: [Card]
    let hasPresets: Bool
    let maxDate: String
    let notice: String?

    /// The preset whose log form failed, with what was typed and what is wrong.
    struct FailedLog {
        let id: UUID
        let input: LogFoodInput
        let times: String
        let problem: FormProblem
    }

    init(presets: [FoodPreset], settings: UserSettings, today: LocalDate, now: String, savedID: UUID?, failed: FailedLog? = nil) {
        self.presets = presets.map { preset in
            let summary = PresetSummary(preset, unit: settings.energyUnit)
            let failure = failed?.id == preset.id ? failed : nil
            let meal = failure.flatMap { try? Meal.parse($0.input.meal) } ?? preset.meal
            return Card(
                id: summary.id, name: summary.name, presetMeal: summary.presetMeal, energy: summary.energy,
                items: summary.items,
                meals: MealChoices.list(selected: meal), date: failure?.input.date ?? today.iso,
                time: failure?.input.time ?? now, times: failure?.times ?? "1",
                logError: failure?.problem.message, justSaved: preset.id == savedID, key: failure?.input.key ?? FormKeys.fresh())
        }
        hasPresets = !presets.isEmpty
        maxDate = today.iso
        notice = savedID != nil && presets.contains { $0.id == savedID } ? "Preset saved." : nil
    }
}

/// Every entry, newest first, searchable and paged, grouped by day.
struct FoodHistoryPage {
    struct Row {
        let id: String
        let time: String
        let name: String
        let brand: String?
        let amount: String
        let energy: String
    }

    struct Day {
        let label: String
        let link: String
        let rows: [Row]
    }

    let days: [Day]
    let hasEntries: Bool
    let search: String
    let hasSearch: Bool
    let newer: String?
    let older: String?

    init(entries: [FoodLogEntry], search: String?, page: Int, hasMore: Bool, settings: UserSettings, today: LocalDate) {
        var days: [Day] = []
        for entry in entries {
            let date = entry.localDate
            let row = Row(
                id: entry.id.lowercasedString, time: entry.localTimeOfDay, name: entry.name, brand: entry.brand,
                amount: NutritionText.servings(entry.servings, entry.servingLabel),
                energy: NutritionText.energy(entry.energy, settings.energyUnit))
            let link = Site.foodDay.path(date)
            if days.last?.link == link {
                days[days.count - 1] = Day(label: days[days.count - 1].label, link: link, rows: days[days.count - 1].rows + [row])
            } else {
                days.append(Day(label: NutritionText.day(date, today: today), link: link, rows: [row]))
            }
        }
        self.days = days
        hasEntries = !entries.isEmpty
        self.search = search ?? ""
        hasSearch = search != nil
        newer = page > 1 ? NutritionText.link(Site.foodHistory.path, [("search", search), ("page", page > 2 ? "\(page - 1)" : nil)]) : nil
        older = hasMore ? NutritionText.link(Site.foodHistory.path, [("search", search), ("page", "\(page + 1)")]) : nil
    }
}

/// Statistics over a period: averages per logged day, totals per day, week or month, and three charts.
struct FoodStatsPage {
    struct Link {
        let label: String
        let href: String
        let on: Bool
    }

    struct PeriodRow {
        let label: String
        /// "5 days, 8476 kcal in all" for a week or a month.
        let days: String?
        let average: String
        let macros: String
    }

    let from: String
    let to: String
    let maxDate: String
    let period: String
    let periods: [Choice]
    let rangeLinks: [Link]
    let nutrients: [Choice]
    let hasData: Bool
    let average: String
    let daysLogged: String
    let target: String?
    let averages: [NutrientRow]
    let periodHeading: String
    let periodRows: [PeriodRow]
    let calorieChart: String
    let macroChart: String
    /// How often each goal was met over the span (the user's goals, fiber and sodium).
    var goalRows: [GoalRow] = [] {
        didSet { hasGoals = !goalRows.isEmpty }
    }
    /// Stored, not computed: templates read stored properties only.
    private(set) var hasGoals = false

    struct GoalRow {
        let label: String
        let met: String
        let percent: Int
    }

    /// The rows of `records` the day view shows as bars too.
    static func goalRows(_ records: [GoalRecord]) -> [GoalRow] {
        records.filter(\.goal.isShownByDefault).map { record in
            let bound =
                record.goal.macro?.description
                ?? [
                    record.goal.minimum.map { "at least \(NutritionText.number($0)) \(record.goal.nutrient.unit.rawValue)" },
                    record.goal.maximum.map { "at most \(NutritionText.number($0)) \(record.goal.nutrient.unit.rawValue)" },
                ]
                .compactMap { $0 }.joined(separator: ", ")
            return GoalRow(
                label: "\(record.goal.nutrient.name) (\(bound))",
                met: "\(record.daysMet) of \(NutritionText.plural(record.daysLogged, "day"))",
                percent: record.daysLogged == 0 ? 0 : (Double(record.daysMet) / Double(record.daysLogged) * 100).roundedInt ?? 0)
        }
    }
    let nutrientChart: String

    /// What the page shows: the days (one period per logged day), how to group them, and the chosen nutrient.
    struct Query {
        let from: LocalDate
        let to: LocalDate
        let length: NutritionPeriod.Length
        let nutrient: Nutrient
    }

    static let ranges = [(7, "7 days"), (30, "30 days"), (90, "90 days"), (365, "1 year")]

    /// - Parameter energyTargetKcal: today's calorie target, drawn across the chart.
    init(days: [NutritionPeriod], query: Query, settings: UserSettings, energyTargetKcal: Double?, today: LocalDate) {
        let unit = settings.energyUnit
        from = query.from.iso
        to = query.to.iso
        maxDate = today.iso
        period = query.length.rawValue
        periods = NutritionPeriod.Length.allCases.map {
            Choice(value: $0.rawValue, label: $0.rawValue.capitalized, selected: $0 == query.length)
        }
        rangeLinks = Self.ranges.map { count, label in
            let start = query.to.adding(days: 1 - count)
            let href = NutritionText.link(
                Site.foodStatistics.path,
                [
                    ("period", query.length.rawValue), ("from", start.iso), ("to", query.to.iso),
                    ("nutrient", query.nutrient.key),
                ])
            return Link(label: label, href: href, on: start == query.from)
        }
        nutrients = Nutrient.all.map { Choice(value: $0.key, label: $0.name, selected: $0 == query.nutrient) }
        let logged = days.filter { $0.daysLogged > 0 }
        let totals = logged.reduce(into: Nutrients()) { $0 += $1.totals }
        let dailyAverage = logged.isEmpty ? Nutrients() : totals.scaled(by: 1 / Double(logged.count))
        hasData = !logged.isEmpty
        average = dailyAverage.energy.map { NutritionText.energy($0, unit) } ?? "—"
        daysLogged = "\(logged.count) of \(NutritionText.plural(query.from.distance(to: query.to) + 1, "day")) logged"
        target = energyTargetKcal.map { "Target \(NutritionText.energy($0, unit)) a day" }
        averages = dailyAverage.amounts.map { NutrientRow($0.nutrient, amount: $0.amount, energyUnit: unit) }
        let grouped = NutritionPeriod.periods(of: days.map { ($0.start, $0.totals) }, length: query.length)
        periodHeading = "Per \(query.length.rawValue)"
        periodRows = grouped.reversed().map { Self.row($0, unit: unit, today: today) }
        let range = query.from...query.to
        let energies = days.compactMap { day in day.totals.energy.map { (day.start, $0, energyTargetKcal) } }
        calorieChart = CalorieChart(days: energies, in: range).svg()
        macroChart = MacroSplitChart(
            nutrients: dailyAverage, title: "Energy from protein, carbohydrate and fat, daily average",
            energyUnit: unit
        ).svg()
        let amounts = (query.length == .day ? days : grouped).compactMap { period in
            (query.length == .day ? period.totals : period.dailyAverage)?[query.nutrient].map { (period.start, $0) }
        }
        nutrientChart = NutrientChart(nutrient: query.nutrient, amounts: amounts, period: query.length, in: range).svg()
    }

    static func row(_ period: NutritionPeriod, unit: EnergyUnit, today: LocalDate) -> PeriodRow {
        let average = period.dailyAverage ?? Nutrients()
        let isDay = period.length == .day
        return PeriodRow(
            label: label(period, today: today),
            days: isDay
                ? nil
                : NutritionText.plural(period.daysLogged, "day") + ", "
                    + NutritionText.energy(period.totals.energy ?? 0, unit) + " in all",
            average: NutritionText.energy(average.energy ?? 0, unit),
            macros: [Nutrient.protein, .carbohydrate, .fat].map { average[$0].map(NutritionText.number) ?? "—" }
                .joined(separator: " · "))
    }

    /// "Fri 15 Mar", "11 Mar – 17 Mar", "Mar 2024".
    static func label(_ period: NutritionPeriod, today: LocalDate) -> String {
        switch period.length {
        case .day: NutritionText.date(period.start, today: today)
        case .week:
            DashboardPage.shortDate(period.start, withYear: false) + " – "
                + DashboardPage.shortDate(period.end, withYear: period.end.year != today.year)
        case .month: "\(period.start.monthName) \(period.start.year)"
        }
    }
}
