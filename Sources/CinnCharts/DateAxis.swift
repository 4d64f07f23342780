import CinnCore

/// Date ticks on real calendar days, spaced by the span shown: days ("Mar 4"), months ("Mar 2024", "Apr") or years ("2024").
struct DateAxis {
    struct Tick {
        let date: LocalDate
        let label: String
        /// Where the tick sits.
        let x: Double
        /// Where its label is centred: at `x`, or moved inwards to stay inside the chart.
        let labelX: Double
    }

    /// Spacings between ticks, from the finest to the coarsest.
    enum Spacing {
        case days(Int)
        case weeks(Int)
        case months(Int)
        case years(Int)

        static let all: [Spacing] = [
            .days(1), .days(2), .days(3), .weeks(1), .weeks(2), .months(1), .months(2), .months(3), .months(6),
            .years(1), .years(2), .years(5), .years(10), .years(20), .years(50), .years(100),
        ]

        /// About how many ticks this spacing gives over `days` days.
        func estimatedCount(overDays days: Int) -> Double {
            let length: Double =
                switch self {
                case .days(let n): Double(n)
                case .weeks(let n): Double(7 * n)
                case .months(let n): 30.44 * Double(n)
                case .years(let n): 365.25 * Double(n)
                }
            return Double(days) / length
        }
    }

    let ticks: [Tick]

    /// The finest spacing whose ticks in `first...last` are at most `maximumCount` and whose labels do not overlap.
    ///
    /// - Parameters:
    ///   - position: the x of a day.
    ///   - labelWidth: the width a label takes.
    ///   - bounds: where labels must stay.
    ///   - gap: the least room between two labels.
    init(
        from first: LocalDate, to last: LocalDate, maximumCount: Int, position: (LocalDate) -> Double,
        labelWidth: (String) -> Double, bounds: ClosedRange<Double>, gap: Double
    ) {
        for spacing in Spacing.all where spacing.estimatedCount(overDays: first.distance(to: last)) <= Double(maximumCount + 1) {
            let dates = Self.dates(from: first, to: last, spacing: spacing)
            guard dates.count <= maximumCount else { continue }
            var ticks = [Tick]()
            var previousRight = -Double.infinity
            var fits = true
            var previousYear: Int?
            for date in dates {
                let label = Self.label(date, spacing: spacing, previousYear: previousYear)
                previousYear = date.year
                let width = labelWidth(label)
                let x = position(date)
                let labelX = min(max(x, bounds.lowerBound + width / 2), bounds.upperBound - width / 2)
                if labelX - width / 2 < previousRight + gap {
                    fits = false
                    break
                }
                previousRight = labelX + width / 2
                ticks.append(Tick(date: date, label: label, x: x, labelX: labelX))
            }
            if fits {
                self.ticks = ticks
                return
            }
        }
        ticks = []
    }

    /// The days in `first...last` that start a period of `spacing`.
    static func dates(from first: LocalDate, to last: LocalDate, spacing: Spacing) -> [LocalDate] {
        var dates = [LocalDate]()
        switch spacing {
        case .days(let n):
            dates = Array(stride(from: first, through: last, by: n))
        case .weeks(let n):
            let monday = first.adding(days: (8 - first.weekday) % 7)
            dates = Array(stride(from: monday, through: last, by: 7 * n))
        case .months(let n):
            var month = first.year * 12 + first.month - 1 + (first.day == 1 ? 0 : 1)
            month += (n - month % n) % n
            while let date = LocalDate(year: month / 12, month: month % 12 + 1, day: 1), date <= last {
                dates.append(date)
                month += n
            }
        case .years(let n):
            var year = first.year + (first.month == 1 && first.day == 1 ? 0 : 1)
            year += (n - year % n) % n
            while let date = LocalDate(year: year, month: 1, day: 1), date <= last {
                dates.append(date)
                year += n
            }
        }
        return dates
    }

    /// "4 Mar" for days and weeks; "Mar 2024" for the first month of a year shown (or the first tick), else "Apr"; "2024" for years.
    static func label(_ date: LocalDate, spacing: Spacing, previousYear: Int?) -> String {
        switch spacing {
        case .days, .weeks: date.dayMonth
        case .months: previousYear == date.year ? date.monthName : "\(date.monthName) \(date.year)"
        case .years: String(date.year)
        }
    }
}

extension LocalDate {
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "Mar".
    public var monthName: String { Self.monthNames[month - 1] }

    /// "4 Mar": pages, charts and their descriptions write days one way, day first (readable in every English
    /// locale, and never mistaken for a month; see docs/TIMES.md). The CLI and the JSON keep ISO 8601.
    public var dayMonth: String { "\(day) \(monthName)" }

    /// "4 Mar 2024".
    public var dayMonthYear: String { "\(day) \(monthName) \(year)" }
}
