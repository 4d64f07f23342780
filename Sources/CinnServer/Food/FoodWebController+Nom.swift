import CinnCharts
import CinnCore
import CinnJournal
import Foundation
import Hummingbird

// MARK: - Can I nom nom this?

extension FoodWebController {
    /// "Can I nom nom this?" for what a page is about to log, from its query, named as the page's form names its fields:
    /// a food (`food`, `servings`, `serving`), a preset (`preset`, `times`) or a quick add's amounts (`energy` in the
    /// person's unit, `protein_g`, `carbohydrate_g`, `fat_g`, `name`); when (`date`, `time`); the meal it goes into
    /// (`meal`, `meal_name`: what is already logged in it is part of the meal); the bolus planned (`bolus`). A page of its own, or with `fragment=true` the answer alone, for a page's script.
    @Sendable func nom(_ request: Request, context: Context) async throws -> WebAnswer {
        let fragment = try request.queryBool("fragment")
        let card: NomCard
        let asked = ["food", "preset", "energy", "protein_g", "carbohydrate_g", "fat_g"].contains { request.formQuery($0) != nil }
        if !asked {
            card = NomCard(problem: "Choose a food on Add food, or a preset, and ask there: the answer comes with its amounts.")
            return fragment ? .fragment("food-nom-answer", card) : page("food-nom", card, title: "Can I nom nom this?", section: .search)
        }
        do {
            let settings = try await context.journal.settings()
            let answer = try await context.journal.nom(
                [try Self.nomItem(request, settings)],
                time: MealChoices.time(date: request.formQuery("date"), clock: request.formQuery("time")),
                bolusUnits: try Self.number(request, "bolus"), meal: request.formQuery("meal_name") ?? request.formQuery("meal"))
            card = NomCard(answer)
        } catch let error as CinnError where error.code == .invalidInput {
            card = NomCard(problem: error.message)
        }
        if fragment { return .fragment("food-nom-answer", card) }
        return page(
            "food-nom", card, title: "Can I nom nom this?", section: .search, status: card.problem == nil ? .ok : .unprocessableContent)
    }

    /// A number in the query, as a person typed it; the error names it.
    static func number(_ request: Request, _ name: String) throws -> Double? {
        try request.formQuery(name).map { text in try Field.number(text, field: name) }
    }

    /// What the query asks about.
    static func nomItem(_ request: Request, _ settings: UserSettings) throws -> NomItem {
        if let text = request.formQuery("food") {
            guard let id = UUID(text: text) else { throw CinnError.invalid("food", "\"\(text)\" is not a food's id") }
            return .food(id: id, servings: try number(request, "servings") ?? 1, serving: request.formQuery("serving"))
        }
        if let text = request.formQuery("preset") {
            guard let id = UUID(text: text) else { throw CinnError.invalid("preset", "\"\(text)\" is not a preset's id") }
            return .preset(id: id, times: try number(request, "times") ?? 1)
        }
        let energy = try number(request, "energy").map { settings.energyUnit == .kilojoules ? Nutrient.kilocalories(kilojoules: $0) : $0 }
        return .amounts(
            try QuickAdd.validated(
                name: request.formQuery("name"), energyKcal: energy, proteinGrams: try number(request, "protein_g"),
                carbohydrateGrams: try number(request, "carbohydrate_g"), fatGrams: try number(request, "fat_g")),
            fiberGrams: nil)
    }
}

/// The answer as a page shows it: the energy sentence, and for a glucose user the glucose and on-board ones.
struct NomCard {
    let title: String?
    /// Whether the person has glucose readings: the glucose part and the bolus field are theirs only.
    let glucoseUser: Bool
    let energy: String?
    let noTarget: Bool
    let glucose: [String]
    let onBoard: String?
    let problem: String?

    init(_ answer: NomAnswer) {
        title = answer.name.isEmpty ? nil : answer.name
        glucoseUser = answer.onBoard != nil
        energy = answer.energySentence
        noTarget = answer.energy == nil
        // Glucose is for people who have readings: the others see no glucose part at all.
        glucose = answer.onBoard == nil ? [] : answer.glucoseSentences(day: \.dayMonth)
        onBoard = answer.onBoardSentence
        problem = nil
    }

    init(problem: String) {
        title = nil
        glucoseUser = false
        energy = nil
        noTarget = false
        glucose = []
        onBoard = nil
        self.problem = problem
    }
}

extension FoodWebController {
    /// The answer for a food about to be logged, as the log page first shows it; nil when its amounts are not valid.
    func nomCard(_ context: Context, food: Food, input: LogFoodInput) async throws -> NomCard? {
        guard let servings = try? Field.number(input.servings, field: "servings") else { return nil }
        do {
            return NomCard(
                try await context.journal.nom(
                    [.food(id: food.id, servings: servings, serving: input.serving)],
                    time: MealChoices.time(date: input.date, clock: input.time),
                    bolusUnits: nil))
        } catch let error as CinnError where error.code == .invalidInput {
            return nil
        }
    }
}
