import CinnCharts
import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation
import Mustache

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
    struct Option { let value: String; let label: String; let selected: Bool }
    let unit: String
    let goal: String?
    let goalRate: String?
    let goalSet: String?
    let units: [Option]
    let methods: [Option]
    let timeZones: [TimeZoneOption]
    let energyTarget: String
    let energyUnits: [Option]
    let glucoseUnits: [Option]
    let formError: String?
    /// The goal form's fields, filled with the goal there is.
    let goalWeightValue: String
    let goalRateValue: String

    init(settings: UserSettings, goal: Goal?, formError: String? = nil) {
        let unit = settings.displayUnit
        self.unit = unit.rawValue
        self.goal = goal.map { $0.weight.formatted(in: unit) }
        goalRate = goal?.plannedRate.map { $0.formatted(in: unit, decimals: unit.displayDecimals + 1) }
        goalSet = goal.map { DashboardPage.shortDate($0.setOn) }
        units = [("kg", "Kilograms (kg)"), ("lb", "Pounds (lb)"), ("st", "Stones (st)")].map {
            Option(value: $0.0, label: $0.1, selected: $0.0 == unit.rawValue)
        }
        methods = [("exact", "Exact: every weigh-in as weighed"), ("pencil", "Rounded like The Hacker's Diet's pencil-and-paper method")].map {
            Option(value: $0.0, label: $0.1, selected: $0.0 == settings.trendMethod.rawValue)
        }
        timeZones = TimeZoneOption.list(selected: settings.timeZoneIdentifier ?? settings.timeZone.identifier)
        goalWeightValue = goal.map { Mass.format($0.weight.value(in: unit), decimals: unit.displayDecimals) } ?? ""
        goalRateValue = goal?.plannedRate.map { Mass.format($0.value(in: unit), decimals: unit.displayDecimals + 1) } ?? ""
        energyTarget = settings.energyTargetKcal.map { NutritionText.decimal($0, places: 0) } ?? ""
        glucoseUnits = GlucoseUnit.allCases.map { Option(value: $0.rawValue, label: $0.rawValue, selected: $0 == settings.glucoseUnit) }
        energyUnits = [("kcal", "Kilocalories (kcal)"), ("kJ", "Kilojoules (kJ)")].map {
            Option(value: $0.0, label: $0.1, selected: $0.0 == settings.energyUnit.rawValue)
        }
        self.formError = formError
    }
}
