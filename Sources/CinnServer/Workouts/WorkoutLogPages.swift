import CinnCharts
import CinnCore
import CinnJournal
import CinnStore
import Foundation

/// A set kind in a form's select.
struct KindOption {
    let value: String
    let label: String
    let selected: Bool
}

extension KindOption {
    static func all(selected: SetKind) -> [KindOption] {
        SetKind.allCases.map { KindOption(value: $0.apiName, label: $0.title ?? "working", selected: $0 == selected) }
    }
}

/// A weight as a form field shows it: in the unit, without trailing zeros ("102.5", "100").
func weightField(_ weight: Mass?, unit: MassUnit) -> String {
    weight.map { Mass.format($0.value(in: unit), upTo: 2) } ?? ""
}

/// `/workouts/{id}/log`: the workout being logged (or a past one being edited), exercise by exercise: the sets done,
/// last time's, the rows still planned prefilled, the rest timer, the plates for a barbell's weight.
struct WorkoutLogPage {
    struct DoneSet {
        let position: Int
        let number: Int
        let text: String
        let kind: String?
        let rpe: String?
        let note: String?
        let records: String?
        let weight: String
        let reps: String
        let rpeValue: String
        let rirValue: String
        let noteValue: String
        let kinds: [KindOption]
    }

    struct PlannedSet {
        let number: Int
        let weight: String
        let reps: String
        let kinds: [KindOption]
        let plates: String?
        /// The form's key (`FormKeys`): marking this set done twice adds it once.
        let key = FormKeys.fresh()
    }

    struct Block {
        let anchor: String
        let name: String
        let link: String?
        let about: String?
        let last: String?
        let done: [DoneSet]
        let planned: [PlannedSet]
        let restSeconds: Int
        let moveUp: Bool
        let moveDown: Bool
        let inPlan: Bool
    }

    struct Rest {
        let seconds: Int
        let endsAtMs: Int64
        let exercise: String
    }

    let id: String
    let name: String
    let started: String
    let startedMs: Int64
    let startedInput: String
    /// The workout's note (named apart from a set's `note`, which a template would otherwise fall back to).
    let workoutNote: String
    let inProgress: Bool
    let unit: String
    let blocks: [Block]
    let hasBlocks: Bool
    let rest: Rest?
    let suggestions: ExerciseNameList
    let setCount: Int

    /// The fragment of an exercise's block: "exercise-barbell-bench-press".
    static func anchor(_ exercise: String) -> String {
        "exercise-" + ExerciseKey.normalised(exercise).replacingOccurrences(of: " ", with: "-")
    }

    init(
        _ stored: StoredWorkout, exercises: [LoggingExercise], clusters: [ExerciseCluster], unit: MassUnit, plates: PlateSet,
        records: [Int: [WorkoutRecord]], rest: Rest?
    ) {
        let workout = stored.workout
        id = workout.id.lowercasedString
        name = workout.name
        let start = LocalDateTime(instant: workout.startedAt, utcOffsetSeconds: workout.utcOffsetSeconds)
        started = "\(LiftText.day(workout.localDate)), \(start.clock)"
        startedMs = workout.startedAt.millisecondsSince1970
        startedInput = "\(workout.localDate.iso)T\(start.clock)"
        workoutNote = stored.note ?? ""
        inProgress = stored.inProgress
        self.unit = unit.rawValue
        self.rest = rest
        setCount = workout.sets.count
        let plan = stored.plan.map { ExerciseKey.normalised($0.exercise) }
        let clusterOf = ExerciseCluster.byKey(clusters)
        var blocks: [Block] = []
        // Each weight's plates worked out once for the page (a routine's sets mostly share a few weights).
        var loads: [Double: PlateLoad] = [:]
        func load(_ target: Double) -> PlateLoad {
            if let known = loads[target] { return known }
            let load = plates.load(target)
            loads[target] = load
            return load
        }
        for exercise in exercises {
            let cluster = clusterOf[ExerciseKey.normalised(exercise.name)]
            let done = exercise.done.enumerated().map { number, position in
                let set = workout.sets[position]
                return DoneSet(
                    position: position, number: number + 1, text: LiftText.set(set, unit: unit), kind: set.kind.title,
                    rpe: set.rpe.map { "RPE \(Mass.format($0, decimals: 1))" } ?? set.rir.map { "\($0) RIR" }, note: set.note,
                    records: records[position].map { "★ New " + $0.map(\.title).joined(separator: ", ") },
                    weight: weightField(set.weight, unit: unit), reps: set.reps.map(String.init) ?? "",
                    rpeValue: set.rpe.map { Mass.format($0, decimals: 1) } ?? "", rirValue: set.rir.map(String.init) ?? "",
                    noteValue: set.note ?? "", kinds: KindOption.all(selected: set.kind))
            }
            // The rows still to do: a routine's targets when it set them (3 × 8 @ 50 kg, last time shown beside them);
            // else last time's sets after those done (or the plan's count), at least one to add another.
            let lastSets = exercise.last?.sets ?? []
            let targets = exercise.planned.flatMap { $0.reps != nil || $0.weight != nil ? $0 : nil }
            let target =
                targets.map { max($0.sets, done.isEmpty ? 1 : 0) }
                ?? max(exercise.planned?.sets ?? 0, lastSets.count, done.isEmpty ? 1 : 0)
            let remaining = max(stored.inProgress ? 1 : 0, target - done.count)
            let isBarbell = exercise.catalogue?.equipment == .barbell
            let planned = (0..<remaining).map { offset in
                let number = done.count + offset
                let previous = targets == nil && number < lastSets.count ? lastSets[number] : nil
                let today = exercise.done.last.map { workout.sets[$0] }
                let weight = targets.map { $0.weight ?? today?.weight } ?? previous?.weight ?? today?.weight ?? exercise.planned?.weight
                let reps = targets.map { $0.reps ?? today?.reps } ?? previous?.reps ?? today?.reps ?? exercise.planned?.reps
                let plateLoad = isBarbell ? weight.map { load($0.value(in: plates.unit)) } : nil
                return PlannedSet(
                    number: number + 1, weight: weightField(weight, unit: unit), reps: reps.map(String.init) ?? "",
                    kinds: KindOption.all(selected: previous?.kind == .warmUp ? .warmUp : .normal),
                    plates: plateLoad.map {
                        ($0.isExact ? "" : "nearest \(Mass.format($0.total, upTo: 2)) \($0.unit.rawValue): ") + $0.text
                    })
            }
            let catalogue = exercise.catalogue.map { "\($0.equipment.rawValue.capitalized) · \($0.primaryMuscle.rawValue)" }
            let last = exercise.last.map { last in
                "Last time, \(LiftText.day(last.localDate)): "
                    + last.sets.map { LiftText.set($0, unit: unit) + ($0.kind == .warmUp ? " (w)" : "") }
                    .joined(separator: ", ")
            }
            let planIndex = plan.firstIndex(of: ExerciseKey.normalised(exercise.name))
            blocks.append(
                Block(
                    anchor: Self.anchor(exercise.name), name: exercise.name,
                    link: cluster.map { Site.exercise.path($0.root.id.lowercasedString) },
                    about: catalogue, last: last, done: done, planned: planned, restSeconds: exercise.restSeconds,
                    moveUp: planIndex.map { $0 > 0 } ?? false, moveDown: planIndex.map { $0 < plan.count - 1 } ?? false,
                    inPlan: planIndex != nil && done.isEmpty))
        }
        self.blocks = blocks
        hasBlocks = !blocks.isEmpty
        suggestions = ExerciseNameList(ExerciseCatalogue.builtIn.suggestions(adding: clusters.map(\.root.name)))
    }
}

/// The exercise names a form's datalist offers, as its options' HTML, escaped as the templates escape text
/// (`PageTemplate.appendEscaped`). Written here rather than by the template: iterating 250 names was a fifth of the
/// logging page's rendering.
struct ExerciseNameList {
    let options: String

    init(_ names: [String]) {
        var html = ""
        html.reserveCapacity(names.count * 32)
        for name in names {
            html += "<option value=\""
            PageTemplate.appendEscaped(name, to: &html)
            html += "\">"
        }
        options = html
    }
}

/// The start of a workout on the Lifts page: continue the one in progress, or start one (empty, or from a routine).
struct WorkoutStartCard {
    struct RoutineItem {
        let id: String
        let name: String
        let exercises: String
    }
    let current: String?
    let currentID: String?
    let routines: [RoutineItem]
    let hasRoutines: Bool

    init(current: StoredWorkout?, routines: [Routine]) {
        currentID = current?.workout.id.lowercasedString
        self.current = current.map { workout in
            let start = LocalDateTime(instant: workout.workout.startedAt, utcOffsetSeconds: workout.workout.utcOffsetSeconds)
            let sets = workout.workout.sets.count
            return "\(workout.workout.name), started \(start.clock) · \(sets) set\(sets == 1 ? "" : "s") done"
        }
        self.routines = routines.map {
            RoutineItem(id: $0.id.lowercasedString, name: $0.name, exercises: $0.exercises.map(\.exercise).joined(separator: ", "))
        }
        hasRoutines = !routines.isEmpty
    }
}

/// `/routines`: every routine with a start button, and a new one.
struct RoutinesPage {
    let routines: [WorkoutStartCard.RoutineItem]
    let hasRoutines: Bool
}

/// `/routines/{id}` and `/routines/new`: a routine's name, note and exercises with their targets, in order.
struct RoutineEditorPage {
    struct Row {
        let index: Int
        let exercise: String
        let sets: String
        let reps: String
        let weight: String
        let rest: String
        let up: Bool
        let down: Bool
        let filled: Bool
    }

    let id: String?
    let action: String
    let name: String
    let note: String
    let unit: String
    let rows: [Row]
    let suggestions: ExerciseNameList

    /// `blank`: empty rows after the routine's, to add exercises.
    init(_ routine: Routine?, unit: MassUnit, suggestions: [String], blank: Int = 2) {
        id = routine?.id.lowercasedString
        action = routine.map { Site.routine.path($0.id) } ?? Site.routines.path
        name = routine?.name ?? ""
        note = routine?.note ?? ""
        self.unit = unit.rawValue
        let exercises = routine?.exercises ?? []
        rows =
            exercises.enumerated().map { index, planned in
                Row(
                    index: index, exercise: planned.exercise, sets: "\(planned.sets)", reps: planned.reps.map(String.init) ?? "",
                    weight: weightField(planned.weight, unit: unit), rest: planned.restSeconds.map(String.init) ?? "",
                    up: index > 0, down: index < exercises.count - 1, filled: true)
            }
            + (0..<(exercises.isEmpty ? max(blank, 3) : blank)).map { offset in
                Row(
                    index: exercises.count + offset, exercise: "", sets: "", reps: "", weight: "", rest: "", up: false, down: false,
                    filled: false)
            }
        self.suggestions = ExerciseNameList(suggestions)
    }
}

/// Every set lists its kinds: read by name, not by reflection (`TemplateParent`).
extension KindOption: TemplateParent {
    func child(named fieldName: String) -> Any? {
        switch fieldName {
        case "value": value
        case "label": label
        case "selected": selected
        default: nil
        }
    }
}

extension WorkoutLogPage.DoneSet: TemplateParent {
    func child(named fieldName: String) -> Any? {
        switch fieldName {
        case "position": position
        case "number": number
        case "text": text
        case "kind": kind
        case "rpe": rpe
        case "note": note
        case "records": records
        case "weight": weight
        case "reps": reps
        case "rpeValue": rpeValue
        case "rirValue": rirValue
        case "noteValue": noteValue
        case "kinds": kinds
        default: nil
        }
    }
}

extension WorkoutLogPage.PlannedSet: TemplateParent {
    func child(named fieldName: String) -> Any? {
        switch fieldName {
        case "number": number
        case "weight": weight
        case "reps": reps
        case "kinds": kinds
        case "plates": plates
        case "key": key
        default: nil
        }
    }
}
