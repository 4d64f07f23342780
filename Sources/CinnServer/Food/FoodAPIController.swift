import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// The food log's part of the JSON API under `/api/v1`.
struct FoodAPIController {
    typealias Context = JournalRequestContext

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("nutrients", use: nutrientCatalogue)
        group.get("foods", use: listOwnFoods)
        group.post("foods", use: createFood)
        group.get("foods/search", use: searchFoods)
        group.get("foods/barcode/{barcode}", use: foodByBarcode)
        group.get("foods/{id}", use: showFood)
        group.put("foods/{id}", use: replaceFood)
        group.delete("foods/{id}", use: deleteFood)
        group.get("food-entries", use: history)
        group.post("food-entries", use: logFoods)
        group.get("food-entries/{id}", use: showEntry)
        group.patch("food-entries/{id}", use: updateEntry)
        group.delete("food-entries/{id}", use: deleteEntry)
        group.get("days/{date}", use: showDay)
        group.post("days/{date}/copy", use: copyDay)
        group.get("recent-foods", use: recentFoods)
        group.get("frequent-foods", use: frequentFoods)
        group.get("recipes", use: listRecipes)
        group.post("recipes", use: createRecipe)
        group.get("recipes/{id}", use: showRecipe)
        group.put("recipes/{id}", use: replaceRecipe)
        group.delete("recipes/{id}", use: deleteRecipe)
        group.get("presets", use: listPresets)
        group.post("presets", use: createPreset)
        group.delete("presets/{id}", use: deletePreset)
        group.post("presets/{id}/log", use: logPreset)
        group.get("nutrition-stats", use: statistics)
        group.get("food-journal", use: exportFood)
        group.post("food-journal", use: importFood)
    }

    func uuid(_ text: String?, field: String) throws -> UUID? {
        try text.map { text in
            guard let id = UUID(text: text) else { throw CinnError.invalid(field, "\(field) must be a UUID") }
            return id
        }
    }

    @Sendable func nutrientCatalogue(_ request: Request, context: Context) async throws -> APIAnswer {
        return .json([
            "nutrients": Nutrient.all.map {
                NutrientInfoDTO(key: $0.key, name: $0.name, unit: $0.unit.rawValue, group: $0.group.rawValue, dailyValue: $0.dailyValue)
            }
        ])
    }

    @Sendable func listOwnFoods(_ request: Request, context: Context) async throws -> APIAnswer {
        let foods = try await context.journal.ownFoods(
            limit: try request.queryInt("limit", default: 500, range: 1...5000),
            offset: try request.queryInt("offset", default: 0, range: 0...Int(Int32.max)))
        return .json(["foods": foods.map { FoodDTO($0, mine: true) }])
    }

    @Sendable func createFood(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(FoodRequest.self)
        let food = try await context.journal.makeFood(try body.label())
        return .json(FoodDTO(food, mine: true), status: .created)
    }

    @Sendable func searchFoods(_ request: Request, context: Context) async throws -> APIAnswer {
        let results = try await context.journal.searchFoods(
            request.query("q") ?? "",
            limit: try request.queryInt("limit", default: 20, range: 1...100))
        return .json(FoodSearchDTO(results))
    }

    @Sendable func foodByBarcode(_ request: Request, context: Context) async throws -> APIAnswer {
        switch try await context.journal.lookupBarcode(context.parameters.get("barcode") ?? "") {
        case .known(let food, let mine):
            return .json(BarcodeResultDTO(foundIn: mine ? "mine" : "database", food: FoodDTO(food, mine: mine)))
        case .fromOpenFoodFacts(let food):
            return .json(BarcodeResultDTO(foundIn: "open_food_facts", food: FoodDTO(food, mine: true)))
        case .unknown(let barcode, let name, _):
            let known = name.map { "Open Food Facts knows \($0) but not its nutrition; " } ?? "no food has barcode \(barcode); "
            throw CinnError.notFound(known + "make it by hand with that barcode")
        }
    }

    @Sendable func showFood(_ request: Request, context: Context) async throws -> APIAnswer {
        let id = try idParameter(context, "food", withThatID: true)
        let food = try await context.journal.food(id: id)
        return .json(FoodDTO(food, mine: try await context.journal.isOwnFood(id: id)))
    }

    @Sendable func replaceFood(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let id = try idParameter(context, "food", withThatID: true)
        let body = try await request.decodeJSON(FoodRequest.self)
        let food = try await context.journal.updateFood(try body.label().food(id: id))
        return .json(FoodDTO(food, mine: true))
    }

    @Sendable func deleteFood(_ request: Request, context: Context) async throws -> APIAnswer {
        try await context.journal.deleteFood(id: try idParameter(context, "food", withThatID: true))
        return .noContent
    }

    @Sendable func listRecipes(_ request: Request, context: Context) async throws -> APIAnswer {
        .json(["recipes": try await context.journal.recipes().map(RecipeDTO.init)])
    }

    @Sendable func createRecipe(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(RecipeRequest.self)
        let recipe = try await context.journal.saveRecipe(
            name: body.name, ingredients: try body.ingredientRequests(),
            servings: body.servings?.value ?? 1, cookedGrams: body.cookedGrams?.value)
        return .json(RecipeDTO(recipe), status: .created)
    }

    @Sendable func showRecipe(_ request: Request, context: Context) async throws -> APIAnswer {
        .json(RecipeDTO(try await context.journal.recipe(id: try idParameter(context, "recipe", withThatID: true))))
    }

    @Sendable func replaceRecipe(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let id = try idParameter(context, "recipe", withThatID: true)
        _ = try await context.journal.recipe(id: id)
        let body = try await request.decodeJSON(RecipeRequest.self)
        let recipe = try await context.journal.saveRecipe(
            id: id, name: body.name, ingredients: try body.ingredientRequests(),
            servings: body.servings?.value ?? 1, cookedGrams: body.cookedGrams?.value)
        return .json(RecipeDTO(recipe))
    }

    @Sendable func deleteRecipe(_ request: Request, context: Context) async throws -> APIAnswer {
        let id = try idParameter(context, "recipe", withThatID: true)
        _ = try await context.journal.recipe(id: id)
        try await context.journal.deleteFood(id: id)
        return .noContent
    }

    @Sendable func history(_ request: Request, context: Context) async throws -> APIAnswer {
        let entries = try await context.journal.foodHistory(
            search: request.query("search"),
            limit: try request.queryInt("limit", default: 50, range: 1...1000),
            offset: try request.queryInt("offset", default: 0, range: 0...Int(Int32.max)))
        return .json(["entries": entries.map(FoodEntryDTO.init)])
    }

    @Sendable func logFoods(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(LogFoodsRequest.self)
        let requests = try body.entries.enumerated().map { index, entry in
            FoodLogRequest(
                id: try uuid(entry.id, field: "entries[\(index)].id"),
                foodID: try uuid(entry.foodID, field: "entries[\(index)].food_id"),
                quickAdd: try entry.quickAdd(prefix: "entries[\(index)]."),
                servings: entry.servings?.value ?? 1, serving: entry.serving, meal: entry.meal, time: entry.time,
                note: entry.note)
        }
        let entries = try await context.journal.logFoods(requests, field: "entries")
        return .json(["entries": entries.map(FoodEntryDTO.init)], status: .created)
    }

    @Sendable func showEntry(_ request: Request, context: Context) async throws -> APIAnswer {
        .json(
            FoodEntryDTO(try await context.journal.foodEntry(id: try idParameter(context, "food entry", withThatID: true))))
    }

    @Sendable func updateEntry(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let id = try idParameter(context, "food entry", withThatID: true)
        let body = try await request.decodeJSON(UpdateFoodEntry.self)
        let entry = try await context.journal.editFoodEntry(
            id: id, servings: body.servings?.value, meal: body.meal, time: body.time,
            note: body.note)
        return .json(FoodEntryDTO(entry))
    }

    @Sendable func deleteEntry(_ request: Request, context: Context) async throws -> APIAnswer {
        try await context.journal.deleteFoodEntry(id: try idParameter(context, "food entry", withThatID: true))
        return .noContent
    }

    func date(_ context: Context) throws -> LocalDate {
        guard let date = LocalDate(iso: context.parameters.get("date") ?? "") else {
            throw CinnError.invalid("date", "the date must be YYYY-MM-DD")
        }
        return date
    }

    @Sendable func showDay(_ request: Request, context: Context) async throws -> APIAnswer {
        let day = try await context.journal.day(try date(context))
        return .json(DayDTO(day.day, energyUnit: day.settings.energyUnit))
    }

    @Sendable func copyDay(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let source = try date(context)
        let body = try await request.decodeJSON(CopyDayRequest.self)
        let target = try LocalDate.parse(body.to, field: "to")
        let entries = try await context.journal.copyEntries(from: source, meal: body.meal, to: target, toMeal: body.toMeal)
        return .json(["entries": entries.map(FoodEntryDTO.init)], status: .created)
    }

    @Sendable func recentFoods(_ request: Request, context: Context) async throws -> APIAnswer {
        let foods = try await context.journal.recentFoods(limit: try request.queryInt("limit", default: 30, range: 1...100))
        return .json(["foods": foods.map { FoodSummaryDTO($0) }])
    }

    @Sendable func frequentFoods(_ request: Request, context: Context) async throws -> APIAnswer {
        let days = try request.queryInt("days", default: 90, range: 1...3660)
        let foods = try await context.journal.frequentFoods(
            since: context.journal.now().addingTimeInterval(-Double(days) * 86_400),
            limit: try request.queryInt("limit", default: 30, range: 1...100))
        return .json(["foods": foods.map { FrequentFoodDTO(food: FoodSummaryDTO($0.food), count: $0.count) }])
    }

    @Sendable func listPresets(_ request: Request, context: Context) async throws -> APIAnswer {
        .json(["presets": try await context.journal.presets().map(PresetDTO.init)])
    }

    @Sendable func createPreset(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(PresetRequest.self)
        let preset: FoodPreset
        if let foodID = try uuid(body.foodID, field: "food_id") {
            preset = try await context.journal.savePreset(
                name: body.name, foodID: foodID, servings: body.servings?.value ?? 1,
                serving: body.serving, meal: body.meal)
        } else if let fromDate = body.fromDate {
            guard let meal = body.meal else { throw CinnError.invalid("meal", "name the meal to save from \(fromDate)") }
            preset = try await context.journal.savePreset(
                name: body.name, from: try LocalDate.parse(fromDate, field: "from_date"), meal: meal)
        } else {
            throw CinnError.invalid("food_id", "give a food_id, or a from_date and meal to save")
        }
        return .json(PresetDTO(preset), status: .created)
    }

    @Sendable func deletePreset(_ request: Request, context: Context) async throws -> APIAnswer {
        try await context.journal.deletePreset(id: try idParameter(context, "preset", withThatID: true))
        return .noContent
    }

    @Sendable func logPreset(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let id = try idParameter(context, "preset", withThatID: true)
        let body = try await request.decodeJSON(LogPresetRequest.self)
        let entries = try await context.journal.logPreset(id: id, times: body.times?.value ?? 1, meal: body.meal, time: body.time)
        return .json(["entries": entries.map(FoodEntryDTO.init)], status: .created)
    }

    @Sendable func statistics(_ request: Request, context: Context) async throws -> APIAnswer {
        let settings = try await context.journal.settings()
        let to = try request.queryDate("to") ?? context.journal.today(settings)
        let from = try request.queryDate("from") ?? to.adding(days: -29)
        let length =
            try request.query("period").map { text in
                guard let length = NutritionPeriod.Length(rawValue: text) else {
                    throw CinnError.invalid("period", "period must be day, week or month")
                }
                return length
            } ?? .day
        let periods = try await context.journal.nutritionStatistics(from: from, to: to, length: length)
        return .json(
            NutritionStatisticsDTO(
                period: length.rawValue, from: from.iso, to: to.iso,
                periods: periods.map(NutritionPeriodDTO.init)))
    }

    @Sendable func exportFood(_ request: Request, context: Context) async throws -> APIAnswer {
        guard let format = ExportFormat(rawValue: request.query("format") ?? "json") else {
            throw CinnError.invalid("format", "format must be csv or json")
        }
        guard let table = FoodExportTable(rawValue: request.query("table") ?? "entries") else {
            throw CinnError.invalid("table", "table must be entries, days or foods")
        }
        let text = try await context.journal.exportFood(format: format, table: table)
        let name = format == .json ? "cinn-food-journal.json" : "cinn-food-\(table.rawValue).csv"
        return .response(
            Response(
                status: .ok, headers: [.contentType: format.contentType, .contentDisposition: "attachment; filename=\"\(name)\""],
                body: .init(byteBuffer: ByteBuffer(string: text))))
    }

    @Sendable func importFood(_ request: Request, context: Context) async throws -> APIAnswer {
        let mode = ImportMode(dryRun: try request.queryBool("dry_run"), skipInvalid: try request.queryBool("skip_invalid"))
        let file = try await spoolToTemporaryFile(request.body, maximumBytes: FoodJournalFile.maximumSize)
        defer { try? FileManager.default.removeItem(at: file) }
        let report = try await namingUpload(file, as: request.query("file_name")) {
            try await context.journal.importFoodJournal(at: file, fileName: request.query("file_name"), mode: mode)
        }
        if report.rejectedCount > 0 && !mode.skipInvalid && !mode.dryRun {
            let error = CinnError.invalid(
                "file", "\(report.rejectedCount) records are invalid; nothing was imported (use skip_invalid=true to import the others)")
            return .response(JSONResponse.error(error, report: ImportReportDTO(report: report)))
        }
        return .json(ImportReportDTO(report: report), status: report.importID == nil ? .ok : .created)
    }
}
