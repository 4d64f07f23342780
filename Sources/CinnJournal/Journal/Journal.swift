import CinnCore
import CinnImport
import CinnStore
import Foundation

/// One person's journal: what the CLI and the server both call, so they behave the same.
public struct Journal: Sendable {
    public let store: Store
    public let user: UserID
    public let now: @Sendable () -> Date
    /// Where unknown barcodes are looked up; nil looks up only the foods Cinn has.
    public var openFoodFacts: (any ProductLookup)?

    public init(
        store: Store, user: UserID, now: @escaping @Sendable () -> Date = { Date() },
        openFoodFacts: (any ProductLookup)? = nil
    ) {
        self.store = store
        self.user = user
        self.now = now
        self.openFoodFacts = openFoodFacts
    }

    /// The journal of single-user mode's local user.
    public static func local(
        store: Store, now: @escaping @Sendable () -> Date = { Date() },
        openFoodFacts: (any ProductLookup)? = nil
    ) async throws -> Journal {
        Journal(store: store, user: try await store.localUser(), now: now, openFoodFacts: openFoodFacts)
    }

    /// Another user's journal, made alike (clock, Open Food Facts client).
    public func forUser(_ other: UserID) -> Journal {
        Journal(store: store, user: other, now: now, openFoodFacts: openFoodFacts)
    }

    public func settings() async throws -> UserSettings { try await store.settings(user: user) }

    /// Today, in the user's time zone.
    public func today(_ settings: UserSettings) -> LocalDate {
        LocalDate.today(in: settings.timeZone, now: now())
    }

    /// Clock differences between a device and the server that are not "the future".
    static let clockSkewAllowance: TimeInterval = 10 * 60

    /// When a reading was taken, from what a person typed: nothing is now; `YYYY-MM-DD` is now for
    /// today and local noon for an earlier day; an ISO 8601 time with an offset keeps its offset;
    /// without one, the user's time zone decides. Days after today, and times more than the clock
    /// skew allowance after now, are refused (docs/TIMES.md).
    public func readingTime(_ text: String?, settings: UserSettings, field: String = "date") throws
        -> (instant: Date, utcOffsetSeconds: Int)
    {
        let timeZone = settings.timeZone
        guard let text = text?.trimmingCharacters(in: .whitespaces) else {
            let instant = now()
            return (instant, timeZone.secondsFromGMT(for: instant))
        }
        guard !text.isEmpty else { throw CinnError.invalid(field, "\(field) is empty: leave it out for now") }
        let resolved: (instant: Date, utcOffsetSeconds: Int)
        if let day = LocalDate(iso: text) {
            let today = today(settings)
            guard day <= today else { throw CinnError.invalid(field, "\(day) is in the future") }
            if day == today {
                let instant = now()
                resolved = (instant, timeZone.secondsFromGMT(for: instant))
            } else {
                resolved = day.noon(in: timeZone)
            }
        } else if let time = LocalDateTime(iso: text) {
            resolved = time.resolved(in: timeZone)
            guard resolved.instant.timeIntervalSince(now()) <= Self.clockSkewAllowance else {
                throw CinnError.invalid(field, "\(text) is in the future")
            }
        } else {
            throw CinnError.invalid(
                field, "\"\(text)\" is not a date; use YYYY-MM-DD or an ISO 8601 time such as 2024-03-09T07:41:00+01:00")
        }
        let day = LocalDate(instant: resolved.instant, utcOffsetSeconds: resolved.utcOffsetSeconds)
        guard day.year >= 1900 else { throw CinnError.invalid(field, "\(day) is too long ago") }
        return resolved
    }

    /// Records a weigh-in as a person enters it; `id` is the client's own, if it made one, and errors
    /// about the time name `dateField`. Unless `confirm`, a weight that looks like a typo (`TypoGuard`) is
    /// refused with `needsConfirmation`.
    public func addWeighIn(
        id: UUID? = nil, weight: Double, unit: MassUnit?, date: String?, dateField: String = "date",
        note: String? = nil, confirm: Bool = false
    ) async throws -> WeighIn {
        let settings = try await settings()
        let mass = try Mass.bodyWeight(weight, unit ?? settings.displayUnit)
        let time = try readingTime(date, settings: settings, field: dateField)
        if !confirm {
            let day = LocalDate(instant: time.instant, utcOffsetSeconds: time.utcOffsetSeconds)
            try await questionTypo(mass, on: day, before: false, unit: unit ?? settings.displayUnit, settings: settings)
        }
        let weighIn = WeighIn(
            id: id ?? .v7(at: now()), measuredAt: time.instant, utcOffsetSeconds: time.utcOffsetSeconds,
            weight: mass, note: try Note.validated(note))
        return try await store.addWeighIn(weighIn, user: user)
    }

    /// Changes a weigh-in as a person edits it; nil leaves a part as it is. A changed weight that looks like a typo
    /// (`TypoGuard`, against the trend before the reading's day) needs `confirm`.
    public func editWeighIn(
        id: UUID, weight: Double?, unit: MassUnit?, date: String?, dateField: String = "date",
        note: String??, confirm: Bool = false
    ) async throws -> WeighIn {
        let settings = try await settings()
        let entered = unit ?? settings.displayUnit
        let mass = try weight.map { value in try Mass.bodyWeight(value, entered) }
        // The edit form sends back the time and weight it showed: unchanged, they are kept and not checked again.
        let stored = try await store.weighIn(id: id, user: user)
        let shown = String(stored.localTimeISO.prefix(19))
        let time = try date.flatMap { text in
            text.trimmingCharacters(in: .whitespaces) == shown ? nil : try readingTime(text, settings: settings, field: dateField)
        }
        if !confirm, let mass, mass.formatted(in: entered) != stored.weight.formatted(in: entered) {
            let day = time.map { LocalDate(instant: $0.instant, utcOffsetSeconds: $0.utcOffsetSeconds) } ?? stored.localDate
            try await questionTypo(mass, on: day, before: true, unit: entered, settings: settings)
        }
        let cleanNote = try note.map { text in try Note.validated(text) }
        return try await store.updateWeighIn(id: id, user: user, weight: mass, measuredAt: time, note: cleanNote)
    }

    /// Throws `needs_confirmation` when `mass` on `day` looks like a typo against the trend up to that day; `before`:
    /// only the trend of earlier days (an edited reading is in its own day's trend).
    private func questionTypo(_ mass: Mass, on day: LocalDate, before: Bool, unit: MassUnit, settings: UserSettings) async throws {
        let trend = WeightTrend(days: try await store.dailyWeights(user: user), method: settings.trendMethod)
            .points.last { before ? $0.date < day : $0.date <= day }
        if let question = TypoGuard.weighIn(mass, on: day, trend: trend, unit: unit) { throw question }
    }

    /// The trend report for a period; `to` defaults to today.
    public func trend(from: LocalDate? = nil, to: LocalDate? = nil, range: TrendRange = .all) async throws
        -> (report: TrendReport, settings: UserSettings)
    {
        let (settings, goal, days) = try await store.trendInputs(user: user)
        let trend = WeightTrend(days: days, method: settings.trendMethod, displayUnit: settings.displayUnit)
        let end = to ?? today(settings)
        if let from, from > end { throw CinnError.invalid("from", "from (\(from)) is after to (\(end))") }
        let report = TrendReport(
            trend: trend, goal: goal, from: from, to: end, range: range,
            displayUnit: settings.displayUnit)
        return (report, settings)
    }

    /// Sets the goal as a person enters it (unit defaults to the display unit).
    public func setGoal(weight: Double, unit: MassUnit?, ratePerWeek: Double?, rateField: String = "rate") async throws -> Goal {
        let settings = try await settings()
        let goal = try Goal.validated(
            weight: weight, unit: unit ?? settings.displayUnit, ratePerWeek: ratePerWeek,
            setOn: today(settings), rateField: rateField)
        try await store.setGoal(goal, user: user)
        return goal
    }

    /// Imports a weight file: streamed, all or nothing, recorded as a batch that can be undone.
    public func importFile(
        at url: URL, fileName: String?, format: WeightFileFormat?, unit: MassUnit?,
        mode: ImportMode, progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }
    )
        async throws -> ImportReport
    {
        let settings = try await settings()
        let reader = try WeightFileReader(
            url: url, format: format,
            options: WeightImportOptions(unit: unit, timeZone: settings.timeZone))
        return try await store.importWeighIns(user: user, format: reader.format.rawValue, fileName: fileName, mode: mode) { insert in
            let summary = try await reader.read(progress: progress) { batch in try await insert(batch) }
            return ImportReport(
                format: reader.format.rawValue, rowsRead: summary.rowsRead, rejected: summary.rejected,
                rejectedCount: summary.rejectedCount)
        }
    }

    /// Fills an empty journal with demo data: weigh-ins and a goal, a profile, foods with four weeks
    /// of meals (every day but today marked complete), sixteen weeks of workouts (an import that can be
    /// undone), and two weeks of CGM glucose answering the food log's meals, with insulin. Returns false when the journal
    /// already has weigh-ins or food entries.
    @discardableResult
    public func fillWithDemoData() async throws -> Bool {
        guard try await store.weighInCount(user: user) == 0, try await store.foodLogSpan(user: user) == nil else { return false }
        var settings = try await settings()
        let today = today(settings)
        let demo = DemoJournal(endingOn: today, timeZone: settings.timeZone)
        for weighIn in demo.weighIns { try await store.addWeighIn(weighIn, user: user) }
        if try await store.goal(user: user) == nil { try await store.setGoal(demo.goal, user: user) }
        let food = DemoFoodLog(endingOn: today, timeZone: settings.timeZone)
        for item in food.foods { try await store.addFood(item, user: user) }
        for recipe in food.recipes { try await store.saveRecipe(recipe, user: user) }
        for preset in food.presets { try await store.addPreset(preset, user: user) }
        try await store.addFoodEntries(food.entries, user: user)
        for day in Set(food.entries.map(\.localDate)).sorted() where day < today {
            try await store.setDayStatus(.complete, on: day, user: user)
        }
        if try await store.workoutCount(user: user) == 0 {
            let workouts = DemoWorkouts(endingBefore: today, timeZone: settings.timeZone)
            _ = try await store.importWorkouts(user: user, format: "demo", fileName: "demo workouts", mode: ImportMode()) { insert in
                try await insert(workouts.sets)
                return ImportReport(format: "demo", rowsRead: workouts.sets.count)
            }
        }
        if try await store.routines(user: user).isEmpty {
            for routine in DemoWorkouts.routines { try await store.saveRoutine(routine, user: user) }
        }
        if try await store.glucoseReadings(user: user, limit: 1).isEmpty {
            let glucose = DemoGlucose.make(
                days: 14, last: today, utcOffsetSeconds: settings.timeZone.secondsFromGMT(for: now()), now: now(),
                entries: food.entries)
            try await store.addGlucoseReadings(glucose.readings, user: user)
            try await store.addInsulinDoses(glucose.doses, user: user)
        }
        if settings.profile == nil {
            settings.profile = DemoJournal.profile
            settings.onboarded = true
            try await store.saveSettings(settings, user: user)
        }
        return true
    }
}
