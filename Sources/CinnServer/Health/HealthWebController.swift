import CinnCharts
import CinnCore
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// The "more data" page: the health data kept as day summaries (steps, heart rate, sleep… from Apple Health), one
/// type at a time, charted per day, with the list of every type kept.
struct HealthWebController {
    typealias Context = JournalRequestContext

    func addRoutes(to router: RouterGroup<Context>) {
        router.get(Site.healthData, use: page)
    }

    /// `/more-data?type=…&category=…&unit=…&days=90`: the chosen type (by default steps, else the first) over the last
    /// `days` days up to its last day with data.
    @Sendable func page(_ request: Request, context: Context) async throws -> WebAnswer {
        let types = try await context.journal.healthDayTypes()
        let days = request.query("days").flatMap(Int.init).flatMap { HealthPage.spans.contains($0) ? $0 : nil } ?? 90
        let chosen =
            types.first { type in
                type.type == request.query("type") && type.category == (request.query("category") ?? "")
                    && type.unit == request.query("unit")
            } ?? types.first { $0.type == "HKQuantityTypeIdentifierStepCount" } ?? types.first
        guard request.query("type") == nil || chosen?.type == request.query("type") else {
            throw CinnError.notFound("no health data of that type")
        }
        var model = HealthPage(types: types, chosen: chosen, days: days)
        if let chosen {
            let range = chosen.last.adding(days: 1 - days)...chosen.last
            let summaries = try await context.journal.healthDays(
                type: chosen.type, category: chosen.category,
                unit: chosen.unit, days: range)
            model.show(summaries, of: chosen, in: range)
        }
        return .page("health", model, title: "Health data", tab: .more)
    }
}

/// The health data page's model.
struct HealthPage {
    static let spans = [30, 90, 365]

    struct TypeRow {
        let name: String
        let unit: String
        let days: Int
        let last: String
        let link: String
        let chosen: Bool
    }

    struct Span {
        let label: String
        let link: String
        let on: Bool
    }

    let rows: [TypeRow]
    let hasTypes: Bool
    var name = ""
    var answer = ""
    var answerLabel = ""
    var chart = ""
    var spans: [Span] = []

    init(types: [HealthDayType], chosen: HealthDayType?, days: Int) {
        rows = types.map { type in
            TypeRow(
                name: type.name, unit: type.unit, days: type.days, last: type.last.dayMonthYear, link: Self.link(type, days: days),
                chosen: type == chosen)
        }
        hasTypes = !types.isEmpty
        if let chosen {
            spans = Self.spans.map { span in
                Span(label: span == 365 ? "1 year" : "\(span) days", link: Self.link(chosen, days: span), on: span == days)
            }
        }
    }

    /// The answer in large type: the average day's total (steps, energy) or the mean of the readings (heart rate), and the chart.
    mutating func show(_ summaries: [HealthDaySummary], of type: HealthDayType, in range: ClosedRange<LocalDate>) {
        let kind = HealthDataType(type.type)
        let cumulative = kind.isCumulative
        let unit = HealthDayChart.DisplayUnit(kept: type.unit, type: type.type, cumulative: cumulative)
        name = type.name
        if cumulative, let average = summaries.meanDailyTotal {
            answer = unit.text(average)
            answerLabel = "a day on average, over the \(summaries.count) day\(summaries.count == 1 ? "" : "s") with data"
        } else if let samples = summaries.samples {
            answer = unit.text(samples.mean)
            answerLabel = "on average, from \(unit.format(samples.minimum)) to \(unit.format(samples.maximum))"
        }
        chart = HealthDayChart(days: summaries, in: range, name: type.name, unit: unit, cumulative: cumulative).svg()
    }

    static func link(_ type: HealthDayType, days: Int) -> String {
        var components = URLComponents()
        components.path = Site.healthData.path
        components.queryItems = [
            URLQueryItem(name: "type", value: type.type), URLQueryItem(name: "category", value: type.category),
            URLQueryItem(name: "unit", value: type.unit), URLQueryItem(name: "days", value: String(days)),
        ]
        return components.string ?? Site.healthData.path
    }
}
