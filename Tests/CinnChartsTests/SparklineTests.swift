import Testing
@testable import CinnCharts

@Suite("Sparkline")
struct SparklineTests {
    @Test("a line through every value, sized by its viewBox, named by its title")
    func line() throws {
        let svg = Sparkline(values: [80.1, 80.0, 79.8, 79.9, 79.6, 79.5, 79.4], title: "Trend, last 7 days").svg()
        let root = try #require(elements(svg, "svg").first)
        #expect(root["viewBox"] == "0 0 120 32")
        #expect(root["width"] == nil && root["height"] == nil)
        #expect(root["role"] == "img")
        #expect(elements(svg, "title").map(\.text) == ["Trend, last 7 days"])
        let points = pathPoints(try #require(elements(svg, "path").first)["d"]!)
        #expect(points.count == 7)
        #expect(zip(points, points.dropFirst()).allSatisfy { $0.x < $1.x })
        // Lower values are drawn lower: the highest value is at the top of the line.
        #expect(points[0].y == points.map(\.y).min())
        #expect(points[6].y == points.map(\.y).max())
        #expect(isWellFormed(svg))
    }

    @Test("the title is escaped; no values draw no line; one value is a dot")
    func edges() {
        let empty = Sparkline(values: [], title: "A & B").svg()
        #expect(elements(empty, "title").map(\.text) == ["A &amp; B"])
        #expect(elements(empty, "path").isEmpty)
        let one = Sparkline(values: [72, .nan], title: "one").svg()
        #expect(pathPoints(elements(one, "path")[0]["d"]!).count == 1)
        #expect(elements(one, "circle").count == 1)
        #expect(isWellFormed(one))
    }
}
