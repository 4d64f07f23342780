import ArgumentParser
import CinnCharts
import CinnCore
import CinnJournal
import Foundation

struct Trend: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the trend, rate, energy balance, forecast and the verdict.",
        discussion: """
            --format json prints one JSON object: {"unit", "days":[{"date","weight","interpolated","value","trend"}],
            "rate_per_week", "energy_balance_per_day", "forecast_date", "verdict":{"answer","reason"}}. Summary fields are
            as of --to (default today). Numbers are unrounded, in --unit; energy in kcal.
            """)

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case table, json, csv }

    @OptionGroup var options: DatabaseOptions

    @Option(help: "week, month, quarter, year or all: the 7/30/91/365 days ending at --to (default all).")
    var range: TrendRange = .all

    @Option(help: "First day (YYYY-MM-DD); overrides --range.")
    var from: String?

    @Option(help: "Last day and as-of day (YYYY-MM-DD; default today).")
    var to: String?

    @Option(help: "kg, lb or st (default: your display unit).")
    var unit: MassUnit?

    @Option(help: "table, json or csv.")
    var format: OutputFormat = .table

    func run() async throws {
        let fromDate = try parseOrThrow { () in try from.map { t in try LocalDate.parse(t, field: "from") } }
        let toDate = try parseOrThrow { () in try to.map { t in try LocalDate.parse(t, field: "to") } }
        try await options.withJournal { journal in
            let (report, settings) = try await journal.trend(from: fromDate, to: toDate, range: range)
            let shown = unit ?? settings.displayUnit
            let dto = TrendDTO(report, unit: shown)
            switch format {
            case .json: print(dto.json)
            case .csv: print(dto.csv, terminator: "")
            case .table: printTable(report, unit: shown)
            }
        }
    }

    func printTable(_ report: TrendReport, unit: MassUnit) {
        guard !report.days.isEmpty else {
            print("No weigh-ins in this period. Add one with: cinn weight add 72.4")
            print("Verdict: \(report.verdict.answer.rawValue) — \(report.verdict.reason)")
            return
        }
        print("date        weight      trend")
        for day in report.days {
            let weight = day.measured.map { $0.formatted(in: unit) } ?? "≈" + day.value.formatted(in: unit)
            print("\(day.date.iso)  \(weight.padding(toLength: 10, withPad: " ", startingAt: 0))  \(day.trend.formatted(in: unit))")
        }
        print()
        print(TerminalChart(points: report.days, unit: unit).render())
        let rate =
            report.rate.map { Mass.format($0.perWeek(in: unit), decimals: unit.displayDecimals + 1) + " \(unit.rawValue)/week" } ?? "—"
        let energy = report.energyBalancePerDay.map { Mass.format($0.kilocalories, decimals: 0) + " kcal/day" } ?? "—"
        print("Rate: \(rate)   Energy balance: \(energy)   Forecast: \(report.forecast?.iso ?? "—")")
        print("Can I nom nom? \(report.verdict.answer.rawValue) — \(report.verdict.reason)")
    }
}

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write every weigh-in to standard output (CSV re-imports into Cinn).")

    @OptionGroup var options: DatabaseOptions

    @Option(help: "csv or json.")
    var format: ExportFormat = .csv

    func run() async throws {
        try await options.withJournal { journal in
            try await journal.export(format: format) { text in
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        }
    }
}
