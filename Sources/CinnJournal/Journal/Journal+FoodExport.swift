import CinnCore
import CinnImport
import CinnStore
import Foundation

/// What a food export holds: in JSON everything (foods, entries, presets, days); in CSV one table.
public enum FoodExportTable: String, Sendable, CaseIterable {
    case entries, days, foods
}

extension Journal {
    /// The user's whole food journal as one JSON document, or one table of it as CSV. Nutrients are
    /// in each nutrient's catalogue unit (CSV headers name it); days are derived from the entries.
    public func exportFood(format: ExportFormat, table: FoodExportTable = .entries) async throws -> String {
        let foods = try await store.ownFoods(user: user, limit: Int(Int32.max))
        let entries: [FoodLogEntry]
        if let span = try await store.foodLogSpan(user: user) {
            entries = try await store.foodEntries(user: user, from: span.lowerBound, to: span.upperBound)
        } else {
            entries = []
        }
        let days = Dictionary(grouping: entries, by: \.localDate).sorted { $0.key < $1.key }
            .map { DayNutrition(date: $0.key, entries: $0.value, energyTargetKcal: nil) }
        switch format {
        case .json:
            let document = FoodJournalDocument(foods: foods, entries: entries, presets: try await store.presets(user: user), days: days)
            return try jsonString(document, pretty: true) + "\n"
        case .csv:
            let header = Nutrient.all.map { "\($0.key)_\($0.unit == .micrograms ? "ug" : $0.unit.rawValue)" }
            func amounts(_ nutrients: Nutrients) -> String {
                Nutrient.all.map { csvNumber(nutrients[$0]) }.joined(separator: ",")
            }
            var text: String
            switch table {
            case .entries:
                text =
                    (["date", "time", "meal", "name", "brand", "servings", "serving", "grams", "note", "id", "food_id"] + header)
                    .joined(separator: ",") + "\n"
                for entry in entries {
                    let fields = [
                        entry.localDate.iso, entry.localTimeOfDay, entry.meal.name, entry.name, entry.brand ?? "",
                        csvNumber(entry.servings), entry.servingLabel, csvNumber(entry.servingAmount), entry.note ?? "",
                        entry.id.lowercasedString, entry.foodID?.lowercasedString ?? "",
                    ]
                    text += fields.map(CSVField.escaped).joined(separator: ",") + "," + amounts(entry.nutrients) + "\n"
                }
            case .days:
                text = (["date", "entries"] + header).joined(separator: ",") + "\n"
                for day in days { text += "\(day.date.iso),\(day.entries.count)," + amounts(day.totals) + "\n" }
            case .foods:
                text =
                    (["name", "brand", "barcode", "basis", "servings", "id"] + header.map { $0 + "_per_100" }).joined(separator: ",") + "\n"
                for food in foods {
                    let servings = food.servings.map { "\($0.label)=\($0.amount)" }.joined(separator: "; ")
                    let fields = [food.name, food.brand ?? "", food.barcode ?? "", food.basis.rawValue, servings, food.id.lowercasedString]
                    text += fields.map(CSVField.escaped).joined(separator: ",") + "," + amounts(food.nutrients) + "\n"
                }
            }
            return text
        }
    }

    /// Imports a food journal file written by `exportFood(format: .json)`: all or nothing unless
    /// `mode.skipInvalid`, duplicates skipped, recorded as a batch that can be undone.
    public func importFoodJournal(at url: URL, fileName: String?, mode: ImportMode) async throws -> ImportReport {
        let file = try FoodJournalFile(url: url)
        let report = ImportReport(
            format: FoodJournalDocument.formatName, rowsRead: file.recordsRead, rejected: file.rejected,
            rejectedCount: file.rejectedCount)
        return try await store.importFoodJournal(
            user: user, fileName: fileName, mode: mode, foods: file.foods,
            entries: file.entries, presets: file.presets, report: report)
    }
}
