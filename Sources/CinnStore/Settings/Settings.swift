import CinnCore
import Foundation
import SQLKit

extension Store {
    /// The user's settings, or the defaults when never saved.
    public func settings(user: UserID) async throws -> UserSettings {
        try await withConnection { try await settings($0, user: user) }
    }

    func settings(_ db: any SQLDatabase, user: UserID) async throws -> UserSettings {
        guard
            let row = try await db.raw(
                """
                SELECT display_unit, trend_method, time_zone, energy_target_kcal, energy_unit, sex, birth_day, height_cm,
                    activity_level, length_unit, target_basis, energy_floor_kcal, onboarded, one_rep_max_formula, glucose_unit,
                    plate_unit, bar_weight, plates, nutrient_targets, insulin_peak_minutes, insulin_duration_minutes
                FROM user_settings WHERE user_id = \(bind: user.rawValue)
                """
            ).first()
        else { return UserSettings() }
        var profile: Profile?
        if let sex = try row.decode(column: "sex", as: String?.self).flatMap(Sex.init(rawValue:)),
            let birthDay = try row.decode(column: "birth_day", as: Int?.self),
            let height = try row.decode(column: "height_cm", as: Double?.self),
            let activity = try row.decode(column: "activity_level", as: String?.self).flatMap(ActivityLevel.init(rawValue:))
        {
            profile = Profile(sex: sex, birthDate: LocalDate(dayNumber: birthDay), height: Height(centimetres: height), activity: activity)
        }
        var plateSet: PlateSet?
        if let unit = try row.decode(column: "plate_unit", as: String?.self).flatMap(MassUnit.init(rawValue:)),
            let bar = try row.decode(column: "bar_weight", as: Double?.self),
            let plates = try? PlateSet.plates(try row.decode(column: "plates", as: String?.self) ?? "")
        {
            plateSet = PlateSet(unit: unit, bar: bar, plates: plates)
        }
        var settings = UserSettings(
            displayUnit: MassUnit(rawValue: try row.decode(column: "display_unit", as: String.self)) ?? .kilograms,
            trendMethod: TrendMethod(rawValue: try row.decode(column: "trend_method", as: String.self)) ?? .exact,
            timeZoneIdentifier: try row.decode(column: "time_zone", as: String?.self),
            energyTargetKcal: try row.decode(column: "energy_target_kcal", as: Double?.self),
            energyUnit: EnergyUnit(rawValue: try row.decode(column: "energy_unit", as: String.self)) ?? .kilocalories,
            profile: profile,
            lengthUnit: LengthUnit(rawValue: try row.decode(column: "length_unit", as: String.self)) ?? .centimetres,
            targetBasis: TargetBasis(rawValue: try row.decode(column: "target_basis", as: String.self)) ?? .adaptive,
            energyFloorKcal: try row.decode(column: "energy_floor_kcal", as: Double?.self),
            onboarded: try row.decode(column: "onboarded", as: Int.self) == 1,
            oneRepMaxFormula: OneRepMaxFormula(rawValue: try row.decode(column: "one_rep_max_formula", as: String.self)) ?? .default,
            glucoseUnit: GlucoseUnit(rawValue: try row.decode(column: "glucose_unit", as: String.self)) ?? .milligramsPerDeciliter)
        settings.plateSet = plateSet
        if let peak = try row.decode(column: "insulin_peak_minutes", as: Double?.self),
            let duration = try row.decode(column: "insulin_duration_minutes", as: Double?.self),
            let model = ExponentialInsulinModel(durationMinutes: duration, peakMinutes: peak)
        {
            settings.insulinModel = model
        }
        if let text = try row.decode(column: "nutrient_targets", as: String?.self) {
            guard let targets = NutrientTargets(storageText: text) else {
                throw CinnError(.internal, "the stored nutrition targets are damaged")
            }
            settings.nutrientTargets = targets
        }
        return settings
    }

    /// Saves the settings and, when given, sets a new goal, in one transaction.
    public func saveSettings(_ settings: UserSettings, goal: Goal? = nil, user: UserID) async throws {
        try await transaction { db in
            try await writeSettings(db, settings, user: user)
            if let goal { try await insertGoal(db, goal, user: user) }
        }
    }

    /// The settings are a synced record (type `settings`): made with an id, and every save takes a change number.
    private func writeSettings(_ db: any SQLDatabase, _ settings: UserSettings, user: UserID) async throws {
        let version = try await reserveVersions(db, user: user)
        let time = milliseconds(now())
        // The adult curve is kept as NULL: the default.
        let customInsulin = settings.insulinModel == .rapidActingAdult ? nil : settings.insulinModel
        try await db.raw(
            """
            INSERT INTO user_settings (user_id, id, created_at_ms, version, display_unit, trend_method, time_zone, energy_target_kcal, energy_unit,
                sex, birth_day, height_cm, activity_level, length_unit, target_basis, energy_floor_kcal, onboarded,
                one_rep_max_formula, glucose_unit, plate_unit, bar_weight, plates, nutrient_targets, insulin_peak_minutes,
                insulin_duration_minutes, updated_at_ms)
            VALUES (\(bind: user.rawValue), \(bind: bind(UUID.v7(at: now()))), \(bind: time), \(bind: version),
                    \(bind: settings.displayUnit.rawValue), \(bind: settings.trendMethod.rawValue),
                    \(bind: settings.timeZoneIdentifier), \(bind: settings.energyTargetKcal), \(bind: settings.energyUnit.rawValue),
                    \(bind: settings.profile?.sex.rawValue), \(bind: settings.profile?.birthDate.dayNumber),
                    \(bind: settings.profile?.height.centimetres), \(bind: settings.profile?.activity.rawValue),
                    \(bind: settings.lengthUnit.rawValue), \(bind: settings.targetBasis.rawValue),
                    \(bind: settings.energyFloorKcal), \(bind: settings.onboarded ? 1 : 0),
                    \(bind: settings.oneRepMaxFormula.rawValue), \(bind: settings.glucoseUnit.rawValue),
                    \(bind: settings.plateSet?.unit.rawValue), \(bind: settings.plateSet?.bar), \(bind: settings.plateSet?.storageText),
                    \(bind: settings.nutrientTargets == NutrientTargets() ? nil : settings.nutrientTargets.storageText),
                    \(bind: customInsulin?.peakMinutes), \(bind: customInsulin?.durationMinutes), \(bind: time))
            ON CONFLICT (user_id) DO UPDATE SET display_unit = excluded.display_unit,
                trend_method = excluded.trend_method, time_zone = excluded.time_zone,
                energy_target_kcal = excluded.energy_target_kcal, energy_unit = excluded.energy_unit,
                sex = excluded.sex, birth_day = excluded.birth_day, height_cm = excluded.height_cm,
                activity_level = excluded.activity_level, length_unit = excluded.length_unit,
                target_basis = excluded.target_basis, energy_floor_kcal = excluded.energy_floor_kcal,
                onboarded = excluded.onboarded, one_rep_max_formula = excluded.one_rep_max_formula, glucose_unit = excluded.glucose_unit,
                plate_unit = excluded.plate_unit, bar_weight = excluded.bar_weight, plates = excluded.plates,
                nutrient_targets = excluded.nutrient_targets, insulin_peak_minutes = excluded.insulin_peak_minutes,
                insulin_duration_minutes = excluded.insulin_duration_minutes, updated_at_ms = excluded.updated_at_ms, version = excluded.version
            """
        ).run()
    }

    /// The current goal: the latest one set and not cleared.
    public func goal(user: UserID) async throws -> Goal? {
        try await withConnection { try await goal($0, user: user) }
    }

    func goal(_ db: any SQLDatabase, user: UserID) async throws -> Goal? {
        guard
            let row = try await db.raw(
                """
                SELECT weight_kg, rate_kg_per_week, set_on_day FROM goals
                WHERE user_id = \(bind: user.rawValue) AND deleted = 0 ORDER BY row_id DESC LIMIT 1
                """
            ).first()
        else { return nil }
        return Goal(
            weight: Mass(kilograms: try row.decode(column: "weight_kg", as: Double.self)),
            plannedRate: try row.decode(column: "rate_kg_per_week", as: Double?.self).map(Mass.init(kilograms:)),
            setOn: LocalDate(dayNumber: try row.decode(column: "set_on_day", as: Int.self)))
    }

    /// Sets a new goal; the previous ones stay as history.
    public func setGoal(_ goal: Goal, user: UserID) async throws {
        try await transaction { db in try await insertGoal(db, goal, user: user) }
    }

    private func insertGoal(_ db: any SQLDatabase, _ goal: Goal, user: UserID) async throws {
        let version = try await reserveVersions(db, user: user)
        let time = milliseconds(now())
        try await db.raw(
            """
            INSERT INTO goals (id, user_id, weight_kg, rate_kg_per_week, set_on_day, created_at_ms, updated_at_ms, version)
            VALUES (\(bind: bind(.v7(at: now()))), \(bind: user.rawValue), \(bind: goal.weight.kilograms),
                    \(bind: goal.plannedRate?.kilograms), \(bind: goal.setOn.dayNumber), \(bind: time), \(bind: time),
                    \(bind: version))
            """
        ).run()
    }

    /// Clears the goal; returns false when there was none.
    @discardableResult
    public func clearGoal(user: UserID) async throws -> Bool {
        try await transaction { db in
            let version = try await reserveVersions(db, user: user)
            let rows = try await db.raw(
                """
                UPDATE goals SET deleted = 1, version = \(bind: version), updated_at_ms = \(bind: milliseconds(now()))
                WHERE user_id = \(bind: user.rawValue) AND deleted = 0 RETURNING row_id
                """
            ).all()
            return !rows.isEmpty
        }
    }
}
