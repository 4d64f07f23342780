import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// The weight part of the JSON API under `/api/v1`: weigh-ins, the trend and the goal.
struct WeightAPIController {
    typealias Context = JournalRequestContext

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
    }

    func unit(_ request: Request, _ settings: UserSettings) throws -> MassUnit {
        try request.query("unit").map { text in try MassUnit.parse(text) } ?? settings.displayUnit
    }

    @Sendable func listWeighIns(_ request: Request, context: Context) async throws -> APIAnswer {
        let settings = try await context.journal.settings()
        let unit = try unit(request, settings)
        let weighIns = try await context.journal.weighIns(
            from: try request.queryDate("from"), to: try request.queryDate("to"),
            limit: try request.queryInt("limit", default: 100, range: 1...10_000),
            offset: try request.queryInt("offset", default: 0, range: 0...Int(Int32.max)))
        return .json(["weigh_ins": weighIns.map { WeighInDTO($0, unit: unit) }])
    }

    @Sendable func createWeighIn(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(CreateWeighIn.self)
        let unit = try body.unit.map { text in try MassUnit.parse(text) }
        let id = try body.id.map { text in
            guard let id = UUID(text: text) else { throw CinnError.invalid("id", "id must be a UUID") }
            return id
        }
        let weighIn = try await context.journal.addWeighIn(
            id: id, weight: body.weight.value, unit: unit, date: body.measuredAt ?? body.date,
            dateField: body.measuredAt == nil ? "date" : "measured_at", note: body.note,
            confirm: body.confirm ?? false)
        let settings = try await context.journal.settings()
        return .json(WeighInDTO(weighIn, unit: unit ?? settings.displayUnit), status: .created)
    }

    @Sendable func showWeighIn(_ request: Request, context: Context) async throws -> APIAnswer {
        let weighIn = try await context.journal.weighIn(id: try idParameter(context, "weigh-in", withThatID: true))
        return .json(WeighInDTO(weighIn, unit: try unit(request, try await context.journal.settings())))
    }

    @Sendable func updateWeighIn(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let id = try idParameter(context, "weigh-in", withThatID: true)
        let body = try await request.decodeJSON(UpdateWeighIn.self)
        let unit = try body.unit.map { text in try MassUnit.parse(text) }
        let weighIn = try await context.journal.editWeighIn(
            id: id, weight: body.weight?.value, unit: unit,
            date: body.measuredAt ?? body.date,
            dateField: body.measuredAt == nil ? "date" : "measured_at", note: body.note,
            confirm: body.confirm ?? false)
        let settings = try await context.journal.settings()
        return .json(WeighInDTO(weighIn, unit: unit ?? settings.displayUnit))
    }

    @Sendable func deleteWeighIn(_ request: Request, context: Context) async throws -> APIAnswer {
        try await context.journal.deleteWeighIn(id: try idParameter(context, "weigh-in", withThatID: true))
        return .noContent
    }

    /// `DELETE /api/v1/weigh-ins?date=YYYY-MM-DD` deletes that day's weigh-ins.
    @Sendable func deleteDay(_ request: Request, context: Context) async throws -> APIAnswer {
        guard let date = try request.queryDate("date") else { throw CinnError.invalid("date", "date is required") }
        let count = try await context.journal.deleteWeighIns(on: date)
        return .json(["deleted": count])
    }

    @Sendable func trend(_ request: Request, context: Context) async throws -> APIAnswer {
        let range = try request.query("range").map { text in try TrendRange.parse(text) } ?? .all
        let (report, settings) = try await context.journal.trend(
            from: try request.queryDate("from"), to: try request.queryDate("to"),
            range: range)
        return .jsonText(TrendDTO(report, unit: try unit(request, settings)).json)
    }

    @Sendable func showGoal(_ request: Request, context: Context) async throws -> APIAnswer {
        let unit = try unit(request, try await context.journal.settings())
        guard let goal = try await context.journal.goal() else {
            throw CinnError.notFound("no goal is set")
        }
        return .json(GoalDTO(goal, unit: unit))
    }

    @Sendable func setGoal(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(GoalRequest.self)
        let unit = try body.unit.map { text in try MassUnit.parse(text) }
        let goal = try await context.journal.setGoal(
            weight: body.weight.value, unit: unit, ratePerWeek: body.ratePerWeek?.value,
            rateField: "rate_per_week")
        let settings = try await context.journal.settings()
        return .json(GoalDTO(goal, unit: unit ?? settings.displayUnit))
    }

    @Sendable func clearGoal(_ request: Request, context: Context) async throws -> APIAnswer {
        guard try await context.journal.clearGoal() else { throw CinnError.notFound("no goal is set") }
        return .noContent
    }
}
