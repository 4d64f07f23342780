import CinnCore
import Foundation
import Testing

/// Builds daily weights from a start day and values; nil is a day without a weigh-in.
func days(_ start: String, _ values: [Double?], unit: MassUnit = .kilograms) -> [DailyWeight] {
    let first = LocalDate(iso: start)!
    return values.enumerated().compactMap { index, value in
        value.map { DailyWeight(date: first.adding(days: index), weight: Mass($0, unit)) }
    }
}

func day(_ text: String) -> LocalDate { LocalDate(iso: text)! }

extension Double {
    func isClose(to other: Double, within tolerance: Double = 1e-9) -> Bool { abs(self - other) <= tolerance }
}

/// Expects `body` to throw invalid input naming `field`.
func expectInvalid(_ field: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("expected an error naming \(field)", sourceLocation: sourceLocation)
    } catch let error as CinnError {
        #expect(error.code == .invalidInput && error.field == field, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
    }
}
