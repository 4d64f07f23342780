import CinnCore
import Foundation

/// Turns Nutrition-Summary rows into food log entries: one per row, named after its meal
/// ("Breakfast (MyFitnessPal)"), one serving of "1 meal" holding the row's nutrient totals.
struct MyFitnessPalNutritionParser: MyFitnessPalRowParser {
    let columns: MyFitnessPalColumns.Nutrition
    let fileName: String
    /// How the file's dates are written when a spreadsheet saved them (`MyFitnessPalExport.dateOrder`).
    let dateOrder: MyFitnessPalExport.DateOrder?
    let timeZone: TimeZone
    private var identities = MyFitnessPalRowIdentities(kind: .nutrition)

    init(columns: MyFitnessPalColumns.Nutrition, fileName: String, dateOrder: MyFitnessPalExport.DateOrder?, timeZone: TimeZone) {
        self.dateOrder = dateOrder
        self.columns = columns
        self.fileName = fileName
        self.timeZone = timeZone
    }

    mutating func parse(_ row: CSVRow, into output: inout ImportOutput<FoodLogEntry>) {
        // Read once: the row's id hashes it, and the row's value needs it.
        let date: Result<LocalDate, CinnError> = Result { () throws(CinnError) in
            try MyFitnessPalField.date(row, columns.date, order: dateOrder)
        }
        let externalID = identities.next(row, columns: columns.identity, date: (columns.date, try? date.get()))
        do {
            output.add(try entry(row, date: try date.get(), externalID: externalID))
        } catch {
            output.reject(line: row.line, field: error.field ?? "row", reason: "\(fileName): \(error.message)")
        }
    }

    private func entry(_ row: CSVRow, date: LocalDate, externalID: String) throws(CinnError) -> FoodLogEntry {
        let mealText = row.text(columns.meal)
        guard !mealText.isEmpty else { throw .invalid("Meal", "the meal is empty") }
        let meal = try Meal.parse(mealText, field: "Meal")
        var secondsOfDay = Self.usualSecondsOfDay(meal)
        if let time = MyFitnessPalField.text(row, columns.time) {
            guard let seconds = MyFitnessPalField.secondsOfDay(time) else {
                throw .invalid("Time", "Time \"\(time)\" is not a time of day such as 7:42 AM")
            }
            secondsOfDay = seconds
        }
        var nutrients = Nutrients()
        for column in columns.amounts {
            guard let value = try MyFitnessPalField.amount(row, column.index, header: column.header) else { continue }
            let amount = column.percentDailyValue ? column.nutrient.amount(percentDailyValue: value) : value
            // Every %DV column's nutrient has a Daily Value in the catalogue.
            guard let amount else { continue }
            try nutrients.set(
                column.nutrient, try ValidValues.entryAmount(amount, of: column.nutrient, field: column.header), field: column.header)
        }
        let note = MyFitnessPalField.text(row, columns.note)
        if let note {
            guard note.count <= Note.maximumLength else {
                throw .invalid("Note", "Note has \(note.count) characters; at most \(Note.maximumLength)")
            }
            try ValidValues.plainText(note, field: "Note", allowingLineBreaks: true)
        }
        let (instant, offset) = LocalDateTime(date: date, secondsOfDay: Double(secondsOfDay)).resolved(in: timeZone)
        return FoodLogEntry(
            foodID: nil, name: "\(meal.title) (MyFitnessPal)", meal: meal, eatenAt: instant, utcOffsetSeconds: offset,
            servings: 1, servingLabel: "1 meal", servingAmount: nil, nutrients: nutrients,
            note: note, source: MyFitnessPalExport.source, externalID: externalID)
    }

    /// When a meal is usually eaten, for rows without a time: breakfast 08:00, lunch 12:30,
    /// snacks 15:00, dinner 19:00, a meal of the user's own 12:00.
    static func usualSecondsOfDay(_ meal: Meal) -> Int {
        switch meal {
        case .breakfast: 8 * 3600
        case .lunch: 12 * 3600 + 30 * 60
        case .snacks: 15 * 3600
        case .dinner: 19 * 3600
        default: 12 * 3600
        }
    }
}
