import CinnCharts
import CinnCore
import CinnJournal
import Foundation

/// The onboarding and the profile editor: one form, filled from the saved profile or from what was typed.
struct ProfilePage {
    let isWelcome: Bool
    let action: String
    let formError: String?
    let errorField: String?
    let sexes: [Choice]
    let birthDate: String
    let today: String
    let lengthUnits: [Choice]
    let heightCm: String
    let heightFeet: String
    let heightInches: String
    /// Where the height filled in came from when the profile has none: "From your Apple Health export (2 May 2022)".
    let heightSource: String?
    let massUnits: [Choice]
    let weightNow: String
    let activities: [Choice]
    let goalWeight: String
    let goalRate: String
    let energyUnits: [Choice]
    let timeZones: [TimeZoneOption]
    /// The welcome page picks the browser's own time zone (its script), not the server's.
    let pickBrowserZone: Bool
    /// Not on the welcome page: the goal is set on Goal and settings; this says what it is.
    let goalSummary: String?
    let bodyFat: String?

    /// - Parameters:
    ///   - importedHeight: the last height an Apple Health export held, offered while the profile has no height.
    ///   - form: what was typed, when the form comes back with an error.
    init(
        isWelcome: Bool, settings: UserSettings, goal: Goal?, bodyFat: BodyFatReading?, today: LocalDate,
        importedHeight: (height: Height, day: LocalDate)? = nil, form: ProfileForm? = nil, error: CinnError? = nil
    ) {
        self.isWelcome = isWelcome
        action = isWelcome ? Site.welcome.path : Site.profile.path
        formError = error?.message
        errorField = error?.field
        func typed(_ field: KeyPath<ProfileForm, String?>, _ saved: String) -> String { form.map { $0[keyPath: field] ?? "" } ?? saved }
        let profile = settings.profile
        let sex = typed(\.sex, profile?.sex.rawValue ?? "")
        sexes = [("female", "Female"), ("male", "Male")].map { Choice(value: $0.0, label: $0.1, detail: nil, selected: $0.0 == sex) }
        birthDate = typed(\.birthDate, profile?.birthDate.iso ?? "")
        self.today = today.iso
        let lengthUnit = typed(\.lengthUnit, settings.lengthUnit.rawValue)
        lengthUnits = [("cm", "Centimetres"), ("ft_in", "Feet and inches")].map {
            Choice(value: $0.0, label: $0.1, detail: nil, selected: $0.0 == lengthUnit)
        }
        let offered = profile == nil ? importedHeight : nil
        let height = profile?.height ?? offered?.height
        heightSource = offered.map { "From your Apple Health export (\(DashboardPage.shortDate($0.day)))." }
        let feetInches = height?.feetAndInches()
        heightCm = typed(\.heightCm, height.map { Mass.format($0.centimetres, decimals: 1) } ?? "")
        heightFeet = typed(\.heightFeet, feetInches.map { String($0.feet) } ?? "")
        heightInches = typed(\.heightInches, feetInches.map { Mass.format($0.inches, decimals: 0) } ?? "")
        let massUnit = typed(\.massUnit, settings.displayUnit.rawValue)
        massUnits = [("kg", "kg"), ("lb", "lb"), ("st", "st")].map {
            Choice(value: $0.0, label: $0.1, detail: nil, selected: $0.0 == massUnit)
        }
        weightNow = typed(\.weight, "")
        let activity = typed(\.activity, profile?.activity.rawValue ?? ActivityLevel.light.rawValue)
        activities = ActivityLevel.allCases.map {
            Choice(value: $0.rawValue, label: $0.title, detail: $0.explanation, selected: $0.rawValue == activity)
        }
        let unit = settings.displayUnit
        goalWeight = typed(\.goalWeight, goal.map { Mass.format($0.weight.value(in: unit), decimals: unit.displayDecimals) } ?? "")
        goalRate = typed(\.goalRate, goal?.plannedRate.map { Mass.format($0.value(in: unit), decimals: unit.displayDecimals + 1) } ?? "")
        let energyUnit = typed(\.energyUnit, settings.energyUnit.rawValue)
        energyUnits = [("kcal", "kcal"), ("kJ", "kJ")].map { Choice(value: $0.0, label: $0.1, detail: nil, selected: $0.0 == energyUnit) }
        timeZones = TimeZoneOption.list(selected: typed(\.timeZone, settings.timeZoneIdentifier ?? settings.timeZone.identifier))
        pickBrowserZone = isWelcome && form == nil
        goalSummary =
            isWelcome
            ? nil
            : goal.map { goal in
                "Goal: \(goal.weight.formatted(in: unit))"
                    + (goal.plannedRate.map { ", \($0.formatted(in: unit, decimals: unit.displayDecimals + 1)) a week" } ?? "")
            } ?? "No goal yet"
        self.bodyFat = bodyFat.map { "\(Mass.format($0.fraction * 100, decimals: 1)) % on \(DashboardPage.shortDate($0.localDate))" }
    }

    /// The profile change a submitted form asks for. Heights come as centimetres or as feet and inches,
    /// whichever the chosen unit uses.
    static func update(_ form: ProfileForm, isWelcome: Bool) throws -> ProfileUpdate {
        let lengthUnit = try form.lengthUnit.map { text in try LengthUnit.parse(text) } ?? .centimetres
        var height: String?
        if lengthUnit == .feetAndInches {
            if form.heightFeet != nil || form.heightInches != nil {
                height = "\(form.heightFeet ?? "0") ft \(form.heightInches ?? "0") in"
            }
        } else {
            height = form.heightCm.map { "\($0) cm" }
        }
        let goalWeight = try form.$goalWeight.number()
        return ProfileUpdate(
            sex: form.sex, birthDate: form.birthDate, height: height, activity: form.activity,
            lengthUnit: lengthUnit.rawValue, massUnit: form.massUnit, energyUnit: form.energyUnit, timeZone: form.timeZone,
            // The planned change is an amount towards the goal: "-0.5", as someone losing writes it, is 0.5 a week.
            goalWeight: goalWeight, goalRatePerWeek: goalWeight == nil ? nil : try form.$goalRate.number().map(abs), onboarded: true)
    }
}

/// The profile form (also the onboarding's, which adds today's weight).
struct ProfileForm: Decodable {
    @Field var sex: String?
    @Field var birthDate: String?
    @Field var lengthUnit: String?
    @Field var heightCm: String?
    @Field var heightFeet: String?
    @Field var heightInches: String?
    @Field var massUnit: String?
    @Field var weight: String?
    @Field var activity: String?
    @Field var goalWeight: String?
    @Field var goalRate: String?
    @Field var energyUnit: String?
    @Field var timeZone: String?

    enum CodingKeys: String, CodingKey {
        case sex, weight, activity
        case birthDate = "birth_date"
        case lengthUnit = "length_unit"
        case heightCm = "height_cm"
        case heightFeet = "height_ft"
        case heightInches = "height_in"
        case massUnit = "mass_unit"
        case goalWeight = "goal_weight"
        case goalRate = "goal_rate"
        case energyUnit = "energy_unit"
        case timeZone = "time_zone"
    }
}

/// The calorie target in words, on the Energy and Targets pages.
enum CalorieTargetText {
    /// "2310 kcal to maintain, − 550 kcal for your planned rate, raised to the 1500 kcal floor", or "your own target".
    static func detail(_ target: EnergyTarget, unit: EnergyUnit) -> String {
        switch target.source {
        case .manual: return "your own target"
        case .computed:
            var parts = ["\(NutritionText.energy(target.maintenanceKcal ?? 0, unit)) to maintain"]
            if target.adjustmentKcal != 0 {
                parts.append(
                    "\(target.adjustmentKcal < 0 ? "−" : "+") \(NutritionText.energy(abs(target.adjustmentKcal), unit)) for your planned rate"
                )
            }
            if target.floored { parts.append("raised to the \(NutritionText.energy(target.floorKcal, unit)) floor") }
            return parts.joined(separator: ", ")
        }
    }

    /// Where calories to maintain come from: the formula, or the best estimate at the end of last week.
    static func maintenance(_ report: EnergyReport) -> String? {
        guard let expenditure = report.targetExpenditure else { return nil }
        switch (expenditure.source, report.settings.targetBasis) {
        case (.bestEstimate, _):
            return "best estimate at the end of \(DashboardPage.shortDate(expenditure.asOf, withYear: false)); it moves on Mondays"
        case (.formula, .adaptive): return "from the formula until your log gives an estimate"
        case (.formula, .formula): return "from the formula"
        }
    }
}

/// `/energy`: both expenditure estimates, the target, time to goal, the week's check-in and the chart.
struct EnergyPage {
    struct Figure {
        let id: String
        let value: String
        let label: String
        let detail: String?
    }
    struct ETA {
        let label: String
        let date: String
        let range: String
    }
    struct Week {
        let label: String
        let dates: String
        let logged: String
        let intake: String
        let trend: String
        let expenditure: String
        let onTarget: String
    }

    let answerState: String
    let answer: String
    let trendReason: String
    let hasProfile: Bool
    let figures: [Figure]
    let adaptiveStatus: String?
    let target: String?
    let targetDetail: String?
    /// "Your target moved from 1815 to 1760 kcal: …", the week it moved.
    let targetChange: String?
    let toGoal: String?
    let etas: [ETA]
    let goalReached: Bool
    let weeks: [Week]
    let chart: String
    let trendChart: String
    /// Weigh-ins or food to show: without either the charts and the check-in are left out, not drawn empty.
    let hasData: Bool
    let todayLink: String
    let todayStatus: String

    init(report: EnergyReport, trendDays: ArraySlice<TrendPoint>) {
        let unit = report.settings.energyUnit
        let mass = report.settings.displayUnit
        func energy(_ kcal: Double) -> String { NutritionText.energy(kcal, unit) }
        answerState = report.answer.answer.rawValue
        answer = report.answer.message
        trendReason = report.verdict.reason
        hasProfile = report.settings.profile != nil
        var figures = [Figure]()
        let estimate = report.expenditure
        if let formula = estimate.formula {
            figures.append(
                Figure(
                    id: "formula", value: energy(formula.expenditureKcal), label: "Formula",
                    detail: "\(formula.equation.title) \(energy(formula.restingKcal)) × \(formula.activity.factor)"))
        }
        if let adaptive = estimate.adaptive {
            figures.append(
                Figure(
                    id: "adaptive", value: energy(adaptive.estimateKcal), label: estimate.isHeld ? "Adaptive (held)" : "Adaptive",
                    detail:
                        "\(energy(adaptive.range.lowerBound))–\(energy(adaptive.range.upperBound)), \(adaptive.completeDays) complete days")
            )
        } else {
            figures.append(Figure(id: "adaptive", value: "—", label: "Adaptive", detail: "not enough data yet"))
        }
        if estimate.adaptive != nil, let blended = estimate.blendedKcal {
            figures.append(
                Figure(
                    id: "best", value: energy(blended), label: "Best estimate",
                    detail: "today: \((estimate.adaptiveWeight * 100).wholeText) % adaptive, the rest the formula"))
        }
        if let maintenance = report.maintenanceKcal {
            figures.append(
                Figure(
                    id: "maintenance", value: energy(maintenance), label: "To maintain",
                    detail: CalorieTargetText.maintenance(report)))
        }
        self.figures = figures
        adaptiveStatus = estimate.shortfall.map {
            (estimate.isHeld ? "Holding the estimate of \(estimate.adaptive!.asOf.dayMonthYear): " : "") + $0.message
        }
        target = report.target.map { energy($0.kcal) }
        targetDetail = report.target.map { CalorieTargetText.detail($0, unit: unit) }
        targetChange = report.targetChange?.message(in: unit)
        goalReached = report.timeline?.reached ?? false
        toGoal = report.timeline.map { $0.remaining.formatted(in: mass) }
        func eta(_ label: String, _ eta: GoalETA?) -> ETA? {
            guard let eta else { return nil }
            let date = eta.date.map { DashboardPage.shortDate($0) } ?? "not in sight"
            let range =
                switch (eta.earliest, eta.latest) {
                case (let earliest?, let latest?): "\(DashboardPage.shortDate(earliest)) to \(DashboardPage.shortDate(latest))"
                case (let earliest?, nil): "\(DashboardPage.shortDate(earliest)) at the earliest; the latest is not in sight"
                case (nil, let latest?): "by \(DashboardPage.shortDate(latest))"
                case (nil, nil): "no range yet"
                }
            return ETA(label: label, date: date, range: range)
        }
        etas = [eta("At your planned rate", report.timeline?.atPlannedRate), eta("At your trend's rate", report.timeline?.atTrendRate)]
            .compactMap { $0 }
        weeks = [("This week", report.thisWeek), ("Last week", report.lastWeek)].map { label, week in
            Week(
                label: label,
                dates: "\(DashboardPage.shortDate(week.start, withYear: false)) – \(DashboardPage.shortDate(week.end, withYear: false))",
                logged: "\(week.daysLogged) logged, \(week.completeDays) complete",
                intake: week.meanIntakeKcal.map(energy) ?? "—",
                trend: week.trendChange.map { change in
                    let text = change.formatted(in: mass, decimals: mass.displayDecimals + 1)
                    return change.kilograms > 0 ? "+" + text : text.replacingOccurrences(of: "-", with: "−")
                } ?? "—",
                expenditure: week.expenditureKcal.map(energy) ?? "—",
                onTarget: week.daysOnTarget.map { "\($0) of \(week.completeDays)" } ?? "—")
        }
        hasData = !trendDays.isEmpty || report.history.contains { $0.intakeKcal != nil }
        chart = EnergyChart(days: report.history).svg()
        trendChart = TrendChart(
            points: trendDays, unit: mass, goal: report.goal?.weight, projection: nil,
            title: "Weight trend over the same days"
        ).svg()
        todayLink = Site.foodDay.path(report.asOf) + "#day-status"
        todayStatus =
            switch report.dayStatus {
            case .complete: "Today is marked complete."
            case .partial: "Today is marked partial."
            case nil: "Mark days complete when you have logged everything: only those count."
            }
    }
}
