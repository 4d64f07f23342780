import Foundation

/// One day of the energy chart.
public struct EnergyDay: Sendable, Hashable {
    public var date: LocalDate
    /// kcal eaten, when anything was logged.
    public var intakeKcal: Double?
    public var status: DayStatus?
    public var formulaKcal: Double?
    /// The adaptive estimate of the window ending that day, where it qualifies.
    public var adaptiveKcal: Double?
    public var trend: Mass?

    public init(date: LocalDate, intakeKcal: Double?, status: DayStatus?, formulaKcal: Double?, adaptiveKcal: Double?, trend: Mass?) {
        self.date = date
        self.intakeKcal = intakeKcal
        self.status = status
        self.formulaKcal = formulaKcal
        self.adaptiveKcal = adaptiveKcal
        self.trend = trend
    }
}

/// Everything the energy page, `cinn energy`, `cinn today` and `GET /api/v1/energy` show, as of a day.
public struct EnergyReport: Sendable {
    public var asOf: LocalDate
    public var settings: UserSettings
    public var goal: Goal?
    /// The trend on the as-of day (or the last weigh-in before it).
    public var trend: Mass?
    public var expenditure: ExpenditureEstimate
    /// "Calories to maintain": the expenditure the target follows.
    public var maintenanceKcal: Double?
    /// Where `maintenanceKcal` comes from: today's formula, or last week's best estimate.
    public var targetExpenditure: TargetExpenditure?
    public var target: EnergyTarget?
    /// How a target following the data moved this week, when it did.
    public var targetChange: TargetChange?
    public var standing: TrendStanding
    public var verdict: Verdict
    public var timeline: GoalTimeline?
    public var eatenKcal: Double
    /// Exercise energy logged on the as-of day, when any; shown, never added to the budget (the
    /// activity factor and the adaptive estimate already count activity).
    public var exerciseKcal: Double?
    public var dayStatus: DayStatus?
    public var answer: DailyAnswer
    public var thisWeek: WeeklyCheckIn
    public var lastWeek: WeeklyCheckIn
    /// The days of the chart, oldest first.
    public var history: [EnergyDay]

    /// Days the chart shows by default.
    public static let defaultHistoryDays = 90

    /// - Parameters:
    ///   - intakeKcal: kcal per logged day.
    ///   - dayStatuses: the marked days.
    ///   - historyDays: days of `history` ending on `asOf` (0 for none).
    public init(
        settings: UserSettings, goal: Goal?, trend weights: WeightTrend, intakeKcal: [LocalDate: Double],
        dayStatuses: [LocalDate: DayStatus], bodyFat: BodyFatReading?, exerciseKcal: [LocalDate: Double] = [:], asOf: LocalDate,
        windowDays: Int = AdaptiveExpenditure.defaultWindowDays, historyDays: Int = defaultHistoryDays
    ) {
        self.asOf = asOf
        self.settings = settings
        self.goal = goal
        let current = weights.latest(onOrBefore: asOf)?.trend
        trend = current
        let completeIntake = DayStatus.completeDayIntake(intakeKcal, statuses: dayStatuses)
        let profile = settings.profile
        let formula = { (day: LocalDate, weight: Mass?) -> FormulaExpenditure? in
            guard let profile, let weight else { return nil }
            return FormulaExpenditure(profile: profile, weight: weight, bodyFat: bodyFat, on: day)
        }
        let estimate = ExpenditureEstimate(
            formula: formula(asOf, current), trend: weights,
            completeDayIntakeKcal: completeIntake, asOf: asOf, windowDays: windowDays)
        expenditure = estimate
        let monday = NutritionPeriod.bounds(of: asOf, length: .week).start
        let previousEnd = monday.adding(days: -1)
        let previous = ExpenditureEstimate(
            formula: formula(previousEnd, weights.latest(onOrBefore: previousEnd)?.trend),
            trend: weights, completeDayIntakeKcal: completeIntake, asOf: previousEnd,
            windowDays: windowDays)
        let expenditure = TargetExpenditure.choose(
            basis: settings.targetBasis, today: estimate, endOfLastWeek: previous,
            asOf: asOf, weekEnd: previousEnd)
        targetExpenditure = expenditure
        let maintenance = expenditure?.kcal
        maintenanceKcal = maintenance
        let inBand = goal.map { weights.maintenanceState(goal: $0, asOf: asOf) == .inBand } ?? false
        let computeTarget = { (maintenance: Double?) -> EnergyTarget? in
            profile.flatMap { profile in
                EnergyTarget.compute(
                    manualKcal: settings.energyTargetKcal, expenditureKcal: maintenance, sex: profile.sex, goal: goal,
                    trend: current, inMaintenanceBand: inBand, floorKcal: settings.energyFloorKcal)
            }
                ?? settings.energyTargetKcal.map {
                    EnergyTarget(kcal: $0, source: .manual, maintenanceKcal: nil, adjustmentKcal: 0, floorKcal: 0, floored: false)
                }
        }
        let target = computeTarget(maintenance)
        self.target = target
        // Without an estimate by the end of last week the target follows today's formula and has no week's move to tell
        // (so a journal without complete days searches a year back twice, not three times).
        if settings.targetBasis == .adaptive, target?.source == .computed, previous.adaptive != nil {
            let lastSunday = previousEnd.adding(days: -7)
            let beforePrevious = ExpenditureEstimate(
                formula: formula(lastSunday, weights.latest(onOrBefore: lastSunday)?.trend),
                trend: weights, completeDayIntakeKcal: completeIntake, asOf: lastSunday,
                windowDays: windowDays)
            let lastWeek = TargetExpenditure.choose(
                basis: .adaptive, today: previous, endOfLastWeek: beforePrevious,
                asOf: previousEnd, weekEnd: lastSunday)
            targetChange = TargetChange.between(
                lastWeek: lastWeek, thisWeek: expenditure, formulaKcal: previous.formula?.expenditureKcal,
                since: monday, windowDays: windowDays
            ) { kcal in
                computeTarget(kcal)?.kcal
            }
        } else {
            targetChange = nil
        }
        let standing = weights.standing(goal: goal, asOf: asOf)
        self.standing = standing
        verdict = WeightTrend.verdict(for: standing, goal: goal, unit: settings.displayUnit)
        timeline = goal.flatMap {
            GoalTimeline(
                trend: weights, goal: $0, asOf: asOf,
                expenditureUncertaintyKcal: estimate.uncertaintyKcal(basis: settings.targetBasis))
        }
        eatenKcal = intakeKcal[asOf] ?? 0
        self.exerciseKcal = exerciseKcal[asOf]
        dayStatus = dayStatuses[asOf]
        answer = DailyAnswer(
            remainingKcal: target.map { Double(EnergyUnit.kilocalories.remaining(targetKcal: $0.kcal, eatenKcal: intakeKcal[asOf] ?? 0)) },
            standing: standing,
            energyUnit: settings.energyUnit,
            withoutTarget: profile != nil && current == nil
                ? "add your weight for a daily calorie budget"
                : "set up your profile for a daily calorie budget")
        let complete = Set(completeIntake.keys)
        thisWeek = WeeklyCheckIn(
            start: monday, loggedDays: intakeKcal, completeDays: complete, trend: weights,
            expenditureKcal: maintenance, targetKcal: target?.kcal)
        lastWeek = WeeklyCheckIn(
            start: monday.adding(days: -7), loggedDays: intakeKcal, completeDays: complete, trend: weights,
            expenditureKcal: previous.expenditureKcal(basis: settings.targetBasis), targetKcal: target?.kcal)
        history = (0..<max(0, historyDays)).map { offset in
            let day = asOf.adding(days: offset - historyDays + 1)
            let point = weights.points(from: day, to: day).first
            return EnergyDay(
                date: day, intakeKcal: intakeKcal[day], status: dayStatuses[day],
                formulaKcal: formula(day, point?.trend)?.expenditureKcal,
                adaptiveKcal: try? AdaptiveExpenditure.estimate(
                    trend: weights, completeDayIntakeKcal: completeIntake,
                    asOf: day, windowDays: windowDays
                ).get().estimateKcal,
                trend: point?.trend)
        }
    }

    /// The target in kcal, if any.
    public var targetKcal: Double? { target?.kcal }
}
