import CinnCore
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

// MARK: - Search and barcodes

extension FoodWebController {
    /// How far back "frequent" looks.
    static var frequentDays: Double { 90 }

    @Sendable func search(_ request: Request, context: Context) async throws -> WebAnswer {
        try await renderSearch(context, request)
    }

    func renderSearch(
        _ context: Context, _ request: Request, barcode: String = "", barcodeError: String? = nil,
        quick: FoodSearchPage.QuickAddForm = .init(), meal typedMeal: String? = nil, date typedDate: String? = nil
    )
        async throws -> WebAnswer
    {
        let settings = try await context.journal.settings()
        let query = request.formQuery("q") ?? ""
        let meal = try (typedMeal ?? request.query("meal")).map { text in try Meal.parse(text) }
        let date = try typedDate.flatMap { try? LocalDate.parse($0) } ?? request.queryDate("date")
        var lists = FoodSearchPage.Lists()
        lists.results = try await context.journal.searchFoods(query, limit: 20)
        lists.recents = try await context.journal.recentFoods(limit: 30)
        lists.frequent = try await context.journal.frequentFoods(
            since: context.journal.now().addingTimeInterval(-Self.frequentDays * 86_400), limit: 10)
        lists.presets = try await context.journal.presets()
        let hasDatabase = try await context.journal.hasImportedFoods()
        let hasBrands = try await hasDatabase ? true : context.journal.hasBrandedFoods()
        let missing = FoodSearchPage.MissingFoods(
            hasBrands: hasBrands,
            hasDatabase: hasDatabase,
            mayImport: FoodDatabaseFormat.mayImport(context.account))
        let model = FoodSearchPage(
            query: query, meal: meal, date: date, lists: lists, settings: settings,
            now: context.journal.now(), barcode: barcode, barcodeError: barcodeError, quick: quick,
            missing: missing)
        return page(
            "food-search", model, title: "Add food", section: .search, notice: Done.notice(request),
            status: barcodeError == nil && !quick.isOpen ? .ok : .unprocessableContent)
    }

    /// Logs a quick add (energy in the person's unit, grams of the macronutrients) into the meal and day the page was
    /// opened for, and shows the day; a mistake shows the page again with what was typed.
    @Sendable func quickAdd(_ request: Request, context: Context) async throws -> WebAnswer {
        let form = try await request.decodeForm(QuickAddPost.self)
        return try await handlingFormErrors {
            let settings = try await context.journal.settings()
            let energy = try form.$energy.number().map { settings.energyUnit == .kilojoules ? Nutrient.kilocalories(kilojoules: $0) : $0 }
            let quick: QuickAdd
            do {
                quick = try QuickAdd.validated(
                    name: form.name, energyKcal: energy, proteinGrams: try form.$protein.number(),
                    carbohydrateGrams: try form.$carbohydrate.number(), fatGrams: try form.$fat.number())
            } catch let error as CinnError where error.field == "energy_kcal" {
                throw CinnError.invalid("energy", error.message)
            }
            let meal = try form.mealText.map { text in try Meal.parse(text) }
            let today = context.journal.today(settings)
            // Today: now. Another day: the meal's usual time.
            let time = form.date.flatMap { date in
                date == today.iso ? nil : MealChoices.time(date: date, clock: MealChoices.usualTime(meal))
            }
            let entry = try await FormKeys.once(try form.$key.uuid()) { id in
                try await context.journal.logFoods([FoodLogRequest(id: id, foodID: nil, quickAdd: quick, meal: meal?.name, time: time)])[0]
            } existing: { id in
                try await context.journal.foodEntry(id: id)
            }
            return .redirect(NutritionText.link(Site.foodDay.path(entry.localDate), [("logged", entry.id.lowercasedString)]))
        } failed: { error in
            try await renderSearch(
                context, request, quick: .init(form, problem: FormProblem(error)), meal: form.mealText, date: form.date)
        }
    }

    /// Finds a barcode: a known food opens the log form; a product found in Open Food Facts (now
    /// cached as the user's food) opens its page to keep, edit or reject; else "make a food" with the barcode.
    @Sendable func barcode(_ request: Request, context: Context) async throws -> WebAnswer {
        let code = request.query("code") ?? ""
        let logContext = [("meal", request.query("meal")), ("date", request.query("date"))]
        return try await handlingFormErrors {
            guard !code.isEmpty else { throw CinnError.invalid("code", "enter the digits under the barcode") }
            let barcode = try Barcode.validated(code, field: "code")
            let lookup: BarcodeLookup
            do { lookup = try await context.journal.lookupBarcode(barcode.digits) } catch let error as CinnError
                where error.code == .upstreamFailed
            {
                throw CinnError.invalid("code", error.message)
            }
            switch lookup {
            case .known(let food, _):
                return .redirect(NutritionText.link(Site.logFood.path(food.id), logContext))
            case .fromOpenFoodFacts(let food):
                return .redirect(
                    NutritionText.link(
                        Site.food.path(food.id),
                        [("found", "off")] + logContext))
            case .unknown(_, let name, let brand):
                return .redirect(
                    NutritionText.link(
                        Site.newFood.path,
                        [("barcode", barcode.digits), ("name", name), ("brand", brand)]
                            + logContext))
            }
        } failed: { error in
            try await renderSearch(context, request, barcode: code, barcodeError: error.message)
        }
    }
}

// MARK: - Foods

extension FoodWebController {
    @Sendable func newFoodForm(_ request: Request, context: Context) async throws -> WebAnswer {
        let settings = try await context.journal.settings()
        var values = ["energy_unit": settings.energyUnit.rawValue]
        var notice: String?
        if let copy = request.query("copy").flatMap(UUID.init(text:)) {
            let food = try await context.journal.food(id: copy)
            values = FoodEditorPage.values(of: food, energyUnit: settings.energyUnit)
        } else if let barcode = request.query("barcode") {
            values["barcode"] = barcode
            if let name = request.query("name") {
                values["name"] = name
                values["brand"] = request.query("brand")
                notice = "Open Food Facts knows \(name) (barcode \(barcode)) but not its nutrition. Add it from the label."
            } else {
                notice = "No food with the barcode \(barcode) is known here yet. Make it from its nutrition label."
            }
        }
        let model = FoodEditorPage(
            target: .new, values: values, settings: settings, notice: notice, meal: request.query("meal"),
            date: request.query("date"))
        return page("food-editor", model, title: "Make a food", section: .search)
    }

    @Sendable func makeFood(_ request: Request, context: Context) async throws -> WebAnswer {
        let form = try await request.decodeForm(FoodEditorForm.self)
        return try await handlingFormErrors {
            let food = try await FormKeys.once(try form.key.uuid()) { id in
                try await context.journal.makeFood(try FoodEditorPage.label(form), id: id)
            } existing: { id in
                try await context.journal.food(id: id)
            }
            return .redirect(
                NutritionText.link(
                    Site.food.path(food.id), [("meal", form.meal.wrappedValue), ("date", form.date.wrappedValue)]))
        } failed: { error in
            let model = FoodEditorPage(
                target: .new, values: form.sent, settings: try await context.journal.settings(), meal: form.meal.wrappedValue,
                date: form.date.wrappedValue, problem: FormProblem(error))
            return page("food-editor", model, title: "Make a food", section: .search, status: .unprocessableContent)
        }
    }

    @Sendable func foodPage(_ request: Request, context: Context) async throws -> WebAnswer {
        let food = try await context.journal.food(id: try idParameter(context, "food"))
        var model = FoodPage(
            food: food, mine: try await context.journal.isOwnFood(id: food.id),
            settings: try await context.journal.settings(),
            context: [("meal", request.query("meal")), ("date", request.query("date"))])
        if model.mine {
            do {
                model.recipe = FoodPage.RecipeSummary(try await context.journal.recipe(id: food.id))
            } catch let error as CinnError where error.code == .notFound {
                // A food of one's own that is not a recipe.
            }
        }
        if request.query("found") == "off", model.mine {
            model.notice =
                "Found in Open Food Facts and kept as your food. Check it against the label: log it, edit it, "
                + "or delete it if it is wrong."
        }
        return page("food-page", model, title: food.name, section: .search, notice: Done.notice(request))
    }

    /// One of the user's own foods; any other is "not found".
    func ownFood(_ context: Context) async throws -> Food {
        let id = try idParameter(context, "food")
        guard try await context.journal.isOwnFood(id: id) else {
            throw CinnError.notFound("no food of yours with that id")
        }
        return try await context.journal.food(id: id)
    }

    @Sendable func editFoodForm(_ request: Request, context: Context) async throws -> WebAnswer {
        let food = try await ownFood(context)
        let settings = try await context.journal.settings()
        let model = FoodEditorPage(
            target: .food(food.id), values: FoodEditorPage.values(of: food, energyUnit: settings.energyUnit),
            settings: settings)
        return page("food-editor", model, title: "Edit \(food.name)", section: .search)
    }

    @Sendable func editFood(_ request: Request, context: Context) async throws -> WebAnswer {
        let food = try await ownFood(context)
        let form = try await request.decodeForm(FoodEditorForm.self)
        return try await handlingFormErrors {
            let saved = try await context.journal.replaceFood(id: food.id, with: try FoodEditorPage.label(form))
            return Done.foodSaved.redirect(to: Site.food.path(saved.id))
        } failed: { error in
            let model = FoodEditorPage(
                target: .food(food.id), values: form.sent, settings: try await context.journal.settings(),
                problem: FormProblem(error))
            return page("food-editor", model, title: "Edit \(food.name)", section: .search, status: .unprocessableContent)
        }
    }

    @Sendable func confirmDeleteFood(_ request: Request, context: Context) async throws -> WebAnswer {
        let food = try await ownFood(context)
        return page(
            "food-delete", FoodPage(food: food, mine: true, settings: try await context.journal.settings()),
            title: "Delete \(food.name)", section: .search)
    }

    @Sendable func deleteFood(_ request: Request, context: Context) async throws -> WebAnswer {
        try await context.journal.deleteFood(id: try idParameter(context, "food"))
        return Done.foodDeleted.redirect(to: Site.foodSearch.path)
    }
}

extension FoodWebController {
    /// A quick add: energy in the person's unit, grams of the macronutrients, and the meal and day the page was opened for.
    struct QuickAddPost: Decodable {
        @Field var name: String?
        @Field var energy: String?
        @Field var protein: String?
        @Field var carbohydrate: String?
        @Field var fat: String?
        @Field var meal: String?
        @Field var mealName: String?
        @Field var date: String?
        /// The form's key (`FormKeys`): the new entry's id.
        @Field var key: String?

        enum CodingKeys: String, CodingKey {
            case name, energy, meal, date, key
            case protein = "protein_g"
            case carbohydrate = "carbohydrate_g"
            case fat = "fat_g"
            case mealName = "meal_name"
        }

        /// The meal the form names: the typed name of one's own, else the chosen one.
        var mealText: String? { mealName ?? meal }
    }
}
