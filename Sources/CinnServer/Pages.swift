import CinnCharts
import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation
import Mustache

/// Renders pages: the page's own template, wrapped in the layout.
struct PageRenderer: Sendable {
    static let shared = PageRenderer()

    let library: MustacheLibrary

    init() {
        var library = MustacheLibrary()
        for (name, text) in Templates.all {
            // The templates are part of the program; a syntax error in one is a programming error.
            try! library.register(text, named: name)
        }
        self.library = library
    }

    /// The page's tab; `signedOut` pages (log-in, sign-up) show no tabs.
    enum Tab { case weight, log, food, energy, lifts, glucose, importing, more, none, signedOut }

    struct Layout {
        let title: String
        let body: String
        let tabWeight: Bool, tabFood: Bool, tabLifts: Bool, tabGlucose: Bool, tabMore: Bool
        let showTabs: Bool
        /// What the form post that led here did, at the top of the page (`Done`).
        let notice: String?
    }

    func render(_ name: String, _ model: Any, title: String, tab: Tab, notice: String? = nil) -> String {
        wrap(library.render(model, withTemplate: name) ?? "", title: title, tab: tab, notice: notice)
    }

    /// A rendered page body inside the layout. Every form that posts carries the CSRF token (`addingCSRFToken`),
    /// so no template can forget it: a logged-in session's, else the browser's own (`BrowserToken`).
    func wrap(_ body: String, title: String, tab: Tab, notice: String? = nil) -> String {
        let account = RequestAccount.current
        // Weigh-ins, energy and imports are under More: four tabs and More fit a 320 px screen.
        let html = library.render(Layout(title: title, body: body, tabWeight: tab == .weight, tabFood: tab == .food, tabLifts: tab == .lifts,
                                         tabGlucose: tab == .glucose, tabMore: [.log, .energy, .importing, .more].contains(tab),
                                         showTabs: tab != .signedOut, notice: notice), withTemplate: "layout") ?? ""
        guard let token = account?.csrfToken ?? BrowserToken.current else { return html }
        return Self.addingCSRFToken(token, to: html)
    }

    /// `html` with `token` in every `<form method="post">`: a hidden `_csrf` field, and for uploads
    /// (multipart, whose body the server does not read before the handler) also in the action's query.
    static func addingCSRFToken(_ token: String, to html: String) -> String {
        var result = ""
        result.reserveCapacity(html.utf8.count + 512)
        var rest = html[...]
        while let start = rest.range(of: "<form"), let end = rest[start.upperBound...].firstIndex(of: ">") {
            var tag = String(rest[start.lowerBound...end])
            result += rest[..<start.lowerBound]
            rest = rest[rest.index(after: end)...]
            let lower = tag.lowercased()
            guard lower.contains("method=\"post\"") else {
                result += tag
                continue
            }
            if lower.contains("multipart/form-data"), let action = tag.range(of: "action=\""),
               let close = tag[action.upperBound...].firstIndex(of: "\"") {
                // In the query, before a fragment ("/import#import-form").
                let end = tag[action.upperBound..<close].firstIndex(of: "#") ?? close
                let separator = tag[action.upperBound..<end].contains("?") ? "&amp;" : "?"
                tag.insert(contentsOf: separator + "_csrf=" + token, at: end)
            }
            result += tag + "<input type=\"hidden\" name=\"_csrf\" value=\"" + token + "\">"
        }
        return result + rest
    }
}

/// The dashboard: the verdict, the numbers, the chart, the form, the latest weigh-ins.
struct DashboardPage {
    struct RangeLink { let name: String; let label: String; let on: Bool }
    struct Row { let day: String; let weight: String; let trend: String }

    let answer: String
    let icon: String
    let reason: String
    let todayState: String
    let todayMessage: String
    let todayLink: String?
    let todayLinkText: String
    let hasData: Bool
    let rate: String
    let energy: String
    let forecast: String
    let forecastLabel: String
    let ranges: [RangeLink]
    let range: String
    let chart: String
    let latestTrend: String
    let unit: String
    let placeholder: String
    let today: String
    let latest: [Row]
    let formError: String?
    /// What the add-weigh-in form held when it was sent back (an error, or a weight to confirm).
    let form: WeightForm

    /// The add-weigh-in form as it was sent; `confirmation`: why the weight needs confirming (`TypoGuard`).
    struct WeightForm {
        var weight = ""
        var date: String?
        var note = ""
        var confirmation: String?
    }

    init(report: TrendReport, settings: UserSettings, todayAnswer: DailyAnswer, range: TrendRange, today: LocalDate, recent: [WeighIn],
         trendByDay: [LocalDate: Mass], formError: String? = nil, form: WeightForm = WeightForm()) {
        let unit = settings.displayUnit
        answer = report.verdict.answer.rawValue
        icon = switch report.verdict.answer {
        case .yes: "✓"
        case .no: "✗"
        case .unknown: "?"
        }
        todayState = todayAnswer.answer.rawValue
        todayMessage = todayAnswer.message
        todayLink = settings.profile == nil ? "/profile" : "/food"
        todayLinkText = settings.profile == nil ? "Set up your profile for a daily budget →" : "Today's food →"
        reason = report.verdict.reason
        hasData = !report.days.isEmpty || !recent.isEmpty
        if let rate = report.rate {
            let perWeek = rate.perWeek(in: unit)
            self.rate = (perWeek > 0 ? "+" : perWeek < 0 ? "−" : "") + Mass.format(abs(perWeek), decimals: unit.displayDecimals + 1)
                + " \(unit.rawValue)"
            let kcal = rate.energyBalancePerDay.kilocalories
            energy = (kcal > 0 ? "+" : kcal < 0 ? "−" : "") + Mass.format(abs(kcal), decimals: 0) + " kcal"
        } else {
            rate = "—"
            energy = "—"
        }
        if let forecast = report.forecast {
            self.forecast = forecast == report.to ? "Reached" : Self.shortDate(forecast, withYear: forecast.year != report.to.year)
            forecastLabel = forecast == report.to ? "goal" : "goal reached by"
        } else {
            forecast = "—"
            forecastLabel = report.goal == nil ? "no goal set" : "goal date"
        }
        ranges = TrendRange.allCases.map { RangeLink(name: $0.rawValue, label: $0.rawValue.capitalized, on: $0 == range) }
        self.range = range.rawValue
        let projection = report.rate
        chart = TrendChart(points: report.days, unit: unit, goal: report.goal?.weight, projection: projection,
                           title: "Weight trend, \(range == .all ? "all time" : "last " + range.rawValue)").svg()
        latestTrend = report.latest.map { $0.trend.formatted(in: unit) } ?? "—"
        self.unit = unit.rawValue
        placeholder = report.latest.map { Mass.format($0.trend.value(in: unit), decimals: unit.displayDecimals) } ?? ""
        self.today = today.iso
        latest = recent.prefix(7).map { weighIn in
            Row(day: Self.shortDate(weighIn.localDate), weight: weighIn.weight.formatted(in: unit),
                trend: trendByDay[weighIn.localDate].map { $0.formatted(in: unit) } ?? "—")
        }
        self.formError = formError
        var form = form
        form.date = form.date ?? today.iso
        self.form = form
    }

    /// "9 Mar 2024", or "9 Mar" without the year.
    static func shortDate(_ date: LocalDate, withYear: Bool = true) -> String {
        withYear ? date.dayMonthYear : date.dayMonth
    }

    /// "9 Mar 2024, 07:41": an instant as pages show it, in the person's time zone.
    static func moment(_ instant: Date, in zone: TimeZone) -> String {
        let local = LocalDateTime(instant: instant, utcOffsetSeconds: zone.secondsFromGMT(for: instant))
        return "\(local.date.dayMonthYear), \(local.clock)"
    }
}

/// The paged list of weigh-ins.
struct WeighInsPage {
    struct Item { let id: String; let day: String; let time: String; let weight: String; let note: String? }
    let items: [Item]
    let hasItems: Bool
    let newer: Int?
    let older: Int?

    init(weighIns: [WeighIn], unit: MassUnit, page: Int, hasMore: Bool) {
        items = weighIns.map {
            let time = $0.localTimeISO
            return Item(id: $0.id.lowercasedString, day: DashboardPage.shortDate($0.localDate),
                        time: String(time.dropFirst(11).prefix(5)), weight: $0.weight.formatted(in: unit), note: $0.note)
        }
        hasItems = !items.isEmpty
        newer = page > 1 ? page - 1 : nil
        older = hasMore ? page + 1 : nil
    }
}

/// The edit form and the delete confirmation of one weigh-in.
struct WeighInPage {
    let id: String
    let unit: String
    let weight: String
    let day: String
    /// For the edit form's datetime-local field.
    let time: String
    /// "07:41", as pages show a time.
    let clock: String
    let note: String
    let formError: String?
    /// Why the changed weight needs confirming (`TypoGuard`).
    let confirmation: String?

    /// The page for `weighIn`; `sent`: the edit form as it was sent back (an error or a weight to confirm).
    init(_ weighIn: WeighIn, unit: MassUnit, sent: FormFields? = nil, formError: String? = nil, confirmation: String? = nil) {
        id = weighIn.id.lowercasedString
        self.unit = unit.rawValue
        weight = sent?["weight"] ?? Mass.format(weighIn.weight.value(in: unit), decimals: unit.displayDecimals + 1)
        day = DashboardPage.shortDate(weighIn.localDate)
        time = sent?["date"] ?? String(weighIn.localTimeISO.prefix(19))
        clock = LocalDateTime(instant: weighIn.measuredAt, utcOffsetSeconds: weighIn.utcOffsetSeconds).clock
        note = sent.map { $0["note"] ?? "" } ?? weighIn.note ?? ""
        self.formError = formError
        self.confirmation = confirmation
    }
}

/// The import form and the list of earlier imports.
struct ImportPage {
    struct Batch { let id: Int64; let name: String; let format: String; let when: String; let imported: Int; let undone: Bool }
    struct Format { let value: String; let name: String }
    let formats: [Format]
    /// Every format's product name, for the page's sentence of what it imports.
    let formatList: String
    let batches: [Batch]
    let hasBatches: Bool
    let formError: String?

    init(formats: [String], batches: [ImportBatch], timeZone: TimeZone, formError: String? = nil) {
        self.formats = formats.map { Format(value: $0, name: Self.productName($0)) }
        formatList = self.formats.map(\.name).joined(separator: ", ")
        self.formError = formError
        self.batches = batches.map {
            Batch(id: $0.id, name: $0.fileName ?? "upload", format: Self.productName($0.format),
                  when: DashboardPage.moment($0.createdAt, in: timeZone),
                  imported: $0.imported, undone: $0.undoneAt != nil)
        }
        hasBatches = !batches.isEmpty
    }
}

extension ImportPage {
    /// The name a person knows a file format by: the app that wrote it.
    static func productName(_ format: String) -> String {
        switch format {
        case "csv": "CSV (date, weight)"
        case "hackdiet": "The Hacker's Diet"
        case "libra": "Libra"
        case "fitbit": "Fitbit weight (JSON)"
        case "google-health": "Google Health weight (CSV)"
        case "myfitnesspal": "MyFitnessPal"
        case "fitbod": "Fitbod"
        case "strong": "Strong"
        case "fitnotes": "FitNotes"
        case "nightscout": "Nightscout"
        case "apple-health": "Apple Health"
        case "usda": "USDA FoodData Central"
        case "demo": "Demo data"
        default: format.hasPrefix("off") ? "Open Food Facts" : format.hasPrefix("cinn") ? "Cinn food journal" : format
        }
    }
}

/// "Undo import #3?": what undoing it removes, before it does.
struct UndoImportPage {
    let id: Int64
    let name: String
    let from: String
    /// "This removes the 644 sets it added, from 16 weeks (3 Jan – 24 Apr 2024)."; nil when nothing of it is left.
    let removes: String?

    init(batch: ImportBatch, contents: ImportContents, timeZone: TimeZone) {
        id = batch.id
        name = batch.fileName ?? "upload"
        from = ImportPage.productName(batch.format) + ", imported " + DashboardPage.moment(batch.createdAt, in: timeZone)
        let parts = contents.counts.map { Self.describe($0.count, $0.kind) }
        guard !parts.isEmpty else {
            removes = nil
            return
        }
        let list = parts.count == 1 ? parts[0] : parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1]
        var sentence = "This removes the \(list) it added"
        if let days = contents.days {
            let count = days.lowerBound.distance(to: days.upperBound) + 1
            let span = count >= 14 ? "\(Int((Double(count) / 7).rounded(.up))) weeks" : count == 1 ? "one day" : "\(count) days"
            let dates = count == 1 ? DashboardPage.shortDate(days.lowerBound)
                : "\(DashboardPage.shortDate(days.lowerBound, withYear: days.lowerBound.year != days.upperBound.year)) – \(DashboardPage.shortDate(days.upperBound))"
            sentence += ", from \(span) (\(dates))"
        }
        removes = sentence + "."
    }

    /// "644 sets", "1 food entry": a count of an import's records in words.
    static func describe(_ count: Int, _ kind: ImportContents.Kind) -> String {
        let (one, many): (String, String) = switch kind {
        case .weighIns: ("weigh-in", "weigh-ins")
        case .bodyFat: ("body-fat reading", "body-fat readings")
        case .foodEntries: ("food entry", "food entries")
        case .exerciseEntries: ("exercise entry", "exercise entries")
        case .glucose: ("glucose reading", "glucose readings")
        case .insulin: ("insulin dose", "insulin doses")
        case .mealEvents: ("meal eaten", "meals eaten")
        case .workoutSets: ("set", "sets")
        case .healthDays: ("day of health data", "days of health data")
        case .meals: ("meal", "meals")
        case .foods: ("food", "foods")
        case .presets: ("preset", "presets")
        }
        return "\(count.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) \(count == 1 ? one : many)"
    }
}

/// A kept upload whose file does not say which unit its weights are in: the question, and the form that answers it.
struct ImportUnitPage {
    let token: String
    let fileName: String?
    let question: String
}

/// What an import did, or (with a token) what it would do.
struct ImportReportPage {
    let heading: String
    let summary: String
    let format: String
    let rowsRead: Int
    let imported: Int
    let importedLabel: String
    let duplicates: Int
    /// Rows with nothing to import, when there are any, and what they are.
    let skipped: Int?
    let skippedKinds: String
    let rejectedCount: Int
    let rejected: [RejectedRow]
    let hasRejected: Bool
    /// Apple Health's day summaries, per type.
    let healthDays: [ImportedHealthDays]
    let hasHealthDays: Bool
    let healthDaysWrittenLabel: String
    let token: String?
    let skipInvalid: Bool
    /// What the file's rows are: "sets", "weigh-ins" or "records".
    let things: String
    /// Where to look at what was imported.
    let nextLink: String
    let nextLabel: String

    /// A file with invalid rows and good ones: how many good ones "Import the good rows" would add.
    let goodRows: Int?

    init(report: ImportReport, token: String?, skipInvalid: Bool) {
        let blocked = report.rejectedCount > 0 && !skipInvalid
        if token != nil {
            heading = blocked ? "This file has invalid rows" : "Ready to import"
            summary = blocked
                ? "Nothing can be imported until the rows below are fixed, or you choose to import the good rows only."
                : "Nothing has been written yet. Check the numbers, then import."
            importedLabel = "Would be added"
        } else {
            heading = report.importID == nil ? "Nothing imported" : "Imported"
            summary = report.importID.map { "Import #\($0) is done. You can undo it on the import page." }
                ?? (blocked ? "The file has invalid rows, so nothing was written." : "Everything in the file is already in your journal.")
            importedLabel = "Added"
        }
        format = ImportPage.productName(report.format)
        rowsRead = report.rowsRead
        imported = report.imported
        duplicates = report.duplicates
        skipped = report.skipped > 0 ? report.skipped : nil
        skippedKinds = report.skippedKinds
        rejectedCount = report.rejectedCount
        rejected = report.rejected
        hasRejected = !report.rejected.isEmpty
        healthDays = report.healthDays
        hasHealthDays = !healthDays.isEmpty
        healthDaysWrittenLabel = token == nil ? "New or newer" : "To write"
        self.token = report.addsAnything ? token : nil
        goodRows = blocked && self.token != nil ? report.imported : nil
        self.skipInvalid = skipInvalid
        if WorkoutFileFormat(rawValue: report.format) != nil {
            (things, nextLink, nextLabel) = ("sets", "/lifts", "See your lifts")
        } else if report.format == "apple-health" {
            (things, nextLink, nextLabel) = ("records", "/more-data", "See your health data")
        } else if report.format == "myfitnesspal" {
            (things, nextLink, nextLabel) = ("records", "/food", "See your food log")
        } else {
            (things, nextLink, nextLabel) = ("weigh-ins", "/", "See the dashboard")
        }
    }
}

/// The goal and settings forms.
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

/// An error shown as a page.
struct ErrorPage {
    let heading: String
    let message: String
    let back: String
}
