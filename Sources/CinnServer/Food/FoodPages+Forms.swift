import CinnCore
import CinnJournal
import Foundation

/// What the log dialog holds: what the person typed, or the defaults.
struct LogFoodInput {
    var serving: String
    var servings: String
    var meal: String
    var mealName: String
    var date: String
    var time: String
    var note: String
    /// The form's key (`FormKeys`): the new entry's id.
    var key: String

    init(
        serving: String, servings: String = "1", meal: String, mealName: String = "", date: String, time: String, note: String = "",
        key: String = FormKeys.fresh()
    ) {
        self.serving = serving
        self.servings = servings
        self.meal = meal
        self.mealName = mealName
        self.date = date
        self.time = time
        self.note = note
        self.key = key
    }

    /// What was submitted, exactly as typed.
    init(_ form: FoodLogForm) {
        self.init(
            serving: form.serving ?? "", servings: form.$servings.sent ?? "", meal: form.meal ?? "",
            mealName: form.$mealName.sent ?? "", date: form.date ?? "", time: form.time ?? "", note: form.$note.sent ?? "",
            key: form.key ?? FormKeys.fresh())
    }
}

/// The log dialog's fields; also an entry's edit form and a preset's (with `times`).
struct FoodLogForm: Decodable {
    @Field var serving: String?
    @Field var servings: String?
    @Field var times: String?
    @Field var meal: String?
    @Field var mealName: String?
    @Field var date: String?
    @Field var time: String?
    @Field var note: String?
    /// The form's key (`FormKeys`), on the log dialog: the new entry's id.
    @Field var key: String?

    enum CodingKeys: String, CodingKey {
        case serving, servings, times, meal, date, time, note, key
        case mealName = "meal_name"
    }

    /// The meal the form names: the typed name of one's own, else the chosen one.
    var mealText: String? { mealName ?? meal }
}

/// The food editor's fields: the name, brand, barcode, basis, default serving, energy unit, each nutrient's amount
/// (`nutrients.protein`) and whether it is a percent of the Daily Value (`dv.iron`), and where to log it afterwards.
struct FoodEditorForm: Decodable {
    /// Each field as it was sent, by its name in the form, for the editor shown again.
    private(set) var sent: [String: String] = [:]
    let name: Field, brand: Field, barcode: Field, basis: Field, servingLabel: Field, servingGrams: Field, energyUnit: Field
    let meal: Field, date: Field
    /// A new food's key (`FormKeys`): its id.
    let key: Field
    let nutrients: [Nutrient: Field]
    let percentOfDailyValue: Set<Nutrient>

    init(from decoder: any Decoder) throws {
        let form = try decoder.container(keyedBy: FormKey.self)
        var sent: [String: String] = [:]
        func field(_ name: String) throws -> Field {
            let field = try form.field(name)
            sent[name] = field.sent
            return field
        }
        (name, brand, barcode, basis) = (try field("name"), try field("brand"), try field("barcode"), try field("basis"))
        (servingLabel, servingGrams, energyUnit) = (try field("serving.label"), try field("serving.grams"), try field("energy_unit"))
        (meal, date, key) = (try form.field("meal"), try form.field("date"), try form.field("key"))
        var nutrients: [Nutrient: Field] = [:]
        var percent: Set<Nutrient> = []
        for nutrient in Nutrient.all {
            nutrients[nutrient] = try field("nutrients.\(nutrient.key)")
            if try field("dv.\(nutrient.key)").wrappedValue == "percent" { percent.insert(nutrient) }
        }
        self.nutrients = nutrients
        percentOfDailyValue = percent
        self.sent = sent
    }
}

/// The log dialog: a food, its serving picker and servings count, the meal, the time, and what it adds up to.
struct LogFoodPage {
    struct Serving {
        let value: String
        let label: String
        let grams: String
        let selected: Bool
    }

    struct Preview {
        let key: String
        let label: String
        let value: String
    }

    let foodID: String
    let name: String
    let brand: String?
    let source: String
    let action: String
    let servingChoices: [Serving]
    let servings: String
    let meals: [Choice]
    let mealName: String
    let date: String
    let maxDate: String
    let time: String
    let note: String
    /// The form's key (`FormKeys`).
    let key: String
    let preview: [Preview]
    let per100: String
    let energyUnit: String
    let foodLink: String
    /// "Can I nom nom this?" for the amounts shown.
    var nom: NomCard?
    let cancelLink: String
    let servingsError: String?
    let servingError: String?
    let mealError: String?
    let timeError: String?
    let formError: String?

    static let fields = ["servings", "serving", "meal", "time"]

    init(food: Food, input: LogFoodInput, extraMeals: [Meal], settings: UserSettings, today: LocalDate, problem: FormProblem? = nil) throws
    {
        let id = food.id.lowercasedString
        foodID = id
        name = food.name
        brand = food.brand
        source = food.source.label
        action = Site.logFood.path(food.id)
        let chosen = food.servingChoices.first { $0.label == input.serving } ?? food.defaultServing
        servingChoices = food.servingChoices.map {
            Serving(
                value: $0.label, label: $0.description(basis: food.basis), grams: NutritionText.decimal($0.amount, places: 3),
                selected: $0 == chosen)
        }
        servings = input.servings
        let meal = try? Meal.parse(input.meal)
        meals = MealChoices.list(selected: meal, extra: extraMeals)
        mealName = input.mealName
        date = input.date
        maxDate = today.iso
        time = input.time
        note = input.note
        key = input.key
        let count = Double(input.servings.replacingOccurrences(of: ",", with: ".")).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        let amounts = count.map { food.nutrients(servings: $0, of: chosen) } ?? Nutrients()
        preview = Nutrient.macros.map { nutrient in
            Preview(
                key: nutrient.key, label: nutrient == .carbohydrate ? "carbs" : nutrient.name.lowercased(),
                value: amounts[nutrient].map { NutritionText.amount($0, of: nutrient, energyUnit: settings.energyUnit) } ?? "—")
        }
        per100 = try NutritionText.macrosJSON(food.nutrients)
        energyUnit = settings.energyUnit.rawValue
        foodLink = Site.food.path(food.id)
        cancelLink = Site.foodDay.path(LocalDate(iso: input.date) ?? today)
        servingsError = problem?.message(for: "servings")
        servingError = problem?.message(for: "serving")
        mealError = problem?.message(for: "meal")
        timeError = problem?.message(for: "time")
        formError = problem?.general(besides: Self.fields)
    }
}

/// Editing one entry (servings, meal, time, note), and the question before deleting it.
struct FoodEntryPage {
    let id: String
    let name: String
    let brand: String?
    let serving: String
    let amount: String
    let energy: String
    let servings: String
    let meals: [Choice]
    let mealName: String
    let date: String
    let maxDate: String
    let time: String
    let note: String
    let when: String
    let dayLink: String
    let servingsError: String?
    let mealError: String?
    let timeError: String?
    let formError: String?

    static let fields = ["servings", "meal", "time"]

    init(entry: FoodLogEntry, input: LogFoodInput? = nil, settings: UserSettings, today: LocalDate, problem: FormProblem? = nil) {
        id = entry.id.lowercasedString
        name = entry.name
        brand = entry.brand
        serving = entry.servingLabel
        amount = NutritionText.servings(entry.servings, entry.servingLabel)
        energy = NutritionText.energy(entry.energy, settings.energyUnit)
        let input =
            input
            ?? LogFoodInput(
                serving: entry.servingLabel, servings: NutritionText.decimal(entry.servings, places: 3),
                meal: entry.meal.name, date: entry.localDate.iso, time: entry.localTimeOfDay,
                note: entry.note ?? "")
        servings = input.servings
        meals = MealChoices.list(selected: try? Meal.parse(input.meal))
        mealName = input.mealName
        date = input.date
        maxDate = today.iso
        time = input.time
        note = input.note
        when = "\(entry.localTimeOfDay), \(NutritionText.date(entry.localDate, today: today))"
        dayLink = Site.foodDay.path(entry.localDate)
        servingsError = problem?.message(for: "servings")
        mealError = problem?.message(for: "meal")
        timeError = problem?.message(for: "time")
        formError = problem?.general(besides: Self.fields)
    }
}

/// The food editor: a nutrition label copied by hand, per serving, vitamins and minerals as amounts or %DV.
struct FoodEditorPage {
    struct Field {
        let name: String
        let id: String
        let label: String
        let value: String
        let unit: String
        let fieldError: String?
        let percentName: String
        let offersPercent: Bool
        let asPercent: Bool
        let isDetail: Bool
    }

    struct Section {
        let title: String
        let sectionID: String
        let fields: [Field]
        let open: Bool
    }

    let heading: String
    let action: String
    let submit: String
    let cancelLink: String
    let notice: String?
    let name: String
    let brand: String
    let barcode: String
    let servingLabel: String
    let servingGrams: String
    let energy: String
    let bases: [Choice]
    let energyUnits: [Choice]
    let nameError: String?
    let brandError: String?
    let barcodeError: String?
    let servingLabelError: String?
    let servingGramsError: String?
    let energyError: String?
    let formError: String?
    let main: [Field]
    let sections: [Section]
    let meal: String?
    let date: String?
    /// A new food's form carries a key (`FormKeys`): the food's id.
    let isNew: Bool

    /// Where the editor posts: a new food, or one of the user's own.
    enum Target {
        case new
        case food(UUID)
    }

    static let sectionGroups: [(title: String, group: Nutrient.Group)] = [
        ("Fats", .fats), ("Carbohydrates", .carbohydrates), ("Vitamins", .vitamins), ("Minerals", .minerals),
    ]

    init(
        target: Target, values: [String: String], settings: UserSettings, notice: String? = nil, meal: String? = nil,
        date: String? = nil, problem: FormProblem? = nil
    ) {
        func value(_ name: String) -> String { values[name] ?? "" }
        switch target {
        case .new:
            (heading, action, submit, cancelLink) = ("Make a food", Site.newFood.path, "Save food", Site.foodSearch.path)
            isNew = true
        case .food(let id):
            isNew = false
            let path = Site.food.path(id)
            (heading, action, submit, cancelLink) = ("Edit food", path, "Save changes", path)
        }
        self.notice = notice
        name = value("name")
        brand = value("brand")
        barcode = value("barcode")
        servingLabel = value("serving.label")
        servingGrams = value("serving.grams")
        energy = value("nutrients.energy")
        let basis = values["basis"] ?? FoodBasis.grams.rawValue
        bases = [("g", "g (solid)"), ("ml", "ml (liquid)")].map { Choice(value: $0.0, label: $0.1, selected: basis == $0.0) }
        let unit = values["energy_unit"] ?? settings.energyUnit.rawValue
        energyUnits = EnergyUnit.allCases.map { Choice(value: $0.rawValue, label: $0.rawValue, selected: $0.rawValue == unit) }
        nameError = problem?.message(for: "name")
        brandError = problem?.message(for: "brand")
        barcodeError = problem?.message(for: "barcode")
        servingLabelError = problem?.message(for: "serving.label")
        servingGramsError = problem?.message(for: "serving.grams")
        energyError = problem?.message(for: "nutrients.energy") ?? problem?.message(for: "energy_unit")
        main = [Nutrient.protein, .carbohydrate, .fat].map { Self.field($0, values: values, problem: problem) }
        sections = Self.sectionGroups.map { title, group in
            let fields = Nutrient.all.filter { $0.group == group }.map { Self.field($0, values: values, problem: problem) }
            return Section(
                title: title, sectionID: "section-\(group.rawValue)", fields: fields,
                open: fields.contains { !$0.value.isEmpty || $0.fieldError != nil })
        }
        let known =
            ["name", "brand", "barcode", "serving.label", "serving.grams", "nutrients.energy", "energy_unit"]
            + Nutrient.all.flatMap { ["nutrients.\($0.key)", "dv.\($0.key)"] }
        formError = problem?.general(besides: known)
        self.meal = meal
        self.date = date
    }

    static func field(_ nutrient: Nutrient, values: [String: String], problem: FormProblem?) -> Field {
        let name = "nutrients.\(nutrient.key)"
        let percentField = "dv.\(nutrient.key)"
        let offersPercent = nutrient.dailyValue != nil && [.vitamins, .minerals].contains(nutrient.group)
        return Field(
            name: name, id: "nutrient-\(nutrient.key)", label: nutrient.name, value: values[name] ?? "",
            unit: nutrient.unit.rawValue, fieldError: problem?.message(for: name) ?? problem?.message(for: percentField),
            percentName: percentField, offersPercent: offersPercent,
            asPercent: offersPercent && values[percentField] == "percent",
            isDetail: NutrientRow.details.contains(nutrient.key))
    }

    /// The fields of a food as the editor shows them: per its default serving, energy in `unit`.
    static func values(of food: Food, energyUnit unit: EnergyUnit) -> [String: String] {
        let serving = food.defaultServing
        var values = [
            "name": food.name, "brand": food.brand ?? "", "barcode": food.barcode ?? "", "basis": food.basis.rawValue,
            "serving.label": serving.label, "serving.grams": NutritionText.decimal(serving.amount, places: 3),
            "energy_unit": unit.rawValue,
        ]
        for (nutrient, amount) in food.nutrients(servings: 1, of: serving).amounts {
            let shown = nutrient == .energy ? unit.value(kilocalories: amount) : amount
            values["nutrients.\(nutrient.key)"] = NutritionText.decimal(shown, places: 3)
        }
        return values
    }

    /// The nutrition label the submitted editor describes.
    static func label(_ form: FoodEditorForm) throws -> NutritionLabel {
        var values: [Nutrient: NutritionLabel.Value] = [:]
        for nutrient in Nutrient.all {
            guard let number = try form.nutrients[nutrient]?.number() else { continue }
            values[nutrient] = form.percentOfDailyValue.contains(nutrient) ? .percentDailyValue(number) : .amount(number)
        }
        guard let basis = FoodBasis(rawValue: form.basis.wrappedValue ?? FoodBasis.grams.rawValue) else {
            throw CinnError.invalid("basis", "choose g or ml")
        }
        let unit = try EnergyUnit.parse(form.energyUnit.wrappedValue ?? EnergyUnit.kilocalories.rawValue)
        return NutritionLabel(
            name: form.name.wrappedValue ?? "", brand: form.brand.wrappedValue, barcode: form.barcode.wrappedValue, basis: basis,
            servingLabel: form.servingLabel.wrappedValue ?? "", servingAmount: try form.servingGrams.number(),
            values: values, energyInKilojoules: unit == .kilojoules)
    }
}

/// A food: per 100 g and per serving with %DV, "Log it", and for the user's own, edit and delete.
struct FoodPage {
    let id: String
    let name: String
    let brand: String?
    let source: String
    let barcode: String?
    let mine: Bool
    let headline: String
    let servingText: String
    let basis: String
    let macros: [MacroNumber]
    let rows: [NutrientRow]
    let logLink: String
    let copyLink: String
    let servingChoices: [Choice]
    let presetName: String
    let presetServings: String
    let presetError: String?
    let presetServingsError: String?
    /// Said above the food, such as where a barcode's product came from.
    var notice: String?
    /// What a recipe is made of; nil for a food.
    var recipe: RecipeSummary?

    struct RecipeSummary {
        let makes: String
        let ingredients: [String]

        init(_ recipe: Recipe) {
            makes =
                "Makes \(NutritionText.decimal(recipe.servingsCount, places: 2)) serving\(recipe.servingsCount == 1 ? "" : "s")"
                + " from \(NutritionText.decimal(recipe.totalGrams, places: 0)) g"
                + (recipe.cookedGrams == nil ? "" : " cooked")
            ingredients = recipe.ingredients.map { NutritionText.servings($0.servings, $0.servingLabel) + " " + $0.name }
        }
    }

    init(
        food: Food, mine: Bool, settings: UserSettings, context: [(String, String?)] = [], presetForm: PresetForm? = nil,
        problem: FormProblem? = nil
    ) {
        let unit = settings.energyUnit
        id = food.id.lowercasedString
        name = food.name
        brand = food.brand
        source = food.source.label
        barcode = food.barcode
        self.mine = mine
        let serving = food.defaultServing
        let perServing = food.nutrients(servings: 1, of: serving)
        headline = perServing.energy.map { NutritionText.energy($0, unit) } ?? "Energy unknown"
        servingText = "per \(serving.description(basis: food.basis))"
        basis = "100 \(food.basis.rawValue)"
        macros = MacroNumber.list(perServing)
        rows = food.nutrients.amounts.map { nutrient, amount in
            NutrientRow(nutrient, amount: amount, perServing: perServing[nutrient], energyUnit: unit)
        }
        logLink = NutritionText.link(Site.logFood.path(food.id), context)
        copyLink = NutritionText.link(Site.newFood.path, [("copy", id)])
        servingChoices = food.servingChoices.map {
            Choice(value: $0.label, label: $0.description(basis: food.basis), selected: $0 == serving)
        }
        presetName = presetForm?.$name.sent ?? food.name
        presetServings = presetForm?.$servings.sent ?? "1"
        presetServingsError = problem?.message(for: "servings")
        presetError = problem?.general(besides: ["servings"])
    }
}

/// A preset saved from a food's page (`food_id`, its `servings` of `serving`) or from a meal of a day (`from_date`, `meal`).
struct PresetForm: Decodable {
    @Field var name: String?
    @Field var foodID: String?
    @Field var servings: String?
    @Field var serving: String?
    @Field var fromDate: String?
    @Field var meal: String?
    /// The form's key (`FormKeys`).
    @Field var key: String?

    enum CodingKeys: String, CodingKey {
        case name, servings, serving, meal, key
        case foodID = "food_id"
        case fromDate = "from_date"
    }
}
