import CinnCore
import Foundation
import Testing

/// The merge of a push without a database: what each change does to the records, field by field.
@Suite struct SyncMergeTests {
    let weighIn = try! #require(SyncType.byName["weigh_in"])
    let id = UUID()
    let morning = Date(timeIntervalSince1970: 1_795_242_600)

    func change(
        _ type: String = "weigh_in", id: UUID? = nil, after seconds: TimeInterval = 0, fields: SyncFields = [:],
        clear: [String] = [], deleted: Bool = false
    ) -> SyncChange {
        SyncChange(
            type: type, id: id ?? self.id, changedAt: morning.addingTimeInterval(seconds), fields: fields, clear: clear, deleted: deleted)
    }

    var newWeighIn: SyncFields { ["measured_at": .string("2026-11-21T07:30:00+01:00"), "weight_kg": .number(80.5)] }

    @Test func aNewRecordTakesItsFieldsCanonicalAndTheRestEmpty() {
        var merge = SyncMerge(type: weighIn, stored: [])
        let result = merge.apply(change(fields: newWeighIn.merging(["note": .string("  after a run  ")]) { $1 }))
        #expect(result.status == .applied)
        #expect(
            result.record == [
                "measured_at": .string("2026-11-21T07:30:00+01:00"), "weight_kg": .number(80.5), "note": .string("after a run"),
            ])
        #expect(merge.changedRecords.map(\.id) == [id] && merge.changedRecords.first?.exists == false)
        #expect(
            merge.apply(change(id: UUID(), fields: ["weight_kg": .number(80)])).field == "measured_at",
            "a new record needs its required fields")
        #expect(
            merge.apply(change(id: UUID(), fields: newWeighIn.merging(["weight_kg": .number(800)]) { $1 })).field == "weight_kg",
            "a value out of its range")
    }

    @Test func perFieldTheLaterChangeWinsAndNullNeverOverwrites() {
        var merge = SyncMerge(type: weighIn, stored: [])
        _ = merge.apply(change(after: 10, fields: newWeighIn))
        let older = merge.apply(change(after: 5, fields: ["weight_kg": .number(81), "note": .string("old note")]))
        #expect(older.status == .merged, "the weight lost to a later change")
        #expect(
            older.record?["weight_kg"] == .number(80.5) && older.record?["note"] == .string("old note"),
            "the note was never set: it is taken")
        let nulled = merge.apply(change(after: 20, fields: ["note": .null]))
        #expect(nulled.status == .applied && nulled.record?["note"] == .string("old note"), "null leaves the stored value alone")
        let cleared = merge.apply(change(after: 20, clear: ["note"]))
        #expect(cleared.record?["note"] == .null)
        #expect(merge.apply(change(after: 30, clear: ["weight_kg"])).field == "weight_kg", "a required field cannot be cleared")
        #expect(merge.apply(change(after: 30, fields: ["height": .number(1)])).field == "height", "an unknown field is rejected")
    }

    @Test func aDeletionIsFinal() {
        let stored = SyncMerge.Record(
            id: id, exists: true, deleted: false, fields: newWeighIn.merging(["note": .null]) { $1 },
            fieldTimes: ["weight_kg": 0, "measured_at": 0, "note": 0])
        var merge = SyncMerge(type: weighIn, stored: [stored])
        let deleted = merge.apply(change(deleted: true))
        #expect(deleted.status == .applied && deleted.deleted && deleted.record == nil)
        let later = merge.apply(change(after: 60, fields: ["weight_kg": .number(79)]))
        #expect(later.status == .merged && later.deleted, "an edit after the deletion does not bring the record back")
        #expect(merge.changedRecords.first?.deleted == true)
        var fresh = SyncMerge(type: weighIn, stored: [])
        #expect(fresh.apply(change(id: UUID(), deleted: true)).status == .applied, "deleting a record never seen is applied")
        #expect(fresh.changedRecords.isEmpty)
    }

    @Test func idsOfOtherUsersReferencesAndUniqueValuesAreChecked() throws {
        var weighIns = SyncMerge(type: weighIn, stored: [], otherUsers: [id])
        #expect(weighIns.apply(change(fields: newWeighIn)).field == "id")

        let mealType = try #require(SyncType.byName["meal"]), eventType = try #require(SyncType.byName["meal_event"])
        let meal = UUID(), other = UUID()
        var meals = SyncMerge(type: mealType, stored: [], owners: [.string("Porridge"): other])
        #expect(meals.apply(change("meal", id: meal, fields: ["name": .string("Porridge"), "kind": .string("common")])).field == "name")
        #expect(meals.apply(change("meal", id: meal, fields: ["name": .string("Oats"), "kind": .string("common")])).status == .applied)
        #expect(
            meals.apply(change("meal", id: UUID(), fields: ["name": .string("Oats"), "kind": .string("common")])).field == "name",
            "a value taken earlier in the same push")

        let event: SyncFields = [
            "meal_id": .string(meal.lowercasedString), "eaten_at": .string("2026-11-21T08:00:00+01:00"), "portion": .number(1),
        ]
        var missing = SyncMerge(type: eventType, stored: [])
        #expect(missing.apply(change("meal_event", fields: event)).field == "meal_id")
        var found = SyncMerge(type: eventType, stored: [], referable: [meal])
        #expect(found.apply(change("meal_event", fields: event)).status == .applied)
    }

    @Test func theSettingsAreOneRecordNeverDeleted() throws {
        let settings = try #require(SyncType.byName["settings"])
        let existing = UUID()
        var merge = SyncMerge(type: settings, stored: [], singleton: existing)
        #expect(merge.apply(change("settings", fields: ["display_unit": .string("kg")])).field == "id")
        #expect(merge.apply(change("settings", id: existing, deleted: true)).field == "deleted")
    }
}
