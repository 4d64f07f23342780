import CinnCore
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

// MARK: - Presets

extension FoodWebController {
    @Sendable func presets(_ request: Request, context: Context) async throws -> WebAnswer {
        try await renderPresets(context, savedID: request.query("saved").flatMap(UUID.init(text:)), notice: Done.notice(request))
    }

    func renderPresets(_ context: Context, savedID: UUID? = nil, failed: FoodPresetsPage.FailedLog? = nil, notice: String? = nil)
        async throws -> WebAnswer
    {
        let settings = try await context.journal.settings()
        let model = FoodPresetsPage(
            presets: try await context.journal.presets(), settings: settings,
            today: context.journal.today(settings), now: now(context, settings).clock, savedID: savedID, failed: failed)
        return page(
            "food-presets", model, title: "Presets", section: .presets, notice: notice,
            status: failed == nil ? .ok : .unprocessableContent)
    }

    /// Saves a preset: one food with its servings (from the food's page), or a meal of a day (from the day).
    @Sendable func savePreset(_ request: Request, context: Context) async throws -> WebAnswer {
        let form = try await request.decodeForm(PresetForm.self)
        if let foodID = form.foodID {
            return try await savePreset(context, foodID: foodID, form: form)
        }
        guard let date = form.fromDate.flatMap(LocalDate.init(iso:)) else {
            throw CinnError.invalid("from_date", "choose the day to save a meal from")
        }
        let meal = form.meal ?? ""
        return try await handlingFormErrors {
            try await FormKeys.once(try form.$key.uuid(), in: context.journal) {
                savedPreset(try await context.journal.savePreset(name: form.name ?? "", from: date, meal: meal))
            } answer: {
                .redirect(Site.presets.path)
            }
        } failed: { error in
            try await renderDay(context, date, request: request, failed: .init(form: "preset:\(meal)", message: error.message))
        }
    }

    func savePreset(_ context: Context, foodID: String, form: PresetForm) async throws -> WebAnswer {
        guard let id = UUID(text: foodID) else { throw CinnError.notFound("no such food") }
        let food = try await context.journal.food(id: id)
        return try await handlingFormErrors {
            guard let servings = try form.$servings.number() else { throw CinnError.invalid("servings", "enter how many servings") }
            return try await FormKeys.once(try form.$key.uuid(), in: context.journal) {
                savedPreset(
                    try await context.journal.savePreset(
                        name: form.name ?? "", foodID: food.id, servings: servings, serving: form.serving, meal: nil))
            } answer: {
                .redirect(Site.presets.path)
            }
        } failed: { error in
            let model = FoodPage(
                food: food, mine: try await context.journal.isOwnFood(id: food.id),
                settings: try await context.journal.settings(), presetForm: form, problem: FormProblem(error))
            return page("food-page", model, title: food.name, section: .search, status: .unprocessableContent)
        }
    }

    func savedPreset(_ preset: FoodPreset) -> WebAnswer {
        let id = preset.id.lowercasedString
        return .redirect(Site.presets.path + "?saved=\(id)#preset-\(id)")
    }

    @Sendable func logPreset(_ request: Request, context: Context) async throws -> WebAnswer {
        let id = try idParameter(context, "preset")
        let form = try await request.decodeForm(FoodLogForm.self)
        return try await handlingFormErrors {
            let logged = try await FormKeys.once(try form.$key.uuid()) { key in
                let entries = try await context.journal.logPreset(
                    id: id, times: try form.$times.number() ?? 1, meal: form.mealText,
                    time: MealChoices.time(date: form.date, clock: form.time), firstEntryID: key)
                return (day: entries[0].localDate, count: entries.count)
            } existing: { key in
                (day: try await context.journal.foodEntry(id: key).localDate, count: try await context.journal.preset(id: id).items.count)
            }
            return .redirect(NutritionText.link(Site.foodDay.path(logged.day), [("added", "\(logged.count)")]))
        } failed: { error in
            try await renderPresets(
                context,
                failed: .init(
                    id: id, input: LogFoodInput(form), times: form.$times.sent ?? "",
                    problem: FormProblem(error)))
        }
    }

    @Sendable func confirmDeletePreset(_ request: Request, context: Context) async throws -> WebAnswer {
        let preset = try await context.journal.preset(id: try idParameter(context, "preset"))
        let model = PresetSummary(preset, unit: try await context.journal.settings().energyUnit)
        return page("food-preset-delete", model, title: "Delete \(preset.name)", section: .presets)
    }

    @Sendable func deletePreset(_ request: Request, context: Context) async throws -> WebAnswer {
        try await context.journal.deletePreset(id: try idParameter(context, "preset"))
        return Done.presetDeleted.redirect(to: Site.presets.path)
    }
}

// MARK: - History and statistics

extension FoodWebController {
    /// Entries on one page of the history.
    static var historyPageSize: Int { 50 }

    @Sendable func history(_ request: Request, context: Context) async throws -> WebAnswer {
        let number = try request.queryInt("page", default: 1, range: 1...1_000_000)
        let search = request.formQuery("search")
        let entries = try await context.journal.foodHistory(
            search: search, limit: Self.historyPageSize + 1,
            offset: (number - 1) * Self.historyPageSize)
        let settings = try await context.journal.settings()
        let model = FoodHistoryPage(
            entries: Array(entries.prefix(Self.historyPageSize)), search: search, page: number,
            hasMore: entries.count > Self.historyPageSize, settings: settings, today: context.journal.today(settings))
        return page("food-history", model, title: "Food history", section: .history)
    }

    @Sendable func statistics(_ request: Request, context: Context) async throws -> WebAnswer {
        let settings = try await context.journal.settings()
        let today = context.journal.today(settings)
        let to = try request.queryDate("to") ?? today
        let length =
            try request.query("period").map { text in
                guard let length = NutritionPeriod.Length(rawValue: text) else {
                    throw CinnError.invalid("period", "period must be day, week or month")
                }
                return length
            } ?? .day
        let nutrient = try request.query("nutrient").map { key in try Nutrient.parse(key, field: "nutrient") }
        let query = FoodStatsPage.Query(
            from: try request.queryDate("from") ?? to.adding(days: -29), to: to, length: length,
            nutrient: nutrient ?? .protein)
        let days = try await context.journal.nutritionStatistics(from: query.from, to: query.to, length: .day)
        let goals = try await context.journal.goalRecords(from: query.from, to: query.to)
        var model = FoodStatsPage(days: days, query: query, settings: settings, energyTargetKcal: goals.energyTargetKcal, today: today)
        model.goalRows = FoodStatsPage.goalRows(goals.records)
        return page("food-stats", model, title: "Food statistics", section: .stats)
    }
}
