import CinnCore
import Foundation
import Testing

@testable import CinnStore

@Suite struct SyncStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_710_403_200)  // 2024-03-14 08:00 UTC

    static func at(_ minutes: Double) -> Date { t0.addingTimeInterval(minutes * 60) }

    static func weighIn(_ id: UUID, _ kilograms: Double, note: String? = nil, at minutes: Double = 0) -> SyncChange {
        var fields: SyncFields = ["measured_at": .string("2024-03-14T07:30:00+01:00"), "weight_kg": .number(kilograms)]
        if let note { fields["note"] = .string(note) }
        return SyncChange(type: "weigh_in", id: id, changedAt: at(minutes), fields: fields)
    }

    /// Every record the user has, as a pull from the start gives them.
    static func everything(_ store: Store, _ user: UserID) async throws -> [SyncRecord] {
        var cursor = SyncCursor.start, records: [SyncRecord] = []
        while true {
            let page = try await store.pull(user: user, after: cursor, limit: 7)
            records += page.changes
            cursor = try #require(SyncCursor(page.next))
            if !page.more { return records }
        }
    }

    @Test(arguments: Backend.enabled)
    func pushedRecordsArePulledAndPushingTwiceChangesNothing(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let id = UUID()
            let batch = [Self.weighIn(id, 80.25, note: "after run")]
            let first = try await store.push(batch, user: me)
            #expect(first.map(\.status) == [.applied])
            #expect(first[0].record?["measured_at"] == .string("2024-03-14T07:30:00+01:00"))
            let page = try await store.pull(user: me)
            #expect(page.changes.count == 1 && !page.more)
            #expect(page.changes[0].fields?["weight_kg"] == .number(80.25) && page.changes[0].fields?["note"] == .string("after run"))
            let stored = try await store.weighIns(user: me)
            #expect(stored.map(\.id) == [id] && stored[0].utcOffsetSeconds == 3600 && stored[0].localDate == LocalDate(iso: "2024-03-14"))

            let again = try await store.push(batch, user: me)
            #expect(again.map(\.status) == [.applied])
            let after = try await store.pull(user: me, after: try #require(SyncCursor(page.next)))
            #expect(after.changes.isEmpty, "the same change again writes nothing, so nothing new to pull")
        }
    }

    @Test(arguments: Backend.enabled)
    func mergeIsPerFieldAndOnlyAnExplicitClearEmptiesAField(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let id = UUID()
            _ = try await store.push([Self.weighIn(id, 80, note: "scale A", at: 0)], user: me)
            let partial = SyncChange(type: "weigh_in", id: id, changedAt: Self.at(5), fields: ["weight_kg": .number(79.5), "note": .null])
            #expect(try await store.push([partial], user: me)[0].record?["note"] == .string("scale A"), "absent or null keeps the note")

            // A change made earlier than the last change of a field loses that field only.
            let late = SyncChange(
                type: "weigh_in", id: id, changedAt: Self.at(3), fields: ["weight_kg": .number(81), "note": .string("old phone")])
            let merged = try await store.push([late], user: me)[0]
            #expect(merged.status == .merged)
            #expect(merged.record?["weight_kg"] == .number(79.5) && merged.record?["note"] == .string("old phone"))

            let clear = SyncChange(type: "weigh_in", id: id, changedAt: Self.at(6), clear: ["note"])
            #expect(try await store.push([clear], user: me)[0].record?["note"] == .null)
            #expect(try await store.weighIns(user: me)[0].note == nil)

            let required = try await store.push(
                [SyncChange(type: "weigh_in", id: id, changedAt: Self.at(7), clear: ["weight_kg"])], user: me)[0]
            #expect(required.status == .rejected && required.field == "weight_kg")

            // An edit made in the app after a client's change is newer than it, for every field.
            _ = try await store.updateWeighIn(id: id, user: me, weight: Mass(kilograms: 78))
            let stale = try await store.push(
                [SyncChange(type: "weigh_in", id: id, changedAt: Self.at(8), fields: ["weight_kg": .number(90)])], user: me)[0]
            #expect(stale.status == .merged && stale.record?["weight_kg"] == .number(78))
        }
    }

    @Test(arguments: Backend.enabled)
    func aDeletionIsFinalAndPulledAsATombstone(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let id = UUID(), neverSeen = UUID()
            _ = try await store.push([Self.weighIn(id, 80)], user: me)
            let results = try await store.push(
                [
                    SyncChange(type: "weigh_in", id: id, changedAt: Self.at(1), deleted: true),
                    Self.weighIn(id, 81, at: 2),
                    SyncChange(type: "weigh_in", id: neverSeen, changedAt: Self.at(1), deleted: true),
                ], user: me)
            #expect(results.map(\.status) == [.applied, .merged, .applied])
            #expect(results.map(\.deleted) == [true, true, true])
            #expect(try await store.weighIns(user: me).isEmpty)
            let pulled = try await Self.everything(store, me)
            #expect(pulled.count == 1 && pulled[0].deleted && pulled[0].fields == nil, "a deletion of an unknown record leaves nothing")

            // A record created and deleted before it ever reached the server is kept as a tombstone, so the
            // creation arriving late (a retried older push) cannot bring it back.
            let late = UUID()
            var gone = Self.weighIn(late, 70, at: 5)
            gone.deleted = true
            _ = try await store.push([gone], user: me)
            #expect(try await store.push([Self.weighIn(late, 70, at: 4)], user: me)[0].status == .merged)
            #expect(try await store.weighIns(user: me).isEmpty)
        }
    }

    @Test(arguments: Backend.enabled)
    func aMealEventMayArriveWithItsMealAndOneWithoutIsRejected(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let meal = UUID(), event = UUID(), orphan = UUID(), food = UUID()
            let results = try await store.push(
                [
                    SyncChange(
                        type: "meal_event", id: event, changedAt: Self.t0,
                        fields: [
                            "meal_id": .string(meal.uuidString), "eaten_at": .string("2024-03-14T08:05:00Z"), "portion": .number(1),
                        ]),
                    SyncChange(
                        type: "meal", id: meal, changedAt: Self.t0,
                        fields: [
                            "name": .string(" Porridge "), "kind": .string("test"), "carbohydrate_g": .number(50),
                            "foods": .array([.object(["food_id": .string(food.uuidString), "name": .string("Oats"), "grams": .number(60)])]
                            ),
                        ]),
                    SyncChange(
                        type: "meal_event", id: orphan, changedAt: Self.t0,
                        fields: [
                            "meal_id": .string(UUID().uuidString), "eaten_at": .string("2024-03-14T12:00:00Z"), "portion": .number(1),
                        ]),
                    SyncChange(
                        type: "meal", id: UUID(), changedAt: Self.t0, fields: ["name": .string("Porridge"), "kind": .string("common")]),
                ], user: me)
            #expect(results.map(\.status) == [.applied, .applied, .rejected, .rejected])
            #expect(results[2].field == "meal_id" && results[3].field == "name")
            let stored = try await store.meal(id: meal, user: me)
            #expect(stored.name == "Porridge" && stored.kind == .test && stored.foods == [MealFood(foodID: food, name: "Oats", grams: 60)])
            let events = try await store.mealEvents(user: me, from: Self.at(-60), to: Self.at(60))
            #expect(events.map(\.id) == [event] && events[0].mealID == meal)

            let pulledMeal = try #require(try await Self.everything(store, me).first { $0.id == meal })
            #expect(
                pulledMeal.fields?["foods"]
                    == .array([.object(["food_id": .string(food.uuidString.lowercased()), "name": .string("Oats"), "grams": .number(60)])]))
            // A meal changed after its event is pulled after it: the event's page carries it first.
            _ = try await store.push(
                [SyncChange(type: "meal", id: meal, changedAt: Self.at(1), fields: ["note": .string("less milk")])], user: me)
            let start = try await store.pull(user: me, limit: 1)
            #expect(start.changes.map(\.id) == [meal, event] && start.more)
            #expect(start.changes[0].fields?["note"] == .string("less milk"))
            let rest = try await store.pull(user: me, after: try #require(SyncCursor(start.next)))
            #expect(rest.changes.map(\.id) == [meal] && !rest.more)

            // Renaming frees the old name in the same push.
            let swap = try await store.push(
                [
                    SyncChange(type: "meal", id: meal, changedAt: Self.at(2), fields: ["name": .string("Oats")], clear: ["foods"]),
                    SyncChange(
                        type: "meal", id: UUID(), changedAt: Self.at(1), fields: ["name": .string("Porridge"), "kind": .string("common")]),
                ], user: me)
            #expect(swap.map(\.status) == [.applied, .applied])
            #expect(try await store.meal(id: meal, user: me).foods.isEmpty)
        }
    }

    @Test(arguments: Backend.enabled)
    func badChangesAreRejectedNamingTheFieldAndTheRestApplied(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser(), other = try await store.user(named: "other")
            let hers = UUID()
            _ = try await store.push([Self.weighIn(hers, 60)], user: other)
            func change(_ type: String, _ fields: SyncFields) -> SyncChange {
                SyncChange(type: type, id: UUID(), changedAt: Self.t0, fields: fields)
            }
            let results = try await store.push(
                [
                    change("weigh_in", ["measured_at": .string("2024-03-14T07:30:00"), "weight_kg": .number(80)]),
                    change("weigh_in", ["measured_at": .string("2024-03-14T07:30:00Z"), "weight_kg": .number(900)]),
                    change("weigh_in", ["measured_at": .string("2024-03-14T07:30:00Z")]),
                    change(
                        "weigh_in", ["measured_at": .string("2024-03-14T07:30:00Z"), "weight_kg": .number(80), "mood": .string("fine")]),
                    change("sleep", ["hours": .number(8)]),
                    change(
                        "glucose_reading",
                        ["measured_at": .string("2024-03-14T07:30:00Z"), "mg_dl": .number(112), "timing": .string("lunch")]),
                    change(
                        "food_entry",
                        [
                            "eaten_at": .string("2024-03-14T07:30:00Z"), "name": .string("Toast"), "meal": .string("breakfast"),
                            "servings": .number(1), "serving_label": .string("slice"), "nutrients": .object(["energy": .string("lots")]),
                        ]),
                    Self.weighIn(hers, 61),
                    change("glucose_reading", ["measured_at": .string("2024-03-14T07:30:00Z"), "mg_dl": .number(112)]),
                ], user: me)
            #expect(
                results.map(\.status) == [.rejected, .rejected, .rejected, .rejected, .rejected, .rejected, .rejected, .rejected, .applied])
            #expect(results.map(\.field) == ["measured_at", "weight_kg", "weight_kg", "mood", "type", "timing", "nutrients", "id", nil])
            #expect(try await store.weighIns(user: me).isEmpty)
            #expect(try await store.weighIns(user: other)[0].weight.kilograms == 60, "another user's record is untouched")
            #expect(try await Self.everything(store, me).map(\.type) == ["glucose_reading"])
        }
    }

    @Test(arguments: Backend.enabled)
    func anotherUsersFoodCannotBeLinkedBySync(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser(), other = try await store.user(named: "other")
            let hers = try await store.addFood(Food(name: "Her secret recipe", nutrients: try Nutrients([.energy: 300])), user: other)
            let mine = try await store.addFood(Food(name: "My toast", nutrients: try Nutrients([.energy: 250])), user: me)
            let notYetThere = UUID()
            func entry(_ food: UUID) -> SyncChange {
                SyncChange(
                    type: "food_entry", id: UUID(), changedAt: Self.t0,
                    fields: [
                        "eaten_at": .string("2024-03-14T07:30:00Z"), "name": .string("Toast"), "meal": .string("breakfast"),
                        "food_id": .string(food.lowercasedString),
                        "servings": .number(1), "serving_label": .string("slice"), "nutrients": .object(["energy": .number(100)]),
                    ])
            }
            let meal = SyncChange(
                type: "meal", id: UUID(), changedAt: Self.t0,
                fields: [
                    "name": .string("Lunch"), "kind": .string("common"),
                    "foods": .array([
                        .object(["food_id": .string(mine.id.lowercasedString), "name": .string("Toast"), "grams": .number(50)]),
                        .object(["food_id": .string(hers.id.lowercasedString), "name": .string("Hers"), "grams": .number(50)]),
                    ]),
                ])
            let results = try await store.push([entry(hers.id), entry(mine.id), entry(notYetThere), meal], user: me)
            #expect(results.map(\.status) == [.rejected, .applied, .applied, .rejected])
            #expect(results.map(\.field) == ["food_id", nil, nil, "foods[1].food_id"])
            #expect(results[0].reason?.contains(hers.id.lowercasedString) == true)
        }
    }

    @Test(arguments: Backend.enabled)
    func recordsWrittenByTheAppArePulledAndPagesCoverEveryChangeOnce(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let readings = (0..<3).map {
                GlucoseReading(
                    measuredAt: Self.at(Double($0) * 5), utcOffsetSeconds: 0, glucose: Glucose(milligramsPerDeciliter: 100 + Double($0)))
            }
            try await store.addGlucoseReadings(readings, user: me)
            for minutes in 0..<10 {
                _ = try await store.addWeighIn(
                    WeighIn(measuredAt: Self.at(Double(minutes)), utcOffsetSeconds: -18000, weight: Mass(kilograms: 70)), user: me)
            }
            let entry = FoodLogEntry(
                foodID: nil, name: "Apple", meal: .snacks, eatenAt: Self.t0, utcOffsetSeconds: 0, servings: 2,
                servingLabel: "apple", servingAmount: nil, nutrients: try Nutrients([.energy: 104, .carbohydrate: 28]))
            _ = try await store.addFoodEntries([entry], user: me)
            // Deleting a day's weigh-ins gives them all one version: pages must still split them exactly.
            #expect(try await store.deleteWeighIns(on: LocalDate(iso: "2024-03-14")!, user: me) == 10)
            let all = try await Self.everything(store, me)
            #expect(all.count == 14 && Set(all.map(\.id)).count == 14)
            #expect(all.suffix(10).allSatisfy { $0.deleted && $0.type == "weigh_in" }, "the deletions are the newest changes")
            let food = try #require(all.first { $0.type == "food_entry" })
            #expect(food.fields?["nutrients"] == .object(["energy": .number(104), "carbohydrate": .number(28)]))
            #expect(all.first { $0.type == "glucose_reading" }?.fields?["measured_at"] == .string("2024-03-14T08:00:00+00:00"))
        }
    }

    @Test(arguments: Backend.enabled)
    func workoutsWithTheirSetsSyncAndKeepExerciseDaysTrue(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            #expect(SetKind.allCases.map(\.storageCode) == [0, 1, 2, 3], "a set's kind is stored as its position in SetKind.allCases")
            let id = UUID()
            func set(_ exercise: String, _ reps: Int, _ kilograms: Double, kind: String = "normal") -> JSONValue {
                .object([
                    "exercise": .string(exercise), "reps": .number(Double(reps)), "weight_kg": .number(kilograms), "kind": .string(kind),
                ])
            }
            let workout = SyncChange(
                type: "workout", id: id, changedAt: Self.t0,
                fields: [
                    "started_at": .string("2024-03-14T18:00:00+01:00"), "name": .string("Push day"), "duration_s": .number(3600),
                    "sets": .array([
                        set("Bench Press (Barbell)", 10, 60, kind: "warm_up"), set("Bench Press (Barbell)", 5, 100), set("Dips", 8, 20),
                    ]),
                ])
            let results = try await store.push([workout], user: me)
            #expect(results.map(\.status) == [.applied])
            let pulled = try #require(try await Self.everything(store, me).first { $0.type == "workout" })
            guard case .array(let sets)? = pulled.fields?["sets"] else {
                Issue.record("no sets pulled")
                return
            }
            #expect(
                sets.count == 3
                    && sets[1]
                        == .object([
                            "exercise": .string("Bench Press (Barbell)"), "reps": .number(5), "weight_kg": .number(100),
                            "duration_s": .null, "distance_m": .null, "kind": .string("normal"), "rpe": .null,
                            "rir": .null, "note": .null,
                        ])
            )
            guard case .object(let warmUp) = sets[0] else {
                Issue.record("a set is not an object")
                return
            }
            #expect(warmUp["kind"] == .string("warm_up"))
            let stored = try #require(try await store.workout(id: id, user: me))
            #expect(
                stored.workout.name == "Push day"
                    && stored.workout.sets.map(\.exercise) == ["Bench Press (Barbell)", "Bench Press (Barbell)", "Dips"])
            let exercises = try await store.exercises(user: me)
            let bench = try #require(exercises.first { $0.name == "Bench Press (Barbell)" })
            var days = try await store.exerciseDays(exerciseRows: [bench.rowID])
            #expect(days[bench.rowID]?.map(\.day.iso) == ["2024-03-14"] && days[bench.rowID]?.first?.workSets == 1)

            // Moved to the next day with the bench sets gone: the old day of the bench press is gone too.
            let edit = SyncChange(
                type: "workout", id: id, changedAt: Self.at(10),
                fields: [
                    "started_at": .string("2024-03-15T18:00:00+01:00"), "sets": .array([set("Dips", 8, 25)]),
                ])
            #expect(try await store.push([edit], user: me).map(\.status) == [.applied])
            days = try await store.exerciseDays(exerciseRows: exercises.map(\.rowID))
            #expect(days[bench.rowID, default: []].isEmpty)
            let dips = try #require(exercises.first { $0.name == "Dips" })
            #expect(days[dips.rowID]?.map(\.day.iso) == ["2024-03-15"])

            let deletion = SyncChange(type: "workout", id: id, changedAt: Self.at(20), deleted: true)
            #expect(try await store.push([deletion], user: me).map(\.status) == [.applied])
            #expect(try await store.exerciseDays(exerciseRows: [dips.rowID])[dips.rowID, default: []].isEmpty)
            #expect(try await store.workout(id: id, user: me) == nil)

            let bad = try await store.push(
                [
                    SyncChange(
                        type: "workout", id: UUID(), changedAt: Self.t0,
                        fields: [
                            "started_at": .string("2024-03-14T18:00:00Z"), "name": .string("Legs"),
                            "sets": .array([set("Squat", 5, 100, kind: "heavy")]),
                        ]),
                    SyncChange(
                        type: "workout", id: UUID(), changedAt: Self.t0,
                        fields: [
                            "started_at": .string("2024-03-14T18:00:00Z"), "name": .string("Legs"), "sets": .array([set("  ", 5, 100)]),
                        ]),
                ], user: me)
            #expect(bad.map(\.status) == [.rejected, .rejected])
            #expect(bad.map(\.field) == ["sets[0].kind", "sets[0].exercise"])
        }
    }

    @Test(arguments: Backend.enabled)
    func ownFoodsAndPresetsSyncWithTheRulesOfTheApp(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let oats = UUID(), preset = UUID()
            func food(_ id: UUID, _ fields: SyncFields) -> SyncChange {
                SyncChange(type: "food", id: id, changedAt: Self.t0, fields: fields)
            }
            let results = try await store.push(
                [
                    food(
                        oats,
                        [
                            "name": .string("Rolled oats"), "brand": .string("Mill"), "basis": .string("g"),
                            "nutrients": .object(["energy": .number(372), "protein": .number(13.5), "carbohydrate": .number(58.7)]),
                            "servings": .array([.object(["label": .string("1 cup"), "grams": .number(80)])]),
                        ]),
                    food(UUID(), ["name": .string("Butter?"), "basis": .string("g"), "nutrients": .object(["energy": .number(5000)])]),
                    food(
                        UUID(),
                        [
                            "name": .string("Odd"), "basis": .string("g"), "nutrients": .object(["energy": .number(100)]),
                            "barcode": .string("4006-3814"),
                        ]),
                    food(
                        UUID(),
                        [
                            "name": .string("Odd"), "basis": .string("g"), "nutrients": .object(["energy": .number(100)]),
                            "servings": .array([.object(["label": .string("scoop")])]),
                        ]),
                    SyncChange(
                        type: "preset", id: preset, changedAt: Self.t0,
                        fields: [
                            "name": .string("Usual breakfast"), "meal": .string("breakfast"),
                            "items": .array([
                                .object([
                                    "food_id": .string(oats.lowercasedString), "name": .string("Rolled oats"), "servings": .number(1),
                                    "serving_label": .string("1 cup"), "serving_amount": .number(80),
                                    "nutrients": .object(["energy": .number(298)]),
                                ])
                            ]),
                        ]),
                    SyncChange(type: "preset", id: UUID(), changedAt: Self.t0, fields: ["name": .string("Nothing"), "items": .array([])]),
                ], user: me)
            #expect(results.map(\.status) == [.applied, .rejected, .rejected, .rejected, .applied, .rejected])
            #expect(results.map(\.field) == [nil, "nutrients.energy", "barcode", "servings[0].grams", nil, "items"])
            let stored = try await store.food(id: oats, user: me)
            #expect(stored.source == .mine && stored.brand == "Mill" && stored.nutrients.energy == 372)
            #expect(stored.servings == [ServingSize(label: "1 cup", amount: 80)])
            #expect(try await store.presets(user: me).map(\.name) == ["Usual breakfast"])
            #expect(try await store.preset(id: preset, user: me).items.first?.foodID == oats)
            let all = try await Self.everything(store, me)
            #expect(all.map(\.type).sorted() == ["food", "preset"])
            #expect(
                all.first { $0.type == "food" }?.fields?["servings"]
                    == .array([.object(["label": .string("1 cup"), "grams": .number(80)])]))
        }
    }

    @Test(arguments: Backend.enabled)
    func recipesSyncAsFoodsWithTheirIngredients(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser()
            let oats = Food(name: "Oats", nutrients: nutrients(["energy": 400, "protein": 10]))
            try await store.addFood(oats, user: me)
            // Made in the app: pulled as a food with its ingredients.
            let made = try Recipe.make(
                name: "Porridge",
                ingredients: [
                    try RecipeIngredient.of(oats, servings: 50, of: ServingSize(label: "1 g", amount: 1), field: "ingredients[0]")
                ], servings: 2, cookedGrams: 200)
            try await store.saveRecipe(made, user: me)
            let pulled = try #require(try await Self.everything(store, me).first { $0.id == made.food.id })
            #expect(
                pulled.type == "food" && pulled.fields?["recipe_servings"] == .number(2) && pulled.fields?["cooked_grams"] == .number(200))
            guard case .array(let items)? = pulled.fields?["ingredients"] else {
                Issue.record("no ingredients")
                return
            }
            guard case .object(let first)? = items.first else {
                Issue.record("no ingredient")
                return
            }
            #expect(first["name"] == .string("Oats") && first["grams"] == .number(50))
            if case .array(let none)? = try await Self.everything(store, me).first(where: { $0.id == oats.id })?.fields?["ingredients"] {
                #expect(none.isEmpty, "a food has no ingredients")
            }

            // Pushed by a client: a recipe the app reads back.
            let pushed = UUID()
            let results = try await store.push(
                [
                    SyncChange(
                        type: "food", id: pushed, changedAt: Self.t0,
                        fields: [
                            "name": .string("Smoothie"), "basis": .string("g"), "nutrients": .object(["energy": .number(60)]),
                            "recipe_servings": .number(1),
                            "ingredients": .array([
                                .object([
                                    "food_id": .string(oats.id.lowercasedString), "name": .string("Oats"),
                                    "servings": .number(30), "serving_label": .string("1 g"), "grams": .number(30),
                                    "nutrients": .object(["energy": .number(120)]),
                                ])
                            ]),
                        ])
                ], user: me)
            #expect(results.map(\.status) == [.applied])
            let recipe = try await store.recipe(id: pushed, user: me)
            #expect(recipe.ingredients.map(\.name) == ["Oats"] && recipe.servingsCount == 1)
            let bad = try await store.push(
                [
                    SyncChange(
                        type: "food", id: UUID(), changedAt: Self.t0,
                        fields: [
                            "name": .string("Bad"), "basis": .string("g"), "nutrients": .object(["energy": .number(60)]),
                            "ingredients": .array([
                                .object([
                                    "name": .string("Oats"), "servings": .number(-1), "serving_label": .string("1 g"),
                                    "grams": .number(30), "nutrients": .object([:]),
                                ])
                            ]),
                        ])
                ], user: me)
            #expect(bad.map(\.field) == ["ingredients[0].servings"])
        }
    }

    @Test func aJournalThatBecameAClientBeforeFoodsSyncedSendsItsFoodsToo() async throws {
        try await TestDatabase.with(.sqlite) { store in
            let me = try await store.localUser()
            try await store.enableSyncClient(server: "https://cinn.example")
            // As a client made by the version before foods synced left it: no food triggers, nothing marked.
            try await store.withConnection { db in
                try await db.raw("DROP TRIGGER sync_foods_insert").run()
                try await db.raw("DROP TRIGGER sync_foods_update").run()
            }
            let food = try await store.addFood(
                try Food(name: "Rye bread", basis: .grams, nutrients: try Nutrients([.energy: 250])).validated(), user: me)
            #expect(try await store.pendingSyncCount() == 0)
            try await store.enableSyncClient(server: "https://cinn.example")
            #expect(try await store.pendingSyncChanges(user: me).map(\.change.id) == [food.id])
            var renamed = food
            renamed.name = "Dark rye bread"
            _ = try await store.updateFood(renamed, user: me)
            #expect(try await store.pendingSyncChanges(user: me).first?.change.fields["name"] == .string("Dark rye bread"))
        }
    }

    @Test(arguments: Backend.enabled)
    func theSettingsAreOneRecordPerAccountThatSyncsFieldByField(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { store in
            let me = try await store.localUser(), other = try await store.user(named: "other")
            let profile = Profile(
                sex: .female, birthDate: LocalDate(iso: "1990-05-01")!, height: Height(centimetres: 168), activity: .moderate)
            try await store.saveSettings(UserSettings(profile: profile, onboarded: true), user: me)
            let pulled = try #require(try await Self.everything(store, me).first { $0.type == "settings" })
            #expect(pulled.fields?["birth_date"] == .string("1990-05-01") && pulled.fields?["onboarded"] == .bool(true))
            #expect(pulled.fields?["display_unit"] == .string("kg") && pulled.fields?["energy_target_kcal"] == .null)

            let edit = SyncChange(
                type: "settings", id: pulled.id, changedAt: Date(),
                fields: [
                    "display_unit": .string("lb"), "energy_target_kcal": .number(2100), "time_zone": .string("Europe/Berlin"),
                ])
            #expect(try await store.push([edit], user: me).map(\.status) == [.applied])
            let settings = try await store.settings(user: me)
            #expect(settings.displayUnit == .pounds && settings.energyTargetKcal == 2100 && settings.timeZoneIdentifier == "Europe/Berlin")
            #expect(settings.profile == profile, "fields the change did not name are kept")

            let complete: SyncFields = [
                "display_unit": .string("st"), "trend_method": .string("exact"), "energy_unit": .string("kJ"),
                "length_unit": .string("ft_in"),
                "target_basis": .string("formula"), "onboarded": .bool(false), "one_rep_max_formula": .string("epley"),
                "glucose_unit": .string("mmol/L"),
            ]
            let results = try await store.push(
                [
                    SyncChange(type: "settings", id: UUID(), changedAt: Date(), fields: complete),
                    SyncChange(type: "settings", id: pulled.id, changedAt: Date(), deleted: true),
                    SyncChange(type: "settings", id: pulled.id, changedAt: Date(), fields: ["time_zone": .string("Mars/Olympus")]),
                    SyncChange(
                        type: "settings", id: pulled.id, changedAt: Date(),
                        fields: ["nutrient_targets": .string(#"{"protein":{"grams":-1}}"#)]),
                ], user: me)
            #expect(results.map(\.status) == [.rejected, .rejected, .rejected, .rejected])
            #expect(results.map(\.field) == ["id", "deleted", "time_zone", "nutrient_targets.protein"])
            let targets = SyncChange(
                type: "settings", id: pulled.id, changedAt: Date(),
                fields: ["nutrient_targets": .string(#"{"fat":{"percent":30}}"#)])
            #expect(try await store.push([targets], user: me).map(\.status) == [.applied])
            #expect(try await store.settings(user: me).nutrientTargets == NutrientTargets(fat: .percentOfEnergy(30)))
            #expect(results[0].reason?.contains(pulled.id.lowercasedString) == true, "the answer names the account's settings")

            // An account without settings takes a complete record.
            #expect(
                try await store.push([SyncChange(type: "settings", id: UUID(), changedAt: Date(), fields: complete)], user: other)
                    .map(\.status) == [.applied])
            let hers = try await store.settings(user: other)
            #expect(hers.displayUnit == .stones && hers.energyUnit == .kilojoules && hers.glucoseUnit == .millimolesPerLiter)
            #expect(try await store.settings(user: me).displayUnit == .pounds, "one account's settings never touch another's")
        }
    }
}
