import ArgumentParser
import CinnCore
import CinnJournal
import Foundation

enum OutputStyle: String, ExpressibleByArgument, CaseIterable { case text, json }

struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Your profile: sex, birth date, height, activity, units, goal and how the calorie target is made.",
        subcommands: [Show.self, Set.self, BodyFat.self], defaultSubcommand: Show.self)

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the profile.")

        @OptionGroup var options: DatabaseOptions

        @Option(help: "text or json.")
        var format: OutputStyle = .text

        func run() async throws {
            try await options.withJournal { journal in
                let settings = try await journal.settings()
                let goal = try await journal.goal()
                if format == .json { return print(try EnergyJSON.profile(settings, goal: goal)) }
                guard let profile = settings.profile else {
                    print(
                        "No profile yet. Set one with: cinn profile set --sex female --birth-date 1990-05-17 --height \"5 ft 6 in\" --activity light"
                    )
                    return
                }
                let today = journal.today(settings)
                print("Sex: \(profile.sex.rawValue)")
                print("Born: \(profile.birthDate.iso) (\(profile.age(on: today)) years)")
                print("Height: \(profile.height.formatted(in: settings.lengthUnit))")
                print("Activity: \(profile.activity.title) (\(profile.activity.explanation); × \(profile.activity.factor))")
                print("Units: \(settings.displayUnit.rawValue), \(settings.lengthUnit.rawValue), \(settings.energyUnit.rawValue)")
                if let goal {
                    let rate = goal.plannedRate.map { ", \($0.formatted(in: settings.displayUnit, decimals: 2)) a week" } ?? ""
                    print("Goal: \(goal.weight.formatted(in: settings.displayUnit))\(rate)")
                }
                print("Target follows: \(settings.targetBasis.rawValue)")
                if let floor = settings.energyFloorKcal { print("Your calorie floor: \(settings.energyUnit.format(kilocalories: floor))") }
                if let target = settings.energyTargetKcal { print("Manual target: \(settings.energyUnit.format(kilocalories: target))") }
            }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change the profile: everything given is checked first, then saved together.",
            discussion: "Examples: cinn profile set --sex male --birth-date 1988-02-29 --height \"5 ft 11 in\" --activity moderate\n"
                + "          cinn profile set --goal 75 --rate 0.5 --target-basis adaptive")

        @OptionGroup var options: DatabaseOptions

        @Option(help: "female or male.") var sex: String?
        @Option(name: .customLong("birth-date"), help: "YYYY-MM-DD.") var birthDate: String?
        @Option(help: "180, 180 cm, 1.80 m, 5 ft 11 in or 5'11\" (a bare number is in your length unit).") var height: String?
        @Option(help: "sedentary, light, moderate, active or very_active.") var activity: String?
        @Option(name: .customLong("length-unit"), help: "cm or ft_in.") var lengthUnit: String?
        @Option(help: "Weight unit: kg, lb or st.") var unit: String?
        @Option(name: .customLong("energy-unit"), help: "kcal or kJ.") var energyUnit: String?
        @Option(name: .customLong("time-zone"), help: "An IANA name such as Europe/Berlin.") var timeZone: String?
        @Option(help: "Goal weight, in your weight unit.") var goal: Double?
        @Option(help: "Planned amount per week towards the goal, in your weight unit (with --goal).") var rate: Double?
        @Option(name: .customLong("target-basis"), help: "formula or adaptive: which expenditure the target follows.") var targetBasis:
            String?
        @Option(help: "Your own calorie floor in kcal (800–3000), or none for 1200 (women) / 1500 (men).") var floor: String?
        @Option(help: "A manual daily target in kcal that overrides the formula, or none.") var target: String?

        func run() async throws {
            let floorValue = try parseOrThrow { () in try Self.clearable(floor, field: "floor") }
            let targetValue = try parseOrThrow { () in try Self.clearable(target, field: "target") }
            try await options.withJournal { journal in
                let update = ProfileUpdate(
                    sex: sex, birthDate: birthDate, height: height, activity: activity, lengthUnit: lengthUnit,
                    massUnit: unit, energyUnit: energyUnit, timeZone: timeZone, goalWeight: goal,
                    goalRatePerWeek: rate, targetBasis: targetBasis, energyFloorKcal: floorValue,
                    energyTargetKcal: targetValue, onboarded: true)
                let (settings, _) = try await journal.updateProfile(update)
                print(settings.profile == nil ? "Saved. Add sex, birth date, height and activity for a calorie target." : "Saved.")
            }
        }

        /// nil: not given; `.some(nil)`: "none"; else the number.
        static func clearable(_ text: String?, field: String) throws -> Double?? {
            guard let text else { return nil }
            if text.lowercased() == "none" { return .some(nil) }
            guard let number = Double(text) else { throw CinnError.invalid(field, "\"\(text)\" is not a number") }
            return .some(number)
        }
    }

    struct BodyFat: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "body-fat",
            abstract: "Record a body-fat measurement (percent); within 30 days it switches resting energy to Katch–McArdle.")

        @OptionGroup var options: DatabaseOptions
        @Argument(help: "Body fat in percent, e.g. 22.5.") var percent: Double
        @Option(help: "YYYY-MM-DD (default today).") var date: String?

        func run() async throws {
            try await options.withJournal { journal in
                let reading = try await journal.addBodyFat(percent: percent, date: date)
                print("Body fat \(Mass.format(reading.fraction * 100, decimals: 1)) % on \(reading.localDate.iso).")
            }
        }
    }
}

struct EnergyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "energy",
        abstract:
            "Expenditure from the equations and from your log side by side, the calorie target, time to goal and the week's check-in.",
        discussion: "The adaptive estimate uses only days marked complete (cinn food mark DATE complete).")

    @OptionGroup var options: DatabaseOptions

    @Option(help: "As of this day (YYYY-MM-DD; default today).") var date: String?
    @Option(help: "Days of the adaptive window, 14–56.") var window: Int = AdaptiveExpenditure.defaultWindowDays
    @Option(help: "text or json (the API's shape, with 90 days of history).") var format: OutputStyle = .text

    func run() async throws {
        let day = try parseOrThrow { () in try date.map { t in try LocalDate.parse(t) } }
        try await options.withJournal { journal in
            let report = try await journal.energyReport(asOf: day, windowDays: window, historyDays: format == .json ? 90 : 0)
            if format == .json { return print(try EnergyJSON.energy(report)) }
            EnergyText.print(report)
        }
    }
}

struct TodayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today", abstract: "Can I nom nom today? One answer from today's calories and the trend.")

    @OptionGroup var options: DatabaseOptions
    @Option(help: "text or json.") var format: OutputStyle = .text

    func run() async throws {
        try await options.withJournal { journal in
            let report = try await journal.energyReport(historyDays: 0)
            if format == .json { return print(try EnergyJSON.today(report)) }
            let unit = report.settings.energyUnit
            print(report.answer.message)
            let target = report.targetKcal.map { " of \(unit.format(kilocalories: $0))" } ?? ""
            print("Eaten: \(unit.format(kilocalories: report.eatenKcal))\(target)")
            if let maintenance = report.maintenanceKcal { print("Calories to maintain: \(unit.format(kilocalories: maintenance))") }
            print("Trend: \(report.verdict.reason)")
        }
    }
}

/// The text of `cinn energy`.
enum EnergyText {
    static func print(_ report: EnergyReport) {
        let unit = report.settings.energyUnit
        let mass = report.settings.displayUnit
        func energy(_ kcal: Double) -> String { unit.format(kilocalories: kcal) }
        let out = { (line: String) in Swift.print(line) }
        out("Energy as of \(report.asOf.iso)")
        if let trend = report.trend { out("Trend weight: \(trend.formatted(in: mass))") }
        if let formula = report.expenditure.formula {
            out(
                "Formula: \(energy(formula.expenditureKcal)) = \(formula.equation.title) \(energy(formula.restingKcal)) × \(formula.activity.factor) (\(formula.activity.title))"
            )
        } else {
            out("Formula: needs a profile and a weigh-in (cinn profile set …)")
        }
        if let adaptive = report.expenditure.adaptive {
            let held = report.expenditure.isHeld ? " — held from \(adaptive.asOf.iso)" : ""
            out(
                "Adaptive: \(energy(adaptive.estimateKcal)) (\(energy(adaptive.range.lowerBound))–\(energy(adaptive.range.upperBound))), "
                    + "\(adaptive.completeDays) complete days, trend \(Mass.format(adaptive.trendChange.value(in: mass), decimals: 2)) \(mass.rawValue) over \(adaptive.windowDays) days\(held)"
            )
        }
        if let shortfall = report.expenditure.shortfall { out("Adaptive estimate: \(shortfall.message)") }
        if let blended = report.expenditure.blendedKcal, report.expenditure.adaptive != nil {
            out("Best estimate: \(energy(blended)) (\((report.expenditure.adaptiveWeight * 100).wholeText) % adaptive)")
        }
        if let maintenance = report.maintenanceKcal {
            let source =
                switch report.targetExpenditure?.source {
                case .bestEstimate?: "the best estimate at the end of \(report.targetExpenditure!.asOf.iso); it moves on Mondays"
                default: report.settings.targetBasis == .adaptive ? "the formula until your log gives an estimate" : "the formula"
                }
            out("Calories to maintain: \(energy(maintenance)) (\(source))")
        }
        if let target = report.target {
            var line = "Daily target: \(energy(target.kcal))"
            if target.source == .manual { line += " (manual)" }
            if target.adjustmentKcal != 0 {
                line += " (\(target.adjustmentKcal < 0 ? "−" : "+")\(energy(abs(target.adjustmentKcal))) for the planned rate)"
            }
            if target.floored { line += " — raised to the \(energy(target.floorKcal)) floor" }
            out(line)
        }
        if let change = report.targetChange { out(change.message(in: report.settings.energyUnit)) }
        if let timeline = report.timeline {
            if timeline.reached {
                out("Goal: reached — the trend is in the maintenance band.")
            } else {
                func eta(_ label: String, _ eta: GoalETA?) {
                    guard let eta else { return }
                    let range = "\(eta.earliest?.iso ?? "—") to \(eta.latest?.iso ?? "not in sight")"
                    out("\(label): \(eta.date?.iso ?? "not in sight") (range \(range))")
                }
                out("To goal: \(timeline.remaining.formatted(in: mass))")
                eta("  at the planned rate", timeline.atPlannedRate)
                eta("  at the trend's rate", timeline.atTrendRate)
            }
        }
        for (label, week) in [("This week", report.thisWeek), ("Last week", report.lastWeek)] {
            let intake = week.meanIntakeKcal.map(energy) ?? "—"
            let change = week.trendChange.map { Mass.format($0.value(in: mass), decimals: 2) + " " + mass.rawValue } ?? "—"
            let onTarget = week.daysOnTarget.map { ", \($0) on target" } ?? ""
            out(
                "\(label) (\(week.start.iso)–\(week.end.iso)): \(week.daysLogged) days logged, \(week.completeDays) complete\(onTarget); "
                    + "mean intake \(intake); trend \(change); expenditure \(week.expenditureKcal.map(energy) ?? "—")")
        }
        out("Today: \(report.answer.message)")
    }
}
