import CinnCore
import CinnStore
import CinnSync
import Foundation

/// The journal's records one by one, for its user: what the web app and the CLI read and change through the Journal,
/// never through the Store. Each passes the user on; the use-cases that do more than that live beside their records
/// (`Journal+Food`, `Journal+Glucose`…).
extension Journal {
    public func account() async throws -> Account? {
        try await store.account(user: user)
    }
    @discardableResult
    public func clearGoal() async throws -> Bool {
        try await store.clearGoal(user: user)
    }
    public func dailyWeights() async throws -> [DailyWeight] {
        try await store.dailyWeights(user: user)
    }
    public func deleteFood(id: UUID) async throws {
        try await store.deleteFood(id: id, user: user)
    }
    public func deleteFoodEntry(id: UUID) async throws {
        try await store.deleteFoodEntry(id: id, user: user)
    }
    public func deleteGlucoseReading(id: UUID) async throws {
        try await store.deleteGlucoseReading(id: id, user: user)
    }
    public func deleteInsulinDose(id: UUID) async throws {
        try await store.deleteInsulinDose(id: id, user: user)
    }
    public func deleteMeal(id: UUID) async throws {
        try await store.deleteMeal(id: id, user: user)
    }
    public func deleteMealEvent(id: UUID) async throws {
        try await store.deleteMealEvent(id: id, user: user)
    }
    public func deletePreset(id: UUID) async throws {
        try await store.deletePreset(id: id, user: user)
    }
    public func deleteWeighIn(id: UUID) async throws {
        try await store.deleteWeighIn(id: id, user: user)
    }
    @discardableResult
    public func deleteWeighIns(on date: LocalDate) async throws -> Int {
        try await store.deleteWeighIns(on: date, user: user)
    }
    public func exerciseRest(exerciseRows rows: [Int64]) async throws -> Int? {
        try await store.exerciseRest(user: user, exerciseRows: rows)
    }
    public func foodEntries(from: LocalDate, to: LocalDate) async throws -> [FoodLogEntry] {
        try await store.foodEntries(user: user, from: from, to: to)
    }
    public func foodEntry(id: UUID) async throws -> FoodLogEntry {
        try await store.foodEntry(id: id, user: user)
    }
    public func foodHistory(search: String? = nil, limit: Int = 50, offset: Int = 0) async throws -> [FoodLogEntry] {
        try await store.foodHistory(user: user, search: search, limit: limit, offset: offset)
    }
    /// The foods logged most often since `since`, taken from the start of its hour, so that the answer is kept while
    /// the journal is unchanged (`Store.computed`) within the hour: Add food and the Glucose page ask on every view.
    public func frequentFoods(since: Date, limit: Int = 30) async throws -> [(food: FoodSearchCandidate, count: Int)] {
        let hour = Date(timeIntervalSince1970: (since.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
        return try await store.computed("frequent-foods", user: user, parameters: "\(hour.millisecondsSince1970) \(limit)") {
            try await store.frequentFoods(user: user, since: hour, limit: limit)
        }
    }
    public func glucoseReadings(from: LocalDate? = nil, to: LocalDate? = nil, limit: Int = 100, offset: Int = 0) async throws
        -> [GlucoseReading]
    {
        try await store.glucoseReadings(user: user, from: from, to: to, limit: limit, offset: offset)
    }
    public func goal() async throws -> Goal? {
        try await store.goal(user: user)
    }
    public func healthDayTypes() async throws -> [HealthDayType] {
        try await store.healthDayTypes(user: user)
    }
    public func healthDays(type: String, category: String, unit: String, days: ClosedRange<LocalDate>) async throws -> [HealthDaySummary] {
        try await store.healthDays(user: user, type: type, category: category, unit: unit, days: days)
    }
    public func importContents(id: Int64) async throws -> ImportContents {
        try await store.importContents(id: id, user: user)
    }
    public func importProgress(id: String) async throws -> StoredImportProgress? {
        try await store.importProgress(id: id, user: user)
    }
    public func imports() async throws -> [ImportBatch] {
        try await store.imports(user: user)
    }
    public func insulinDoses(from start: Date, to end: Date) async throws -> [InsulinDose] {
        try await store.insulinDoses(user: user, from: start, to: end)
    }
    public func isOwnFood(id: UUID) async throws -> Bool {
        try await store.isOwnFood(id: id, user: user)
    }
    @discardableResult
    /// Keeps an upload's form fields until it is imported; uploads waiting longer than `lifetime` (by the database's
    /// clock) are dropped, and their tokens returned.
    public func keepWaitingUpload(token: String, fields: [String: String], lifetime: TimeInterval) async throws -> [String] {
        try await store.keepWaitingUpload(
            token: token, user: user, fields: fields, expiringBefore: store.now().addingTimeInterval(-lifetime))
    }
    public func lastLoggedAmount(foodID: UUID) async throws -> (servings: Double, servingLabel: String)? {
        try await store.lastLoggedAmount(foodID: foodID, user: user)
    }
    public func latestBodyFat() async throws -> BodyFatReading? {
        try await store.latestBodyFat(user: user)
    }
    public func meal(id: UUID) async throws -> MealDefinition {
        try await store.meal(id: id, user: user)
    }
    public func mealEvents(from start: Date, to end: Date, inFoodLog: Bool = true) async throws -> [MealEvent] {
        try await store.mealEvents(user: user, from: start, to: end, inFoodLog: inFoodLog)
    }
    public func meals() async throws -> [MealDefinition] {
        try await store.meals(user: user)
    }
    public func mealsOfEvents(from start: Date, to end: Date) async throws -> [MealDefinition] {
        try await store.mealsOfEvents(user: user, from: start, to: end)
    }
    public func nightscoutDocuments(_ collection: NightscoutDocument.Collection, from start: Date? = nil, to end: Date? = nil, limit: Int)
        async throws -> [NightscoutDocument]
    {
        try await store.nightscoutDocuments(collection, user: user, from: start, to: end, limit: limit)
    }
    public func ownFoods(limit: Int = 500, offset: Int = 0) async throws -> [Food] {
        try await store.ownFoods(user: user, limit: limit, offset: offset)
    }
    public func preset(id: UUID) async throws -> FoodPreset {
        try await store.preset(id: id, user: user)
    }
    public func presets() async throws -> [FoodPreset] {
        try await store.presets(user: user)
    }
    public func pull(after cursor: SyncCursor = .start, limit: Int = 1000) async throws -> SyncPage {
        try await store.pull(user: user, after: cursor, limit: limit)
    }
    @discardableResult
    public func push(_ changes: [SyncChange], source: String = "sync") async throws -> [SyncResult] {
        try await store.push(changes, user: user, source: source)
    }
    public func recentFoods(limit: Int = 30) async throws -> [FoodSearchCandidate] {
        try await store.recentFoods(user: user, limit: limit)
    }
    public func recipe(id: UUID) async throws -> Recipe {
        try await store.recipe(id: id, user: user)
    }
    public func recipes() async throws -> [Recipe] {
        try await store.recipes(user: user)
    }
    public func saveSettings(_ settings: UserSettings, goal: Goal? = nil) async throws {
        try await store.saveSettings(settings, goal: goal, user: user)
    }
    public func setWaitingUploadFields(_ fields: [String: String], token: String) async throws {
        try await store.setWaitingUploadFields(fields, token: token, user: user)
    }
    @discardableResult
    public func undoImport(id: Int64) async throws -> Int {
        try await store.undoImport(id: id, user: user)
    }
    @discardableResult
    public func updateFood(_ food: Food) async throws -> Food {
        try await store.updateFood(food, user: user)
    }
    public func hasRecord(_ kind: CreatedRecord, id: UUID) async throws -> Bool {
        try await store.hasRecord(kind, id: id, user: user)
    }
    public func weighIn(id: UUID) async throws -> WeighIn {
        try await store.weighIn(id: id, user: user)
    }
    public func weighIns(from: LocalDate? = nil, to: LocalDate? = nil, limit: Int = 100, offset: Int = 0) async throws -> [WeighIn] {
        try await store.weighIns(user: user, from: from, to: to, limit: limit, offset: offset)
    }
    public func workout(id: UUID) async throws -> StoredWorkout? {
        try await store.workout(id: id, user: user)
    }
    public func workoutCount() async throws -> Int {
        try await store.workoutCount(user: user)
    }
    public func workouts(limit: Int, offset: Int = 0) async throws -> [WorkoutSummary] {
        try await store.workouts(user: user, limit: limit, offset: offset)
    }
    public func food(id: UUID) async throws -> Food {
        try await store.food(id: id, user: user)
    }

    /// Every account of the server, by name: an administrator's views and the research export of a study.
    public func accounts() async throws -> [Account] {
        try await store.accounts()
    }

    /// Drops an upload that waited for its import.
    public func removeWaitingUpload(token: String) async throws {
        try await store.removeWaitingUpload(token: token)
    }

    /// Syncs this journal with the Cinn server at `server` through `transport`: makes it that server's sync client the
    /// first time (a SQLite journal only), sends what changed here, and takes what changed there.
    public func sync(server: String, transport: any SyncTransport) async throws -> SyncSummary {
        try await store.enableSyncClient(server: server)
        return try await SyncClient(store: store, user: user, transport: transport).sync()
    }

    /// Whether the database is reachable and migrated to the schema this version knows.
    public func isSchemaCurrent() async throws -> Bool {
        try await store.isSchemaCurrent()
    }

    /// The changes the sync server refused, with why.
    public func rejectedSyncChanges() async throws -> [RejectedSyncChange] {
        try await store.rejectedSyncChanges()
    }

    /// Whether a food database was imported (its branded products are searched).
    public func hasImportedFoods() async throws -> Bool {
        try await store.hasImportedFoods()
    }

    /// Whether a search could find a branded product: a food database's, or a food of this user's with a brand.
    public func hasBrandedFoods() async throws -> Bool {
        try await store.hasBrandedFoods(user: user)
    }

    /// The form fields an upload waits with; with `claiming`, taken for its import, so no other request finds it.
    public func waitingUpload(token: String, claiming: Bool) async throws -> [String: String]? {
        claiming ? try await store.claimWaitingUpload(token: token, user: user) : try await store.waitingUpload(token: token, user: user)
    }

    /// Writes an import's progress for other requests (and instances) to read; progress older than `lifetime` (by
    /// the database's clock) is dropped on the way.
    public func setImportProgress(id: String, _ progress: StoredImportProgress, lifetime: TimeInterval) async throws {
        try await store.setImportProgress(id: id, user: user, progress, expiringBefore: store.now().addingTimeInterval(-lifetime))
    }
}
