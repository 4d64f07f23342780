import CinnCore
import Foundation

/// Turns Measurement-Summary rows into weigh-ins at local noon; rows without a weight (other
/// measurements only) are skipped.
struct MyFitnessPalMeasurementParser: MyFitnessPalRowParser {
    let columns: MyFitnessPalColumns.Measurement
    let fileName: String
    /// How the file's dates are written when a spreadsheet saved them (`MyFitnessPalExport.dateOrder`).
    let dateOrder: MyFitnessPalExport.DateOrder?
    /// The file names none: the person's choice or the Exercise-Summary's header decides it.
    let unit: MassUnit
    let timeZone: TimeZone
    private var identities: MyFitnessPalRowIdentities

    init(
        columns: MyFitnessPalColumns.Measurement, fileName: String, dateOrder: MyFitnessPalExport.DateOrder?, unit: MassUnit,
        timeZone: TimeZone
    ) {
        self.dateOrder = dateOrder
        self.columns = columns
        self.fileName = fileName
        self.unit = unit
        self.timeZone = timeZone
        // A second import in another unit gives other weights, so other ids.
        identities = MyFitnessPalRowIdentities(kind: .measurement, salt: unit.rawValue)
    }

    mutating func parse(_ row: CSVRow, into output: inout ImportOutput<ImportedWeighIn>) {
        guard !row.field(columns.weight).isEmpty else { return output.skip() }
        // Read once: the row's id hashes it, and the row's value needs it.
        let date: Result<LocalDate, CinnError> = Result { () throws(CinnError) in
            try MyFitnessPalField.date(row, columns.date, order: dateOrder)
        }
        let externalID = identities.next(row, columns: columns.identity, date: (columns.date, try? date.get()))
        do {
            let date = try date.get()
            let value = try MyFitnessPalField.amount(row, columns.weight, header: "Weight") ?? 0
            let weight = try Mass.bodyWeight(value, unit, field: "Weight")
            let (instant, offset) = date.noon(in: timeZone)
            output.add(
                ImportedWeighIn(
                    measuredAt: instant, utcOffsetSeconds: offset, weight: weight,
                    externalID: externalID, line: row.line))
        } catch {
            output.reject(line: row.line, field: error.field ?? "row", reason: "\(fileName): \(error.message)")
        }
    }
}
