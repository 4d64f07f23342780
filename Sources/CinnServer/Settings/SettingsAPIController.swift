import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// The settings and the weigh-ins export in the JSON API under `/api/v1`.
struct SettingsAPIController {
    typealias Context = JournalRequestContext

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("settings", use: showSettings)
        group.put("settings", use: updateSettings)
        group.get("targets", use: showTargets)
        group.put("targets", use: updateTargets)
        group.get("export", use: export)
    }

    /// `{"energy": {kcal, follows, own_kcal, floor_kcal, change}, "targets": {…the person's…}, "goals": [{key, name, unit,
    /// target, minimum, maximum, source}]}`, as of today.
    func targetsResponse(_ context: Context) async throws -> APIAnswer {
        let (targets, goals, energy) = try await context.journal.nutritionGoals()
        return .json(
            TargetsDTO(
                energy: CalorieTargetDTO(energy), targets: try JSONParser.parse(Array(targets.storageText.utf8)),
                goals: goals.map { NutrientGoalDTO($0) }))
    }

    /// The targets' answer; the person's own targets as they are stored (the shape the PUT takes).
    struct TargetsDTO: Encodable {
        let energy: CalorieTargetDTO
        let targets: JSONValue
        let goals: [NutrientGoalDTO]
    }

    @Sendable func showTargets(_ request: Request, context: Context) async throws -> APIAnswer {
        try await targetsResponse(context)
    }

    @Sendable func updateTargets(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(JSONValue.self)
        try await context.journal.setNutrientTargets(try NutrientTargets(json: body))
        return try await targetsResponse(context)
    }

    @Sendable func showSettings(_ request: Request, context: Context) async throws -> APIAnswer {
        .json(SettingsDTO(try await context.journal.settings()))
    }

    @Sendable func updateSettings(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(SettingsRequest.self)
        var settings = try await context.journal.settings()
        if let unit = body.unit { settings.displayUnit = try MassUnit.parse(unit) }
        if let method = body.trendMethod {
            guard let trendMethod = TrendMethod(rawValue: method) else {
                throw CinnError.invalid("trend_method", "trend_method must be exact or pencil")
            }
            settings.trendMethod = trendMethod
        }
        if let zone = body.timeZone { settings.timeZoneIdentifier = try UserSettings.validTimeZone(zone) }
        if let target = body.energyTargetKcal {
            settings.energyTargetKcal = try target.map { number in try UserSettings.validEnergyTarget(number.value) }
        }
        if let unit = body.energyUnit { settings.energyUnit = try EnergyUnit.parse(unit) }
        if let unit = body.glucoseUnit { settings.glucoseUnit = try GlucoseUnit.parse(unit, field: "glucose_unit") }
        if body.insulinPeakMinutes != nil || body.insulinDurationMinutes != nil {
            settings.insulinModel = try ExponentialInsulinModel.validated(
                peakMinutes: body.insulinPeakMinutes?.value ?? settings.insulinModel.peakMinutes,
                durationMinutes: body.insulinDurationMinutes?.value ?? settings.insulinModel.durationMinutes)
        }
        try await context.journal.saveSettings(settings)
        return .json(SettingsDTO(settings))
    }

    @Sendable func export(_ request: Request, context: Context) async throws -> APIAnswer {
        let formatText = request.query("format") ?? "json"
        guard let format = ExportFormat(rawValue: formatText) else {
            throw CinnError.invalid("format", "format must be csv or json")
        }
        return .response(exportResponse(journal: context.journal, format: format))
    }
}

/// A streamed export download.
func exportResponse(journal: Journal, format: ExportFormat) -> Response {
    let body = ResponseBody { writer in
        try await journal.export(format: format) { text in try await writer.write(ByteBuffer(string: text)) }
        try await writer.finish(nil)
    }
    return Response(
        status: .ok,
        headers: [
            .contentType: format.contentType,
            .contentDisposition: "attachment; filename=\"cinn-weigh-ins.\(format.rawValue)\"",
        ], body: body)
}
