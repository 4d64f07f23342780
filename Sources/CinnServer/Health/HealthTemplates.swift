/// The health data page's template.
enum HealthTemplates {
    static let all: [String: String] = ["health": page]

    static let style = """
    .health-answer h2 { margin-top:0; }
    .health-answer .big { font-size:2.4rem; font-weight:800; line-height:1.1; margin:4px 0 0; }
    .health-answer .muted { margin-top:2px; }
    """

    static let page = """
    <h1>Health data</h1>
    {{^hasTypes}}<p class="card empty">Nothing here yet. <a href="/import">Import an Apple Health export</a> (export.zip) to see steps, heart rate, sleep and more, day by day.</p>{{/hasTypes}}
    {{#hasTypes}}
    <section class="card health-answer">
      <h2>{{name}}</h2>
      {{#answer}}<p class="big">{{answer}}</p><p class="muted">{{answerLabel}}</p>{{/answer}}
      <nav class="ranges" aria-label="Days shown">{{#spans}}<a href="{{link}}"{{#on}} class="on" aria-current="page"{{/on}}>{{label}}</a>{{/spans}}</nav>
      <div class="chart">{{{chart}}}</div>
    </section>
    <h2>Everything kept</h2>
    <div class="card"><table>
      <thead><tr><th>Type</th><th class="num">Days</th><th class="num">Last</th></tr></thead><tbody>
      {{#rows}}<tr><td><a href="{{link}}"{{#chosen}} aria-current="page"{{/chosen}}>{{name}}</a> <span class="muted">{{unit}}</span></td><td class="num">{{days}}</td><td class="num">{{last}}</td></tr>{{/rows}}
    </tbody></table></div>
    <p class="muted">Summed up per day from imported exports; a newer export of the same phone replaces a day's numbers.</p>
    {{/hasTypes}}
    """
}
