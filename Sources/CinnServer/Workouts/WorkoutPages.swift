import CinnCharts
import CinnCore
import CinnJournal
import CinnStore
import Foundation

/// Words and numbers for the lifts pages.
enum LiftText {
    static func day(_ day: LocalDate) -> String { "\(day.weekdayName) \(day.dayMonthYear)" }

    static func volume(_ mass: Mass, unit: MassUnit) -> String {
        "\(Mass.format(mass.value(in: unit), decimals: 0)) \(unit.rawValue)"
    }

    static func duration(_ seconds: Double) -> String {
        guard let total = seconds.roundedInt else { return "—" }
        if total >= 3600 { return "\(total / 3600) h \(total % 3600 / 60) min" }
        if total >= 60 { return total % 60 == 0 ? "\(total / 60) min" : "\(total / 60) min \(total % 60) s" }
        return "\(total) s"
    }

    /// A workout's duration, distance and energy, those it has: "42 min", "8.09 km", "402 kcal".
    static func totals(duration: Double?, distance metres: Double?, energy kcal: Double?) -> [String] {
        var parts: [String] = []
        if let duration { parts.append(Self.duration(duration)) }
        if let metres, metres > 0 { parts.append(distance(metres)) }
        if let kcal, kcal > 0 { parts.append("\(kcal.wholeText) kcal") }
        return parts
    }

    static func distance(_ metres: Double) -> String {
        metres >= 1000 ? "\(Mass.format(metres / 1000, decimals: 2)) km" : "\(Mass.format(metres, decimals: 0)) m"
    }

    /// "100 kg × 5", "60 s", "4.02 km in 25 min 12 s", with its kind when not a normal set.
    static func set(_ set: WorkoutSet, unit: MassUnit) -> String {
        var parts: [String] = []
        switch (set.weight, set.reps) {
        case let (weight?, reps?): parts.append("\(StrengthChart.weight(weight, unit: unit)) × \(reps)")
        case let (nil, reps?): parts.append("\(reps) reps")
        case let (weight?, nil): parts.append(StrengthChart.weight(weight, unit: unit))
        case (nil, nil): break
        }
        if let metres = set.distanceMetres { parts.append(distance(metres)) }
        if let seconds = set.durationSeconds { parts.append(parts.isEmpty ? duration(seconds) : "in " + duration(seconds)) }
        return parts.isEmpty ? "—" : parts.joined(separator: " ")
    }
}

/// `/lifts`: every exercise, most recently done first, with its current estimate. Looked up by name, not by
/// reflection, as `ExercisePageModel` is.
struct LiftsPage: TemplateParent {
    struct Item: TemplateParent {
        let id: String
        let name: String
        let aliases: String?
        let last: String
        let current: String
        let from: String?

        func child(named key: String) -> Any? {
            switch key {
            case "id": id
            case "name": name
            case "aliases": aliases
            case "last": last
            case "current": current
            case "from": from
            default: nil
            }
        }
    }
    let items: [Item]
    let hasItems: Bool
    let formula: String
    let formulas: [Option]
    let workoutCount: Int
    let start: WorkoutStartCard
    let plates: PlatesForm

    struct Option {
        let value: String
        let label: String
        let selected: Bool
    }

    func child(named key: String) -> Any? {
        switch key {
        case "items": items
        case "hasItems": hasItems
        case "formula": formula
        case "formulas": formulas
        case "workoutCount": workoutCount
        case "start": start
        case "plates": plates
        default: nil
        }
    }

    init(
        lifts: (exercises: [ExerciseSummary], unit: MassUnit, formula: OneRepMaxFormula), workoutCount: Int, start: WorkoutStartCard,
        plates: PlatesForm
    ) {
        self.start = start
        self.plates = plates
        items = lifts.exercises.map { summary in
            Item(
                id: summary.id.lowercasedString, name: summary.name,
                aliases: summary.aliases.isEmpty ? nil : "also " + summary.aliases.joined(separator: ", "),
                last: summary.lastDay.map(LiftText.day) ?? "—",
                current: summary.current?.oneRepMax.formatted(in: lifts.unit) ?? "—",
                from: summary.current.map { "from " + StrengthChart.lifted($0.set, unit: lifts.unit) }
                    ?? summary.best.map { "best ever \($0.oneRepMax.formatted(in: lifts.unit))" })
        }
        hasItems = !items.isEmpty
        formula = lifts.formula.title
        formulas = OneRepMaxFormula.allCases.map { Option(value: $0.rawValue, label: $0.title, selected: $0 == lifts.formula) }
        self.workoutCount = workoutCount
    }
}

/// The bar and plates on the Lifts page, and the plate calculator's answer for `?load=`.
struct PlatesForm {
    let kilograms: Bool
    let bar: String
    let plates: String
    let unit: String
    let load: String?
    let loadValue: String

    init(_ set: PlateSet, load target: Double?) {
        kilograms = set.unit != .pounds
        bar = Mass.format(set.bar, upTo: 2)
        plates = set.storageText
        unit = set.unit.rawValue
        load = target.map { target in
            let load = set.load(target)
            return
                (load.isExact
                ? "\(Mass.format(target, upTo: 2)) \(set.unit.rawValue): "
                : "\(Mass.format(target, upTo: 2)) \(set.unit.rawValue) cannot be made; nearest \(Mass.format(load.total, upTo: 2)): ")
                + load.text
        }
        loadValue = target.map { Mass.format($0, upTo: 2) } ?? ""
    }
}

/// `/lifts/{id}`: one exercise's estimates, chart, records and weekly volume. Its values are looked up by
/// name (`TemplateParent`), not by reflection: the template asks the page for them often (every `{{#link}}`
/// of a figure without one falls back to it), and reflecting a struct lists all its fields each time.
struct ExercisePageModel: TemplateParent {
    struct Figure {
        let label: String
        let value: String
        let detail: String
        let link: String?
    }
    struct Row {
        let label: String
        let value: String
        let day: String
        var isNew = false
    }
    struct Week {
        let week: String
        let volume: String
        let sets: Int
    }
    struct Alias {
        let name: String
        let id: String
    }
    struct Target {
        let id: String
        let name: String
    }

    let id: String
    let name: String
    let aliases: [Alias]
    let hasAliases: Bool
    let figures: [Figure]
    let chart: String
    let records: [Row]
    let repMaxes: [Row]
    let weeks: [Week]
    let formula: String
    let includeHighReps: Bool
    let totalSets: Int
    let span: String
    let targets: [Target]
    let rest: Int

    func child(named key: String) -> Any? {
        switch key {
        case "id": id
        case "name": self.name
        case "aliases": aliases
        case "hasAliases": hasAliases
        case "figures": figures
        case "chart": chart
        case "records": records
        case "repMaxes": repMaxes
        case "weeks": weeks
        case "formula": formula
        case "includeHighReps": includeHighReps
        case "totalSets": totalSets
        case "span": span
        case "targets": targets
        case "rest": rest
        default: nil
        }
    }

    /// `rest`: the seconds of rest after each set. A record set on the exercise's last day is marked new.
    init(page: ExercisePage, includeHighReps: Bool, others: [ExerciseCluster], rest: Int) {
        self.rest = rest
        let unit = page.unit, report = page.report
        id = page.exercise.root.id.lowercasedString
        name = page.exercise.root.name
        aliases = page.exercise.aliases.map { Alias(name: $0.name, id: $0.id.lowercasedString) }
        hasAliases = !aliases.isEmpty
        func estimate(_ label: String, _ value: EstimatedMax?, _ workout: UUID?, none: String) -> Figure {
            guard let value else { return Figure(label: label, value: "—", detail: none, link: nil) }
            return Figure(
                label: label, value: value.oneRepMax.formatted(in: unit),
                detail: "from \(StrengthChart.lifted(value.set, unit: unit)) on \(LiftText.day(value.day))",
                link: workout.map { Site.workout.path($0) })
        }
        figures = [
            estimate("Current 1RM", report.current, page.currentWorkout, none: "no set of 1–10 reps in the last 30 days"),
            estimate("Best ever", report.best, page.bestWorkout, none: "no set of 1–10 reps yet"),
        ]
        chart = StrengthChart(history: report.history, unit: unit).svg()
        let lastDay = report.lastDay
        func row(_ label: String, _ set: LiftedSet?) -> Row? {
            set.map { Row(label: label, value: StrengthChart.lifted($0, unit: unit), day: LiftText.day($0.day), isNew: $0.day == lastDay) }
        }
        records = [
            report.best.map {
                Row(
                    label: "Best estimated 1RM", value: "\($0.oneRepMax.formatted(in: unit)) (\(StrengthChart.lifted($0.set, unit: unit)))",
                    day: LiftText.day($0.day), isNew: $0.day == lastDay)
            },
            row("Heaviest set", report.heaviest),
            report.bestSetVolume.map {
                Row(
                    label: "Best set volume",
                    value:
                        "\(LiftText.volume(Mass(kilograms: $0.weight.kilograms * Double($0.reps)), unit: unit)) (\(StrengthChart.lifted($0, unit: unit)))",
                    day: LiftText.day($0.day), isNew: $0.day == lastDay)
            },
        ].compactMap { $0 }
        repMaxes = report.repMaxes.map {
            Row(
                label: "\($0.reps) RM", value: StrengthChart.lifted($0.set, unit: unit), day: LiftText.day($0.set.day),
                isNew: $0.set.day == lastDay)
        }
        weeks = report.weeklyVolume.reversed().map {
            Week(week: "from \($0.weekStart.dayMonth)", volume: LiftText.volume($0.volume, unit: unit), sets: $0.sets)
        }
        formula = report.formula.title
        self.includeHighReps = includeHighReps
        totalSets = report.totalSets
        span = report.firstDay.map { first in "\(first.dayMonthYear) – \(report.lastDay?.dayMonthYear ?? "")" } ?? ""
        targets = others.filter { $0.root.id != page.exercise.root.id }.map { Target(id: $0.root.id.lowercasedString, name: $0.root.name) }
    }
}

/// `/workouts`: newest first, a page at a time.
struct WorkoutsPage {
    struct Item {
        let id: String
        let day: String
        let name: String
        let summary: String
        let exercises: String
    }
    let items: [Item]
    let hasItems: Bool
    let next: String?
    let previous: String?

    init(workouts: [WorkoutSummary], unit: MassUnit, offset: Int, limit: Int, total: Int) {
        items = workouts.map { workout in
            var parts =
                workout.setCount > 0 || workout.distanceMeters == nil && workout.energyKcal == nil
                ? ["\(workout.setCount) set\(workout.setCount == 1 ? "" : "s")"] : []
            if workout.volume.kilograms > 0 { parts.append(LiftText.volume(workout.volume, unit: unit)) }
            parts += LiftText.totals(duration: workout.durationSeconds, distance: workout.distanceMeters, energy: workout.energyKcal)
            let summary = parts.joined(separator: " · ")
            return Item(
                id: workout.id.lowercasedString, day: LiftText.day(workout.localDate), name: workout.name, summary: summary,
                exercises: workout.exercises.joined(separator: ", "))
        }
        hasItems = !items.isEmpty
        next = offset + limit < total ? Site.workouts.path + "?offset=\(offset + limit)" : nil
        previous = offset > 0 ? Site.workouts.path + "?offset=\(max(0, offset - limit))" : nil
    }
}

/// `/workouts/{id}`: the sets, grouped by exercise in the order done, each with the records it set; after finishing,
/// the summary first.
struct WorkoutPageModel {
    struct Line {
        let number: Int
        let set: String
        let kind: String?
        let estimate: String?
        let rpe: String?
        let note: String?
        let records: String?
    }
    struct Block {
        let exercise: String
        let lines: [Line]
    }
    struct Figure {
        let label: String
        let value: String
    }
    let id: String
    let name: String
    let day: String
    let facts: String
    /// The workout's note (named apart from a set's `note`, which a template would otherwise fall back to).
    let workoutNote: String?
    let blocks: [Block]
    let finished: Bool
    let summary: [Figure]
    let recordText: String?
    let inProgress: Bool

    init(_ workout: WorkoutWithRecords, finished: Bool) {
        let stored = workout.stored, unit = workout.unit
        let sets = stored.workout.sets
        id = stored.workout.id.lowercasedString
        name = stored.workout.name
        day =
            LiftText.day(stored.workout.localDate) + ", "
            + LocalDateTime(instant: stored.workout.startedAt, utcOffsetSeconds: stored.workout.utcOffsetSeconds).clock
        var facts = sets.isEmpty && (stored.distanceMeters != nil || stored.energyKcal != nil) ? [] : ["\(sets.count) sets"]
        facts += LiftText.totals(duration: stored.durationSeconds, distance: stored.distanceMeters, energy: stored.energyKcal)
        // Where it came from, when not logged here: the app of an import by its name ("from Fitbod").
        let source = stored.workout.source
        if source.hasPrefix("import:") {
            facts.append("from \(ImportPage.productName(String(source.dropFirst("import:".count))))")
        } else if source != "manual" {
            facts.append("from \(source)")
        }
        self.facts = facts.joined(separator: " · ")
        workoutNote = stored.note
        var blocks: [(String, [Line])] = []
        for (index, set) in sets.enumerated() {
            if blocks.last?.0 != set.exercise { blocks.append((set.exercise, [])) }
            let line = Line(
                number: blocks[blocks.count - 1].1.count + 1, set: LiftText.set(set, unit: unit), kind: set.kind.title,
                estimate: set.oneRepMax(formula: workout.formula).map { ($0.lowConfidence ? "≈ " : "") + $0.formatted(in: unit) },
                rpe: set.rpe.map { "RPE \(Mass.format($0, decimals: 1))" }, note: set.note,
                records: workout.records[index].map { "★ New " + $0.map(\.title).joined(separator: ", ") })
            blocks[blocks.count - 1].1.append(line)
        }
        self.blocks = blocks.map { Block(exercise: $0.0, lines: $0.1) }
        self.finished = finished
        let recordCount = workout.records.values.reduce(0) { $0 + $1.count }
        recordText = recordCount == 0 ? nil : "\(recordCount) new record\(recordCount == 1 ? "" : "s"), marked ★ below."
        let volume = Mass(kilograms: sets.compactMap(\.volume).reduce(0) { $0 + $1.kilograms })
        summary = [
            Figure(label: "Duration", value: stored.durationSeconds.map(LiftText.duration) ?? "—"),
            Figure(label: "Volume", value: LiftText.volume(volume, unit: unit)),
            Figure(label: "Sets", value: "\(sets.count)"),
            Figure(label: "Records", value: "\(recordCount)"),
        ]
        inProgress = stored.inProgress
    }
}
