import CinnCharts
import CinnCore
import CinnJournal
import CinnStore
import Foundation

/// How the food pages write numbers, days, times and links.
enum NutritionText {
    /// The macros of `nutrients` as JSON, for a page's script that works amounts out as you type: {"energy":52,…}.
    static func macrosJSON(_ nutrients: Nutrients) throws(CinnError) -> String {
        let amounts = Dictionary(
            uniqueKeysWithValues: Nutrient.macros.compactMap { nutrient in
                nutrients[nutrient].flatMap { $0.isFinite ? (nutrient.key, $0) : nil }
            })
        return try jsonString(amounts)
    }

    /// "1850 kcal" or "7740 kJ", whole.
    static func energy(_ kcal: Double, _ unit: EnergyUnit) -> String { unit.format(kilocalories: kcal) }

    /// An amount in its nutrient's unit ("12 g", "3.4 mg"), energy in the user's unit.
    static func amount(_ value: Double, of nutrient: Nutrient, energyUnit: EnergyUnit) -> String {
        nutrient == .energy ? energy(value, energyUnit) : "\(number(value)) \(nutrient.unit.rawValue)"
    }

    /// Whole from 10 up, one decimal from 1, else two: "12", "3.4", "0.25".
    static func number(_ value: Double) -> String {
        decimal(value, places: value >= 10 ? 0 : value >= 1 ? 1 : 2)
    }

    /// `value` rounded to `places` decimals, without trailing zeros.
    static func decimal(_ value: Double, places: Int) -> String {
        Mass.format(value, upTo: places)
    }

    /// "32%", "<1%" for a trace, nil without a Daily Value.
    static func percentDailyValue(_ amount: Double, of nutrient: Nutrient) -> String? {
        nutrient.percentDailyValue(of: amount).map { $0 > 0 && $0 < 0.5 ? "<1%" : "\($0.wholeText)%" }
    }

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// "Fri 15 Mar", with the year when it is not `today`'s.
    static func date(_ date: LocalDate, today: LocalDate) -> String {
        "\(weekdays[date.weekday - 1]) " + DashboardPage.shortDate(date, withYear: date.year != today.year)
    }

    /// "Today", "Yesterday", or the date.
    static func day(_ date: LocalDate, today: LocalDate) -> String {
        switch date.distance(to: today) {
        case 0: "Today"
        case 1: "Yesterday"
        default: self.date(date, today: today)
        }
    }

    /// "1 day", "3 days".
    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// "08:05", the wall-clock time of `instant` at `utcOffsetSeconds`.
    static func clock(_ instant: Date, utcOffsetSeconds: Int) -> String {
        LocalDateTime(instant: instant, utcOffsetSeconds: utcOffsetSeconds).clock
    }

    /// "2 × 1 bar (40 g)", or just the serving for one.
    static func servings(_ count: Double, _ label: String) -> String {
        count == 1 ? label : "\(decimal(count, places: 2)) × \(label)"
    }

    /// A path with query parameters, percent-encoded; nil and empty values are left out.
    static func link(_ path: String, _ parameters: [(String, String?)]) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let query = parameters.compactMap { name, value -> String? in
            guard let value, !value.isEmpty else { return nil }
            return "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
        }
        return query.isEmpty ? path : path + "?" + query.joined(separator: "&")
    }
}

/// One choice of a select or a group of radio buttons: its value, what the person reads, and whether it is chosen.
struct Choice {
    let value: String
    let label: String
    /// A line under the label, for radio buttons that need one.
    var detail: String? = nil
    let selected: Bool
    /// The grams (or ml) of a serving, for a page's script.
    var grams: String? = nil
}

/// A line of a nutrient table: the nutrient, its amount (or amounts), and its %DV.
struct NutrientRow {
    let name: String
    let amount: String
    let perServing: String?
    let percent: String?
    let isMacro: Bool
    let isDetail: Bool
    /// Some entries did not say how much of it they had: the amount is at least this.
    let isPartial: Bool

    /// Nutrients that are part of another one above them (saturated fat of fat), shown indented.
    static let details: Set<String> = [
        "saturated_fat", "monounsaturated_fat", "polyunsaturated_fat", "trans_fat", "omega3_ala",
        "omega3_epa", "omega3_dha", "fiber", "sugars", "added_sugars",
    ]

    init(_ nutrient: Nutrient, amount: Double, perServing: Double? = nil, energyUnit: EnergyUnit, isPartial: Bool = false) {
        name = nutrient.name
        self.amount = NutritionText.amount(amount, of: nutrient, energyUnit: energyUnit)
        self.perServing = perServing.map { NutritionText.amount($0, of: nutrient, energyUnit: energyUnit) }
        percent = NutritionText.percentDailyValue(perServing ?? amount, of: nutrient)
        isMacro = Nutrient.macros.contains(nutrient)
        isDetail = Self.details.contains(nutrient.key)
        self.isPartial = isPartial
    }
}

/// Protein, carbohydrate or fat as a big number with its %DV.
struct MacroNumber {
    let label: String
    let amount: String
    let percent: String?

    /// The macros of `nutrients`, each beside its Daily Value, or beside the person's own target among `goals` when
    /// there is one ("of 120 g"): one number to compare with, not two.
    static func list(_ nutrients: Nutrients, goals: [NutrientGoal] = []) -> [MacroNumber] {
        [(Nutrient.protein, "protein"), (Nutrient.carbohydrate, "carbs"), (Nutrient.fat, "fat")].map { nutrient, label in
            let amount = nutrients[nutrient]
            let mine = goals.first { $0.nutrient == nutrient && $0.source == .mine }
            return MacroNumber(
                label: label, amount: amount.map { "\(NutritionText.number($0)) g" } ?? "—",
                percent: mine.map { "of \(NutritionText.number($0.target)) g" }
                    ?? amount.flatMap { NutritionText.percentDailyValue($0, of: nutrient) }.map { "\($0) DV" })
        }
    }
}

/// The meal choices of a form: the usual four, the day's own meals, and the chosen one.
enum MealChoices {
    static func list(selected: Meal?, extra: [Meal] = []) -> [Choice] {
        var meals = Meal.standard
        for meal in extra + [selected].compactMap({ $0 }) where !meals.contains(meal) { meals.append(meal) }
        return meals.map { Choice(value: $0.name, label: $0.title, selected: $0 == selected) }
    }

    /// The time a meal is usually eaten, for logging on another day: "08:00".
    static func usualTime(_ meal: Meal?) -> String {
        switch meal {
        case .breakfast: "08:00"
        case .lunch: "12:30"
        case .dinner: "19:00"
        case .snacks: "15:30"
        default: "12:00"
        }
    }

    /// "2024-03-14T08:00" from a date and a time field; the date alone when there is no time.
    static func time(date: String?, clock: String?) -> String? {
        guard let date else { return nil }
        guard let clock else { return date }
        return "\(date)T\(clock)"
    }
}

/// What was wrong with a submitted form, and which field it names.
struct FormProblem {
    let field: String?
    let message: String

    init(_ error: CinnError) {
        field = error.field
        message = error.message
    }

    /// The message when it is about `field`.
    func message(for field: String) -> String? { self.field == field ? message : nil }

    /// The message when it names none of `fields`, to show above the form.
    func general(besides fields: [String]) -> String? {
        field.map { fields.contains($0) } == true ? nil : message
    }
}

/// A goal of the day as a bar: how much of it is eaten, and whether that is under, within or over it.
struct TargetBar {
    let key: String
    let label: String
    /// "112 of 150 g", "1,840 mg, at most 2,300".
    let amount: String
    /// How full the bar is, 0 to 100.
    let percent: Int
    /// `under`, `met` or `over`.
    let standing: String
    /// Said to a screen reader and on hover: "Protein: 112 of 150 g, under the target".
    let summary: String

    /// The bars of a day: every macro target and bound of the user's, and the nutrients shown by default.
    static func list(_ day: DayNutrition) -> [TargetBar] {
        day.progress.filter(\.goal.isShownByDefault).map { TargetBar($0.goal, amount: $0.amount, standing: $0.standing) }
    }

    init(_ goal: NutrientGoal, amount eaten: Double, standing: NutrientGoal.Standing) {
        let nutrient = goal.nutrient, unit = nutrient.unit.rawValue
        func number(_ value: Double) -> String { NutritionText.number(value) }
        key = nutrient.key
        label = nutrient.name
        if goal.macro != nil {
            amount = "\(number(eaten)) of \(number(goal.target)) \(unit)"
        } else if let minimum = goal.minimum, let maximum = goal.maximum {
            amount = "\(number(eaten)) \(unit), \(number(minimum))–\(number(maximum))"
        } else if let minimum = goal.minimum {
            amount = "\(number(eaten)) of \(number(minimum)) \(unit)"
        } else {
            amount = "\(number(eaten)) \(unit), at most \(number(goal.maximum ?? 0))"
        }
        percent = Int(min(goal.fraction(eaten), 1) * 100)
        self.standing = standing.rawValue
        let said =
            switch standing {
            case .under: goal.maximum != nil && goal.minimum == nil ? "within the limit" : "under the target"
            case .met: goal.minimum == nil ? "within the limit" : "target met"
            case .over: "over the \(goal.minimum == nil ? "limit" : "target")"
            }
        summary = "\(label): \(self.amount), \(said)"
    }
}

/// The day view: what is left of the calorie target, the meals with their entries, the totals.
struct FoodDayPage {
    struct Entry {
        let id: String
        let name: String
        let brand: String?
        let amount: String
        let time: String
        let energy: String
        let note: String?
        let justLogged: Bool
    }

    struct MealSection {
        let meal: String
        let title: String
        let anchor: String
        let mealEnergy: String
        let entries: [Entry]
        let hasEntries: Bool
        let addLink: String
        let presetName: String
        let mealCopyError: String?
        let mealPresetError: String?
        let actionsOpen: Bool
        /// An empty meal the day before had: copied here in one tap ("Copy yesterday's breakfast").
        let copyPrevious: CopyPrevious?
    }

    struct CopyPrevious {
        let from: String
        let label: String
    }

    let date: String
    let heading: String
    /// The date under "Today" or "Yesterday".
    let fullDate: String?
    let previous: String
    let next: String?
    let today: String
    let energyKcal: Int
    let targetKcal: Int?
    /// Today's view, in a week the target moved: "Your target moved from 1815 to 1760 kcal: …".
    let targetChange: String?
    let state: String
    let answer: String
    let answerDetail: String
    let barPercent: Int?
    let hasTarget: Bool
    let macros: [MacroNumber]
    /// The day's goals as bars: the macro targets and the user's own bounds, then fiber and sodium by default.
    let targets: [TargetBar]
    let hasTargets: Bool
    let meals: [MealSection]
    let hasEntries: Bool
    let nutrients: [NutrientRow]
    let hasPartial: Bool
    let chart: String
    let notice: String?
    let searchLink: String
    let copyTo: String
    let copyError: String?
    /// "Calories to maintain: 2350 kcal" and the day's exercise energy, when known.
    let maintenance: String?
    let isComplete: Bool
    let isPartial: Bool
    let canMark: Bool

    /// Which of the day's forms failed: `copy`, or `copy:MEAL` / `preset:MEAL` for one meal.
    struct FailedForm {
        let form: String
        let message: String
    }

    /// - Parameter previousDay: the day before's entries, offered for meals this day has not logged yet.
    init(
        day: DayNutrition, settings: UserSettings, status: DayStatus?, today: LocalDate, notice: String?, loggedID: UUID?,
        failed: FailedForm? = nil, previousDay: [FoodLogEntry] = []
    ) {
        let unit = settings.energyUnit
        let lines = [
            day.maintenanceKcal.map { "Calories to maintain: \(NutritionText.energy($0, unit))" },
            day.exerciseKcal.map { "Exercise: \(NutritionText.energy($0, unit)), already counted in your expenditure" },
        ]
        .compactMap { $0 }
        maintenance = lines.isEmpty ? nil : lines.joined(separator: " · ")
        isComplete = status == .complete
        isPartial = status == .partial
        canMark = day.date <= today
        date = day.date.iso
        heading = NutritionText.day(day.date, today: today)
        let written = NutritionText.date(day.date, today: today)
        fullDate = written == heading ? nil : written
        previous = day.date.adding(days: -1).iso
        next = day.date < today ? day.date.adding(days: 1).iso : nil
        self.today = today.iso
        energyKcal = day.energy.roundedInt ?? 0
        targetKcal = day.energyTargetKcal?.roundedInt
        hasTarget = day.energyTargetKcal != nil
        targetChange = day.date == today ? day.targetChange?.message(in: unit) : nil
        (state, answer, answerDetail, barPercent) = Self.answer(day, unit)
        macros = MacroNumber.list(day.totals, goals: day.progress.map(\.goal))
        targets = TargetBar.list(day)
        hasTargets = !targets.isEmpty
        hasEntries = !day.entries.isEmpty
        let before = Dictionary(grouping: previousDay, by: \.meal.name)
        meals = day.meals.enumerated().map { index, group in
            let copyPrevious =
                group.entries.isEmpty
                ? before[group.meal.name].map { entries in
                    let energy = NutritionText.energy(entries.reduce(0) { $0 + $1.energy }, unit)
                    let food = entries.count == 1 ? "1 food" : "\(entries.count) foods"
                    let whose = day.date == today ? "yesterday’s" : "the day before’s"
                    return CopyPrevious(
                        from: day.date.adding(days: -1).iso,
                        label: "Copy \(whose) \(group.meal.title.lowercased()) (\(food), \(energy))")
                } : nil
            return Self.section(
                group, index: index, date: day.date, today: today, unit: unit, loggedID: loggedID, failed: failed,
                copyPrevious: copyPrevious)
        }
        let entries = day.entries
        nutrients = day.totals.amounts.map { nutrient, amount in
            NutrientRow(nutrient, amount: amount, energyUnit: unit, isPartial: entries.contains { $0.nutrients[nutrient] == nil })
        }
        hasPartial = nutrients.contains(where: \.isPartial)
        chart =
            hasEntries
            ? MacroSplitChart(
                nutrients: day.totals, title: "Energy from protein, carbohydrate and fat on \(day.date.dayMonthYear)",
                energyUnit: unit
            ).svg() : ""
        self.notice = notice
        searchLink = NutritionText.link(Site.foodSearch.path, [("date", day.date.iso)])
        copyTo = (day.date == today ? today.adding(days: -1) : today).iso
        copyError = failed?.form == "copy" ? failed?.message : nil
    }

    /// The energy answer: its state (`yes`, `careful`, `no`, `plain`), the sentence, the detail, and how full the bar is.
    static func answer(_ day: DayNutrition, _ unit: EnergyUnit) -> (state: String, answer: String, detail: String, barPercent: Int?) {
        let eaten = NutritionText.energy(day.energy, unit)
        guard let target = day.energyTargetKcal, let remaining = day.energyRemaining(in: unit) else {
            return ("plain", "\(eaten) eaten", "No daily calorie target yet.", nil)
        }
        let detail = "\(eaten) eaten of \(NutritionText.energy(target, unit))"
        let percent = (day.energy / target * 100).roundedInt ?? 100
        if remaining < 0 {
            return ("no", "\(-remaining) \(unit.rawValue) over", detail, min(percent, 100))
        }
        let state = Double(remaining) < unit.value(kilocalories: target) * 0.1 ? "careful" : "yes"
        return (state, "\(remaining) \(unit.rawValue) left", detail, percent)
    }

    static func section(
        _ group: DayNutrition.MealGroup, index: Int, date: LocalDate, today: LocalDate, unit: EnergyUnit,
        loggedID: UUID?, failed: FailedForm?, copyPrevious: CopyPrevious?
    ) -> MealSection {
        let meal = group.meal
        let copyError = failed?.form == "copy:\(meal.name)" ? failed?.message : nil
        let presetError = failed?.form == "preset:\(meal.name)" ? failed?.message : nil
        return MealSection(
            meal: meal.name, title: meal.title, anchor: meal.isStandard ? "meal-\(meal.name)" : "meal-\(index)",
            mealEnergy: NutritionText.energy(group.totals.energy ?? 0, unit),
            entries: group.entries.map { entry in
                Entry(
                    id: entry.id.lowercasedString, name: entry.name, brand: entry.brand,
                    amount: NutritionText.servings(entry.servings, entry.servingLabel), time: entry.localTimeOfDay,
                    energy: NutritionText.energy(entry.energy, unit), note: entry.note, justLogged: entry.id == loggedID)
            },
            hasEntries: !group.entries.isEmpty,
            addLink: NutritionText.link(Site.foodSearch.path, [("meal", meal.name), ("date", date.iso)]),
            presetName: "\(meal.title), \(DashboardPage.shortDate(date, withYear: false))",
            mealCopyError: copyError, mealPresetError: presetError, actionsOpen: copyError != nil || presetError != nil,
            copyPrevious: copyPrevious)
    }
}

/// One food in a list of search results, recents or frequent foods.
struct FoodResult {
    let id: String
    let name: String
    let brand: String?
    let versions: String?
    let energy: String
    let serving: String?
    let mine: Bool
    /// Among the recent foods: a badge in search results.
    let recent: Bool
    /// When it was last logged, in the list of recent foods.
    let ago: String?
    let times: String?
    let link: String

    /// How a list shows when a food was eaten: a badge, how long ago, or how often.
    enum Use {
        case badge
        case ago(now: Date)
        case times(Int)
    }

    init(_ food: FoodSearchCandidate, otherVersions: Int = 0, use: Use, unit: EnergyUnit, context: [(String, String?)]) {
        id = food.id.lowercasedString
        name = food.name
        brand = food.brand
        versions = otherVersions > 0 ? NutritionText.plural(otherVersions, "other version") : nil
        energy = food.energyKcalPer100.map { "\(NutritionText.energy($0, unit)) per 100 \(food.basis.rawValue)" } ?? "energy unknown"
        serving = food.defaultServing.map { $0.description(basis: food.basis) }
        mine = food.isMine
        switch use {
        case .badge:
            (recent, ago, times) = (food.lastUsed != nil, nil, nil)
        case .ago(let now):
            (recent, ago, times) = (false, food.lastUsed.map { $0.ago(now: now) }, nil)
        case .times(let count):
            (recent, ago, times) = (false, nil, "logged " + NutritionText.plural(count, "time"))
        }
        link = NutritionText.link(Site.logFood.path(food.id), context)
    }
}

/// The template reads a result's fields by name, without reflection: a search page lists up to 60 results, and looking
/// their fields up through `Mirror` was half of the page's time (BENCHMARKS.md, "Add food page"). An absent optional
/// is `false`, not nil, so that the lookup stops here instead of searching the whole page for it (each is only used
/// as a section, where false and nil both mean "leave it out").
extension FoodResult: TemplateParent {
    func child(named key: String) -> Any? {
        switch key {
        case "id": id
        case "link": link
        case "name": name
        case "energy": energy
        case "mine": mine
        case "recent": recent
        case "brand": brand ?? false
        case "versions": versions ?? false
        case "serving": serving ?? false
        case "ago": ago ?? false
        case "times": times ?? false
        default: nil
        }
    }
}

/// A preset as the search page and the presets page list it.
struct PresetSummary {
    let id: String
    let name: String
    let presetMeal: String?
    let energy: String
    let items: [String]
    /// The key of a form that logs it (`FormKeys`).
    let key = FormKeys.fresh()

    init(_ preset: FoodPreset, unit: EnergyUnit) {
        id = preset.id.lowercasedString
        name = preset.name
        presetMeal = preset.meal?.title
        energy = NutritionText.energy(preset.nutrients.energy ?? 0, unit)
        items = preset.items.map { NutritionText.servings($0.servings, $0.servingLabel) + " " + $0.name }
    }
}

/// Search with results as you type; before anything is typed, recents, frequent foods and presets.
struct FoodSearchPage {
    let query: String
    let meal: String?
    let mealTitle: String?
    let date: String?
    let results: [FoodResult]
    let resultCount: String
    let hasQuery: Bool
    let noResults: Bool
    let recents: [FoodResult]
    let hasRecents: Bool
    let frequent: [FoodResult]
    let hasFrequent: Bool
    let presets: [PresetSummary]
    let hasPresets: Bool
    let isEmptyJournal: Bool
    let barcode: String
    let barcodeError: String?
    let energyUnit: String
    let newFoodLink: String
    /// The page without a search, at the barcode field.
    let barcodeLink: String
    let quick: QuickAddForm
    /// What the journal's food database lacks, said when nothing matches.
    let missing: MissingFoods

    /// Said when a search finds nothing: which foods are there, and how to add the ones that are not.
    struct MissingFoods {
        /// Branded products are there: a food database was imported, or a food with a brand was made or found.
        let hasBrands: Bool
        /// A food database was imported (its branded products are searched).
        let hasDatabase: Bool
        /// This person may import one (single-user mode, or an administrator).
        let mayImport: Bool
    }

    /// The quick add card: what was typed, and what was wrong with it.
    struct QuickAddForm {
        static let fields = ["energy", "protein_g", "carbohydrate_g", "fat_g", "name"]

        let energy: String
        let protein: String
        let carbohydrate: String
        let fat: String
        let name: String
        let energyError: String?
        let proteinError: String?
        let carbohydrateError: String?
        let fatError: String?
        let nameError: String?
        let error: String?
        let isOpen: Bool
        /// The form's key (`FormKeys`): fresh, or the sent one when the form comes back.
        let key: String

        init(_ form: FoodWebController.QuickAddPost? = nil, problem: FormProblem? = nil) {
            key = form?.key ?? FormKeys.fresh()
            energy = form?.energy ?? ""
            protein = form?.protein ?? ""
            carbohydrate = form?.carbohydrate ?? ""
            fat = form?.fat ?? ""
            name = form?.name ?? ""
            energyError = problem?.message(for: "energy")
            proteinError = problem?.message(for: "protein_g")
            carbohydrateError = problem?.message(for: "carbohydrate_g")
            fatError = problem?.message(for: "fat_g")
            nameError = problem?.message(for: "name")
            error = problem?.general(besides: Self.fields)
            isOpen = problem != nil
        }
    }

    /// What the search page lists.
    struct Lists {
        var results: [FoodSearchResult] = []
        var recents: [FoodSearchCandidate] = []
        var frequent: [(food: FoodSearchCandidate, count: Int)] = []
        var presets: [FoodPreset] = []
    }

    init(
        query: String, meal: Meal?, date: LocalDate?, lists: Lists, settings: UserSettings, now: Date, barcode: String = "",
        barcodeError: String? = nil, quick: QuickAddForm = QuickAddForm(),
        missing: MissingFoods = MissingFoods(hasBrands: true, hasDatabase: true, mayImport: false)
    ) {
        self.quick = quick
        self.missing = missing
        let unit = settings.energyUnit
        let context = [("meal", meal?.name), ("date", date?.iso)]
        self.query = query
        self.meal = meal?.name
        mealTitle = meal?.title
        self.date = date?.iso
        results = lists.results.map { FoodResult($0.food, otherVersions: $0.otherVersions, use: .badge, unit: unit, context: context) }
        let count = NutritionText.plural(results.count, "food")
        let approximate = !lists.results.isEmpty && lists.results.allSatisfy(\.isApproximate)
        resultCount = query.isEmpty ? "" : approximate ? "Nothing matches “\(query)” as typed; \(count) of a nearby search" : count
        hasQuery = !query.isEmpty
        // A nearby search's foods come with the advice for a food that is not there.
        noResults = hasQuery && (results.isEmpty || approximate)
        recents = lists.recents.map { FoodResult($0, use: .ago(now: now), unit: unit, context: context) }
        hasRecents = !recents.isEmpty
        frequent = lists.frequent.map { FoodResult($0.food, use: .times($0.count), unit: unit, context: context) }
        hasFrequent = !frequent.isEmpty
        presets = lists.presets.map { PresetSummary($0, unit: unit) }
        hasPresets = !presets.isEmpty
        isEmptyJournal = recents.isEmpty && frequent.isEmpty && presets.isEmpty
        self.barcode = barcode
        self.barcodeError = barcodeError
        energyUnit = unit.rawValue
        newFoodLink = NutritionText.link(Site.newFood.path, context)
        barcodeLink = NutritionText.link(Site.foodSearch.path, context) + "#code"
    }
}
