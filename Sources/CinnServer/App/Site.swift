import CinnCore
import Foundation
import Hummingbird

/// An address of the web app, typed by what fills it in. Its `pattern` registers the route (`/weigh-ins/{id}/edit`);
/// `path(…)` makes the address a link or a redirect goes to, from a value of the type the route reads, so an address
/// built in Swift always names a route that exists. Templates write their links out; a test checks that every one
/// names a route (`SiteTests`).
struct SitePath<Parameter>: Sendable {
    let pattern: String

    init(_ pattern: String) { self.pattern = pattern }

    fileprivate func filled(_ values: String...) -> String {
        var path = pattern
        for value in values {
            guard let open = path.firstIndex(of: "{"), let close = path[open...].firstIndex(of: "}") else { break }
            path.replaceSubrange(open...close, with: value)
        }
        return path
    }
}

extension SitePath where Parameter == Void {
    var path: String { pattern }
}

extension SitePath where Parameter == UUID {
    func path(_ id: UUID) -> String { filled(id.lowercasedString) }
}

extension SitePath where Parameter == LocalDate {
    func path(_ date: LocalDate) -> String { filled(date.iso) }
}

extension SitePath where Parameter == Int64 {
    func path(_ number: Int64) -> String { filled(String(number)) }
}

extension SitePath where Parameter == String {
    /// `name` percent-encoded as one segment (an exercise's name, "Bench Press (Barbell)").
    func path(_ name: String) -> String {
        filled(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-_.~"))) ?? "")
    }
}

extension SitePath where Parameter == String {
    /// The address with `segment` as it came in a request's path (already percent-encoded).
    func path(segment: String) -> String { filled(segment) }
}

extension SitePath where Parameter == (UUID, Int) {
    func path(_ id: UUID, _ position: Int) -> String { filled(id.lowercasedString, String(position)) }
}

/// Every address of the web app, by area, in the order the pages list them.
enum Site {
    // Weight
    static let dashboard = SitePath<Void>("/")
    static let trendChart = SitePath<Void>("/chart.svg")
    static let weighIns = SitePath<Void>("/weigh-ins")
    static let weighIn = SitePath<UUID>("/weigh-ins/{id}")
    static let editWeighIn = SitePath<UUID>("/weigh-ins/{id}/edit")
    static let deleteWeighIn = SitePath<UUID>("/weigh-ins/{id}/delete")
    static let glance = SitePath<Void>("/glance")

    // Profile, energy, goal and settings
    static let welcome = SitePath<Void>("/welcome")
    static let skipWelcome = SitePath<Void>("/welcome/skip")
    static let profile = SitePath<Void>("/profile")
    static let bodyFat = SitePath<Void>("/profile/body-fat")
    static let energy = SitePath<Void>("/energy")
    static let more = SitePath<Void>("/more")
    static let settings = SitePath<Void>("/settings")
    static let targets = SitePath<Void>("/settings/targets")
    static let calorieTarget = SitePath<Void>("/settings/targets/calories")
    static let goal = SitePath<Void>("/goal")
    static let clearGoal = SitePath<Void>("/goal/clear")
    static let exportCSV = SitePath<Void>("/export.csv")
    static let exportJSON = SitePath<Void>("/export.json")
    static let healthData = SitePath<Void>("/more-data")

    // Food
    static let foodToday = SitePath<Void>("/food")
    static let foodDay = SitePath<LocalDate>("/food/{date}")
    static let copyFoodDay = SitePath<LocalDate>("/food/{date}/copy")
    static let foodDayStatus = SitePath<LocalDate>("/food/{date}/status")
    static let foodSearch = SitePath<Void>("/food/search")
    static let barcode = SitePath<Void>("/food/barcode")
    static let quickAdd = SitePath<Void>("/food/quick")
    static let foodNom = SitePath<Void>("/food/nom")
    static let logFood = SitePath<UUID>("/food/log/{id}")
    static let foodEntry = SitePath<UUID>("/food/entries/{id}")
    static let editFoodEntry = SitePath<UUID>("/food/entries/{id}/edit")
    static let deleteFoodEntry = SitePath<UUID>("/food/entries/{id}/delete")
    static let newFood = SitePath<Void>("/food/new")
    static let food = SitePath<UUID>("/food/foods/{id}")
    static let editFood = SitePath<UUID>("/food/foods/{id}/edit")
    static let deleteFood = SitePath<UUID>("/food/foods/{id}/delete")
    static let presets = SitePath<Void>("/food/presets")
    static let logPreset = SitePath<UUID>("/food/presets/{id}/log")
    static let deletePreset = SitePath<UUID>("/food/presets/{id}/delete")
    static let recipes = SitePath<Void>("/food/recipes")
    static let newRecipe = SitePath<Void>("/food/recipes/new")
    static let recipeDraft = SitePath<Void>("/food/recipes/draft")
    static let recipe = SitePath<UUID>("/food/recipes/{id}")
    static let editRecipe = SitePath<UUID>("/food/recipes/{id}/edit")
    static let foodHistory = SitePath<Void>("/food/history")
    static let foodStatistics = SitePath<Void>("/food/stats")

    // Lifts and workouts
    static let lifts = SitePath<Void>("/lifts")
    static let oneRepMaxFormula = SitePath<Void>("/lifts/formula")
    static let plates = SitePath<Void>("/lifts/plates")
    static let exercise = SitePath<String>("/lifts/{id}")
    static let mergeExercise = SitePath<String>("/lifts/{id}/alias-of")
    static let separateExercise = SitePath<String>("/lifts/{id}/separate")
    static let exerciseRest = SitePath<String>("/lifts/{id}/rest")
    static let workouts = SitePath<Void>("/workouts")
    static let workoutsCSV = SitePath<Void>("/workouts.csv")
    static let startWorkout = SitePath<Void>("/workouts/start")
    static let workout = SitePath<UUID>("/workouts/{id}")
    static let deleteWorkout = SitePath<UUID>("/workouts/{id}/delete")
    static let workoutLog = SitePath<UUID>("/workouts/{id}/log")
    static let workoutSets = SitePath<UUID>("/workouts/{id}/sets")
    static let deleteWorkoutSet = SitePath<(UUID, Int)>("/workouts/{id}/sets/{position}/delete")
    static let workoutExercises = SitePath<UUID>("/workouts/{id}/exercises")
    static let workoutPlan = SitePath<UUID>("/workouts/{id}/plan")
    static let workoutDetails = SitePath<UUID>("/workouts/{id}/details")
    static let finishWorkout = SitePath<UUID>("/workouts/{id}/finish")
    static let workoutAsRoutine = SitePath<UUID>("/workouts/{id}/routine")
    static let routines = SitePath<Void>("/routines")
    static let newRoutine = SitePath<Void>("/routines/new")
    static let routine = SitePath<UUID>("/routines/{id}")
    static let deleteRoutine = SitePath<UUID>("/routines/{id}/delete")

    // Glucose
    static let glucose = SitePath<Void>("/glucose")
    static let glucoseLive = SitePath<Void>("/glucose/live")
    static let glucoseProfile = SitePath<Void>("/glucose/agp")
    static let glucoseProfileChart = SitePath<Void>("/glucose/agp.svg")
    static let glucoseReadings = SitePath<Void>("/glucose/readings")
    static let deleteGlucoseReading = SitePath<UUID>("/glucose/readings/{id}/delete")
    static let insulin = SitePath<Void>("/glucose/insulin")
    static let deleteInsulin = SitePath<UUID>("/glucose/insulin/{id}/delete")
    static let studyMeals = SitePath<Void>("/glucose/meals")
    static let deleteStudyMeal = SitePath<UUID>("/glucose/meals/{id}/delete")
    static let mealEvents = SitePath<Void>("/glucose/meal-events")
    static let reportMealEvent = SitePath<UUID>("/glucose/meal-events/{id}/report")
    static let deleteMealEvent = SitePath<UUID>("/glucose/meal-events/{id}/delete")
    static let glucoseDay = SitePath<LocalDate>("/glucose/days/{date}")
    static let glucoseDayChart = SitePath<LocalDate>("/glucose/days/{date}/chart.svg")

    // Imports
    static let importing = SitePath<Void>("/import")
    static let waitingImport = SitePath<String>("/import/{token}")
    static let waitingImportUnit = SitePath<String>("/import/{token}/unit")
    static let waitingImportDateOrder = SitePath<String>("/import/{token}/date-order")
    static let importProgress = SitePath<String>("/import/progress/{id}")
    static let undoImport = SitePath<Int64>("/imports/{id}/undo")

    // Accounts (hosted mode)
    static let logIn = SitePath<Void>("/login")
    static let logInWithProvider = SitePath<Void>("/login/oidc")
    static let providerCallback = SitePath<Void>("/login/oidc/callback")
    static let signUp = SitePath<Void>("/signup")
    static let logOut = SitePath<Void>("/logout")
    static let account = SitePath<Void>("/account")
    static let linkProvider = SitePath<Void>("/account/oidc")
    static let password = SitePath<Void>("/account/password")
    static let tokens = SitePath<Void>("/account/tokens")
    static let revokeToken = SitePath<UUID>("/account/tokens/{id}/revoke")
    static let invites = SitePath<Void>("/account/invites")
}

extension RouterMethods {
    /// Registers `handler` for GET of `path`'s pattern.
    @discardableResult
    func get<Parameter>(
        _ path: SitePath<Parameter>, use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator
    ) -> Self {
        get(RouterPath(path.pattern), use: handler)
    }

    /// Registers `handler` for POST of `path`'s pattern.
    @discardableResult
    func post<Parameter>(
        _ path: SitePath<Parameter>, use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator
    ) -> Self {
        post(RouterPath(path.pattern), use: handler)
    }
}
