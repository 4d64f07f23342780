import ArgumentParser
import CinnCore
import CinnJournal
import Foundation

/// `cinn nom`: "Can I nom nom this?" before eating it.
struct NomCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nom",
        abstract: "Can I nom nom this? What a food leaves of today's calories and, from your similar meals, does to glucose.",
        discussion: """
            Examples:
              cinn nom pizza --servings 3 --bolus 4
              cinn nom --carbs 45 --kcal 380 --name "Pasta salad"

            An estimate from your own history, not advice.
            """)

    @OptionGroup var options: DatabaseOptions
    @Argument(help: "A food: its id, barcode or name (the best search match).") var food: [String] = []
    @Option(help: "How many servings of the food.") var servings = 1.0
    @Option(help: "Which serving, e.g. \"1 slice\" (default: the food's first).") var serving: String?
    @Option(name: [.customLong("carbs"), .customLong("carbohydrate")], help: "Without a food: carbohydrate in grams.") var carbohydrate:
        Double?
    @Option(help: "Without a food: energy in kcal.") var kcal: Double?
    @Option(help: "Without a food: protein in grams.") var protein: Double?
    @Option(help: "Without a food: fat in grams.") var fat: Double?
    @Option(help: "Without a food: its name.") var name: String?
    @Option(help: "The bolus you plan for it, in units.") var bolus: Double?
    @Option(help: "When you will eat it: an ISO 8601 time (default: now).") var time: String?
    @Option(help: "text or json.") var format: OutputStyle = .text

    func validate() throws {
        guard food.isEmpty || (carbohydrate == nil && kcal == nil && protein == nil && fat == nil) else {
            throw ValidationError("give a food, or its amounts (--carbs, --kcal, --protein, --fat), not both")
        }
        guard !food.isEmpty || carbohydrate != nil || kcal != nil || protein != nil || fat != nil else {
            throw ValidationError("give a food, or its amounts with --carbs, --kcal, --protein or --fat")
        }
    }

    func run() async throws {
        let answer = try await options.withJournal { journal in
            let item: NomItem
            if food.isEmpty {
                item = .amounts(
                    try QuickAdd.validated(
                        name: name, energyKcal: kcal, proteinGrams: protein, carbohydrateGrams: carbohydrate, fatGrams: fat),
                    fiberGrams: nil)
            } else {
                let found = try await journal.food(reference: food.joined(separator: " "), searching: true)
                item = .food(id: found.id, servings: servings, serving: serving)
            }
            return try await journal.nom([item], time: time, bolusUnits: bolus)
        }
        if format == .json { return print(try GlucoseJSON.nom(answer)) }
        print("\(answer.name): \(answer.carbohydrateGrams.wholeText) g carbohydrate.")
        print(answer.energySentence ?? "No calorie target: set up your profile (cinn profile) for one.")
        for sentence in answer.glucoseSentences() { print(sentence) }
        if let onBoard = answer.onBoardSentence { print(onBoard) }
    }
}
