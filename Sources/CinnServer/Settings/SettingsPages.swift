import CinnCharts
import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation

/// The More tab's page.
struct MorePage {
    let accountName: String?
    let isAdmin: Bool
}

/// The time zones a person picks from: the system's IANA names, the chosen one selected (and listed even if unknown).
struct TimeZoneOption {
    let value: String
    let selected: Bool

    static let known = TimeZone.knownTimeZoneIdentifiers.sorted()

    static func list(selected: String) -> [TimeZoneOption] {
        (known.contains(selected) ? known : [selected] + known).map { TimeZoneOption(value: $0, selected: $0 == selected) }
    }
}

/// The goal and settings forms.
struct SettingsPage {
    struct Option {
        let value: String
        let label: String
        let selected: Bool
    }
    let unit: String
    let goal: String?
    let goalRate: String?
    let goalSet: String?
    let units: [Option]
    let methods: [Option]
    let timeZones: [TimeZoneOption]
    /// Today's calorie target, set on the Targets page.
    let energyTarget: String?
    let energyUnits: [Option]
    let glucoseUnits: [Option]
    let insulinPeak: String
    let insulinDuration: String
    let formError: String?
    /// The goal form's fields, filled with the goal there is.
    let goalWeightValue: String
    let goalRateValue: String

    init(settings: UserSettings, goal: Goal?, energyTargetKcal: Double?, formError: String? = nil) {
        let unit = settings.displayUnit
        self.unit = unit.rawValue
        self.goal = goal.map { $0.weight.formatted(in: unit) }
        goalRate = goal?.plannedRate.map { $0.formatted(in: unit, decimals: unit.displayDecimals + 1) }
        goalSet = goal.map { DashboardPage.shortDate($0.setOn) }
        units = [("kg", "Kilograms (kg)"), ("lb", "Pounds (lb)"), ("st", "Stones (st)")].map {
            Option(value: $0.0, label: $0.1, selected: $0.0 == unit.rawValue)
        }
        methods = [("exact", "Exact: every weigh-in as weighed"), ("pencil", "Rounded like The Hacker's Diet's pencil-and-paper method")]
            .map {
                Option(value: $0.0, label: $0.1, selected: $0.0 == settings.trendMethod.rawValue)
            }
        timeZones = TimeZoneOption.list(selected: settings.timeZoneIdentifier ?? settings.timeZone.identifier)
        goalWeightValue = goal.map { Mass.format($0.weight.value(in: unit), decimals: unit.displayDecimals) } ?? ""
        goalRateValue = goal?.plannedRate.map { Mass.format($0.value(in: unit), decimals: unit.displayDecimals + 1) } ?? ""
        energyTarget = energyTargetKcal.map { NutritionText.energy($0, settings.energyUnit) }
        glucoseUnits = GlucoseUnit.allCases.map { Option(value: $0.rawValue, label: $0.rawValue, selected: $0 == settings.glucoseUnit) }
        insulinPeak = settings.insulinModel.peakMinutes.wholeText
        insulinDuration = settings.insulinModel.durationMinutes.wholeText
        energyUnits = [("kcal", "Kilocalories (kcal)"), ("kJ", "Kilojoules (kJ)")].map {
            Option(value: $0.0, label: $0.1, selected: $0.0 == settings.energyUnit.rawValue)
        }
        self.formError = formError
    }
}

/// The daily calorie target's form, the one place it is set: what it follows (the data, the formula, or the person's
/// own number) and its floor, with today's target, how it is made and how it last moved.
struct CalorieTargetCard {
    let target: String?
    let detail: String?
    let change: String?
    /// Why there is no target: no profile, or no weight yet.
    let missing: String?
    let choices: [Choice]
    let ownKcal: String
    let floor: String
    let defaultFloor: String
    let ownError: String?
    let floorError: String?
    let formError: String?

    /// - Parameter form: what was typed, when the form comes back with an error.
    init(report: EnergyReport, form: CalorieTargetForm? = nil, problem: FormProblem? = nil) {
        let settings = report.settings
        let unit = settings.energyUnit
        target = report.target.map { NutritionText.energy($0.kcal, unit) }
        detail = report.target.map { target in
            ([CalorieTargetText.detail(target, unit: unit)] + [CalorieTargetText.maintenance(report)].compactMap { $0 })
                .joined(separator: "; ")
        }
        change = report.targetChange?.message(in: unit)
        missing =
            report.target != nil
            ? nil
            : settings.profile == nil
                ? "Set up your profile for a target from the formula, or type your own number."
                : "Add a weigh-in for a target from the formula, or type your own number."
        let saved = settings.energyTargetKcal != nil ? "own" : settings.targetBasis.rawValue
        let chosen = form?.follows ?? saved
        let window = AdaptiveExpenditure.defaultWindowDays / 7
        choices = [
            (
                "adaptive", "Follow my data (recommended)",
                "The formula until \(window) weeks of complete days give an estimate of what you burn; then the best estimate, "
                    + "updated on Mondays, with the change shown."
            ),
            (
                "formula", "The formula only",
                "Mifflin–St Jeor (or Katch–McArdle with a recent body-fat value) × your activity; it moves with your weight."
            ),
            ("own", "My own number", "A daily target you or your dietitian chose; nothing moves it."),
        ].map { Choice(value: $0.0, label: $0.1, detail: $0.2, selected: $0.0 == chosen) }
        ownKcal = form?.ownKcal ?? settings.energyTargetKcal.map { Mass.format($0, decimals: 0) } ?? ""
        floor = form?.floor ?? settings.energyFloorKcal.map { Mass.format($0, decimals: 0) } ?? ""
        defaultFloor =
            settings.profile.map { "\(Int(EnergyTarget.defaultFloorKcal($0.sex))) kcal" } ?? "1200 kcal (women) or 1500 kcal (men)"
        ownError = problem?.message(for: "own_kcal")
        floorError = problem?.message(for: "floor")
        formError = problem?.general(besides: ["own_kcal", "floor"])
    }

    /// The settings change a submitted form asks for: the basis, the own number (cleared unless chosen) and the floor.
    static func update(_ form: CalorieTargetForm) throws -> ProfileUpdate {
        let follows = form.follows ?? "adaptive"
        let floor = try form.$floor.number().map { kcal in try EnergyTarget.validFloor(kcal, field: "floor") }
        if follows == "own" {
            guard let own = try form.$ownKcal.number() else { throw CinnError.invalid("own_kcal", "type your own daily target in kcal") }
            return ProfileUpdate(
                energyFloorKcal: .some(floor), energyTargetKcal: .some(try UserSettings.validEnergyTarget(own, field: "own_kcal")))
        }
        let basis = try TargetBasis.parse(follows, field: "follows")
        return ProfileUpdate(targetBasis: basis.rawValue, energyFloorKcal: .some(floor), energyTargetKcal: .some(nil))
    }
}

/// The nutrition targets form: the three macros (grams, percent of energy, grams per kilogram for protein) and each
/// nutrient's minimum and maximum over its Daily Value.
struct TargetsPage {
    struct Macro {
        let key: String
        let label: String
        let value: String
        let kinds: [SettingsPage.Option]
        let grams: String?
        let error: String?
    }

    struct Row {
        let key: String
        let name: String
        let unit: String
        let minimum: String
        let maximum: String
        /// The Daily Value bound that applies when both are left empty.
        let minimumPlaceholder: String
        let maximumPlaceholder: String
        let error: String?
    }

    let calories: CalorieTargetCard
    let macros: [Macro]
    let rows: [Row]
    let formError: String?
    let energyNote: String

    /// The form's fields: what `form` holds after a failed save, else the targets there are.
    init(
        targets: NutrientTargets, goals: [NutrientGoal], calories: CalorieTargetCard, energyTargetKcal: Double?, form: TargetsForm? = nil,
        problem: FormProblem? = nil
    ) {
        self.calories = calories
        func number(_ value: Double?) -> String { value.map { JSONText.compactNumber(($0 * 100).rounded() / 100) } ?? "" }
        let byKey = Dictionary(goals.map { ($0.nutrient.key, $0) }, uniquingKeysWith: { first, _ in first })
        macros = [(Nutrient.protein, targets.protein), (.carbohydrate, targets.carbohydrate), (.fat, targets.fat)].map { nutrient, target in
            let (value, kind): (Double?, String) =
                switch target {
                case .grams(let grams)?: (grams, "g")
                case .percentOfEnergy(let percent)?: (percent, "percent")
                case .gramsPerKilogram(let perKilogram)?: (perKilogram, "per_kg")
                case nil: (nil, "g")
                }
            let chosen = form?.macros[nutrient.key]?.kind ?? kind
            var kinds = [("g", "g a day"), ("percent", "% of energy")]
            if nutrient == .protein { kinds.append(("per_kg", "g per kg of body weight")) }
            let goal = byKey[nutrient.key].flatMap { $0.macro == nil ? nil : $0 }
            return Macro(
                key: nutrient.key, label: nutrient.name, value: form?.macros[nutrient.key]?.amount.wrappedValue ?? number(value),
                kinds: kinds.map { SettingsPage.Option(value: $0.0, label: $0.1, selected: $0.0 == chosen) },
                grams: goal.map { "Today: \(NutritionText.number($0.target)) g" }, error: problem?.message(for: nutrient.key))
        }
        rows = Nutrient.all.filter { !Nutrient.macros.contains($0) }.map { nutrient in
            let mine = targets.limits[nutrient.key], fallback = NutrientTargets.defaultLimit(nutrient)
            return Row(
                key: nutrient.key, name: nutrient.name, unit: nutrient.unit.rawValue,
                minimum: form?.minimum[nutrient.key]?.wrappedValue ?? number(mine?.minimum),
                maximum: form?.maximum[nutrient.key]?.wrappedValue ?? number(mine?.maximum),
                minimumPlaceholder: number(fallback?.minimum), maximumPlaceholder: number(fallback?.maximum),
                error: problem?.message(for: "nutrients.\(nutrient.key).min") ?? problem?.message(for: "nutrients.\(nutrient.key).max"))
        }
        formError = problem?.general(
            besides: ["protein", "carbohydrate", "fat"] + Nutrient.all.flatMap { ["nutrients.\($0.key).min", "nutrients.\($0.key).max"] })
        energyNote =
            energyTargetKcal.map { "Percentages are of today's calorie target, \($0.wholeText) kcal." }
            ?? "Percentages need a calorie target: choose one above."
    }

    /// The targets a submitted form gives, unchecked; a number that is not one names its field.
    static func targets(_ form: TargetsForm) throws -> NutrientTargets {
        var targets = NutrientTargets()
        for nutrient in [Nutrient.protein, .carbohydrate, .fat] {
            guard let macro = form.macros[nutrient.key], let value = try macro.amount.number() else { continue }
            let target: MacroTarget =
                switch macro.kind {
                case "percent": .percentOfEnergy(value)
                case "per_kg": .gramsPerKilogram(value)
                default: .grams(value)
                }
            switch nutrient {
            case .protein: targets.protein = target
            case .carbohydrate: targets.carbohydrate = target
            default: targets.fat = target
            }
        }
        for nutrient in Nutrient.all where !Nutrient.macros.contains(nutrient) {
            let minimum = try form.minimum[nutrient.key]?.number(), maximum = try form.maximum[nutrient.key]?.number()
            if minimum != nil || maximum != nil { targets.limits[nutrient.key] = NutrientLimit(minimum: minimum, maximum: maximum) }
        }
        return targets
    }
}

/// The calorie target form: what the target follows, the own number and the floor.
struct CalorieTargetForm: Decodable {
    @Field var follows: String?
    @Field var ownKcal: String?
    @Field var floor: String?

    enum CodingKeys: String, CodingKey {
        case follows, floor
        case ownKcal = "own_kcal"
    }
}

/// The nutrition targets form: each macro's amount (`protein`) and kind (`protein_kind`), and each nutrient's
/// minimum and maximum (`min.fibre`, `max.sodium`).
struct TargetsForm: Decodable {
    struct Macro {
        let amount: Field
        let kind: String?
    }

    /// By nutrient key.
    var macros: [String: Macro] = [:]
    var minimum: [String: Field] = [:]
    var maximum: [String: Field] = [:]

    init(from decoder: any Decoder) throws {
        let form = try decoder.container(keyedBy: FormKey.self)
        for nutrient in [Nutrient.protein, .carbohydrate, .fat] {
            macros[nutrient.key] = Macro(amount: try form.field(nutrient.key), kind: try form.field("\(nutrient.key)_kind").wrappedValue)
        }
        for nutrient in Nutrient.all where !Nutrient.macros.contains(nutrient) {
            minimum[nutrient.key] = try form.field("min.\(nutrient.key)")
            maximum[nutrient.key] = try form.field("max.\(nutrient.key)")
        }
    }
}
