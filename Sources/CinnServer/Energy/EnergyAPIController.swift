import CinnCore
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// Profile, energy and the daily answer in the JSON API under `/api/v1`.
struct EnergyAPIController {
    typealias Context = JournalRequestContext

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("profile", use: showProfile)
        group.put("profile", use: updateProfile)
        group.get("energy", use: energy)
        group.get("today", use: today)
        group.put("days/{date}/status", use: setDayStatus)
        group.post("body-fat", use: addBodyFat)
    }

    @Sendable func showProfile(_ request: Request, context: Context) async throws -> APIAnswer {
        .json(ProfileDTO(try await context.journal.settings(), goal: try await context.journal.goal()))
    }

    @Sendable func updateProfile(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(ProfileRequest.self)
        let (settings, _) = try await context.journal.updateProfile(body.update)
        return .json(ProfileDTO(settings, goal: try await context.journal.goal()))
    }

    /// `GET /api/v1/energy?date=&window=&days=`.
    @Sendable func energy(_ request: Request, context: Context) async throws -> APIAnswer {
        let report = try await context.journal.energyReport(
            asOf: try request.queryDate("date"),
            windowDays: try request.queryInt(
                "window", default: AdaptiveExpenditure.defaultWindowDays,
                range: AdaptiveExpenditure.windowRange),
            historyDays: try request.queryInt(
                "days", default: EnergyReport.defaultHistoryDays,
                range: 0...1096))
        return .json(EnergyDTO(report))
    }

    @Sendable func today(_ request: Request, context: Context) async throws -> APIAnswer {
        .json(TodayDTO(try await context.journal.energyReport(historyDays: 0)))
    }

    struct StatusRequest: Decodable {
        let status: String?
    }

    /// `PUT /api/v1/days/{date}/status` with `{"status": "complete" | "partial" | null}`.
    @Sendable func setDayStatus(_ request: Request, context: Context) async throws -> APIAnswer {
        guard let date = LocalDate(iso: context.parameters.get("date") ?? "") else {
            throw CinnError.invalid("date", "the date must be YYYY-MM-DD")
        }
        var request = request
        let body = try await request.decodeJSON(StatusRequest.self)
        let status = try body.status.map { text in try DayStatus.parse(text) }
        try await context.journal.setDayStatus(date, status: status)
        return .json(DayStatusDTO(date: date.iso, status: status?.rawValue))
    }

    /// A day's status as the API shows it: `status` is `null` for a day not marked.
    struct DayStatusDTO: Encodable {
        let date: String
        @Nullable var status: String?
    }

    struct BodyFatRequest: Decodable {
        let percent: LenientNumber
        let date: String?
    }

    @Sendable func addBodyFat(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(BodyFatRequest.self)
        let reading = try await context.journal.addBodyFat(percent: body.percent.value, date: body.date)
        return .json(
            [
                "id": reading.id.lowercasedString, "date": reading.localDate.iso,
                "percent": Mass.format(reading.fraction * 100, decimals: 1),
            ], status: .created)
    }
}
