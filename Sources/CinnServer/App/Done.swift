import Hummingbird

/// What a form post did, said at the top of the page it leads to ("Weigh-in deleted."). The post redirects with
/// `?done=KEY#notice` (`redirect(to:)`) and the page shows the key's sentence; only these fixed sentences can
/// appear, so a crafted link cannot put words on a page. Notices that name what was saved ("Saved 80.3 kg for
/// today.", "Logged Oats, 300 kcal.") read it back from the journal by id instead.
enum Done: String, CaseIterable {
    case weighInSaved = "weigh-in-saved"
    case weighInDeleted = "weigh-in-deleted"
    case goalSaved = "goal"
    case goalCleared = "goal-cleared"
    case settingsSaved = "settings"
    case targetsSaved = "targets"
    case calorieTargetSaved = "calorie-target"
    case profileSaved = "profile-saved"
    case bodyFatAdded = "body-fat-added"
    case importUndone = "import-undone"
    case entrySaved = "entry-saved"
    case entryDeleted = "entry-deleted"
    case dayMarked = "day-marked"
    case foodSaved = "food-saved"
    case foodDeleted = "food-deleted"
    case presetDeleted = "preset-deleted"
    case recipeSaved = "recipe-saved"
    case formulaSaved = "formula-saved"
    case exerciseMerged = "exercise-merged"
    case exerciseSeparated = "exercise-separated"
    case workoutDeleted = "workout-deleted"
    case workoutDiscarded = "workout-discarded"
    case routineSaved = "routine-saved"
    case routineDeleted = "routine-deleted"
    case restSaved = "rest-saved"
    case platesSaved = "plates-saved"
    case mealLogged = "log-meal"
    case mealEventSaved = "meal-events"
    case readingAdded = "add-reading"
    case insulinAdded = "add-insulin"
    case readingDeleted = "reading-deleted"
    case insulinDeleted = "insulin-deleted"
    case mealEventDeleted = "meal-event-deleted"
    case mealAdded = "meal-added"
    case mealDeleted = "meal-deleted"

    var sentence: String {
        switch self {
        case .weighInSaved: "Weigh-in saved."
        case .weighInDeleted: "Weigh-in deleted."
        case .goalSaved: "Goal saved."
        case .goalCleared: "Goal cleared."
        case .settingsSaved: "Settings saved."
        case .targetsSaved: "Targets saved: the day view's bars follow them."
        case .calorieTargetSaved: "Calorie target saved: the food log's budget follows it from today."
        case .profileSaved: "Profile saved; the calorie target below follows it."
        case .bodyFatAdded: "Body fat added."
        case .importUndone: "Import undone: everything it brought is removed."
        case .entrySaved: "Entry saved."
        case .entryDeleted: "Entry deleted."
        case .dayMarked: "Day marked."
        case .foodSaved: "Food saved."
        case .foodDeleted: "Food deleted. Entries already logged with it keep their numbers."
        case .presetDeleted: "Preset deleted."
        case .recipeSaved: "Recipe saved: log a serving like any food. Entries already logged keep their numbers."
        case .formulaSaved: "Formula saved; every one-rep max below uses it."
        case .exerciseMerged: "Exercises merged: their history is one now."
        case .exerciseSeparated: "Exercise separated: it has its own history again."
        case .workoutDeleted: "Workout deleted."
        case .workoutDiscarded: "Workout discarded: it had no set done."
        case .routineSaved: "Routine saved."
        case .routineDeleted: "Routine deleted. Workouts started from it stay."
        case .restSaved: "Rest time saved."
        case .platesSaved: "Bar and plates saved."
        case .mealLogged: "Meal logged."
        case .mealEventSaved: "Meal event saved."
        case .readingAdded: "Reading added."
        case .insulinAdded: "Insulin added."
        case .readingDeleted: "Reading deleted."
        case .insulinDeleted: "Insulin dose deleted."
        case .mealEventDeleted: "Meal deleted from the log."
        case .mealAdded: "Meal added."
        case .mealDeleted: "Meal deleted."
        }
    }

    /// The sentence the request's `?done=` names, if any.
    static func notice(_ request: Request) -> String? {
        request.query("done").flatMap(Done.init(rawValue:))?.sentence
    }

    /// A redirect to `path` that says this. The fragment opens the page at the notice: a Location without one would
    /// inherit the form action's, and open the page at the form.
    func redirect(to path: String) -> WebAnswer {
        let separator = path.contains("?") ? "&" : "?"
        return .redirect("\(path)\(separator)done=\(rawValue)#notice")
    }
}
