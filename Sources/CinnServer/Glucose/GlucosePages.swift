import CinnCharts
import CinnCore
import CinnJournal
import CinnStore
import Foundation

/// Words the glucose pages share.
enum GlucosePageText {
    /// "↑ 50 mg/dL to 150 at 30 min, area 1494 mg/dL·min, 4 U" or why there is no response.
    static func response(_ response: MealResponse?, unit: GlucoseUnit) -> String {
        guard let response else { return "no readings around it" }
        var text =
            "↑ \(Glucose(milligramsPerDeciliter: response.rise).formatted(unit)) to \(response.peak.glucose.formatted(unit, withUnit: false))"
            + " after \(response.minutesToPeak.rounded(.towardZero).wholeText) min, area \(response.incrementalArea.wholeText) mg/dL·min"
        if response.bolusUnits > 0 { text += ", \(GlucosePageText.amount(response.bolusUnits)) U bolus" }
        if !response.isComplete { text += " (less than two hours of readings)" }
        return text
    }

    static func describe(_ item: MealEventResponse, unit: GlucoseUnit) -> String {
        mealName(item) + ": " + response(item.response, unit: unit)
    }

    /// "Lunch: Rolled oats, Banana" for a meal of the food diary; the meal's name for a meal event.
    static func mealName(_ item: MealEventResponse) -> String {
        let name = item.meal?.name ?? "Meal"
        return item.event.diaryMeal.map { "\($0.title): \(name)" } ?? name
    }

    /// 4, 4.5: whole numbers without a decimal, else to a tenth.
    static func amount(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return Mass.format(tenths, decimals: tenths == tenths.rounded() ? 0 : 1)
    }

    static func percent(_ share: Double) -> String {
        let value = share * 100
        return value > 0 && value < 1 ? "<1 %" : "\(value.wholeText) %"
    }
}

struct GlucoseReportPage {
    struct Period {
        let days: Int
        let label: String
        let on: Bool
        let hours: Int
    }
    struct Band {
        let className: String
        let label: String
        let percent: String
        let x: Double
        let width: Double
    }
    struct Figure {
        let label: String
        let value: String
        let detail: String
    }
    struct Ranked {
        let name: String
        let counted: Int
        let events: Int
        let rise: String
        let area: String
        let minutes: String
    }
    /// A meal eaten; `diary` links a meal of the food diary to its day, where it is changed.
    struct Event {
        let id: String
        let date: String
        let when: String
        let meal: String
        let portion: String?
        let response: String
        let reason: String?
        let diary: String?
    }
    struct MealOption {
        let id: String
        let name: String
    }
    struct OptionGroup {
        let label: String
        let options: [MealOption]
    }
    struct Day {
        let date: String
        let label: String
        let mean: String
        let inRange: String
    }

    let days: Int
    let periods: [Period]
    /// The lead: the newest reading and the last few hours.
    let live: LiveGlucosePage
    let from: String, to: String
    let readings: Int
    let hasReadings: Bool
    let unit: String
    let bands: [Band]
    let tirLabel: String
    let figures: [Figure]
    let ranking: [Ranked]
    let hasRanking: Bool
    let foodRanking: [Ranked]
    let hasFoodRanking: Bool
    let events: [Event]
    let hasEvents: Bool
    /// What "Log a meal" offers: presets and recipes (logged to the food diary), and meals of a study (logged as meal events).
    let mealGroups: [OptionGroup]
    let hasMeals: Bool
    let slots: [MealOption]
    let dayRows: [Day]
    let hasDays: Bool
    let now: String
    /// What went wrong, shown in the form that was sent (`GlucoseForm`), and what the last post did.
    let feedback: GlucoseFeedback

    /// Meal events listed on the report (the newest); the days' pages have the rest.
    static let recentEvents = 10

    /// "Log meal" offers the foods logged most in the last 90 days, ten of them.
    static let frequentDays = 90.0, frequentFoods = 10

    /// The periods offered: 7, 14, 30 or 90 days.
    static let periods = [7, 14, 30, 90]

    /// - Parameter foods: the foods logged most often, offered beside the presets and recipes (one serving × the portion).
    init(
        report: GlucoseReport, days: Int, live: LiveGlucose, presets: [FoodPreset], recipes: [Recipe], foods: [FoodSearchCandidate],
        meals: [MealDefinition], now: String, feedback: GlucoseFeedback = GlucoseFeedback()
    ) {
        let unit = report.unit, statistics = report.statistics
        self.days = days
        self.live = LiveGlucosePage(live, days: days)
        periods = Self.periods.map { Period(days: $0, label: "\($0) days", on: $0 == days, hours: live.hours) }
        from = report.from.dayMonth
        to = report.to.dayMonth
        readings = statistics.count
        hasReadings = statistics.count > 0
        self.unit = unit.rawValue
        let shares = [
            ("vlow", "Under 54", statistics.veryLow), ("low", "54–69", statistics.low), ("in", "In range 70–180", statistics.inRange),
            ("high", "181–250", statistics.high), ("vhigh", "Over 250", statistics.veryHigh),
        ]
        var x = 0.0
        bands = shares.map { share in
            let width = (share.2 * 1000).rounded() / 10
            defer { x += width }
            return Band(className: share.0, label: share.1, percent: GlucosePageText.percent(share.2), x: x, width: width)
        }
        tirLabel =
            "Time in range \(GlucosePageText.percent(statistics.inRange)), below \(GlucosePageText.percent(statistics.below)), "
            + "above \(GlucosePageText.percent(statistics.above))"
        let mean = statistics.mean.map { $0.formatted(unit) } ?? "–"
        figures = [
            Figure(
                label: "Mean", value: mean,
                detail: statistics.standardDeviation.map { "SD \(Glucose(milligramsPerDeciliter: $0).formatted(unit))" } ?? ""),
            Figure(
                label: "GMI",
                value: report.coverage.isEnough ? statistics.gmiPercent.map { String(format: "%.1f %%", $0) } ?? "–" : "not sure yet",
                detail: report.coverage.missing ?? statistics.gmiMillimolesPerMole.map { "\($0.wholeText) mmol/mol" } ?? ""),
            Figure(
                label: "Variability (CV)",
                value: report.coverage.isEnough
                    ? statistics.coefficientOfVariation.map { String(format: "%.0f %%", $0) } ?? "–" : "not sure yet",
                detail: report.coverage.isEnough ? "36 % or less is stable" : "after 14 days of CGM readings"),
            Figure(
                label: "Insulin", value: "\(GlucosePageText.amount(report.bolusUnits)) U bolus",
                detail: "\(GlucosePageText.amount(report.basalUnits)) U basal"),
        ]
        func ranked(_ ranking: ResponseRanking) -> Ranked {
            Ranked(
                name: ranking.name, counted: ranking.counted, events: ranking.events,
                rise: ranking.meanRise.map { Glucose(milligramsPerDeciliter: $0).formatted(unit) } ?? "–",
                area: ranking.meanArea.map(\.wholeText) ?? "–",
                minutes: ranking.meanMinutesToPeak.map { "\($0.wholeText) min" } ?? "–")
        }
        ranking = report.byMeal.map(ranked)
        hasRanking = !ranking.isEmpty
        foodRanking = report.byFood.map(ranked)
        hasFoodRanking = !foodRanking.isEmpty
        events = report.events.prefix(Self.recentEvents).map { item in
            let local = LocalDateTime(instant: item.event.eatenAt, utcOffsetSeconds: item.event.utcOffsetSeconds)
            return Event(
                id: item.event.id.lowercasedString, date: local.date.iso, when: "\(local.date.dayMonth) \(local.clock)",
                meal: GlucosePageText.mealName(item),
                portion: item.event.portion == 1 ? nil : "×\(GlucosePageText.amount(item.event.portion))",
                response: GlucosePageText.response(item.response, unit: unit), reason: item.event.reportReason,
                diary: item.event.diaryMeal == nil ? nil : Site.foodDay.path(local.date))
        }
        hasEvents = !events.isEmpty
        mealGroups = [
            OptionGroup(label: "Presets", options: presets.map { MealOption(id: "preset:\($0.id.lowercasedString)", name: $0.name) }),
            OptionGroup(
                label: "Recipes", options: recipes.map { MealOption(id: "recipe:\($0.food.id.lowercasedString)", name: $0.food.name) }),
            OptionGroup(
                label: "Foods you log often",
                options: foods.map { food in
                    MealOption(id: "food:\(food.id.lowercasedString)", name: food.brand.map { "\(food.name) (\($0))" } ?? food.name)
                }),
            OptionGroup(
                label: "Study meals",
                options: meals.filter { $0.presetID == nil }.map {
                    MealOption(id: "meal:\($0.id.lowercasedString)", name: $0.name)
                }),
        ].filter { !$0.options.isEmpty }
        hasMeals = !mealGroups.isEmpty
        slots = [MealOption(id: "", name: "By the time")] + Meal.standard.map { MealOption(id: $0.name, name: $0.title) }
        dayRows = report.days.reversed().map { day in
            Day(
                date: day.date.iso, label: "\(day.date.weekdayName) \(day.date.dayMonth)",
                mean: day.statistics.mean.map { $0.formatted(unit) } ?? "–",
                inRange: GlucosePageText.percent(day.statistics.inRange))
        }
        hasDays = !dayRows.isEmpty
        self.now = now
        self.feedback = feedback
    }
}

/// The forms of the glucose report: each card's id, which its action names as the fragment, so that the page a post
/// answers with opens at that form.
enum GlucoseForm: String {
    case meal = "log-meal"
    case mealEvent = "meal-events"
    case reading = "add-reading"
    case insulin = "add-insulin"

    /// What a successful post of this form did.
    var done: Done {
        switch self {
        case .meal: .mealLogged
        case .mealEvent: .mealEventSaved
        case .reading: .readingAdded
        case .insulin: .insulinAdded
        }
    }
}

/// The report page's messages: one form's error (and the values it was sent with), or a reading to confirm.
struct GlucoseFeedback {
    var mealError: String?
    var mealEventError: String?
    var readingError: String?
    var insulinError: String?
    var confirmation: ReadingConfirmation?
    /// The forms' keys (`FormKeys`): fresh on every render; a reading to confirm keeps the one it was sent with.
    var readingKey = FormKeys.fresh()
    var insulinKey = FormKeys.fresh()
    var mealKey = FormKeys.fresh()

    /// A reading that looks like the other unit (`TypoGuard`): the message and the ways to save it.
    struct ReadingConfirmation {
        let message: String
        let value: String
        let time: String
        let timing: String
        let note: String
        /// The unit it looks like, then the unit it was typed in if it is a valid reading in it.
        let choices: [Choice]
        /// The key the reading was sent with.
        let key: String

        struct Choice {
            let unit: String
            let label: String
        }
    }

    init() {}

    init(error: String, in form: GlucoseForm) {
        switch form {
        case .meal: mealError = error
        case .mealEvent: mealEventError = error
        case .reading: readingError = error
        case .insulin: insulinError = error
        }
    }
}

struct GlucoseDayPage {
    struct Event {
        let when: String
        let meal: String
        let response: String
        let reason: String?
    }
    struct Reading {
        let id: String
        let time: String
        let value: String
        let timing: String
    }
    struct Dose {
        let id: String
        let time: String
        let units: String
        let kind: String
    }

    let title: String
    /// The day, for the delete forms to come back to.
    let date: String
    let previous: String, previousLabel: String
    let next: String?, nextLabel: String
    let chart: String
    let summary: String
    let events: [Event]
    let hasEvents: Bool
    let readings: [Reading]
    let hasReadings: Bool
    /// A CGM's 288 readings a day stay folded; a few finger sticks are shown.
    let manyReadings: Bool
    let readingCount: String
    let doses: [Dose]
    let hasDoses: Bool

    init(day: GlucoseDay, chart: String, today: LocalDate) {
        let unit = day.unit
        title = "\(day.date.weekdayName) \(day.date.dayMonthYear)"
        date = day.date.iso
        previous = day.date.adding(days: -1).iso
        previousLabel = day.date.adding(days: -1).dayMonth
        next = day.date < today ? day.date.adding(days: 1).iso : nil
        nextLabel = day.date.adding(days: 1).dayMonth
        self.chart = chart
        let statistics = day.statistics
        summary =
            statistics.count == 0
            ? "No readings this day."
            : "\(statistics.count) readings, mean \(statistics.mean?.formatted(unit) ?? "–"), \(GlucosePageText.percent(statistics.inRange)) in range 70–180 mg/dL."
        events = day.events.map { item in
            let local = LocalDateTime(instant: item.event.eatenAt, utcOffsetSeconds: item.event.utcOffsetSeconds)
            return Event(
                when: local.clock, meal: GlucosePageText.mealName(item), response: GlucosePageText.response(item.response, unit: unit),
                reason: item.event.reportReason)
        }
        hasEvents = !events.isEmpty
        readings = day.readings.map { reading in
            Reading(
                id: reading.id.lowercasedString,
                time: LocalDateTime(instant: reading.measuredAt, utcOffsetSeconds: reading.utcOffsetSeconds).clock,
                value: reading.rangeEnd ?? reading.glucose.formatted(unit),
                timing: reading.timing.map { $0.rawValue.replacingOccurrences(of: "_", with: " ") } ?? "")
        }
        hasReadings = !readings.isEmpty
        manyReadings = readings.count > 12
        readingCount = readings.count == 1 ? "1 reading" : "\(readings.count) readings"
        doses = day.doses.map { dose in
            Dose(
                id: dose.id.lowercasedString, time: LocalDateTime(instant: dose.takenAt, utcOffsetSeconds: dose.utcOffsetSeconds).clock,
                units: GlucosePageText.amount(dose.units), kind: dose.kind.rawValue + (dose.insulin.map { " (\($0))" } ?? ""))
        }
        hasDoses = !doses.isEmpty
    }
}

struct MealsPage {
    struct Row {
        let id: String
        let name: String
        let test: Bool
        let detail: String
    }
    let meals: [Row]
    let hasMeals: Bool
    let error: String?
    let name: String
    let carbs: String
    /// "3 everyday meals are presets now: …", when meals became presets.
    let moved: String?

    /// `meals` are every definition; those that became presets are left out of the list and named in `moved`.
    init(meals: [MealDefinition], error: String?, name: String, carbs: String) {
        let movedNames = meals.filter { $0.presetID != nil }.map(\.name)
        moved =
            movedNames.isEmpty
            ? nil
            : "\(NutritionText.plural(movedNames.count, "everyday meal")) \(movedNames.count == 1 ? "is a preset" : "are presets") now, "
                + "logged into the food log: \(movedNames.joined(separator: ", "))."
        let meals = meals.filter { $0.presetID == nil }
        self.meals = meals.map { meal in
            var parts: [String] = []
            if let carbs = meal.carbohydrateGrams { parts.append("\(GlucosePageText.amount(carbs)) g carbohydrate") }
            if !meal.foods.isEmpty {
                parts.append(meal.foods.map { "\($0.name) \(GlucosePageText.amount($0.grams)) g" }.joined(separator: ", "))
            }
            return Row(id: meal.id.lowercasedString, name: meal.name, test: meal.kind == .test, detail: parts.joined(separator: " · "))
        }
        hasMeals = !meals.isEmpty
        self.error = error
        self.name = name
        self.carbs = carbs
    }
}

/// The newest reading as the glance and the Glucose page's lead show it: its value, arrow and age, struck through when
/// stale.
struct NewestGlucoseText {
    let value: String
    let unit: String
    let arrow: String?
    let words: String?
    let stale: Bool
    /// "4 min", "2 h": the glance's.
    let shortAge: String
    /// "just now", "4 min ago", "1 h 5 min ago".
    let age: String
    /// The change since the reading before it: "+3 mg/dL in 5 min"; nil without one within a quarter of an hour.
    let change: String?
    /// Why the value is struck through: "No new reading for 25 min: the sensor or its uploader may have stopped."
    let staleReason: String?

    /// - Parameter before: the reading before `entry`, for its change.
    init(_ entry: NightscoutEntry, minutesOld minutes: Int, unit: GlucoseUnit, before: GlucosePoint? = nil) {
        value = entry.reading.rangeEnd ?? entry.reading.glucose.formatted(unit, withUnit: false)
        self.unit = unit.rawValue
        arrow = entry.direction?.arrow
        words = entry.direction?.words
        stale = minutes > Glance.staleAfterMinutes
        staleReason =
            stale
            ? "No new reading for \(minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"): "
                + "the sensor or its uploader may have stopped." : nil
        change = before.flatMap { before in
            let seconds = entry.reading.measuredAt.timeIntervalSince(before.at)
            guard seconds > 0, seconds <= GlucoseDirection.longestGap, entry.reading.rangeEnd == nil else { return nil }
            let delta = entry.reading.glucose.milligramsPerDeciliter - before.glucose.milligramsPerDeciliter
            let size = Glucose(milligramsPerDeciliter: abs(delta)).formatted(unit)
            let sign = size.hasPrefix("0 ") || size.hasPrefix("0.0 ") ? "±" : delta < 0 ? "−" : "+"
            return "\(sign)\(size) in \(max(1, (seconds / 60).roundedInt ?? 1)) min"
        }
        shortAge = minutes < 60 ? "\(minutes) min" : minutes < 24 * 60 ? "\(minutes / 60) h" : "\(minutes / (24 * 60)) d"
        age = minutes == 0 ? "just now" : minutes < 60 ? "\(minutes) min ago" : "\(minutes / 60) h \(minutes % 60) min ago"
    }
}

/// The Glucose page's lead (`glucose-live`): the newest reading, its arrow and age, and a chart of the last few hours.
/// It is also the fragment `GET /glucose/live` answers, which the page's script fetches every minute.
struct LiveGlucosePage {
    struct Window {
        let hours: Int
        let on: Bool
        let days: Int
    }

    /// The window shown first: enough for the last meal's rise and fall.
    static let defaultHours = 6

    let hours: Int
    let days: Int
    let latest: NewestGlucoseText?
    let windows: [Window]
    let chart: String
    /// "1.7 U" and "42 g" on board, for a glucose user.
    let insulinOnBoard: String?
    let carbsOnBoard: String?

    /// - Parameter days: the report's period, kept in the window links.
    init(_ live: LiveGlucose, days: Int) {
        let unit = live.settings.glucoseUnit
        hours = live.hours
        self.days = days
        latest = live.latest.map { entry in
            NewestGlucoseText(
                entry, minutesOld: live.minutesOld ?? 0, unit: unit,
                before: live.points.last { $0.at < entry.reading.measuredAt })
        }
        windows = LiveGlucose.windows.map { Window(hours: $0, on: $0 == live.hours, days: days) }
        insulinOnBoard = live.onBoard.map { "\(Mass.format($0.insulinUnits, upTo: 2)) U" }
        carbsOnBoard = live.onBoard.map { "\($0.carbohydrateGrams.wholeText) g" }
        let offset = live.settings.timeZone.secondsFromGMT(for: live.end)
        chart = GlucoseDayChart(
            start: live.start, end: live.end, utcOffsetSeconds: offset, points: live.points,
            meals: live.meals.map { GlucoseDayChart.MealMark(at: $0.at, label: $0.name) }, doses: live.doses,
            unit: unit, span: "in the last \(live.hours) hours"
        ).svg()
    }
}

/// The ambulatory glucose profile's page: the chart, and the consensus statistics with their targets.
struct GlucoseProfilePage {
    struct Period {
        let days: Int
        let label: String
        let on: Bool
    }
    struct Row {
        let label: String
        let value: String
        let target: String
        let met: Bool
        let missed: Bool
    }

    let days: Int
    let periods: [Period]
    let from: String, to: String
    let hasReadings: Bool
    let chart: String
    let rows: [Row]

    static let periods = [7, 14, 30, 90]

    init(profile: AmbulatoryGlucoseProfile, from: LocalDate, to: LocalDate, unit: GlucoseUnit) {
        days = profile.days
        periods = Self.periods.map { Period(days: $0, label: "\($0) days", on: $0 == profile.days) }
        self.from = from.dayMonth
        self.to = to.dayMonth
        let statistics = profile.statistics
        hasReadings = statistics.count > 0
        chart = AGPChart(profile: profile, unit: unit).svg()
        /// A row whose value meets its target when `meets` says so (nil: no target).
        func row(_ label: String, _ value: String, _ target: String, _ meets: Bool?) -> Row {
            Row(label: label, value: value, target: target, met: meets == true, missed: meets == false)
        }
        let percent = GlucosePageText.percent
        let enough = profile.coverage.isEnough
        rows = [
            row(
                "Days with readings", "\(profile.daysWithReadings) of \(profile.days)", "14 or more",
                profile.daysWithReadings >= GlucoseCoverage.recommendedDays),
            row(
                "Time with readings (CGM active)", percent(profile.activeShare), "70 % or more",
                profile.activeShare >= GlucoseCoverage.recommendedActiveShare),
            row("Mean glucose", statistics.mean.map { $0.formatted(unit) } ?? "–", "", nil),
            row(
                "GMI", enough ? statistics.gmiPercent.map { String(format: "%.1f %%", $0) } ?? "–" : "not sure yet",
                enough ? "" : "after 14 days at 70 %", nil),
            row(
                "Variability (CV)",
                enough ? statistics.coefficientOfVariation.map { String(format: "%.1f %%", $0) } ?? "–" : "not sure yet",
                "36 % or less", enough ? statistics.coefficientOfVariation.map { $0 <= 36 } : nil),
            row("Very high, over 250 mg/dL", percent(statistics.veryHigh), "under 5 %", statistics.veryHigh < 0.05),
            row("High, over 180 mg/dL", percent(statistics.above), "under 25 %", statistics.above < 0.25),
            row("In range, 70–180 mg/dL", percent(statistics.inRange), "over 70 %", statistics.inRange > 0.70),
            row("Low, under 70 mg/dL", percent(statistics.below), "under 4 %", statistics.below < 0.04),
            row("Very low, under 54 mg/dL", percent(statistics.veryLow), "under 1 %", statistics.veryLow < 0.01),
        ]
    }
}

/// The Glucose page's rows and parts (a month of meals and days, every meal to log, its periods, bands and figures):
/// read by name, not by reflection.
extension GlucoseReportPage.Event: TemplateParent {
    func child(named fieldName: String) -> Any? {
        switch fieldName {
        case "id": id
        case "date": date
        case "when": when
        case "meal": meal
        case "portion": portion
        case "response": response
        case "reason": reason
        case "diary": diary
        default: nil
        }
    }
}

extension GlucoseReportPage.MealOption: TemplateParent {
    func child(named fieldName: String) -> Any? {
        switch fieldName {
        case "id": id
        case "name": name
        default: nil
        }
    }
}

extension GlucoseReportPage.Day: TemplateParent {
    func child(named fieldName: String) -> Any? {
        switch fieldName {
        case "date": date
        case "label": label
        case "mean": mean
        case "inRange": inRange
        default: nil
        }
    }
}

extension GlucoseReportPage.Ranked: TemplateParent {
    func child(named fieldName: String) -> Any? {
        switch fieldName {
        case "name": name
        case "counted": counted
        case "events": events
        case "rise": rise
        case "area": area
        case "minutes": minutes
        default: nil
        }
    }
}

extension GlucoseReportPage.Period: TemplateParent {
    func child(named fieldName: String) -> Any? {
        switch fieldName {
        case "days": days
        case "label": label
        case "on": on
        case "hours": hours
        default: nil
        }
    }
}

extension GlucoseReportPage.Band: TemplateParent {
    func child(named fieldName: String) -> Any? {
        switch fieldName {
        case "className": className
        case "label": label
        case "percent": percent
        case "x": x
        case "width": width
        default: nil
        }
    }
}

extension GlucoseReportPage.Figure: TemplateParent {
    func child(named fieldName: String) -> Any? {
        switch fieldName {
        case "label": label
        case "value": value
        case "detail": detail
        default: nil
        }
    }
}

extension GlucoseReportPage.OptionGroup: TemplateParent {
    func child(named fieldName: String) -> Any? {
        switch fieldName {
        case "label": label
        case "options": options
        default: nil
        }
    }
}
