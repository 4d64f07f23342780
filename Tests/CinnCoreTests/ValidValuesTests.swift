import Foundation
import PropertyBased
import Testing

@testable import CinnCore

/// The one definition of valid values, and the conversions that read what is stored, over values at and beyond every
/// edge: nothing traps, what is refused names its field, and JSON stays JSON.
@Suite struct ValidValuesTests {
    /// Doubles at and beyond the edges of every range Cinn keeps, and ordinary ones.
    static let edges: [Double] = [
        0, -0.0, 1e-300, -1e-300, 4.9e-324, 1.412347339486671e-210, 0.001, 0.0009999, 0.025, 0.0249, 1, 100, 100.0001, 700, 700.5,
        20_000, 20_000.01, 50_000.5, 1_000_000, 1_000_000.5, 1e15, -1e15, 9.2e18, 1e19, -1e19, 1e300, -1e300, 1e308,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, .nan,
    ]
    /// An edge (the first `edges.count` choices), or any number (the rest).
    static let choice = Gen<Int>.int(in: 0...(edges.count + 4))
    static let any = Gen<Double>.double(in: -1e20...1e20)
    static func value(_ choice: Int, _ any: Double) -> Double {
        choice < edges.count ? edges[choice] : choice % 2 == 0 ? any : any / 1e18
    }

    @Test func numbersAreShownWithoutTrappingAndJSONStaysJSON() async {
        await propertyCheck(count: 500, input: Self.choice, Self.any) { choice, any in
            let value = Self.value(choice, any)
            let whole = value.roundedInt
            #expect((whole != nil) == (value.isFinite && abs(value) < 1e15))
            #expect(value.wholeText == (whole.map(String.init) ?? "—"))
            let shown = Mass.format(value, decimals: 2)
            #expect(value.isFinite && abs(value) < 1e15 ? shown != "—" : shown == "—")
            _ = Mass.format(value, upTo: 3)
            for text in [JSONText.number(value), JSONText.compactNumber(value), "[\(JSONText.number(value))]"] {
                #expect((try? JSONParser.parse(Array(text.utf8))) != nil, "\(text) is not JSON")
            }
            #expect(JSONText.number(value) == (value.isFinite ? "\(value)" : "null"))
        }
    }

    @Test func aNumberIsValidExactlyWhenFiniteAndInItsRange() async {
        await propertyCheck(count: 500, input: Self.choice, Self.any) { choice, any in
            let value = Self.value(choice, any)
            for range in [
                ValidValues.workoutEnergyKcal, ValidValues.workoutDistanceMetres, ValidValues.workoutDurationSeconds,
                FoodLogEntry.servingsRange, InsulinDose.unitsRange,
            ] {
                let accepted = (try? ValidValues.number(value, in: range, field: "x")) != nil
                #expect(accepted == (value.isFinite && range.contains(value)), "\(value) in \(range)")
            }
            #expect(((try? FoodLogEntry.validatedServings(value)) != nil) == (value.isFinite && FoodLogEntry.servingsRange.contains(value)))
            #expect(((try? InsulinDose.validatedUnits(value)) != nil) == (value.isFinite && InsulinDose.unitsRange.contains(value)))
            #expect(
                ((try? HealthSample.validatedValue(value, field: "qty")) != nil)
                    == (value.isFinite && abs(value) <= ValidValues.healthSampleMagnitude))
            let refused = try? ValidValues.number(value, in: 0...1, field: "data.workouts[0].distance.qty")
            if refused == nil {
                #expect(throws: CinnError.self) { try ValidValues.number(value, in: 0...1, field: "data.workouts[0].distance.qty") }
            }
        }
    }

    @Test func anyInstantGivesADayATimeAndMillisecondsWithoutTrapping() async {
        await propertyCheck(count: 500, input: Self.choice, Self.any) { choice, any in
            let seconds = Self.value(choice, any)
            let instant = Date(timeIntervalSince1970: seconds)
            _ = LocalDate(instant: instant, utcOffsetSeconds: 3600).iso
            _ = LocalDateTime(instant: instant, utcOffsetSeconds: -18_000).clock
            _ = WeighIn.isoString(instant: instant, utcOffsetSeconds: 0)
            let milliseconds = instant.millisecondsSince1970
            #expect(abs(milliseconds) <= 1_000_000_000_000_000)
            let inRange = (try? ValidValues.instant(instant, field: "time")) != nil
            #expect(inRange == (seconds.isFinite && seconds >= -2_208_988_800 && seconds < 7_258_118_400))
        }
    }

    /// A local time with its offset, written byte by byte, reads as the C library writes it, for any instant a journal
    /// holds and any offset a time may carry (and the C library's form beyond them).
    @Test func aLocalTimeWithItsOffsetIsWrittenAsPrintfWouldWriteIt() async {
        let seconds = Gen<Int>.int(in: -2_208_988_800...7_258_118_399)
        let offset = Gen<Int>.int(in: -50_400...50_400)
        await propertyCheck(count: 1000, input: seconds, offset) { seconds, offset in
            for offset in [offset, offset / 60 * 60, 0, 360_000 + offset] {
                let instant = Date(timeIntervalSince1970: Double(seconds))
                let local = seconds + offset, day = LocalDate(instant: instant, utcOffsetSeconds: offset)
                let time = local - day.dayNumber * 86_400, size = abs(offset)
                let printf = String(
                    format: "%@T%02d:%02d:%02d%@%02d:%02d", day.iso, time / 3600, time % 3600 / 60, time % 60, offset < 0 ? "-" : "+",
                    size / 3600, size % 3600 / 60)
                #expect(WeighIn.isoString(instant: instant, utcOffsetSeconds: offset) == printf)
            }
        }
    }

    @Test func thePlatesForAnyTargetAreNeverMoreThanItOrThanThePlatesThereAre() async {
        let sets = [
            PlateSet.standard(.kilograms), PlateSet.standard(.pounds),
            PlateSet(
                unit: .kilograms, bar: 20, plates: [99.99, 97.03, 61.13, 29.37, 1.25, 0.01].map { PlateSet.Plate(weight: $0, count: 40) }),
        ]
        await propertyCheck(count: 300, input: Self.choice, Self.any, Gen<Int>.int(in: 0...2)) { choice, any, index in
            let target = Self.value(choice, any) / (choice % 3 == 0 ? 1 : 1e17)
            let set = sets[index]
            let load = set.load(target)
            #expect(load.total == set.bar || (target.isFinite && load.total <= target + 1e-9))
            for plate in set.plates { #expect(load.perSide.filter { $0 == plate.weight }.count <= plate.count / 2) }
            _ = load.text
        }
    }

    /// Names from files and clients: tabs and line breaks become spaces; other control characters and the marks that
    /// reverse text are refused; what is kept holds neither.
    @Test func namesHoldNoControlCharacters() async {
        let pieces = [
            "Bench", " press", "\t", "\n", "\r\n", "\u{0}", "\u{1B}[31m", "\u{7F}", "\u{85}", "\u{202E}", "\u{2066}", "é", "🏋️", "  ",
        ]
        await propertyCheck(count: 500, input: Gen<Int>.int(in: 0...(pieces.count - 1)).array(of: 0...8)) { indices in
            let text = indices.map { pieces[$0] }.joined()
            if let name = try? ValidValues.name(text, field: "name") {
                #expect(!name.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
                #expect(!name.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
                #expect(!name.isEmpty && name == name.trimmingCharacters(in: .whitespacesAndNewlines))
            } else {
                let bad = text.unicodeScalars.contains {
                    ($0.value < 0x20 && !["\t", "\n", "\r"].contains($0)) || (0x7F...0x9F).contains($0.value)
                        || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
                }
                #expect(
                    bad || text.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters)).isEmpty,
                    "\(text.debugDescription)")
            }
            let noteAccepted = (try? Note.validated(text)) != nil
            let plain = !text.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars.contains {
                ($0.value < 0x20 && !["\t", "\n", "\r"].contains($0)) || (0x7F...0x9F).contains($0.value)
                    || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
            }
            #expect(noteAccepted == plain || text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        }
    }
}
