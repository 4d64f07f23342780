import CinnCore
import Foundation

/// `POST /api/v1/nom`: the meal about to be eaten, when, and the bolus planned for it.
package struct NomRequest: Decodable {
    package let at: String?
    package let entries: [NomEntryRequest]
    package let bolusUnits: LenientNumber?
    /// The food log's meal it goes into: what is already logged in that meal is part of it.
    package let meal: String?

    enum CodingKeys: String, CodingKey {
        case at, entries, meal
        case bolusUnits = "bolus_units"
    }

    /// The entries as the journal takes them; errors name the entry (`entries[1].servings`).
    package func items() throws(CinnError) -> [NomItem] {
        var items: [NomItem] = []
        for (index, entry) in entries.enumerated() {
            let prefix = "entries[\(index)]."
            if let text = entry.foodID {
                guard let id = UUID(text: text) else { throw .invalid(prefix + "food_id", "\"\(text)\" is not a food's id") }
                guard entry.energyKcal == nil, entry.carbohydrateGrams == nil, entry.proteinGrams == nil, entry.fatGrams == nil else {
                    throw .invalid(prefix + "food_id", "give a food_id or the amounts, not both")
                }
                items.append(.food(id: id, servings: entry.servings?.value ?? 1, serving: entry.serving))
                continue
            }
            let quick = try QuickAdd.validated(
                name: entry.name, energyKcal: entry.energyKcal?.value, proteinGrams: entry.proteinGrams?.value,
                carbohydrateGrams: entry.carbohydrateGrams?.value, fatGrams: entry.fatGrams?.value, prefix: prefix)
            let fiber = entry.fiberGrams?.value
            if let fiber, !(fiber.isFinite && (0...QuickAdd.maximumGrams).contains(fiber)) {
                throw .invalid(prefix + "fiber_g", "fibre is 0 to 2000 g")
            }
            items.append(.amounts(quick, fiberGrams: fiber))
        }
        return items
    }
}

/// One part of the meal: a food of the journal (`food_id`, `servings`, `serving`) or its amounts.
package struct NomEntryRequest: Decodable {
    package let foodID: String?
    package let servings: LenientNumber?
    package let serving: String?
    package let name: String?
    package let energyKcal: LenientNumber?
    package let carbohydrateGrams: LenientNumber?
    package let proteinGrams: LenientNumber?
    package let fatGrams: LenientNumber?
    package let fiberGrams: LenientNumber?

    enum CodingKeys: String, CodingKey {
        case servings, serving, name
        case foodID = "food_id"
        case energyKcal = "energy_kcal"
        case carbohydrateGrams = "carbohydrate_g"
        case proteinGrams = "protein_g"
        case fatGrams = "fat_g"
        case fiberGrams = "fiber_g"
    }
}

/// The answer: energy (null without a calorie target), glucose (null without an expectation, with the reason).
package struct NomDTO: Encodable {
    struct Energy: Encodable {
        let kcal: Int
        let kcalLeftBefore: Int
        let kcalLeftAfter: Int
        @Nullable var goalDateShiftDays: Double?

        enum CodingKeys: String, CodingKey {
            case kcal
            case kcalLeftBefore = "kcal_left_before"
            case kcalLeftAfter = "kcal_left_after"
            case goalDateShiftDays = "goal_date_shift_days"
        }
    }

    struct BasedOn: Encodable {
        let at: String
        let name: String
        let carbohydrateGrams: Double
        let riseMgPerDl: Int

        enum CodingKeys: String, CodingKey {
            case at, name
            case carbohydrateGrams = "carbohydrate_g"
            case riseMgPerDl = "rise_mg_dl"
        }
    }

    struct GlucoseExpectation: Encodable {
        let expectedRiseMgPerDl: Int
        let rangeMgPerDl: [Int]
        let rangeProbability: Double
        let minutesToPeak: Int
        let similarMeals: Int
        let unit: String
        let expectedRise: Double
        let range: [Double]
        let basedOn: [BasedOn]

        enum CodingKeys: String, CodingKey {
            case unit, range
            case expectedRiseMgPerDl = "expected_rise_mg_dl"
            case rangeMgPerDl = "range_mg_dl"
            case rangeProbability = "range_probability"
            case minutesToPeak = "minutes_to_peak"
            case similarMeals = "similar_meals"
            case expectedRise = "expected_rise"
            case basedOn = "based_on"
        }
    }

    struct OnBoardDTO: Encodable {
        let insulinUnits: Double
        let carbohydrateGrams: Double

        enum CodingKeys: String, CodingKey {
            case insulinUnits = "insulin_units"
            case carbohydrateGrams = "carbohydrate_g"
        }

        init(_ onBoard: OnBoard) {
            insulinUnits = (onBoard.insulinUnits * 100).rounded() / 100
            carbohydrateGrams = onBoard.carbohydrateGrams.rounded()
        }
    }

    let at: String
    let name: String
    let carbohydrateGrams: Double
    @Nullable var energy: Energy?
    @Nullable var glucose: GlucoseExpectation?
    let glucoseReason: String?
    @Nullable var onBoard: OnBoardDTO?
    let alreadyInMeal: [String]

    enum CodingKeys: String, CodingKey {
        case at, name, energy, glucose
        case alreadyInMeal = "already_in_meal"
        case carbohydrateGrams = "carbohydrate_g"
        case glucoseReason = "glucose_reason"
        case onBoard = "on_board"
    }

    package init(_ answer: NomAnswer) {
        let zone = answer.settings.timeZone
        func time(_ instant: Date) -> String { WeighIn.isoString(instant: instant, utcOffsetSeconds: zone.secondsFromGMT(for: instant)) }
        at = time(answer.at)
        name = answer.name
        carbohydrateGrams = (answer.carbohydrateGrams * 10).rounded() / 10
        energy = answer.energy.map { energy in
            Energy(
                kcal: energy.kcal.roundedInt ?? 0, kcalLeftBefore: energy.leftBefore.roundedInt ?? 0,
                kcalLeftAfter: energy.leftAfter.roundedInt ?? 0,
                goalDateShiftDays: energy.goalDateShiftDays.map { ($0 * 10).rounded() / 10 })
        }
        let unit = answer.settings.glucoseUnit
        func shown(_ mgPerDl: Double) -> Double { GlucoseDTO.rounded(Glucose(milligramsPerDeciliter: mgPerDl), unit) }
        if case .expected(let expectation) = answer.forecast {
            glucose = GlucoseExpectation(
                expectedRiseMgPerDl: expectation.riseMgPerDl.roundedInt ?? 0,
                rangeMgPerDl: [expectation.lowMgPerDl.roundedInt ?? 0, expectation.highMgPerDl.roundedInt ?? 0],
                rangeProbability: MealPredictor.rangeProbability, minutesToPeak: expectation.minutesToPeak.roundedInt ?? 0,
                similarMeals: expectation.similarMeals, unit: unit.rawValue, expectedRise: shown(expectation.riseMgPerDl),
                range: [shown(expectation.lowMgPerDl), shown(expectation.highMgPerDl)],
                basedOn: expectation.basedOn.map { meal in
                    BasedOn(
                        at: time(meal.eatenAt), name: meal.name,
                        carbohydrateGrams: (meal.circumstances.carbohydrateGrams * 10).rounded() / 10,
                        riseMgPerDl: meal.riseMgPerDl.roundedInt ?? 0)
                })
        } else {
            glucose = nil
        }
        glucoseReason = answer.glucoseReason
        onBoard = answer.onBoard.map(OnBoardDTO.init)
        alreadyInMeal = answer.alreadyInTheMeal
    }
}
