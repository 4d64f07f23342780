import Testing

@testable import CinnServer

/// The template engine's rules, one by one (the page snapshots check them on every real page).
@Suite struct PageTemplateTests {
    struct Row {
        let name: String
        let note: String?
    }

    struct Model {
        var flag = true
        var rows: [Row] = [Row(name: "a", note: nil), Row(name: "b", note: "own")]
        var none: [Row] = []
        var note = "outer"
        var count = 3
        var ratio = 2.5
        var text = "<a href='x'>&\""
        var form = Form()
    }

    struct Form {
        let key = "k1"
    }

    static func render(_ text: String, _ model: Any = Model(), partials: [String: String] = [:]) throws -> String {
        var templates = try partials.mapValues { try PageTemplate($0) }
        templates["main"] = try PageTemplate(text)
        var out = ""
        try #require(templates["main"]).render(
            PageTemplate.Context(stack: [try #require(TemplateValue.wrap(model))], indentation: nil, partials: templates), into: &out)
        return out
    }

    @Test func aTagAloneOnItsLineTakesTheLineWithIt() throws {
        #expect(try Self.render("a\n{{#flag}}\nb\n{{/flag}}\nc\n") == "a\nb\nc\n")
        #expect(try Self.render("a\n  {{^flag}}\nb\n  {{/flag}}\nc\n") == "a\nc\n")
        #expect(try Self.render("a\n{{! a note }}\nc") == "a\nc")
        #expect(try Self.render("a {{#flag}}b{{/flag}} c") == "a b c", "inside a line, the spaces stay")
    }

    @Test func aPartialAloneOnItsLineIsIndentedAsItsTag() throws {
        #expect(try Self.render("  {{> p}}\nz", partials: ["p": "x\ny\n"]) == "  x\n  y\nz")
        #expect(try Self.render("[{{> p}}]", partials: ["p": "x"]) == "[x]")
        #expect(try Self.render("[{{> missing}}]") == "[]")
    }

    @Test func variablesAreEscapedUnlessTripled() throws {
        #expect(try Self.render("{{text}}") == "&lt;a href=&#39;x&#39;&gt;&amp;&quot;")
        #expect(try Self.render("{{{text}}}|{{& text}}") == "<a href='x'>&\"|<a href='x'>&\"")
        #expect(try Self.render("{{count}} {{ratio}} {{flag}} {{missing}}.") == "3 2.5 true .")
        #expect(try Self.render("{{form.key}} {{#form}}{{key}}{{/form}}") == "k1 k1")
    }

    @Test func sectionsRepeatForListsAndSkipFalseNilAndEmpty() throws {
        #expect(try Self.render("{{#rows}}[{{name}}]{{/rows}}") == "[a][b]")
        #expect(try Self.render("{{#none}}x{{/none}}{{^none}}empty{{/none}}{{^rows}}never{{/rows}}") == "empty")
        #expect(try Self.render("{{#missing}}x{{/missing}}{{^missing}}absent{{/missing}}") == "absent")
        #expect(try Self.render("{{#count}}{{.}}{{/count}}") == "3", "a number is a value, even 0 would be")
    }

    @Test func aNameMissingOrNilIsLookedForInTheLevelsAround() throws {
        #expect(try Self.render("{{#rows}}{{name}}:{{note}} {{/rows}}") == "a:outer b:own ")
        #expect(try Self.render("{{#rows}}{{.name}}{{/rows}}") == "ab")
    }

    /// A model that names its fields (`TemplateParent`) answers each as reflection would, and nothing else.
    static func expectFieldsAsReflected(_ model: some TemplateParent, sourceLocation: SourceLocation = #_sourceLocation) {
        let mirror = Mirror(reflecting: model)
        for child in mirror.children {
            guard let label = child.label else { continue }
            let named = TemplateValue.wrap(model.child(named: label) as Any), reflected = TemplateValue.wrap(child.value)
            #expect(named?.text == reflected?.text, "\(type(of: model)).\(label)", sourceLocation: sourceLocation)
            #expect((named == nil) == (reflected == nil), "\(type(of: model)).\(label)", sourceLocation: sourceLocation)
        }
        #expect(model.child(named: "noSuchField") == nil, sourceLocation: sourceLocation)
    }

    @Test func modelsThatNameTheirFieldsNameThemAll() {
        let kinds = KindOption.all(selected: .warmUp)
        kinds.forEach { Self.expectFieldsAsReflected($0) }
        Self.expectFieldsAsReflected(
            WorkoutLogPage.DoneSet(
                position: 2, number: 1, text: "100 kg × 5", kind: "warm-up", rpe: nil, note: "easy", records: nil, weight: "100",
                reps: "5", rpeValue: "", rirValue: "2", noteValue: "easy", kinds: kinds))
        Self.expectFieldsAsReflected(WorkoutLogPage.PlannedSet(number: 3, weight: "105", reps: "5", kinds: kinds, plates: nil))
        Self.expectFieldsAsReflected(
            GlucoseReportPage.Event(
                id: "e", date: "2024-03-01", when: "Fri 1, 08:00", meal: "Porridge", portion: nil, response: "+40 mg/dL",
                reason: "too soon", diary: nil))
        Self.expectFieldsAsReflected(GlucoseReportPage.MealOption(id: "m", name: "Porridge"))
        Self.expectFieldsAsReflected(GlucoseReportPage.Day(date: "2024-03-01", label: "Fri 1", mean: "110", inRange: "92 %"))
        Self.expectFieldsAsReflected(
            GlucoseReportPage.Ranked(name: "Porridge", counted: 3, events: 4, rise: "+40", area: "1200", minutes: "45"))
        Self.expectFieldsAsReflected(GlucoseReportPage.Period(days: 14, label: "14 days", on: true, hours: 6))
        Self.expectFieldsAsReflected(GlucoseReportPage.Band(className: "in", label: "In range", percent: "71 %", x: 3.5, width: 71))
        Self.expectFieldsAsReflected(GlucoseReportPage.Figure(label: "GMI", value: "6.8 %", detail: "14 days"))
        Self.expectFieldsAsReflected(
            GlucoseReportPage.OptionGroup(label: "Presets", options: [GlucoseReportPage.MealOption(id: "m", name: "Porridge")]))
        Self.expectFieldsAsReflected(PageRenderer.Frame(csrfToken: "token", page: "the page"))
        Self.expectFieldsAsReflected(
            PageRenderer.Layout(
                title: "Food", body: "<main></main>", tabWeight: false, tabFood: true, tabLifts: false, tabGlucose: false,
                tabMore: false, showTabs: true, notice: nil, csrfToken: "token", account: "anna"))
        Self.expectFieldsAsReflected(
            WeighInsPage.Item(id: "x", day: "Mon 3", time: "07:10", weight: "80.2", note: nil, trend: "80.31", change: "+0.1", week: "—"))
    }

    @Test func aTemplateThatCannotBeReadSaysWhy() {
        #expect(throws: PageTemplate.ParseError.self) { try PageTemplate("{{#a}}") }
        #expect(throws: PageTemplate.ParseError.self) { try PageTemplate("{{#a}}{{/b}}") }
        #expect(throws: PageTemplate.ParseError.self) { try PageTemplate("{{=<% %>=}}") }
        #expect(throws: PageTemplate.ParseError.self) { try PageTemplate("{{name") }
    }
}
