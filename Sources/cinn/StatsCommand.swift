import ArgumentParser
import CinnCharts
import CinnCore
import CinnJournal
import Foundation

extension NutritionPeriod.Length: ExpressibleByArgument {}

struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Food statistics per day, week or month: averages per logged day, % Daily Value, days logged.")

    @OptionGroup var options: DatabaseOptions

    @Option(help: "day, week or month.")
    var period: NutritionPeriod.Length = .day

    @Option(help: "First day (default: 29 days before --to).")
    var from: String?

    @Option(help: "Last day (default: today).")
    var to: String?

    @Option(help: "A nutrient key to show per period besides energy, e.g. sodium.")
    var nutrient: String?

    @Flag(help: "Also every nutrient's average per logged day over the whole range, with % Daily Value.")
    var all = false

    @Flag(help: "Print JSON: each period's days logged, totals and daily averages of every nutrient.")
    var json = false

    func run() async throws {
        let chosen = try parseOrThrow { () in try nutrient.map { key in try Nutrient.parse(key, field: "nutrient") } }
        let (periods, range, target) = try await options.withJournal { journal in
            let settings = try await journal.settings()
            let end =
                try parseOrThrow { () in try to.map { t in try LocalDate.parse(t, field: "to") } }
                ?? journal.today(settings)
            let start =
                try parseOrThrow { () in try from.map { t in try LocalDate.parse(t, field: "from") } }
                ?? end.adding(days: -29)
            return (
                try await journal.nutritionStatistics(from: start, to: end, length: period), start...end,
                try await journal.nutritionGoals().energy.targetKcal
            )
        }
        if json {
            struct Row: Encodable {
                let start: String, end: String, daysLogged: Int
                let totals: Nutrients, dailyAverage: Nutrients
                enum CodingKeys: String, CodingKey {
                    case start, end, totals
                    case daysLogged = "days_logged"
                    case dailyAverage = "daily_average"
                }
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let rows = periods.map {
                Row(
                    start: $0.start.iso, end: $0.end.iso, daysLogged: $0.daysLogged, totals: $0.totals,
                    dailyAverage: $0.dailyAverage ?? Nutrients())
            }
            print(String(decoding: try encoder.encode(rows), as: UTF8.self))
            return
        }
        print("\(range.lowerBound) to \(range.upperBound), per \(period.rawValue): \(periods.reduce(0) { $0 + $1.daysLogged }) days logged")
        if periods.isEmpty {
            print("Nothing logged in this range.")
            return
        }
        print(
            pad(period == .day ? "day" : "from", 11) + pad("days", 6, right: true) + pad("kcal/day", 10, right: true)
                + pad("protein", 9, right: true) + pad("carbs", 8, right: true) + pad("fat", 7, right: true)
                + (chosen.map { pad($0.key, 14, right: true) } ?? ""))
        for row in periods {
            let average = row.dailyAverage ?? Nutrients()
            var line =
                pad(row.start.iso, 11) + pad("\(row.daysLogged)", 6, right: true)
                + pad("\((average.energy ?? 0).wholeText)", 10, right: true)
            for macro in [Nutrient.protein, .carbohydrate, .fat] {
                line += pad(average[macro].map { "\($0.wholeText) g" } ?? "–", macro == .protein ? 9 : macro == .fat ? 7 : 8, right: true)
            }
            if let chosen {
                let amount = average[chosen]
                line += pad(amount.map { formatAmount($0, chosen) } ?? "–", 14, right: true)
                if let amount, let dv = chosen.percentDailyValue(of: amount) { line += "  \(dv.wholeText)% DV" }
            }
            print(line)
        }
        if period == .day {
            let days = periods.map { (date: $0.start, energy: $0.totals.energy ?? 0, target: target) }
            print("")
            print(CalorieChart(days: days, in: range).text())
        }
        if all {
            let logged = periods.reduce(0) { $0 + $1.daysLogged }
            let average = periods.reduce(into: Nutrients()) { $0 += $1.totals }.scaled(by: 1 / Double(max(logged, 1)))
            print("\nA logged day on average:")
            for (nutrient, amount) in average.amounts {
                let dv = nutrient.percentDailyValue(of: amount).map { "  \($0.wholeText)% DV" } ?? ""
                print(pad(nutrient.name, 22) + pad(formatAmount(amount, nutrient), 12, right: true) + dv)
            }
        }
    }
}
