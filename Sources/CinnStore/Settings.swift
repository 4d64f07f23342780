import CinnCore
import Foundation
import SQLKit

extension Store {
    /// The user's settings, or the defaults when never saved.
    public func settings(user: UserID) async throws -> UserSettings {
        try await withConnection { try await settings($0, user: user) }
    }

    func settings(_ db: any SQLDatabase, user: UserID) async throws -> UserSettings {
        guard let row = try await db.raw("""
            SELECT display_unit, trend_method, time_zone, energy_target_kcal, energy_unit FROM user_settings WHERE user_id = \(bind: user.rawValue)
            """).first() else { return UserSettings() }
        return UserSettings(
            displayUnit: MassUnit(rawValue: try row.decode(column: "display_unit", as: String.self)) ?? .kilograms,
            trendMethod: TrendMethod(rawValue: try row.decode(column: "trend_method", as: String.self)) ?? .exact,
            timeZoneIdentifier: try row.decode(column: "time_zone", as: String?.self),
            energyTargetKcal: try row.decode(column: "energy_target_kcal", as: Double?.self),
            energyUnit: EnergyUnit(rawValue: try row.decode(column: "energy_unit", as: String.self)) ?? .kilocalories)
    }

    public func saveSettings(_ settings: UserSettings, user: UserID) async throws {
        try await withConnection { db in
            try await db.raw("""
                INSERT INTO user_settings (user_id, display_unit, trend_method, time_zone, energy_target_kcal, energy_unit,
                    updated_at_ms)
                VALUES (\(bind: user.rawValue), \(bind: settings.displayUnit.rawValue), \(bind: settings.trendMethod.rawValue),
                        \(bind: settings.timeZoneIdentifier), \(bind: settings.energyTargetKcal), \(bind: settings.energyUnit.rawValue),
                        \(bind: milliseconds(now())))
                ON CONFLICT (user_id) DO UPDATE SET display_unit = excluded.display_unit,
                    trend_method = excluded.trend_method, time_zone = excluded.time_zone,
                    energy_target_kcal = excluded.energy_target_kcal, energy_unit = excluded.energy_unit,
                    updated_at_ms = excluded.updated_at_ms
                """).run()
        }
    }

    /// The current goal: the latest one set and not cleared.
    public func goal(user: UserID) async throws -> Goal? {
        try await withConnection { try await goal($0, user: user) }
    }

    func goal(_ db: any SQLDatabase, user: UserID) async throws -> Goal? {
        guard let row = try await db.raw("""
            SELECT weight_kg, rate_kg_per_week, set_on_day FROM goals
            WHERE user_id = \(bind: user.rawValue) AND deleted = 0 ORDER BY row_id DESC LIMIT 1
            """).first() else { return nil }
        return Goal(weight: Mass(kilograms: try row.decode(column: "weight_kg", as: Double.self)),
                    plannedRate: try row.decode(column: "rate_kg_per_week", as: Double?.self).map(Mass.init(kilograms:)),
                    setOn: LocalDate(dayNumber: try row.decode(column: "set_on_day", as: Int.self)))
    }

    /// Sets a new goal; the previous ones stay as history.
    public func setGoal(_ goal: Goal, user: UserID) async throws {
        try await transaction { db in
            let version = try await reserveVersions(db, user: user)
            let time = milliseconds(now())
            try await db.raw("""
                INSERT INTO goals (id, user_id, weight_kg, rate_kg_per_week, set_on_day, created_at_ms, updated_at_ms, version)
                VALUES (\(bind: bind(.v7(at: now()))), \(bind: user.rawValue), \(bind: goal.weight.kilograms),
                        \(bind: goal.plannedRate?.kilograms), \(bind: goal.setOn.dayNumber), \(bind: time), \(bind: time),
                        \(bind: version))
                """).run()
        }
    }

    /// Clears the goal; returns false when there was none.
    @discardableResult
    public func clearGoal(user: UserID) async throws -> Bool {
        try await transaction { db in
            let version = try await reserveVersions(db, user: user)
            let rows = try await db.raw("""
                UPDATE goals SET deleted = 1, version = \(bind: version), updated_at_ms = \(bind: milliseconds(now()))
                WHERE user_id = \(bind: user.rawValue) AND deleted = 0 RETURNING row_id
                """).all()
            return !rows.isEmpty
        }
    }
}
