import CinnCore

/// Which columns of a MyFitnessPal CSV hold what, found by name in its header (docs/FORMATS.md §4).
enum MyFitnessPalColumns {
    case nutrition(Nutrition)
    case measurement(Measurement)
    case exercise(Exercise)

    var kind: MyFitnessPalExport.FileKind {
        switch self {
        case .nutrition: .nutrition
        case .measurement: .measurement
        case .exercise: .exercise
        }
    }

    /// The column of the rows' dates.
    var date: Int {
        switch self {
        case .nutrition(let columns): columns.date
        case .measurement(let columns): columns.date
        case .exercise(let columns): columns.date
        }
    }

    /// The layout of a `kind` file; nil when a column it needs is missing.
    init?(kind: MyFitnessPalExport.FileKind, header: [String]) {
        let names = Names(header)
        let columns: Self? =
            switch kind {
            case .nutrition: Nutrition(names).map(Self.nutrition)
            case .measurement: Measurement(names).map(Self.measurement)
            case .exercise: Exercise(names).map(Self.exercise)
            }
        guard let columns else { return nil }
        self = columns
    }

    /// The layout of `header`, whichever of the three it is (for a file whose name does not say).
    init?(header: [String]) {
        guard let columns = MyFitnessPalExport.FileKind.allCases.lazy.compactMap({ Self(kind: $0, header: header) }).first
        else { return nil }
        self = columns
    }

    /// The columns a real export of `kind` writes, for error messages.
    static func expected(_ kind: MyFitnessPalExport.FileKind) -> String {
        switch kind {
        case .nutrition:
            "Date, Meal, Time (in some exports), Calories, \(Nutrition.table.dropFirst().map { $0.names[0] }.joined(separator: ", ")), Note (in some exports)"
        case .measurement:
            "Date, Weight (and other measurements)"
        case .exercise:
            "Date, Exercise, Type, Exercise Calories, Exercise Minutes, Sets, Reps Per Set, Kilograms or Pounds, Steps, Note"
        }
    }

    /// The columns without which a `kind` file cannot be read.
    static func required(_ kind: MyFitnessPalExport.FileKind) -> String {
        switch kind {
        case .nutrition: "Date, Meal and Calories"
        case .measurement: "Date and Weight"
        case .exercise: "Date, Exercise and Type"
        }
    }

    /// Header names looked up without regard to case or surrounding spaces; the first of equal names wins.
    struct Names {
        private var positions: [String: Int] = [:]

        init(_ header: [String]) {
            for (index, name) in header.enumerated() {
                let key = Self.key(name)
                if positions[key] == nil { positions[key] = index }
            }
        }

        /// The column of the first of `names` the header has.
        subscript(_ names: String...) -> Int? { self[names] }

        subscript(_ names: [String]) -> Int? { names.lazy.compactMap { positions[Self.key($0)] }.first }

        private static func key(_ name: String) -> String { name.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// `Date,Meal,[Time,]Calories,Fat (g),…,Iron[,Note]`: shapes N1, N2 and N3.
    struct Nutrition {
        /// A nutrient column; `percentDailyValue` when it holds % of the FDA Daily Value instead of an amount.
        struct Amount {
            let index: Int
            let header: String
            let nutrient: Nutrient
            let percentDailyValue: Bool
        }

        /// The nutrient columns: the names MyFitnessPal writes (first) and plain ones, the catalogue key,
        /// and whether the value is % Daily Value. Amounts are in the catalogue's units: kcal, g and mg.
        static let table: [(names: [String], key: String, percentDailyValue: Bool)] = [
            (["Calories"], "energy", false),
            (["Fat (g)", "Fat"], "fat", false),
            (["Saturated Fat", "Saturated Fat (g)"], "saturated_fat", false),
            (["Polyunsaturated Fat", "Polyunsaturated Fat (g)"], "polyunsaturated_fat", false),
            (["Monounsaturated Fat", "Monounsaturated Fat (g)"], "monounsaturated_fat", false),
            (["Trans Fat", "Trans Fat (g)"], "trans_fat", false),
            (["Cholesterol", "Cholesterol (mg)"], "cholesterol", false),
            (["Sodium (mg)", "Sodium"], "sodium", false),
            (["Potassium", "Potassium (mg)"], "potassium", false),
            (["Carbohydrates (g)", "Carbohydrates"], "carbohydrate", false),
            (["Fiber", "Fiber (g)"], "fiber", false),
            (["Sugar", "Sugar (g)"], "sugars", false),
            (["Protein (g)", "Protein"], "protein", false),
            (["Vitamin A"], "vitamin_a", true),
            (["Vitamin C"], "vitamin_c", true),
            (["Calcium"], "calcium", true),
            (["Iron"], "iron", true),
        ]

        let date: Int
        let meal: Int
        let time: Int?
        let note: Int?
        let amounts: [Amount]
        /// The columns whose values identify a row, in a fixed order whatever the file's.
        let identity: [Int]

        init?(_ names: Names) {
            guard let date = names["Date"], let meal = names["Meal"], names["Calories"] != nil else { return nil }
            self.date = date
            self.meal = meal
            time = names["Time"]
            note = names["Note"]
            amounts = Self.table.compactMap { column in
                guard let index = names[column.names], let nutrient = Nutrient.named(column.key) else { return nil }
                return Amount(index: index, header: column.names[0], nutrient: nutrient, percentDailyValue: column.percentDailyValue)
            }
            identity = [date, meal] + [time, note].compactMap { $0 } + amounts.map(\.index)
        }
    }

    /// `Date,Weight`, perhaps with other measurements; the weight's unit is written nowhere.
    struct Measurement {
        let date: Int
        let weight: Int

        init?(_ names: Names) {
            guard let date = names["Date"], let weight = names["Weight"] else { return nil }
            self.date = date
            self.weight = weight
        }

        var identity: [Int] { [date, weight] }
    }

    /// `Date,Exercise,Type,Exercise Calories,Exercise Minutes,Sets,Reps Per Set,Kilograms|Pounds,Steps,Note`.
    struct Exercise {
        let date: Int
        let name: Int
        let type: Int
        let energy: Int?
        let minutes: Int?
        let sets: Int?
        let repsPerSet: Int?
        let weight: Int?
        /// The unit the weight column's name says: `Kilograms` or `Pounds`.
        let weightUnit: MassUnit?
        let steps: Int?
        let note: Int?
        let identity: [Int]

        init?(_ names: Names) {
            guard let date = names["Date"], let name = names["Exercise"], let type = names["Type"] else { return nil }
            self.date = date
            self.name = name
            self.type = type
            energy = names["Exercise Calories", "Calories"]
            minutes = names["Exercise Minutes", "Minutes"]
            sets = names["Sets"]
            repsPerSet = names["Reps Per Set"]
            if let kilograms = names["Kilograms"] {
                (weight, weightUnit) = (kilograms, .kilograms)
            } else if let pounds = names["Pounds"] {
                (weight, weightUnit) = (pounds, .pounds)
            } else {
                (weight, weightUnit) = (nil, nil)
            }
            steps = names["Steps"]
            note = names["Note"]
            identity = [date, name, type] + [energy, minutes, sets, repsPerSet, weight, steps, note].compactMap { $0 }
        }
    }
}
