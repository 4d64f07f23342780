import CinnCore
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// The food log's web pages: the day, search and barcodes, logging, foods, presets, history and statistics.
struct FoodWebController {
    typealias Context = JournalRequestContext

    func addRoutes(to router: RouterGroup<Context>) {
        router.get(Site.foodToday, use: today)
        router.get(Site.foodDay, use: day)
        router.post(Site.copyFoodDay, use: copy)
        router.post(Site.foodDayStatus, use: markDay)
        router.get(Site.foodSearch, use: search)
        router.get(Site.barcode, use: barcode)
        router.post(Site.quickAdd, use: quickAdd)
        router.get(Site.foodNom, use: nom)
        router.get(Site.logFood, use: logForm)
        router.post(Site.logFood, use: log)
        router.get(Site.editFoodEntry, use: editEntryForm)
        router.post(Site.foodEntry, use: editEntry)
        router.get(Site.deleteFoodEntry, use: confirmDeleteEntry)
        router.post(Site.deleteFoodEntry, use: deleteEntry)
        router.get(Site.newFood, use: newFoodForm)
        router.post(Site.newFood, use: makeFood)
        router.get(Site.food, use: foodPage)
        router.get(Site.editFood, use: editFoodForm)
        router.post(Site.food, use: editFood)
        router.get(Site.deleteFood, use: confirmDeleteFood)
        router.post(Site.deleteFood, use: deleteFood)
        router.get(Site.presets, use: presets)
        router.post(Site.presets, use: savePreset)
        router.post(Site.logPreset, use: logPreset)
        router.get(Site.deletePreset, use: confirmDeletePreset)
        router.post(Site.deletePreset, use: deletePreset)
        router.get(Site.recipes, use: recipes)
        router.post(Site.recipes, use: saveRecipe)
        router.get(Site.newRecipe, use: newRecipe)
        router.post(Site.recipeDraft, use: recipeDraft)
        router.get(Site.editRecipe, use: editRecipe)
        router.post(Site.recipe, use: saveRecipe)
        router.get(Site.foodHistory, use: history)
        router.get(Site.foodStatistics, use: statistics)
    }

    /// The parts of the food pages, for the links above each.
    enum Section: String, CaseIterable {
        case day = "Day"
        case search = "Add"
        case presets = "Presets"
        case recipes = "Recipes"
        case history = "History"
        case stats = "Stats"

        var path: String {
            switch self {
            case .day: Site.foodToday.path
            case .search: Site.foodSearch.path
            case .presets: Site.presets.path
            case .recipes: Site.recipes.path
            case .history: Site.foodHistory.path
            case .stats: Site.foodStatistics.path
            }
        }
    }

    /// The links above each food page.
    struct Nav {
        struct Link {
            let label: String
            let href: String
            let on: Bool
        }

        let links: [Link]
    }

    /// A food page inside the layout, under the links to the other food pages.
    func page(
        _ template: String, _ model: Any, title: String, section: Section?, notice: String? = nil, status: HTTPResponse.Status = .ok
    ) -> WebAnswer {
        let nav = Nav(links: Section.allCases.map { Nav.Link(label: $0.rawValue, href: $0.path, on: $0 == section) })
        var page = Page(template, model, title: title, tab: .food, notice: notice, status: status)
        page.parts.insert(("food-nav", nav), at: 0)
        return .page(page)
    }

    /// Today and the wall-clock time now, in the user's time zone.
    func now(_ context: Context, _ settings: UserSettings) -> (today: LocalDate, clock: String, secondsOfDay: Double) {
        let instant = context.journal.now()
        let offset = settings.timeZone.secondsFromGMT(for: instant)
        let local = LocalDateTime(instant: instant, utcOffsetSeconds: offset)
        return (context.journal.today(settings), local.clock, local.secondsOfDay)
    }

    /// Runs `body`; a form error (invalid input) goes to `failed`, which renders the form again.
    func handlingFormErrors(
        _ body: () async throws -> WebAnswer,
        failed: (CinnError) async throws -> WebAnswer
    ) async throws -> WebAnswer {
        do {
            return try await body()
        } catch let error as CinnError where error.code == .invalidInput {
            return try await failed(error)
        }
    }
}

// MARK: - The day

extension FoodWebController {
    @Sendable func today(_ request: Request, context: Context) async throws -> WebAnswer {
        try await renderDay(context, context.journal.today(try await context.journal.settings()), request: request)
    }

    @Sendable func day(_ request: Request, context: Context) async throws -> WebAnswer {
        try await renderDay(context, try date(context), request: request)
    }

    func date(_ context: Context) throws -> LocalDate {
        guard let date = LocalDate(iso: context.parameters.get("date") ?? "") else { throw CinnError.notFound("There is no such page.") }
        return date
    }

    func renderDay(_ context: Context, _ date: LocalDate, request: Request, failed: FoodDayPage.FailedForm? = nil) async throws -> WebAnswer
    {
        let (day, settings, status) = try await context.journal.day(date)
        let loggedID = request.query("logged").flatMap(UUID.init(text:))
        // The day before, for the meals this day has not logged yet ("Copy yesterday's breakfast").
        let previous =
            day.meals.contains { $0.entries.isEmpty }
            ? try await context.journal.foodEntries(from: date.adding(days: -1), to: date.adding(days: -1))
            : []
        let model = FoodDayPage(
            day: day, settings: settings, status: status, today: context.journal.today(settings),
            notice: notice(request, day: day, loggedID: loggedID, unit: settings.energyUnit),
            loggedID: loggedID, failed: failed, previousDay: previous)
        return page(
            "food-day", model, title: "Food, \(model.heading)", section: .day,
            status: failed == nil ? .ok : .unprocessableContent)
    }

    /// What the day says after a form sent the person to it: "Logged Oats, 300 kcal."
    func notice(_ request: Request, day: DayNutrition, loggedID: UUID?, unit: EnergyUnit) -> String? {
        if let entry = day.entries.first(where: { $0.id == loggedID }) {
            return "Logged \(entry.name), \(NutritionText.energy(entry.energy, unit))."
        }
        if let added = request.query("added").flatMap(Int.init), added > 0 {
            return "Added \(added == 1 ? "1 entry" : "\(added) entries") to this day."
        }
        return Done.notice(request)
    }

    /// Marks the day complete or partial, then shows it again.
    @Sendable func markDay(_ request: Request, context: Context) async throws -> WebAnswer {
        let date = try date(context)
        struct StatusForm: Decodable { @Field var status: String? }
        let form = try await request.decodeForm(StatusForm.self)
        try await context.journal.setDayStatus(date, status: try DayStatus.parse(form.status ?? ""))
        return Done.dayMarked.redirect(to: Site.foodDay.path(date))
    }

    /// Copies the day, or one meal of it, to another day.
    @Sendable func copy(_ request: Request, context: Context) async throws -> WebAnswer {
        let source = try date(context)
        struct CopyForm: Decodable {
            @Field var meal: String?
            @Field var to: String?
            @Field var key: String?
        }
        let form = try await request.decodeForm(CopyForm.self)
        let meal = form.meal
        return try await handlingFormErrors {
            guard let to = form.to else { throw CinnError.invalid("to", "choose the day to copy to") }
            let target = try LocalDate.parse(to, field: "to")
            // Sent again, the copy is not made twice: the answer is the day copied to.
            return try await FormKeys.once(try form.$key.uuid(), in: context.journal) {
                let copies = try await context.journal.copyEntries(from: source, meal: meal, to: target, toMeal: nil)
                return .redirect(NutritionText.link(Site.foodDay.path(target), [("added", "\(copies.count)")]))
            } answer: {
                .redirect(Site.foodDay.path(target))
            }
        } failed: { error in
            try await renderDay(
                context, source, request: request,
                failed: .init(form: meal.map { "copy:\($0)" } ?? "copy", message: error.message))
        }
    }
}

// MARK: - Logging and entries

extension FoodWebController {
    @Sendable func logForm(_ request: Request, context: Context) async throws -> WebAnswer {
        let food = try await context.journal.food(id: try idParameter(context, "food"))
        let settings = try await context.journal.settings()
        let now = now(context, settings)
        let date = try request.queryDate("date").map { min($0, now.today) } ?? now.today
        let meal =
            try request.query("meal").map { text in try Meal.parse(text) }
            ?? Meal.usual(atSecondsOfDay: now.secondsOfDay)
        // A food logged before starts at its last amount and serving (an entry keeps the serving as shown, "1 bar (40 g)"),
        // while the food still has that serving.
        let last = try await context.journal.lastLoggedAmount(foodID: food.id)
        let lastServing = last.flatMap { last in
            food.servingChoices.first { $0.label == last.servingLabel || $0.description(basis: food.basis) == last.servingLabel }
        }
        let input = LogFoodInput(
            serving: lastServing?.label ?? food.defaultServing.label,
            servings: lastServing != nil ? last.map { NutritionText.decimal($0.servings, places: 3) } ?? "1" : "1",
            meal: meal.name, date: date.iso, time: date == now.today ? now.clock : MealChoices.usualTime(meal))
        return try await renderLogForm(context, food, input: input, settings: settings)
    }

    func renderLogForm(
        _ context: Context, _ food: Food, input: LogFoodInput, settings: UserSettings,
        problem: FormProblem? = nil
    ) async throws -> WebAnswer {
        let date = LocalDate(iso: input.date) ?? context.journal.today(settings)
        let dayMeals = try await context.journal.day(date).day.meals.map(\.meal).filter { !$0.isStandard }
        var model = try LogFoodPage(
            food: food, input: input, extraMeals: dayMeals, settings: settings, today: context.journal.today(settings),
            problem: problem)
        model.nom = try await nomCard(context, food: food, input: input)
        return page(
            "food-log", model, title: "Log \(food.name)", section: .search,
            status: problem == nil ? .ok : .unprocessableContent)
    }

    @Sendable func log(_ request: Request, context: Context) async throws -> WebAnswer {
        let food = try await context.journal.food(id: try idParameter(context, "food"))
        let form = try await request.decodeForm(FoodLogForm.self)
        return try await handlingFormErrors {
            guard let servings = try form.$servings.number() else { throw CinnError.invalid("servings", "enter how many servings") }
            let entry = try await FormKeys.once(try form.$key.uuid()) { id in
                try await context.journal.logFoods([
                    FoodLogRequest(
                        id: id, foodID: food.id, servings: servings, serving: form.serving, meal: form.mealText,
                        time: MealChoices.time(date: form.date, clock: form.time), note: form.note)
                ])[0]
            } existing: { id in
                try await context.journal.foodEntry(id: id)
            }
            let logged = entry.id.lowercasedString
            return .redirect(NutritionText.link(Site.foodDay.path(entry.localDate), [("logged", logged)]))
        } failed: { error in
            try await renderLogForm(
                context, food, input: LogFoodInput(form), settings: try await context.journal.settings(),
                problem: FormProblem(error))
        }
    }

    func entry(_ context: Context) async throws -> FoodLogEntry {
        try await context.journal.foodEntry(id: try idParameter(context, "food entry"))
    }

    @Sendable func editEntryForm(_ request: Request, context: Context) async throws -> WebAnswer {
        let entry = try await entry(context)
        let settings = try await context.journal.settings()
        return page(
            "food-entry-edit", FoodEntryPage(entry: entry, settings: settings, today: context.journal.today(settings)),
            title: "Edit \(entry.name)", section: .day)
    }

    @Sendable func editEntry(_ request: Request, context: Context) async throws -> WebAnswer {
        let entry = try await entry(context)
        let form = try await request.decodeForm(FoodLogForm.self)
        let input = LogFoodInput(form)
        return try await handlingFormErrors {
            guard let servings = try form.$servings.number() else { throw CinnError.invalid("servings", "enter how many servings") }
            let moved = input.date != entry.localDate.iso || input.time != entry.localTimeOfDay
            let edited = try await context.journal.editFoodEntry(
                id: entry.id, servings: servings, meal: form.mealText,
                time: moved ? MealChoices.time(date: form.date, clock: form.time) : nil, note: .some(form.note))
            return Done.entrySaved.redirect(to: Site.foodDay.path(edited.localDate))
        } failed: { error in
            let settings = try await context.journal.settings()
            let model = FoodEntryPage(
                entry: entry, input: input, settings: settings, today: context.journal.today(settings),
                problem: FormProblem(error))
            return page("food-entry-edit", model, title: "Edit \(entry.name)", section: .day, status: .unprocessableContent)
        }
    }

    @Sendable func confirmDeleteEntry(_ request: Request, context: Context) async throws -> WebAnswer {
        let entry = try await entry(context)
        let settings = try await context.journal.settings()
        return page(
            "food-entry-delete", FoodEntryPage(entry: entry, settings: settings, today: context.journal.today(settings)),
            title: "Delete \(entry.name)", section: .day)
    }

    @Sendable func deleteEntry(_ request: Request, context: Context) async throws -> WebAnswer {
        let entry = try await entry(context)
        try await context.journal.deleteFoodEntry(id: entry.id)
        return Done.entryDeleted.redirect(to: Site.foodDay.path(entry.localDate))
    }
}
