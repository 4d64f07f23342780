import CinnCore
import CinnImport
import CinnStore
import Foundation

/// A change to the profile as a person enters it (web form, API body or CLI flags): nil leaves a
/// part as it is. Everything is checked before anything is saved, and saved in one transaction.
public struct ProfileUpdate: Sendable {
    public var sex: String?
    public var birthDate: String?
    /// "180", "180 cm", "5 ft 11 in"; a bare number is in the length unit.
    public var height: String?
    public var activity: String?
    public var lengthUnit: String?
    public var massUnit: String?
    public var energyUnit: String?
    public var timeZone: String?
    /// In the mass unit.
    public var goalWeight: Double?
    /// Per week towards the goal, in the mass unit; only with `goalWeight`.
    public var goalRatePerWeek: Double?
    public var targetBasis: String?
    /// `.some(nil)` clears the user's own floor.
    public var energyFloorKcal: Double??
    /// A manual target; `.some(nil)` clears it so the computed target applies.
    public var energyTargetKcal: Double??
    public var onboarded: Bool?

    public init(
        sex: String? = nil, birthDate: String? = nil, height: String? = nil, activity: String? = nil,
        lengthUnit: String? = nil, massUnit: String? = nil, energyUnit: String? = nil, timeZone: String? = nil,
        goalWeight: Double? = nil, goalRatePerWeek: Double? = nil, targetBasis: String? = nil,
        energyFloorKcal: Double?? = nil, energyTargetKcal: Double?? = nil, onboarded: Bool? = nil
    ) {
        self.sex = sex
        self.birthDate = birthDate
        self.height = height
        self.activity = activity
        self.lengthUnit = lengthUnit
        self.massUnit = massUnit
        self.energyUnit = energyUnit
        self.timeZone = timeZone
        self.goalWeight = goalWeight
        self.goalRatePerWeek = goalRatePerWeek
        self.targetBasis = targetBasis
        self.energyFloorKcal = energyFloorKcal
        self.energyTargetKcal = energyTargetKcal
        self.onboarded = onboarded
    }
}

extension Journal {
    /// Applies a profile change: checked whole, then saved with the goal (if one is given) in one transaction.
    @discardableResult
    public func updateProfile(_ update: ProfileUpdate) async throws -> (settings: UserSettings, goal: Goal?) {
        var settings = try await settings()
        if let zone = update.timeZone { settings.timeZoneIdentifier = try UserSettings.validTimeZone(zone) }
        if let unit = update.massUnit { settings.displayUnit = try MassUnit.parse(unit, field: "mass_unit") }
        if let unit = update.lengthUnit { settings.lengthUnit = try LengthUnit.parse(unit) }
        if let unit = update.energyUnit { settings.energyUnit = try EnergyUnit.parse(unit) }
        let today = today(settings)
        let sex = try update.sex.map { text in try Sex.parse(text) } ?? settings.profile?.sex
        let birthDate =
            try update.birthDate.map { text in
                try Profile.validatedBirthDate(try LocalDate.parse(text, field: "birth_date"), today: today)
            } ?? settings.profile?.birthDate
        let height =
            try update.height.map { text in try Height.parse(text, unit: settings.lengthUnit) }
            ?? settings.profile?.height
        let activity = try update.activity.map { text in try ActivityLevel.parse(text) } ?? settings.profile?.activity
        let anyProfileField = update.sex != nil || update.birthDate != nil || update.height != nil || update.activity != nil
        if let sex, let birthDate, let height, let activity {
            settings.profile = Profile(sex: sex, birthDate: birthDate, height: height, activity: activity)
        } else if anyProfileField {
            let missing = [("sex", sex == nil), ("birth_date", birthDate == nil), ("height", height == nil), ("activity", activity == nil)]
                .first { $0.1 }!.0
            throw CinnError.invalid(
                missing,
                "the profile needs sex, birth date, height and activity level; \(missing.replacingOccurrences(of: "_", with: " ")) is missing"
            )
        }
        if let basis = update.targetBasis { settings.targetBasis = try TargetBasis.parse(basis) }
        if let floor = update.energyFloorKcal {
            settings.energyFloorKcal = try floor.map { kcal in try EnergyTarget.validFloor(kcal) }
        }
        if let target = update.energyTargetKcal {
            settings.energyTargetKcal = try target.map { kcal in try UserSettings.validEnergyTarget(kcal) }
        }
        if let onboarded = update.onboarded { settings.onboarded = onboarded }
        var goal: Goal?
        if let weight = update.goalWeight {
            let asked = try Goal.validated(
                weight: weight, unit: settings.displayUnit, ratePerWeek: update.goalRatePerWeek,
                setOn: today, weightField: "goal_weight", rateField: "goal_rate")
            // The same goal sent back (a profile form saved unchanged) keeps the day it was set.
            let current = try await store.goal(user: user)
            if current.map({ !Self.sameGoal($0, asked, unit: settings.displayUnit) }) ?? true { goal = asked }
        } else if update.goalRatePerWeek != nil {
            throw CinnError.invalid("goal_weight", "give the goal weight with the planned rate")
        }
        try await store.saveSettings(settings, goal: goal, user: user)
        return (settings, goal)
    }

    /// Whether two goals read the same in `unit`, to the decimals shown.
    static func sameGoal(_ one: Goal, _ other: Goal, unit: MassUnit) -> Bool {
        func text(_ mass: Mass?, _ decimals: Int) -> String? { mass.map { Mass.format($0.value(in: unit), decimals: decimals) } }
        return text(one.weight, unit.displayDecimals) == text(other.weight, unit.displayDecimals)
            && text(one.plannedRate, unit.displayDecimals + 1) == text(other.plannedRate, unit.displayDecimals + 1)
    }

    /// The energy report as of `asOf` (today by default).
    public func energyReport(
        asOf: LocalDate? = nil, windowDays: Int = AdaptiveExpenditure.defaultWindowDays,
        historyDays: Int = EnergyReport.defaultHistoryDays
    ) async throws -> EnergyReport {
        try await energyReportAndTrend(asOf: asOf, windowDays: windowDays, historyDays: historyDays).report
    }

    /// The energy report and the weight trend it was made from (the energy page charts both).
    public func energyReportAndTrend(
        asOf: LocalDate? = nil, windowDays: Int = AdaptiveExpenditure.defaultWindowDays,
        historyDays: Int = EnergyReport.defaultHistoryDays
    ) async throws
        -> (report: EnergyReport, trend: WeightTrend)
    {
        let settings = try await settings()
        let day = asOf ?? today(settings)
        // Intake counts from the oldest window the report can look at: the hold search, the history and last week.
        let reach = AdaptiveExpenditure.holdLookbackDays + windowDays + max(historyDays, 14)
        return try await energyReport(asOf: day, intakeFrom: day.adding(days: -reach), windowDays: windowDays, historyDays: historyDays)
    }

    /// The dashboard's two reports from one read: the trend over `range` and today's energy report.
    public func dashboard(range: TrendRange) async throws -> (trend: TrendReport, energy: EnergyReport) {
        let (energy, trend) = try await energyReportAndTrend(historyDays: 0)
        return (
            TrendReport(
                trend: trend, goal: energy.goal, from: nil, to: energy.asOf, range: range,
                displayUnit: energy.settings.displayUnit), energy
        )
    }

    /// What one day needs of the energy report: its target, calories to maintain, intake, exercise and
    /// mark. With the target following the formula, the log before that day is not read, so the
    /// report's adaptive estimate and weekly check-ins are left out of what this returns.
    public func dayEnergy(asOf day: LocalDate) async throws
        -> (
            targetKcal: Double?, maintenanceKcal: Double?, exerciseKcal: Double?, status: DayStatus?, settings: UserSettings, trend: Mass?,
            targetChange: TargetChange?
        )
    {
        let settings = try await settings()
        let reach = AdaptiveExpenditure.holdLookbackDays + AdaptiveExpenditure.defaultWindowDays + 14
        let report = try await energyReport(
            asOf: day, intakeFrom: settings.targetBasis == .formula ? day : day.adding(days: -reach),
            windowDays: AdaptiveExpenditure.defaultWindowDays, historyDays: 0
        ).report
        return (
            report.targetKcal, report.maintenanceKcal, report.exerciseKcal, report.dayStatus, report.settings, report.trend,
            report.targetChange
        )
    }

    /// The report as of `day`, reading intake, marks and exercise from `intakeFrom`, and the trend it used.
    private func energyReport(asOf day: LocalDate, intakeFrom: LocalDate, windowDays: Int, historyDays: Int) async throws
        -> (report: EnergyReport, trend: WeightTrend)
    {
        let windowDays = try AdaptiveExpenditure.validWindow(windowDays)
        // Kept while the journal is unchanged (`Store.computed`): everything it reads (weigh-ins, the food log and its
        // day marks, exercise, body fat, the goal, the settings) raises the change counter; the clock enters only as
        // the as-of day, a parameter.
        let parameters = "\(day.iso) \(intakeFrom.iso) \(windowDays) \(historyDays)"
        return try await store.computed("energy-report", user: user, parameters: parameters) {
            // Days after the as-of day are not read: the report is as of that day (its week's check-in too).
            let inputs = try await store.energyInputs(user: user, from: intakeFrom, to: day)
            let trend = WeightTrend(days: inputs.days, method: inputs.settings.trendMethod, displayUnit: inputs.settings.displayUnit)
            let report = EnergyReport(
                settings: inputs.settings, goal: inputs.goal, trend: trend, intakeKcal: inputs.intakeKcal,
                dayStatuses: inputs.dayStatuses, bodyFat: inputs.latestBodyFat, exerciseKcal: inputs.exerciseKcal,
                asOf: day, windowDays: windowDays, historyDays: historyDays)
            return (report: report, trend: trend)
        }
    }

    /// Marks a day of the food log complete or partial (nil clears the mark); days after today are refused.
    public func setDayStatus(_ date: LocalDate, status: DayStatus?) async throws {
        let settings = try await settings()
        guard date <= today(settings) else { throw CinnError.invalid("date", "\(date) is in the future") }
        try await store.setDayStatus(status, on: date, user: user)
    }

    /// Records a body-fat measurement, in percent, on a day (today by default).
    public func addBodyFat(percent: Double, date: String?) async throws -> BodyFatReading {
        let settings = try await settings()
        let fraction = try BodyFatReading.validatedFraction(percent: percent)
        let time = try readingTime(date, settings: settings)
        let reading = BodyFatReading(
            id: .v7(at: now()), measuredAt: time.instant, utcOffsetSeconds: time.utcOffsetSeconds,
            fraction: fraction)
        try await store.addBodyFat(reading, user: user)
        return reading
    }
}

extension Journal {
    /// The import formats by name: the weight files', `myfitnesspal`, the workout exports', `nightscout` and `apple-health`.
    public static var importFormats: [String] {
        WeightFileFormat.allCases.map(\.rawValue) + ["myfitnesspal"] + WorkoutFileFormat.allCases.map(\.rawValue) + [
            "nightscout", "apple-health", HealthAutoExportParser.format, FitNotesBodyTracker.format,
        ]
            + FoodDatabaseFormat.allCases.map(\.rawValue)
    }

    /// Imports any supported file: a food database when asked for (`usda`, `off`: the shared food database, which the
    /// caller lets only an administrator of a hosted server write), an Apple Health export (zip or export.xml), a
    /// MyFitnessPal export (zip, folder or one of its CSVs), a workout export (Fitbod, Strong, FitNotes) or a Nightscout
    /// export when asked for or recognised, else a weight file. `format` nil detects.
    /// - Parameter dateOrder: for a MyFitnessPal export a spreadsheet saved again, whose dates do not say it.
    public func importAnyFile(
        at url: URL, fileName: String?, format: String?, unit: MassUnit?,
        dateOrder: MyFitnessPalExport.DateOrder? = nil, mode: ImportMode,
        progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }
    ) async throws -> ImportReport {
        if let database = format.flatMap(FoodDatabaseFormat.init(rawValue:)) {
            return try await importFoodDatabase(at: url, format: database, fileName: fileName, mode: mode, progress: progress)
        }
        if format == "apple-health" || (format == nil && AppleHealthReader.recognises(url: url)) {
            return try await importAppleHealth(at: url, fileName: fileName, mode: mode, progress: progress)
        }
        if format == HealthAutoExportParser.format || (format == nil && HealthAutoExportParser.recognises(url: url)) {
            return try await importHealthAutoExport(at: url, fileName: fileName, mode: mode)
        }
        if format == "nightscout" || (format == nil && NightscoutParser.recognises(url: url)) {
            return try await importNightscout(at: url, fileName: fileName, mode: mode)
        }
        if format == "myfitnesspal" || (format == nil && MyFitnessPalExport.recognises(url: url, fileName: fileName)) {
            return try await importMyFitnessPal(at: url, fileName: fileName, unit: unit, dateOrder: dateOrder, mode: mode)
        }
        if format == FitNotesBodyTracker.format || (format == nil && FitNotesBodyTracker.recognises(url: url)) {
            return try await importFitNotesBody(at: url, fileName: fileName, mode: mode)
        }
        if let workoutFormat = format.flatMap(WorkoutFileFormat.init(rawValue:))
            ?? (format == nil ? WorkoutFileReader.detectFormat(url: url) : nil)
        {
            return try await importWorkouts(at: url, fileName: fileName, format: workoutFormat, unit: unit, mode: mode, progress: progress)
        }
        let weightFormat = try format.map { text in
            guard let chosen = WeightFileFormat(rawValue: text) else {
                throw CinnError.invalid("format", "unknown format \"\(text)\"; use one of \(Self.importFormats.joined(separator: ", "))")
            }
            return chosen
        }
        return try await importFile(at: url, fileName: fileName, format: weightFormat, unit: unit, mode: mode, progress: progress)
    }

    /// Imports FitNotes' Body Tracker export: body weight as weigh-ins, body fat as body-fat readings, as one batch.
    public func importFitNotesBody(at url: URL, fileName: String?, mode: ImportMode) async throws -> ImportReport {
        let settings = try await settings()
        return try await store.importHealthRecords(
            user: user, format: FitNotesBodyTracker.format, fileName: fileName ?? url.lastPathComponent,
            mode: mode
        ) { write in
            let contents = try FitNotesBodyTracker.read(url: url, timeZone: settings.timeZone)
            try await write(contents.records)
            return (
                ImportReport(
                    format: FitNotesBodyTracker.format, rowsRead: contents.rowsRead, skipped: contents.skipped,
                    rejected: contents.rejected, rejectedCount: contents.rejectedCount), [], nil
            )
        }
    }

    /// Imports a MyFitnessPal export: food entries per day and meal (%DV columns converted to amounts),
    /// weigh-ins (in `unit`, else the unit the export's Exercise-Summary names) and exercise entries,
    /// as one batch that can be undone. A file with bad rows imports nothing unless `mode.skipInvalid`.
    public func importMyFitnessPal(
        at url: URL, fileName: String?, unit: MassUnit?, dateOrder: MyFitnessPalExport.DateOrder? = nil,
        mode: ImportMode
    ) async throws -> ImportReport {
        let settings = try await settings()
        return try await store.importMyFitnessPal(
            user: user, format: "myfitnesspal", fileName: fileName ?? url.lastPathComponent,
            mode: mode
        ) { write in
            let export = try await MyFitnessPalExport.read(
                url: url, options: .init(timeZone: settings.timeZone, unit: unit, dateOrder: dateOrder)
            ) { batch in
                try await write(batch.entries, batch.weighIns, batch.exercises)
            }
            return ImportReport(
                format: "myfitnesspal", rowsRead: export.rowsRead, skipped: export.skipped,
                rejected: export.rejected, rejectedCount: export.rejectedCount)
        }
    }
}
