/// The weight pages' templates.
enum WeightTemplates {
    static let all: [String: String] = ["dashboard": dashboard, "weigh-ins": weighIns, "edit": edit, "confirm-delete": confirmDelete]

    static let dashboard = """
    <div class="columns"><div>
    <section id="today" class="verdict {{todayState}}" data-answer="{{todayState}}" aria-live="polite">
      <h1 class="question">Can I nom nom today?</h1>
      <div class="answer sentence">{{todayMessage}}</div>
      <p id="verdict" class="trend-line" data-answer="{{answer}}"><span aria-hidden="true">{{icon}}</span> Trend: {{reason}}</p>
      {{#todayLink}}<p class="trend-line go"><a href="{{.}}">{{todayLinkText}}</a></p>{{/todayLink}}
    </section>
    {{#hasData}}
    <div class="numbers">
      <div><b>{{rate}}</b><span>per week</span></div>
      <div><b>{{energy}}</b><span>a day, energy balance</span></div>
      <div><b>{{forecast}}</b><span>{{forecastLabel}}</span></div>
    </div>
    <nav class="ranges" aria-label="Period">
      {{#ranges}}<a href="/?range={{name}}" class="{{#on}}on{{/on}}"{{#on}} aria-current="page"{{/on}}>{{label}}</a>{{/ranges}}
    </nav>
    <div class="card chart">
      {{{chart}}}
      <p class="muted">Trend {{latestTrend}} · <a href="/chart.svg?range={{range}}" download="cinn-trend.svg">Download chart (SVG)</a></p>
    </div>
    {{/hasData}}
    </div><div>
    {{#form.confirmation}}<div class="card confirm" id="weight-confirm" role="alert">
      <p><b>{{form.confirmation}}</b></p>
      <form method="post" action="/weigh-ins" class="actions">
        <input type="hidden" name="weight" value="{{form.weight}}"><input type="hidden" name="date" value="{{form.date}}">
        <input type="hidden" name="note" value="{{form.note}}"><input type="hidden" name="confirm" value="true">
        <button type="submit" id="save-anyway">Save {{form.weight}} {{unit}} anyway</button>
        <a class="button secondary" href="#weight">Fix it</a>
      </form>
    </div>{{/form.confirmation}}
    <form id="add-weight" class="card" method="post" action="/weigh-ins">
      <h2 class="first">Add a weigh-in</h2>
      {{#formError}}<p class="error" role="alert">{{formError}}</p>{{/formError}}
      <div class="row">
        <div><label for="weight">Weight ({{unit}})</label>
          <input id="weight" name="weight" inputmode="decimal" autocomplete="off" required placeholder="{{placeholder}}" value="{{form.weight}}"></div>
        <div><label for="date">Day</label><input id="date" name="date" type="date" value="{{form.date}}" max="{{today}}"></div>
      </div>
      <label for="note">Note (optional)</label><input id="note" name="note" maxlength="500" value="{{form.note}}">
      <p><button type="submit">Add weight</button></p>
    </form>
    {{^hasData}}<p class="card empty">No weigh-ins yet. Add today's weight above, or <a href="/import">import a file</a> from another app.</p>{{/hasData}}
    {{#hasData}}
    <h2>Latest weigh-ins</h2>
    <div class="card"><table>
      <thead><tr><th>Day</th><th class="num">Weight</th><th class="num">Trend</th></tr></thead>
      <tbody>{{#latest}}<tr><td>{{day}}</td><td class="num">{{weight}}</td><td class="num">{{trend}}</td></tr>{{/latest}}</tbody>
    </table><p class="go"><a href="/weigh-ins">All weigh-ins, edit and delete →</a></p></div>
    {{/hasData}}
    </div></div>
    """

    static let weighIns = """
    <h1>Weigh-ins</h1>
    {{^hasItems}}<p class="card empty">No weigh-ins yet. <a href="/">Add one</a> or <a href="/import">import a file</a>.</p>{{/hasItems}}
    {{#hasItems}}
    <p class="muted">Tap a weigh-in to edit or delete it.</p>
    <div class="card"><table>
      <thead><tr><th>When</th><th class="num">Weight</th></tr></thead>
      <tbody>
      {{#items}}<tr><td><a class="rowlink" href="/weigh-ins/{{id}}/edit" aria-label="Edit {{weight}} on {{day}}">{{day}} <span class="muted">{{time}}</span>{{#note}}<br><span class="muted">{{note}}</span>{{/note}}</a></td>
        <td class="num"><a class="rowlink" href="/weigh-ins/{{id}}/edit" tabindex="-1">{{weight}}</a></td></tr>{{/items}}
      </tbody></table>
      <p class="row">{{#newer}}<a class="button secondary" href="/weigh-ins?page={{newer}}">← Newer</a>{{/newer}}
        {{#older}}<a class="button secondary" href="/weigh-ins?page={{older}}">Older →</a>{{/older}}</p>
    </div>
    {{/hasItems}}
    """

    static let edit = """
    <p class="go"><a href="/weigh-ins">← Weigh-ins</a></p>
    <h1>Edit weigh-in</h1>
    {{#confirmation}}<div class="card confirm" id="weight-confirm" role="alert">
      <p><b>{{confirmation}}</b></p>
      <form method="post" action="/weigh-ins/{{id}}" class="actions">
        <input type="hidden" name="weight" value="{{weight}}"><input type="hidden" name="date" value="{{time}}">
        <input type="hidden" name="note" value="{{note}}"><input type="hidden" name="confirm" value="true">
        <button type="submit" id="save-anyway">Save {{weight}} {{unit}} anyway</button>
        <a class="button secondary" href="#weight">Fix it</a>
      </form>
    </div>{{/confirmation}}
    <form class="card" method="post" action="/weigh-ins/{{id}}">
      {{#formError}}<p class="error" role="alert">{{formError}}</p>{{/formError}}
      <label for="weight">Weight ({{unit}})</label><input id="weight" name="weight" inputmode="decimal" required value="{{weight}}">
      <label for="date">Time</label><input id="date" name="date" type="datetime-local" step="1" value="{{time}}">
      <label for="note">Note</label><input id="note" name="note" maxlength="500" value="{{note}}">
      <p class="row"><button type="submit">Save</button><a class="button secondary" href="/weigh-ins">Cancel</a></p>
    </form>
    <p><a class="button secondary" href="/weigh-ins/{{id}}/delete">Delete this weigh-in…</a></p>
    """

    static let confirmDelete = """
    <h1>Delete this weigh-in?</h1>
    <div class="card"><p><b>{{weight}} {{unit}}</b> on {{day}} at {{clock}}</p>
    <form method="post" action="/weigh-ins/{{id}}/delete" class="row">
      <button class="danger" type="submit">Delete</button><a class="button secondary" href="/weigh-ins">Keep it</a>
    </form></div>
    """
}
