/// The web app's mustache templates: a `.mustache` file in each feature's `Templates/` folder, embedded in the binary
/// (`Package.swift` lists the folders). A template is named by its file (`Food/Templates/food-day.mustache` is
/// `food-day`). Pages render their body, then `layout` wraps it; a piece that several templates share is a template of
/// its own, named as a partial (`{{> food-result}}`). Every form that posts puts `{{> csrf}}` right after its opening
/// tag (an upload also `_csrf` in its action's query), which writes the request's CSRF token; a form that creates
/// something puts `{{> form-key}}` after it, its key (`FormKeys`).
enum Templates {
    /// Every template by name, and the static files' current addresses as partials (`StaticAssets.addressPartials`),
    /// which the layout names for its style sheet.
    static let all: [String: String] = Dictionary(files.map { ($0.name, text($0.bytes)) } + StaticAssets.addressPartials) { _, _ in
        preconditionFailure("two templates have one name")
    }

    /// The template files by name: the layout and the error page, then each feature's.
    static let files: [(name: String, bytes: [UInt8])] = [
        ("layout", PackageResources.layout_mustache), ("error", PackageResources.error_mustache),
        ("csrf", PackageResources.csrf_mustache), ("form-key", PackageResources.form_key_mustache),
        ("app-head", PackageResources.app_head_mustache),
        ("dashboard", PackageResources.dashboard_mustache), ("weigh-ins", PackageResources.weigh_ins_mustache),
        ("weigh-ins-month", PackageResources.weigh_ins_month_mustache),
        ("edit", PackageResources.edit_mustache), ("confirm-delete", PackageResources.confirm_delete_mustache),
        ("confirm-delete-workout", PackageResources.confirm_delete_workout_mustache),
        ("glance", PackageResources.glance_mustache),
        ("import", PackageResources.import_mustache), ("import-report", PackageResources.import_report_mustache),
        ("import-question", PackageResources.import_question_mustache), ("undo-import", PackageResources.undo_import_mustache),
        ("import-progress-box", PackageResources.import_progress_box_mustache),
        ("more", PackageResources.more_mustache), ("settings", PackageResources.settings_mustache),
        ("settings-targets", PackageResources.settings_targets_mustache),
        ("food-nav", PackageResources.food_nav_mustache), ("food-day", PackageResources.food_day_mustache),
        ("food-search", PackageResources.food_search_mustache), ("food-result", PackageResources.food_result_mustache),
        ("food-log", PackageResources.food_log_mustache), ("food-nom", PackageResources.food_nom_mustache),
        ("food-nom-answer", PackageResources.food_nom_answer_mustache), ("food-meal-fields", PackageResources.food_meal_fields_mustache),
        ("food-entry-edit", PackageResources.food_entry_edit_mustache),
        ("food-entry-delete", PackageResources.food_entry_delete_mustache),
        ("food-editor", PackageResources.food_editor_mustache),
        ("food-nutrient-field", PackageResources.food_nutrient_field_mustache),
        ("food-page", PackageResources.food_page_mustache), ("food-delete", PackageResources.food_delete_mustache),
        ("food-presets", PackageResources.food_presets_mustache),
        ("food-recipes", PackageResources.food_recipes_mustache), ("food-recipe", PackageResources.food_recipe_mustache),
        ("food-preset-delete", PackageResources.food_preset_delete_mustache),
        ("food-history", PackageResources.food_history_mustache), ("food-stats", PackageResources.food_stats_mustache),
        ("profile", PackageResources.profile_mustache), ("energy", PackageResources.energy_mustache),
        ("lifts", PackageResources.lifts_mustache), ("exercise", PackageResources.exercise_mustache),
        ("workouts", PackageResources.workouts_mustache), ("workout", PackageResources.workout_mustache),
        ("workout-log", PackageResources.workout_log_mustache), ("routines", PackageResources.routines_mustache),
        ("routine", PackageResources.routine_mustache),
        ("login", PackageResources.login_mustache), ("signup", PackageResources.signup_mustache),
        ("account", PackageResources.account_mustache),
        ("glucose", PackageResources.glucose_mustache), ("glucose-live", PackageResources.glucose_live_mustache),
        ("glucose-agp", PackageResources.glucose_agp_mustache), ("glucose-day", PackageResources.glucose_day_mustache),
        ("glucose-meals", PackageResources.glucose_meals_mustache),
        ("health", PackageResources.health_mustache),
    ]

    /// An embedded text file's text, without the newline that ends the file: a template or style sheet reads as it
    /// did when it was a string in Swift (`{{> food-result}}` inside a line adds no line break).
    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.last == UInt8(ascii: "\n") ? bytes.dropLast() : bytes[...], as: UTF8.self)
    }
}
