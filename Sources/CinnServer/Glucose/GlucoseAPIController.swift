import CinnCore
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// Glucose, insulin, meals and meal events, and their reports, in the JSON API under `/api/v1`.
struct GlucoseAPIController {
    typealias Context = JournalRequestContext

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("glucose", use: listGlucose)
        group.post("glucose", use: addGlucose)
        group.delete("glucose/{id}", use: deleteGlucose)
        group.get("glucose/report", use: report)
        group.get("glucose/days/{date}", use: day)
        group.get("insulin", use: listInsulin)
        group.post("insulin", use: addInsulin)
        group.delete("insulin/{id}", use: deleteInsulin)
        group.get("meals", use: listMeals)
        group.post("meals", use: addMeal)
        group.get("meals/{id}", use: showMeal)
        group.delete("meals/{id}", use: deleteMeal)
        group.get("meal-events", use: listMealEvents)
        group.post("meal-events", use: addMealEvent)
        group.delete("meal-events/{id}", use: deleteMealEvent)
        group.put("meal-events/{id}/report", use: reportMealEvent)
        group.delete("meal-events/{id}/report", use: clearReport)
        group.post("nom", use: nom)
    }

    /// "Can I nom nom this?": what a meal about to be eaten leaves and is expected to do to glucose.
    @Sendable func nom(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(NomRequest.self)
        let answer = try await context.journal.nom(try body.items(), time: body.at, bolusUnits: body.bolusUnits?.value, meal: body.meal)
        return .json(NomDTO(answer))
    }

    /// `?unit=mg/dL|mmol/L`, else the user's glucose unit.
    func unit(_ context: Context, _ request: Request) async throws -> GlucoseUnit {
        if let text = request.query("unit") { return try GlucoseUnit.parse(text) }
        return try await context.journal.settings().glucoseUnit
    }

    /// `?from=&to=` local days; without them, the 30 days to today.
    func days(_ context: Context, _ request: Request) async throws -> (from: LocalDate, to: LocalDate) {
        let settings = try await context.journal.settings()
        let to = try request.queryDate("to") ?? context.journal.today(settings)
        let from = try request.queryDate("from") ?? to.adding(days: -29)
        guard from <= to else { throw CinnError.invalid("from", "from is after to") }
        return (from, to)
    }

    // MARK: Glucose

    struct NewReading: Decodable {
        let id: UUID?
        let value: Double
        let unit: String?
        let time: String?
        let timing: MealTiming?
        let note: String?
        /// Save a value that looks like the other unit (`needs_confirmation`) as it is.
        let confirm: Bool?
    }

    @Sendable func listGlucose(_ request: Request, context: Context) async throws -> APIAnswer {
        let unit = try await unit(context, request)
        let readings = try await context.journal.glucoseReadings(
            from: try request.queryDate("from"), to: try request.queryDate("to"),
            limit: try request.queryInt("limit", default: 100, range: 1...10_000),
            offset: try request.queryInt("offset", default: 0, range: 0...Int(Int32.max)))
        return .json(["glucose": readings.map { GlucoseReadingDTO($0, unit: unit) }])
    }

    @Sendable func addGlucose(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(NewReading.self)
        let unit = try body.unit.map { text in try GlucoseUnit.parse(text) }
        let reading = try await context.journal.addGlucose(
            id: body.id, value: body.value, unit: unit, time: body.time, timing: body.timing, note: body.note,
            confirm: body.confirm ?? false)
        let shown = try await context.journal.settings().glucoseUnit
        return .json(GlucoseReadingDTO(reading, unit: unit ?? shown), status: .created)
    }

    @Sendable func deleteGlucose(_ request: Request, context: Context) async throws -> APIAnswer {
        try await context.journal.deleteGlucoseReading(id: try idParameter(context, "glucose reading"))
        return .noContent
    }

    /// `GET /api/v1/glucose/report?days=30&to=YYYY-MM-DD`.
    @Sendable func report(_ request: Request, context: Context) async throws -> APIAnswer {
        var report = try await context.journal.glucoseReport(
            days: try request.queryInt("days", default: 30, range: 1...366), to: try request.queryDate("to"))
        report.unit = try await unit(context, request)
        return .json(GlucoseReportDTO(report))
    }

    @Sendable func day(_ request: Request, context: Context) async throws -> APIAnswer {
        guard let date = context.parameters.get("date").flatMap(LocalDate.init(iso:)) else {
            throw CinnError.invalid("date", "the date is YYYY-MM-DD")
        }
        var day = try await context.journal.glucoseDay(date)
        day.unit = try await unit(context, request)
        return .json(GlucoseDayDTO(day))
    }

    // MARK: Insulin

    struct NewDose: Decodable {
        let id: UUID?
        let units: Double
        let kind: InsulinKind
        let insulin: String?
        let time: String?
        let note: String?
    }

    @Sendable func listInsulin(_ request: Request, context: Context) async throws -> APIAnswer {
        let (from, to) = try await days(context, request)
        let settings = try await context.journal.settings()
        let doses = try await context.journal.insulinDoses(
            from: context.journal.dayStart(from, settings),
            to: context.journal.dayStart(to.adding(days: 1), settings))
        return .json(["insulin": doses.reversed().map(InsulinDoseDTO.init)])
    }

    @Sendable func addInsulin(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(NewDose.self)
        let dose = try await context.journal.addInsulin(
            id: body.id, units: body.units, kind: body.kind, insulin: body.insulin, time: body.time, note: body.note)
        return .json(InsulinDoseDTO(dose), status: .created)
    }

    @Sendable func deleteInsulin(_ request: Request, context: Context) async throws -> APIAnswer {
        try await context.journal.deleteInsulinDose(id: try idParameter(context, "insulin dose"))
        return .noContent
    }

    // MARK: Meals

    struct NewMeal: Decodable {
        struct Food: Decodable {
            let foodID: UUID
            let grams: Double
            enum CodingKeys: String, CodingKey {
                case grams
                case foodID = "food_id"
            }
        }

        let id: UUID?
        let name: String
        let kind: MealKind?
        let carbohydrateG: Double?
        let foods: [Food]?
        let note: String?
        enum CodingKeys: String, CodingKey {
            case id, name, kind, foods, note
            case carbohydrateG = "carbohydrate_g"
        }
    }

    @Sendable func listMeals(_ request: Request, context: Context) async throws -> APIAnswer {
        .json(["meals": try await context.journal.meals().map(MealDTO.init)])
    }

    @Sendable func addMeal(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(NewMeal.self)
        let meal = try await context.journal.addMeal(
            id: body.id, name: body.name, kind: body.kind ?? .common, carbohydrateGrams: body.carbohydrateG,
            foods: (body.foods ?? []).map { ($0.foodID, $0.grams) }, note: body.note)
        return .json(MealDTO(meal), status: .created)
    }

    @Sendable func showMeal(_ request: Request, context: Context) async throws -> APIAnswer {
        .json(MealDTO(try await context.journal.meal(id: try idParameter(context, "meal"))))
    }

    @Sendable func deleteMeal(_ request: Request, context: Context) async throws -> APIAnswer {
        try await context.journal.deleteMeal(id: try idParameter(context, "meal"))
        return .noContent
    }

    // MARK: Meal events

    struct NewMealEvent: Decodable {
        let id: UUID?
        let mealID: UUID
        let time: String?
        let portion: Double?
        let carbohydrateG: Double?
        let note: String?
        enum CodingKeys: String, CodingKey {
            case id, time, portion, note
            case mealID = "meal_id"
            case carbohydrateG = "carbohydrate_g"
        }
    }

    struct Report: Decodable { let reason: String }

    @Sendable func listMealEvents(_ request: Request, context: Context) async throws -> APIAnswer {
        let (from, to) = try await days(context, request)
        let settings = try await context.journal.settings(), unit = try await unit(context, request)
        let start = context.journal.dayStart(from, settings), end = context.journal.dayStart(to.adding(days: 1), settings)
        let meals = Dictionary(try await context.journal.mealsOfEvents(from: start, to: end).map { ($0.id, $0) }) { a, _ in a }
        let events = try await context.journal.mealEvents(from: start, to: end)
        return .json([
            "meal_events": events.reversed().map { MealEventDTO($0, meal: meals[$0.mealID], response: nil, unit: unit) }
        ])
    }

    @Sendable func addMealEvent(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(NewMealEvent.self)
        let event = try await context.journal.logMeal(
            id: body.id, mealID: body.mealID, time: body.time, portion: body.portion,
            carbohydrateGrams: body.carbohydrateG, note: body.note)
        let meal = try await context.journal.meal(id: event.mealID)
        return .json(
            MealEventDTO(event, meal: meal, response: nil, unit: try await context.journal.settings().glucoseUnit), status: .created)
    }

    @Sendable func deleteMealEvent(_ request: Request, context: Context) async throws -> APIAnswer {
        try await context.journal.deleteMealEvent(id: try idParameter(context, "meal event"))
        return .noContent
    }

    /// `PUT /api/v1/meal-events/{id}/report` with `{"reason": "…"}`: flags the event; reported events leave the averages.
    @Sendable func reportMealEvent(_ request: Request, context: Context) async throws -> APIAnswer {
        var request = request
        let body = try await request.decodeJSON(Report.self)
        try await context.journal.reportMealEvent(id: try idParameter(context, "meal event"), reason: body.reason)
        return .noContent
    }

    @Sendable func clearReport(_ request: Request, context: Context) async throws -> APIAnswer {
        try await context.journal.reportMealEvent(id: try idParameter(context, "meal event"), reason: nil)
        return .noContent
    }
}
