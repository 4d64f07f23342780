import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// The JSON API under `/api/v1`.
struct APIController<Context: RequestContext> {
    var journal: Journal { get throws { try RequestJournal.required() } }

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("weigh-ins", use: listWeighIns)
        group.post("weigh-ins", use: createWeighIn)
        group.delete("weigh-ins", use: deleteDay)
        group.get("weigh-ins/{id}", use: showWeighIn)
        group.patch("weigh-ins/{id}", use: updateWeighIn)
        group.delete("weigh-ins/{id}", use: deleteWeighIn)
        group.get("trend", use: trend)
        group.get("goal", use: showGoal)
        group.put("goal", use: setGoal)
        group.delete("goal", use: clearGoal)
        group.get("settings", use: showSettings)
        group.put("settings", use: updateSettings)
        group.get("imports", use: listImports)
        group.post("imports", use: importFile)
        group.post("imports/{id}/undo", use: undoImport)
        group.get("export", use: export)
    }

    func unit(_ request: Request, _ settings: UserSettings) throws(CinnError) -> MassUnit {
        try request.query("unit").map { text throws(CinnError) in try MassUnit.parse(text) } ?? settings.displayUnit
    }

    func id(_ context: Context) throws(CinnError) -> UUID {
        guard let text = context.parameters.get("id"), let id = UUID(text: text) else {
            throw .notFound("no weigh-in with that id")
        }
        return id
    }

    @Sendable func listWeighIns(_ request: Request, context: Context) async throws -> Response {
        let settings = try await journal.settings()
        let unit = try unit(request, settings)
        let weighIns = try await journal.store.weighIns(
            user: journal.user, from: try request.queryDate("from"), to: try request.queryDate("to"),
            limit: try request.queryInt("limit", default: 100, range: 1...10_000),
            offset: try request.queryInt("offset", default: 0, range: 0...Int(Int32.max)))
        return JSONResponse.make(["weigh_ins": weighIns.map { WeighInDTO($0, unit: unit) }])
    }

    @Sendable func createWeighIn(_ request: Request, context: Context) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(CreateWeighIn.self)
        let unit = try body.unit.map { text throws(CinnError) in try MassUnit.parse(text) }
        let id = try body.id.map { text throws(CinnError) in
            guard let id = UUID(text: text) else { throw .invalid("id", "id must be a UUID") }
            return id
        }
        let weighIn = try await journal.addWeighIn(id: id, weight: body.weight.value, unit: unit, date: body.measuredAt ?? body.date,
                                                   dateField: body.measuredAt == nil ? "date" : "measured_at", note: body.note,
                                                   confirm: body.confirm ?? false)
        let settings = try await journal.settings()
        return JSONResponse.make(WeighInDTO(weighIn, unit: unit ?? settings.displayUnit), status: .created)
    }

    @Sendable func showWeighIn(_ request: Request, context: Context) async throws -> Response {
        let weighIn = try await journal.store.weighIn(id: try id(context), user: journal.user)
        return JSONResponse.make(WeighInDTO(weighIn, unit: try unit(request, try await journal.settings())))
    }

    @Sendable func updateWeighIn(_ request: Request, context: Context) async throws -> Response {
        var request = request
        let id = try id(context)
        let body = try await request.decodeJSON(UpdateWeighIn.self)
        let unit = try body.unit.map { text throws(CinnError) in try MassUnit.parse(text) }
        let weighIn = try await journal.editWeighIn(id: id, weight: body.weight?.value, unit: unit,
                                                    date: body.measuredAt ?? body.date,
                                                    dateField: body.measuredAt == nil ? "date" : "measured_at", note: body.note,
                                                    confirm: body.confirm ?? false)
        let settings = try await journal.settings()
        return JSONResponse.make(WeighInDTO(weighIn, unit: unit ?? settings.displayUnit))
    }

    @Sendable func deleteWeighIn(_ request: Request, context: Context) async throws -> Response {
        try await journal.store.deleteWeighIn(id: try id(context), user: journal.user)
        return Response(status: .noContent)
    }

    /// `DELETE /api/v1/weigh-ins?date=YYYY-MM-DD` deletes that day's weigh-ins.
    @Sendable func deleteDay(_ request: Request, context: Context) async throws -> Response {
        guard let date = try request.queryDate("date") else { throw CinnError.invalid("date", "date is required") }
        let count = try await journal.store.deleteWeighIns(on: date, user: journal.user)
        return JSONResponse.make(["deleted": count])
    }

    @Sendable func trend(_ request: Request, context: Context) async throws -> Response {
        let range = try request.query("range").map { text throws(CinnError) in try TrendRange.parse(text) } ?? .all
        let (report, settings) = try await journal.trend(from: try request.queryDate("from"), to: try request.queryDate("to"),
                                                         range: range)
        return JSONResponse.body(TrendDTO(report, unit: try unit(request, settings)).json)
    }

    @Sendable func showGoal(_ request: Request, context: Context) async throws -> Response {
        let unit = try unit(request, try await journal.settings())
        guard let goal = try await journal.store.goal(user: journal.user) else {
            throw CinnError.notFound("no goal is set")
        }
        return JSONResponse.make(GoalDTO(goal, unit: unit))
    }

    @Sendable func setGoal(_ request: Request, context: Context) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(GoalRequest.self)
        let unit = try body.unit.map { text throws(CinnError) in try MassUnit.parse(text) }
        let goal = try await journal.setGoal(weight: body.weight.value, unit: unit, ratePerWeek: body.ratePerWeek?.value,
                                             rateField: "rate_per_week")
        let settings = try await journal.settings()
        return JSONResponse.make(GoalDTO(goal, unit: unit ?? settings.displayUnit))
    }

    @Sendable func clearGoal(_ request: Request, context: Context) async throws -> Response {
        guard try await journal.store.clearGoal(user: journal.user) else { throw CinnError.notFound("no goal is set") }
        return Response(status: .noContent)
    }

    @Sendable func showSettings(_ request: Request, context: Context) async throws -> Response {
        JSONResponse.make(SettingsDTO(try await journal.settings()))
    }

    @Sendable func updateSettings(_ request: Request, context: Context) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(SettingsRequest.self)
        var settings = try await journal.settings()
        if let unit = body.unit { settings.displayUnit = try MassUnit.parse(unit) }
        if let method = body.trendMethod {
            guard let trendMethod = TrendMethod(rawValue: method) else {
                throw CinnError.invalid("trend_method", "trend_method must be exact or pencil")
            }
            settings.trendMethod = trendMethod
        }
        if let zone = body.timeZone { settings.timeZoneIdentifier = try UserSettings.validTimeZone(zone) }
        if let target = body.energyTargetKcal {
            settings.energyTargetKcal = try target.map { number throws(CinnError) in try UserSettings.validEnergyTarget(number.value) }
        }
        if let unit = body.energyUnit { settings.energyUnit = try EnergyUnit.parse(unit) }
        if let unit = body.glucoseUnit { settings.glucoseUnit = try GlucoseUnit.parse(unit, field: "glucose_unit") }
        try await journal.store.saveSettings(settings, user: journal.user)
        return JSONResponse.make(SettingsDTO(settings))
    }

    @Sendable func listImports(_ request: Request, context: Context) async throws -> Response {
        JSONResponse.make(["imports": try await journal.store.imports(user: journal.user).map(ImportBatchDTO.init)])
    }

    /// `POST /api/v1/imports?format=&unit=&dry_run=&skip_invalid=&file_name=` with the file as the body.
    @Sendable func importFile(_ request: Request, context: Context) async throws -> Response {
        let format = request.query("format")
        let unit = try request.query("unit").map { text throws(CinnError) in try MassUnit.parse(text) }
        let mode = ImportMode(dryRun: try request.queryBool("dry_run"), skipInvalid: try request.queryBool("skip_invalid"))
        let file = try await spoolToTemporaryFile(request.body, maximumBytes: maximumImportBytes)
        defer { try? FileManager.default.removeItem(at: file) }
        let report = try await namingUpload(file, as: request.query("file_name")) {
            try await journal.importAnyFile(at: file, fileName: request.query("file_name"), format: format, unit: unit, mode: mode)
        }
        if report.rejectedCount > 0 && !mode.skipInvalid && !mode.dryRun {
            let error = CinnError.invalid("file", "\(report.rejectedCount) rows are invalid; nothing was imported (use skip_invalid=true to import the others)")
            return JSONResponse.error(error, extra: "\"report\":" + jsonString(ImportReportDTO(report: report)))
        }
        return JSONResponse.make(ImportReportDTO(report: report), status: report.importID == nil ? .ok : .created)
    }

    @Sendable func undoImport(_ request: Request, context: Context) async throws -> Response {
        guard let id = context.parameters.get("id").flatMap(Int64.init) else { throw CinnError.notFound("no such import") }
        let removed = try await journal.store.undoImport(id: id, user: journal.user)
        return JSONResponse.make(["removed": removed])
    }

    @Sendable func export(_ request: Request, context: Context) async throws -> Response {
        let formatText = request.query("format") ?? "json"
        guard let format = ExportFormat(rawValue: formatText) else {
            throw CinnError.invalid("format", "format must be csv or json")
        }
        return exportResponse(journal: try journal, format: format)
    }
}

/// A streamed export download.
func exportResponse(journal: Journal, format: ExportFormat) -> Response {
    let body = ResponseBody { writer in
        try await journal.export(format: format) { text in try await writer.write(ByteBuffer(string: text)) }
        try await writer.finish(nil)
    }
    return Response(status: .ok, headers: [
        .contentType: format.contentType,
        .contentDisposition: "attachment; filename=\"cinn-weigh-ins.\(format.rawValue)\"",
    ], body: body)
}
