// Writes a deterministic generic weight CSV (`date,weight`, ISO local times, kg):
//
//     WeightCSVTool --rows 100000 --end 2026-06-30 --out weights.csv
//     WeightCSVTool --span-days 3653 --readings daily --end 2026-11-21 --out ten-years.csv
//
// `--rows N` writes exactly N readings ending on `--end`; `--span-days N` covers the N calendar
// days ending on `--end`. `--readings daily` is one morning reading per weighed day;
// `frequent` (the default with --rows) 4–8 a day. About 10% of days have no reading.
// Same arguments, same bytes.
import BenchmarkData
import Foundation

var rows: Int?
var spanDays: Int?
var readings: WeightCSV.Readings?
var endDay: Int?
var seed: UInt64 = 42
var output: String?

var arguments = CommandLine.arguments.dropFirst().makeIterator()
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("WeightCSVTool: \(message)\n".utf8))
    exit(64)
}
while let argument = arguments.next() {
    guard let value = arguments.next() else { fail("\(argument) needs a value") }
    switch argument {
    case "--rows":
        guard let number = Int(value), number > 0 else { fail("--rows: not a positive number") }
        rows = number
    case "--span-days":
        guard let number = Int(value), number > 0 else { fail("--span-days: not a positive number") }
        spanDays = number
    case "--readings":
        switch value {
        case "daily": readings = .daily
        case "frequent": readings = .frequent
        default: fail("--readings: daily or frequent")
        }
    case "--end":
        guard let day = CivilCalendar.dayNumber(iso: value) else { fail("--end: use YYYY-MM-DD") }
        endDay = day
    case "--seed":
        guard let number = UInt64(value) else { fail("--seed: not a number") }
        seed = number
    case "--out": output = value
    default: fail("unknown option \(argument)")
    }
}
guard let endDay else { fail("--end YYYY-MM-DD is required") }
let text: String
switch (rows, spanDays) {
case (let rows?, nil): text = WeightCSV.make(rows: rows, endDay: endDay, readingsPerDay: readings ?? .frequent, seed: seed)
case (nil, let spanDays?): text = WeightCSV.make(spanDays: spanDays, endDay: endDay, readingsPerDay: readings ?? .daily, seed: seed)
default: fail("give --rows N or --span-days N")
}
if let output {
    do {
        try text.write(toFile: output, atomically: true, encoding: .utf8)
    } catch {
        fail("cannot write \(output): \(error)")
    }
} else {
    FileHandle.standardOutput.write(Data(text.utf8))
}
