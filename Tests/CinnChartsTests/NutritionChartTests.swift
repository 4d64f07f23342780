import CinnCore
import Foundation
import Testing

@testable import CinnCharts

/// The elements named `name` whose class list holds `className`.
private func elements(_ svg: String, _ name: String, withClass className: String) -> [Element] {
    elements(svg, name).filter { $0["class"]?.split(separator: " ").contains(Substring(className)) ?? false }
}

private let march4 = LocalDate(year: 2024, month: 3, day: 4)!

/// `count` days from March 4, 2024 with deterministic kcal around 2000, leaving out the days `logged` rejects.
private func calorieDays(
    _ count: Int, target: (Int) -> Double? = { _ in 2000 },
    logged: (Int) -> Bool = { $0 % 5 != 3 }
) -> [(date: LocalDate, energy: Double, target: Double?)] {
    let wobble = [-350.0, 120, 480, -60, 210, -240, 30]
    return (0..<count).filter(logged).map { (march4.adding(days: $0), 2000 + wobble[$0 % 7], target($0)) }
}

private func macros(protein: Double?, carbohydrate: Double?, fat: Double?) -> Nutrients {
    var nutrients = Nutrients()
    nutrients[.protein] = protein
    nutrients[.carbohydrate] = carbohydrate
    nutrients[.fat] = fat
    return nutrients
}

/// The root element, the title and the description: checks the chart names itself for screen readers and scales.
private func checkAccessible(_ svg: String, id: String, title: String) throws -> (title: Element, desc: Element) {
    let root = try #require(elements(svg, "svg").first)
    #expect(root["id"] == id && root["role"] == "img")
    #expect(root["viewBox"]?.hasPrefix("0 0 400 ") == true)
    #expect(root["height"] == nil && root["width"] == "100%")
    let titleElement = try #require(elements(svg, "title").first)
    let desc = try #require(elements(svg, "desc").first)
    #expect(root["aria-labelledby"] == "\(id)-title \(id)-desc")
    #expect(titleElement["id"] == "\(id)-title" && desc["id"] == "\(id)-desc")
    #expect(titleElement.text == title)
    #expect(svg.contains("@media (prefers-color-scheme:dark)"))
    #expect(isWellFormed(svg))
    return (titleElement, desc)
}

/// Checks date labels are in order, inside the chart and do not overlap, by their estimated extents.
private func checkDateLabels(_ svg: String, from first: LocalDate, to last: LocalDate) throws {
    let ticks = elements(svg, "text", class: "x-tick")
    #expect((1...BarLayout.maximumDateTicks).contains(ticks.count))
    let dates = try ticks.map { try #require(LocalDate(iso: $0["data-date"]!)) }
    #expect(dates.allSatisfy { $0 >= first && $0 <= last })
    let extents = ticks.map { (x: $0.number("x")!, half: ChartCanvas.textWidth($0.text) / 2) }
    #expect(extents.allSatisfy { $0.x - $0.half >= 0 && $0.x + $0.half <= ChartCanvas.width })
    #expect(zip(extents, extents.dropFirst()).allSatisfy { $0.x + $0.half < $1.x - $1.half })
}

@Suite("Calorie chart")
struct CalorieChartTests {
    @Test("one bar per logged day, in date order, and none for days not logged")
    func barsAndGaps() {
        let days = calorieDays(14)
        let svg = CalorieChart(days: days).svg()
        let bars = elements(svg, "rect", withClass: "day")
        #expect(bars.count == days.count && days.count == 11)
        #expect(bars.map { $0["data-date"] } == days.map { $0.date.iso })
        #expect(bars.map { $0["data-kcal"] } == days.map { String(Int($0.energy)) })
        // Slots are equal: a bar's x grows with its date, by the same step a day, gaps included.
        let step = (bars.last!.number("x")! - bars[0].number("x")!) / Double(days[0].date.distance(to: days.last!.date))
        for (bar, day) in zip(bars, days) {
            #expect(abs(bar.number("x")! - bars[0].number("x")! - step * Double(days[0].date.distance(to: day.date))) < 0.15)
            #expect(bar.number("width")! > 0 && bar.number("width")! < step)
        }
    }

    @Test("the top of each bar reads off the value axis as the day's kcal; the axis starts at zero")
    func barHeights() throws {
        let days = calorieDays(10)
        let svg = CalorieChart(days: days).svg()
        let axis = DrawnValueAxis(svg)
        let zero = try #require(elements(svg, "line", class: "axis").first)
        #expect(zero["data-value"] == "0")
        for (bar, day) in zip(elements(svg, "rect", withClass: "day"), days) {
            #expect(abs(axis.value(atY: bar.number("y")!) - day.energy) < 2)
            #expect(abs(bar.number("y")! + bar.number("height")! - zero.number("y1")!) < 0.15)
        }
        let labels = elements(svg, "text", class: "y-tick")
        #expect(labels.first?.text == "0" && labels.count >= 4)
        #expect(elements(svg, "text", class: "axis-title").map(\.text) == ["Calories (kcal)"])
    }

    @Test("one target for every day is one dashed line; days over it are class over and rise above it")
    func targetLine() throws {
        let days = calorieDays(21)
        let svg = CalorieChart(days: days).svg()
        let line = try #require(elements(svg, "line", class: "target").first)
        #expect(elements(svg, "line", class: "target").count == 1)
        #expect(line["data-kcal"] == "2000" && line["y1"] == line["y2"])
        let lineY = line.number("y1")!
        #expect(abs(DrawnValueAxis(svg).value(atY: lineY) - 2000) < 2)
        let bars = elements(svg, "rect", withClass: "day")
        let over = bars.filter { $0["class"] == "day over" }
        #expect(over.map { $0["data-date"] } == days.filter { $0.energy > 2000 }.map { $0.date.iso })
        #expect(!over.isEmpty && over.count < bars.count)
        for bar in bars {
            #expect(bar["class"] == "day over" ? bar.number("y")! < lineY : bar.number("y")! >= lineY)
        }
        #expect(elements(svg, "line", class: "target-mark").isEmpty)
        #expect(elements(svg, "text", class: "legend-label").map(\.text) == ["target 2000 kcal", "over target"])
    }

    @Test("a day is over only when over in whole kcal")
    func overInWholeKilocalories() {
        let svg = CalorieChart(days: [(march4, 2000.4, 2000), (march4.adding(days: 1), 2000.6, 2000)]).svg()
        #expect(elements(svg, "rect", withClass: "day").map { $0["class"] } == ["day", "day over"])
    }

    @Test("targets that differ are a mark over each day that has one, at its own target")
    func targetMarks() throws {
        let days = calorieDays(14, target: { $0 < 3 ? nil : $0 % 7 >= 5 ? 2400 : 1900 })
        let svg = CalorieChart(days: days).svg()
        #expect(elements(svg, "line", class: "target").isEmpty)
        let marks = elements(svg, "line", class: "target-mark")
        let withTarget = days.filter { $0.target != nil }
        #expect(marks.map { $0["data-date"] } == withTarget.map { $0.date.iso })
        let axis = DrawnValueAxis(svg)
        let bars = Dictionary(uniqueKeysWithValues: elements(svg, "rect", withClass: "day").map { ($0["data-date"]!, $0) })
        for (mark, day) in zip(marks, withTarget) {
            #expect(abs(axis.value(atY: mark.number("y1")!) - day.target!) < 2)
            let bar = try #require(bars[day.date.iso])
            let barMiddle = bar.number("x")! + bar.number("width")! / 2
            #expect(abs((mark.number("x1")! + mark.number("x2")!) / 2 - barMiddle) < 0.15)
            #expect(mark.number("x2")! - mark.number("x1")! >= bar.number("width")!)
            #expect((bar["class"] == "day over") == (day.energy > day.target!))
            #expect(bar["class"] == "day over" ? bar.number("y")! < mark.number("y1")! : bar.number("y")! >= mark.number("y1")!)
        }
        #expect(elements(svg, "text", class: "legend-label").first?.text == "daily target")
    }

    @Test("without targets there is no target and nothing is over")
    func noTarget() {
        let svg = CalorieChart(days: calorieDays(7, target: { _ in nil })).svg()
        #expect(elements(svg, "line", class: "target").isEmpty && elements(svg, "line", class: "target-mark").isEmpty)
        #expect(elements(svg, "rect", class: "day over").isEmpty)
        #expect(elements(svg, "text", class: "legend-label").isEmpty)
    }

    @Test("a range shows its days: days outside are left out, unlogged days at its ends are room, not bars")
    func range() throws {
        let days = calorieDays(30, logged: { _ in true })
        let range = march4.adding(days: 5)...march4.adding(days: 18)
        let svg = CalorieChart(days: days, in: range).svg()
        let bars = elements(svg, "rect", withClass: "day")
        #expect(bars.map { $0["data-date"] } == days.filter { range.contains($0.date) }.map { $0.date.iso })
        try checkDateLabels(svg, from: range.lowerBound, to: range.upperBound)

        let sparse = CalorieChart(days: [(march4.adding(days: 6), 1800, 2000)], in: march4...march4.adding(days: 6)).svg()
        let bar = try #require(elements(sparse, "rect", withClass: "day").first)
        #expect(bar.number("x")! > ChartCanvas.width * 0.8)
        #expect(elements(sparse, "text", class: "x-tick").first?["data-date"] == "2024-03-04")
    }

    @Test("date labels are few and never overlap, for any span", arguments: [1, 2, 7, 14, 31, 90, 365, 1_000])
    func dateLabels(days: Int) throws {
        let svg = CalorieChart(days: calorieDays(days, logged: { _ in true })).svg()
        try checkDateLabels(svg, from: march4, to: march4.adding(days: days - 1))
        #expect(elements(svg, "rect", withClass: "day").count == days)
    }

    @Test("value labels are far enough apart to read, and sit left of the plot")
    func valueLabels() throws {
        for highest in [90.0, 850, 2_600, 5_400, 12_000] {
            let svg = CalorieChart(days: [(march4, highest, nil)]).svg()
            let labels = elements(svg, "text", class: "y-tick")
            let ys = labels.map { $0.number("y")! }
            #expect(zip(ys, ys.dropFirst()).allSatisfy { $0 - $1 >= ChartCanvas.fontSize * 1.5 })
            let plotLeft = try #require(elements(svg, "line", class: "axis").first?.number("x1"))
            #expect(labels.allSatisfy { $0.number("x")! < plotLeft && ChartCanvas.textWidth($0.text) < $0.number("x")! })
            #expect(DrawnValueAxis(svg).ticks.last!.value >= highest)
        }
    }

    @Test("amounts that are not numbers or negative are left out; so are targets not above zero; the last entry for a day wins")
    func inputChecks() {
        let days: [(date: LocalDate, energy: Double, target: Double?)] = [
            (march4, .nan, 2000), (march4.adding(days: 1), -5, 2000), (march4.adding(days: 2), 1500, .infinity),
            (march4.adding(days: 3), 1600, 0), (march4.adding(days: 3), 1700, nil),
        ]
        let chart = CalorieChart(days: days)
        #expect(chart.days.map(\.date) == [march4.adding(days: 2), march4.adding(days: 3)])
        #expect(chart.days.map(\.energy) == [1500, 1700])
        #expect(chart.days.allSatisfy { $0.target == nil })
        #expect(isWellFormed(chart.svg()))
    }

    @Test("a logged day of nothing is a hairline, unlike a day not logged")
    func zeroDay() {
        let svg = CalorieChart(days: [(march4, 0, 2000), (march4.adding(days: 2), 1900, 2000)]).svg()
        let bars = elements(svg, "rect", withClass: "day")
        #expect(bars.count == 2 && bars[0]["data-kcal"] == "0")
        #expect(bars[0].number("height")! > 0 && bars[0].number("height")! <= 1)
    }

    @Test("the svg names itself and summarises the days for screen readers")
    func accessible() throws {
        let days = calorieDays(14)
        let svg = CalorieChart(days: days, in: march4...march4.adding(days: 13)).svg()
        let (_, desc) = try checkAccessible(svg, id: "calorie-chart", title: "Calories per day")
        let over = days.count { $0.energy > 2000 }
        #expect(desc.text.contains("4 Mar 2024") && desc.text.contains("17 Mar 2024"))
        #expect(desc.text.contains("food logged on 11 of 14 days"))
        #expect(desc.text.contains("Target 2000 kcal; \(over) days over it."))
        let bar = elements(CalorieChart(days: [(march4, 2140, 2000)]).svg(), "rect", withClass: "day")[0]
        #expect(bar.text == "<title>Mon 4 Mar: 2140 kcal, 140 kcal over the target of 2000 kcal</title>")
    }

    @Test("with nothing logged the chart says so and what to do")
    func empty() throws {
        let svg = CalorieChart(days: []).svg()
        let (_, desc) = try checkAccessible(svg, id: "calorie-chart", title: "Calories per day")
        #expect(elements(svg, "text").map(\.text) == ["No food logged yet", "Log a meal to see calories per day."])
        #expect(desc.text == "No food logged yet.")
        #expect(elements(svg, "rect", withClass: "day").isEmpty)
        let week = CalorieChart(days: calorieDays(3), in: march4.adding(days: 7)...march4.adding(days: 13)).svg()
        #expect(elements(week, "text", class: "empty").first?.text == "No food logged from 11 Mar to 17 Mar 2024")
    }

    @Test("text is escaped and the result is well-formed XML")
    func escaping() throws {
        let title = "Sam's \"kcal\" <b>&\u{1} more"
        let svg = CalorieChart(days: calorieDays(5), title: title).svg()
        #expect(elements(svg, "title").first?.text == "Sam&apos;s &quot;kcal&quot; &lt;b&gt;&amp; more")
        #expect(!svg.contains("<b>"))
        #expect(isWellFormed(svg))
        #expect(isWellFormed(CalorieChart(days: [], title: title).svg()))
    }

    @Test("the food log's days: days without entries or without energy are gaps")
    func fromDayNutrition() throws {
        func entry(_ nutrients: Nutrients) -> FoodLogEntry {
            FoodLogEntry(
                foodID: nil, name: "Apple", meal: .lunch, eatenAt: Date(timeIntervalSince1970: 0), utcOffsetSeconds: 0,
                servings: 1, servingLabel: "1 medium", servingAmount: 182, nutrients: nutrients)
        }
        let apple = try Nutrients([.energy: 95, .carbohydrate: 25])
        let days = [
            DayNutrition(date: march4, entries: [entry(apple), entry(apple)], energyTargetKcal: 2000),
            DayNutrition(date: march4.adding(days: 1), entries: [], energyTargetKcal: 2000),
            DayNutrition(date: march4.adding(days: 2), entries: [entry(try Nutrients([.protein: 3]))], energyTargetKcal: 2000),
            DayNutrition(date: march4.adding(days: 3), entries: [entry(apple)], energyTargetKcal: nil),
        ]
        let chart = CalorieChart(foodLog: days)
        #expect(chart.days.map(\.date) == [march4, march4.adding(days: 3)])
        #expect(chart.days.map(\.energy) == [190, 95])
        #expect(chart.targetMarks == .perDay)
    }
}

@Suite("Calorie chart as text")
struct CalorieTextTests {
    @Test("a line a day in date order, gaps as a dash, days over with by how much, and the target named")
    func lines() {
        let days = calorieDays(10)
        let lines = CalorieChart(days: days).text(width: 40).split(separator: "\n").map(String.init)
        #expect(lines.count == 11)
        for (offset, line) in lines.prefix(10).enumerated() {
            let date = march4.adding(days: offset)
            #expect(line.hasPrefix("\(date.weekdayName) \(date.iso)  "))
            if let day = days.first(where: { $0.date == date }) {
                #expect(line.contains("\(Int(day.energy)) kcal"))
                #expect(line.hasSuffix(day.energy > 2000 ? "+\(Int(day.energy - 2000)) over" : " kcal"))
            } else {
                #expect(line.hasSuffix("—") && !line.contains("█"))
            }
        }
        #expect(lines[10].hasSuffix("┆ target 2000 kcal"))
    }

    @Test("bars are to scale: the longest fills the width, others in proportion to an eighth of a column")
    func scale() {
        let days: [(date: LocalDate, energy: Double, target: Double?)] = [
            (march4, 2400, nil), (march4.adding(days: 1), 1200, nil),
            (march4.adding(days: 2), 1250, nil),
        ]
        let lines = CalorieChart(days: days).text(width: 24).split(separator: "\n")
        func columns(_ line: Substring) -> Double {
            let full = Double(line.count { $0 == "█" })
            let partial = line.compactMap { CalorieChart.partialBlocks.firstIndex(of: $0) }.first.map { Double($0 + 1) / 8 } ?? 0
            return full + partial
        }
        #expect(lines.count == 3)
        #expect(columns(lines[0]) == 24 && columns(lines[1]) == 12 && columns(lines[2]) == 12.5)
    }

    @Test("the target mark shows where a bar stops short of it")
    func targetColumn() {
        let lines = CalorieChart(days: [(march4, 1000, 2000), (march4.adding(days: 1), 2000, 2000)]).text(width: 20)
            .split(separator: "\n")
        #expect(lines[0].contains("██████████") && lines[0].firstIndex(of: "┆") != nil)
        let markColumn = lines[0].distance(from: lines[0].startIndex, to: lines[0].firstIndex(of: "┆")!)
        #expect(markColumn == "Mon 2024-03-04  ".count + 19)
        #expect(!lines[1].contains("┆") && !lines[1].contains("over"))
    }

    @Test("nothing logged says so")
    func empty() {
        #expect(CalorieChart(days: []).text() == "No food logged yet")
    }
}

@Suite("Macro split chart")
struct MacroSplitChartTests {
    @Test(
        "shares use 4, 4 and 9 kcal a gram; whole percentages add up to 100",
        arguments: [(112.0, 230.0, 71.0), (1, 1, 1), (10, 10, 0), (3, 300, 0.5), (50, 50, 22.2), (0.001, 0, 1000)])
    func percentages(protein: Double, carbohydrate: Double, fat: Double) throws {
        let svg = MacroSplitChart(nutrients: macros(protein: protein, carbohydrate: carbohydrate, fat: fat)).svg()
        let segments = elements(svg, "path", withClass: "segment")
        let percents = segments.map { Int($0["data-percent"]!)! }
        #expect(percents.reduce(0, +) == 100)
        let kcal = [protein * 4, carbohydrate * 4, fat * 9]
        let total = kcal.reduce(0, +)
        let drawn = zip(["protein", "carbohydrate", "fat"], kcal).filter { $0.1 > 0 }
        #expect(segments.map { $0["data-nutrient"]! } == drawn.map(\.0))
        for (segment, (_, energy)) in zip(segments, drawn) {
            #expect(abs(Double(segment["data-percent"]!)! - energy / total * 100) < 1)
            #expect(abs(segment.number("data-kcal")! - energy) <= 0.5)
        }
        let legend = elements(svg, "text", class: "percent").map(\.text)
        #expect(legend.count == 3)
        #expect(legend.map { Int($0.dropLast())! }.reduce(0, +) == 100)
        #expect(elements(svg, "text", class: "total").first?.text == "≈\(Int(total.rounded()))")
    }

    /// 379 kcal logged whose macros give 392 at 4, 4 and 9 kcal a gram: the middle says 379, as the page beside it does.
    @Test func theMiddleShowsTheLoggedEnergyInTheReadersUnit() throws {
        var nutrients = macros(protein: 20, carbohydrate: 50, fat: 12.9)
        nutrients[.energy] = 378.6
        let svg = MacroSplitChart(nutrients: nutrients).svg()
        #expect(elements(svg, "text", class: "total").first?.text == "379")
        #expect(elements(svg, "text", class: "total-unit").first?.text == "kcal")
        #expect(svg.contains("About 396 kcal from protein, carbohydrate and fat at 4, 4 and 9 kcal a gram"))
        let kilojoules = MacroSplitChart(nutrients: nutrients, energyUnit: .kilojoules).svg()
        #expect(elements(kilojoules, "text", class: "total").first?.text == "1584")
        #expect(elements(kilojoules, "text", class: "total-unit").first?.text == "kJ")
    }

    @Test("remainders go to the largest fractions: thirds are 34, 33 and 33")
    func largestRemainder() throws {
        let shares = try #require(MacroSplitChart(nutrients: macros(protein: 9, carbohydrate: 9, fat: 4)).shares)
        #expect(shares.map(\.percent) == [34, 33, 33])
        let more = try #require(MacroSplitChart(nutrients: macros(protein: 10, carbohydrate: 10.5, fat: 4)).shares)
        #expect(more.map(\.percent).reduce(0, +) == 100)
    }

    @Test("segments go clockwise from the top, each as wide as its share")
    func geometry() {
        let svg = MacroSplitChart(nutrients: macros(protein: 100, carbohydrate: 200, fat: 400 / 9)).svg()
        let segments = elements(svg, "path", withClass: "segment")
        #expect(segments.map { $0["data-percent"] } == ["25", "50", "25"])
        // Each segment starts on the outer ring just clockwise of where the one before ended: 0°, 90°, 270°.
        let starts = segments.map { segment -> (Double, Double) in
            let numbers = segment["d"]!.dropFirst().split(separator: "A")[0].split(separator: " ").map { Double($0)! }
            return (numbers[0] - MacroSplitChart.centre.x, MacroSplitChart.centre.y - numbers[1])
        }
        let angles = starts.map { (atan2($0.0, $0.1) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360) }
        for (angle, expected) in zip(angles, [0.0, 90, 270]) {
            #expect(abs(angle - expected - MacroSplitChart.gapDegrees / 2) < 0.5)
        }
    }

    @Test("one macro alone is a whole ring at 100%, the others 0%")
    func single() {
        let svg = MacroSplitChart(nutrients: macros(protein: 0, carbohydrate: 0, fat: 40)).svg()
        let segments = elements(svg, "path", withClass: "segment")
        #expect(segments.count == 1 && segments[0]["data-nutrient"] == "fat" && segments[0]["data-percent"] == "100")
        #expect(segments[0]["d"]!.count { $0 == "A" } == 4)
        #expect(elements(svg, "text", class: "percent").map(\.text) == ["0%", "0%", "100%"])
    }

    @Test("a macro no entry gave is listed as not logged, and the summary says so")
    func absentMacro() {
        let svg = MacroSplitChart(nutrients: macros(protein: 60, carbohydrate: 180, fat: nil)).svg()
        #expect(elements(svg, "path", withClass: "segment").map { $0["data-percent"] } == ["25", "75"])
        #expect(elements(svg, "text", class: "percent").map(\.text) == ["25%", "75%", "—"])
        #expect(elements(svg, "text", class: "amount").map(\.text) == ["60 g · 240 kcal", "180 g · 720 kcal", "not logged"])
        #expect(elements(svg, "g", class: "legend-item unknown").map { $0["data-nutrient"] } == ["fat"])
        let desc = elements(svg, "desc")[0].text
        #expect(
            desc
                == "About 960 kcal from protein, carbohydrate and fat at 4, 4 and 9 kcal a gram: protein 25% (60 g), carbohydrate 75% (180 g). Not logged: fat."
        )
    }

    @Test(
        "no macros, or none above zero, is an empty state that says what to do",
        arguments: [Nutrients(), macros(protein: 0, carbohydrate: 0, fat: 0), macros(protein: nil, carbohydrate: nil, fat: nil)])
    func empty(nutrients: Nutrients) throws {
        let svg = MacroSplitChart(nutrients: nutrients).svg()
        _ = try checkAccessible(svg, id: "macro-chart", title: "Energy from protein, carbohydrate and fat")
        #expect(elements(svg, "path").isEmpty)
        #expect(elements(svg, "text").map(\.text) == ["No protein, carbs or fat logged", "Log food with its nutrition to see the split."])
    }

    @Test("the svg names itself, summarises the split and escapes its title")
    func accessible() throws {
        let svg = MacroSplitChart(nutrients: macros(protein: 112, carbohydrate: 230, fat: 71), title: "Today's <macros> & more").svg()
        let (title, desc) = try checkAccessible(svg, id: "macro-chart", title: "Today&apos;s &lt;macros&gt; &amp; more")
        #expect(title.text.contains("&lt;"))
        #expect(
            desc.text
                == "About 2007 kcal from protein, carbohydrate and fat at 4, 4 and 9 kcal a gram: protein 22% (112 g), carbohydrate 46% (230 g), fat 32% (71 g)."
        )
    }

    @Test("amounts that are not numbers count as not logged")
    func notANumber() {
        var nutrients = macros(protein: 50, carbohydrate: 100, fat: 20)
        nutrients[.fat] = .nan
        let svg = MacroSplitChart(nutrients: nutrients).svg()
        #expect(elements(svg, "path", withClass: "segment").map { $0["data-nutrient"] } == ["protein", "carbohydrate"])
        #expect(isWellFormed(svg))
    }
}

@Suite("Nutrient chart")
struct NutrientChartTests {
    private func amounts(_ count: Int, every step: Int = 1, base: Double, logged: (Int) -> Bool = { $0 % 4 != 2 })
        -> [(date: LocalDate, amount: Double)]
    {
        let wobble = [0.8, 1.1, 0.6, 1.3, 0.9]
        return (0..<count).filter(logged).map { (march4.adding(days: $0 * step), base * wobble[$0 % 5]) }
    }

    @Test("a bar per logged day at its amount; the Daily Value a dashed line at its value, named with its unit")
    func dailyValue() throws {
        let values = amounts(20, base: 2300)
        let svg = NutrientChart(nutrient: .sodium, amounts: values).svg()
        let bars = elements(svg, "rect", withClass: "bar")
        #expect(bars.map { $0["data-date"] } == values.map { $0.date.iso })
        let axis = DrawnValueAxis(svg)
        for (bar, value) in zip(bars, values) {
            #expect(abs(axis.value(atY: bar.number("y")!) - value.amount) < 20)
        }
        let line = try #require(elements(svg, "line", class: "daily-value").first)
        #expect(line["data-amount"] == "2300" && abs(axis.value(atY: line.number("y1")!) - 2300) < 20)
        #expect(elements(svg, "text", class: "legend-label").map(\.text) == ["Daily Value 2300 mg"])
        #expect(elements(svg, "text", class: "axis-title").map(\.text) == ["Sodium (mg)"])
        try checkDateLabels(svg, from: march4, to: march4.adding(days: 19))
    }

    @Test("the value axis reaches the Daily Value even when every amount is far below it")
    func axisReachesDailyValue() throws {
        let svg = NutrientChart(nutrient: Nutrient.named("vitamin_d")!, amounts: amounts(10, base: 3)).svg()
        #expect(DrawnValueAxis(svg).ticks.last!.value >= 20)
        #expect(elements(svg, "text", class: "axis-title").map(\.text) == ["Vitamin D (µg)"])
        #expect(elements(svg, "text", class: "legend-label").map(\.text) == ["Daily Value 20 µg"])
    }

    @Test("a nutrient without a Daily Value has no reference line", arguments: [Nutrient.sugars, .energy, Nutrient.named("trans_fat")!])
    func withoutDailyValue(nutrient: Nutrient) {
        let values = amounts(7, base: 30)
        let svg = NutrientChart(nutrient: nutrient, amounts: values).svg()
        #expect(elements(svg, "line", class: "daily-value").isEmpty && elements(svg, "g", class: "legend").isEmpty)
        #expect(elements(svg, "text", class: "axis-title").first?.text == "\(nutrient.name) (\(nutrient.unit.rawValue))")
        #expect(elements(svg, "rect", withClass: "bar").count == values.count)
    }

    @Test("all zero amounts still draw an axis")
    func allZero() {
        let svg = NutrientChart(nutrient: Nutrient.named("trans_fat")!, amounts: [(march4, 0), (march4.adding(days: 1), 0)]).svg()
        #expect(DrawnValueAxis(svg).ticks.count >= 3)
        #expect(elements(svg, "rect", withClass: "bar").count == 2)
    }

    @Test("weekly averages are bars as wide as a week, dated by its Monday; a later amount for a week replaces an earlier")
    func weekly() throws {
        let values = amounts(12, every: 7, base: 25, logged: { _ in true }) + [(march4.adding(days: 3), 30)]
        let svg = NutrientChart(nutrient: .fiber, amounts: values, period: .week).svg()
        let bars = elements(svg, "rect", withClass: "bar")
        #expect(bars.count == 12)
        #expect(bars.allSatisfy { LocalDate(iso: $0["data-date"]!)!.weekday == 1 && LocalDate(iso: $0["data-end"]!)!.weekday == 7 })
        #expect(bars[0]["data-amount"] == "30")
        let step = bars[1].number("x")! - bars[0].number("x")!
        #expect(bars.allSatisfy { $0.number("width")! > step / 2 && $0.number("width")! < step })
        #expect(elements(svg, "title").first?.text == "Fiber per day, weekly average")
        try checkDateLabels(svg, from: march4, to: march4.adding(days: 83))
        // A tick sits under the middle of the bar its date falls in.
        let middles = bars.map { $0.number("x")! + $0.number("width")! / 2 }
        for tick in elements(svg, "line", class: "tick") {
            #expect(middles.contains { abs($0 - tick.number("x1")!) < 0.15 })
        }
    }

    @Test("monthly averages are a bar a month, labelled under their middles")
    func monthly() throws {
        let values = (0..<12).map { (LocalDate(year: 2024, month: $0 + 1, day: 15)!, 5.0 + Double($0 % 3)) }
        let svg = NutrientChart(nutrient: Nutrient.named("vitamin_d")!, amounts: values, period: .month).svg()
        let bars = elements(svg, "rect", withClass: "bar")
        #expect(bars.map { $0["data-date"]! } == (1...12).map { LocalDate(year: 2024, month: $0, day: 1)!.iso })
        #expect(bars.last?["data-end"] == "2024-12-31")
        try checkDateLabels(svg, from: LocalDate(year: 2024, month: 1, day: 1)!, to: LocalDate(year: 2024, month: 12, day: 31)!)
    }

    @Test("a long nutrient name keeps the unit readable and the legend on its own row when needed")
    func longName() throws {
        let nutrient = Nutrient.named("pantothenic_acid")!
        let svg = NutrientChart(nutrient: nutrient, amounts: amounts(7, base: 4)).svg()
        #expect(elements(svg, "text", class: "axis-title").first?.text == "Pantothenic acid (B5), mg")
        let layout = BarLayout(
            from: march4, through: march4, highest: 10, axisTitle: String(repeating: "x", count: 40),
            legend: [.init(mark: .dashedLine, className: "daily-value", label: "Daily Value 1000 mg")])
        #expect(layout.legendOnOwnRow && layout.top > 2 * BarLayout.headerRowHeight)
        var out = Markup(capacity: 1_024)
        layout.drawHeader(&out)
        let title = elements(out.string, "text", class: "axis-title")[0], label = elements(out.string, "text", class: "legend-label")[0]
        #expect(label.number("y")! - title.number("y")! >= ChartCanvas.fontSize)
    }

    @Test("the svg names itself and summarises the amounts against the Daily Value")
    func accessible() throws {
        let values = [(march4, 2000.0), (march4.adding(days: 1), 3000), (march4.adding(days: 3), 1600)]
        let svg = NutrientChart(nutrient: .sodium, amounts: values).svg()
        let (_, desc) = try checkAccessible(svg, id: "nutrient-chart", title: "Sodium per day")
        #expect(
            desc.text == "Sodium per day from 4 Mar 2024 to 7 Mar 2024: logged in 3 of 4 days, 2200 mg a day on average "
                + "(96% of the 2300 mg Daily Value), from 1600 to 3000 mg. 1 day above the Daily Value.")
        let bar = elements(svg, "rect", withClass: "bar")[1]
        #expect(bar.text == "<title>Tue 5 Mar: 3000 mg (130% DV)</title>")
    }

    @Test("with nothing logged the chart says so and what to do; text is escaped")
    func emptyAndEscaping() throws {
        let svg = NutrientChart(nutrient: .sodium, amounts: [(march4, .nan)], title: "<Salt> & \"more\"").svg()
        _ = try checkAccessible(svg, id: "nutrient-chart", title: "&lt;Salt&gt; &amp; &quot;more&quot;")
        #expect(elements(svg, "text").map(\.text) == ["Sodium: nothing logged yet", "Log food with its nutrition facts to see it here."])
        let ranged = NutrientChart(
            nutrient: .sodium, amounts: amounts(5, base: 2000), in: march4.adding(days: 10)...march4.adding(days: 16))
        #expect(elements(ranged.svg(), "text", class: "empty").first?.text == "Sodium: nothing logged in these days")
    }
}
