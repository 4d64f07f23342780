import Foundation

/// An exercise as a journal keeps it: its row, id and name, the exercise it is an alias of, and the last day it
/// was done under this name.
public struct StoredExercise: Sendable, Hashable {
    public var rowID: Int64
    public var id: UUID
    public var name: String
    public var aliasOf: Int64?
    public var lastDay: LocalDate?

    public init(rowID: Int64, id: UUID, name: String, aliasOf: Int64?, lastDay: LocalDate?) {
        self.rowID = rowID
        self.id = id
        self.name = name
        self.aliasOf = aliasOf
        self.lastDay = lastDay
    }
}

/// One exercise with the names merged into it, as the lifts pages and the CLI show it.
public struct ExerciseCluster: Sendable, Hashable {
    public var root: StoredExercise
    public var aliases: [StoredExercise]

    public init(root: StoredExercise, aliases: [StoredExercise]) {
        self.root = root
        self.aliases = aliases
    }

    /// Every row whose sets count as this exercise.
    public var rows: [Int64] { [root.rowID] + aliases.map(\.rowID) }
    public var lastDay: LocalDate? { ([root.lastDay] + aliases.map(\.lastDay)).compactMap { $0 }.max() }

    /// A journal's exercises, aliases folded into the exercise they name, most recently done first.
    public static func clusters(_ exercises: [StoredExercise]) -> [ExerciseCluster] {
        let aliases = Dictionary(grouping: exercises.filter { $0.aliasOf != nil }) { $0.aliasOf ?? 0 }
        let never = LocalDate(dayNumber: .min / 2)
        return exercises.filter { $0.aliasOf == nil }
            .map { ExerciseCluster(root: $0, aliases: aliases[$0.rowID] ?? []) }
            .sorted { ($0.lastDay ?? never, $1.root.name) > ($1.lastDay ?? never, $0.root.name) }
    }

    /// Every name of `clusters` by its `ExerciseKey`: for finding many names among the same clusters, each name
    /// folded once.
    public static func byKey(_ clusters: [ExerciseCluster]) -> [String: ExerciseCluster] {
        var index: [String: ExerciseCluster] = [:]
        for cluster in clusters {
            for exercise in [cluster.root] + cluster.aliases { index[ExerciseKey.normalised(exercise.name)] = cluster }
        }
        return index
    }

    /// The exercise named `name` (any of its names, compared as `ExerciseKey` does) or with that id among `clusters`;
    /// not found names up to five exercises that share a word with it.
    public static func named(_ name: String, among clusters: [ExerciseCluster]) throws -> ExerciseCluster {
        if let id = UUID(text: name), let cluster = clusters.first(where: { $0.root.id == id || $0.aliases.contains { $0.id == id } }) {
            return cluster
        }
        let key = ExerciseKey.normalised(name)
        if let cluster = clusters.first(where: { cluster in
            ([cluster.root] + cluster.aliases).contains { ExerciseKey.normalised($0.name) == key }
        }) {
            return cluster
        }
        let words = Set(key.split(separator: " "))
        let similar = clusters.filter { cluster in
            !words.isDisjoint(with: ExerciseKey.normalised(cluster.root.name).split(separator: " "))
        }.prefix(5).map { "\"\($0.root.name)\"" }
        let hint = similar.isEmpty ? "" : "; did you mean \(similar.joined(separator: ", "))?"
        throw CinnError.notFound("no exercise named \"\(name)\"\(hint)")
    }
}

/// The exercise page's content: the exercise, its report, and the workouts its current and best estimates came from.
public struct ExercisePage: Sendable {
    public var exercise: ExerciseCluster
    public var report: ExerciseReport
    public var currentWorkout: UUID?
    public var bestWorkout: UUID?
    public var unit: MassUnit

    public init(exercise: ExerciseCluster, report: ExerciseReport, currentWorkout: UUID? = nil, bestWorkout: UUID? = nil, unit: MassUnit) {
        self.exercise = exercise
        self.report = report
        self.currentWorkout = currentWorkout
        self.bestWorkout = bestWorkout
        self.unit = unit
    }
}
