/// The food pages' mustache templates, their styles and their small scripts.
enum FoodTemplates {
    static let all: [String: String] = [
        "food-nav": nav, "food-day": day, "food-search": search, "food-result": result, "food-log": log,
        "food-meal-fields": mealFields, "food-entry-edit": entryEdit, "food-entry-delete": entryDelete, "food-editor": editor,
        "food-nutrient-field": nutrientField, "food-page": food, "food-delete": foodDelete, "food-presets": presets,
        "food-preset-delete": presetDelete, "food-history": history, "food-stats": stats,
    ]

    static let style = """
    .sr { position:absolute; width:1px; height:1px; overflow:hidden; clip:rect(0 0 0 0); white-space:nowrap; }
    nav.subnav { display:flex; gap:4px; overflow-x:auto; margin:-4px 0 8px; scrollbar-width:none; }
    nav.subnav::-webkit-scrollbar { display:none; }
    nav.subnav a { flex:1 1 auto; text-align:center; padding:11px 6px; min-height:44px; border-radius:10px; text-decoration:none; color:var(--muted);
      white-space:nowrap; font-size:.9rem; border:1px solid transparent; }
    nav.subnav a.on { background:var(--card); border-color:var(--line); color:var(--text); font-weight:700; }
    .day-nav { display:flex; align-items:center; gap:8px; margin:4px 0 8px; }
    .day-nav .day-title { flex:1; text-align:center; } .day-nav h1 { margin:0; }
    .day-nav .button { min-width:48px; font-size:1.4rem; line-height:1; padding:10px 12px; }
    .day-nav .disabled { visibility:hidden; }
    .energy { border-radius:16px; padding:16px 20px; margin:8px 0 12px; border:2px solid currentColor; }
    .energy .question { font-size:.95rem; font-weight:600; text-transform:uppercase; letter-spacing:.04em; }
    .energy .answer { font-size:2.3rem; font-weight:800; line-height:1.15; }
    .energy p { margin:6px 0 0; color:var(--text); }
    .energy.yes { color:var(--yes); background:var(--yes-bg); } .energy.no { color:var(--no); background:var(--no-bg); }
    .energy.careful { color:var(--unknown); background:var(--unknown-bg); }
    .energy.plain { color:var(--text); background:var(--card); border-color:var(--line); }
    .energy-bar { display:block; width:100%; height:10px; border-radius:5px; background:var(--card); overflow:hidden; margin-top:10px;
      border:1px solid currentColor; }
    .energy-bar rect { fill:currentColor; }
    .macro-numbers span { display:block; }
    .day-status { display:flex; flex-wrap:wrap; align-items:center; gap:8px; margin:0 0 12px; }
    .day-status > span:first-child { flex:1 1 12rem; color:var(--muted); } .day-status button { white-space:nowrap; }
    .meal .meal-head + .entries { margin-top:4px; }
    .actions { display:flex; gap:8px; flex-wrap:wrap; } .actions > * { flex:1; }
    .meal-head { display:flex; align-items:center; gap:10px; } .meal-head h2 { margin:0; flex:1; overflow-wrap:anywhere; }
    .meal-energy { color:var(--muted); font-variant-numeric:tabular-nums; white-space:nowrap; }
    .add-button { display:inline-flex; align-items:center; justify-content:center; min-width:44px; min-height:44px;
      border-radius:22px; text-decoration:none; font-size:1.5rem; font-weight:700; background:var(--accent); color:var(--bg); }
    .icon-button { display:inline-flex; align-items:center; justify-content:center; min-width:44px; min-height:44px;
      border-radius:22px; text-decoration:none; color:var(--muted); }
    ul.entries, ul.results, ul.plain { list-style:none; margin:8px 0 0; padding:0; }
    .entry { display:flex; align-items:center; gap:6px; border-top:1px solid var(--line); }
    .entry-main { flex:1; min-width:0; display:block; padding:10px 0; min-height:44px; color:inherit; text-decoration:none; }
    .entry-name { display:block; font-weight:600; overflow-wrap:anywhere; }
    .entry-detail { display:block; font-size:.85rem; color:var(--muted); overflow-wrap:anywhere; }
    .entry-energy { font-variant-numeric:tabular-nums; white-space:nowrap; }
    .just-logged { background:var(--yes-bg); border-radius:8px; padding-left:6px; }
    .result a { display:block; padding:12px 14px; min-height:44px; text-decoration:none; color:inherit; background:var(--card);
      border:1px solid var(--line); border-radius:12px; margin:6px 0; }
    .result-name { font-weight:600; overflow-wrap:anywhere; } .result-detail { display:block; font-size:.85rem; color:var(--muted); }
    .result form { margin:6px 0; padding:8px 8px 8px 14px; background:var(--card); border:1px solid var(--line); border-radius:12px; }
    .result form .entry-main { padding:0; }
    .badge { display:inline-block; font-size:.75rem; font-weight:700; padding:1px 8px; border-radius:999px;
      background:var(--accent); color:var(--bg); vertical-align:middle; }
    .badge.recent { background:transparent; color:var(--accent); border:1px solid var(--accent); }
    .field-error { color:var(--no); font-weight:600; margin:4px 0 0; font-size:.9rem; }
    input[aria-invalid=true], select[aria-invalid=true] { border:2px solid var(--no); }
    .notice { background:var(--yes-bg); color:var(--yes); border-radius:12px; padding:10px 14px; font-weight:600; }
    .notice.info { background:var(--card); color:var(--text); border:1px solid var(--accent); }
    .preview { display:flex; flex-wrap:wrap; gap:4px 16px; margin:12px 0 4px; padding:10px 12px; background:var(--bg);
      border-radius:10px; font-variant-numeric:tabular-nums; }
    .preview b { font-size:1.15rem; }
    details > summary { cursor:pointer; padding:10px 0; font-weight:600; color:var(--accent); }
    details > summary h2 { display:inline; margin:0; color:var(--text); }
    table.nutrients td, table.nutrients th { padding:7px 4px; }
    table.nutrients .num, #stats-periods .num { white-space:nowrap; }
    @media (max-width: 400px) { .card:has(> table.nutrients) { padding:12px 8px; } table.nutrients { font-size:.875rem; }
      table.nutrients td, table.nutrients th { padding:7px 2px; } table.nutrients tr.detail td:first-child { padding-left:12px; } }
    #stats-periods td, #stats-periods th { padding:8px 4px; font-size:.9rem; }
    table.nutrients tr.macro td { font-weight:700; }
    table.nutrients tr.detail td:first-child { padding-left:22px; color:var(--muted); }
    .nutrient-field { display:grid; grid-template-columns:minmax(0, 1fr) 11rem; align-items:center; gap:6px 8px; margin-bottom:6px; }
    .nowrap { white-space:nowrap; }
    .nutrient-field label { margin:8px 0 4px; } .nutrient-field.detail label { padding-left:16px; }
    .nutrient-field .field-error { grid-column:1 / -1; }
    .amount-input { display:flex; gap:4px; align-items:center; }
    .amount-input input { flex:1; min-width:0; } .amount-input select { flex:0 0 5.2rem; width:5.2rem; padding:10px 6px; }
    .amount-input .unit { flex:0 0 5.2rem; color:var(--muted); padding-left:6px; }
    .search .row input, #barcode-form .row input { flex:2.2; }
    form .row + .row { margin-top:0; }
    .pager { display:flex; gap:8px; }
    """

    static let nav = """
    <nav class="subnav" aria-label="Food">{{#links}}<a href="{{href}}" class="{{#on}}on{{/on}}"{{#on}} aria-current="page"{{/on}}>{{label}}</a>{{/links}}</nav>
    """

    static let day = """
    <nav class="day-nav" aria-label="Day">
      <a class="button secondary" href="/food/{{previous}}" rel="prev"><span aria-hidden="true">‹</span><span class="sr">Previous day</span></a>
      <div class="day-title"><h1>{{heading}}</h1>{{#fullDate}}<span class="muted">{{.}}</span>{{/fullDate}}</div>
      {{#next}}<a class="button secondary" href="/food/{{.}}" rel="next"><span aria-hidden="true">›</span><span class="sr">Next day</span></a>{{/next}}
      {{^next}}<span class="button secondary disabled" aria-hidden="true">›</span>{{/next}}
    </nav>
    {{#notice}}<p class="notice" role="status" id="notice">{{.}}</p>{{/notice}}
    <section id="day-energy" class="energy {{state}}" data-kcal="{{energyKcal}}"{{#targetKcal}} data-target-kcal="{{.}}"{{/targetKcal}}>
      <div class="answer">{{answer}}</div>
      {{#barPercent}}<svg class="energy-bar" aria-hidden="true"><rect width="{{.}}%" height="100%"/></svg>{{/barPercent}}
      <p>{{answerDetail}}{{^hasTarget}} <a href="/profile">Set up your profile</a> for one.{{/hasTarget}}</p>
    </section>
    {{#maintenance}}<p class="muted" id="maintenance">{{.}} · <a href="/energy">Energy</a></p>{{/maintenance}}
    {{#canMark}}<form method="post" action="/food/{{date}}/status" class="day-status" id="day-status">
      <span>{{#isComplete}}✓ Logged in full: this day counts towards your expenditure.{{/isComplete}}{{#isPartial}}Marked partial: left out of the expenditure estimate.{{/isPartial}}{{^isComplete}}{{^isPartial}}Finished logging this day?{{/isPartial}}{{/isComplete}}</span>
      <span class="actions">{{^isComplete}}<button class="secondary" name="status" value="complete">Mark complete</button>{{/isComplete}}
      {{^isPartial}}<button class="secondary" name="status" value="partial">Mark partial</button>{{/isPartial}}</span>
    </form>{{/canMark}}
    <div class="numbers macro-numbers" id="day-macros">{{#macros}}<div><b>{{amount}}</b><span>{{label}}</span>{{#percent}}<span>{{.}} DV</span>{{/percent}}</div>{{/macros}}</div>
    <p class="actions"><a class="button" id="add-food" href="{{searchLink}}">+ Add food</a></p>
    {{^hasEntries}}<p class="muted empty-day">Nothing logged on this day yet. Tap + on a meal or Add food: search, scan a barcode, or pick a recent food.</p>{{/hasEntries}}
    <div class="meals">{{#meals}}
    <section class="card meal" id="{{anchor}}" data-meal="{{meal}}">
      <div class="meal-head"><h2>{{title}}</h2><span class="meal-energy">{{mealEnergy}}</span>
        <a class="add-button" href="{{addLink}}"><span aria-hidden="true">+</span><span class="sr">Add food to {{title}}</span></a></div>
      {{#hasEntries}}<ul class="entries">{{#entries}}
        <li id="entry-{{id}}" class="entry{{#justLogged}} just-logged{{/justLogged}}" data-entry-id="{{id}}">
          <a class="entry-main" href="/food/entries/{{id}}/edit"><span class="sr">Edit </span><span class="entry-name">{{name}}{{#brand}} <span class="muted">{{.}}</span>{{/brand}}</span>
            <span class="entry-detail">{{amount}} · {{time}}{{#note}} · {{.}}{{/note}}</span></a>
          <span class="entry-energy">{{energy}}</span>
          <a class="icon-button" href="/food/entries/{{id}}/delete"><span aria-hidden="true">✕</span><span class="sr">Delete {{name}}</span></a>
        </li>{{/entries}}
      </ul>
      <details class="meal-actions"{{#actionsOpen}} open{{/actionsOpen}}><summary>Copy or save {{title}}</summary>
        <form method="post" action="/food/{{date}}/copy" class="row">
          <input type="hidden" name="meal" value="{{meal}}">
          <div><label for="copy-{{anchor}}">Copy to the day</label><input id="copy-{{anchor}}" type="date" name="to" value="{{copyTo}}" max="{{today}}" required></div>
          <div><button class="secondary" type="submit">Copy</button></div>
        </form>
        <form method="post" action="/food/presets" class="row">
          <input type="hidden" name="from_date" value="{{date}}"><input type="hidden" name="meal" value="{{meal}}">
          <div><label for="preset-{{anchor}}">Save as a preset named</label><input id="preset-{{anchor}}" name="name" value="{{presetName}}" maxlength="100" required></div>
          <div><button class="secondary" type="submit">Save</button></div>
        </form>
      </details>{{/hasEntries}}
      {{#mealCopyError}}<p class="field-error" role="alert">{{.}}</p>{{/mealCopyError}}
      {{#mealPresetError}}<p class="field-error" role="alert">{{.}}</p>{{/mealPresetError}}
    </section>
    {{/meals}}</div>
    {{#hasEntries}}
    <details class="card" id="nutrient-totals"><summary><h2>All nutrients</h2></summary>
      <table class="nutrients"><thead><tr><th>Nutrient</th><th class="num">Eaten</th><th class="num">%DV</th></tr></thead><tbody>
      {{#nutrients}}<tr class="{{#isMacro}}macro{{/isMacro}}{{#isDetail}}detail{{/isDetail}}"><td>{{name}}</td><td class="num">{{#isPartial}}≥ {{/isPartial}}{{amount}}</td><td class="num">{{percent}}</td></tr>{{/nutrients}}
      </tbody></table>
      {{#hasPartial}}<p class="muted">≥ marks a total some foods did not state; the real amount may be higher.</p>{{/hasPartial}}
    </details>
    <div class="card chart">{{{chart}}}</div>
    <details class="card" id="copy-day"{{#copyError}} open{{/copyError}}><summary>Copy this whole day</summary>
      <form method="post" action="/food/{{date}}/copy" class="row">
        <div><label for="copy-to">To the day</label><input id="copy-to" type="date" name="to" value="{{copyTo}}" max="{{today}}" required></div>
        <div><button class="secondary" type="submit">Copy the day</button></div>
      </form>
      {{#copyError}}<p class="field-error" role="alert">{{.}}</p>{{/copyError}}
    </details>
    {{/hasEntries}}
    """

    static let result = """
    <li class="result" data-food-id="{{id}}"><a href="{{link}}"><span class="result-name">{{name}}</span>{{#mine}} <span class="badge">mine</span>{{/mine}}{{#recent}} <span class="badge recent">recent</span>{{/recent}}
      <span class="result-detail">{{#brand}}{{.}} · {{/brand}}{{#versions}}{{.}} · {{/versions}}{{energy}}{{#serving}} · {{.}}{{/serving}}</span>
      {{#ago}}<span class="result-detail">{{.}}</span>{{/ago}}{{#times}}<span class="result-detail">{{.}}</span>{{/times}}</a></li>
    """

    static let search = """
    <h1>Add food{{#mealTitle}} to {{.}}{{/mealTitle}}</h1>
    <form id="food-search" class="search" method="get" action="/food/search" role="search" data-energy-unit="{{energyUnit}}">
      {{#meal}}<input type="hidden" name="meal" value="{{.}}">{{/meal}}{{#date}}<input type="hidden" name="date" value="{{.}}">{{/date}}
      <label for="q">Search foods</label>
      <div class="row"><input id="q" name="q" type="search" value="{{query}}" autocomplete="off" spellcheck="false" placeholder="greek yog, chick brea…" aria-describedby="results-status" aria-controls="results">
        <button type="submit">Search</button></div>
    </form>
    <p id="results-status" class="muted" role="status">{{resultCount}}</p>
    <ul id="results" class="results" aria-label="Results">{{#results}}{{> food-result}}{{/results}}</ul>
    <p id="no-results" class="card empty"{{^noResults}} hidden{{/noResults}}>No food matches. <a href="{{newFoodLink}}">Make it from its nutrition label</a>.</p>
    <div id="browse"{{#hasQuery}} hidden{{/hasQuery}}>
      <form id="barcode-form" class="card" method="get" action="/food/barcode">
        {{#meal}}<input type="hidden" name="meal" value="{{.}}">{{/meal}}{{#date}}<input type="hidden" name="date" value="{{.}}">{{/date}}
        <label for="code">Barcode</label>
        <div class="row"><input id="code" name="code" inputmode="numeric" autocomplete="off" value="{{barcode}}" placeholder="digits under the bars"{{#barcodeError}} aria-invalid="true" aria-describedby="code-error"{{/barcodeError}}>
          <button class="secondary" type="submit">Look up</button></div>
        {{#barcodeError}}<p id="code-error" class="field-error" role="alert">{{.}}</p>{{/barcodeError}}
      </form>
      <p class="actions"><a class="button secondary" id="new-food" href="{{newFoodLink}}">Make a food from its label</a></p>
      {{#isEmptyJournal}}<p class="card empty">Nothing logged yet. Search above, look up a barcode, or make a food from its nutrition label; your recent and frequent foods will show here.</p>{{/isEmptyJournal}}
      {{#hasPresets}}<h2>Presets</h2><ul class="results" id="presets">{{#presets}}
        <li class="result" data-preset-id="{{id}}"><form method="post" action="/food/presets/{{id}}/log">
          {{#meal}}<input type="hidden" name="meal" value="{{.}}">{{/meal}}{{#date}}<input type="hidden" name="date" value="{{.}}">{{/date}}
          <input type="hidden" name="times" value="1">
          <div class="meal-head"><span class="entry-main"><span class="result-name">{{name}}</span>
            <span class="result-detail">{{energy}}{{#presetMeal}} · {{.}}{{/presetMeal}}</span></span>
            <button class="secondary" type="submit">Log<span class="sr"> {{name}}</span></button></div>
        </form></li>{{/presets}}</ul>{{/hasPresets}}
      {{#hasRecents}}<h2>Recent</h2><ul class="results" id="recents">{{#recents}}{{> food-result}}{{/recents}}</ul>{{/hasRecents}}
      {{#hasFrequent}}<h2>Frequent</h2><ul class="results" id="frequent">{{#frequent}}{{> food-result}}{{/frequent}}</ul>{{/hasFrequent}}
    </div>
    <script src="/static/food-search.js"></script>
    """

    static let mealFields = """
    <div class="row">
      <div><label for="meal">Meal</label><select id="meal" name="meal"{{#mealError}} aria-invalid="true" aria-describedby="meal-error"{{/mealError}}>{{#meals}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/meals}}</select></div>
      <div><label for="meal-name">Or another meal</label><input id="meal-name" name="meal_name" maxlength="40" autocomplete="off" value="{{mealName}}" placeholder="Second breakfast"></div>
    </div>
    {{#mealError}}<p id="meal-error" class="field-error" role="alert">{{.}}</p>{{/mealError}}
    <div class="row">
      <div><label for="date">Day</label><input id="date" name="date" type="date" value="{{date}}" max="{{maxDate}}" required{{#timeError}} aria-invalid="true" aria-describedby="time-error"{{/timeError}}></div>
      <div><label for="time">Time</label><input id="time" name="time" type="time" value="{{time}}"{{#timeError}} aria-invalid="true" aria-describedby="time-error"{{/timeError}}></div>
    </div>
    {{#timeError}}<p id="time-error" class="field-error" role="alert">{{.}}</p>{{/timeError}}
    <label for="note">Note (optional)</label><input id="note" name="note" maxlength="500" value="{{note}}">
    """

    static let log = """
    <h1>{{name}}</h1>
    <p class="muted">{{#brand}}{{.}} · {{/brand}}{{source}} · <a href="{{foodLink}}">All nutrients</a></p>
    <form id="log-form" class="card" method="post" action="{{action}}" data-per100="{{per100}}" data-energy-unit="{{energyUnit}}">
      {{#formError}}<p class="error" role="alert">{{.}}</p>{{/formError}}
      <div class="row">
        <div class="w6"><label for="servings">Servings</label><input id="servings" name="servings" inputmode="decimal" autocomplete="off" required value="{{servings}}"{{#servingsError}} aria-invalid="true" aria-describedby="servings-error" autofocus{{/servingsError}}></div>
        <div><label for="serving">of</label><select id="serving" name="serving"{{#servingError}} aria-invalid="true" aria-describedby="serving-error"{{/servingError}}>{{#servingChoices}}<option value="{{value}}" data-grams="{{grams}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/servingChoices}}</select></div>
      </div>
      {{#servingsError}}<p id="servings-error" class="field-error" role="alert">{{.}}</p>{{/servingsError}}
      {{#servingError}}<p id="serving-error" class="field-error" role="alert">{{.}}</p>{{/servingError}}
      <output id="log-preview" class="preview" for="servings serving">{{#preview}}<span data-nutrient="{{key}}"><b>{{value}}</b> {{label}}</span>{{/preview}}</output>
      {{> food-meal-fields}}
      <p class="row"><button type="submit" id="log-submit">Log it</button><a class="button secondary" href="{{cancelLink}}">Cancel</a></p>
    </form>
    <script src="/static/food-preview.js"></script>
    """

    static let entryEdit = """
    <h1>Edit {{name}}</h1>
    <p class="muted">{{#brand}}{{.}} · {{/brand}}{{amount}} · {{energy}}</p>
    <form id="entry-form" class="card" method="post" action="/food/entries/{{id}}">
      {{#formError}}<p class="error" role="alert">{{.}}</p>{{/formError}}
      <label for="servings">Servings of {{serving}}</label>
      <input id="servings" name="servings" inputmode="decimal" autocomplete="off" required value="{{servings}}"{{#servingsError}} aria-invalid="true" aria-describedby="servings-error" autofocus{{/servingsError}}>
      {{#servingsError}}<p id="servings-error" class="field-error" role="alert">{{.}}</p>{{/servingsError}}
      {{> food-meal-fields}}
      <p class="row"><button type="submit">Save</button><a class="button secondary" href="{{dayLink}}">Cancel</a></p>
    </form>
    <p><a class="button secondary" href="/food/entries/{{id}}/delete">Delete this entry…</a></p>
    """

    static let entryDelete = """
    <h1>Delete this entry?</h1>
    <div class="card"><p><b>{{name}}</b>{{#brand}} {{.}}{{/brand}}, {{amount}}, {{energy}}, at {{when}}</p>
    <form method="post" action="/food/entries/{{id}}/delete" class="row">
      <button class="danger" type="submit">Delete</button><a class="button secondary" href="{{dayLink}}">Keep it</a>
    </form></div>
    """

    static let nutrientField = """
    <div class="nutrient-field{{#isDetail}} detail{{/isDetail}}">
      <label for="{{id}}">{{label}}</label>
      <div class="amount-input"><input id="{{id}}" name="{{name}}" inputmode="decimal" autocomplete="off" value="{{value}}"{{#fieldError}} aria-invalid="true" aria-describedby="{{id}}-error"{{/fieldError}}>
        {{#offersPercent}}<select name="{{percentName}}" aria-label="{{label}} in"><option value="amount">{{unit}}</option><option value="percent"{{#asPercent}} selected{{/asPercent}}>% DV</option></select>{{/offersPercent}}
        {{^offersPercent}}<span class="unit">{{unit}}</span>{{/offersPercent}}</div>
      {{#fieldError}}<p id="{{id}}-error" class="field-error" role="alert">{{.}}</p>{{/fieldError}}
    </div>
    """

    static let editor = """
    <h1>{{heading}}</h1>
    {{#notice}}<p class="notice info" role="status">{{.}}</p>{{/notice}}
    <form id="food-editor" class="card" method="post" action="{{action}}">
      {{#formError}}<p class="error" role="alert">{{.}}</p>{{/formError}}
      {{#meal}}<input type="hidden" name="meal" value="{{.}}">{{/meal}}{{#date}}<input type="hidden" name="date" value="{{.}}">{{/date}}
      <label for="name">Name</label><input id="name" name="name" maxlength="200" required value="{{name}}"{{#nameError}} aria-invalid="true" aria-describedby="name-error" autofocus{{/nameError}}>
      {{#nameError}}<p id="name-error" class="field-error" role="alert">{{.}}</p>{{/nameError}}
      <div class="row">
        <div><label for="brand">Brand (optional)</label><input id="brand" name="brand" maxlength="200" value="{{brand}}"{{#brandError}} aria-invalid="true" aria-describedby="brand-error"{{/brandError}}></div>
        <div><label for="barcode">Barcode (optional)</label><input id="barcode" name="barcode" inputmode="numeric" autocomplete="off" value="{{barcode}}"{{#barcodeError}} aria-invalid="true" aria-describedby="barcode-error"{{/barcodeError}}></div>
      </div>
      {{#brandError}}<p id="brand-error" class="field-error" role="alert">{{.}}</p>{{/brandError}}
      {{#barcodeError}}<p id="barcode-error" class="field-error" role="alert">{{.}}</p>{{/barcodeError}}
      <h2>The label's serving</h2>
      <div class="row">
        <div><label for="serving-label">Serving</label><input id="serving-label" name="serving.label" maxlength="100" required placeholder="1 bar" value="{{servingLabel}}"{{#servingLabelError}} aria-invalid="true" aria-describedby="serving-label-error"{{/servingLabelError}}></div>
        <div><label for="serving-grams">It weighs</label><input id="serving-grams" name="serving.grams" inputmode="decimal" autocomplete="off" required placeholder="40" value="{{servingGrams}}"{{#servingGramsError}} aria-invalid="true" aria-describedby="serving-grams-error"{{/servingGramsError}}></div>
        <div class="w7-5"><label for="basis">in</label><select id="basis" name="basis">{{#bases}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/bases}}</select></div>
      </div>
      {{#servingLabelError}}<p id="serving-label-error" class="field-error" role="alert">{{.}}</p>{{/servingLabelError}}
      {{#servingGramsError}}<p id="serving-grams-error" class="field-error" role="alert">{{.}}</p>{{/servingGramsError}}
      <h2>Per serving</h2>
      <p class="muted">Copy what the label says for one serving; leave out what it does not say. Vitamins and minerals can be amounts or % Daily Value.</p>
      <div class="nutrient-field">
        <label for="nutrient-energy">Energy</label>
        <div class="amount-input"><input id="nutrient-energy" name="nutrients.energy" inputmode="decimal" autocomplete="off" value="{{energy}}"{{#energyError}} aria-invalid="true" aria-describedby="nutrient-energy-error"{{/energyError}}>
          <select name="energy_unit" aria-label="Energy in">{{#energyUnits}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/energyUnits}}</select></div>
        {{#energyError}}<p id="nutrient-energy-error" class="field-error" role="alert">{{.}}</p>{{/energyError}}
      </div>
      {{#main}}{{> food-nutrient-field}}{{/main}}
      {{#sections}}<details id="{{sectionID}}"{{#open}} open{{/open}}><summary>{{title}}</summary>{{#fields}}{{> food-nutrient-field}}{{/fields}}</details>{{/sections}}
      <p class="row"><button type="submit" id="save-food">{{submit}}</button><a class="button secondary" href="{{cancelLink}}">Cancel</a></p>
    </form>
    """

    static let food = """
    {{#notice}}<p class="notice info" id="found-notice" role="status">{{.}}</p>{{/notice}}
    <h1>{{name}}</h1>
    <p class="muted">{{#brand}}{{.}} · {{/brand}}{{source}}{{#barcode}} · barcode {{.}}{{/barcode}}{{#mine}} <span class="badge">mine</span>{{/mine}}</p>
    <section id="food-energy" class="energy plain"><div class="answer">{{headline}}</div><p>{{servingText}}</p></section>
    <div class="numbers macro-numbers">{{#macros}}<div><b>{{amount}}</b><span>{{label}}</span>{{#percent}}<span>{{.}} DV</span>{{/percent}}</div>{{/macros}}</div>
    <p class="actions"><a class="button" id="log-it" href="{{logLink}}">Log it</a>
      {{#mine}}<a class="button secondary" id="edit-food" href="/food/foods/{{id}}/edit">Edit</a>{{/mine}}
      {{^mine}}<a class="button secondary" href="{{copyLink}}">Make a copy to edit</a>{{/mine}}</p>
    <div class="card"><table class="nutrients" id="food-nutrients">
      <thead><tr><th>Nutrient</th><th class="num">Serving</th><th class="num">%DV</th><th class="num">{{basis}}</th></tr></thead><tbody>
      {{#rows}}<tr class="{{#isMacro}}macro{{/isMacro}}{{#isDetail}}detail{{/isDetail}}"><td>{{name}}</td><td class="num">{{perServing}}</td><td class="num">{{percent}}</td><td class="num">{{amount}}</td></tr>{{/rows}}
      </tbody></table>
      <p class="muted">% Daily Value of one serving, for adults and children from 4 years (FDA).</p></div>
    <form id="preset-from-food" class="card" method="post" action="/food/presets">
      <h2 class="first">Save as a preset</h2>
      {{#presetError}}<p class="error" role="alert">{{.}}</p>{{/presetError}}
      <input type="hidden" name="food_id" value="{{id}}">
      <label for="preset-name">Name</label><input id="preset-name" name="name" maxlength="100" required value="{{presetName}}">
      <div class="row">
        <div class="w6"><label for="preset-servings">Servings</label><input id="preset-servings" name="servings" inputmode="decimal" autocomplete="off" required value="{{presetServings}}"{{#presetServingsError}} aria-invalid="true" aria-describedby="preset-servings-error"{{/presetServingsError}}></div>
        <div><label for="preset-serving">of</label><select id="preset-serving" name="serving">{{#servingChoices}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/servingChoices}}</select></div>
      </div>
      {{#presetServingsError}}<p id="preset-servings-error" class="field-error" role="alert">{{.}}</p>{{/presetServingsError}}
      <p><button class="secondary" type="submit">Save preset</button></p>
    </form>
    {{#mine}}<p><a class="button secondary" href="/food/foods/{{id}}/delete">Delete this food…</a></p>{{/mine}}
    """

    static let foodDelete = """
    <h1>Delete this food?</h1>
    <div class="card"><p><b>{{name}}</b>{{#brand}} {{.}}{{/brand}}</p>
    <p class="muted">Days you logged it on keep their nutrients.</p>
    <form method="post" action="/food/foods/{{id}}/delete" class="row">
      <button class="danger" type="submit">Delete</button><a class="button secondary" href="/food/foods/{{id}}">Keep it</a>
    </form></div>
    """

    static let presets = """
    <h1>Presets</h1>
    {{#notice}}<p class="notice" role="status">{{.}}</p>{{/notice}}
    {{^hasPresets}}<p class="card empty">No presets yet. Save a meal you eat often from its day (under the meal: Copy or save), or a food with its usual amount from the food's page.</p>{{/hasPresets}}
    {{#presets}}
    <section class="card preset{{#justSaved}} just-logged{{/justSaved}}" id="preset-{{id}}" data-preset-id="{{id}}">
      <div class="meal-head"><h2>{{name}}</h2><span class="meal-energy">{{energy}}</span></div>
      {{#presetMeal}}<p class="muted">{{.}}</p>{{/presetMeal}}
      <ul class="plain">{{#items}}<li>{{.}}</li>{{/items}}</ul>
      <form method="post" action="/food/presets/{{id}}/log">
        {{#logError}}<p class="field-error" role="alert">{{.}}</p>{{/logError}}
        <details{{#logError}} open{{/logError}}><summary>Meal, day, time, amount</summary>
          <div class="row">
            <div><label for="meal-{{id}}">Meal</label><select id="meal-{{id}}" name="meal"><option value="">Its usual meal</option>{{#meals}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/meals}}</select></div>
            <div class="w6"><label for="times-{{id}}">Times</label><input id="times-{{id}}" name="times" inputmode="decimal" autocomplete="off" value="{{times}}"></div>
          </div>
          <div class="row">
            <div><label for="date-{{id}}">Day</label><input id="date-{{id}}" name="date" type="date" value="{{date}}" max="{{maxDate}}"></div>
            <div><label for="time-{{id}}">Time</label><input id="time-{{id}}" name="time" type="time" value="{{time}}"></div>
          </div>
        </details>
        <p class="row"><button type="submit">Log it<span class="sr"> {{name}}</span></button><a class="button secondary" href="/food/presets/{{id}}/delete">Delete…</a></p>
      </form>
    </section>
    {{/presets}}
    """

    static let presetDelete = """
    <h1>Delete this preset?</h1>
    <div class="card"><p><b>{{name}}</b>, {{energy}}</p>
    <ul>{{#items}}<li>{{.}}</li>{{/items}}</ul>
    <p class="muted">Days you logged it on keep their entries.</p>
    <form method="post" action="/food/presets/{{id}}/delete" class="row">
      <button class="danger" type="submit">Delete</button><a class="button secondary" href="/food/presets">Keep it</a>
    </form></div>
    """

    static let history = """
    <h1>History</h1>
    <form class="search" method="get" action="/food/history" role="search">
      <label for="history-search">Search what you ate</label>
      <div class="row"><input id="history-search" name="search" type="search" value="{{search}}" autocomplete="off"><button type="submit">Search</button></div>
    </form>
    {{^hasEntries}}<p class="card empty" id="history-empty">{{#hasSearch}}Nothing you logged matches that.{{/hasSearch}}{{^hasSearch}}Nothing logged yet. <a href="/food/search">Add food</a> and it shows here.{{/hasSearch}}</p>{{/hasEntries}}
    {{#days}}<section class="card history-day">
      <div class="meal-head"><h2 class="go"><a href="{{link}}">{{label}}</a></h2></div>
      <ul class="entries">{{#rows}}<li class="entry" data-entry-id="{{id}}"><a class="entry-main" href="{{link}}#entry-{{id}}"><span class="entry-name">{{name}}{{#brand}} <span class="muted">{{.}}</span>{{/brand}}</span>
        <span class="entry-detail">{{amount}} · {{time}}</span></a><span class="entry-energy">{{energy}}</span></li>{{/rows}}</ul>
    </section>{{/days}}
    <p class="pager">{{#newer}}<a class="button secondary" href="{{.}}">← Newer</a>{{/newer}}{{#older}}<a class="button secondary" href="{{.}}">Older →</a>{{/older}}</p>
    """

    static let stats = """
    <h1>Statistics</h1>
    <nav class="ranges" aria-label="Days">{{#rangeLinks}}<a href="{{href}}" class="{{#on}}on{{/on}}"{{#on}} aria-current="page"{{/on}}>{{label}}</a>{{/rangeLinks}}</nav>
    <section id="stats-average" class="energy plain">
      <div class="question">A logged day, on average</div>
      <div class="answer">{{average}}</div>
      <p>{{daysLogged}}{{#target}} · {{.}}{{/target}}</p>
    </section>
    {{^hasData}}<p class="card empty">Nothing was logged between these days. <a href="/food">Log what you eat</a> and the numbers show here.</p>{{/hasData}}
    {{#hasData}}
    <div class="card chart">{{{calorieChart}}}</div>
    <div class="card chart">{{{macroChart}}}</div>
    {{/hasData}}
    <form id="stats-form" class="card" method="get" action="/food/stats">
      <div class="row">
        <div><label for="from">From</label><input id="from" name="from" type="date" value="{{from}}" max="{{maxDate}}"></div>
        <div><label for="to">To</label><input id="to" name="to" type="date" value="{{to}}" max="{{maxDate}}"></div>
      </div>
      <div class="row">
        <div><label for="nutrient">Nutrient</label><select id="nutrient" name="nutrient">{{#nutrients}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/nutrients}}</select></div>
        <div class="w7"><label for="period">Per</label><select id="period" name="period">{{#periods}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/periods}}</select></div>
      </div>
      <p><button type="submit">Show</button></p>
    </form>
    {{#hasData}}
    <div class="card chart">{{{nutrientChart}}}</div>
    <details class="card" id="stats-averages"><summary><h2>Every nutrient, a logged day on average</h2></summary>
      <table class="nutrients"><thead><tr><th>Nutrient</th><th class="num">Average</th><th class="num">%DV</th></tr></thead><tbody>
      {{#averages}}<tr class="{{#isMacro}}macro{{/isMacro}}{{#isDetail}}detail{{/isDetail}}"><td>{{name}}</td><td class="num">{{amount}}</td><td class="num">{{percent}}</td></tr>{{/averages}}
      </tbody></table></details>
    <h2>{{periodHeading}}</h2>
    <div class="card"><table id="stats-periods"><thead><tr><th>When</th><th class="num">A day</th><th class="num">P · C · F (g)</th></tr></thead><tbody>
      {{#periodRows}}<tr><td><span class="nowrap">{{label}}</span>{{#days}}<br><span class="muted">{{.}}</span>{{/days}}</td>
        <td class="num">{{average}}</td><td class="num">{{macros}}</td></tr>{{/periodRows}}
    </tbody></table></div>
    {{/hasData}}
    """

    /// Search as you type: asks the JSON API after a short pause and shows the results in place.
    static let searchScript = """
    (() => {
      const form = document.getElementById('food-search');
      if (!form || !window.fetch) return;
      const input = form.elements.q, list = document.getElementById('results');
      const status = document.getElementById('results-status'), none = document.getElementById('no-results');
      const browse = document.getElementById('browse');
      const kj = form.dataset.energyUnit === 'kJ';
      const context = new URLSearchParams();
      for (const name of ['meal', 'date']) if (form.elements[name]) context.set(name, form.elements[name].value);
      let timer, latest = 0;
      const energy = kcal => Math.round(kj ? kcal * 4.184 : kcal) + (kj ? ' kJ' : ' kcal');
      const grams = value => String(Math.round(value * 10) / 10);
      const span = (className, text) => {
        const element = document.createElement('span');
        element.className = className;
        element.textContent = text;
        return element;
      };
      function item(food) {
        const li = document.createElement('li'), a = document.createElement('a');
        li.className = 'result'; li.dataset.foodId = food.id;
        a.href = '/food/log/' + food.id + (context.toString() ? '?' + context : '');
        a.append(span('result-name', food.name));
        if (food.mine) a.append(' ', span('badge', 'mine'));
        if (food.last_used) a.append(' ', span('badge recent', 'recent'));
        const basis = food.basis || 'g', parts = [];
        if (food.brand) parts.push(food.brand);
        if (food.other_versions > 0) parts.push(food.other_versions + ' other version' + (food.other_versions === 1 ? '' : 's'));
        parts.push(food.energy_kcal_per_100 == null ? 'energy unknown' : energy(food.energy_kcal_per_100) + ' per 100 ' + basis);
        const serving = food.default_serving;
        if (serving) {
          const amount = grams(serving.grams) + ' ' + basis;
          parts.push(serving.label === amount ? amount : serving.label + ' (' + amount + ')');
        }
        a.append(span('result-detail', parts.join(' · ')));
        li.append(a);
        return li;
      }
      function show(results, query) {
        list.replaceChildren(...results.map(item));
        status.textContent = results.length === 1 ? '1 food' : results.length + ' foods';
        none.hidden = results.length > 0;
        browse.hidden = true;
      }
      function search() {
        const query = input.value.trim(), ticket = ++latest;
        const url = new URL(location.href);
        if (query) url.searchParams.set('q', query); else url.searchParams.delete('q');
        history.replaceState(null, '', url);
        if (!query) { list.replaceChildren(); status.textContent = ''; none.hidden = true; browse.hidden = false; return; }
        fetch('/api/v1/foods/search?limit=20&q=' + encodeURIComponent(query), { headers: { Accept: 'application/json' } })
          .then(response => response.ok ? response.json() : Promise.reject(response.status))
          .then(data => { if (ticket === latest) show(data.results, query); })
          .catch(() => { if (ticket === latest) status.textContent = 'Search did not answer; press Search to try again.'; });
      }
      input.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(search, 180); });
    })();
    """

    /// The log dialog's live preview: the energy and macros of the chosen servings, as you type.
    static let previewScript = """
    (() => {
      const form = document.getElementById('log-form');
      if (!form) return;
      const per100 = JSON.parse(form.dataset.per100 || '{}'), kj = form.dataset.energyUnit === 'kJ';
      const count = form.elements.servings, serving = form.elements.serving;
      const number = value => String(Number(value.toFixed(value >= 10 ? 0 : value >= 1 ? 1 : 2)));
      function update() {
        const servings = parseFloat(count.value.replace(',', '.'));
        const grams = parseFloat(serving.selectedOptions[0].dataset.grams);
        for (const field of form.querySelectorAll('#log-preview [data-nutrient]')) {
          const key = field.dataset.nutrient, shown = field.querySelector('b');
          if (!(servings > 0) || !(key in per100)) { shown.textContent = '—'; continue; }
          const amount = per100[key] * grams / 100 * servings;
          shown.textContent = key === 'energy'
            ? Math.round(kj ? amount * 4.184 : amount) + (kj ? ' kJ' : ' kcal')
            : number(amount) + ' g';
        }
      }
      count.addEventListener('input', update);
      serving.addEventListener('change', update);
    })();
    """
}
