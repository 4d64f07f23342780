/// Templates of the glucose pages: the report, a day, and the meal definitions.
enum GlucoseTemplates {
    static let all: [String: String] = ["glucose": report, "glucose-day": day, "glucose-meals": meals]

    static let style = """
    .tir { display:block; width:100%; height:22px; border-radius:8px; overflow:hidden; margin:8px 0 4px; border:1px solid var(--line); }
    .tir .vlow { fill:#b91c1c; } .tir .low { fill:#f87171; } .tir .in { fill:#16a34a; } .tir .high { fill:#f59e0b; } .tir .vhigh { fill:#b45309; }
    .tir-legend { display:flex; flex-wrap:wrap; gap:4px 12px; font-size:.85rem; color:var(--muted); margin:0; padding:0; list-style:none; }
    .tir-legend b { color:var(--text); }
    .figures { display:grid; grid-template-columns:repeat(2, minmax(0, 1fr)); gap:8px; margin:12px 0; }
    .figures div { background:var(--card); border:1px solid var(--line); border-radius:12px; padding:10px; }
    .figures span { display:block; font-size:.8rem; color:var(--muted); } .figures b { font-size:1.15rem; } .figures small { display:block; color:var(--muted); }
    @media (min-width: 600px) { .figures { grid-template-columns:repeat(4, minmax(0, 1fr)); } }
    .events li { padding:8px 0; border-bottom:1px solid var(--line); list-style:none; } ul.events { padding:4px 16px; margin:12px 0; }
    .events li:last-child { border-bottom:0; }
    .events .flag { color:var(--unknown); font-weight:600; } .events details { margin-top:4px; }
    .periods { display:flex; gap:4px; } .periods a { flex:1; text-align:center; padding:8px 4px; min-height:44px; border-radius:10px;
      border:1px solid var(--line); background:var(--card); color:var(--text); text-decoration:none; }
    .periods a.on { background:var(--accent); color:var(--bg); border-color:var(--accent); font-weight:700; }
    """

    static let report = """
    <h1>Glucose</h1>
    <nav class="periods" aria-label="Period">{{#periods}}<a href="/glucose?days={{days}}" class="{{#on}}on{{/on}}">{{label}}</a>{{/periods}}</nav>
    {{^hasReadings}}<div class="card empty"><p>No glucose readings in these {{days}} days. Add one below, or import a Nightscout export on the <a href="/import">Import</a> page.</p></div>{{/hasReadings}}
    {{#hasReadings}}
    <div class="card">
      <h2 class="first">Time in range <small class="muted">{{from}} – {{to}}, {{readings}} readings</small></h2>
      <svg class="tir" role="img" aria-label="{{tirLabel}}">{{#bands}}<rect class="{{className}}" x="{{x}}%" width="{{width}}%" height="100%"/>{{/bands}}</svg>
      <ul class="tir-legend">{{#bands}}<li>{{label}} <b>{{percent}}</b></li>{{/bands}}</ul>
    </div>
    <div class="figures">{{#figures}}<div><span>{{label}}</span><b>{{value}}</b><small>{{detail}}</small></div>{{/figures}}</div>
    {{/hasReadings}}

    <h2>Which meals spike me</h2>
    {{^hasRanking}}<p class="muted">Log meals (below) with readings around them: each meal's response is the rise over the reading before it, its peak within three hours and the area above it over two hours.</p>{{/hasRanking}}
    {{#hasRanking}}<div class="card"><table><thead><tr><th>Meal</th><th class="num">Rise</th><th class="num">Area</th><th class="num">Peak after</th></tr></thead><tbody>{{#ranking}}
      <tr><td>{{name}}<br><small class="muted">{{counted}} of {{events}} counted</small></td><td class="num">{{rise}}</td><td class="num">{{area}}</td><td class="num">{{minutes}}</td></tr>{{/ranking}}
    </tbody></table><p class="muted">Area: mg/dL × minutes above the baseline over two hours (higher: a bigger spike). Reported events and responses without two hours of readings are not counted.</p></div>{{/hasRanking}}
    {{#hasFoodRanking}}<details class="card"><summary>By food</summary><table><tbody>{{#foodRanking}}
      <tr><td>{{name}}</td><td class="num">{{rise}}</td><td class="num">{{area}}</td></tr>{{/foodRanking}}</tbody></table></details>{{/hasFoodRanking}}

    <h2>Meals eaten <small class="muted">the latest; every day below</small></h2>
    {{#hasMeals}}
    <form class="card" id="log-meal" method="post" action="/glucose/meal-events#log-meal">
      {{#feedback.mealError}}<p class="error" role="alert">{{.}}</p>{{/feedback.mealError}}
      <div class="row"><div><label for="meal_id">Meal</label><select id="meal_id" name="meal_id">{{#mealOptions}}<option value="{{id}}">{{name}}</option>{{/mealOptions}}</select></div>
      <div><label for="event_time">When</label><input id="event_time" name="time" type="datetime-local" value="{{now}}"></div></div>
      <div class="row"><div><label for="portion">Portion</label><input id="portion" name="portion" inputmode="decimal" value="1"></div>
      <div class="shrink"><button type="submit">Log meal</button></div></div>
    </form>
    {{/hasMeals}}
    {{^hasMeals}}<p class="muted">Define your meals first on <a href="/glucose/meals">Meals</a>.</p>{{/hasMeals}}
    <p class="go"><a href="/glucose/meals">Meals →</a></p>
    {{#hasEvents}}<ul class="events card" id="meal-events">{{#feedback.mealEventError}}<li class="error" role="alert">{{.}}</li>{{/feedback.mealEventError}}{{#events}}
      <li><a href="/glucose/days/{{date}}">{{when}}</a> — <b>{{meal}}</b>{{#portion}} ({{portion}}){{/portion}}: {{response}}
        {{#reason}}<div class="flag">Reported: {{reason}}</div>{{/reason}}
        <details><summary>Report or delete</summary>
          <form class="row" method="post" action="/glucose/meal-events/{{id}}/report#meal-events"><div><label for="reason-{{id}}">Reason (empty clears)</label><input id="reason-{{id}}" name="reason" value="{{reason}}" maxlength="200"></div><div class="shrink"><button type="submit" class="secondary">Save</button></div></form>
          <form method="post" action="/glucose/meal-events/{{id}}/delete"><button type="submit" class="danger">Delete</button></form>
        </details></li>{{/events}}
    </ul>{{/hasEvents}}

    <h2>Add a reading</h2>
    {{#feedback.confirmation}}<div class="card confirm" id="reading-confirm" role="alert">
      <p><b>{{message}}</b></p>
      {{#choices}}<form method="post" action="/glucose/readings#add-reading" class="actions">
        <input type="hidden" name="value" value="{{value}}"><input type="hidden" name="unit" value="{{unit}}">
        <input type="hidden" name="time" value="{{time}}"><input type="hidden" name="timing" value="{{timing}}">
        <input type="hidden" name="note" value="{{note}}"><input type="hidden" name="confirm" value="true">
        <button type="submit">{{label}}</button>
      </form>{{/choices}}
      <p class="go"><a href="#value">Fix it</a></p>
    </div>{{/feedback.confirmation}}
    <form class="card" id="add-reading" method="post" action="/glucose/readings#add-reading">
      {{#feedback.readingError}}<p class="error" role="alert">{{.}}</p>{{/feedback.readingError}}
      <div class="row"><div><label for="value">Glucose ({{unit}})</label><input id="value" name="value" inputmode="decimal" required value="{{feedback.confirmation.value}}"></div>
      <div><label for="timing">When</label><select id="timing" name="timing"><option value="">—</option><option value="fasting">Fasting</option><option value="before_meal">Before a meal</option><option value="after_meal">After a meal</option><option value="bedtime">Bedtime</option></select></div></div>
      <label for="reading_time">Time</label><input id="reading_time" name="time" type="datetime-local" value="{{now}}">
      <p><button type="submit">Add reading</button></p>
    </form>
    <h2>Add insulin</h2>
    <form class="card" id="add-insulin" method="post" action="/glucose/insulin#add-insulin">
      {{#feedback.insulinError}}<p class="error" role="alert">{{.}}</p>{{/feedback.insulinError}}
      <div class="row"><div><label for="units">Units</label><input id="units" name="units" inputmode="decimal" required></div>
      <div><label for="kind">Kind</label><select id="kind" name="kind"><option value="bolus">Bolus</option><option value="basal">Basal</option></select></div></div>
      <div class="row"><div><label for="insulin">Insulin</label><input id="insulin" name="insulin" placeholder="Humalog"></div>
      <div><label for="dose_time">Time</label><input id="dose_time" name="time" type="datetime-local" value="{{now}}"></div></div>
      <p><button type="submit">Add insulin</button></p>
    </form>
    {{#hasDays}}<h2>Days</h2><div class="card"><table><tbody>{{#dayRows}}<tr><td><a class="rowlink" href="/glucose/days/{{date}}">{{label}}</a></td><td class="num">{{mean}}</td><td class="num">{{inRange}} in range</td></tr>{{/dayRows}}</tbody></table></div>{{/hasDays}}
    """

    static let day = """
    <p class="go"><a href="/glucose">← Glucose</a></p>
    <h1>{{title}}</h1>
    <p class="pager"><a href="/glucose/days/{{previous}}">← {{previousLabel}}</a>{{#next}}<a href="/glucose/days/{{next}}">{{nextLabel}} →</a>{{/next}}</p>
    <div class="card chart">{{{chart}}}</div>
    <p class="muted">{{summary}}</p>
    {{#hasEvents}}<h2>Meals</h2><ul class="events card">{{#events}}<li>{{when}} — <b>{{meal}}</b>: {{response}}{{#reason}}<div class="flag">Reported: {{reason}}</div>{{/reason}}</li>{{/events}}</ul>{{/hasEvents}}
    {{#hasReadings}}<details class="card"{{^manyReadings}} open{{/manyReadings}}><summary>{{readingCount}}</summary><table><tbody>{{#readings}}
      <tr><td>{{time}}</td><td class="num">{{value}}</td><td class="muted">{{timing}}</td><td class="num"><form class="inline" method="post" action="/glucose/readings/{{id}}/delete"><input type="hidden" name="day" value="{{date}}"><button type="submit" class="secondary" aria-label="Delete the reading at {{time}}">Delete</button></form></td></tr>{{/readings}}
    </tbody></table></details>{{/hasReadings}}
    {{#hasDoses}}<h2>Insulin</h2><div class="card"><table><tbody>{{#doses}}
      <tr><td>{{time}}</td><td><b>{{units}}&nbsp;U</b> <span class="muted">{{kind}}</span></td><td class="num"><form class="inline" method="post" action="/glucose/insulin/{{id}}/delete"><input type="hidden" name="day" value="{{date}}"><button type="submit" class="secondary" aria-label="Delete the dose at {{time}}">Delete</button></form></td></tr>{{/doses}}
    </tbody></table></div>{{/hasDoses}}
    """

    static let meals = """
    <p class="go"><a href="/glucose">← Glucose</a></p>
    <h1>Meals</h1>
    <p class="muted">Define the meals you eat (common) or the study's test meals once, then log them when you eat them.</p>
    <form class="card" method="post" action="/glucose/meals">
      {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
      <label for="name">Name</label><input id="name" name="name" required maxlength="80" value="{{name}}">
      <div class="row"><div><label for="carbohydrate_g">Carbohydrate (g)</label><input id="carbohydrate_g" name="carbohydrate_g" inputmode="decimal" value="{{carbs}}"></div>
      <div><label for="kind">Kind</label><select id="kind" name="kind"><option value="common">Common meal</option><option value="test">Test meal</option></select></div></div>
      <p><button type="submit">Add meal</button></p>
    </form>
    {{#hasMeals}}<div class="card"><table><tbody>{{#meals}}
      <tr><td>{{name}}{{#test}} <small class="muted">test meal</small>{{/test}}<br><small class="muted">{{detail}}</small></td>
      <td class="num"><form class="inline" method="post" action="/glucose/meals/{{id}}/delete"><button type="submit" class="secondary" aria-label="Delete {{name}}">Delete</button></form></td></tr>{{/meals}}
    </tbody></table></div>{{/hasMeals}}
    """
}
