import Foundation

/// One exercise of the built-in catalogue: what it is called, what it is done with, what it trains first,
/// and what a set of it records.
public struct CatalogueExercise: Sendable, Hashable {
    public enum Equipment: String, Sendable, CaseIterable {
        case barbell, dumbbell, machine, cable, bodyweight, kettlebell, band, other
        case smithMachine = "smith machine"
        case ezBar = "ez bar"
        case trapBar = "trap bar"
        case cardioMachine = "cardio machine"
    }

    public enum Muscle: String, Sendable, CaseIterable {
        case chest, back, lats, shoulders, biceps, triceps, forearms, traps, quads, hamstrings, glutes, calves
        case abductors, adductors, abs, obliques, neck, cardio
        case lowerBack = "lower back"
        case fullBody = "full body"
    }

    /// What a set records: weight and reps (a bench press), reps alone (a push-up), a time (a plank), or a
    /// distance in a time (a run).
    public enum Kind: String, Sendable, CaseIterable {
        case weightReps = "weight_reps"
        case reps, duration
        case distanceDuration = "distance_duration"
    }

    public let name: String
    public let equipment: Equipment
    public let primaryMuscle: Muscle
    public let kind: Kind
    /// Other names of the exercise, as other apps and people write them ("Bench Press (Barbell)").
    public let aliases: [String]
}

/// The exercises Cinn knows before a person logs any (`exercises.tsv`, embedded in the program), found by any
/// of their names as `ExerciseKey` matches them: "Bench Press (Barbell)" from Strong and "Flat Barbell Bench
/// Press" from FitNotes are both the catalogue's "Barbell Bench Press".
public struct ExerciseCatalogue: Sendable {
    public let exercises: [CatalogueExercise]
    /// `ExerciseKey.normalised` of every name and alias → the exercise's index.
    private let indexByKey: [String: Int]
    /// The words of each exercise's names as `ExerciseKey` folds them, the exercise's own name first, for `search`.
    private let nameWords: [[[Substring]]]

    /// The catalogue built into Cinn.
    public static let builtIn: ExerciseCatalogue = {
        // The file is part of the program and its tests read it; a mistake in it is a programming error.
        do {
            return try ExerciseCatalogue(tsv: String(decoding: PackageResources.exercises_tsv, as: UTF8.self))
        } catch {
            preconditionFailure("exercises.tsv: \(error)")
        }
    }()

    /// Reads the catalogue's format: `#` comment lines, then one exercise a line with five tab-separated fields
    /// (name, equipment, primary muscle, kind, aliases separated by `;`). Refuses an unknown value or a name
    /// that matches another exercise's, naming the line.
    public init(tsv text: String) throws {
        var exercises: [CatalogueExercise] = []
        var indexByKey: [String: Int] = [:]
        var nameWords: [[[Substring]]] = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5 else {
                throw CinnError.invalid("line \(number)", "line \(number) has \(fields.count) fields, not 5")
            }
            guard let equipment = CatalogueExercise.Equipment(rawValue: fields[1]) else {
                throw CinnError.invalid("line \(number)", "line \(number): no equipment \"\(fields[1])\"")
            }
            guard let muscle = CatalogueExercise.Muscle(rawValue: fields[2]) else {
                throw CinnError.invalid("line \(number)", "line \(number): no muscle \"\(fields[2])\"")
            }
            guard let kind = CatalogueExercise.Kind(rawValue: fields[3]) else {
                throw CinnError.invalid("line \(number)", "line \(number): no kind \"\(fields[3])\"")
            }
            let aliases = fields[4].split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let exercise = CatalogueExercise(name: fields[0], equipment: equipment, primaryMuscle: muscle, kind: kind, aliases: aliases)
            var words: [[Substring]] = []
            for name in [exercise.name] + aliases {
                let key = ExerciseKey.normalised(name)
                words.append(key.split(separator: " "))
                guard !key.isEmpty else { throw CinnError.invalid("line \(number)", "line \(number): an empty name") }
                if let other = indexByKey[key] {
                    let owner = other < exercises.count ? exercises[other].name : exercise.name
                    throw CinnError.invalid("line \(number)", "line \(number): \"\(name)\" is already \(owner)")
                }
                indexByKey[key] = exercises.count
            }
            exercises.append(exercise)
            nameWords.append(words)
        }
        self.exercises = exercises
        self.indexByKey = indexByKey
        self.nameWords = nameWords
    }

    /// The exercise any of whose names matches `name` as `ExerciseKey` compares names.
    public func exercise(named name: String) -> CatalogueExercise? {
        indexByKey[ExerciseKey.normalised(name)].map { exercises[$0] }
    }

    /// The exercises whose name or an alias has a word starting with each word of `query`, best first: the
    /// fewest other words in the closest name ("bench" finds "Bench Press", an alias of Barbell Bench Press, as
    /// soon as "Bench Dip"), then a match of the exercise's own name before an alias's, then by name.
    public func search(_ query: String, limit: Int = 20) -> [CatalogueExercise] {
        let terms = ExerciseKey.normalised(query).split(separator: " ")
        guard !terms.isEmpty else { return [] }
        func extraWords(_ words: [Substring]) -> Int? {
            guard terms.allSatisfy({ term in words.contains { $0.hasPrefix(term) } }) else { return nil }
            return words.count - terms.count
        }
        let ranked = zip(exercises, nameWords).compactMap { exercise, names -> (rank: (Int, Int), exercise: CatalogueExercise)? in
            let own = extraWords(names[0])
            guard let fewest = names.compactMap(extraWords).min() else { return nil }
            return ((fewest, own == nil ? 1 : 0), exercise)
        }
        return ranked.sorted { $0.rank != $1.rank ? $0.rank < $1.rank : $0.exercise.name < $1.exercise.name }
            .prefix(limit).map(\.exercise)
    }
}

extension ExerciseCatalogue {
    /// The names a person picks an exercise from, sorted: the journal's exercises (`names`) that are not in the
    /// catalogue under any of its names, and the catalogue's. Only the journal's names are folded here.
    public func suggestions(adding names: [String]) -> [String] {
        var seen = Set<String>()
        let own = names.filter { exercise(named: $0) == nil && seen.insert(ExerciseKey.normalised($0)).inserted }
        return (own + exercises.map(\.name)).sorted()
    }

    /// The name a set logged as `name` is stored under, so that it joins the history it belongs to: `name` when
    /// the journal has an exercise of that name; else, for a catalogue exercise, the name of the journal's
    /// exercise under any of its names ("Bench Press" logged where Strong imported "Bench Press (Barbell)"), or
    /// the catalogue's own name; else `name`, a new exercise.
    public func storedName(for name: String, among clusters: [ExerciseCluster]) -> String {
        var journalNames: [String: String] = [:]
        for cluster in clusters {
            for exercise in [cluster.root] + cluster.aliases { journalNames[ExerciseKey.normalised(exercise.name)] = exercise.name }
        }
        if journalNames[ExerciseKey.normalised(name)] != nil { return name }
        guard let known = exercise(named: name) else { return name }
        for other in [known.name] + known.aliases {
            if let stored = journalNames[ExerciseKey.normalised(other)] { return stored }
        }
        return known.name
    }
}
