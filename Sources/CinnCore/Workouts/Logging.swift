import Foundation

// MARK: - Set kinds as people and the API name them

extension SetKind {
    /// The API's name of the kind: `working`, `warmup`, `drop` or `failure` (sync keeps `normal` and `warm_up`).
    public var apiName: String {
        switch self {
        case .normal: "working"
        case .warmUp: "warmup"
        case .drop: "drop"
        case .failure: "failure"
        }
    }

    /// "warm-up", "drop set", "to failure"; nil for a working set.
    public var title: String? {
        switch self {
        case .normal: nil
        case .warmUp: "warm-up"
        case .drop: "drop set"
        case .failure: "to failure"
        }
    }

    /// Reads the API's names, sync's (`normal`, `warm_up`) and "warm-up".
    public static func parse(_ text: String, field: String) throws -> SetKind {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "working", "normal": return .normal
        case "warmup", "warm_up", "warm-up": return .warmUp
        case "drop": return .drop
        case "failure": return .failure
        default: throw CinnError.invalid(field, "\(field) must be working, warmup, drop or failure, not \"\(text)\"")
        }
    }
}

// MARK: - A set logged by hand

/// The limits of a set a person logs (the API, the logging page, the CLI): tighter than an import's, which
/// takes what another app recorded.
public enum LoggedSet {
    public static let repsRange = 1...100
    public static let maximumWeightKilograms = 1000.0
    public static let rpeRange = 1.0...10.0
    public static let rirRange = 0...20
    public static let maximumDurationSeconds = ValidValues.setDurationSeconds.upperBound
    public static let maximumDistanceMetres = ValidValues.setDistanceMetres.upperBound
    public static let maximumExerciseName = 200

    /// Checks `set`; an error names the field under `prefix` (`sets[2].reps`). A weight of 0 is no weight (a
    /// body-weight exercise).
    public static func validated(_ set: WorkoutSet, at prefix: String) throws -> WorkoutSet {
        var set = set
        set.exercise = set.exercise.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !ExerciseKey.normalised(set.exercise).isEmpty else {
            throw CinnError.invalid("\(prefix).exercise", "\(prefix).exercise must name an exercise (a letter or a digit at least)")
        }
        guard set.exercise.count <= maximumExerciseName else {
            throw CinnError.invalid("\(prefix).exercise", "\(prefix).exercise is longer than \(maximumExerciseName) characters")
        }
        try ValidValues.plainText(set.exercise, field: "\(prefix).exercise", allowingLineBreaks: false)
        if let weight = set.weight {
            guard weight.kilograms.isFinite, weight.kilograms >= 0 else {
                throw CinnError.invalid("\(prefix).weight", "\(prefix).weight must be 0 or more")
            }
            guard weight.kilograms <= maximumWeightKilograms else {
                throw CinnError.invalid("\(prefix).weight", "\(prefix).weight must be at most \(Int(maximumWeightKilograms)) kg")
            }
            if weight.kilograms == 0 { set.weight = nil }
        }
        if let reps = set.reps, !repsRange.contains(reps) {
            throw CinnError.invalid("\(prefix).reps", "\(prefix).reps must be between \(repsRange.lowerBound) and \(repsRange.upperBound)")
        }
        if let seconds = set.durationSeconds, !(seconds > 0 && seconds <= maximumDurationSeconds) {
            throw CinnError.invalid("\(prefix).duration_s", "\(prefix).duration_s must be more than 0 and at most 24 hours")
        }
        if let metres = set.distanceMetres, !(metres > 0 && metres <= maximumDistanceMetres) {
            throw CinnError.invalid("\(prefix).distance_m", "\(prefix).distance_m must be more than 0 and at most 1,000 km")
        }
        if let multiplier = set.loadMultiplier {
            guard ValidValues.setLoadMultiplier.contains(multiplier) else {
                throw CinnError.invalid(
                    "\(prefix).load_multiplier", "\(prefix).load_multiplier must be between 1 and 10 (two dumbbells: 2)")
            }
            if multiplier == 1 { set.loadMultiplier = nil }
        }
        guard set.reps != nil || set.durationSeconds != nil || set.distanceMetres != nil else {
            throw CinnError.invalid("\(prefix).reps", "\(prefix).reps is needed (or a time or distance for a timed exercise)")
        }
        if let rpe = set.rpe, !rpeRange.contains(rpe) {
            throw CinnError.invalid("\(prefix).rpe", "\(prefix).rpe must be between 1 and 10")
        }
        if let rir = set.rir, !rirRange.contains(rir) {
            throw CinnError.invalid("\(prefix).rir", "\(prefix).rir must be between \(rirRange.lowerBound) and \(rirRange.upperBound)")
        }
        set.note = try Note.validated(set.note, field: "\(prefix).note")
        return set
    }

    /// Reads a set as the CLI takes it: `100x5` (weight × reps, in `unit`), `w:60x5` for a warm-up, `d:` a drop
    /// set, `f:` a set to failure; `0x12` or `x12` is 12 reps of a body-weight exercise; `@8.5` after it, its RPE.
    public static func parse(_ text: String, exercise: String, unit: MassUnit) throws -> WorkoutSet {
        var body = Substring(text.trimmingCharacters(in: .whitespaces).lowercased())
        var rpe: Double?
        if let at = body.firstIndex(of: "@") {
            guard let value = Double(body[body.index(after: at)...].replacingOccurrences(of: ",", with: ".")) else {
                throw CinnError.invalid("set", "\"\(text)\": the RPE after @ is not a number")
            }
            rpe = value
            body = body[..<at]
        }
        var kind = SetKind.normal
        for (prefix, prefixKind) in [("w:", SetKind.warmUp), ("d:", .drop), ("f:", .failure)] where body.hasPrefix(prefix) {
            kind = prefixKind
            body = body.dropFirst(prefix.count)
        }
        let parts = body.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let reps = Int(parts[1]) else {
            throw CinnError.invalid("set", "\"\(text)\" is not a set: write WEIGHTxREPS, like 100x5 (w:60x5 for a warm-up)")
        }
        let weight: Double
        if parts[0].isEmpty {
            weight = 0
        } else if let value = Double(parts[0].replacingOccurrences(of: ",", with: ".")) {
            weight = value
        } else {
            throw CinnError.invalid("set", "\"\(text)\" is not a set: \"\(parts[0])\" is not a weight")
        }
        return try validated(
            WorkoutSet(exercise: exercise, reps: reps, weight: Mass(weight, unit), kind: kind, rpe: rpe), at: "set \(text)")
    }
}

// MARK: - Plans and routines

/// An exercise to do: how many sets of how many reps at what weight, and the rest after each.
public struct PlannedExercise: Sendable, Hashable {
    public var exercise: String
    public var sets: Int
    public var reps: Int?
    public var weight: Mass?
    public var restSeconds: Int?
    public var note: String?

    public static let setsRange = 1...50
    public static let restRange = 0...3600

    public init(exercise: String, sets: Int, reps: Int? = nil, weight: Mass? = nil, restSeconds: Int? = nil, note: String? = nil) {
        self.exercise = exercise
        self.sets = sets
        self.reps = reps
        self.weight = weight
        self.restSeconds = restSeconds
        self.note = note
    }

    /// Checks the target; an error names the field under `prefix` (`exercises[1].sets`).
    public func validated(at prefix: String) throws -> PlannedExercise {
        var planned = self
        planned.exercise = exercise.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !ExerciseKey.normalised(planned.exercise).isEmpty, planned.exercise.count <= LoggedSet.maximumExerciseName else {
            throw CinnError.invalid("\(prefix).exercise", "\(prefix).exercise must name an exercise (at most 200 characters)")
        }
        try ValidValues.plainText(planned.exercise, field: "\(prefix).exercise", allowingLineBreaks: false)
        guard Self.setsRange.contains(sets) else {
            throw CinnError.invalid("\(prefix).sets", "\(prefix).sets must be between 1 and \(Self.setsRange.upperBound)")
        }
        if let reps, !LoggedSet.repsRange.contains(reps) {
            throw CinnError.invalid("\(prefix).reps", "\(prefix).reps must be between 1 and \(LoggedSet.repsRange.upperBound)")
        }
        if let weight {
            guard weight.kilograms.isFinite, weight.kilograms >= 0, weight.kilograms <= LoggedSet.maximumWeightKilograms else {
                throw CinnError.invalid("\(prefix).weight", "\(prefix).weight must be between 0 and 1000 kg")
            }
            if weight.kilograms == 0 { planned.weight = nil }
        }
        if let restSeconds, !Self.restRange.contains(restSeconds) {
            throw CinnError.invalid("\(prefix).rest_s", "\(prefix).rest_s must be between 0 and 3600 seconds")
        }
        planned.note = try Note.validated(note, field: "\(prefix).note")
        return planned
    }
}

/// The exercises a workout in progress still has to do, as the store keeps them: a JSON array of
/// `{"exercise", "sets", "reps", "weight_kg", "rest_s", "note"}`.
public enum WorkoutPlan {
    public static func storageText(_ plan: [PlannedExercise]) -> String {
        var text = "["
        for (index, planned) in plan.enumerated() {
            if index > 0 { text += "," }
            text += "{\"exercise\":\(JSONText.quoted(planned.exercise)),\"sets\":\(planned.sets)"
            if let reps = planned.reps { text += ",\"reps\":\(reps)" }
            if let weight = planned.weight { text += ",\"weight_kg\":\(JSONText.compactNumber(weight.kilograms))" }
            if let rest = planned.restSeconds { text += ",\"rest_s\":\(rest)" }
            if let note = planned.note { text += ",\"note\":\(JSONText.quoted(note))" }
            text += "}"
        }
        return text + "]"
    }

    /// Reads `storageText`; nil when it is not that shape.
    public static func plan(storageText text: String) -> [PlannedExercise]? {
        guard case .array(let items)? = try? JSONParser.parse(text.utf8) else { return nil }
        var plan: [PlannedExercise] = []
        for case .object(let members) in items {
            guard let exercise = members["exercise"]?.string, let sets = members["sets"]?.integer else { return nil }
            plan.append(
                PlannedExercise(
                    exercise: exercise, sets: Int(sets), reps: members["reps"]?.integer.map { Int($0) },
                    weight: members["weight_kg"]?.number.map(Mass.init(kilograms:)),
                    restSeconds: members["rest_s"]?.integer.map { Int($0) }, note: members["note"]?.string))
        }
        return plan.count == items.count ? plan : nil
    }
}

/// A routine (a template): a named list of exercises with their targets, to start a workout from.
public struct Routine: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var name: String
    public var note: String?
    public var exercises: [PlannedExercise]

    public static let maximumName = 200
    public static let maximumExercises = 100

    public init(id: UUID = .v7(), name: String, note: String? = nil, exercises: [PlannedExercise]) {
        self.id = id
        self.name = name
        self.note = note
        self.exercises = exercises
    }

    /// Checks the routine: a name, and 1 to 100 valid exercises (errors name `exercises[1].sets`).
    public func validated() throws -> Routine {
        var routine = self
        routine.name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !routine.name.isEmpty, routine.name.count <= Self.maximumName else {
            throw CinnError.invalid("name", "name must be 1 to \(Self.maximumName) characters")
        }
        try ValidValues.plainText(routine.name, field: "name", allowingLineBreaks: false)
        guard !exercises.isEmpty, exercises.count <= Self.maximumExercises else {
            throw CinnError.invalid("exercises", "a routine needs 1 to \(Self.maximumExercises) exercises")
        }
        routine.exercises = try exercises.enumerated().map { try $0.element.validated(at: "exercises[\($0.offset)]") }
        routine.note = try Note.validated(note, field: "note")
        return routine
    }
}

// MARK: - Records a workout sets

/// A record one set of a workout set: a best estimated one-rep max, a rep max, a heaviest set or a best set volume.
public enum WorkoutRecord: Sendable, Hashable, Comparable {
    case estimatedOneRepMax
    case repMax(Int)
    case heaviest
    case setVolume

    public var title: String {
        switch self {
        case .estimatedOneRepMax: "best estimated 1RM"
        case .repMax(let reps): "\(reps)-rep max"
        case .heaviest: "heaviest set"
        case .setVolume: "best set volume"
        }
    }

    /// The API's name: `estimated_1rm`, `rep_max`, `heaviest`, `set_volume`.
    public var apiName: String {
        switch self {
        case .estimatedOneRepMax: "estimated_1rm"
        case .repMax: "rep_max"
        case .heaviest: "heaviest"
        case .setVolume: "set_volume"
        }
    }
}

public enum WorkoutRecords {
    /// The records the sets of a workout set against everything before it, by set index. `exercise` gives each
    /// set's exercise as one key per exercise (aliases included); `before` is each exercise's report over the days
    /// before the workout. A set beats the best before it and the workout's earlier sets; of one exercise's sets
    /// that beat the same record, only the best is named. An exercise done for the first time sets none.
    /// Warm-ups and drop sets never do, and rep maxes are counted for 1 to 10 reps, as the exercise page does.
    public static func find(
        sets: [WorkoutSet], exercise: (WorkoutSet) -> String, before: [String: ExerciseReport],
        formula: OneRepMaxFormula
    ) -> [Int: [WorkoutRecord]] {
        struct Best {
            var estimate = 0.0, heaviest = 0.0, volume = 0.0
            var repMaxes = [Double](repeating: 0, count: ExerciseReport.repMaxRange.upperBound + 1)
        }
        var bests: [String: Best] = [:]
        var holder: [String: [WorkoutRecord: Int]] = [:]
        for (index, set) in sets.enumerated() {
            let key = exercise(set)
            guard let report = before[key], report.totalSets > 0 else { continue }
            guard set.kind == .normal || set.kind == .failure, let reps = set.reps, reps > 0, let weight = set.weight?.kilograms,
                weight > 0
            else { continue }
            var best =
                bests[key]
                ?? {
                    var best = Best()
                    best.estimate = report.best?.oneRepMax.estimate.kilograms ?? 0
                    best.heaviest = report.heaviest?.weight.kilograms ?? 0
                    best.volume = report.bestSetVolume.map { $0.weight.kilograms * Double($0.reps) } ?? 0
                    for repMax in report.repMaxes { best.repMaxes[repMax.reps] = repMax.set.weight.kilograms }
                    return best
                }()
            if let estimate = OneRepMax.estimate(weight: Mass(kilograms: weight), reps: reps, formula: formula), !estimate.lowConfidence,
                estimate.estimate.kilograms > best.estimate
            {
                best.estimate = estimate.estimate.kilograms
                holder[key, default: [:]][.estimatedOneRepMax] = index
            }
            if weight > best.heaviest {
                best.heaviest = weight
                holder[key, default: [:]][.heaviest] = index
            }
            if weight * Double(reps) > best.volume {
                best.volume = weight * Double(reps)
                holder[key, default: [:]][.setVolume] = index
            }
            if ExerciseReport.repMaxRange.contains(reps), weight > best.repMaxes[reps] {
                holder[key, default: [:]][.repMax(reps)] = index
            }
            for target in ExerciseReport.repMaxRange where target <= reps { best.repMaxes[target] = max(best.repMaxes[target], weight) }
            bests[key] = best
        }
        var records: [Int: [WorkoutRecord]] = [:]
        for byRecord in holder.values {
            for (record, index) in byRecord { records[index, default: []].append(record) }
        }
        return records.mapValues { $0.sorted() }
    }
}

// MARK: - Plates

/// The bar and the plates a person owns, in kilograms or pounds.
public struct PlateSet: Sendable, Hashable {
    public struct Plate: Sendable, Hashable {
        public var weight: Double
        /// How many plates of this weight (a pair loads one on each side).
        public var count: Int

        public init(weight: Double, count: Int) {
            self.weight = weight
            self.count = count
        }
    }

    public var unit: MassUnit
    public var bar: Double
    /// Heaviest first.
    public var plates: [Plate]

    public static let maximumPlateKinds = 12
    public static let maximumCount = 40

    public init(unit: MassUnit, bar: Double, plates: [Plate]) {
        self.unit = unit
        self.bar = bar
        self.plates = plates.sorted { $0.weight > $1.weight }
    }

    /// A gym's: a 20 kg bar with 25 to 1.25 kg plates, or a 45 lb bar with 45 to 2.5 lb plates, six of each.
    public static func standard(_ unit: MassUnit) -> PlateSet {
        unit == .pounds
            ? PlateSet(unit: .pounds, bar: 45, plates: [45, 35, 25, 10, 5, 2.5].map { Plate(weight: $0, count: 6) })
            : PlateSet(unit: .kilograms, bar: 20, plates: [25, 20, 15, 10, 5, 2.5, 1.25].map { Plate(weight: $0, count: 6) })
    }

    /// "25x6 20x6 1.25x4": each weight with how many plates of it.
    public var storageText: String {
        plates.map { "\(Mass.format($0.weight, upTo: 2))x\($0.count)" }.joined(separator: " ")
    }

    /// Reads `storageText` (or what a person types: commas, spaces, "x" or "×"); an error names `field`.
    public static func plates(_ text: String, field: String = "plates") throws -> [Plate] {
        var plates: [Plate] = []
        for item in text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == ";" || $0 == "\n" }) {
            let parts = item.lowercased().replacingOccurrences(of: "×", with: "x").split(separator: "x")
            guard parts.count == 2, let weight = Double(parts[0]), weight > 0, weight <= 100, let count = Int(parts[1]),
                count >= 0, count <= maximumCount
            else {
                throw CinnError.invalid(
                    field, "\"\(item)\" is not a plate: write WEIGHTxCOUNT, like 20x4 (up to \(maximumCount) plates of 0 to 100)")
            }
            if let existing = plates.firstIndex(where: { $0.weight == weight }) {
                plates[existing].count += count
            } else {
                plates.append(Plate(weight: weight, count: count))
            }
        }
        guard plates.count <= maximumPlateKinds else { throw CinnError.invalid(field, "at most \(maximumPlateKinds) plate weights") }
        return plates.filter { $0.count > 0 }
    }

    /// The most cells the exact search may fill for one target: beyond it (a target far beyond what a bar holds, with
    /// plates that share no common step) a search from the heaviest plates of at most `searchSteps` steps takes its
    /// place, so one page's plate maths stays bounded whatever the plate set and the weights (docs/SECURITY.md).
    public static let searchBudget = 50_000
    public static let searchSteps = 20_000

    /// How to load `target` (in the set's unit): the plates for one side, heaviest first, making the nearest weight
    /// not above it with the fewest plates.
    public func load(_ target: Double) -> PlateLoad {
        // In hundredths of the unit, so 1.25 kg and 2.5 lb are whole numbers; then in steps of the plates' greatest
        // common weight (1.25 kg), and never beyond all the plates there are.
        let kinds = plates.map { (weight: ($0.weight * 100).roundedInt ?? 0, pairs: $0.count / 2) }.filter { $0.weight > 0 && $0.pairs > 0 }
        let step = kinds.reduce(0) { Self.gcd($0, $1.weight) }
        let owned = kinds.reduce(0) { $0 + $1.weight * $1.pairs }
        let wanted = (((target - bar) / 2 * 100).rounded(.down)).roundedInt ?? 0
        guard step > 0, wanted > 0 else { return PlateLoad(unit: unit, target: target, bar: bar, perSide: [], total: bar) }
        let reach = min(wanted, owned) / step
        // Each kind as bundles of 1, 2, 4… pairs (a bounded knapsack as a 0/1 one): weight in steps, plates a side.
        var items: [(kind: Int, size: Int, pairs: Int)] = []
        for (index, kind) in kinds.enumerated() {
            var left = kind.pairs, bundle = 1
            while left > 0 {
                let pairs = min(bundle, left)
                items.append((index, kind.weight / step * pairs, pairs))
                left -= pairs
                bundle *= 2
            }
        }
        var side: [Double] = []
        var amount = 0
        if (reach + 1) * items.count <= Self.searchBudget {
            let unreachable = Int.max
            var fewest = [Int](repeating: unreachable, count: reach + 1)
            fewest[0] = 0
            var taken = [[Bool]](repeating: [], count: items.count)
            for (number, item) in items.enumerated() {
                var took = [Bool](repeating: false, count: reach + 1)
                if item.size <= reach {
                    for total in stride(from: reach, through: item.size, by: -1) {
                        let before = fewest[total - item.size]
                        if before != unreachable, before + item.pairs < fewest[total] {
                            fewest[total] = before + item.pairs
                            took[total] = true
                        }
                    }
                }
                taken[number] = took
            }
            var left = reach
            while fewest[left] == unreachable { left -= 1 }
            amount = left * step
            for number in items.indices.reversed() where taken[number][left] {
                let item = items[number]
                side += Array(repeating: Double(kinds[item.kind].weight) / 100, count: item.pairs)
                left -= item.size
            }
        } else {
            let best = Self.heaviestFirst(kinds.sorted { $0.weight > $1.weight }, upTo: reach * step)
            for (kind, pairs) in best.pairs { side += Array(repeating: Double(kind) / 100, count: pairs) }
            amount = best.total
        }
        side.sort(by: >)
        return PlateLoad(unit: unit, target: target, bar: bar, perSide: side, total: bar + 2 * Double(amount) / 100)
    }

    static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    /// The heaviest load of at most `limit` (hundredths a side) from `kinds` (heaviest first): a depth-first search that
    /// tries the most pairs of each kind first (its first answer is the greedy one), skips what cannot beat the best
    /// found, and stops at an exact load or after `searchSteps` steps.
    static func heaviestFirst(_ kinds: [(weight: Int, pairs: Int)], upTo limit: Int) -> (total: Int, pairs: [(Int, Int)]) {
        var suffix = [Int](repeating: 0, count: kinds.count + 1)
        for index in kinds.indices.reversed() { suffix[index] = suffix[index + 1] + kinds[index].weight * kinds[index].pairs }
        let reachable = min(limit, suffix[0])
        var best = (total: -1, counts: [Int]()), counts = [Int](repeating: 0, count: kinds.count), steps = 0
        func search(_ index: Int, _ total: Int) {
            steps += 1
            if total > best.total { best = (total, counts) }
            guard index < kinds.count, best.total < reachable, steps < searchSteps,
                total + min(limit - total, suffix[index]) > best.total
            else { return }
            let kind = kinds[index]
            for pairs in stride(from: min(kind.pairs, (limit - total) / kind.weight), through: 0, by: -1) {
                counts[index] = pairs
                search(index + 1, total + pairs * kind.weight)
                counts[index] = 0
                if best.total == reachable || steps >= searchSteps { return }
            }
        }
        search(0, 0)
        return (
            max(best.total, 0),
            kinds.indices.compactMap { best.counts.isEmpty || best.counts[$0] == 0 ? nil : (kinds[$0].weight, best.counts[$0]) }
        )
    }
}

/// A bar loaded for a target weight.
public struct PlateLoad: Sendable, Hashable {
    public var unit: MassUnit
    public var target: Double
    public var bar: Double
    /// The plates on each side, heaviest first.
    public var perSide: [Double]
    /// What the bar weighs loaded: the target when the plates make it, else the nearest below.
    public var total: Double

    public var isExact: Bool { abs(total - target) < 0.005 }

    /// "20 kg bar + 25, 10, 2.5 each side" or "the bar alone".
    public var text: String {
        let bar = "\(Mass.format(self.bar, upTo: 2)) \(unit.rawValue) bar"
        guard !perSide.isEmpty else { return "\(bar) alone" }
        return "\(bar) + \(perSide.map { Mass.format($0, upTo: 2) }.joined(separator: ", ")) each side"
    }
}

extension PlannedExercise {
    /// Reads an exercise of a routine as the CLI takes it: `Squat:3x5@100` (3 sets of 5 at 100 in `unit`),
    /// `Leg Curl:3x12`, or `Plank:3` (3 sets).
    public static func parse(_ text: String, unit: MassUnit) throws -> PlannedExercise {
        guard let colon = text.lastIndex(of: ":") else {
            throw CinnError.invalid(
                "exercise", "\"\(text)\" is not an exercise with its sets: write NAME:SETSxREPS[@WEIGHT], like Squat:3x5@100")
        }
        let name = String(text[..<colon])
        var target = Substring(text[text.index(after: colon)...].lowercased())
        var weight: Mass?
        if let at = target.firstIndex(of: "@") {
            guard let value = Double(target[target.index(after: at)...].replacingOccurrences(of: ",", with: ".")) else {
                throw CinnError.invalid("weight", "\"\(text)\": the weight after @ is not a number")
            }
            weight = Mass(value, unit)
            target = target[..<at]
        }
        let parts = target.split(separator: "x", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let sets = Int(parts[0]), parts.count == 1 || Int(parts[1]) != nil else {
            throw CinnError.invalid(
                "sets", "\"\(text)\" is not an exercise with its sets: write NAME:SETSxREPS[@WEIGHT], like Squat:3x5@100")
        }
        return PlannedExercise(exercise: name, sets: sets, reps: parts.count == 2 ? Int(parts[1]) : nil, weight: weight)
    }
}
